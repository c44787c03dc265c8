// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// backtest writes the text view of a backtest: the period and where the
// load came from, the curves as a grouped bar chart, their summaries side
// by side, their rescales, and where every figure came from.
func (v *whatifView) backtest(wi *explain.WhatIf) {
	bt := wi.Backtest
	d := wi.Before
	head := fmt.Sprintf("Backtest: HPA %s/%s (%s/%s), %s → %s (%s), a sync every %s",
		d.HPA.Namespace, d.HPA.Name, d.Target.Kind, d.Target.Name, formatTime(bt.Start), formatTime(bt.End),
		shortDuration(bt.End.Sub(bt.Start)), bt.SyncPeriod)
	v.line(v.paint(func(t *theme) lipgloss.Style { return t.bold }, head))
	v.line(fmt.Sprintf("  recorded load: %s; actual replicas from %s; controller history replayed from %s before", orUnknown(clean(bt.Source)), actualSourceWords(bt.Actual.Source), bt.WarmUp))
	if len(bt.Changes) == 0 {
		v.line("  (no change: the HPA as it is, against what really happened)")
	}
	for _, c := range bt.Changes {
		v.line("  - " + c)
	}
	paths := backtestPaths(bt)
	v.line("")
	v.backtestChart(bt, paths)
	v.line("")
	v.backtestSummary(paths)
	if l := censoredLine(bt.Censored, bt.End.Sub(bt.Start)); l != "" {
		v.line("  " + v.paint(func(t *theme) lipgloss.Style { return t.warn }, l))
	}
	v.line("")
	v.line(v.paint(func(t *theme) lipgloss.Style { return t.head }, "Rescales"))
	tb := &table{}
	for _, p := range paths {
		tb.row(pathTitle(p.Name), rescaleWords(p.Rescales, 8))
	}
	for _, l := range tb.lines() {
		v.line("  " + l)
	}
	if len(bt.Sources) > 0 {
		v.line("")
		v.line(v.paint(func(t *theme) lipgloss.Style { return t.head }, "Recorded load"))
		for _, s := range bt.Sources {
			v.line(fmt.Sprintf("  %s: %s (%s)", clean(s.What), clean(s.Query), plural(s.Series, "series", "series")))
		}
	}
	if len(bt.Reconstructed) > 0 {
		v.line("")
		v.line(v.paint(func(t *theme) lipgloss.Style { return t.head }, "Reconstructed, not read"))
		for _, r := range bt.Reconstructed {
			v.line("  - " + clean(r))
		}
	}
	if len(bt.Notes) > 0 {
		v.line("")
		v.line(v.paint(func(t *theme) lipgloss.Style { return t.head }, "Notes"))
		for _, n := range bt.Notes {
			v.line("  - " + clean(n))
		}
	}
}

// backtestPaths lists a backtest's curves in the order they are shown.
func backtestPaths(bt *explain.Backtest) []*explain.BacktestPath {
	out := []*explain.BacktestPath{&bt.Actual, &bt.AsIs}
	if bt.Changed != nil {
		out = append(out, bt.Changed)
	}
	return out
}

// pathTitle names a curve.
func pathTitle(name string) string {
	switch name {
	case "actual":
		return "actual"
	case "as-is":
		return "as-is replay"
	case "changed":
		return "with the changes"
	}
	return clean(name)
}

// actualSourceWords says where the actual replica counts came from.
func actualSourceWords(src string) string {
	switch src {
	case "kube-state-metrics":
		return "kube-state-metrics"
	case "events":
		return "the HPA's SuccessfulRescale events"
	case "watch":
		return "the history a watch recorded"
	case "pods", "", "none":
		return "the number of its pods that existed (reconstructed)"
	}
	return clean(src)
}

// pathGlyphs are the bar fills of the curves in the plain view (and their
// order in a group).
var pathGlyphs = []string{"a", "r", "c"}

