// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
)

// RecordedFlags say where recorded load is and how to read it: the flags
// of whatif --since and explain --at.
type RecordedFlags struct {
	Prometheus         prom.Options
	Queries            []string
	MetricsResolution  time.Duration
	NoKubeStateMetrics bool
}

// AddFlags binds the Prometheus flags, --query, --metrics-resolution and
// --no-kube-state-metrics.
func (r *RecordedFlags) AddFlags(fs *pflag.FlagSet) {
	r.Prometheus.AddFlags(fs)
	fs.StringArrayVar(&r.Queries, prom.FlagQuery, nil, "PromQL of an HPA metric that is not a container counter: NAME=PROMQL (repeatable; Pods metrics: one series per pod, with a pod label)")
	fs.DurationVar(&r.MetricsResolution, "metrics-resolution", action.DefaultMetricsResolution, "Resolution of the resource metrics the controller read (metrics-server's --metric-resolution): the window of each sample")
	fs.BoolVar(&r.NoKubeStateMetrics, "no-kube-state-metrics", false, "Find the pods by their usage series even where kube-state-metrics is recorded")
}

// used reports whether a recorded-load flag was given.
func (r *RecordedFlags) used(changed map[string]bool) bool {
	for name := range changed {
		switch name {
		case prom.FlagEndpoint, prom.FlagQuery, "metrics-resolution", "no-kube-state-metrics":
			return true
		}
	}
	return false
}

// ToLoad builds the action's recorded load; a progress bar goes to errOut
// when it is a terminal and the read takes over a second.
func (r *RecordedFlags) ToLoad(errOut io.Writer) (action.RecordedLoad, error) {
	o := r.Prometheus
	o.ResolveEndpoint(os.Getenv)
	if o.Endpoint == "" {
		return action.RecordedLoad{}, fmt.Errorf("no recorded load: give --%s URL or NAMESPACE/SERVICE:PORT (or set %s)", prom.FlagEndpoint, prom.EnvEndpoint)
	}
	q, err := prom.ParseQueries(r.Queries)
	if err != nil {
		return action.RecordedLoad{}, err
	}
	if r.MetricsResolution <= 0 {
		return action.RecordedLoad{}, fmt.Errorf("--metrics-resolution must be positive, got %s", r.MetricsResolution)
	}
	l := action.RecordedLoad{Prometheus: o, Queries: q, MetricsResolution: r.MetricsResolution, NoKubeStateMetrics: r.NoKubeStateMetrics}
	if writerIsTerminal(errOut) {
		l.Progress = progressAfter(errOut, time.Second)
	}
	return l, nil
}

// progressAfter draws a progress bar on w once a read has run for delay.
func progressAfter(w io.Writer, delay time.Duration) func(prom.Progress) {
	var mu sync.Mutex
	bar := &prom.ProgressBar{W: w}
	began := time.Now()
	return func(p prom.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(began) < delay {
			return
		}
		if p.Fraction() >= 1 {
			bar.Clear()
			return
		}
		bar.Draw(p)
	}
}
