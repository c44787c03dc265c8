// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package render turns an explain.Decision into bytes: a plain text view
// for people, and JSON or YAML whose field names are the json tags of
// pkg/explain (documented in docs/output-schema.md).
package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"

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
type Options struct {
	// Color allows ANSI styling. The plain view ignores it for now; it is
	// the hook for the styled terminal view.
	Color bool
	// Width is the terminal width, 0 when unknown. The plain view never
	// wraps, so it does not depend on it.
	Width int
}

// Write renders d in format f to w.
func Write(w io.Writer, f Format, d *explain.Decision, opts Options) error {
	if d == nil {
		return fmt.Errorf("no decision to render")
	}
	var (
		out []byte
		err error
	)
	switch f {
	case FormatJSON:
		out, err = EncodeJSON(d)
	case FormatYAML:
		out, err = EncodeYAML(d)
	case FormatText, "":
		out = Text(d, opts)
	default:
		return fmt.Errorf("unknown output format %q", f)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// EncodeJSON returns d as JSON indented by two spaces, with a final newline.
func EncodeJSON(d *explain.Decision) ([]byte, error) {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode decision as JSON: %w", err)
	}
	return append(b, '\n'), nil
}

// EncodeYAML returns d as YAML, using the json tags as field names.
func EncodeYAML(d *explain.Decision) ([]byte, error) {
	b, err := yaml.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("encode decision as YAML: %w", err)
	}
	return b, nil
}
