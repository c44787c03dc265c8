// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// minWidth is the narrowest width the styled view wraps to.
const minWidth = 40

// keyWidth is the width of the keys of the arithmetic lines.
const keyWidth = 13

// Styled renders the compact terminal view of d: the verdict first, then
// each metric with its pods and arithmetic, the normalization, conditions,
// events, assumptions and the agreement with the controller's status. Its
// styles come from a lipgloss renderer made for w with the palette of opts;
// it wraps to opts.Width. The plain view (Text) stays the complete layout.
func Styled(w io.Writer, d *explain.Decision, opts Options) []byte {
	width := opts.Width
	if width <= 0 {
		width = DefaultWidth
	}
	v := &styledView{d: d, th: newTheme(w, opts.Palette), width: max(width, minWidth), pods: opts.Pods}
	v.verdict()
	v.metrics()
	v.recommendation()
	v.normalization()
	v.conditions()
	v.events()
	v.assumptions()
	v.agreement()
	return []byte(strings.Join(v.lines, "\n") + "\n")
}

type styledView struct {
	d     *explain.Decision
	th    *theme
	width int
	pods  PodsMode
	lines []string
}

func (v *styledView) add(s string) { v.lines = append(v.lines, strings.TrimRight(s, " ")) }

// gap starts a new block with one blank line.
func (v *styledView) gap() {
	if len(v.lines) > 0 && v.lines[len(v.lines)-1] != "" {
		v.lines = append(v.lines, "")
	}
}

// title starts a block with a bold title and an optional dim note.
func (v *styledView) title(s, note string) {
	v.gap()
	line := paint(v.th.bold, s)
	if note != "" {
		line += "  " + paint(v.th.dim, note)
	}
	v.add(line)
}

// kv adds an indented line with a dim key and styled parts, which flow
// onto more lines, under themselves, when they do not fit.
func (v *styledView) kv(key string, parts ...string) {
	v.flow("  "+pad(paint(v.th.dim, key), keyWidth), 2+keyWidth, "   ", parts...)
}

// flow lays styled parts out on lines of the view's width: the first line
// starts with prefix, the next ones with indent spaces. Parts are separated
// by sep and never split; one too wide alone is truncated.
func (v *styledView) flow(prefix string, indent int, sep string, parts ...string) {
	line, empty := prefix, true
	for _, p := range parts {
		if p == "" {
			continue
		}
		next := line + p
		if !empty {
			next = line + sep + p
		}
		if lipgloss.Width(next) <= v.width {
			line, empty = next, false
			continue
		}
		if !empty {
			v.add(line)
			line = strings.Repeat(" ", indent)
		}
		line += ansi.Truncate(p, v.width-lipgloss.Width(line), "…")
		empty = false
	}
	v.add(line)
}

// kvWords is kv with parts separated by one space.
func (v *styledView) kvWords(key string, parts []string) {
	v.flow("  "+pad(paint(v.th.dim, key), keyWidth), 2+keyWidth, " ", parts...)
}

// kvWrapped adds a key with a plain value wrapped under itself.
func (v *styledView) kvWrapped(key string, st lipgloss.Style, text string) {
	for i, l := range wrap(clean(text), v.width-2-keyWidth) {
		if i == 0 {
			v.kv(key, paint(st, l))
			continue
		}
		v.add(strings.Repeat(" ", 2+keyWidth) + paint(st, l))
	}
}

// tail adds prefix followed by text, wrapping the text under indent.
func (v *styledView) tail(prefix, sep string, st lipgloss.Style, text string, indent int) {
	first := v.width - lipgloss.Width(prefix) - lipgloss.Width(sep)
	ls := wrapFirst(clean(text), first, v.width-indent)
	if len(ls) == 0 {
		v.add(prefix)
		return
	}
	v.add(prefix + sep + paint(st, ls[0]))
	for _, l := range ls[1:] {
		v.add(strings.Repeat(" ", indent) + paint(st, l))
	}
}

