// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build race

package prom

// raceScale divides the load tests' sizes under the race detector.
const raceScale = 5
