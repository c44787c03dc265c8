// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package action runs what the commands do: Explain, ExplainMany, WhatIf
// and Migrate each take a typed config and return a result, and
// ResolveSettings is the one place where the controller settings are
// decided (defaults, then what the cluster or a snapshot says, then the
// command line). The cobra commands in pkg/cmd only parse flags, call one
// action and print its result with pkg/render.
//
// Actions read the cluster through pkg/gather (or files through pkg/load),
// replay through pkg/engine and edit through pkg/whatif and pkg/migrate;
// they never print. Warnings come back in the results.
package action
