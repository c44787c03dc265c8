// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package archdoc holds the tests that keep docs/architecture.md true to the
// code: each package of pkg/ imports of ours what its row of the "Layering
// rules" table says, nothing under internal/ imports a face (pkg/cmd,
// pkg/mcpserver, pkg/cli: the generators that need the commands live in
// hack/), and a non-test file of pkg/ over 800 lines is named in the "File
// size" paragraph, which says why it is kept whole. It has no code of its
// own.
package archdoc