// verdict is the first line, current → desired and why, and a dim line of
// context.
func (v *styledView) verdict() {
	d := v.d
	label, t, why := v.verdictWords()
	prefix := paint(v.th.badge[t], " "+label+" ") + " " +
		paint(v.th.bold, clean(objectName(d.HPA.Namespace, d.HPA.Name))) + "  " +
		paint(v.th.tone(t).Bold(true), fmt.Sprintf("%d → %d", d.CurrentReplicas, d.DesiredReplicas))
	v.tail(prefix, "  ", v.th.plain, why, 2)

	tg := d.Target
	ctx := []string{objectName(tg.Kind, tg.Name)}
	ctx = append(ctx, fmt.Sprintf("min %d, max %d", tg.MinReplicas, tg.MaxReplicas))
	if !d.Now.IsZero() {
		ctx = append(ctx, "now "+formatTime(d.Now))
	}
	ctx = append(ctx, historyWords(d.StateBefore))
	if cv := d.Settings.ControllerVersion; cv != "" {
		ctx = append(ctx, "controller "+cv)
	}
	v.tail("", "  ", v.th.dim, strings.Join(ctx, " · "), 2)

	if s := d.Selector; s != nil && (!s.Valid || len(s.ConflictingHPAs) > 0) {
		msg := "selector " + orNone(s.Selector)
		if s.Error != "" {
			msg += ": " + s.Error
		}
		if len(s.ConflictingHPAs) > 0 {
			msg += "; also selected by HPA " + strings.Join(s.ConflictingHPAs, ", ")
		}
		v.tail("  "+paint(v.th.bad, "✗"), " ", v.th.bad, msg, 4)
	}
}

func historyWords(st explain.ControllerState) string {
	prov := string(st.Provenance)
	if prov == "" {
		prov = "provenance unknown"
	}
	if !st.RecommendationsInitialized {
		return "history: none (" + prov + ")"
	}
	return "history: " + prov
}

// verdictWords returns the badge, its tone and the reason of the verdict.
func (v *styledView) verdictWords() (string, tone, string) {
	d := v.d
	switch d.Outcome {
	case explain.OutcomeFailedGetScale, explain.OutcomeInvalidSelector, explain.OutcomeFailedUpdateScale:
		return "FAILED", toneBad, orNone(d.Summary)
	case explain.OutcomeMetricsFailed:
		return "FAILED", toneBad, v.metricsFailedWhy()
	case explain.OutcomeScalingDisabled:
		return "DISABLED", toneWarn, orNone(d.Summary)
	case explain.OutcomeAboveMax, explain.OutcomeBelowMin:
		return "LIMITED", toneWarn, orNone(d.Summary)
	default:
		return v.normalWhy()
	}
}

func (v *styledView) metricsFailedWhy() string {
	d, r := v.d, v.d.Recommendation
	var failed []*explain.MetricResult
	for i := range d.Metrics {
		if d.Metrics[i].Error != nil {
			failed = append(failed, &d.Metrics[i])
		}
	}
	if r == nil || len(failed) == 0 {
		return orNone(d.Summary)
	}
	var s string
	switch {
	case len(failed) == r.Total:
		return fmt.Sprintf("no metric could be computed (%s)", orUnknown(failed[0].ErrorReason))
	case len(failed) == 1:
		s = metricName(failed[0]) + " failed"
	default:
		s = fmt.Sprintf("%d of %d metrics failed", len(failed), r.Total)
	}
	if r.BestValid != nil && *r.BestValid < d.CurrentReplicas {
		s += "; no scale-down on partial data"
	}
	return s
}

func (v *styledView) normalWhy() (string, tone, string) {
	d := v.d
	label, t := "NO CHANGE", toneOK
	switch {
	case d.Rescale && d.DesiredReplicas > d.CurrentReplicas:
		label = "SCALE UP"
	case d.Rescale:
		label = "SCALE DOWN"
	}
	var parts []string
	if r := d.Recommendation; r != nil && r.Replicas >= 0 {
		name := r.WinningMetric
		var win *explain.MetricResult
		if r.WinningIndex >= 0 && r.WinningIndex < len(d.Metrics) {
			win = &d.Metrics[r.WinningIndex]
			name = metricName(win)
		}
		p := fmt.Sprintf("%s wants %d", orUnknown(name), r.Replicas)
		if r.Total > 1 {
			p += fmt.Sprintf(" (largest of %d)", r.Total)
		}
		if win != nil && win.Tolerance != nil && win.Tolerance.Within && r.Replicas == d.CurrentReplicas {
			p = fmt.Sprintf("%s within tolerance (ratio %s)", name, formatFloat(win.Tolerance.Ratio))
		}
		parts = append(parts, p)
		if r.Invalid > 0 {
			parts = append(parts, fmt.Sprintf("%d of %d failed", r.Invalid, r.Total))
			t = toneBad
		}
	}
	if n := d.Normalization; n != nil {
		if st := n.Stabilization; st.Result != n.Input {
			s := "held by stabilization"
			if d.Rescale {
				s = fmt.Sprintf("held at %d by stabilization", st.Result)
			}
			if st.HeldUntil != nil {
				s += " until " + v.clock(*st.HeldUntil)
			}
			parts = append(parts, s)
			t = max(t, toneWarn)
			if !d.Rescale {
				label = "HELD"
			}
		}
		if l := n.Limits; l.Limited {
			parts = append(parts, fmt.Sprintf("limited to %d by %s", l.Result, limitedBy(&l)))
			t = max(t, toneWarn)
			if !d.Rescale {
				label = "LIMITED"
			}
		}
		if n.ScaleFromZeroFloor {
			parts = append(parts, fmt.Sprintf("raised to minReplicas %d from zero", n.Result))
		}
	}
	if len(parts) == 0 {
		return label, t, orNone(d.Summary)
	}
	return label, t, strings.Join(parts, "; ")
}

