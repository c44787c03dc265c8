// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/display"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/options"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// ourCommands are the commands that take options.
var ourCommands = []string{"explain", "whatif", "tune", "migrate", "mcp"}

// rowsOf binds a table of rows to a zero input, for their names, help and
// values.
func rowsOf[T any](rs options.Rows[T]) []options.Bound {
	var in T
	return rs.Bind(&in)
}

// everyRow is every declared row, of every table a command binds.
func everyRow() []options.Bound {
	return slices.Concat(rowsOf(action.ExplainRows), rowsOf(action.WhatIfRows), rowsOf(action.TuneRows),
		rowsOf(action.MigrateRows), rowsOf(action.SourceRows), rowsOf(action.SettingsRows), rowsOf(prom.Rows))
}

// allowedValues are the values each flag takes, by name, where they are
// listed: the rows' Enum, and -o and --color, which are no rows.
func allowedValues(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{"output": render.Formats(), "color": display.ColorModes()}
	for _, r := range everyRow() {
		if len(r.Enum) == 0 {
			continue
		}
		if had, ok := out[r.Name]; ok && !slices.Equal(had, r.Enum) {
			t.Fatalf("two rows named %s take different values: %q and %q", r.Name, had, r.Enum)
		}
		out[r.Name] = r.Enum
	}
	return out
}

// Each flag that takes listed values completes exactly them, in their
// order, and no file: the completions come from the rows (and from
// render.Formats and display.ColorModes), so no command keeps a list of
// its own that could drift from what the option takes (migrate's
// --dry-run once offered a list the row did not).
func TestFlagsCompleteTheirValues(t *testing.T) {
	values := allowedValues(t)
	root := NewCmdRoot(genericiooptions.NewTestIOStreamsDiscard())
	checked := 0
	for _, name := range ourCommands {
		c, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			want, ok := values[f.Name]
			if !ok {
				return
			}
			checked++
			// A flag with a value of its own when given alone (--dry-run:
			// server) takes another only as --flag=VALUE.
			args := []string{"__complete", name, "--" + f.Name, ""}
			if f.NoOptDefVal != "" {
				args = []string{"__complete", name, "--" + f.Name + "="}
			}
			out, _, err := runRoot(t, "", args...)
			if err != nil {
				t.Fatalf("%s --%s: %v", name, f.Name, err)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			got, directive := lines[:len(lines)-1], lines[len(lines)-1]
			if !slices.Equal(got, want) || directive != ":4" {
				t.Errorf("%s --%s completes %q (directive %s), want %q and no files (:4)", name, f.Name, got, directive, want)
			}
		})
	}
	// -o on every command, --color on three, --load-model on two,
	// --emit and --dry-run: the check ran.
	if checked < 10 {
		t.Errorf("only %d flags with listed values checked", checked)
	}
}
