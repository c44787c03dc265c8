// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
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

// DisplayOptions shape the text view: --color, --pods and --no-pods, and
// the terminal probes they depend on. This is the only place that looks
// at the terminal and the environment for rendering; pkg/render gets the
// outcome as render.Options.
type DisplayOptions struct {
	Color ColorMode
	Pods  render.PodsMode

	// Probes; nil means the real ones. Tests inject fakes.
	Getenv        func(string) string
	IsTerminal    func(io.Writer) bool
	TerminalWidth func(io.Writer) int
}

// AddFlags binds --color, --pods and --no-pods to fs.
func (d *DisplayOptions) AddFlags(fs *pflag.FlagSet) {
	if d.Color == "" {
		d.Color = ColorAuto
	}
	if d.Pods == "" {
		d.Pods = render.PodsAuto
	}
	fs.Var((*colorValue)(&d.Color), "color",
		"Color the text view: auto (when stdout is a terminal and NO_COLOR is unset), always or never; without color the plain layout is printed")
	pods := fs.VarPF(&podsValue{mode: &d.Pods, on: render.PodsAll, off: render.PodsNone}, "pods", "",
		fmt.Sprintf("List every pod in the per-pod tables (default: up to %d per metric)", render.MaxPodRows))
	pods.NoOptDefVal = "true"
	noPods := fs.VarPF(&podsValue{mode: &d.Pods, on: render.PodsNone, off: render.PodsAll}, "no-pods", "",
		"Leave out the per-pod tables, keeping the pod counts")
	noPods.NoOptDefVal = "true"
}

// RenderOptions decides the text view for out: whether to style it, the
// palette and the width.
//
// With --color=auto, NO_COLOR (set and not empty) or CLICOLOR=0 turn color
// off, CLICOLOR_FORCE (set, not 0) turns it on, and otherwise out must be a
// terminal whose TERM is not "dumb". --color=always and --color=never
// override the environment. The width is the terminal's, or
// render.DefaultWidth when out is not a terminal.
func (d *DisplayOptions) RenderOptions(out io.Writer) render.Options {
	getenv := d.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	isTerminal := d.IsTerminal
	if isTerminal == nil {
		isTerminal = writerIsTerminal
	}
	termWidth := d.TerminalWidth
	if termWidth == nil {
		termWidth = writerWidth
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

func writerIsTerminal(w io.Writer) bool {
	f, ok := w.(fdWriter)
	return ok && term.IsTerminal(int(f.Fd()))
}

func writerWidth(w io.Writer) int {
	f, ok := w.(fdWriter)
	if !ok {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return width
}

// colorValue is the pflag.Value of --color.
type colorValue ColorMode

func (c *colorValue) String() string { return string(*c) }

func (c *colorValue) Type() string { return "string" }

func (c *colorValue) Set(s string) error {
	switch m := ColorMode(strings.ToLower(strings.TrimSpace(s))); m {
	case ColorAuto, ColorAlways, ColorNever:
		*c = colorValue(m)
		return nil
	default:
		return fmt.Errorf("want auto, always or never")
	}
}

// podsValue is the pflag.Value of --pods and --no-pods: two boolean flags
// that set one mode, the last one given winning.
type podsValue struct {
	mode    *render.PodsMode
	on, off render.PodsMode
}

func (p *podsValue) String() string {
	if p.mode != nil && *p.mode == p.on {
		return "true"
	}
	return "false"
}

func (p *podsValue) Type() string { return "bool" }

func (p *podsValue) Set(s string) error {
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