func limitedBy(l *explain.Limits) string {
	switch l.Reason {
	case "TooFewReplicas":
		return "minReplicas"
	case "TooManyReplicas":
		return "maxReplicas"
	case "ScaleUpLimit", "ScaleDownLimit":
		s := "the scale-up rate limit"
		if l.Reason == "ScaleDownLimit" {
			s = "the scale-down rate limit"
		}
		for i := range l.Policies {
			if l.Policies[i].Selected {
				s += " (" + policyName(&l.Policies[i]) + ")"
			}
		}
		return s
	default:
		return orUnknown(l.Reason)
	}
}

// metricName is the shortest name of a metric: the resource or the metric
// name.
func metricName(m *explain.MetricResult) string {
	if n := m.Source.Resource + m.Source.MetricName; n != "" {
		return clean(n)
	}
	return shortName(m.Name)
}

// shortName shortens the controller's display name of a metric ("cpu
// resource utilization (percentage of request)", "pods metric x",
// "external metric x(selector)") when the structured source is not there.
func shortName(name string) string {
	name = clean(name)
	for _, prefix := range []string{"pods metric ", "external metric ", "object metric "} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			if i := strings.Index(rest, "("); i > 0 {
				rest = rest[:i]
			}
			return rest
		}
	}
	if i := strings.Index(name, " resource"); i > 0 && !strings.Contains(name[:i], " ") {
		return name[:i]
	}
	return orUnknown(name)
}

// metricLabel names a metric: the resource or the metric name, with the
// container, object or selector it belongs to.
func metricLabel(m *explain.MetricResult) string {
	s := m.Source
	var out string
	switch m.Type {
	case "Resource":
		out = s.Resource
	case "ContainerResource":
		if s.Resource != "" {
			out = s.Resource + " of container " + orUnknown(s.Container)
		}
	case "Pods":
		out = s.MetricName
	case "Object":
		if s.MetricName != "" {
			out = s.MetricName + " of " + orUnknown(s.DescribedObject)
		}
	case "External":
		out = s.MetricName
		if out != "" && s.Selector != "" {
			out += "{" + s.Selector + "}"
		}
	}
	if out == "" {
		return shortName(m.Name)
	}
	return clean(out)
}

func (v *styledView) metrics() {
	short := shortCircuited(v.d)
	for i := range v.d.Metrics {
		v.metric(&v.d.Metrics[i], short)
	}
}

func (v *styledView) metric(m *explain.MetricResult, short bool) {
	binary := isMemory(m)
	v.gap()
	mark := paint(v.th.accent, "▸")
	if m.Error != nil {
		mark = paint(v.th.bad, "✗")
	}
	var prop string
	switch {
	case m.Error != nil:
		prop = paint(v.th.bad, "invalid: "+clean(orUnknown(m.ErrorReason)))
	case m.ProposedReplicas != nil:
		prop = paint(v.th.bold, proposalWords(m))
		if m.Winner && len(v.d.Metrics) > 1 {
			prop += " " + paint(v.th.ok, "★ largest")
		}
	default:
		prop = paint(v.th.dim, none)
	}
	var note string
	if short {
		note = paint(v.th.dim, "(not used: "+string(v.d.Outcome)+" decided)")
	}
	v.flow(mark+" ", 2, "  ", paint(v.th.accent, metricLabel(m)),
		paint(v.th.dim, clean(orUnknown(m.Type))+" · target "+styledTarget(m, binary)), "→ "+prop, note)
	if m.Error != nil {
		for _, l := range wrap(clean(*m.Error), v.width-4) {
			v.add("    " + paint(v.th.dim, l))
		}
	}
	if p := m.Pods; p != nil {
		v.podTable(p, binary)
	}
	if u := m.Usage; u != nil {
		v.kv("usage", usageArithmetic(m, u, binary)...)
		var tol string
		if tc := m.Tolerance; tc != nil {
			tol = v.toleranceVerdict(tc.Lower, tc.Ratio, tc.Upper, tc.Within)
		}
		v.kv("ratio", ratioArithmetic(m, u, binary), tol)
	}
	if f := m.FillIn; f != nil {
		v.kv("fill-in", v.fillInArithmetic(m, f, binary)...)
	}
	if m.Error == nil && m.ProposedReplicas != nil {
		v.kv("proposal", proposalArithmetic(m, v.d.CurrentReplicas))
	}
}

