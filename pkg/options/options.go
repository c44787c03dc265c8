// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package options is how an option of kubectl-hpa is declared once and
// offered by every face: one Row names it, gives the command line's help
// and the MCP argument's description, lists the values it takes, and says
// which field of an input it sets. pkg/cmd turns the rows into cobra flags and
// pkg/mcpserver into tool arguments (their JSON Schema and their
// decoding), so the two cannot drift apart.
//
// The package knows neither cobra nor pflag nor JSON Schema: a Value has
// pflag.Value's methods, so pkg/cmd binds it as it is, and JSONType says
// what an argument's JSON is. The rows themselves live beside the inputs
// they fill (pkg/action's options.go, pkg/prom's options.go), so that the
// errors of those packages name an option through its row. A table of
// rows is Rows; a row bound to the field of one input is a Bound.
package options

import (
	"fmt"
	"strconv"
)

// Value is an option's value bound to the field it sets: what a flag
// parses and an argument decodes into. Its methods are pflag.Value's.
// String is the value shown as the flag's default ("" or "0" shows none).
type Value interface {
	String() string
	Set(string) error
	Type() string
}

// Row declares one option of an input of type T.
type Row[T any] struct {
	// Name is the flag's long name and the MCP argument's name.
	Name string
	// Shorthand is the flag's one-letter name ("" for none).
	Shorthand string
	// Help is the flag's help text.
	Help string
	// Desc is the MCP argument's description; "" means Help.
	Desc string
	// Hidden hides the flag from the help (options for tests and upstream
	// replays); a hidden option is CLIOnly.
	Hidden bool
	// Enum lists the values the option takes (nil: any), in the order the
	// help gives them: the flag completes them, and the MCP argument's
	// schema lists them (but for CLIOnlyValues).
	Enum []string
	// CLIOnlyValues are the values of Enum that only the flag takes, each
	// with why no MCP argument does (nil: the argument takes all of Enum).
	CLIOnlyValues map[string]string
	// NoOpt is the value of the flag given without one (as
	// pflag.Flag.NoOptDefVal; booleans have "true" without saying so).
	NoOpt string
	// CLIOnly says why the option is a flag only and no MCP argument
	// ("" for an option both faces offer).
	CLIOnly string
	// Field binds the option to its field of in.
	Field func(in *T) Value
}

// Flag returns the row's name as the command line spells it, for
// messages: "--cpu".
func (o Row[T]) Flag() string { return "--" + o.Name }

// Rows are the rows of one input type, in the order the help of a tool
// lists them: a table of options.
type Rows[T any] []Row[T]

// Only returns the rows named, in their order: a face that offers part of
// a group of rows takes them from the one declaration. A name that is no
// row's is a programming error, and panics.
func (rs Rows[T]) Only(names ...string) Rows[T] {
	out := make(Rows[T], 0, len(names))
	for _, o := range rs {
		for _, n := range names {
			if o.Name == n {
				out = append(out, o)
			}
		}
	}
	if len(out) != len(names) {
		panic(fmt.Sprintf("options.Only(%v): not every name is a row's", names))
	}
	return out
}

// Bind returns the rows bound to the fields of in.
func (rs Rows[T]) Bind(in *T) []Bound {
	out := make([]Bound, len(rs))
	for i, o := range rs {
		desc := o.Desc
		if desc == "" {
			desc = o.Help
		}
		var argEnum []string
		for _, v := range o.Enum {
			if _, only := o.CLIOnlyValues[v]; !only {
				argEnum = append(argEnum, v)
			}
		}
		out[i] = Bound{
			Name: o.Name, Shorthand: o.Shorthand, Help: o.Help, Desc: desc, Hidden: o.Hidden, Enum: o.Enum, ArgEnum: argEnum,
			NoOpt: o.NoOpt, CLIOnly: o.CLIOnly != "" || o.Hidden, Value: o.Field(in),
		}
	}
	return out
}

