// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package explain is the output model of every command: plain data that
// the engine, pkg/whatif, pkg/tune and pkg/action fill, that pkg/render
// prints as text or encodes as -o json|yaml, and that the MCP tools return
// as the same documents. At its heart is the Decision, one replayed sync
// of the HPA controller with every step and number (explain, and each
// frame of explain --watch); the other documents are built around
// decisions: ExplanationList and ExplanationSummaryList (explain -A|-l,
// hpa_explain_many), WhatIf with its Projection and Backtest (whatif,
// whatif --since), Tune (tune), KEDAExplanation (a ScaledObject with no
// HPA to replay). Only migrate's report (pkg/migrate) and the version
// (pkg/version), which replay nothing, are documents of other packages.
//
// The package keeps the name of its first document, the explanation of a
// sync, which the others are made of. Field names and json tags are the
// JSON/YAML contract documented in docs/output-schema.md, and the doc
// comments become the schema's descriptions (pkg/schema). It imports
// nothing of ours.
package explain
