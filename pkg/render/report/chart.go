// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package report

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// The charts' geometry, in the SVG's own pixels (the page scales them to
// its width through the viewBox).
const (
	chartW      = 960
	chartH      = 300
	scatterH    = 420
	marginLeft  = 72
	marginRight = 20
	marginTop   = 44
	marginBot   = 46
)

// kind is how a series is drawn.
type kind int

const (
	// line joins the points; a NaN value breaks it.
	line kind = iota
	// step holds each value until the next point, and the last one until
	// the chart's end: a replica count.
	step
	// level is a horizontal line at value (a target, a bound).
	level
)

// tpoint is a value at a time.
type tpoint struct {
	t time.Time
	v float64
}

// series is one curve of a time chart.
type series struct {
	name   string
	class  string
	kind   kind
	points []tpoint
	value  float64
}

// timeChart is a chart of series over a period.
type timeChart struct {
	id, title, desc string
	yLabel          string
	start, end      time.Time
	// minStep is the least spacing of the value ticks (1 for counts).
	minStep float64
	series  []series
}

// plot returns the drawing area's corners.
func plotArea(h float64) (x0, x1, y0, y1 float64) {
	return marginLeft, chartW - marginRight, marginTop, h - marginBot
}

// write writes the chart as an <svg> element.
func (c *timeChart) write(b *strings.Builder) {
	x0, x1, y0, y1 := plotArea(chartH)
	hi := 0.0
	for _, s := range c.series {
		if s.kind == level {
			hi = math.Max(hi, s.value)
		}
		for _, p := range s.points {
			if !math.IsNaN(p.v) {
				hi = math.Max(hi, p.v)
			}
		}
	}
	lo, hi, ticks := niceDomain(0, hi*1.05, 5, c.minStep)
	ys := linear{lo, hi, y1, y0}
	xs := linear{0, float64(c.end.Sub(c.start)), x0, x1}
	xAt := func(t time.Time) float64 { return xs.at(float64(t.Sub(c.start))) }

	openSVG(b, c.id, chartH, c.title, c.desc)
	step := 1.0
	if len(ticks) > 1 {
		step = ticks[1] - ticks[0]
	}
	b.WriteString(`<g class="axis y">`)
	for _, v := range ticks {
		y := ys.at(v)
		fmt.Fprintf(b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, px(x0), px(y), px(x1), px(y))
		fmt.Fprintf(b, `<text class="tick" x="%s" y="%s" text-anchor="end">%s</text>`, px(x0-6), px(y+4), esc(tickLabel(v, step)))
	}
	fmt.Fprintf(b, `<text class="axis-title" transform="translate(16,%s) rotate(-90)" text-anchor="middle">%s</text>`, px((y0+y1)/2), esc(c.yLabel))
	b.WriteString("</g>\n")
	b.WriteString(`<g class="axis x">`)
	for _, tk := range timeTicks(c.start, c.end, 8) {
		x := xAt(tk.at)
		fmt.Fprintf(b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, px(x), px(y0), px(x), px(y1))
		fmt.Fprintf(b, `<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`, px(x), px(y1+16), esc(tk.label))
	}
	fmt.Fprintf(b, `<text class="axis-title" x="%s" y="%s" text-anchor="end">time (UTC)</text>`, px(x1), px(y1+36))
	fmt.Fprintf(b, `<rect class="frame" x="%s" y="%s" width="%s" height="%s"/>`, px(x0), px(y0), px(x1-x0), px(y1-y0))
	b.WriteString("</g>\n")

	var legend []legendItem
	for _, s := range c.series {
		d := c.path(s, xAt, ys, x1)
		if d == "" {
			continue
		}
		fmt.Fprintf(b, `<path class="series %s" d="%s"><title>%s</title></path>`+"\n", s.class, d, esc(s.name))
		legend = append(legend, legendItem{name: s.name, class: s.class, line: true})
	}
	writeLegend(b, legend, x0)
	b.WriteString("</svg>\n")
}

// path draws one series; "" when it has nothing in the period.
func (c *timeChart) path(s series, xAt func(time.Time) float64, ys linear, x1 float64) string {
	p := newPath()
	switch s.kind {
	case level:
		y := ys.at(s.value)
		p.cmd('M', xAt(c.start), y)
		p.cmd('H', x1)
	case step:
		// A point before the start holds its count into the period.
		var pts []tpoint
		for i, q := range s.points {
			if q.t.After(c.end) {
				break
			}
			if q.t.Before(c.start) {
				if i+1 < len(s.points) && !s.points[i+1].t.After(c.start) {
					continue
				}
				q.t = c.start
			}
			pts = append(pts, q)
		}
		for i, q := range pts {
			x, y := xAt(q.t), ys.at(q.v)
			if i == 0 {
				p.cmd('M', x, y)
			} else {
				p.cmd('H', x)
				p.cmd('V', y)
			}
		}
		if len(pts) > 0 {
			p.cmd('H', x1)
		}
	case line:
		var run []xy
		flush := func() {
			for i, q := range decimate(run) {
				if i == 0 {
					p.cmd('M', q.x, q.y)
				} else {
					p.cmd('L', q.x, q.y)
				}
			}
			run = run[:0]
		}
		for _, q := range s.points {
			if q.t.Before(c.start) || q.t.After(c.end) {
				continue
			}
			if math.IsNaN(q.v) {
				flush()
				continue
			}
			run = append(run, xy{xAt(q.t), ys.at(q.v)})
		}
		flush()
	}
	return p.String()
}

