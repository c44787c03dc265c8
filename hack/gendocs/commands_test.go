// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
)

// docs/commands is generated from the command tree (make docs); this test
// fails when it is stale.
func TestCommandDocsAreFresh(t *testing.T) {
	dir := t.TempDir()
	if err := GenerateDocs(dir, genericiooptions.NewTestIOStreamsDiscard()); err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join("..", "..", "docs", "commands")
	names := func(d string) []string {
		entries, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		sort.Strings(out)
		return out
	}
	got, want := names(dir), names(committed)
	if len(got) != len(want) {
		t.Fatalf("docs/commands holds %v, the command tree gives %v: run make docs", want, got)
	}
	for i, n := range got {
		if want[i] != n {
			t.Fatalf("docs/commands holds %v, the command tree gives %v: run make docs", want, got)
		}
		g, _ := os.ReadFile(filepath.Join(dir, n))
		w, _ := os.ReadFile(filepath.Join(committed, n))
		if !bytes.Equal(g, w) {
			t.Errorf("docs/commands/%s is stale (run make docs):\n%s", n, testutil.LineDiff(string(w), string(g)))
		}
	}
}
