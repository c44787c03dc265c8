// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Command gendocs keeps the documentation generated from the code: it
// writes the command reference (docs/commands/*.md) from the cobra command
// tree (commands.go), and with -pages also refreshes the explain and whatif
// outputs embedded in the Markdown pages of a directory (pages.go). Its
// tests fail when a page is stale. It lives under hack/, with the other
// generators, because it imports the commands (pkg/cmd): no library
// package imports a face. Run it from the repository root:
//
//	go run ./hack/gendocs [-pages docs] [docs/commands]
package main

import (
	"flag"
	"fmt"
	"os"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

func main() {
	pages := flag.String("pages", "", "also refresh the explain output blocks of the Markdown pages in this directory")
	flag.Parse()
	dir := "docs/commands"
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	if err := GenerateDocs(dir, genericiooptions.NewTestIOStreamsDiscard()); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	if *pages == "" {
		return
	}
	changed, err := RefreshExplainPages(*pages)
	for _, p := range changed {
		fmt.Fprintln(os.Stderr, "updated", p)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
