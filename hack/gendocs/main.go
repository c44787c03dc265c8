// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Command gendocs writes the command reference (docs/commands/*.md) from the
// cobra command tree, and with -pages also refreshes the explain outputs
// embedded in the Markdown pages of a directory (see internal/docgen).
// Run it from the repository root:
//
//	go run ./hack/gendocs [-pages docs] [docs/commands]
package main

import (
	"flag"
	"fmt"
	"os"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/internal/docgen"
)

func main() {
	pages := flag.String("pages", "", "also refresh the explain output blocks of the Markdown pages in this directory")
	flag.Parse()
	dir := "docs/commands"
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	if err := docgen.GenerateDocs(dir, genericiooptions.NewTestIOStreamsDiscard()); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	if *pages == "" {
		return
	}
	changed, err := docgen.RefreshExplainPages(*pages)
	for _, p := range changed {
		fmt.Fprintln(os.Stderr, "updated", p)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
