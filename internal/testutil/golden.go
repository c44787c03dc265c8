// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package testutil holds helpers shared by the tests of several packages.
package testutil

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// AssertGolden compares got with testdata/<test name>.golden, or rewrites
// that file when update is set (each test package binds its own -update
// flag). CRLF in the golden file is read as LF.
func AssertGolden(t *testing.T, got []byte, update bool) {
	t.Helper()
	path := filepath.Join("testdata", filepath.FromSlash(t.Name())+".golden")
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o600); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the package's tests with -update to create it)", err)
	}
	want = bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n"))
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run the package's tests with -update to accept):\n%s", path, LineDiff(string(want), string(got)))
	}
}

// EscapeANSI makes escape sequences visible in a diff.
func EscapeANSI(s string) string { return strings.ReplaceAll(s, "\x1b", `\x1b`) }

// LineDiff lists the first ten differing lines, escape sequences shown as
// \x1b.
func LineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 10; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n  want: " + EscapeANSI(wl) + "\n  got:  " + EscapeANSI(gl) + "\n")
			shown++
		}
	}
	return b.String()
}
