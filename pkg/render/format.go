// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package render turns an explain.Decision into bytes: a styled, compact
// terminal view and a plain, complete text view for people, and JSON or YAML
// whose field names are the json tags of pkg/explain (documented in
// docs/output-schema.md).
package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Format is an output format.
type Format string

// Output formats.
const (
	FormatText Format = "text"
	FormatJSON Format = "json"
	FormatYAML Format = "yaml"
)

// Formats lists the accepted format names, default first.
func Formats() []string {
	return []string{string(FormatText), string(FormatJSON), string(FormatYAML)}
}

// ParseFormat checks a format name; "" means text.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(strings.TrimSpace(s))); f {
	case "", FormatText:
		return FormatText, nil
	case FormatJSON, FormatYAML:
		return f, nil
	default:
		return "", fmt.Errorf("unknown output format %q (want one of: %s)", s, strings.Join(Formats(), ", "))
	}
}

// Options tune the text view. The JSON and YAML encodings ignore them.
// pkg/render never looks at the environment or the terminal: pkg/cmd decides
// these values and passes them in.
type Options struct {
	// Color selects the styled terminal view for text, with ANSI colors in
	// Palette. Without it, text is the plain view.
	Color bool
	// Palette is the color depth of the styled view.
	Palette Palette
	// Width is the terminal width the styled view wraps to; 0 means
	// DefaultWidth. The plain view never wraps, so it does not depend on it.
	Width int
	// Pods says which per-pod tables to print.
	Pods PodsMode
	// ListPods is how the reader asks for every pod (pkg/cmd: its flag),
	// named after a table that leaves pods out; "" names nothing.
	ListPods string
}

// DefaultWidth is the width of the styled view when the terminal's is not
// known.
const DefaultWidth = 100

// Palette is the color depth of the styled view.
type Palette int

// Palettes. The styled view's colors are picked from the 256-color palette;
// Palette16 maps them to the nearest of the 16 basic colors.
const (
	Palette256 Palette = iota
	Palette16
)

// PodsMode says which per-pod tables the text views print.
type PodsMode string

// Pods modes.
const (
	// PodsAuto lists up to MaxPodRows pods per metric, the pods that are
	// not ready first, and summarizes the rest.
	PodsAuto PodsMode = "auto"
	// PodsAll lists every pod.
	PodsAll PodsMode = "all"
	// PodsNone prints no per-pod table, only the counts.
	PodsNone PodsMode = "none"
)

// Write renders d in format f to w.
func Write(w io.Writer, f Format, d *explain.Decision, opts Options) error {
	if d == nil {
		return fmt.Errorf("no decision to render")
	}
	switch f {
	case FormatJSON, FormatYAML:
		return Encode(w, f, d)
	case FormatText, "":
	default:
		return fmt.Errorf("unknown output format %q", f)
	}
	out := Text(d, opts)
	if opts.Color {
		out = Styled(w, d, opts)
	}
	_, err := w.Write(out)
	return err
}
