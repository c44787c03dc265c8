// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package report

// The charts are our own small SVG writer rather than a plotting library.
// gonum.org/v1/plot (vg/vgsvg) was tried: it adds eight modules (fonts,
// LaTeX, PDF, freetype, x/image, x/text) and about 9 MB of embedded fonts
// to the binary (a one-line plot built to 11 MB), draws in a flipped
// coordinate system with every glyph placed by its own font metrics, and
// gives no hook for the <title>/<desc> and classes a reader's screen
// reader and the browser test look for. What the report needs (linear and
// time scales with nice ticks, lines, steps, points, a legend) is a few
// hundred lines.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// linear maps a data interval onto a pixel interval.
type linear struct {
	d0, d1 float64 // domain
	r0, r1 float64 // range, in pixels
}

// at returns the pixel of v.
func (s linear) at(v float64) float64 {
	if s.d1 == s.d0 {
		return (s.r0 + s.r1) / 2
	}
	return s.r0 + (v-s.d0)/(s.d1-s.d0)*(s.r1-s.r0)
}

// niceStep is the step of about n ticks over span: 1, 2 or 5 times a power
// of ten.
func niceStep(span float64, n int) float64 {
	if span <= 0 || n < 1 || math.IsNaN(span) || math.IsInf(span, 0) {
		return 1
	}
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// niceDomain widens [lo, hi] to whole steps of about n ticks, each at
// least minStep (1 for counts), and returns it with the ticks; an empty
// interval gets some room around it.
func niceDomain(lo, hi float64, n int, minStep float64) (float64, float64, []float64) {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		lo, hi = 0, 1
	}
	if hi < lo {
		lo, hi = hi, lo
	}
	if hi == lo {
		if lo == 0 {
			hi = 1
		} else {
			d := math.Abs(lo) / 10
			lo, hi = lo-d, hi+d
		}
	}
	step := max(niceStep(hi-lo, n), minStep)
	lo = math.Floor(lo/step+1e-9) * step
	hi = math.Ceil(hi/step-1e-9) * step
	var ticks []float64
	for i := 0; ; i++ {
		v := lo + float64(i)*step
		if v > hi+step*1e-9 {
			break
		}
		ticks = append(ticks, cleanZero(v))
	}
	return lo, hi, ticks
}

// cleanZero turns -0 into 0, which would print as "-0".
func cleanZero(v float64) float64 {
	if v == 0 {
		return 0
	}
	return v
}

// decimals is how many decimals the labels of ticks step need.
func decimals(step float64) int {
	if step <= 0 || step >= 1 {
		return 0
	}
	return min(int(math.Ceil(-math.Log10(step)-1e-9)), 6)
}

// tickLabel words a tick of a scale whose ticks are step apart: large
// values with an SI suffix (12k, 1.5M, 2G).
func tickLabel(v, step float64) string {
	a := math.Abs(v)
	for _, u := range []struct {
		from, unit float64
		s          string
	}{{1e9, 1e9, "G"}, {1e6, 1e6, "M"}, {1e4, 1e3, "k"}} {
		if a >= u.from {
			return strconv.FormatFloat(cleanZero(v/u.unit), 'f', decimals(step/u.unit), 64) + u.s
		}
	}
	return strconv.FormatFloat(cleanZero(v), 'f', decimals(step), 64)
}

// timeSteps are the spacings of a time axis, shortest first.
var timeSteps = []time.Duration{
	time.Second, 5 * time.Second, 15 * time.Second, 30 * time.Second,
	time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour,
	24 * time.Hour, 2 * 24 * time.Hour, 7 * 24 * time.Hour, 14 * 24 * time.Hour, 28 * 24 * time.Hour,
}

// timeTick is one tick of a time axis.
type timeTick struct {
	at    time.Time
	label string
}

