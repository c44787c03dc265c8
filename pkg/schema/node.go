// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package schema

import (
	"bytes"
	"encoding/json"
)

// node is one JSON Schema, with the keywords the generator writes, in the
// order they are written.
type node struct {
	Schema          string      `json:"$schema,omitempty"`
	ID              string      `json:"$id,omitempty"`
	Ref             string      `json:"$ref,omitempty"`
	Title           string      `json:"title,omitempty"`
	Description     string      `json:"description,omitempty"`
	Type            typeList    `json:"type,omitempty"`
	Const           *string     `json:"const,omitempty"`
	Enum            []any       `json:"enum,omitempty"`
	Format          string      `json:"format,omitempty"`
	Pattern         string      `json:"pattern,omitempty"`
	ContentEncoding string      `json:"contentEncoding,omitempty"`
	Minimum         json.Number `json:"minimum,omitempty"`
	Maximum         json.Number `json:"maximum,omitempty"`
	Items           *node       `json:"items,omitempty"`
	MinItems        *int        `json:"minItems,omitempty"`
	MaxItems        *int        `json:"maxItems,omitempty"`
	Properties      properties  `json:"properties,omitempty"`
	Required        []string    `json:"required,omitempty"`
	// AdditionalProperties is a *node, or false.
	AdditionalProperties any        `json:"additionalProperties,omitempty"`
	AnyOf                []*node    `json:"anyOf,omitempty"`
	Defs                 properties `json:"$defs,omitempty"`
}

// typeList is the type keyword: a string for one type, an array for more.
type typeList []string

func types(t ...string) typeList { return t }

func (l typeList) MarshalJSON() ([]byte, error) {
	if len(l) == 1 {
		return json.Marshal(l[0])
	}
	return json.Marshal([]string(l))
}

// property is one named schema of properties or $defs.
type property struct {
	name   string
	schema *node
}

// properties is an object of schemas, written in its order. An empty,
// non-nil one is written as {}.
type properties []property

func (ps properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := compact(p.name)
		if err != nil {
			return nil, err
		}
		v, err := compact(p.schema)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// compact encodes v without escaping <, > and &, as marshal writes it.
func compact(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// marshal writes a schema document indented by two spaces, with a final
// newline, and without escaping <, > and & in the descriptions.
func marshal(n *node) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
