// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// WriteWhatIf renders a whatif result in format f to w.
func WriteWhatIf(w io.Writer, f Format, wi *explain.WhatIf, opts Options) error {
	if wi == nil || wi.Before == nil || wi.After == nil {
		return fmt.Errorf("no whatif result to render")
	}
	switch f {
	case FormatJSON, FormatYAML:
		return Encode(w, f, wi)
	case FormatText, "":
	default:
		return fmt.Errorf("unknown output format %q", f)
	}
	_, err := w.Write(WhatIfText(w, wi, opts))
	return err
}

// whatifView builds the text of a whatif result: plain, or styled when
// opts.Color is set (then w decides the renderer, as for explain).
type whatifView struct {
	b     strings.Builder
	opts  Options
	th    *theme
	color bool
}

func (v *whatifView) paint(st func(*theme) lipgloss.Style, s string) string {
	if !v.color {
		return s
	}
	return paint(st(v.th), s)
}

func (v *whatifView) line(s string) { v.b.WriteString(strings.TrimRight(s, " ") + "\n") }

// WhatIfText is the text view of a whatif result: the changes, the two
// decisions side by side with the changed steps marked, and the projection.
func WhatIfText(w io.Writer, wi *explain.WhatIf, opts Options) []byte {
	v := &whatifView{opts: opts, color: opts.Color}
	if opts.Color {
		v.th = newTheme(w, opts.Palette)
	}
	if wi.Backtest != nil {
		v.backtest(wi)
		return []byte(v.b.String())
	}
	b, a := wi.Before, wi.After
	v.line(v.paint(func(t *theme) lipgloss.Style { return t.bold }, fmt.Sprintf("What if: HPA %s/%s (%s/%s) at %s", b.HPA.Namespace, b.HPA.Name, b.Target.Kind, b.Target.Name, formatTime(b.Now))))
	if len(wi.Changes) == 0 {
		v.line("  (no change: the current state)")
	}
	for _, c := range wi.Changes {
		v.line("  - " + c)
	}
	v.line("")
	v.compare(b, a)
	v.line("")
	v.line("Before: " + b.Summary)
	v.line("After:  " + a.Summary)
	if p := wi.Projection; p != nil {
		v.line("")
		v.projection(p)
	}
	return []byte(v.b.String())
}

type cmpRow struct {
	label, before, after string
}

func (v *whatifView) compare(b, a *explain.Decision) {
	rows := compareRows(b, a)
	tb := &table{}
	tb.row("STEP", "BEFORE", "AFTER")
	for _, r := range rows {
		tb.row(r.label, r.before, r.after)
	}
	lines := tb.lines()
	v.line(v.paint(func(t *theme) lipgloss.Style { return t.head }, "  "+lines[0]))
	for i, r := range rows {
		if r.before == r.after {
			v.line("  " + lines[i+1])
			continue
		}
		// The changed value is last: painting it leaves the alignment.
		l := strings.TrimSuffix(lines[i+1], r.after)
		accent := func(t *theme) lipgloss.Style { return t.accent }
		v.line(v.paint(accent, "* ") + l + v.paint(accent, r.after))
	}
	v.line(v.paint(func(t *theme) lipgloss.Style { return t.dim }, "  (* marks the steps that changed; 'kubectl hpa explain' prints every step of one replay)"))
}

// compareRows lists the steps of two replays of the same HPA.
func compareRows(b, a *explain.Decision) []cmpRow {
	var rows []cmpRow
	add := func(label, bv, av string) { rows = append(rows, cmpRow{label, bv, av}) }
	if b.KEDA != nil || a.KEDA != nil {
		for _, r := range kedaCompareRows(b.KEDA, a.KEDA) {
			add(r[0], r[1], r[2])
		}
	}
	n := max(len(b.Metrics), len(a.Metrics))
	for i := 0; i < n; i++ {
		var mb, ma *explain.MetricResult
		if i < len(b.Metrics) {
			mb = &b.Metrics[i]
		}
		if i < len(a.Metrics) {
			ma = &a.Metrics[i]
		}
		name := ""
		if ma != nil {
			name = metricName(ma)
		} else if mb != nil {
			name = metricName(mb)
		}
		prefix := fmt.Sprintf("metric %d", i+1)
		if n == 1 {
			prefix = "metric"
		}
		add(prefix+" "+name, metricCell(mb), metricCell(ma))
		add("  pods", podsCell(mb), podsCell(ma))
		add("  ratio, tolerance", ratioCell(mb), ratioCell(ma))
		if hasFillIn(mb) || hasFillIn(ma) {
			add("  fill-in", fillInCell(mb), fillInCell(ma))
		}
		add("  proposal", proposalCell(mb), proposalCell(ma))
	}
	add("recommendation", recommendationCell(b), recommendationCell(a))
	add("stabilization", stabilizationCell(b), stabilizationCell(a))
	add("limits and bounds", limitsCell(b), limitsCell(a))
	add("desired replicas", desiredCell(b), desiredCell(a))
	types := conditionTypes(b, a)
	for _, t := range types {
		add(t, conditionCell(b, t), conditionCell(a, t))
	}
	return rows
}

