// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// tone is what a styled fragment means to the reader.
type tone int

const (
	toneNone tone = iota
	toneOK
	toneWarn
	toneBad
)

// theme holds every style of the styled view. Its styles come from a
// renderer made for the output writer, whose color profile is set from the
// options: lipgloss's global renderer, which looks at os.Stdout and the
// environment, is never used.
type theme struct {
	plain         lipgloss.Style
	ok, warn, bad lipgloss.Style
	accent, dim   lipgloss.Style
	bold, head    lipgloss.Style
	badge         map[tone]lipgloss.Style
}

// Colors of the 256-color palette; Palette16 maps them to the nearest basic
// color.
const (
	colorOK     = lipgloss.Color("42")
	colorWarn   = lipgloss.Color("214")
	colorBad    = lipgloss.Color("203")
	colorAccent = lipgloss.Color("75")
	colorDim    = lipgloss.Color("245")
	colorInk    = lipgloss.Color("16")
)

func newTheme(w io.Writer, p Palette) *theme {
	profile := termenv.ANSI256
	if p == Palette16 {
		profile = termenv.ANSI
	}
	return themeFor(w, profile)
}

// plainTheme styles nothing (the frames of a watch without color).
func plainTheme() *theme { return themeFor(io.Discard, termenv.Ascii) }

func themeFor(w io.Writer, profile termenv.Profile) *theme {
	r := lipgloss.NewRenderer(w, termenv.WithProfile(profile))
	r.SetColorProfile(profile)
	// Fixed, so that nothing ever queries the terminal.
	r.SetHasDarkBackground(true)

	fg := func(c lipgloss.Color) lipgloss.Style { return r.NewStyle().Foreground(c) }
	badge := func(c lipgloss.Color) lipgloss.Style {
		return r.NewStyle().Bold(true).Foreground(colorInk).Background(c)
	}
	return &theme{
		plain:  r.NewStyle(),
		ok:     fg(colorOK),
		warn:   fg(colorWarn),
		bad:    fg(colorBad),
		accent: fg(colorAccent).Bold(true),
		dim:    fg(colorDim),
		bold:   r.NewStyle().Bold(true),
		head:   fg(colorDim).Bold(true),
		badge: map[tone]lipgloss.Style{
			toneNone: badge(colorDim),
			toneOK:   badge(colorOK),
			toneWarn: badge(colorWarn),
			toneBad:  badge(colorBad),
		},
	}
}

// tone returns the style of a tone.
func (th *theme) tone(t tone) lipgloss.Style {
	switch t {
	case toneOK:
		return th.ok
	case toneWarn:
		return th.warn
	case toneBad:
		return th.bad
	default:
		return th.plain
	}
}

// paint renders s in st; the empty string stays empty, without escapes.
func paint(st lipgloss.Style, s string) string {
	if s == "" {
		return ""
	}
	return st.Render(s)
}
