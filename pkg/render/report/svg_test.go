// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package report

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestLinear(t *testing.T) {
	s := linear{d0: 0, d1: 10, r0: 100, r1: 0}
	for _, c := range []struct{ v, want float64 }{{0, 100}, {10, 0}, {5, 50}, {2.5, 75}, {-1, 110}} {
		if got := s.at(c.v); got != c.want {
			t.Errorf("at(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	if got := (linear{3, 3, 0, 10}).at(3); got != 5 {
		t.Errorf("an empty domain maps to %v, want the middle 5", got)
	}
}

func TestNiceDomain(t *testing.T) {
	for _, c := range []struct {
		lo, hi, minStep float64
		n               int
		wantLo, wantHi  float64
		ticks           []float64
	}{
		{0, 97, 0, 5, 0, 100, []float64{0, 20, 40, 60, 80, 100}},
		{0, 10.5, 1, 5, 0, 15, []float64{0, 5, 10, 15}},
		// a count never gets fractional ticks
		{0, 2, 1, 5, 0, 2, []float64{0, 1, 2}},
		{13.2, 21.9, 0, 8, 12, 22, []float64{12, 14, 16, 18, 20, 22}},
		{13.2, 21.9, 0, 10, 13, 22, []float64{13, 14, 15, 16, 17, 18, 19, 20, 21, 22}},
		{0, 0.063, 0, 5, 0, 0.08, []float64{0, 0.02, 0.04, 0.06, 0.08}},
		// nothing to show still gets an axis
		{0, 0, 0, 5, 0, 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{-3, -1, 0, 4, -3, -1, []float64{-3, -2.5, -2, -1.5, -1}},
	} {
		lo, hi, ticks := niceDomain(c.lo, c.hi, c.n, c.minStep)
		if math.Abs(lo-c.wantLo) > 1e-9 || math.Abs(hi-c.wantHi) > 1e-9 || len(ticks) != len(c.ticks) {
			t.Errorf("niceDomain(%v, %v, %d, %v) = %v, %v, %v; want %v, %v, %v", c.lo, c.hi, c.n, c.minStep, lo, hi, ticks, c.wantLo, c.wantHi, c.ticks)
			continue
		}
		for i := range ticks {
			if math.Abs(ticks[i]-c.ticks[i]) > 1e-9 {
				t.Errorf("niceDomain(%v, %v): tick %d is %v, want %v", c.lo, c.hi, i, ticks[i], c.ticks[i])
			}
		}
	}
}

// Every domain, however odd, gets a few ticks that cover it, on whole
// steps of 1, 2 or 5 times a power of ten.
func TestNiceDomainCovers(t *testing.T) {
	for _, lo := range []float64{-7.3, 0, 0.001, 3, 1234.5} {
		for _, span := range []float64{1e-4, 0.37, 1, 9.99, 250, 3e7} {
			hi := lo + span
			dlo, dhi, ticks := niceDomain(lo, hi, 5, 0)
			// within rounding: a millionth of the span
			if eps := span * 1e-6; dlo > lo+eps || dhi < hi-eps {
				t.Errorf("[%v, %v] widened to [%v, %v], which does not cover it", lo, hi, dlo, dhi)
			}
			if len(ticks) < 3 || len(ticks) > 12 {
				t.Errorf("[%v, %v]: %d ticks", lo, hi, len(ticks))
			}
			step := ticks[1] - ticks[0]
			m := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9))
			if !slices.ContainsFunc([]float64{1, 2, 5}, func(w float64) bool { return math.Abs(m-w) < 1e-6 }) {
				t.Errorf("[%v, %v]: step %v is not 1, 2 or 5 times a power of ten", lo, hi, step)
			}
		}
	}
}

func TestTickLabel(t *testing.T) {
	for _, c := range []struct {
		v, step float64
		want    string
	}{
		{0, 20, "0"},
		{40, 20, "40"},
		{0.5, 0.5, "0.5"},
		{0.05, 0.01, "0.05"},
		{2.5, 0.5, "2.5"},
		{12000, 2000, "12k"},
		{1.5e6, 5e5, "1.5M"},
		{2e9, 1e9, "2G"},
		{math.Copysign(0, -1), 1, "0"},
		{-2, 1, "-2"},
	} {
		if got := tickLabel(c.v, c.step); got != c.want {
			t.Errorf("tickLabel(%v, %v) = %q, want %q", c.v, c.step, got, c.want)
		}
	}
}

func TestTimeTicks(t *testing.T) {
	start := time.Date(2026, 3, 2, 10, 7, 0, 0, time.UTC)
	for _, c := range []struct {
		span time.Duration
		want []string
	}{
		{6 * time.Hour, []string{"Mar 2 11:00", "12:00", "13:00", "14:00", "15:00", "16:00"}},
		{30 * time.Minute, []string{"Mar 2 10:10", "10:15", "10:20", "10:25", "10:30", "10:35"}},
		// days on midnight, each labelled with its date
		{7 * 24 * time.Hour, []string{"Mar 3", "Mar 4", "Mar 5", "Mar 6", "Mar 7", "Mar 8", "Mar 9"}},
		// the date where it changes
		{26 * time.Hour, []string{"Mar 2 12:00", "18:00", "Mar 3 00:00", "06:00", "12:00"}},
		{90 * time.Second, []string{"Mar 2 10:07:00", "10:07:15", "10:07:30", "10:07:45", "10:08:00", "10:08:15", "10:08:30"}},
	} {
		var got []string
		for _, tk := range timeTicks(start, start.Add(c.span), 8) {
			if tk.at.Before(start) || tk.at.After(start.Add(c.span)) {
				t.Errorf("%s: tick %s outside the period", c.span, tk.at)
			}
			got = append(got, tk.label)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: ticks %q, want %q", c.span, got, c.want)
		}
	}
	// In another zone the labels are still UTC.
	loc := time.FixedZone("UTC+5", 5*3600)
	if got := timeTicks(start.In(loc), start.Add(6*time.Hour).In(loc), 8)[0].label; got != "Mar 2 11:00" {
		t.Errorf("first tick in UTC+5: %q, want the UTC Mar 2 11:00", got)
	}
}

// decimate keeps, per pixel column, the extremes in their order: the
// drawn line covers what the whole one covers.
func TestDecimate(t *testing.T) {
	var pts []xy
	for i := range 4000 {
		pts = append(pts, xy{float64(i) / 10, math.Sin(float64(i) / 7)})
	}
	out := decimate(pts)
	if len(out) > 4*400 {
		t.Errorf("%d points left of 4000 over 400 columns", len(out))
	}
	for col := range 400 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range pts[col*10 : col*10+10] {
			lo, hi = math.Min(lo, p.y), math.Max(hi, p.y)
		}
		klo, khi := math.Inf(1), math.Inf(-1)
		for _, p := range out {
			if math.Floor(p.x) == float64(col) {
				klo, khi = math.Min(klo, p.y), math.Max(khi, p.y)
			}
		}
		if klo != lo || khi != hi {
			t.Fatalf("column %d: kept [%v, %v], had [%v, %v]", col, klo, khi, lo, hi)
		}
	}
	if out[0] != pts[0] || out[len(out)-1] != pts[len(pts)-1] {
		t.Error("the first or the last point was dropped")
	}
	if !slices.IsSortedFunc(out, func(a, b xy) int { return int(math.Copysign(1, a.x-b.x)) }) {
		t.Error("the points are out of order")
	}
	few := []xy{{0, 1}, {0.5, 2}, {3, 1}}
	if got := decimate(few); !slices.Equal(got, few) {
		t.Errorf("three points became %v", got)
	}
}

