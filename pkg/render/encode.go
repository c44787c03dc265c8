// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Encode writes doc as JSON (indented by two spaces, with a final newline)
// or as YAML (through sigs.k8s.io/yaml, so the json tags are the field
// names). Every -o json|yaml document goes through it: the decision, the
// list, whatif, migrate's report and the version.
func Encode(w io.Writer, f Format, doc any) error {
	b, err := Marshal(f, doc)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Marshal returns doc encoded as Encode writes it.
func Marshal(f Format, doc any) ([]byte, error) {
	switch f {
	case FormatJSON:
		b, err := marshalIndent(doc, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("encode as JSON: %w", err)
		}
		return append(b, '\n'), nil
	case FormatYAML:
		b, err := yaml.Marshal(doc)
		if err != nil {
			return nil, fmt.Errorf("encode as YAML: %w", err)
		}
		return b, nil
	case FormatText:
	}
	return nil, fmt.Errorf("%q is not an encoding format (json or yaml)", f)
}

// listEncoder writes a list document ({apiVersion, kind, items}) item by
// item, so that a long list streams out: JSON as Encode indents it, YAML
// as a block sequence. The document is complete at close.
type listEncoder struct {
	w      io.Writer
	format Format
	kind   string
	n      int
}

func newListEncoder(w io.Writer, f Format, kind string) *listEncoder {
	return &listEncoder{w: w, format: f, kind: kind}
}

// head writes the fields before the items.
func (e *listEncoder) head() string {
	if e.format == FormatJSON {
		return fmt.Sprintf("{\n  \"apiVersion\": %q,\n  \"kind\": %q,\n  \"items\": [", explain.APIVersion, e.kind)
	}
	return fmt.Sprintf("apiVersion: %s\nkind: %s\nitems:", explain.APIVersion, e.kind)
}

// encode returns one item as write places it in the list. It only reads
// the encoder's format, so items may be encoded concurrently.
func (e *listEncoder) encode(item any) ([]byte, error) {
	if e.format == FormatJSON {
		b, err := marshalIndent(item, "    ", "  ")
		if err != nil {
			return nil, fmt.Errorf("encode as JSON: %w", err)
		}
		return b, nil
	}
	b, err := Marshal(e.format, item)
	if err != nil {
		return nil, err
	}
	var out []byte
	for i, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		switch {
		case i == 0:
			out = append(out, "- "...)
		case l != "":
			out = append(out, "  "...)
		}
		out = append(append(out, l...), '\n')
	}
	return out[:len(out)-1], nil
}

// write writes an encoded item, after the head of the document or the
// item before.
func (e *listEncoder) write(b []byte) error {
	out := make([]byte, 0, len(b)+128)
	if e.n == 0 {
		out = append(out, e.head()...)
	}
	switch {
	case e.format != FormatJSON:
		out = append(out, '\n')
	case e.n > 0:
		out = append(out, ",\n    "...)
	default:
		out = append(out, "\n    "...)
	}
	e.n++
	_, err := e.w.Write(append(out, b...))
	return err
}

// close writes the end of the document.
func (e *listEncoder) close() error {
	var end string
	switch {
	case e.n == 0 && e.format == FormatJSON:
		end = e.head() + "]\n}\n"
	case e.n == 0:
		end = e.head() + " []\n"
	case e.format == FormatJSON:
		end = "\n  ]\n}\n"
	default:
		end = "\n"
	}
	_, err := io.WriteString(e.w, end)
	return err
}
