// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"os"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
)

// RecordedInput is where recorded load is and how to read it, as the
// flags of whatif --since and explain --at (and the MCP tools' arguments
// of the same names) give it.
type RecordedInput struct {
	Prometheus prom.Options
	// Queries are --query NAME=PROMQL.
	Queries            []string
	MetricsResolution  time.Duration
	NoKubeStateMetrics bool
}

// DefaultRecordedInput returns the defaults of the flags.
func DefaultRecordedInput() RecordedInput {
	return RecordedInput{MetricsResolution: DefaultMetricsResolution}
}

// recordedFlags are the names of the flags of a RecordedInput that only
// mean something with recorded load.
var recordedFlags = []string{prom.FlagEndpoint, prom.FlagQuery, "metrics-resolution", "no-kube-state-metrics"}

// RecordedUsed reports whether a flag of recorded load is among given.
func RecordedUsed(given map[string]bool) bool {
	for _, f := range recordedFlags {
		if given[f] {
			return true
		}
	}
	return false
}

// Load checks the input and returns the run's recorded load; the endpoint
// defaults to $KUBECTL_HPA_PROMETHEUS.
func (r RecordedInput) Load() (RecordedLoad, error) {
	o := r.Prometheus
	o.ResolveEndpoint(os.Getenv)
	if o.Endpoint == "" {
		return RecordedLoad{}, usageErrorf("no recorded load: give --%s URL or NAMESPACE/SERVICE:PORT (or set %s)", prom.FlagEndpoint, prom.EnvEndpoint)
	}
	q, err := prom.ParseQueries(r.Queries)
	if err != nil {
		return RecordedLoad{}, &UsageError{Err: err}
	}
	if r.MetricsResolution <= 0 {
		return RecordedLoad{}, usageErrorf("--metrics-resolution must be positive, got %s", r.MetricsResolution)
	}
	return RecordedLoad{Prometheus: o, Queries: q, MetricsResolution: r.MetricsResolution, NoKubeStateMetrics: r.NoKubeStateMetrics}, nil
}

// ExplainAtInput is explain --at and its recorded load.
type ExplainAtInput struct {
	// At is --at: a duration ago, an RFC 3339 time or a UTC time of day.
	At       string
	Recorded RecordedInput
	// Given holds the names of the flags set (RecordedUsed).
	Given map[string]bool
}

// Config checks the input and returns the explain of the past sync, or nil
// without --at.
func (in ExplainAtInput) Config(src Source, name string, settings SettingsOverrides) (*ExplainAtConfig, error) {
	if in.At == "" {
		if RecordedUsed(in.Given) {
			return nil, usageErrorf("the recorded-load flags (--prometheus, --query, ...) go with --at")
		}
		return nil, nil
	}
	at, err := ParsePast(in.At, src.Now)
	if err != nil {
		return nil, usageErrorf("--at: %w", err)
	}
	load, err := in.Recorded.Load()
	if err != nil {
		return nil, err
	}
	return &ExplainAtConfig{Source: src, Name: name, Settings: settings, At: at, Load: load}, nil
}
