// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build !race

package mcpserver_test

// raceScale divides the load tests' counts under the race detector.
const raceScale = 1
