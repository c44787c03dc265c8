// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// addRecordedFlags binds where recorded load is and how to read it, the
// flags of whatif --since and explain --at: the Prometheus flags, --query,
// --metrics-resolution and --no-kube-state-metrics.
func addRecordedFlags(fs *pflag.FlagSet, r *action.RecordedInput) {
	r.Prometheus.AddFlags(fs)
	fs.StringArrayVar(&r.Queries, prom.FlagQuery, nil, "PromQL of an HPA metric that is not a container counter: NAME=PROMQL (repeatable; Pods metrics: one series per pod, with a pod label)")
	fs.DurationVar(&r.MetricsResolution, "metrics-resolution", action.DefaultMetricsResolution, "Resolution of the resource metrics the controller read (metrics-server's --metric-resolution): the window of each sample")
	fs.BoolVar(&r.NoKubeStateMetrics, "no-kube-state-metrics", false, "Find the pods by their usage series even where kube-state-metrics is recorded")
}

// recordedProgress draws a progress bar on errOut when it is a terminal
// and the read takes over a second (nil otherwise).
func recordedProgress(errOut io.Writer) func(prom.Progress) {
	if !writerIsTerminal(errOut) {
		return nil
	}
	return prom.ProgressAfter(errOut, time.Second)
}

// manyProgress counts the HPAs read on errOut when it is a terminal.
func manyProgress(errOut io.Writer) func(done, total int) {
	if !writerIsTerminal(errOut) {
		return func(int, int) {}
	}
	return render.GatherProgress(errOut)
}