// timeTicks returns the ticks of [start, end] in UTC, at most about n of
// them, each on a whole multiple of its spacing (midnight for days). A
// tick is labelled with its time of day, and with its date where the day
// changes (the first tick, and every tick of a spacing of a day or more).
func timeTicks(start, end time.Time, n int) []timeTick {
	start, end = start.UTC(), end.UTC()
	span := end.Sub(start)
	if span <= 0 || n < 1 {
		return []timeTick{{at: start, label: start.Format("Jan 2 15:04")}}
	}
	step := timeSteps[len(timeSteps)-1]
	for _, s := range timeSteps {
		if float64(span)/float64(s) <= float64(n) {
			step = s
			break
		}
	}
	day := 24 * time.Hour
	first := start.Truncate(step)
	if step >= day {
		first = time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)
	}
	if first.Before(start) {
		first = first.Add(step)
	}
	var out []timeTick
	lastDay := ""
	for t := first; !t.After(end); t = t.Add(step) {
		d := t.Format("Jan 2")
		var label string
		switch {
		case step >= day:
			label = d
		case d != lastDay:
			label = d + " " + t.Format(clockFormat(step))
		default:
			label = t.Format(clockFormat(step))
		}
		lastDay = d
		out = append(out, timeTick{at: t, label: label})
	}
	return out
}

func clockFormat(step time.Duration) string {
	if step < time.Minute {
		return "15:04:05"
	}
	return "15:04"
}

// pathBuilder writes an SVG path's d attribute with coordinates rounded
// to a tenth of a pixel, so that the output does not depend on the last
// bits of a float.
type pathBuilder struct {
	b     strings.Builder
	empty bool
}

func newPath() *pathBuilder { return &pathBuilder{empty: true} }

func (p *pathBuilder) cmd(c byte, vs ...float64) {
	if !p.empty {
		p.b.WriteByte(' ')
	}
	p.empty = false
	p.b.WriteByte(c)
	for i, v := range vs {
		if i > 0 {
			p.b.WriteByte(',')
		}
		p.b.WriteString(px(v))
	}
}

func (p *pathBuilder) String() string { return p.b.String() }

// px words a pixel coordinate.
func px(v float64) string {
	return strconv.FormatFloat(cleanZero(math.Round(v*10)/10), 'f', -1, 64)
}

// xy is a point in pixels.
type xy struct{ x, y float64 }

// decimate keeps, of each run of points that fall in the same pixel
// column, the first, the lowest, the highest and the last, in their
// order: the line drawn through them covers the same pixels as the line
// through all of them, and a week of 15 s syncs (40,320 points) stays a
// few thousand.
func decimate(pts []xy) []xy {
	if len(pts) <= 4 {
		return pts
	}
	out := make([]xy, 0, 4*int(math.Min(float64(len(pts)), 2048)))
	for i := 0; i < len(pts); {
		col := math.Floor(pts[i].x)
		j := i
		lo, hi := i, i
		for j < len(pts) && math.Floor(pts[j].x) == col {
			if pts[j].y < pts[lo].y {
				lo = j
			}
			if pts[j].y > pts[hi].y {
				hi = j
			}
			j++
		}
		keep := []int{i, lo, hi, j - 1}
		slices.Sort(keep)
		for a, k := range keep {
			if a > 0 && k == keep[a-1] {
				continue
			}
			out = append(out, pts[k])
		}
		i = j
	}
	return out
}

// esc escapes text for HTML and SVG content and attribute values.
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&#34;")
		case '\'':
			b.WriteString("&#39;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// textWidth estimates the width in pixels of s at the charts' font size
// (12px sans-serif: about 0.6 em per character on average), to lay out
// the legend without measuring glyphs.
func textWidth(s string) float64 { return 7 * float64(len([]rune(s))) }

// num words a figure as the text report does: the shortest decimal.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// pct words a share (0..1) as a percent with one decimal.
func pct(f float64) string { return fmt.Sprintf("%.1f%%", f*100) }