func styledTarget(m *explain.MetricResult, binary bool) string {
	switch {
	case m.TargetUtilization != nil:
		return fmt.Sprintf("%d%% of request", *m.TargetUtilization)
	case m.TargetValue != nil && m.TargetType == "AverageValue":
		return qty(m.TargetValue, binary) + " per pod"
	case m.TargetValue != nil:
		return qty(m.TargetValue, binary)
	default:
		return unknown
	}
}

// podTable prints the pod counts and the per-pod table.
func (v *styledView) podTable(p *explain.PodAccounting, binary bool) {
	var counts []string
	for _, c := range []struct {
		n     int
		class string
	}{{p.Ready, explain.PodReady}, {p.Unready, explain.PodUnready}, {p.Missing, explain.PodMissing}, {p.Ignored, explain.PodIgnored}, {p.Superfluous, explain.PodSuperfluous}} {
		if c.n > 0 || c.class == explain.PodReady {
			counts = append(counts, paint(v.classStyle(c.class), fmt.Sprintf("%d %s", c.n, c.class)))
		}
	}
	v.kv("pods", fmt.Sprintf("%d listed: ", p.Listed)+strings.Join(counts, ", "))
	shown, hidden := visiblePods(p.Entries, v.pods)
	if len(shown) > 0 {
		v.podRows(shown, binary)
	}
	if len(hidden) > 0 && v.pods != PodsNone {
		v.add(strings.Repeat(" ", 4) + paint(v.th.dim, hiddenPodsLine(hidden)))
	}
}

