// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Command genschema regenerates the JSON Schemas of the -o json documents:
// the descriptions and enumerations read from the Go source
// (pkg/schema/docs_generated.go) and docs/schema/<kind>.json (see
// internal/schemagen). Run it from the repository root:
//
//	go run ./hack/genschema
package main

import (
	"fmt"
	"os"

	"github.com/kubectl-hpa/kubectl-hpa/internal/schemagen"
)

func main() {
	changed, err := schemagen.Write(".")
	for _, p := range changed {
		fmt.Fprintln(os.Stderr, "updated", p)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
