// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package schematest_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/kubectl-hpa/kubectl-hpa/internal/schematest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// explanation is an Explanation explain printed (a golden of pkg/cmd).
func explanation(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "pkg", "cmd", "testdata", "TestExamples", "cpu-scale-up-unready", "json.golden"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func encode(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The schemas refuse what the documents never hold: each change to a valid
// Explanation makes it fail, at the place changed.
func TestViolations(t *testing.T) {
	if err := schematest.Validate(schema.Explanation, encode(t, explanation(t))); err != nil {
		t.Fatalf("the golden does not validate: %v", err)
	}
	metric := func(d map[string]any) map[string]any { return d["metrics"].([]any)[0].(map[string]any) }
	for _, tc := range []struct {
		name, at string
		edit     func(d map[string]any)
	}{
		{"unknown outcome", "/outcome", func(d map[string]any) { d["outcome"] = "Bogus" }},
		{"another kind", "/kind", func(d map[string]any) { d["kind"] = "WhatIf" }},
		{"required field missing", "", func(d map[string]any) { delete(d, "summary") }},
		{"null where never null", "/decidedBy", func(d map[string]any) { d["decidedBy"] = nil }},
		{"not a quantity", "/metrics/0/value", func(d map[string]any) { metric(d)["value"] = "lots" }},
		{"a quantity as a number", "/metrics/0/value", func(d map[string]any) { metric(d)["value"] = 538 }},
		{"not a time", "/now", func(d map[string]any) { d["now"] = "yesterday" }},
		{"not an integer", "/currentReplicas", func(d map[string]any) { d["currentReplicas"] = 1.5 }},
		{"beyond int32", "/currentReplicas", func(d map[string]any) { d["currentReplicas"] = 3000000000 }},
		{"a property the type lacks", "", func(d map[string]any) { d["bogus"] = true }},
		{"in a Kubernetes type too", "/status", func(d map[string]any) { d["status"].(map[string]any)["bogus"] = 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := explanation(t)
			tc.edit(d)
			err := schematest.Validate(schema.Explanation, encode(t, d))
			if err == nil {
				t.Fatal("validated")
			}
			if !strings.Contains(err.Error(), "at '"+tc.at) {
				t.Errorf("error not at %q: %v", tc.at, err)
			}
		})
	}
}

// The published schema leaves objects open (a field may be added within a
// version); the strict one the tests use does not.
func TestPublishedIsOpen(t *testing.T) {
	d := explanation(t)
	d["addedLater"] = "x"
	b, err := schema.JSON(schema.Explanation)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schema.Explanation.ID(), doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(schema.Explanation.ID())
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(encode(t, d)))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(inst); err != nil {
		t.Errorf("the published schema refuses an added field: %v", err)
	}
	if schematest.Validate(schema.Explanation, encode(t, d)) == nil {
		t.Error("the strict schema accepts an added field")
	}
}

func TestKindOf(t *testing.T) {
	for doc, want := range map[string]schema.Kind{
		`{"apiVersion":"kubectl-hpa.io/v1alpha1","kind":"Explanation"}`:     schema.Explanation,
		`{"apiVersion":"kubectl-hpa.io/v1alpha1","kind":"ExplanationList"}`: schema.List,
		`{"apiVersion":"kubectl-hpa.io/v1alpha1","kind":"WhatIf"}`:          schema.WhatIf,
		`{"apiVersion":"kubectl-hpa.io/v1alpha1","kind":"MigrationReport"}`: schema.Migrate,
		`{"apiVersion":"kubectl-hpa.io/v1alpha1","kind":"Tune"}`:            schema.Tune,
		`{"apiVersion":"kubectl-hpa.io/v1alpha1","kind":"TuneFleet"}`:       schema.Fleet,
		`{"version":"dev","goVersion":"go1.26"}`:                            schema.Version,
	} {
		if got, err := schematest.KindOf([]byte(doc)); err != nil || got != want {
			t.Errorf("%s: %s, %v; want %s", doc, got, err, want)
		}
	}
	for _, doc := range []string{`{"kind":"ControllerState"}`, `{}`, `[1]`} {
		if got, err := schematest.KindOf([]byte(doc)); err == nil {
			t.Errorf("%s: %s, want an error", doc, got)
		}
	}
	if n, err := schematest.ValidateAny([]byte(`{"version":"v1","commit":"c","date":"d","goVersion":"go","platform":"p"}` + "\n" +
		`{"version":"v1","commit":"c","date":"d","goVersion":"go","platform":"p"}`)); err != nil || n != 2 {
		t.Errorf("a stream of two: %d, %v", n, err)
	}
}