func (v *styledView) podRows(entries []explain.PodEntry, binary bool) {
	type row struct{ name, usage, request, state, reason string }
	rows := make([]row, 0, len(entries))
	hasRequest, hasReason := false, false
	for _, e := range entries {
		r := row{name: clean(e.Name), usage: milliOr(e.UsageMilli, binary, "-"), request: milliOr(e.RequestMilli, binary, "-"), state: clean(orUnknown(e.Class)), reason: clean(e.Reason)}
		if e.FillInMilli != nil {
			r.reason = strings.TrimPrefix(r.reason+"; counted as "+milli(*e.FillInMilli, binary), "; ")
		}
		hasRequest = hasRequest || e.RequestMilli != nil
		hasReason = hasReason || r.reason != ""
		rows = append(rows, r)
	}
	w := row{name: "POD", usage: "USAGE", request: "REQUEST", state: "STATE"}
	wn, wu, wr, ws := len(w.name), len(w.usage), len(w.request), len(w.state)
	for _, r := range rows {
		wn, wu, wr, ws = max(wn, lipgloss.Width(r.name)), max(wu, len(r.usage)), max(wr, len(r.request)), max(ws, len(r.state))
	}
	cell := func(st lipgloss.Style, s string, width int, right bool) string {
		gap := strings.Repeat(" ", max(width-lipgloss.Width(s), 0))
		if right {
			return gap + paint(st, s)
		}
		return paint(st, s) + gap
	}
	line := func(cells ...string) { v.add(strings.Repeat(" ", 4) + strings.Join(cells, "  ")) }
	hdr := []string{cell(v.th.head, "POD", wn, false), cell(v.th.head, "USAGE", wu, true)}
	if hasRequest {
		hdr = append(hdr, cell(v.th.head, "REQUEST", wr, true))
	}
	hdr = append(hdr, cell(v.th.head, "STATE", ws, false))
	if hasReason {
		hdr = append(hdr, paint(v.th.head, "REASON"))
	}
	line(hdr...)
	for _, r := range rows {
		usageStyle := v.th.plain
		if r.usage == "-" {
			usageStyle = v.th.dim
		}
		cells := []string{cell(v.th.plain, r.name, wn, false), cell(usageStyle, r.usage, wu, true)}
		if hasRequest {
			reqStyle := v.th.plain
			if r.request == "-" {
				reqStyle = v.th.dim
			}
			cells = append(cells, cell(reqStyle, r.request, wr, true))
		}
		cells = append(cells, cell(v.classStyle(r.state), r.state, ws, false))
		if hasReason {
			cells = append(cells, paint(v.th.dim, truncate(r.reason, v.width-4-wn-wu-ws-8-boolInt(hasRequest)*(wr+2))))
		}
		line(cells...)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (v *styledView) classStyle(class string) lipgloss.Style {
	switch class {
	case explain.PodReady:
		return v.th.ok
	case explain.PodUnready, explain.PodMissing:
		return v.th.warn
	default:
		return v.th.dim
	}
}

func usageArithmetic(m *explain.MetricResult, u *explain.Usage, binary bool) []string {
	if u.RequestSumMilli != nil {
		util := unknown
		if m.Utilization != nil {
			util = fmt.Sprintf("%d%%", *m.Utilization)
		}
		return []string{fmt.Sprintf("%s used / %s requested = %s", milli(u.SumMilli, binary), milli(*u.RequestSumMilli, binary), util), "(" + samples(u.Count) + ")"}
	}
	if u.Count == 1 && u.SumMilli == u.AverageMilli {
		return []string{"value " + milli(u.AverageMilli, binary)}
	}
	return []string{fmt.Sprintf("%s / %s = %s", milli(u.SumMilli, binary), samples(u.Count), milli(u.AverageMilli, binary))}
}

func samples(n int) string {
	if n == 1 {
		return "1 sample"
	}
	return fmt.Sprintf("%d samples", n)
}

func ratioArithmetic(m *explain.MetricResult, u *explain.Usage, binary bool) string {
	if u.RequestSumMilli != nil {
		util := unknown
		if m.Utilization != nil {
			util = fmt.Sprintf("%d%%", *m.Utilization)
		}
		return fmt.Sprintf("%s / %d%% = %s", util, u.TargetMilli, formatFloat(u.Ratio))
	}
	return fmt.Sprintf("%s / %s = %s", milli(u.AverageMilli, binary), milli(u.TargetMilli, binary), formatFloat(u.Ratio))
}

// toleranceVerdict writes the tolerance test out: "0.90 ≤ 1.43 ≤ 1.10 →
// outside, scale up".
func (v *styledView) toleranceVerdict(lower, ratio, upper float64, within bool) string {
	l, r, u := toleranceNumbers(lower, ratio, upper)
	s := fmt.Sprintf("%s ≤ %s ≤ %s → ", l, r, u)
	switch {
	case within:
		return s + paint(v.th.ok, "within, no change")
	case ratio > upper:
		return s + paint(v.th.bold, "outside, scale up")
	default:
		return s + paint(v.th.bold, "outside, scale down")
	}
}

func (v *styledView) fillInArithmetic(m *explain.MetricResult, f *explain.FillIn, binary bool) []string {
	var who []string
	if p := m.Pods; p != nil {
		if f.UnreadyFilledAsZero && p.Unready > 0 {
			who = append(who, fmt.Sprintf("%d unready as 0", p.Unready))
		}
		if p.Missing > 0 && f.MissingFilledWith != "" && f.MissingFilledWith != "absent" {
			who = append(who, fmt.Sprintf("%d missing as %s", p.Missing, filledWords(f.MissingFilledWith)))
		}
	}
	s := strings.Join(who, ", ")
	if s == "" {
		s = clean(orNone(f.Reason))
	}
	var value string
	switch {
	case f.NewUtilization != nil && m.Usage != nil:
		value = fmt.Sprintf("%d%% / %d%% = %s", *f.NewUtilization, m.Usage.TargetMilli, formatFloat(f.NewRatio))
	case f.NewAverageMilli != nil && m.Usage != nil:
		value = fmt.Sprintf("%s / %s = %s", milli(*f.NewAverageMilli, binary), milli(m.Usage.TargetMilli, binary), formatFloat(f.NewRatio))
	default:
		value = "ratio " + formatFloat(f.NewRatio)
	}
	parts := []string{s + ": " + value}
	if tc := m.Tolerance; tc != nil {
		parts = append(parts, v.toleranceVerdict(tc.Lower, f.NewRatio, tc.Upper, f.Within))
	}
	if f.DirectionFlip {
		parts = append(parts, paint(v.th.warn, "the direction flips"))
	}
	return parts
}

func filledWords(with string) string {
	switch with {
	case "request":
		return "100% of request"
	case "target":
		return "the target"
	default:
		return with
	}
}

// proposalArithmetic writes out how the proposal follows from the ratio,
// when the numbers say so, and otherwise just states it.
func proposalArithmetic(m *explain.MetricResult, current int32) string {
	p := *m.ProposedReplicas
	if f := m.FillIn; f != nil {
		switch {
		case (f.Within || f.DirectionFlip) && p == current:
			return fmt.Sprintf("keep %d", p)
		case f.NewReplicas != nil && f.WrongWay && p == current:
			return fmt.Sprintf("ceil(%s × %d) = %d moves against the ratio: keep %d", ratio4(f.NewRatio), f.Samples, *f.NewReplicas, p)
		case f.NewReplicas != nil && *f.NewReplicas == p && ceilIs(f.NewRatio, int64(f.Samples), p):
			return fmt.Sprintf("ceil(%s × %d pods) = %d", ratio4(f.NewRatio), f.Samples, p)
		}
		return proposalWords(m)
	}
	if tc := m.Tolerance; tc != nil && tc.Within && p == current {
		return fmt.Sprintf("keep %d", p)
	}
	if u := m.Usage; u != nil && u.ReplicaBase > 0 && ceilIs(u.Ratio, int64(u.ReplicaBase), p) {
		return fmt.Sprintf("ceil(%s × %d %s) = %d", ratio4(u.Ratio), u.ReplicaBase, baseWords(u.ReplicaBaseKind), p)
	}
	return proposalWords(m)
}

func ceilIs(ratio float64, base int64, want int32) bool {
	return int64(math.Ceil(ratio*float64(base))) == int64(want)
}

func ratio4(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

func (v *styledView) recommendation() {
	r := v.d.Recommendation
	if r == nil || (r.Total <= 1 && r.Invalid == 0) || shortCircuited(v.d) {
		return
	}
	var props []string
	for i := range v.d.Metrics {
		if p := v.d.Metrics[i].ProposedReplicas; p != nil {
			props = append(props, strconv.Itoa(int(*p)))
		} else {
			props = append(props, paint(v.th.bad, "✗"))
		}
	}
	line := "max(" + strings.Join(props, ", ") + ")"
	var result string
	switch {
	case r.Replicas >= 0:
		result = "= " + paint(v.th.bold, strconv.Itoa(int(r.Replicas)))
	case r.Failed:
		result = paint(v.th.bad, "→ the sync fails")
	}
	v.title("Combined", "")
	v.kvWords("proposals", []string{line, result})
	switch {
	case r.Failed:
		v.kvWrapped("rule", v.th.bad, orNone(r.FailureRule))
	case r.Invalid > 0:
		v.kvWrapped("rule", v.th.warn, "invalid metrics do not block a scale-up or no change")
	}
}

func (v *styledView) normalization() {
	n := v.d.Normalization
	if n == nil {
		return
	}
	v.title("Normalization", fmt.Sprintf("%d → %d (%s path)", n.Input, n.Result, orUnknown(n.Path)))
	st := n.Stabilization
	if n.Path != "legacy" {
		v.kvWords("up window", v.window(st.UpWindowSeconds, st.Considered, true, n.Input, "lowest", st.UpRecommendation))
	}
	down := st.DownRecommendation
	v.kvWords("down window", v.window(st.DownWindowSeconds, st.Considered, false, n.Input, "highest", &down))
	held := fmt.Sprintf("%d  %s", st.Result, orNone(st.Reason))
	t := toneNone
	if st.Result != n.Input {
		t = toneWarn
	}
	res := paint(v.th.tone(t).Bold(true), held)
	if st.HeldUntil != nil {
		res += paint(v.th.tone(t), ", held until "+v.clock(*st.HeldUntil))
	}
	v.kv("stabilized", res)

	l := n.Limits
	v.kvWords("rate limit", v.rateLimit(&l))
	bounds := fmt.Sprintf("min %d, max %d → ", l.Min, l.Max)
	t = toneNone
	if l.Limited {
		t = toneWarn
	}
	bounds += paint(v.th.tone(t).Bold(true), fmt.Sprintf("%d  %s", l.Result, orNone(l.Reason)))
	v.kv("bounds", bounds)
	if n.ScaleFromZeroFloor {
		v.kv("floor", paint(v.th.warn, fmt.Sprintf("scale from zero: raised to minReplicas %d", n.Result)))
	}
}

// window lists the recommendations a stabilization window holds, runs of
// equal values compressed ("8×5"), with the current input and the value it
// yields.
func (v *styledView) window(seconds int32, recs []explain.ConsideredRecommendation, up bool, input int32, pick string, result *int32) []string {
	var vals []string
	for i := 0; i < len(recs); {
		c := recs[i]
		if (up && !c.InUp) || (!up && !c.InDown) {
			i++
			continue
		}
		j := i + 1
		for j < len(recs) && recs[j].Replicas == c.Replicas && recs[j].Seeded == c.Seeded &&
			((up && recs[j].InUp) || (!up && recs[j].InDown)) {
			j++
		}
		s := strconv.Itoa(int(c.Replicas))
		if j-i > 1 {
			s += fmt.Sprintf("×%d", j-i)
		}
		if c.Seeded {
			s += " (seeded)"
		}
		if result != nil && c.Replicas == *result && c.Replicas != input {
			s = paint(v.th.bold, s)
		}
		vals = append(vals, s)
		i = j
	}
	if len(vals) == 0 {
		vals = []string{"nothing"}
	}
	vals[len(vals)-1] += ","
	out := append([]string{fmt.Sprintf("%ds:", seconds)}, vals...)
	res := none
	if result != nil {
		res = strconv.Itoa(int(*result))
	}
	return append(out, fmt.Sprintf("and %d now", input), "→ "+pick+" "+res)
}

func (v *styledView) rateLimit(l *explain.Limits) []string {
	var parts []string
	switch {
	case len(l.Policies) > 0:
		if l.SelectPolicy != "" {
			parts = append(parts, l.SelectPolicy+" of")
		}
		for i := range l.Policies {
			p := &l.Policies[i]
			part := policyName(p) + ": " + policyArithmetic(p, l.Direction)
			if p.Selected {
				part = paint(v.th.bold, part) + " " + paint(v.th.ok, "✓")
			}
			if i < len(l.Policies)-1 {
				part += " ·"
			}
			parts = append(parts, part)
		}
		if l.RateLimit != nil {
			parts = append(parts, "→ "+strconv.Itoa(int(*l.RateLimit)))
		}
	case l.SelectPolicy == "Disabled":
		parts = append(parts, "scaling in this direction is disabled (selectPolicy Disabled)")
	case l.RateLimit != nil:
		parts = append(parts, strconv.Itoa(int(*l.RateLimit)))
	default:
		parts = append(parts, none)
	}
	if l.Direction == "up" || l.Direction == "down" {
		parts = append(parts, paint(v.th.dim, "(scale "+l.Direction+")"))
	}
	return parts
}

func policyName(p *explain.PolicyLimit) string {
	if p.Type == "Percent" {
		return fmt.Sprintf("Percent %d%%/%ds", p.Value, p.PeriodSeconds)
	}
	return fmt.Sprintf("%s %d/%ds", p.Type, p.Value, p.PeriodSeconds)
}

// policyArithmetic writes out a policy's limit from the replicas at the
// start of its period, when the numbers say so.
func policyArithmetic(p *explain.PolicyLimit, direction string) string {
	start, val, limit := int64(p.PeriodStart), int64(p.Value), int64(p.Limit)
	switch {
	case p.Type == "Pods" && direction == "up" && start+val == limit:
		return fmt.Sprintf("%d + %d = %d", start, val, limit)
	case p.Type == "Pods" && direction == "down" && start-val == limit:
		return fmt.Sprintf("%d − %d = %d", start, val, limit)
	case p.Type == "Percent" && direction == "up" && int64(math.Ceil(float64(start)*(1+float64(val)/100))) == limit:
		return fmt.Sprintf("%d × %s = %d", start, formatFull(1+float64(val)/100), limit)
	case p.Type == "Percent" && direction == "down" && int64(float64(start)*(1-float64(val)/100)) == limit:
		return fmt.Sprintf("%d × %s = %d", start, formatFull(1-float64(val)/100), limit)
	default:
		return "limit " + strconv.Itoa(int(limit))
	}
}

func (v *styledView) conditions() {
	cs := v.d.Conditions
	if len(cs) == 0 {
		return
	}
	v.title("Conditions", "")
	wt, ws, wr := 0, 0, 0
	for _, c := range cs {
		wt, ws, wr = max(wt, lipgloss.Width(clean(c.Type))), max(ws, lipgloss.Width(clean(c.Status))), max(wr, lipgloss.Width(clean(c.Reason)))
	}
	for _, c := range cs {
		t := conditionTone(c)
		line := "  " + pad(clean(c.Type), wt) + "  " + pad(paint(v.th.tone(t), clean(c.Status)), ws) + "  " + pad(paint(v.th.tone(t), clean(c.Reason)), wr)
		room := v.width - lipgloss.Width(line) - 2
		v.add(line + "  " + paint(v.th.dim, truncate(clean(c.Message), room)))
	}
}

// conditionTone says whether a condition is good news.
func conditionTone(c explain.Condition) tone {
	switch {
	case c.Status == "Unknown":
		return toneNone
	case c.Type == "ScalingLimited" && c.Status == "True":
		return toneWarn
	case c.Type == "ScalingLimited":
		return toneOK
	case c.Type == "ScalingActive" && c.Reason == "ScalingDisabled":
		return toneWarn
	case c.Status == "True":
		return toneOK
	default:
		return toneBad
	}
}

func (v *styledView) events() {
	es := v.d.Events
	if len(es) == 0 {
		v.title("Events", none)
		return
	}
	v.title("Events", "")
	wt, wr := 0, 0
	for _, e := range es {
		wt, wr = max(wt, lipgloss.Width(clean(e.Type))), max(wr, lipgloss.Width(clean(e.Reason)))
	}
	for _, e := range es {
		st := v.th.dim
		if e.Type == "Warning" {
			st = v.th.warn
		}
		line := "  " + pad(paint(st, clean(e.Type)), wt) + "  " + pad(clean(e.Reason), wr)
		room := v.width - lipgloss.Width(line) - 2
		v.add(line + "  " + paint(v.th.dim, truncate(clean(e.Message), room)))
	}
}

func (v *styledView) assumptions() {
	if len(v.d.Assumptions) == 0 {
		return
	}
	v.title("Assumptions", "")
	for _, a := range v.d.Assumptions {
		v.tail("  "+paint(v.th.warn, "!"), " ", v.th.plain, a, 4)
	}
}

func (v *styledView) agreement() {
	a := v.d.Agreement
	v.gap()
	switch {
	case !a.Checked:
		v.tail(paint(v.th.dim, "·"), " ", v.th.dim, "agreement not checked: the HPA carries no status from the controller yet", 2)
	case a.Agrees:
		v.tail(paint(v.th.ok, "✓"), " ", v.th.ok, "agrees with the status the controller last wrote (desired replicas, conditions, current metrics)", 2)
	default:
		v.tail(paint(v.th.warn, "≠"), " ", v.th.warn, "differs from the status the controller last wrote", 2)
		wf := 0
		for _, d := range a.Differences {
			wf = max(wf, lipgloss.Width(clean(d.Field)))
		}
		indent := strings.Repeat(" ", 2+wf+2)
		var causes []string
		for _, d := range a.Differences {
			c, r := clean(d.Controller), clean(d.Replay)
			field := "  " + pad(clean(d.Field), wf) + "  "
			if lipgloss.Width(field)+lipgloss.Width(c+r)+len("controller  · replay ") <= v.width {
				v.add(field + paint(v.th.dim, "controller ") + c + paint(v.th.dim, " · replay ") + paint(v.th.bold, r))
			} else {
				c, r = elideCommon(c, r, v.width-len(indent)-len("controller "))
				v.add(field + paint(v.th.dim, "controller ") + c)
				v.add(indent + paint(v.th.dim, "replay     ") + paint(v.th.bold, r))
			}
			if d.LikelyCause != "" && !contains(causes, d.LikelyCause) {
				causes = append(causes, d.LikelyCause)
			}
		}
		for _, c := range causes {
			v.tail("  "+paint(v.th.dim, "likely:"), " ", v.th.plain, c, 4)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// clock prints a time of the decision's day as 10:17:45Z, others in full,
// with the offset from now.
func (v *styledView) clock(ts time.Time) string {
	now := v.d.Now
	s := formatTime(ts)
	if now.IsZero() || ts.IsZero() {
		return s
	}
	if y, m, d := ts.UTC().Date(); y == now.UTC().Year() && m == now.UTC().Month() && d == now.UTC().Day() {
		s = ts.UTC().Format("15:04:05.999999999Z")
	}
	switch diff := ts.Sub(now); {
	case diff > 0:
		return s + " (in " + diff.String() + ")"
	case diff < 0:
		return s + " (" + (-diff).String() + " ago)"
	default:
		return s + " (now)"
	}
}
