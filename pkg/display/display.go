// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package display decides how the text view looks on the output it goes
// to: color or not, the palette and the width, from --color, --pods, the
// environment (NO_COLOR, CLICOLOR, TERM...) and the terminal. It is the
// only place that looks at the terminal and the environment for
// rendering; pkg/render gets the outcome as render.Options, and pkg/cmd
// binds the flags to Options.
package display

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// ColorMode is the value of --color.
type ColorMode string

// Color modes.
const (
	// ColorAuto colors when stdout is a terminal, unless NO_COLOR is set or
	// CLICOLOR=0; CLICOLOR_FORCE (not 0) colors even when it is not.
	ColorAuto   ColorMode = "auto"
	ColorAlways ColorMode = "always"
	ColorNever  ColorMode = "never"
)

// Options shape the text view: --color, --pods and --no-pods, and the
// terminal probes they depend on.
type Options struct {
	Color ColorMode
	Pods  render.PodsMode

	// Probes; nil means the real ones. Tests inject fakes.
	Getenv        func(string) string
	IsTerminal    func(io.Writer) bool
	TerminalWidth func(io.Writer) int
}

// RenderOptions decides the text view for out: whether to style it, the
// palette and the width.
//
// With --color=auto, NO_COLOR (set and not empty) or CLICOLOR=0 turn color
// off, CLICOLOR_FORCE (set, not 0) turns it on, and otherwise out must be a
// terminal whose TERM is not "dumb". --color=always and --color=never
// override the environment. The width is the terminal's, or
// render.DefaultWidth when out is not a terminal.
func (d *Options) RenderOptions(out io.Writer) render.Options {
	getenv := d.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	isTerminal := d.IsTerminal
	if isTerminal == nil {
		isTerminal = IsTerminal
	}
	termWidth := d.TerminalWidth
	if termWidth == nil {
		termWidth = width
	}
	tty := isTerminal(out)
	opts := render.Options{Pods: d.Pods, Width: render.DefaultWidth}
	if opts.Pods == "" {
		opts.Pods = render.PodsAuto
	}
	switch d.Color {
	case ColorAlways:
		opts.Color = true
	case ColorNever:
		opts.Color = false
	default:
		switch {
		case getenv("NO_COLOR") != "", getenv("CLICOLOR") == "0":
			opts.Color = false
		case getenv("CLICOLOR_FORCE") != "" && getenv("CLICOLOR_FORCE") != "0":
			opts.Color = true
		default:
			opts.Color = tty && getenv("TERM") != "dumb"
		}
	}
	if !colors256(getenv) {
		opts.Palette = render.Palette16
	}
	if tty {
		if w := termWidth(out); w > 0 {
			opts.Width = w
		}
	}
	return opts
}

// colors256 reports whether the terminal announces 256 colors or more;
// others get the 16 basic colors.
func colors256(getenv func(string) string) bool {
	switch strings.ToLower(getenv("COLORTERM")) {
	case "truecolor", "24bit":
		return true
	}
	t := getenv("TERM")
	return strings.Contains(t, "256color") || strings.Contains(t, "truecolor") || strings.Contains(t, "direct") ||
		strings.HasPrefix(t, "xterm-kitty") || strings.HasPrefix(t, "xterm-ghostty") ||
		strings.HasPrefix(t, "alacritty") || strings.HasPrefix(t, "wezterm")
}

// fdWriter is an output with a file descriptor, such as *os.File.
type fdWriter interface{ Fd() uintptr }

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(fdWriter)
	return ok && term.IsTerminal(int(f.Fd()))
}

// size is the terminal w's width and height, 0 when unknown.
func size(w io.Writer) (int, int) {
	f, ok := w.(fdWriter)
	if !ok {
		return 0, 0
	}
	width, height, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0, 0
	}
	return width, height
}

func width(w io.Writer) int { x, _ := size(w); return x }

// Height is the height of the terminal w less one line, 0 when unknown
// (or too small for a frame).
func Height(w io.Writer) int {
	_, h := size(w)
	if h < 3 {
		return 0
	}
	return h - 1
}

// ColorModes are the values of --color, in the order its help gives them.
func ColorModes() []string {
	return []string{string(ColorAuto), string(ColorAlways), string(ColorNever)}
}

// ColorValue is the flag value of --color (pflag.Value's methods).
func ColorValue(m *ColorMode) *ColorFlag { return (*ColorFlag)(m) }

// ColorFlag parses --color.
type ColorFlag ColorMode

// String is the value, as pflag shows it.
func (c *ColorFlag) String() string { return string(*c) }

// Type names the kind of value in the help.
func (c *ColorFlag) Type() string { return "string" }

// Set parses a value given to the flag.
func (c *ColorFlag) Set(s string) error {
	switch m := ColorMode(strings.ToLower(strings.TrimSpace(s))); m {
	case ColorAuto, ColorAlways, ColorNever:
		*c = ColorFlag(m)
		return nil
	default:
		return fmt.Errorf("want auto, always or never")
	}
}

// PodsValue is the flag value of --pods (on PodsAll, off PodsNone) and of
// --no-pods (the reverse): two boolean flags that set one mode, the last
// one given winning.
func PodsValue(mode *render.PodsMode, on, off render.PodsMode) *PodsFlag {
	return &PodsFlag{mode: mode, on: on, off: off}
}

// PodsFlag parses --pods or --no-pods.
type PodsFlag struct {
	mode    *render.PodsMode
	on, off render.PodsMode
}

// String is the value, as pflag shows it.
func (p *PodsFlag) String() string {
	if p.mode != nil && *p.mode == p.on {
		return "true"
	}
	return "false"
}

// Type names the kind of value in the help.
func (p *PodsFlag) Type() string { return "bool" }

// Set parses a value given to the flag.
func (p *PodsFlag) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	if b {
		*p.mode = p.on
	} else {
		*p.mode = p.off
	}
	return nil
}