func TestStepPath(t *testing.T) {
	start := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	c := &timeChart{start: start, end: start.Add(100 * time.Second)}
	xs := linear{0, float64(100 * time.Second), 0, 100}
	xAt := func(t time.Time) float64 { return xs.at(float64(t.Sub(start))) }
	ys := linear{0, 10, 10, 0}
	s := series{kind: step, points: []tpoint{
		{start.Add(-30 * time.Second), 2}, // before the period: holds into it
		{start.Add(40 * time.Second), 5},
		{start.Add(200 * time.Second), 9}, // after it: not drawn
	}}
	if got, want := c.path(s, xAt, ys, 100), "M0,8 H40 V5 H100"; got != want {
		t.Errorf("step path %q, want %q", got, want)
	}
	gap := series{kind: line, points: []tpoint{{start, 1}, {start.Add(10 * time.Second), math.NaN()}, {start.Add(20 * time.Second), 3}, {start.Add(30 * time.Second), 4}}}
	if got, want := c.path(gap, xAt, ys, 100), "M0,9 M20,7 L30,6"; got != want {
		t.Errorf("line with a gap %q, want %q", got, want)
	}
}

func TestEsc(t *testing.T) {
	if got, want := esc(`a<b>&"c'`), "a&lt;b&gt;&amp;&#34;c&#39;"; got != want {
		t.Errorf("esc = %q, want %q", got, want)
	}
}
