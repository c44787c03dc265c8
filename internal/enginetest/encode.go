// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package enginetest

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// Encodes checks what every document we print must do: doc encodes as JSON
// and as YAML (render.Marshal, the one encoder of -o json|yaml), the JSON
// decodes into a T that encodes to the same bytes (nothing is lost or
// changed by a reader), and the YAML parses. text, when given, writes the
// document's text views; they must not fail either.
func Encodes[T any](tb testing.TB, doc *T, text func(io.Writer, render.Options) error) {
	tb.Helper()
	j, err := render.Marshal(render.FormatJSON, doc)
	if err != nil {
		tb.Fatalf("-o json: %v", err)
	}
	if !json.Valid(j) {
		tb.Fatalf("-o json wrote invalid JSON:\n%s", j)
	}
	var back T
	if err := json.Unmarshal(j, &back); err != nil {
		tb.Fatalf("-o json does not decode into %T: %v", back, err)
	}
	again, err := render.Marshal(render.FormatJSON, &back)
	if err != nil {
		tb.Fatalf("-o json of the decoded document: %v", err)
	}
	if !bytes.Equal(j, again) {
		tb.Fatalf("-o json changes through a decode:\n%s\nthen\n%s", j, again)
	}
	y, err := render.Marshal(render.FormatYAML, doc)
	if err != nil {
		tb.Fatalf("-o yaml: %v", err)
	}
	var parsed any
	if err := yaml.Unmarshal(y, &parsed); err != nil {
		tb.Fatalf("-o yaml wrote YAML that does not parse: %v", err)
	}
	if text == nil {
		return
	}
	for _, opts := range []render.Options{{}, {Color: true, Palette: render.Palette256, Width: 80}} {
		if err := text(io.Discard, opts); err != nil {
			tb.Fatalf("text view (color %v): %v", opts.Color, err)
		}
	}
}