func metricCell(m *explain.MetricResult) string {
	if m == nil {
		return "-"
	}
	if m.Error != nil {
		return "failed: " + orNone(m.ErrorReason)
	}
	return statusValueWords(m) + " / target " + targetWords(m, targetShort)
}

func podsCell(m *explain.MetricResult) string {
	if m == nil || m.Pods == nil {
		return "-"
	}
	return classCounts(m.Pods.Entries)
}

func ratioCell(m *explain.MetricResult) string {
	if m == nil || m.Tolerance == nil {
		return "-"
	}
	return toleranceBand(m.Tolerance)
}

func hasFillIn(m *explain.MetricResult) bool { return m != nil && m.FillIn != nil }

func fillInCell(m *explain.MetricResult) string {
	if !hasFillIn(m) {
		return "-"
	}
	f := m.FillIn
	s := "ratio " + fixed2(float64(f.NewRatio))
	if f.Within || f.DirectionFlip {
		s += ", cancels the change"
	}
	return s + fmt.Sprintf(" → %d", f.Result)
}

func proposalCell(m *explain.MetricResult) string {
	if m == nil {
		return "-"
	}
	s := proposalWords(m)
	if m.Winner {
		s += " (largest)"
	}
	return s
}

func recommendationCell(d *explain.Decision) string {
	r := d.Recommendation
	if r == nil {
		return "- (" + string(d.Outcome) + ")"
	}
	if r.Failed {
		return "fails: " + orNone(r.FailureRule)
	}
	if r.WinningMetric != "" {
		return fmt.Sprintf("%d (%s)", r.Replicas, shortName(r.WinningMetric))
	}
	return fmt.Sprint(r.Replicas)
}

func stabilizationCell(d *explain.Decision) string {
	n := d.Normalization
	if n == nil {
		return "-"
	}
	st := n.Stabilization
	if st.Result == n.Input {
		return fmt.Sprintf("%d (no hold)", st.Result)
	}
	s := fmt.Sprintf("%d (held", st.Result)
	if st.HeldUntil != nil {
		s += " until " + timeWords(*st.HeldUntil, d.Now, timeOfDay)
	}
	return s + ")"
}

func limitsCell(d *explain.Decision) string {
	n := d.Normalization
	if n == nil {
		return "-"
	}
	l := n.Limits
	if !l.Limited {
		return fmt.Sprintf("%d (within %d–%d)", l.Result, l.Min, l.Max)
	}
	// A limit decides unless the sync failed after it; then the
	// controller's reason names it.
	by := limiterWords(&d.DecidedBy)
	if by == "" {
		by = orUnknown(l.Reason)
	}
	return fmt.Sprintf("%d (%s)", l.Result, by)
}

func desiredCell(d *explain.Decision) string {
	if d.Rescale {
		return changeWords(d)
	}
	return fmt.Sprintf("%d (no change)", d.DesiredReplicas)
}

func conditionTypes(ds ...*explain.Decision) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range ds {
		for _, c := range d.Conditions {
			if !seen[c.Type] {
				seen[c.Type] = true
				out = append(out, c.Type)
			}
		}
	}
	return out
}

func conditionCell(d *explain.Decision, t string) string {
	for _, c := range d.Conditions {
		if c.Type == t {
			return c.Status + " " + c.Reason
		}
	}
	return "-"
}

// ---- projection ----

func (v *whatifView) projection(p *explain.Projection) {
	span := p.Duration
	if p.Auto {
		if p.Settled {
			span += ", until the replicas settled"
		} else {
			span += ", the automatic limit; the replicas had not settled"
		}
	}
	v.line(v.paint(func(t *theme) lipgloss.Style { return t.bold }, fmt.Sprintf("Projection: %s, one sync every %s, load model %s, new pods ready after %s", span, p.SyncPeriod, p.LoadModel, p.PodStartup)))
	if p.Trace != "" {
		v.line("  load trace: " + p.Trace)
	}
	v.timeline(p)
	v.line("")
	if len(p.Rescales) == 0 {
		v.line(fmt.Sprintf("No rescale: the replicas stay at %d.", p.FinalReplicas))
	} else {
		var parts []string
		for _, r := range p.Rescales {
			parts = append(parts, fmt.Sprintf("+%s %d→%d", r.Offset, r.From, r.To))
		}
		v.line(fmt.Sprintf("Rescales (%d): %s", len(p.Rescales), strings.Join(parts, ", ")))
	}
	v.line("")
	v.chart(p)
	for _, n := range p.Notes {
		v.line(v.paint(func(t *theme) lipgloss.Style { return t.dim }, "  note: "+n))
	}
}

