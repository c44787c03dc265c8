// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package schema

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// modulePath is this module: its types are named by package and type
// ("explain.Decision"), and only their string types get enumerations.
const modulePath = "github.com/kubectl-hpa/kubectl-hpa"

// draft is the JSON Schema dialect of every schema.
const draft = "https://json-schema.org/draft/2020-12/schema"

// generator builds one schema document: the root type's schema with the
// definitions ($defs) of every named struct (and self-encoding or
// enumerated type) it reaches, each once.
type generator struct {
	docs   *Docs
	strict bool
	defs   map[string]*node
	// types holds the type of each definition name (to catch two types
	// with one name); refs counts the references to each.
	types map[string]reflect.Type
	refs  map[string]int
	// nullable records the definitions that admit null themselves.
	nullable map[string]bool
	// named lists the named types met, in the order met (for Types).
	named []reflect.Type
	seen  map[reflect.Type]bool
}

func newGenerator(docs *Docs, strict bool) *generator {
	return &generator{
		docs: docs, strict: strict,
		defs: map[string]*node{}, types: map[string]reflect.Type{}, refs: map[string]int{},
		nullable: map[string]bool{}, seen: map[reflect.Type]bool{},
	}
}

// document returns the schema of d: the root type's definition at the top,
// with the other definitions under $defs.
func (g *generator) document(d document) (*node, error) {
	if _, err := g.schemaOf(d.root, false); err != nil {
		return nil, err
	}
	name, err := defName(d.root)
	if err != nil {
		return nil, err
	}
	top := *g.defs[name]
	if g.refs[name] == 1 { // only the root refers to it
		delete(g.defs, name)
	}
	top.Schema, top.ID, top.Title = draft, d.kind.ID(), d.title
	if top.Description != "" {
		top.Description = d.description + "\n\n" + top.Description
	} else {
		top.Description = d.description
	}
	names := make([]string, 0, len(g.defs))
	for n := range g.defs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		top.Defs = append(top.Defs, property{n, g.defs[n]})
	}
	return &top, nil
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// encodesItself reports whether encoding/json hands values of t to their
// own MarshalJSON or MarshalText.
func encodesItself(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		pt.Implements(jsonMarshaler) || pt.Implements(textMarshaler)
}

