// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
)

// spellingAllowed are the string literals below pkg/cmd that may spell one
// of our flags: each names its file, a piece of the literal, and why.
var spellingAllowed = []struct{ file, literal, why string }{
	{"pkg/whatif/apply.go", "turn it on with --feature-gates", "the API server's and the controller's --feature-gates, where the gate is turned on"},
	{"pkg/migrate/target.go", "kubectl autoscale %s %s -n %s --min=2 --max=10", "kubectl autoscale's flags"},
	{"pkg/mcpserver/tools.go", "`kubectl hpa explain NAME -o json`", "a tool's description quotes the command line it equals"},
	{"pkg/mcpserver/tools.go", "`kubectl hpa whatif NAME --since ... -o json`", "a tool's description quotes the command line it equals"},
	{"pkg/mcpserver/tools.go", "`kubectl hpa migrate TYPE/NAME --apply -o json`", "a tool's description quotes the command line it equals"},
	{"pkg/mcpserver/tools.go", "`kubectl hpa tune NAME --since ... -o json`", "a tool's description quotes the command line it equals"},
	{"pkg/mcpserver/tools.go", "`kubectl hpa tune -A --since ... -o json`", "a tool's description quotes the command line it equals"},
}

// spellingFree are the files and directories that may spell our flags:
// pkg/cmd, the declaration, and pkg/schema's documentation of the JSON
// (which quotes command lines, as the types' doc comments do).
var spellingFree = []string{"pkg/cmd/", "pkg/options/", "pkg/action/options.go", "pkg/prom/options.go", "pkg/schema/"}

// No package below pkg/cmd spells one of our flags in a string literal:
// a message names an option through its declaration (the row's name), so
// that a renamed flag cannot leave a stale spelling behind.
func TestNoFlagSpellingBelowCmd(t *testing.T) {
	names := ourFlagNames(t)
	var alts []string
	for _, n := range names {
		alts = append(alts, regexp.QuoteMeta(n))
	}
	// A flag, not a longer one it begins (--prometheus, not
	// --prometheus-token) nor one of another program that ends with it
	// (--horizontal-pod-autoscaler-tolerance).
	spelled := regexp.MustCompile(`(?:^|[^A-Za-z0-9-])--(` + strings.Join(alts, "|") + `)(?:[^A-Za-z0-9-]|$)`)

	used := make([]bool, len(spellingAllowed))
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(filepath.Join(root, "pkg"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if slices.ContainsFunc(spellingFree, func(p string) bool { return strings.HasPrefix(rel, p) }) {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Errorf("%s: %v", rel, err)
				return true
			}
			m := spelled.FindStringSubmatch(s)
			if m == nil {
				return true
			}
			for i, a := range spellingAllowed {
				if a.file == rel && strings.Contains(s, a.literal) {
					used[i] = true
					return true
				}
			}
			t.Errorf("%s spells the flag --%s in %q: name it through its declaration", rel, m[1], s)
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range spellingAllowed {
		if !used[i] {
			t.Errorf("the allowed spelling %q of %s (%s) is no longer there: drop it from spellingAllowed", a.literal, a.file, a.why)
		}
	}
}

// ourFlagNames are the long names of our options: every row of the
// declaration, and the flags pkg/cmd binds besides (the text view's),
// without kubectl's connection flags and cobra's --help.
func ourFlagNames(t *testing.T) []string {
	t.Helper()
	set := map[string]bool{}
	add := func(name string) { set[name] = true }
	for _, o := range action.SettingsRows {
		add(o.Name)
	}
	for _, o := range action.RecordedRows {
		add(o.Name)
	}
	for _, o := range prom.Rows {
		add(o.Name)
	}
	for _, o := range action.ExplainRows {
		add(o.Name)
	}
	for _, o := range action.WhatIfRows {
		add(o.Name)
	}
	for _, o := range action.MigrateRows {
		add(o.Name)
	}
	for _, o := range action.SourceRows {
		add(o.Name)
	}

	kubectls := pflag.NewFlagSet("kubectl", pflag.ContinueOnError)
	genericclioptions.NewConfigFlags(true).AddFlags(kubectls)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		visit := func(f *pflag.Flag) {
			if kubectls.Lookup(f.Name) == nil && f.Name != "help" {
				add(f.Name)
			}
		}
		c.LocalFlags().VisitAll(visit)
		c.PersistentFlags().VisitAll(visit)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewCmdRoot(genericiooptions.NewTestIOStreamsDiscard()))
	for _, must := range []string{"cpu", "since", "write", "pods", "prometheus"} {
		if !set[must] {
			t.Fatalf("the flag --%s is missing from the names the scan looks for", must)
		}
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	// The longest first, so that the scan reports the flag it found.
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	return names
}
