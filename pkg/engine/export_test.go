// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

// StatusEqual exposes statusEqual to the external tests.
var StatusEqual = statusEqual

// SameOutcome exposes sameOutcome to the external tests.
var SameOutcome = sameOutcome