// timelineRow is one row of the timeline; consecutive syncs with the same
// values are merged.
type timelineRow struct {
	from, to string
	n        int
	cells    []string
	rescale  bool
}

func (v *whatifView) timeline(p *explain.Projection) {
	header := []string{"TIME", "METRICS", "RECOMMENDATION", "STABILIZED", "LIMITED BY", "REPLICAS"}
	var rows []timelineRow
	for i := range p.Steps {
		s := &p.Steps[i]
		var ms []string
		for _, m := range s.Metrics {
			ms = append(ms, shortName(m.Name)+" "+m.Value)
		}
		repl := fmt.Sprint(s.Replicas)
		if s.Desired != s.Replicas {
			repl = fmt.Sprintf("%d → %d", s.Replicas, s.Desired)
		}
		cells := []string{strings.Join(ms, ", "), int32Or(s.Recommendation, "-"), int32Or(s.Stabilized, "-"), orDash(limiterWords(&s.DecidedBy)), repl}
		if k := len(rows) - 1; k >= 0 && !rows[k].rescale && s.Desired == s.Replicas && slices.Equal(rows[k].cells, cells) {
			rows[k].to = s.Offset
			rows[k].n++
			continue
		}
		rows = append(rows, timelineRow{from: s.Offset, to: s.Offset, n: 1, cells: cells, rescale: s.Desired != s.Replicas})
	}
	tb := &table{}
	tb.row(header...)
	for _, r := range rows {
		t := "+" + r.from
		if r.n > 1 {
			t = fmt.Sprintf("+%s … +%s (%d syncs)", r.from, r.to, r.n)
		}
		tb.row(append([]string{t}, r.cells...)...)
	}
	for ri, line := range tb.lines() {
		line = "  " + line
		switch {
		case ri == 0:
			line = v.paint(func(t *theme) lipgloss.Style { return t.head }, line)
		case rows[ri-1].rescale:
			line = v.paint(func(t *theme) lipgloss.Style { return t.accent }, line)
		}
		v.line(line)
	}
}

// chart draws the replicas after each sync over time, as columns of
// blocks (# in the plain view).
func (v *whatifView) chart(p *explain.Projection) {
	if len(p.Steps) == 0 {
		return
	}
	width := 60
	if v.opts.Width > 0 {
		width = min(width, max(20, v.opts.Width-12))
	}
	width = min(width, len(p.Steps))
	// The first column is the replicas at the start; each other one the
	// replicas after the last sync it covers.
	cols := make([]int32, 0, width+1)
	cols = append(cols, p.Steps[0].Replicas)
	lo, hi := p.Steps[0].Replicas, p.Steps[0].Replicas
	for c := 0; c < width; c++ {
		last := (c+1)*len(p.Steps)/width - 1
		cols = append(cols, p.Steps[last].Desired)
	}
	width++
	for _, s := range p.Steps {
		lo, hi = min(lo, s.Desired, s.Replicas), max(hi, s.Desired, s.Replicas)
	}
	lo = min(lo, 0)
	height := int(min(hi-lo, 10))
	if height < 1 {
		height = 1
	}
	block := "#"
	if v.color {
		block = "█"
	}
	label := func(val int32) string { return fmt.Sprintf("%4d ┤", val) }
	if !v.color {
		label = func(val int32) string { return fmt.Sprintf("%4d |", val) }
	}
	v.line("  Replicas over time:")
	for row := height; row >= 1; row-- {
		// The level this row stands for.
		level := lo + int32((int64(hi-lo)*int64(row)+int64(height)-1)/int64(height))
		var s strings.Builder
		for _, c := range cols {
			if c >= level {
				s.WriteString(block)
			} else {
				s.WriteString(" ")
			}
		}
		bar := s.String()
		if v.color {
			bar = v.paint(func(t *theme) lipgloss.Style { return t.accent }, bar)
		}
		v.line("  " + label(level) + bar)
	}
	axis := "     +" + strings.Repeat("-", width)
	if v.color {
		axis = "     └" + strings.Repeat("─", width)
	}
	v.line("  " + axis)
	end := "+" + p.Steps[len(p.Steps)-1].Offset
	gap := max(1, width-len(end)-1)
	v.line("        0s" + strings.Repeat(" ", max(1, gap-1)) + end)
}
