// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package display

import (
	"bytes"
	"io"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

func TestOptions_renderOptions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		color   ColorMode
		env     map[string]string
		tty     bool
		want    bool
		palette render.Palette
		width   int
	}{
		{"auto, terminal", ColorAuto, map[string]string{"TERM": "xterm-256color"}, true, true, render.Palette256, 132},
		{"auto, pipe", ColorAuto, map[string]string{"TERM": "xterm-256color"}, false, false, render.Palette256, 100},
		{"auto, 16-color terminal", ColorAuto, map[string]string{"TERM": "xterm"}, true, true, render.Palette16, 132},
		{"auto, truecolor", ColorAuto, map[string]string{"TERM": "xterm", "COLORTERM": "truecolor"}, true, true, render.Palette256, 132},
		{"auto, dumb terminal", ColorAuto, map[string]string{"TERM": "dumb"}, true, false, render.Palette16, 132},
		{"auto, NO_COLOR", ColorAuto, map[string]string{"NO_COLOR": "1", "TERM": "xterm-256color"}, true, false, render.Palette256, 132},
		{"auto, empty NO_COLOR", ColorAuto, map[string]string{"NO_COLOR": "", "TERM": "xterm-256color"}, true, true, render.Palette256, 132},
		{"auto, NO_COLOR beats CLICOLOR_FORCE", ColorAuto, map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, true, false, render.Palette16, 132},
		{"auto, CLICOLOR=0", ColorAuto, map[string]string{"CLICOLOR": "0", "TERM": "xterm-256color"}, true, false, render.Palette256, 132},
		{"auto, CLICOLOR_FORCE on a pipe", ColorAuto, map[string]string{"CLICOLOR_FORCE": "1", "TERM": "xterm-256color"}, false, true, render.Palette256, 100},
		{"auto, CLICOLOR_FORCE=0", ColorAuto, map[string]string{"CLICOLOR_FORCE": "0"}, false, false, render.Palette16, 100},
		{"always on a pipe", ColorAlways, map[string]string{"TERM": "xterm-256color"}, false, true, render.Palette256, 100},
		{"always beats NO_COLOR", ColorAlways, map[string]string{"NO_COLOR": "1"}, false, true, render.Palette16, 100},
		{"never on a terminal", ColorNever, map[string]string{"CLICOLOR_FORCE": "1", "TERM": "xterm-256color"}, true, false, render.Palette256, 132},
		{"zero value is auto", "", map[string]string{"TERM": "xterm-256color"}, true, true, render.Palette256, 132},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Options{
				Color:         tc.color,
				Getenv:        func(k string) string { return tc.env[k] },
				IsTerminal:    func(io.Writer) bool { return tc.tty },
				TerminalWidth: func(io.Writer) int { return 132 },
			}
			got := d.RenderOptions(&bytes.Buffer{})
			if got.Color != tc.want || got.Palette != tc.palette || got.Width != tc.width || got.Pods != render.PodsAuto {
				t.Errorf("got %+v, want color %v, palette %v, width %d, pods auto", got, tc.want, tc.palette, tc.width)
			}
		})
	}
}

func TestOptions_unknownTerminalWidth(t *testing.T) {
	d := Options{
		Color:         ColorAlways,
		Getenv:        func(string) string { return "" },
		IsTerminal:    func(io.Writer) bool { return true },
		TerminalWidth: func(io.Writer) int { return 0 },
	}
	if got := d.RenderOptions(io.Discard).Width; got != render.DefaultWidth {
		t.Errorf("width = %d, want %d", got, render.DefaultWidth)
	}
	// The real probes: a buffer is not a terminal.
	if (&Options{Getenv: func(string) string { return "" }}).RenderOptions(&bytes.Buffer{}).Color {
		t.Error("a buffer is not a terminal")
	}
}
