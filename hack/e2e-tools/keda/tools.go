// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build tools

// Package tools pins github.com/kedacore/keda/v2 v2.21.0 for
// hack/e2e-tools/build.sh, which builds its cmd/operator and cmd/adapter.
package tools

import (
	_ "github.com/kedacore/keda/v2/cmd/adapter"
	_ "github.com/kedacore/keda/v2/cmd/operator"
)
