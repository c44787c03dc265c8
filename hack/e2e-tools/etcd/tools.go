// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build tools

// Package tools pins go.etcd.io/etcd/server/v3 v3.6.8 for hack/e2e-tools/build.sh.
package tools

import (
	_ "go.etcd.io/etcd/server/v3"
)
