// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"encoding/json"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"
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
		b, err := json.MarshalIndent(doc, "", "  ")
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
