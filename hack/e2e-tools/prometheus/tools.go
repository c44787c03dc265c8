// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build tools

// Package tools pins github.com/prometheus/prometheus v0.316.0 (Prometheus
// 3.16) for hack/e2e-tools/build.sh, which builds cmd/prometheus from it,
// and for hack/bench/tune-prometheus.sh, which builds cmd/promtool (its
// TSDB backfill) from it.
package tools

import (
	_ "github.com/prometheus/prometheus/cmd/prometheus"
	_ "github.com/prometheus/prometheus/cmd/promtool"
)
