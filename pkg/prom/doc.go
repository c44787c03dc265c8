// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package prom reads a workload's recorded load from a server that speaks
// Prometheus's HTTP API (Prometheus, Thanos, Mimir, VictoriaMetrics) into
// the pure model of pkg/recording, for backtests (whatif --since, explain
// --at). It belongs to the gather layer: it does I/O, and the replay never
// sees it.
//
// A Config says how to reach the server: a URL, or NAMESPACE/SERVICE:PORT
// through the Kubernetes API server's service proxy with the kubeconfig's
// credentials (NewClient takes the run's REST config). Client.Read takes a
// Request (the workload, what the gather layer knows live, the HPA's
// metrics, the period on the controller's sync grid) and returns a
// recording.Recording:
//
//   - resource metrics per pod and container from the kubelet's counters,
//     read as the store's raw samples (an instant query of SELECTOR[D], in
//     chunks within a point budget) into recording.Raw, then resampled at
//     metrics-server's scrapes (Request.Window, Request.ScrapeAnchor): the
//     counter's rate between its last two scrapes before each sync, the
//     working set at the last one; a user's --query cpu=PROMQL is read on
//     the sync grid instead;
//   - the pods over time from kube-state-metrics (owners, phases,
//     readiness, creation, start and deletion times, requests) when the
//     store has it, else from the usage series of pods named after the
//     workload's ReplicaSets and from the live pods, with what was inferred
//     listed in Recording.Reconstructed;
//   - the actual replicas from kube-state-metrics;
//   - Pods, Object and External metrics from the user's PromQL.
//
// Range queries are evaluated exactly at the recording's instants, in
// pieces of at most 11,000 points per series, each folded into the
// recording and dropped before the next. The range and raw reads are
// independent and run at once, a few at a time (Request.Concurrency; the
// raw reads one after the other), their outcomes taken in the planned
// order. ReadScrapeRecord reads
// metrics-server's resolution and scrape phase from its own series, when
// the store scrapes it. docs/prometheus-source.md has the
// exact queries and the choices behind them.
package prom
