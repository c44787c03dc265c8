// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Command genschema keeps the generated parts of the JSON Schemas of the
// -o json documents: it reads the doc comments and string constants of the
// types the documents are made of from their Go source (this module's, and
// Kubernetes' in the module cache) into pkg/schema/docs_generated.go, and
// writes docs/schema/<kind>.json (schemagen.go). Its tests fail when either
// is stale. Run it from the repository root (`make docs` does):
//
//	go run ./hack/genschema
package main

import (
	"fmt"
	"os"
)

func main() {
	changed, err := Write(".")
	for _, p := range changed {
		fmt.Fprintln(os.Stderr, "updated", p)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