// Named returns the row whose field is field (a pointer into an input of
// type T), for a message that names its option; it panics when no row
// sets that field, which is a mistake of the declaration.
func (rs Rows[T]) Named(in *T, field any) Row[T] {
	for _, o := range rs {
		if p, ok := o.Field(in).(interface{ ptr() any }); ok && p.ptr() == field {
			return o
		}
	}
	panic(fmt.Sprintf("options: no row sets the field %T", field))
}

// Bound is an option bound to a field: what a face offers and sets.
type Bound struct {
	Name, Shorthand, Help, Desc string
	Hidden                      bool
	// Enum are the values the flag takes (and completes), ArgEnum those
	// the MCP argument takes (nil: any).
	Enum, ArgEnum []string
	NoOpt         string
	// CLIOnly is set for a flag that is no MCP argument (hidden ones too).
	CLIOnly bool
	Value   Value
}

// Flag is the option's name as the command line spells it: "--cpu", or
// "-l, --selector" with a shorthand, as pflag names it in its errors.
func (b Bound) Flag() string {
	if b.Shorthand != "" {
		return "-" + b.Shorthand + ", --" + b.Name
	}
	return "--" + b.Name
}

// IsSet reports whether the field holds a value given by the user: a
// pointer that is not nil, a string or list that is not empty, a true
// boolean.
func (b Bound) IsSet() bool { return b.Value.(interface{ isSet() bool }).isSet() }

// NoOptDefVal is the value of a flag given without one ("true" for a
// boolean), as pflag.Flag.NoOptDefVal.
func (b Bound) NoOptDefVal() string {
	if b.NoOpt != "" {
		return b.NoOpt
	}
	if n, ok := b.Value.(interface{ noOptDefVal() string }); ok {
		return n.noOptDefVal()
	}
	return ""
}

// JSONType is the JSON Schema type of the option's MCP argument:
// "string", "boolean", "integer", "number" or "array" (of strings).
func (b Bound) JSONType() string {
	switch b.Value.Type() {
	case "bool":
		return "boolean"
	case "int32", "int":
		return "integer"
	case "float64":
		return "number"
	case "stringArray", "stringSlice":
		return "array"
	}
	return "string"
}

// Nullable reports whether the argument may be null, meaning not given
// (the numbers and the lists).
func (b Bound) Nullable() bool {
	switch b.JSONType() {
	case "integer", "number", "array":
		return true
	}
	return false
}

// SetJSON sets the option from an MCP argument decoded by encoding/json
// (a string, a bool, a float64, a list of strings, or nil: not given). A
// value the option refuses is an error worded as pflag words a flag's.
func (b Bound) SetJSON(v any) error {
	var values []string
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		values = []string{v}
	case bool:
		values = []string{strconv.FormatBool(v)}
	case float64:
		values = []string{strconv.FormatFloat(v, 'f', -1, 64)}
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return fmt.Errorf("invalid argument %v for %q: want strings", v, b.Name)
			}
			values = append(values, s)
		}
	default:
		return fmt.Errorf("invalid argument %v for %q", v, b.Name)
	}
	for _, s := range values {
		if err := b.Value.Set(s); err != nil {
			return fmt.Errorf("invalid argument %q for %q flag: %w", s, b.Flag(), err)
		}
	}
	return nil
}

// Embed returns the rows of an input of type U as rows of an input of
// type T that holds one (field returns it): a group shared by several
// inputs, declared once.
func Embed[T, U any](rs Rows[U], field func(*T) *U) Rows[T] {
	out := make(Rows[T], len(rs))
	for i, o := range rs {
		bind := o.Field
		out[i] = Row[T]{
			Name: o.Name, Shorthand: o.Shorthand, Help: o.Help, Desc: o.Desc, Hidden: o.Hidden, Enum: o.Enum,
			CLIOnlyValues: o.CLIOnlyValues, NoOpt: o.NoOpt, CLIOnly: o.CLIOnly,
			Field: func(in *T) Value { return bind(field(in)) },
		}
	}
	return out
}
