// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package mcpserver_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/cmd"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/mcpserver"
	opts "github.com/kubectl-hpa/kubectl-hpa/pkg/options"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
)

// A command and its tools offer the same options, of the same types: every
// flag of the command is an argument of one of its tools unless the
// declaration says why it is a flag only, and every argument of a tool that
// is not its own (name, namespace, context, the page) is a flag of its
// command. The flags are read from the cobra commands and the arguments
// from the tools' input schemas, so that an option bound by hand on either
// face, or left out of one, fails here.
func TestCommandsAndToolsOfferTheSameOptions(t *testing.T) {
	root := cmd.NewCmdRoot(genericiooptions.NewTestIOStreamsDiscard())
	tools := toolArguments(t)
	flagOnly := declaredFlagOnly()
	for _, pair := range []struct {
		command string
		tools   []string
	}{
		// explain NAME and explain --at; explain -A|-l.
		{"explain", []string{mcpserver.ToolExplain, mcpserver.ToolExplainMany}},
		// whatif NAME; whatif --since.
		{"whatif", []string{mcpserver.ToolWhatIf, mcpserver.ToolBacktest}},
		{"tune", []string{mcpserver.ToolTune, mcpserver.ToolTuneMany}},
		// migrate; migrate --apply.
		{"migrate", []string{mcpserver.ToolMigratePlan, mcpserver.ToolMigrateApply}},
	} {
		c, _, err := root.Find([]string{pair.command})
		if err != nil {
			t.Fatal(err)
		}
		flags := commandFlags(c)
		flagOnly := flagOnly
		if pair.command == "tune" {
			flagOnly = maps.Clone(flagOnly)
			for _, o := range action.TuneManyRows.Bind(&action.TuneInput{}) {
				if o.CLIOnly {
					flagOnly[o.Name] = true
				}
			}
		}
		offered := map[string]bool{}
		for _, tool := range pair.tools {
			args, ok := tools[tool]
			if !ok {
				t.Fatalf("no tool %s", tool)
			}
			for name, typ := range args {
				if toolOwn[name] {
					continue
				}
				offered[name] = true
				flagType, ok := flags[name]
				switch {
				case !ok:
					t.Errorf("%s: argument %s is no flag of %s", tool, name, pair.command)
				case jsonTypeOf[flagType] != typ:
					t.Errorf("%s: argument %s is a %s, the flag of %s a %s", tool, name, typ, pair.command, flagType)
				}
			}
		}
		for name := range flags {
			if !offered[name] && !flagOnly[name] {
				t.Errorf("%s --%s: no tool of %v offers it, and the declaration does not say why", pair.command, name, pair.tools)
			}
			if offered[name] && flagOnly[name] {
				t.Errorf("%s --%s: declared a flag only, yet a tool offers it", pair.command, name)
			}
		}
	}

	// The server takes the Prometheus client's options as its own flags.
	c, _, err := root.Find([]string{"mcp"})
	if err != nil {
		t.Fatal(err)
	}
	flags := commandFlags(c)
	for _, o := range prom.Rows {
		if _, ok := flags[o.Name]; !ok {
			t.Errorf("mcp --%s: missing", o.Name)
		}
	}
}

// toolOwn are the tools' own arguments, which no command has as a flag:
// the positional NAME, kubectl's connection flags, the page.
var toolOwn = map[string]bool{"name": true, "namespace": true, "context": true, "limit": true, "cursor": true}

// printFlags are the flags of the command line's printing, which a tool
// has no use for: it returns the JSON document.
var printFlags = map[string]bool{"output": true, "color": true, "pods": true, "no-pods": true, "help": true}

// jsonTypeOf is the JSON type of a tool argument for the pflag type of
// its flag.
var jsonTypeOf = map[string]string{
	"string": "string", "duration": "string", "bool": "boolean", "int32": "integer", "int": "integer",
	"float64": "number", "stringArray": "array", "stringSlice": "array",
}

// commandFlags are the local flags of c, by name, with their pflag types,
// except kubectl's connection flags and the printing flags.
func commandFlags(c *cobra.Command) map[string]string {
	kubectl := pflag.NewFlagSet("kubectl", pflag.ContinueOnError)
	genericclioptions.NewConfigFlags(true).AddFlags(kubectl)
	out := map[string]string{}
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if kubectl.Lookup(f.Name) == nil && !printFlags[f.Name] {
			out[f.Name] = f.Value.Type()
		}
	})
	return out
}

// declaredFlagOnly are the options the declaration says are flags only
// (CLIOnly, with a reason, or hidden).
func declaredFlagOnly() map[string]bool {
	out := map[string]bool{}
	for _, g := range [][]opts.Bound{
		action.ExplainRows.Bind(&action.ExplainInput{}), action.WhatIfRows.Bind(&action.WhatIfInput{}),
		action.MigrateRows.Bind(&action.MigrateInput{}), action.SourceRows.Bind(&action.SourceInput{}), action.TuneRows.Bind(&action.TuneInput{}),
		action.SettingsRows.Bind(&action.SettingsInput{}), prom.Rows.Bind(&prom.Config{}),
	} {
		for _, o := range g {
			if o.CLIOnly {
				out[o.Name] = true
			}
		}
	}
	return out
}

// toolArguments lists every tool's arguments with their JSON types (the
// type that is not "null").
func toolArguments(t *testing.T) map[string]map[string]string {
	t.Helper()
	cs := connect(t, options(cluster(1), true))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Properties map[string]struct {
				Type json.RawMessage `json:"type"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		args := map[string]string{}
		for name, p := range s.Properties {
			var one string
			var many []string
			if json.Unmarshal(p.Type, &one) != nil {
				_ = json.Unmarshal(p.Type, &many)
				one = strings.Join(slices.DeleteFunc(many, func(s string) bool { return s == "null" }), ",")
			}
			args[name] = one
		}
		out[tool.Name] = args
	}
	return out
}