// schemaOf returns the schema of the values of t as encoding/json writes
// them. nilOK says whether a nil t (pointer, slice, map, interface) can
// reach the encoder, which writes it as null.
func (g *generator) schemaOf(t reflect.Type, nilOK bool) (*node, error) {
	if t.Kind() == reflect.Pointer {
		n, err := g.schemaOf(t.Elem(), false)
		if err != nil || !nilOK {
			return n, err
		}
		return g.orNull(n), nil
	}
	if s, ok := selfEncoding[t]; ok {
		return g.ref(t, s.name, func() (*node, error) { return s.schema(), nil })
	}
	if t.Name() != "" && !g.seen[t] && (t.Kind() == reflect.Struct || t.Kind() == reflect.String && strings.HasPrefix(t.PkgPath(), modulePath+"/")) {
		g.seen[t] = true
		g.named = append(g.named, t)
	}
	if encodesItself(t) {
		return nil, fmt.Errorf("type %s encodes itself (MarshalJSON or MarshalText): give it a schema in selfEncoding", t)
	}
	var n *node
	switch t.Kind() {
	case reflect.Bool:
		n = &node{Type: types("boolean")}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		n = &node{
			Type:    types("integer"),
			Minimum: json.Number(strconv.FormatInt(math.MinInt64>>(64-bits), 10)),
			Maximum: json.Number(strconv.FormatInt(math.MaxInt64>>(64-bits), 10)),
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n = &node{Type: types("integer"), Minimum: "0", Maximum: json.Number(strconv.FormatUint(math.MaxUint64>>(64-t.Bits()), 10))}
	case reflect.Float32, reflect.Float64:
		n = &node{Type: types("number")}
	case reflect.String:
		if values, ok := g.docs.Enums[typeKey(t)]; ok && strings.HasPrefix(t.PkgPath(), modulePath+"/") {
			name, err := defName(t)
			if err != nil {
				return nil, err
			}
			return g.ref(t, name, func() (*node, error) {
				n := &node{Type: types("string"), Description: g.docs.Types[name]}
				for _, v := range values {
					n.Enum = append(n.Enum, v)
				}
				return n, nil
			})
		}
		n = &node{Type: types("string")}
	case reflect.Interface:
		return &node{}, nil // any value, null included
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 && !encodesItself(t.Elem()) {
			n = &node{Type: types("string"), ContentEncoding: "base64"}
			break
		}
		items, err := g.schemaOf(t.Elem(), true)
		if err != nil {
			return nil, err
		}
		n = &node{Type: types("array"), Items: items}
		if t.Kind() == reflect.Array {
			n.MinItems, n.MaxItems = ptrTo(t.Len()), ptrTo(t.Len())
			return n, nil // an array is never nil
		}
	case reflect.Map:
		k := t.Key()
		switch {
		case k.Kind() == reflect.String, k.Implements(textMarshaler):
		case k.Kind() >= reflect.Int && k.Kind() <= reflect.Uintptr:
		default:
			return nil, fmt.Errorf("map %s: encoding/json cannot encode its keys", t)
		}
		values, err := g.schemaOf(t.Elem(), true)
		if err != nil {
			return nil, err
		}
		n = &node{Type: types("object"), AdditionalProperties: values}
	case reflect.Struct:
		name, err := defName(t)
		if err != nil {
			return nil, err
		}
		return g.ref(t, name, func() (*node, error) { return g.object(t, name) })
	default:
		return nil, fmt.Errorf("type %s (%s) has no JSON encoding", t, t.Kind())
	}
	if nilOK && (t.Kind() == reflect.Slice || t.Kind() == reflect.Map) {
		n.Type = append(n.Type, "null")
	}
	return n, nil
}

// ref returns a reference to the definition of t named name, building it
// with build the first time.
func (g *generator) ref(t reflect.Type, name string, build func() (*node, error)) (*node, error) {
	if other, ok := g.types[name]; ok && other != t {
		return nil, fmt.Errorf("types %s and %s would both be defined as %q", other, t, name)
	}
	g.refs[name]++
	if _, ok := g.types[name]; !ok {
		g.types[name] = t
		def, err := build()
		if err != nil {
			return nil, err
		}
		g.defs[name] = def
		g.nullable[name] = slices.Contains(def.Type, "null")
	}
	return &node{Ref: "#/$defs/" + name}, nil
}

// orNull makes n admit null.
func (g *generator) orNull(n *node) *node {
	switch {
	case n.Ref != "":
		if g.nullable[strings.TrimPrefix(n.Ref, "#/$defs/")] {
			return n
		}
		return &node{AnyOf: []*node{n, {Type: types("null")}}}
	case len(n.Type) > 0:
		if !slices.Contains(n.Type, "null") {
			n.Type = append(n.Type, "null")
		}
		if len(n.Enum) > 0 {
			n.Enum = append(n.Enum, nil)
		}
	}
	return n
}

// object is the definition of a struct: its encoded fields, each required
// unless encoding/json may leave it out.
func (g *generator) object(t reflect.Type, name string) (*node, error) {
	fields, err := jsonFields(t)
	if err != nil {
		return nil, err
	}
	obj := &node{Type: types("object"), Description: g.docs.Types[name], Properties: []property{}}
	if g.strict {
		obj.AdditionalProperties = false
	}
	goToJSON := map[string]string{}
	for _, f := range fields {
		goToJSON[f.goName] = f.name
	}
	for _, f := range fields {
		nilOK := !f.omitEmpty && !f.omitZero && !nonNull[t][f.name]
		s, err := g.schemaOf(f.typ, nilOK)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", t, f.goName, err)
		}
		if v, ok := consts[t][f.name]; ok {
			s = &node{Type: types("string"), Const: &v}
		}
		if owner, err := defName(f.owner); err == nil {
			if doc := g.docs.Fields[owner+"."+f.goName]; doc != "" {
				if strings.HasPrefix(f.owner.PkgPath(), modulePath+"/") {
					doc = jsonNamed(doc, goToJSON)
				}
				s = describe(s, doc)
			}
		}
		obj.Properties = append(obj.Properties, property{f.name, s})
		if !f.optional() {
			obj.Required = append(obj.Required, f.name)
		}
	}
	return obj, nil
}

// describe sets the description of s, beside a reference if s is one.
func describe(s *node, doc string) *node {
	if s.Ref != "" || s.AnyOf != nil {
		c := *s
		s = &c
	}
	s.Description = doc
	return s
}

// jsonNamed rewrites the Go field names a description of this module
// mentions to their JSON names: the names that start it ("MetricIndex and
// Metric name the winning metric" becomes "metricIndex and metric name
// ..."), and compound names anywhere ("; StateAfter is ..."), which cannot
// be a word of the prose. Kubernetes' comments already use the JSON names.
func jsonNamed(doc string, names map[string]string) string {
	var b strings.Builder
	word := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	leading := true
	for doc != "" {
		i := strings.IndexFunc(doc, word)
		if i < 0 {
			b.WriteString(doc)
			break
		}
		if sep := doc[:i]; sep != " " && sep != ", " && sep != "" {
			leading = false
		}
		b.WriteString(doc[:i])
		doc = doc[i:]
		j := strings.IndexFunc(doc, func(r rune) bool { return !word(r) })
		if j < 0 {
			j = len(doc)
		}
		w := doc[:j]
		n, isField := names[w]
		switch {
		case isField && (leading || camelCase(w)):
			w = n
		case w != "and":
			leading = false
		}
		b.WriteString(w)
		doc = doc[j:]
	}
	return b.String()
}

