// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/display"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

func TestDisplayOptions_flags(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		color display.ColorMode
		pods  render.PodsMode
		err   string
	}{
		{nil, display.ColorAuto, render.PodsAuto, ""},
		{[]string{"--color=always"}, display.ColorAlways, render.PodsAuto, ""},
		{[]string{"--color", "NEVER"}, display.ColorNever, render.PodsAuto, ""},
		{[]string{"--color=sometimes"}, "", "", `invalid argument "sometimes" for "--color" flag: want auto, always or never`},
		{[]string{"--pods"}, display.ColorAuto, render.PodsAll, ""},
		{[]string{"--no-pods"}, display.ColorAuto, render.PodsNone, ""},
		{[]string{"--pods=false"}, display.ColorAuto, render.PodsNone, ""},
		{[]string{"--no-pods", "--pods"}, display.ColorAuto, render.PodsAll, ""},
		{[]string{"--pods", "--no-pods"}, display.ColorAuto, render.PodsNone, ""},
		{[]string{"--pods=maybe"}, "", "", `invalid argument "maybe" for "--pods" flag: want true or false`},
	} {
		var d display.Options
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		addDisplayFlags(fs, &d)
		err := fs.Parse(tc.args)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%v: error = %v, want %q", tc.args, err, tc.err)
			}
		case err != nil:
			t.Errorf("%v: %v", tc.args, err)
		case d.Color != tc.color || d.Pods != tc.pods:
			t.Errorf("%v: color %q pods %q, want %q %q", tc.args, d.Color, d.Pods, tc.color, tc.pods)
		}
	}
}

// The explain command carries the flags, and help shows them as booleans.
func TestExplain_displayFlags(t *testing.T) {
	out, _, err := runRoot(t, "", "explain", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"--color string", "--pods ", "--no-pods "} {
		if !strings.Contains(out, s) {
			t.Errorf("help lacks %q", s)
		}
	}
	o, err := runExplainFlags(t, "web", "-f", "x.yaml", "--color=never", "--no-pods")
	if err != nil || o.Output.Display.Color != display.ColorNever || o.Output.Display.Pods != render.PodsNone {
		t.Errorf("explain flags: %v %+v", err, o)
	}
}
