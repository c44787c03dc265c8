// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package action runs what the commands and the MCP tools do. Nine actions
// each take a typed config and return a result: Explain, ExplainAt (the
// sync of a past instant over recorded load) and ExplainMany for explain,
// ExplainSummaries for a page of summaries (hpa_explain_many), Watch for
// explain --watch, WhatIf and Backtest (whatif --since) for whatif,
// Migrate for migrate, and Detect, which reads the controller's version
// and settings of a live cluster. ResolveSettings is the one place where
// the controller settings are decided (defaults, then what the cluster or
// a snapshot says, then the options).
//
// The inputs (SettingsInput, ExplainInput, WhatIfInput, RecordedInput,
// MigrateInput, SourceInput) hold the options as a user gives them, a nil
// or empty field meaning not given; their Plan, Config or Overrides check
// them into configs. options.go declares every option once: its name,
// the flag's help and the MCP argument's description, and the field it
// sets. pkg/cmd binds those rows to cobra flags and pkg/mcpserver to tool
// arguments, and this package's errors name an option through its row.
//
// Actions read the cluster through pkg/gather (or files through pkg/load,
// recorded load through pkg/prom), replay through pkg/engine and edit
// through pkg/whatif and pkg/migrate; they never print. Warnings come back
// in the results.
package action