// camelCase reports whether w mixes cases past its first letter
// ("StateAfter"; not "Events" or "HPA").
func camelCase(w string) bool {
	return strings.IndexFunc(w[1:], unicode.IsUpper) >= 0 && strings.IndexFunc(w, unicode.IsLower) >= 0
}

// field is one property encoding/json writes for a struct.
type field struct {
	name, goName string
	typ          reflect.Type
	// owner is the struct that declares it (an embedded one for a
	// promoted field), index its path from the outer struct.
	owner               reflect.Type
	index               []int
	tagged              bool
	omitEmpty, omitZero bool
	// viaPointer: promoted through an embedded pointer, left out when the
	// pointer is nil.
	viaPointer bool
}

// optional reports whether encoding/json may leave the field out: with
// omitzero, or with omitempty for a type that has an empty value (a struct
// is never empty), or when an embedded pointer on its way is nil.
func (f field) optional() bool {
	if f.omitZero || f.viaPointer {
		return true
	}
	if !f.omitEmpty {
		return false
	}
	switch f.typ.Kind() {
	case reflect.Struct:
		return false
	case reflect.Array:
		return f.typ.Len() == 0
	default:
		return true
	}
}

// jsonFields returns the fields encoding/json writes for t, in its order:
// exported fields by their json names, the fields of embedded structs
// promoted, and of fields sharing a name the shallowest (or the only
// tagged one among the shallowest), none when that is ambiguous.
func jsonFields(t reflect.Type) ([]field, error) {
	var all []field
	var walk func(t reflect.Type, index []int, viaPointer bool, depth int) error
	walk = func(t reflect.Type, index []int, viaPointer bool, depth int) error {
		if depth > 10 {
			return fmt.Errorf("struct %s embeds too deeply", t)
		}
		for i := range t.NumField() {
			sf := t.Field(i)
			ft := sf.Type
			if sf.Anonymous {
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !sf.IsExported() && ft.Kind() != reflect.Struct {
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			f := field{name: name, goName: sf.Name, typ: sf.Type, owner: t, index: append(slices.Clone(index), i), tagged: name != "", viaPointer: viaPointer}
			for _, o := range strings.Split(opts, ",") {
				switch o {
				case "omitempty":
					f.omitEmpty = true
				case "omitzero":
					f.omitZero = true
				case "string":
					return fmt.Errorf("%s.%s: the json option \"string\" is not supported", t, sf.Name)
				}
			}
			if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct && !encodesItself(ft) {
				if err := walk(ft, f.index, viaPointer || sf.Type.Kind() == reflect.Pointer, depth+1); err != nil {
					return err
				}
				continue
			}
			if f.name == "" {
				f.name = sf.Name
			}
			all = append(all, f)
		}
		return nil
	}
	if err := walk(t, nil, false, 0); err != nil {
		return nil, err
	}
	var out []field
	for _, f := range all {
		winner, ok := dominant(all, f.name)
		if ok && slices.Equal(winner.index, f.index) {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b field) int { return slices.Compare(a.index, b.index) })
	return out, nil
}

// dominant picks, among the fields named name, the one encoding/json
// writes.
func dominant(all []field, name string) (field, bool) {
	var cands []field
	for _, f := range all {
		if f.name != name {
			continue
		}
		switch {
		case len(cands) == 0 || len(f.index) < len(cands[0].index):
			cands = []field{f}
		case len(f.index) == len(cands[0].index):
			cands = append(cands, f)
		}
	}
	if len(cands) == 1 {
		return cands[0], true
	}
	var tagged []field
	for _, f := range cands {
		if f.tagged {
			tagged = append(tagged, f)
		}
	}
	if len(tagged) == 1 {
		return tagged[0], true
	}
	return field{}, false
}

// defName names the definition of a named type: "explain.Decision" for
// this module's, Kubernetes' OpenAPI names for the rest
// ("io.k8s.api.autoscaling.v2.MetricStatus").
func defName(t reflect.Type) (string, error) {
	if s, ok := selfEncoding[t]; ok {
		return s.name, nil
	}
	if t.Name() == "" || strings.ContainsAny(t.Name(), "[]") {
		return "", fmt.Errorf("type %s has no name to define it by", t)
	}
	return typeKey(t), nil
}

// DefName is the name of a type's definition, and its key in Docs:
// "explain.Decision" for this module's types, Kubernetes' OpenAPI names for
// the rest ("io.k8s.api.autoscaling.v2.MetricStatus").
func DefName(t reflect.Type) string { return typeKey(t) }

// typeKey is defName without the table of self-encoding types.
func typeKey(t reflect.Type) string {
	p := t.PkgPath()
	if rest, ok := strings.CutPrefix(p, modulePath+"/"); ok {
		return path.Base(rest) + "." + t.Name()
	}
	host, rest, _ := strings.Cut(p, "/")
	parts := strings.Split(host, ".")
	slices.Reverse(parts)
	if rest != "" {
		parts = append(parts, strings.Split(rest, "/")...)
	}
	return strings.Join(append(parts, t.Name()), ".")
}

func ptrTo[T any](v T) *T { return &v }
