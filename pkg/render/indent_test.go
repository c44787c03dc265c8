// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"
)

// randomJSON is a random value of every JSON shape: nested objects and
// arrays (empty ones too), strings with quotes, backslashes, control
// characters, HTML characters and non-ASCII, numbers, booleans and null.
func randomJSON(r *rand.Rand, depth int) any {
	n := r.Intn(8)
	if depth > 4 {
		n = r.Intn(5)
	}
	switch n {
	case 0:
		return nil
	case 1:
		return r.Intn(2) == 0
	case 2:
		return r.NormFloat64() * 1e6
	case 3, 4:
		var b strings.Builder
		for range r.Intn(12) {
			b.WriteString([]string{"a", "\"", "\\", "\n", "\t", "<", ">", "&", "é", "\u2028", ":", ",", "{", "]", " ", "\x01", "\\\""}[r.Intn(17)])
		}
		return b.String()
	case 5, 6:
		m := map[string]any{}
		for range r.Intn(4) {
			k, _ := randomJSON(r, depth+1).(string)
			m[k] = randomJSON(r, depth+1)
		}
		return m
	default:
		a := []any{}
		for range r.Intn(4) {
			a = append(a, randomJSON(r, depth+1))
		}
		return a
	}
}

// TestIndentMatchesEncodingJSON: marshalIndent gives json.MarshalIndent's
// bytes for random values and for the explanations of the view fixtures,
// with the prefixes and indents the encoders use.
func TestIndentMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewSource(1126))
	values := []any{}
	for range 5000 {
		values = append(values, randomJSON(r, 0))
	}
	values = append(values, fixtureDecisions()...)
	shapes := map[string]int{}
	for i, v := range values {
		for _, p := range [][2]string{{"", "  "}, {"    ", "  "}, {">", "\t"}} {
			want, err := json.MarshalIndent(v, p[0], p[1])
			if err != nil {
				t.Fatal(err)
			}
			got, err := marshalIndent(v, p[0], p[1])
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("value %d, prefix %q indent %q:\ngot  %s\nwant %s", i, p[0], p[1], got, want)
			}
		}
		b, _ := json.Marshal(v)
		for _, s := range []string{`\"`, `\\`, "{}", "[]", `},`, `]]`} {
			if bytes.Contains(b, []byte(s)) {
				shapes[s]++
			}
		}
	}
	// The comparison is only as good as the shapes it saw.
	for s, n := range shapes {
		if n < 100 {
			t.Errorf("only %d values contain %s", n, s)
		}
	}
	if len(shapes) != 6 {
		t.Errorf("shapes seen: %v", shapes)
	}
}

// FuzzIndent: for any valid JSON, compacted as json.Marshal writes it,
// appendIndented gives json.Indent's bytes.
func FuzzIndent(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[{},[],{"b":"\"}"}]}`, `"x\\"`, `[1,-2.5e3,true,null]`, `{"":{"":[]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var compact bytes.Buffer
		if json.Compact(&compact, data) != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), "  ", "\t"); err != nil {
			t.Fatal(err)
		}
		if got := appendIndented(nil, compact.Bytes(), "  ", "\t"); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("input %q:\ngot  %q\nwant %q", compact.Bytes(), got, want.Bytes())
		}
	})
}

func fixtureDecisions() []any {
	return []any{scaleUpUnready(), scaleDownStabilized(), multiMetricMissing(), scaledToZero(), failedGetScale(), manyPods()}
}
