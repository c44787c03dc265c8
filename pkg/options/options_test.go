// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package options

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

type input struct {
	S     string
	L     []string
	C     []string
	B     bool
	I     *int32
	F     *float64
	D     *time.Duration
	Plain time.Duration
}

var table = Rows[input]{
	{Name: "s", Help: "S", Field: func(in *input) Value { return String(&in.S) }},
	{Name: "l", Help: "L", Field: func(in *input) Value { return Strings(&in.L) }},
	{Name: "c", Shorthand: "c", Help: "C", Field: func(in *input) Value { return CommaStrings(&in.C) }},
	{Name: "b", Help: "B", Field: func(in *input) Value { return Bool(&in.B) }},
	{Name: "i", Help: "I", Field: func(in *input) Value { return Int32(&in.I, "-1") }},
	{Name: "f", Help: "F", Field: func(in *input) Value { return Float64(&in.F, 0.1) }},
	{Name: "d", Help: "D", Field: func(in *input) Value { return Duration(&in.D, 30*time.Second) }},
	{Name: "plain", Help: "Plain", Field: func(in *input) Value { return PlainDuration(&in.Plain) }},
}

// Our values parse, refuse and show their defaults as pflag's own kinds:
// the same command line gives the same fields, errors and help.
func TestValuesActAsPflags(t *testing.T) {
	bind := func(in *input) *pflag.FlagSet {
		fs := pflag.NewFlagSet("ours", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		for _, o := range table.Bind(in) {
			f := fs.VarPF(o.Value, o.Name, o.Shorthand, o.Help)
			f.NoOptDefVal = o.NoOptDefVal()
		}
		return fs
	}
	var ref struct {
		s, plain, d time.Duration
		str         string
		l, c        []string
		b           bool
		i           int32
		f           float64
	}
	theirs := pflag.NewFlagSet("theirs", pflag.ContinueOnError)
	theirs.SetOutput(io.Discard)
	theirs.StringVar(&ref.str, "s", "", "S")
	theirs.StringArrayVar(&ref.l, "l", nil, "L")
	theirs.StringSliceVarP(&ref.c, "c", "c", nil, "C")
	theirs.BoolVar(&ref.b, "b", false, "B")
	theirs.Int32Var(&ref.i, "i", -1, "I")
	theirs.Float64Var(&ref.f, "f", 0.1, "F")
	theirs.DurationVar(&ref.d, "d", 30*time.Second, "D")
	theirs.DurationVar(&ref.plain, "plain", 0, "Plain")
	if got, want := bind(&input{}).FlagUsages(), theirs.FlagUsages(); got != want {
		t.Errorf("help:\n%s\nwant (pflag's):\n%s", got, want)
	}

	for _, args := range [][]string{
		{"--s=x", "--l", "a,b", "--l", "c", "-c", "d,e", "-c", "f", "--b", "--i", "0x10", "--f", "1e-2", "--d", "2m", "--plain", "3s"},
		{"--i", "x"},
		{"--i", "4294967296"},
		{"--f", "one"},
		{"--d", "5x"},
		{"--b=maybe"},
		{"-c", `"a`},
	} {
		var in input
		errOurs := bind(&in).Parse(args)
		theirs := pflag.NewFlagSet("theirs", pflag.ContinueOnError)
		theirs.SetOutput(io.Discard)
		var s string
		var l, c []string
		var b bool
		var i int32
		var f float64
		var d, plain time.Duration
		theirs.StringVar(&s, "s", "", "S")
		theirs.StringArrayVar(&l, "l", nil, "L")
		theirs.StringSliceVarP(&c, "c", "c", nil, "C")
		theirs.BoolVar(&b, "b", false, "B")
		theirs.Int32Var(&i, "i", -1, "I")
		theirs.Float64Var(&f, "f", 0.1, "F")
		theirs.DurationVar(&d, "d", 30*time.Second, "D")
		theirs.DurationVar(&plain, "plain", 0, "Plain")
		errTheirs := theirs.Parse(args)
		if fmt.Sprint(errOurs) != fmt.Sprint(errTheirs) {
			t.Errorf("%v: error %v, pflag's %v", args, errOurs, errTheirs)
			continue
		}
		if errOurs != nil {
			continue
		}
		got := fmt.Sprint(in.S, in.L, in.C, in.B, *in.I, *in.F, *in.D, in.Plain)
		if want := fmt.Sprint(s, l, c, b, i, f, d, plain); got != want {
			t.Errorf("%v: %s, pflag's %s", args, got, want)
		}
	}
}

// An MCP argument sets the option as its flag would, and a value the
// option refuses is worded as pflag words the flag's.
func TestSetJSON(t *testing.T) {
	var in input
	bound := table.Bind(&in)
	byName := map[string]Bound{}
	for _, b := range bound {
		byName[b.Name] = b
	}
	for name, v := range map[string]any{"s": "x", "l": []any{"a", "b"}, "b": true, "i": float64(3), "f": 0.5, "d": "1m", "c": nil} {
		if err := byName[name].SetJSON(v); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if in.S != "x" || strings.Join(in.L, ",") != "a,b" || !in.B || *in.I != 3 || *in.F != 0.5 || *in.D != time.Minute || in.C != nil {
		t.Errorf("decoded %+v", in)
	}
	for _, b := range bound {
		if want := b.Name != "plain" && b.Name != "c"; b.IsSet() != want {
			t.Errorf("%s: set %v, want %v", b.Name, b.IsSet(), want)
		}
	}
	err := byName["d"].SetJSON("x")
	if want := `invalid argument "x" for "--d" flag: time: invalid duration "x"`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if err := byName["c"].SetJSON(`"a`); err == nil || !strings.Contains(err.Error(), `"-c, --c"`) {
		t.Errorf("a shorthand flag's error %v names it as pflag does", err)
	}
}

// Named finds an option by its field, and a field no option sets is a
// mistake of the declaration.
func TestNamed(t *testing.T) {
	var in input
	if got := table.Named(&in, &in.D).Flag(); got != "--d" {
		t.Errorf("Named(D) = %s", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic for a field no option sets")
		}
	}()
	var other int
	table.Named(&in, &other)
}
