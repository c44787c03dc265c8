// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build tools

// Package tools pins sigs.k8s.io/metrics-server v0.9.0 for hack/e2e-tools/build.sh.
package tools

import (
	_ "sigs.k8s.io/metrics-server/cmd/metrics-server"
)
