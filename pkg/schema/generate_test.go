// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package schema

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/randfill"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// compileStrict compiles the strict schema of a kind with an independent
// validator.
func compileStrict(t *testing.T, k Kind) *jsonschema.Schema {
	t.Helper()
	b, err := Generate(k, Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(k.ID(), doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(k.ID())
	if err != nil {
		t.Fatalf("%s: %v", k, err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, v any) error {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(inst)
}

// Types exercising encoding/json's rules.
type (
	sampleInner struct {
		A string `json:"a"`
	}
	SampleEmbedded struct {
		E string `json:"e"`
		// Shadowed by the outer field of the same name.
		Req string `json:"req"`
	}
	SampleEmbeddedPtr struct {
		P int `json:"p"`
	}
	sample struct {
		Req        int32             `json:"req"`
		Opt        string            `json:"opt,omitempty"`
		Ptr        *int64            `json:"ptr"`
		OptPtr     *int64            `json:"optPtr,omitempty"`
		Slice      []string          `json:"slice"`
		OptSlice   []string          `json:"optSlice,omitempty"`
		Map        map[string]bool   `json:"map"`
		Struct     sampleInner       `json:"struct,omitempty"`
		Zero       sampleInner       `json:"zero,omitzero"`
		Bytes      []byte            `json:"bytes"`
		Time       metav1.Time       `json:"time,omitempty"`
		TimePtr    *metav1.Time      `json:"timePtr,omitempty"`
		Q          resource.Quantity `json:"q"`
		Raw        json.RawMessage   `json:"raw,omitempty"`
		Skip       string            `json:"-"`
		unexported int               //nolint:unused // encoding/json skips it, and so must the generator
		SampleEmbedded
		*SampleEmbeddedPtr
		NoTag bool
	}
)

// The generator follows encoding/json: what is required, what may be null,
// what is promoted from embedded structs, and what the self-encoding types
// write.
func TestEncodingRules(t *testing.T) {
	g := newGenerator(&Docs{}, false)
	if _, err := g.schemaOf(reflect.TypeFor[sample](), false); err != nil {
		t.Fatal(err)
	}
	def := g.defs["schema.sample"]
	var names []string
	props := map[string]*node{}
	for _, p := range def.Properties {
		names = append(names, p.name)
		props[p.name] = p.schema
	}
	wantNames := []string{"req", "opt", "ptr", "optPtr", "slice", "optSlice", "map", "struct", "zero", "bytes", "time", "timePtr", "q", "raw", "e", "p", "NoTag"}
	if !slices.Equal(names, wantNames) {
		t.Errorf("properties %q\nwant       %q", names, wantNames)
	}
	wantRequired := []string{"req", "ptr", "slice", "map", "struct", "bytes", "time", "q", "e", "NoTag"}
	if !slices.Equal(def.Required, wantRequired) {
		t.Errorf("required %q\nwant     %q", def.Required, wantRequired)
	}
	for name, want := range map[string]string{
		"ptr":      `{"type":["integer","null"],"minimum":-9223372036854775808,"maximum":9223372036854775807}`,
		"optPtr":   `{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}`,
		"slice":    `{"type":["array","null"],"items":{"type":"string"}}`,
		"optSlice": `{"type":"array","items":{"type":"string"}}`,
		"map":      `{"type":["object","null"],"additionalProperties":{"type":"boolean"}}`,
		"bytes":    `{"type":["string","null"],"contentEncoding":"base64"}`,
		"time":     `{"$ref":"#/$defs/io.k8s.apimachinery.pkg.apis.meta.v1.Time"}`,
		"timePtr":  `{"$ref":"#/$defs/io.k8s.apimachinery.pkg.apis.meta.v1.Time"}`,
		"raw":      `{"$ref":"#/$defs/json.RawMessage"}`,
	} {
		got, err := compact(props[name])
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s: %s\nwant %s", name, got, want)
		}
	}
}

// A type that encodes itself without a schema in selfEncoding is refused,
// and so is the json option "string".
func TestRefusals(t *testing.T) {
	type withMarshaler struct {
		D interface{ MarshalJSON() ([]byte, error) } `json:"d"`
		V explainVersion                             `json:"v"`
	}
	type withString struct {
		N int `json:"n,string"`
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[withMarshaler](), reflect.TypeFor[withString]()} {
		if _, err := newGenerator(&Docs{}, false).schemaOf(typ, false); err == nil {
			t.Errorf("%s: no error", typ)
		}
	}
}

// explainVersion encodes itself.
type explainVersion struct{}

func (explainVersion) MarshalJSON() ([]byte, error) { return []byte(`"v"`), nil }

// Every property a definition requires is one encoding/json writes for the
// zero value of its type, and it writes no other: required is exactly what
// cannot be left out.
func TestRequiredIsWhatTheZeroValueHas(t *testing.T) {
	for _, d := range documents {
		g := newGenerator(&generatedDocs, false)
		if _, err := g.schemaOf(d.root, false); err != nil {
			t.Fatal(err)
		}
		for name, typ := range g.types {
			if typ.Kind() != reflect.Struct {
				continue
			}
			if _, ok := selfEncoding[typ]; ok {
				continue
			}
			def := g.defs[name]
			b, err := json.Marshal(reflect.New(typ).Interface())
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			var keys []string
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			req := slices.Sorted(slices.Values(def.Required))
			if !slices.Equal(keys, req) {
				t.Errorf("%s: the zero value writes %q, the schema requires %q", name, keys, req)
			}
		}
	}
}

// Random documents of every kind (every field filled or left empty at
// random, nil pointers, slices and maps included) match their strict
// schema.
func TestRandomDocuments(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 30
	}
	f := randfill.NewWithSeed(20260101).NilChance(0.3).NumElements(0, 3).Funcs(fillers(t)...)
	for _, d := range documents {
		s := compileStrict(t, d.kind)
		for i := range n {
			v := reflect.New(d.root)
			f.Fill(v.Interface())
			if err := validate(t, s, v.Interface()); err != nil {
				b, _ := json.MarshalIndent(v.Interface(), "", "  ")
				t.Fatalf("%s, random document %d: %v\n%s", d.kind, i, err, b)
			}
		}
	}
}

// fillers fill what the documents' Go types do not say: the values of the
// self-encoding types and of the enumerated ones, the fixed apiVersion and
// kind, and the fields the producers never leave nil.
func fillers(t *testing.T) []any {
	t.Helper()
	out := []any{
		func(q *resource.Quantity, c randfill.Continue) {
			*q = *resource.NewMilliQuantity(c.Int63n(1e9)-1e6, resource.DecimalSI)
		},
		func(tm *metav1.Time, c randfill.Continue) {
			if c.Intn(4) == 0 {
				*tm = metav1.Time{}
				return
			}
			*tm = metav1.NewTime(time.Unix(c.Int63n(4e9), 0))
		},
		func(tm *time.Time, c randfill.Continue) {
			*tm = time.Unix(c.Int63n(4e9), c.Int63n(1e9)).UTC()
		},
		func(m *json.RawMessage, c randfill.Continue) {
			*m = json.RawMessage([]string{`{"op":"remove","path":"/spec/replicas"}`, `[1,"x",null]`, `"<placeholder>"`}[c.Intn(3)])
		},
	}
	continueType := reflect.TypeFor[randfill.Continue]()
	g := newGenerator(&generatedDocs, false)
	for _, d := range documents {
		if _, err := g.schemaOf(d.root, false); err != nil {
			t.Fatal(err)
		}
	}
	for name, typ := range g.types {
		values := generatedDocs.Enums[name]
		if typ.Kind() != reflect.String || len(values) == 0 {
			continue
		}
		fn := reflect.FuncOf([]reflect.Type{reflect.PointerTo(typ), continueType}, nil, false)
		out = append(out, reflect.MakeFunc(fn, func(args []reflect.Value) []reflect.Value {
			c := args[1].Interface().(randfill.Continue)
			args[0].Elem().SetString(values[c.Intn(len(values))])
			return nil
		}).Interface())
	}
	fixed := map[reflect.Type]bool{}
	for typ := range consts {
		fixed[typ] = true
	}
	for typ := range nonNull {
		fixed[typ] = true
	}
	for typ := range fixed {
		fields, err := jsonFields(typ)
		if err != nil {
			t.Fatal(err)
		}
		fn := reflect.FuncOf([]reflect.Type{reflect.PointerTo(typ), continueType}, nil, false)
		out = append(out, reflect.MakeFunc(fn, func(args []reflect.Value) []reflect.Value {
			c := args[1].Interface().(randfill.Continue)
			c.FillNoCustom(args[0].Interface())
			v := args[0].Elem()
			for _, f := range fields {
				fv := v.FieldByIndex(f.index)
				if value, ok := consts[typ][f.name]; ok {
					fv.SetString(value)
				}
				if nonNull[typ][f.name] && fv.IsNil() {
					switch fv.Kind() {
					case reflect.Slice:
						fv.Set(reflect.MakeSlice(fv.Type(), 0, 0))
					case reflect.Pointer:
						fv.Set(reflect.New(fv.Type().Elem()))
						c.Fill(fv.Interface())
					default:
						panic(fv.Kind())
					}
				}
			}
			return nil
		}).Interface())
	}
	return out
}

// The fixed values of the documents are this module's constants.
func TestIDs(t *testing.T) {
	group, version, _ := strings.Cut(explain.APIVersion, "/")
	if want := "https://" + group + "/schema/" + version + "/"; BaseURL != want {
		t.Errorf("BaseURL %s, want %s (from explain.APIVersion)", BaseURL, want)
	}
	for _, k := range Kinds() {
		b, err := JSON(k)
		if err != nil {
			t.Fatal(err)
		}
		var top struct {
			ID   string `json:"$id"`
			Type string `json:"type"`
		}
		if err := json.Unmarshal(b, &top); err != nil || top.ID != k.ID() || top.Type != "object" {
			t.Errorf("%s: $id %q, type %q (%v); want %s and object", k, top.ID, top.Type, err, k.ID())
		}
	}
	if _, err := ParseKind("explanations"); err == nil || !strings.Contains(err.Error(), "explanation, list, whatif, watch, keda, migrate, version") {
		t.Errorf("unknown kind: %v", err)
	}
}

func TestJSONNamed(t *testing.T) {
	names := map[string]string{"MetricIndex": "metricIndex", "Metric": "metric", "StateAfter": "stateAfter", "HPA": "hpa", "Events": "events", "Ratio": "ratio", "Base": "base"}
	for doc, want := range map[string]string{
		"MetricIndex and Metric name the winning metric.":             "metricIndex and metric name the winning metric.",
		"Ratio, Base are the operands, ceil(Ratio × Base).":           "ratio, base are the operands, ceil(Ratio × Base).",
		"StateBefore is where it started; StateAfter where it ended.": "StateBefore is where it started; stateAfter where it ended.",
		"Events are the Events of the HPA.":                           "events are the Events of the HPA.",
		"The Metric of the HPA.":                                      "The Metric of the HPA.",
	} {
		if got := jsonNamed(doc, names); got != want {
			t.Errorf("%q:\n got %q\nwant %q", doc, got, want)
		}
	}
}