// spot is one point of a scatter chart.
type spot struct {
	x, y  float64
	class string
	r     float64
	// title is the point's tooltip; label, when set, is written beside it
	// (above when up).
	title, label string
	up           bool
}

// scatterChart is a chart of points, with a line through some of them.
type scatterChart struct {
	id, title, desc string
	xLabel, yLabel  string
	spots           []spot
	// through are the points the line joins, in order; lineClass its class.
	through   []xy
	lineClass string
	legend    []legendItem
}

func (c *scatterChart) write(b *strings.Builder) {
	x0, x1, y0, y1 := plotArea(scatterH)
	xlo, xhi, yhi := math.Inf(1), math.Inf(-1), 0.0
	for _, s := range c.spots {
		xlo, xhi, yhi = math.Min(xlo, s.x), math.Max(xhi, s.x), math.Max(yhi, s.y)
	}
	if len(c.spots) == 0 {
		xlo, xhi = 0, 1
	}
	pad := (xhi - xlo) * 0.05
	xlo, xhi, xt := niceDomain(xlo-pad, xhi+pad, 8, 0)
	_, yhi, yt := niceDomain(0, yhi*1.05, 5, 0)
	xs, ys := linear{xlo, xhi, x0, x1}, linear{0, yhi, y1, y0}

	openSVG(b, c.id, scatterH, c.title, c.desc)
	b.WriteString(`<g class="axis y">`)
	for _, v := range yt {
		y := ys.at(v)
		fmt.Fprintf(b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, px(x0), px(y), px(x1), px(y))
		fmt.Fprintf(b, `<text class="tick" x="%s" y="%s" text-anchor="end">%s</text>`, px(x0-6), px(y+4), esc(tickLabel(v, tickStep(yt))))
	}
	fmt.Fprintf(b, `<text class="axis-title" transform="translate(16,%s) rotate(-90)" text-anchor="middle">%s</text>`, px((y0+y1)/2), esc(c.yLabel))
	b.WriteString("</g>\n")
	b.WriteString(`<g class="axis x">`)
	for _, v := range xt {
		x := xs.at(v)
		fmt.Fprintf(b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, px(x), px(y0), px(x), px(y1))
		fmt.Fprintf(b, `<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`, px(x), px(y1+16), esc(tickLabel(v, tickStep(xt))))
	}
	fmt.Fprintf(b, `<text class="axis-title" x="%s" y="%s" text-anchor="end">%s</text>`, px(x1), px(y1+36), esc(c.xLabel))
	fmt.Fprintf(b, `<rect class="frame" x="%s" y="%s" width="%s" height="%s"/>`, px(x0), px(y0), px(x1-x0), px(y1-y0))
	b.WriteString("</g>\n")
	if len(c.through) > 1 {
		p := newPath()
		for i, q := range c.through {
			if i == 0 {
				p.cmd('M', xs.at(q.x), ys.at(q.y))
			} else {
				p.cmd('L', xs.at(q.x), ys.at(q.y))
			}
		}
		fmt.Fprintf(b, `<path class="series %s" d="%s"/>`+"\n", c.lineClass, p)
	}
	for _, s := range c.spots {
		x, y := xs.at(s.x), ys.at(s.y)
		fmt.Fprintf(b, `<circle class="%s" cx="%s" cy="%s" r="%s"><title>%s</title></circle>`+"\n", s.class, px(x), px(y), px(s.r), esc(s.title))
	}
	for _, s := range c.spots {
		if s.label == "" {
			continue
		}
		x, y := xs.at(s.x)+s.r+4, ys.at(s.y)+s.r+12
		if s.up {
			y = ys.at(s.y) - s.r - 5
		}
		anchor := "start"
		if x+textWidth(s.label) > x1 {
			x, anchor = xs.at(s.x)-s.r-4, "end"
		}
		fmt.Fprintf(b, `<text class="label %s" x="%s" y="%s" text-anchor="%s">%s</text>`+"\n", s.class, px(x), px(y), anchor, esc(s.label))
	}
	writeLegend(b, c.legend, x0)
	b.WriteString("</svg>\n")
}

func tickStep(ticks []float64) float64 {
	if len(ticks) < 2 {
		return 1
	}
	return ticks[1] - ticks[0]
}

// legendItem is one entry of a legend: a line or a dot of class.
type legendItem struct {
	name, class string
	line        bool
}

// writeLegend writes the legend along the top, from x.
func writeLegend(b *strings.Builder, items []legendItem, x float64) {
	b.WriteString(`<g class="legend">`)
	y := 18.0
	for _, it := range items {
		if it.line {
			fmt.Fprintf(b, `<path class="series %s" d="M%s,%s H%s"/>`, it.class, px(x), px(y), px(x+22))
		} else {
			fmt.Fprintf(b, `<circle class="%s" cx="%s" cy="%s" r="5"/>`, it.class, px(x+11), px(y))
		}
		fmt.Fprintf(b, `<text x="%s" y="%s">%s</text>`, px(x+28), px(y+4), esc(it.name))
		x += 28 + textWidth(it.name) + 18
	}
	b.WriteString("</g>\n")
}

// openSVG opens a chart's <svg> element with its accessible name and
// description.
func openSVG(b *strings.Builder, id string, h int, title, desc string) {
	fmt.Fprintf(b, `<svg id="%s" class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" aria-labelledby="%s-title %s-desc">`+"\n",
		id, chartW, h, id, id)
	fmt.Fprintf(b, `<title id="%s-title">%s</title>`+"\n", id, esc(title))
	fmt.Fprintf(b, `<desc id="%s-desc">%s</desc>`+"\n", id, esc(desc))
}
