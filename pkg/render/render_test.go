// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

var cases = map[string]func() *explain.Decision{
	"scale-up-unready":      scaleUpUnready,
	"scale-down-stabilized": scaleDownStabilized,
	"multi-metric-missing":  multiMetricMissing,
	"scaled-to-zero":        scaledToZero,
	"failed-get-scale":      failedGetScale,
	"stale-status":          staleStatus,
	"empty":                 func() *explain.Decision { return &explain.Decision{} },
}

func TestWrite(t *testing.T) {
	for name, mk := range cases {
		for _, f := range []Format{FormatText, FormatJSON, FormatYAML} {
			t.Run(name+"/"+string(f), func(t *testing.T) {
				var buf bytes.Buffer
				if err := Write(&buf, f, mk(), Options{Width: 80}); err != nil {
					t.Fatal(err)
				}
				testutil.AssertGolden(t, buf.Bytes(), *update)
			})
		}
	}
}

func TestText_isPlainAndStable(t *testing.T) {
	for name, mk := range cases {
		a := Text(mk(), Options{Width: 40})
		b := Text(mk(), Options{Width: 200, Color: true})
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the plain view depends on the options", name)
		}
		if bytes.Contains(a, []byte("\x1b[")) {
			t.Errorf("%s: ANSI escape in the plain view", name)
		}
		for i, l := range strings.Split(string(a), "\n") {
			if strings.HasSuffix(l, " ") {
				t.Errorf("%s: line %d has trailing spaces: %q", name, i+1, l)
			}
		}
	}
}

func TestEncode_roundTrip(t *testing.T) {
	d := multiMetricMissing()
	js, err := Marshal(FormatJSON, d)
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON map[string]any
	if err := json.Unmarshal(js, &fromJSON); err != nil {
		t.Fatal(err)
	}
	ys, err := Marshal(FormatYAML, d)
	if err != nil {
		t.Fatal(err)
	}
	var fromYAML map[string]any
	if err := yaml.Unmarshal(ys, &fromYAML); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"apiVersion", "kind", "currentReplicas", "desiredReplicas", "metrics", "conditions", "events", "currentMetrics"} {
		if _, ok := fromJSON[k]; !ok {
			t.Errorf("JSON lacks top-level field %q", k)
		}
		if _, ok := fromYAML[k]; !ok {
			t.Errorf("YAML lacks top-level field %q", k)
		}
	}
	m := fromJSON["metrics"].([]any)[2].(map[string]any)
	for _, k := range []string{"proposedReplicas", "utilization", "value", "error"} {
		if _, ok := m[k]; !ok {
			t.Errorf("an invalid metric must carry %q (as null when unset)", k)
		}
	}
	if m["proposedReplicas"] != nil {
		t.Errorf("invalid metric proposedReplicas = %v, want null", m["proposedReplicas"])
	}
	if !strings.HasPrefix(string(js), "{\n  \"apiVersion\"") || !strings.HasSuffix(string(js), "}\n") {
		t.Errorf("JSON is not indented by 2 with a final newline:\n%.60s", js)
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"": FormatText, "text": FormatText, "JSON": FormatJSON, "yaml": FormatYAML} {
		got, err := ParseFormat(in)
		if err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseFormat("wide"); err == nil || err.Error() != `unknown output format "wide" (want one of: text, json, yaml)` {
		t.Errorf("ParseFormat(wide) error = %v", err)
	}
	if err := Write(&bytes.Buffer{}, FormatText, nil, Options{}); err == nil {
		t.Error("Write(nil) succeeded")
	}
}

func TestToleranceWords(t *testing.T) {
	for _, tc := range []struct {
		lower, ratio, upper float64
		within              bool
		want                string
	}{
		{0.9, 1.43, 1.1, false, "0.90 ≤ 1.43 ≤ 1.10? no"},
		{0.9, 1.1, 1.1, true, "0.90 ≤ 1.10 ≤ 1.10? yes"},
		{0.9, 1.1000000000000003, 1.1, false, "0.9 ≤ 1.1000000000000003 ≤ 1.1? no"},
		{0.9, 0.8999, 1.1, false, "0.9 ≤ 0.8999 ≤ 1.1? no"},
	} {
		if got := toleranceWords(tc.lower, tc.ratio, tc.upper, tc.within); got != tc.want {
			t.Errorf("toleranceWords(%v, %v, %v) = %q, want %q", tc.lower, tc.ratio, tc.upper, got, tc.want)
		}
	}
}

// The absolute test of v1.32 and older is printed as the controller makes
// it, with the deviation in full where two decimals would hide the answer.
func TestCheckWordsAbsolute(t *testing.T) {
	abs := func(tol float64) *explain.ToleranceCheck {
		return &explain.ToleranceCheck{ScaleDown: tol, ScaleUp: tol, Lower: 1 - tol, Upper: 1 + tol, Test: explain.ToleranceAbsolute}
	}
	for _, tc := range []struct {
		check  *explain.ToleranceCheck
		ratio  explain.Ratio
		within bool
		want   string
	}{
		{abs(0.1), explain.Ratio(math.Inf(1)), false, noRatioTest},
		{&explain.ToleranceCheck{Lower: 0.9, Upper: 1.1, Test: explain.ToleranceInterval}, explain.Ratio(math.NaN()), false, noRatioTest},
		{abs(0.1), 1.1, false, "|1 − 1.1| = 0.10000000000000009 ≤ 0.1? no"},
		{abs(0.1), 1.08, true, "|1 − 1.08| = 0.08 ≤ 0.1? yes"},
		{abs(0.1), 0.5, false, "|1 − 0.50| = 0.50 ≤ 0.1? no"},
		{abs(0.05), 0.96, true, "|1 − 0.96| = 0.04 ≤ 0.05? yes"},
		{&explain.ToleranceCheck{Lower: 0.9, Upper: 1.1, Test: explain.ToleranceInterval}, 1.1, true, "0.90 ≤ 1.10 ≤ 1.10? yes"},
	} {
		if got := checkWords(tc.check, tc.ratio, tc.within); got != tc.want {
			t.Errorf("checkWords(%+v, %v) = %q, want %q", tc.check, tc.ratio, got, tc.want)
		}
	}
}
