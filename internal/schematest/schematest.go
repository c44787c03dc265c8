// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package schematest validates kubectl-hpa's -o json|yaml documents against
// their JSON Schemas (pkg/schema) with an independent validator,
// github.com/santhosh-tekuri/jsonschema/v6, formats asserted. It validates
// with the strict schemas, which also refuse a property the Go types do not
// have. Tests of any package (and test/e2e) call it on every document they
// parse.
package schematest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

var (
	compileOnce sync.Once
	compiled    map[schema.Kind]*jsonschema.Schema
	compileErr  error
)

// compile compiles the strict schema of every kind, once.
func compile() (map[schema.Kind]*jsonschema.Schema, error) {
	compileOnce.Do(func() {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		c.DefaultDraft(jsonschema.Draft2020)
		for _, k := range schema.Kinds() {
			b, err := schema.Generate(k, schema.Options{Strict: true})
			if err != nil {
				compileErr = err
				return
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				compileErr = fmt.Errorf("schema %s: %w", k, err)
				return
			}
			if err := c.AddResource(k.ID(), doc); err != nil {
				compileErr = fmt.Errorf("schema %s: %w", k, err)
				return
			}
		}
		out := map[schema.Kind]*jsonschema.Schema{}
		for _, k := range schema.Kinds() {
			s, err := c.Compile(k.ID())
			if err != nil {
				compileErr = fmt.Errorf("compile schema %s: %w", k, err)
				return
			}
			out[k] = s
		}
		compiled = out
	})
	return compiled, compileErr
}

// Validate checks doc, one JSON document, against the schema of kind. The
// error lists every violation, with its place in the document.
func Validate(kind schema.Kind, doc []byte) error {
	schemas, err := compile()
	if err != nil {
		return err
	}
	s, ok := schemas[kind]
	if !ok {
		_, err := schema.ParseKind(string(kind))
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("not a JSON document: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("more than one JSON document (a stream: use ValidateStream)")
	}
	return s.Validate(v)
}

// ValidateYAML checks doc, one YAML document, against the schema of kind,
// after converting it to JSON as sigs.k8s.io/yaml does.
func ValidateYAML(kind schema.Kind, doc []byte) error {
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return fmt.Errorf("not a YAML document: %w", err)
	}
	return Validate(kind, j)
}

// ValidateStream checks every JSON document of a stream (explain --watch
// -o json: documents one after the other) against the schema of kind. It
// returns the number of documents.
func ValidateStream(kind schema.Kind, stream []byte) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(stream))
	var errs []error
	n := 0
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return n, errors.Join(errs...)
		}
		if err != nil {
			return n, errors.Join(append(errs, fmt.Errorf("document %d: %w", n+1, err))...)
		}
		n++
		if err := Validate(kind, raw); err != nil {
			errs = append(errs, fmt.Errorf("document %d: %w", n, err))
		}
	}
}

// KindOf tells the kind of a JSON document from its kind field
// (Explanation, ExplanationList, WhatIf, MigrationReport,
// ExplanationSummaryList), or Version for a
// document without one that has the version fields. An Explanation may be
// a watch document too: both have the same schema.
func KindOf(doc []byte) (schema.Kind, error) {
	var head struct {
		Kind      *string `json:"kind"`
		GoVersion *string `json:"goVersion"`
	}
	if err := json.Unmarshal(doc, &head); err != nil {
		return "", fmt.Errorf("not a JSON object: %w", err)
	}
	if head.Kind == nil {
		if head.GoVersion != nil {
			return schema.Version, nil
		}
		return "", errors.New("the document has no kind")
	}
	switch *head.Kind {
	case "Explanation":
		return schema.Explanation, nil
	case "ExplanationList":
		return schema.List, nil
	case "WhatIf":
		return schema.WhatIf, nil
	case "MigrationReport":
		return schema.Migrate, nil
	case "KEDAExplanation":
		return schema.KEDA, nil
	case "ExplanationSummaryList":
		return schema.Summaries, nil
	case "Tune":
		return schema.Tune, nil
	case "TuneFleet":
		return schema.Fleet, nil
	}
	return "", fmt.Errorf("kind %q is not a kubectl-hpa output", *head.Kind)
}

// ValidateAny checks a JSON document, or a stream of them, each against
// the schema its kind names (KindOf). It returns the number of documents.
func ValidateAny(data []byte) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var errs []error
	n := 0
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			if n == 0 {
				errs = append(errs, errors.New("no JSON document"))
			}
			return n, errors.Join(errs...)
		}
		if err != nil {
			return n, errors.Join(append(errs, fmt.Errorf("document %d: %w", n+1, err))...)
		}
		n++
		kind, err := KindOf(raw)
		if err == nil {
			err = Validate(kind, raw)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("document %d: %w", n, err))
		}
	}
}

// Check fails the test (without stopping it) when doc, one JSON document,
// does not validate against the schema of kind.
func Check(tb testing.TB, kind schema.Kind, doc []byte) {
	tb.Helper()
	if err := Validate(kind, doc); err != nil {
		tb.Errorf("the %s document does not match its schema %s:\n%v\n%s", kind, kind.ID(), err, excerpt(doc))
	}
}

// CheckAny fails the test (without stopping it) when data, a JSON
// document or a stream of them, does not validate against the schema each
// document's kind names.
func CheckAny(tb testing.TB, data []byte) {
	tb.Helper()
	if _, err := ValidateAny(data); err != nil {
		tb.Errorf("the output does not match its schema:\n%v\n%s", err, excerpt(data))
	}
}

// excerpt is the start of a document, for a failure message.
func excerpt(doc []byte) string {
	const limit = 2000
	s := string(doc)
	if len(s) > limit {
		s = s[:limit] + "\n[...]"
	}
	return strings.TrimRight(s, "\n")
}
