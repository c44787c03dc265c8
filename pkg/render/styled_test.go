// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// manyPods is scaleUpUnready with 30 ready pods listed before 3 that are
// not ready, more than PodsAuto lists.
func manyPods() *explain.Decision {
	d := scaleUpUnready()
	p := d.Metrics[0].Pods
	p.Entries = podRows(30, 520, 500)
	for i, name := range []string{"web-5f8d7c9b6-x1", "web-5f8d7c9b6-x2", "web-5f8d7c9b6-x3"} {
		e := explain.PodEntry{Name: name, Class: explain.PodUnready, Reason: "phase is Pending", RequestMilli: i64(500), FillInMilli: i64(0)}
		if i == 2 {
			e.Class, e.Reason = explain.PodMissing, "no metric sample for this pod"
		}
		p.Entries = append(p.Entries, e)
	}
	p.Listed, p.Ready, p.Unready, p.Missing = 33, 30, 2, 1
	return d
}

// styled256 are the options of the styled goldens.
var styled256 = Options{Color: true, Width: 100, Palette: Palette256, ListPods: listPods}

// listPods is the hint of the goldens: the command line's.
const listPods = "--pods"

func TestStyled(t *testing.T) {
	all := map[string]func() *explain.Decision{"many-pods": manyPods}
	for name, mk := range cases {
		all[name] = mk
	}
	for name, mk := range all {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, FormatText, mk(), styled256); err != nil {
				t.Fatal(err)
			}
			testutil.AssertGolden(t, buf.Bytes(), *update)
		})
	}
}

// TestPods covers --pods and --no-pods in both text views.
func TestPods(t *testing.T) {
	for _, mode := range []PodsMode{PodsAuto, PodsAll, PodsNone} {
		for view, opts := range map[string]Options{"plain": {ListPods: listPods}, "styled": styled256} {
			t.Run(view+"-"+string(mode), func(t *testing.T) {
				opts.Pods = mode
				var buf bytes.Buffer
				if err := Write(&buf, FormatText, manyPods(), opts); err != nil {
					t.Fatal(err)
				}
				testutil.AssertGolden(t, buf.Bytes(), *update)
			})
		}
	}
}

func TestVisiblePods(t *testing.T) {
	entries := manyPods().Metrics[0].Pods.Entries
	shown, hidden := visiblePods(entries, PodsAuto)
	if len(shown) != MaxPodRows || len(hidden) != len(entries)-MaxPodRows {
		t.Fatalf("auto: %d shown, %d hidden", len(shown), len(hidden))
	}
	if got := shown[len(shown)-1].Name; got != "web-5f8d7c9b6-x3" {
		t.Errorf("the pods that are not ready must be kept, in order; last shown = %s", got)
	}
	if got := hiddenPodsLine(hidden, listPods); got != "… and 13 more (13 ready); use --pods to list all" {
		t.Errorf("hidden line = %q", got)
	}
	if got := hiddenPodsLine(hidden, ""); got != "… and 13 more (13 ready)" {
		t.Errorf("hidden line without a way to list them = %q", got)
	}
	if s, h := visiblePods(entries, PodsAll); len(s) != len(entries) || h != nil {
		t.Errorf("all: %d shown, %d hidden", len(s), len(h))
	}
	if s, h := visiblePods(entries, PodsNone); s != nil || len(h) != len(entries) {
		t.Errorf("none: %d shown, %d hidden", len(s), len(h))
	}
	if s, h := visiblePods(entries[:5], ""); len(s) != 5 || h != nil {
		t.Errorf("the zero mode is auto: %d shown, %d hidden", len(s), len(h))
	}
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// The styled view fits its width, has no trailing spaces and only emits
// SGR sequences in the palette it was given.
func TestStyled_layout(t *testing.T) {
	all := map[string]func() *explain.Decision{"many-pods": manyPods}
	for name, mk := range cases {
		all[name] = mk
	}
	for name, mk := range all {
		for _, width := range []int{60, 80, 100, 140} {
			out := string(Styled(&bytes.Buffer{}, mk(), Options{Color: true, Width: width}))
			for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if w := lipgloss.Width(l); w > width {
					t.Errorf("%s at width %d: line %d is %d wide: %q", name, width, i+1, w, sgr.ReplaceAllString(l, ""))
				}
				if strings.HasSuffix(sgr.ReplaceAllString(l, ""), " ") {
					t.Errorf("%s at width %d: line %d has trailing spaces", name, width, i+1)
				}
			}
			if rest := sgr.ReplaceAllString(out, ""); strings.Contains(rest, "\x1b") {
				t.Errorf("%s: escape sequence other than SGR", name)
			}
		}
		out16 := Styled(&bytes.Buffer{}, mk(), Options{Color: true, Palette: Palette16})
		if bytes.Contains(out16, []byte("38;5;")) || bytes.Contains(out16, []byte("48;5;")) {
			t.Errorf("%s: 256-color sequence with Palette16", name)
		}
		if !bytes.Contains(out16, []byte("\x1b[")) {
			t.Errorf("%s: no color with Palette16", name)
		}
	}
}

