// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package mcpserver

import (
	"fmt"
	"math"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/options"
)

// The tools' arguments are the options the commands declare (pkg/action's
// tables; an argument left out keeps the option's default), after a few
// of the tools' own: the object's name, kubectl's namespace and context,
// and hpa_explain_many's page. The input schema of a tool and the
// decoding of its arguments both come from its args function, bound to
// zero inputs for the schema and to a call's inputs for the decoding.

// ownArg is an argument of a tool that is no declared option; a paging
// one is listed after the first group of options (those that select).
type ownArg struct {
	name, typ, desc  string
	required, paging bool
}

var (
	namespaceArg = ownArg{name: "namespace", typ: "string", desc: "The namespace (kubectl's -n); default: the kubeconfig context's, or the server's -n"}
	contextArg   = ownArg{name: "context", typ: "string", desc: "The kubeconfig context to use (kubectl's --context); default: the server's --context, else the current context"}
	limitArg     = ownArg{name: "limit", typ: "integer", desc: "The most summaries of a page (default 20, at most 100)", paging: true}
	cursorArg    = ownArg{name: "cursor", typ: "string", desc: "The nextCursor of the page before, for the next page", paging: true}
)

// nameArg is the required name of a tool's object.
func nameArg(desc string) ownArg {
	return ownArg{name: "name", typ: "string", desc: desc, required: true}
}

// connArgs say which object, cluster and namespace.
type connArgs struct {
	Name, Namespace, Context string
}

// The args of each tool: its own, and its declared options bound to in.

func explainArgs(in *action.ExplainInput, s *action.SettingsInput) [][]options.Bound {
	return [][]options.Bound{action.ExplainOneRows.Bind(in), action.SettingsRows.Bind(s)}
}

func explainManyArgs(in *action.ExplainInput, s *action.SettingsInput) [][]options.Bound {
	return [][]options.Bound{action.ExplainManyRows.Bind(in), action.SettingsRows.Bind(s)}
}

func whatIfArgs(in *action.WhatIfInput, s *action.SettingsInput) [][]options.Bound {
	return [][]options.Bound{
		action.WhatIfLoadRows.Bind(in), action.WhatIfHPARows.Bind(in), action.ProjectionReplayRows.Bind(in),
		action.WhatIfProjectionRows.Bind(in), action.WhatIfKEDARows.Bind(in), action.SettingsRows.Bind(s),
	}
}

func backtestArgs(in *action.WhatIfInput, s *action.SettingsInput) [][]options.Bound {
	return [][]options.Bound{
		action.BacktestPeriodRows.Bind(in), action.WhatIfHPARows.Bind(in), action.BacktestReplayRows.Bind(in),
		action.BacktestRecordedRows.Bind(in), action.SettingsRows.Bind(s),
	}
}

func tuneArgs(in *action.TuneInput, s *action.SettingsInput) [][]options.Bound {
	return [][]options.Bound{action.TuneRows.Bind(in), action.SettingsRows.Bind(s)}
}

func tuneManyArgs(in *action.TuneInput, s *action.SettingsInput) [][]options.Bound {
	return [][]options.Bound{action.TuneRows.Bind(in), action.TuneManyRows.Bind(in), action.SettingsRows.Bind(s)}
}

func migrateApplyArgs(in *action.MigrateInput) [][]options.Bound {
	return [][]options.Bound{action.MigrateRows.Bind(in)}
}

// inputSchema is a tool's input schema: its own arguments, then the
// options, in order (the options that are flags only are left out), with
// the paging arguments after the first group. The options named in required must be given, and
// not empty.
func inputSchema(own []ownArg, groups [][]options.Bound, required ...string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	add := func(name string, p *jsonschema.Schema) {
		if _, dup := s.Properties[name]; dup {
			panic(fmt.Sprintf("input schema: argument %q twice", name))
		}
		s.Properties[name] = p
		s.PropertyOrder = append(s.PropertyOrder, name)
	}
	addOwn := func(paging bool) {
		for _, a := range own {
			if a.paging != paging {
				continue
			}
			p := &jsonschema.Schema{Type: a.typ, Description: a.desc}
			if a.required {
				p.MinLength = jsonschema.Ptr(1)
				s.Required = append(s.Required, a.name)
			}
			if a.name == limitArg.name {
				p.Minimum, p.Maximum = jsonschema.Ptr(1.0), jsonschema.Ptr(float64(action.MaxSummaryLimit))
			}
			add(a.name, p)
		}
	}
	addOwn(false)
	for i, g := range groups {
		if i == 1 {
			addOwn(true)
		}
		for _, o := range g {
			if o.CLIOnly {
				continue
			}
			p := &jsonschema.Schema{Type: o.JSONType(), Description: o.Desc}
			if o.Nullable() {
				p.Type, p.Types = "", []string{"null", o.JSONType()}
			}
			switch {
			case o.JSONType() == "array":
				p.Items = &jsonschema.Schema{Type: "string"}
			case o.Value.Type() == "int32":
				p.Minimum, p.Maximum = jsonschema.Ptr(float64(math.MinInt32)), jsonschema.Ptr(float64(math.MaxInt32))
			}
			for _, e := range o.ArgEnum {
				p.Enum = append(p.Enum, e)
			}
			if slices.Contains(required, o.Name) {
				p.MinLength = jsonschema.Ptr(1)
				s.Required = append(s.Required, o.Name)
			}
			add(o.Name, p)
		}
	}
	return s
}

// MaxArgumentBytes bounds each string of a tool's arguments but the
// name and namespace (which action.CheckName bounds, quoting only their
// start). The longest a client has a reason to send is a PromQL query or
// a label selector of a few KiB; a value past the bound is refused before
// it is parsed, so that its error does not echo it whole (a flag's parse
// error quotes the value, some twice).
const MaxArgumentBytes = 64 << 10

// decode sets the call's own arguments and its options from args, as
// the command line parses its flags.
func decode(args map[string]any, c *connArgs, groups [][]options.Bound) error {
	for _, own := range []struct {
		name string
		out  *string
	}{{"name", &c.Name}, {namespaceArg.name, &c.Namespace}, {contextArg.name, &c.Context}} {
		if s, ok := args[own.name].(string); ok {
			*own.out = s
		}
	}
	if err := tooLong(contextArg.name, args[contextArg.name]); err != nil {
		return err
	}
	for _, g := range groups {
		for _, o := range g {
			if err := tooLong(o.Name, args[o.Name]); err != nil {
				return err
			}
		}
	}
	for _, g := range groups {
		for _, o := range g {
			if v, ok := args[o.Name]; ok && !o.CLIOnly {
				if err := o.SetJSON(v); err != nil {
					return &action.UsageError{Err: err}
				}
			}
		}
	}
	return nil
}

// tooLong refuses a string argument, or a string of a list, longer than
// MaxArgumentBytes.
func tooLong(name string, v any) error {
	check := func(s string) error {
		if len(s) > MaxArgumentBytes {
			return &action.UsageError{Err: fmt.Errorf("argument %q is %d bytes long, more than the %d KiB an argument may be", name, len(s), MaxArgumentBytes>>10)}
		}
		return nil
	}
	switch v := v.(type) {
	case string:
		return check(v)
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok {
				if err := check(s); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