// backtestChart draws the curves as grouped bars: per time bucket one bar
// per curve, side by side, the highest count in the bucket.
func (v *whatifView) backtestChart(bt *explain.Backtest, paths []*explain.BacktestPath) {
	span := bt.End.Sub(bt.Start)
	width := 100
	if v.opts.Width > 0 {
		width = v.opts.Width
	}
	group := len(paths) + 1
	buckets := max(4, min(30, (width-10)/group))
	step := time.Duration(0)
	if span > 0 {
		step = span / time.Duration(buckets)
	}
	if step <= 0 {
		return
	}
	vals := make([][]int32, len(paths))
	hi := int32(0)
	for i, p := range paths {
		vals[i] = make([]int32, buckets)
		for b := range buckets {
			from, to := bt.Start.Add(time.Duration(b)*step), bt.Start.Add(time.Duration(b+1)*step)
			vals[i][b] = peakIn(p.Replicas, from, to)
			hi = max(hi, vals[i][b])
		}
	}
	height := int(min(hi, 10))
	if height < 1 {
		height = 1
	}
	legend := make([]string, len(paths))
	for i, p := range paths {
		g := pathGlyphs[i]
		if v.color {
			g = v.paint(pathStyle(i), "█")
		}
		legend[i] = g + " " + pathTitle(p.Name)
	}
	v.line(fmt.Sprintf("Replicas, the highest in each %s (%s)", shortDuration(step), strings.Join(legend, ", ")))
	for row := height; row >= 1; row-- {
		level := int32((int64(hi)*int64(row) + int64(height) - 1) / int64(height))
		var s strings.Builder
		for b := range buckets {
			for i := range paths {
				switch {
				case vals[i][b] < level:
					s.WriteString(" ")
				case v.color:
					s.WriteString(v.paint(pathStyle(i), "█"))
				default:
					s.WriteString(pathGlyphs[i])
				}
			}
			s.WriteString(" ")
		}
		sep := " |"
		if v.color {
			sep = " ┤"
		}
		v.line(fmt.Sprintf("  %4d%s%s", level, sep, s.String()))
	}
	axis := "     +" + strings.Repeat("-", buckets*group)
	if v.color {
		axis = "     └" + strings.Repeat("─", buckets*group)
	}
	v.line("  " + axis)
	start, end := clockOf(bt.Start), clockOf(bt.End)
	gap := max(1, buckets*group-len(start)-len(end))
	v.line("       " + start + strings.Repeat(" ", gap) + end)
}

// pathStyle is the color of curve i in the styled view.
func pathStyle(i int) func(*theme) lipgloss.Style {
	switch i {
	case 0:
		return func(t *theme) lipgloss.Style { return t.dim }
	case 1:
		return func(t *theme) lipgloss.Style { return t.accent }
	}
	return func(t *theme) lipgloss.Style { return t.warn }
}

// peakIn is the highest count of a curve in [from, to).
func peakIn(pts []explain.ReplicaPoint, from, to time.Time) int32 {
	var cur, peak int32
	seen := false
	for _, p := range pts {
		if !p.Time.After(from) {
			cur = p.Replicas
			continue
		}
		if !p.Time.Before(to) {
			break
		}
		peak, seen = max(peak, p.Replicas), true
	}
	if !seen {
		return cur
	}
	return max(cur, peak)
}

// backtestSummary writes the curves' summaries side by side.
func (v *whatifView) backtestSummary(paths []*explain.BacktestPath) {
	head := []string{""}
	for _, p := range paths {
		head = append(head, strings.ToUpper(pathTitle(p.Name)))
	}
	tb := &table{}
	tb.row(head...)
	row := func(label string, cell func(*explain.PathSummary) string) {
		r := []string{label}
		for _, p := range paths {
			r = append(r, cell(&p.Summary))
		}
		tb.row(r...)
	}
	row("pod-hours", func(s *explain.PathSummary) string { return fmt.Sprintf("%.2f", s.PodHours) })
	var metrics []string
	for _, p := range paths {
		for _, m := range p.Summary.AboveTarget {
			if !slicesContains(metrics, m.Metric) {
				metrics = append(metrics, m.Metric)
			}
		}
	}
	for _, name := range metrics {
		row(clean(name)+" above target", func(s *explain.PathSummary) string {
			for _, m := range s.AboveTarget {
				if m.Metric == name {
					d, _ := time.ParseDuration(m.Duration)
					return fmt.Sprintf("%s (%.0f%%)", shortDuration(d), 100*m.Fraction)
				}
			}
			return "-"
		})
	}
	row("rescales", func(s *explain.PathSummary) string { return fmt.Sprint(s.Rescales) })
	row("peak replicas", func(s *explain.PathSummary) string { return fmt.Sprint(s.PeakReplicas) })
	row("longest lag", func(s *explain.PathSummary) string {
		if s.LongestLag == "" || s.LagStart == nil {
			return "none"
		}
		d, _ := time.ParseDuration(s.LongestLag)
		return fmt.Sprintf("%s from %s", shortDuration(d), clockOf(*s.LagStart))
	})
	for i, l := range tb.lines() {
		if i == 0 {
			l = v.paint(func(t *theme) lipgloss.Style { return t.head }, l)
		}
		v.line("  " + l)
	}
}

func slicesContains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// rescaleWords lists at most n rescales: "14:02:03 3→6, 14:30:00 6→4, … and
// 3 more".
func rescaleWords(rs []explain.ProjectedRescale, n int) string {
	if len(rs) == 0 {
		return none
	}
	parts := make([]string, 0, min(n, len(rs))+1)
	for i, r := range rs {
		if i == n {
			parts = append(parts, fmt.Sprintf("… and %d more", len(rs)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d→%d", clockOf(r.Time), r.From, r.To))
	}
	return strings.Join(parts, ", ")
}

// clockOf prints an instant as its UTC time of day ("14:02:03"), with the
// date when it is not a whole number of seconds away from it.
func clockOf(t time.Time) string { return t.UTC().Format("15:04:05") }

// shortDuration prints a duration without zero units: 2h0m0s → 2h, 1m30s.
func shortDuration(d time.Duration) string {
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