// Text from the cluster cannot inject escape sequences into the styled view.
func TestStyled_cleansControlCharacters(t *testing.T) {
	d := scaleUpUnready()
	d.Metrics[0].Pods.Entries[0].Name = "evil\x1b]0;pwned\x07pod"
	d.Conditions = []explain.Condition{{Type: "AbleToScale", Status: "True", Reason: "X", Message: "line\nbreak\x1b[2J"}}
	out := sgr.ReplaceAllString(string(Styled(&bytes.Buffer{}, d, styled256)), "")
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("control characters reach the terminal:\n%q", out)
	}
}

// The verdict line says current → desired and why, in the color of the
// outcome.
func TestStyled_verdict(t *testing.T) {
	for _, tc := range []struct {
		name  string
		d     *explain.Decision
		badge string
		color string
		why   string
	}{
		{"rescale", scaleUpUnready(), " SCALE UP ", "42", "cpu wants 7"},
		{"held", scaleDownStabilized(), " HELD ", "214", "held by scale-down stabilization until 00:03:00Z (in 3m0s)"},
		{"metric failed", multiMetricMissing(), " SCALE UP ", "203", "http_requests_per_second wants 18 (largest of 3); 1 of 3 failed"},
		{"failed", failedGetScale(), " FAILED ", "203", "the scale of the target could not be read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := string(Styled(&bytes.Buffer{}, tc.d, styled256))
			first := strings.SplitN(out, "\n", 2)[0]
			plain := sgr.ReplaceAllString(first, "")
			want := fmt.Sprintf("%d → %d", tc.d.CurrentReplicas, tc.d.DesiredReplicas)
			if !strings.HasPrefix(plain, tc.badge) || !strings.Contains(plain, want) || !strings.Contains(plain, tc.why) {
				t.Errorf("verdict = %q, want %q, %q and %q", plain, tc.badge, want, tc.why)
			}
			if !strings.Contains(first, "48;5;"+tc.color+"m") {
				t.Errorf("verdict badge is not in color %s: %q", tc.color, testutil.EscapeANSI(first))
			}
		})
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		in          string
		first, rest int
		want        []string
	}{
		{"a bb ccc dddd", 6, 6, []string{"a bb", "ccc", "dddd"}},
		{"abcdefghij", 4, 4, []string{"abcd", "efgh", "ij"}},
		{"one two three", 3, 20, []string{"one", "two three"}},
		{"", 10, 10, nil},
	} {
		got := wrapFirst(tc.in, tc.first, tc.rest)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("wrapFirst(%q, %d, %d) = %q, want %q", tc.in, tc.first, tc.rest, got, tc.want)
		}
	}
	if got := truncate("abcdef", 4); got != "abc…" {
		t.Errorf("truncate = %q", got)
	}
	a, b := elideCommon(`{"a":{"x":"121m","y":24}}`, `{"a":{"x":"119m","y":23}}`, 20)
	if a != `…"x":"121m","y":24}}` || b != `…"x":"119m","y":23}}` {
		t.Errorf("elideCommon = %q, %q", a, b)
	}
}
