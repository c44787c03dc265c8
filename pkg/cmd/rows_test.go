// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"
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

// tableUse is how a command uses a table of rows that several commands
// share: none of its rows, or every row but those left out, each with
// why.
type tableUse struct {
	none    bool
	without map[string]string
}

var (
	usesEvery = tableUse{}
	usesNone  = tableUse{none: true}
)

// rowKey tells rows apart: two tables may each have a row of the same
// name (migrate's -f and the source's), never with the same help.
func rowKey(r options.Bound) string { return r.Name + "\x00" + r.Help }

// Each command lists only the options it uses. Whether a command uses an
// option is a judgement of what the command does, which the code cannot
// answer: tune reads Source.Now (its relative --since counted back from
// it), yet it replays a period and no sync at an instant, so --now means
// nothing to it; and a check that a flag changes the action's config would
// pass --now on tune and fail on the flags read while printing (--emit,
// -v). So the expectation is curated, in the rows' terms: a command uses
// its own table of rows (declared for it), and of each table several
// commands share, either every row, or every row but those it leaves out
// (each with the reason), or none. The command's flags, without kubectl's
// connection flags and the printing flags, are held to that both ways.
// Every shared table must be placed for every command, so that a new
// command or a new shared table makes its author decide; a row added to a
// shared table goes to the commands that use all of it, and a shared row
// that one of them has no use for is left out here, with why, and in the
// code (as action.TuneSourceRows leaves out --now).
func TestCommandsListOnlyTheOptionsTheyUse(t *testing.T) {
	shared := map[string][]options.Bound{
		"SourceRows": rowsOf(action.SourceRows), "SettingsRows": rowsOf(action.SettingsRows),
		"RecordedRows": rowsOf(action.RecordedRows), "PeriodRows": rowsOf(action.PeriodRows),
		"ReplayRows": rowsOf(action.ReplayRows), "HistoryRows": rowsOf(action.HistoryRows),
		"ReportRows": rowsOf(action.ReportRows),
	}
	isShared := map[string]bool{}
	for _, rows := range shared {
		for _, r := range rows {
			isShared[rowKey(r)] = true
		}
	}
	for _, tc := range []struct {
		command string
		// own is the command's table: its rows that no shared table
		// declares are the command's own.
		own []options.Bound
		// uses places every shared table.
		uses map[string]tableUse
		// notRows are the command's flags that no row declares, with why.
		notRows map[string]string
	}{
		{
			command: "explain", own: rowsOf(action.ExplainRows),
			uses: map[string]tableUse{
				"SourceRows": usesEvery, "SettingsRows": usesEvery, "RecordedRows": usesEvery, "HistoryRows": usesEvery,
				"PeriodRows": usesNone, "ReplayRows": usesNone, "ReportRows": usesNone,
			},
		},
		{
			command: "whatif", own: rowsOf(action.WhatIfRows),
			uses: map[string]tableUse{
				"SourceRows": usesEvery, "SettingsRows": usesEvery, "RecordedRows": usesEvery, "HistoryRows": usesEvery,
				"PeriodRows": usesEvery, "ReplayRows": usesEvery, "ReportRows": usesEvery,
			},
		},
		{
			command: "tune", own: append(rowsOf(action.TuneRows), rowsOf(action.TuneManyRows)...),
			uses: map[string]tableUse{
				"SourceRows": {without: map[string]string{
					"now": "tune replays the period from --since to --until, no sync at an instant",
				}},
				"SettingsRows": usesEvery, "RecordedRows": usesEvery, "PeriodRows": usesEvery, "ReplayRows": usesEvery,
				"ReportRows": usesEvery, "HistoryRows": usesNone,
			},
		},
		{
			command: "migrate", own: rowsOf(action.MigrateRows),
			uses: map[string]tableUse{
				"SourceRows": usesNone, "SettingsRows": usesNone, "RecordedRows": usesNone, "HistoryRows": usesNone,
				"PeriodRows": usesNone, "ReplayRows": usesNone, "ReportRows": usesNone,
			},
		},
		{
			command: "mcp",
			uses: map[string]tableUse{
				// The server's flags are the Prometheus client's, one for
				// every call; what to read is each call's argument.
				"RecordedRows": {without: map[string]string{
					prom.FlagQuery:          "a call's argument (hpa_backtest, hpa_tune)",
					"metrics-resolution":    "a call's argument (hpa_backtest, hpa_tune)",
					"no-kube-state-metrics": "a call's argument (hpa_backtest, hpa_tune)",
				}},
				"SourceRows": usesNone, "SettingsRows": usesNone, "HistoryRows": usesNone,
				"PeriodRows": usesNone, "ReplayRows": usesNone, "ReportRows": usesNone,
			},
			notRows: map[string]string{"allow-writes": "the server's own switch, which no call may turn on"},
		},
	} {
		t.Run(tc.command, func(t *testing.T) {
			want := map[string]bool{}
			for _, r := range tc.own {
				if !isShared[rowKey(r)] {
					want[r.Name] = true
				}
			}
			for _, table := range slices.Sorted(maps.Keys(shared)) {
				use, ok := tc.uses[table]
				if !ok {
					t.Errorf("%s: the test does not say whether it uses %s's rows", tc.command, table)
					continue
				}
				names := map[string]bool{}
				for _, r := range shared[table] {
					names[r.Name] = true
					if _, left := use.without[r.Name]; !use.none && !left {
						want[r.Name] = true
					}
				}
				for name := range use.without {
					if !names[name] {
						t.Errorf("%s leaves out %s's row %s, which it has not", tc.command, table, name)
					}
				}
			}
			for name := range tc.notRows {
				want[name] = true
			}
			got := commandOptions(t, tc.command)
			for _, name := range slices.Sorted(maps.Keys(got)) {
				if !want[name] {
					t.Errorf("%s --%s: listed, yet the command does not use it (or no row declares it)", tc.command, name)
				}
			}
			for _, name := range slices.Sorted(maps.Keys(want)) {
				if !got[name] {
					t.Errorf("%s --%s: not listed, yet the command uses it", tc.command, name)
				}
			}
		})
	}
}

// commandOptions are the local flags of the command, without kubectl's
// connection flags and the printing flags (no rows: pkg/cmd's own).
func commandOptions(t *testing.T, name string) map[string]bool {
	t.Helper()
	c, _, err := NewCmdRoot(genericiooptions.NewTestIOStreamsDiscard()).Find([]string{name})
	if err != nil {
		t.Fatal(err)
	}
	c.InitDefaultHelpFlag()
	kubectl := pflag.NewFlagSet("kubectl", pflag.ContinueOnError)
	genericclioptions.NewConfigFlags(true).AddFlags(kubectl)
	printing := map[string]bool{"output": true, "color": true, "pods": true, "no-pods": true, "help": true}
	out := map[string]bool{}
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if kubectl.Lookup(f.Name) == nil && !printing[f.Name] {
			out[f.Name] = true
		}
	})
	return out
}
