// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"os"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
)

// RecordedInput is where recorded load is and how to read it, as the
// options of RecordedRows give it (whatif --since, explain --at and the
// MCP tools that read recorded load).
type RecordedInput struct {
	// Prometheus is the client: its flags, or an MCP server's.
	Prometheus prom.Config
	// DefaultEndpoint is the endpoint when none is given (an MCP server's
	// --prometheus); $KUBECTL_HPA_PROMETHEUS comes after it.
	DefaultEndpoint string
	// Queries are NAME=PROMQL.
	Queries []string
	// MetricsResolution nil reads it off the PodMetrics, else takes
	// DefaultMetricsResolution.
	MetricsResolution  *time.Duration
	NoKubeStateMetrics bool
}

// flag names the option that sets field, for a message.
func (r *RecordedInput) flag(field any) string { return RecordedRows.Named(r, field).Flag() }

// Used reports whether an option that only means something with recorded
// load was given (the client's options are also a server's defaults, and
// do not count).
func (r *RecordedInput) Used() bool {
	return r.Prometheus.Endpoint != "" || len(r.Queries) > 0 || r.MetricsResolution != nil || r.NoKubeStateMetrics
}

// usedError is the mistake of giving recorded load without the option
// that reads it (--at, --since).
func (r *RecordedInput) usedError(what string) error {
	return usageErrorf("the recorded-load flags (%s, %s, ...) go with %s", r.flag(&r.Prometheus.Endpoint), r.flag(&r.Queries), what)
}

// Load checks the input and returns the run's recorded load; the endpoint
// defaults to DefaultEndpoint, then to $KUBECTL_HPA_PROMETHEUS.
func (r RecordedInput) Load() (RecordedLoad, error) {
	o := r.Prometheus
	if o.Endpoint == "" {
		o.Endpoint = r.DefaultEndpoint
	}
	o.ResolveEndpoint(os.Getenv)
	if o.Endpoint == "" {
		return RecordedLoad{}, usageErrorf("no recorded load: give %s URL or NAMESPACE/SERVICE:PORT (or set %s)", r.flag(&r.Prometheus.Endpoint), prom.EnvEndpoint)
	}
	q, err := prom.ParseQueries(r.Queries)
	if err != nil {
		return RecordedLoad{}, &UsageError{Err: err}
	}
	var res time.Duration
	if r.MetricsResolution != nil {
		if res = *r.MetricsResolution; res <= 0 {
			return RecordedLoad{}, usageErrorf("%s must be positive, got %s", r.flag(&r.MetricsResolution), res)
		}
	}
	return RecordedLoad{Prometheus: o, Queries: q, MetricsResolution: res, NoKubeStateMetrics: r.NoKubeStateMetrics}, nil
}
