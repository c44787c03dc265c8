// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// The live frames of explain --watch at a fixed terminal size, 100 × 40:
// one HPA held by its scale-down window (with the countdown 1m into the
// hold), the same without color, and the many-HPA table.
func TestWatchFrame(t *testing.T) {
	held := scaleDownStabilized()
	now := held.Now.Add(time.Minute)
	for _, c := range []struct {
		name string
		ds   []*explain.Decision
		many bool
		opts Options
	}{
		{"held-styled", []*explain.Decision{held}, false, Options{Color: true, Width: 100, Palette: Palette256}},
		{"held-plain", []*explain.Decision{held}, false, Options{Width: 100}},
		{"many-plain", []*explain.Decision{held, scaleUpUnready(), multiMetricMissing()}, true, Options{Width: 100}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var w bytes.Buffer
			got := WatchFrame(&w, c.ds, now, c.many, c.opts, 40)
			for i, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
				if ansi.StringWidth(l) > 100 {
					t.Errorf("line %d is wider than the terminal: %q", i+1, l)
				}
				if i >= 40 {
					t.Errorf("the frame is taller than the terminal (line %d)", i+1)
				}
			}
			if !c.opts.Color && strings.Contains(got, "\x1b[") {
				t.Error("the plain frame has escapes")
			}
			testutil.AssertGolden(t, []byte(got), *update)
		})
	}
	// A short terminal: the frame is cut, with a line saying so.
	got := WatchFrame(&bytes.Buffer{}, []*explain.Decision{held}, now, false, Options{Width: 100}, 6)
	if lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n"); len(lines) != 6 || !strings.Contains(lines[5], "more lines") {
		t.Errorf("frame in 6 lines:\n%s", got)
	}
}

// Piped, a watch prints one line per HPA whose row changed.
func TestWatchLines(t *testing.T) {
	var b bytes.Buffer
	l := NewWatchLines(&b, false)
	d := scaleDownStabilized()
	at := d.Now
	for range 3 {
		if err := l.Update(at, []*explain.Decision{d}); err != nil {
			t.Fatal(err)
		}
		at = at.Add(15 * time.Second)
	}
	changed := scaleDownStabilized()
	changed.DesiredReplicas, changed.Rescale = 3, true
	if err := l.Update(at, []*explain.Decision{changed}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "TIME") || !strings.Contains(lines[2], "8 → 3") {
		t.Errorf("lines:\n%s", b.String())
	}
}

// With -o json, a watch prints one Explanation document per replay.
func TestWatchEncoder(t *testing.T) {
	var b bytes.Buffer
	e := NewWatchEncoder(&b, FormatJSON)
	if err := e.Update([]*explain.Decision{scaleDownStabilized(), scaleUpUnready()}); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&b)
	n := 0
	for dec.More() {
		var d explain.Decision
		if err := dec.Decode(&d); err != nil {
			t.Fatal(err)
		}
		if d.Kind != explain.KindExplanation {
			t.Errorf("document %d: kind %q", n, d.Kind)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d documents", n)
	}
}
