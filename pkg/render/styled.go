// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"

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
	v := &styledView{d: d, th: newTheme(w, opts.Palette), width: max(width, minWidth), pods: opts.Pods, listPods: opts.ListPods}
	v.verdict()
	v.keda(d.KEDA, false)
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
	// listPods is Options.ListPods.
	listPods string
	lines    []string
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
		if ansi.StringWidth(next) <= v.width {
			line, empty = next, false
			continue
		}
		if !empty {
			v.add(line)
			line = strings.Repeat(" ", indent)
		}
		line += ansi.Truncate(p, v.width-ansi.StringWidth(line), "…")
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
	first := v.width - ansi.StringWidth(prefix) - ansi.StringWidth(sep)
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

// verdictWords returns the badge, its tone and the reason of the verdict,
// from the step that decided.
func (v *styledView) verdictWords() (string, tone, string) {
	d := v.d
	switch k := d.DecidedBy.Kind; {
	case k == explain.DecidedByFailure && d.Outcome == explain.OutcomeMetricsFailed:
		return "FAILED", toneBad, v.metricsFailedWhy()
	case k == explain.DecidedByFailure:
		return "FAILED", toneBad, orNone(d.Summary)
	case k == explain.DecidedByDisabled:
		return "DISABLED", toneWarn, orNone(d.Summary)
	case limiting(k) && shortCircuited(d):
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

// normalWhy is the verdict of a sync that ran: what the metrics want, and
// the step that bounded it, if one did.
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
		if r.WinningIndex >= 0 && r.WinningIndex < len(d.Metrics) {
			name = metricName(&d.Metrics[r.WinningIndex])
		}
		p := fmt.Sprintf("%s wants %d", orUnknown(name), r.Replicas)
		if r.Total > 1 {
			p += fmt.Sprintf(" (largest of %d)", r.Total)
		}
		if m := winner(d); m != nil && d.DecidedBy.Kind == explain.DecidedByTolerance && m.Tolerance != nil {
			p = fmt.Sprintf("%s within tolerance (ratio %s)", name, formatFloat(float64(m.Tolerance.Ratio)))
		}
		parts = append(parts, p)
		if r.Invalid > 0 {
			parts = append(parts, fmt.Sprintf("%d of %d failed", r.Invalid, r.Total))
			t = toneBad
		}
	}
	k := d.DecidedBy.Kind
	if s := boundWords(d, timeClock); s != "" {
		parts = append(parts, s)
	}
	if holding(k) || limiting(k) {
		t = max(t, toneWarn)
	}
	switch {
	case d.Rescale:
	case holding(k):
		label = "HELD"
	case limiting(k):
		label = "LIMITED"
	}
	if len(parts) == 0 {
		return label, t, orNone(d.Summary)
	}
	return label, t, strings.Join(parts, "; ")
}

func (v *styledView) metrics() {
	short := shortCircuited(v.d)
	for i := range v.d.Metrics {
		v.metric(&v.d.Metrics[i], short)
	}
}

func (v *styledView) metric(m *explain.MetricResult, short bool) {
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
		paint(v.th.dim, clean(orUnknown(m.Type))+" · target "+targetWords(m, targetPerPod)), "→ "+prop, note)
	if m.Error != nil {
		for _, l := range wrap(clean(*m.Error), v.width-4) {
			v.add("    " + paint(v.th.dim, l))
		}
	}
	if p := m.Pods; p != nil {
		v.podTable(p, m.Unit)
	}
	if u := m.Usage; u != nil {
		v.kv("usage", usageArithmetic(m, u)...)
		var tol string
		if tc := m.Tolerance; tc != nil {
			tol = v.toleranceVerdict(tc, tc.Ratio, tc.Within)
		}
		v.kv("ratio", ratioWords(m, u), tol)
	}
	if f := m.FillIn; f != nil {
		v.kv("fill-in", v.fillInArithmetic(m, f)...)
	}
	if m.Error == nil && m.ProposedReplicas != nil {
		v.kv("proposal", proposalArithmetic(m, v.d.CurrentReplicas))
	}
}

// podTable prints the pod counts and the per-pod table.
func (v *styledView) podTable(p *explain.PodAccounting, unit explain.MetricUnit) {
	var counts []string
	for _, c := range podClasses {
		if n := classCount(p, c); n > 0 || c == explain.PodReady {
			counts = append(counts, paint(v.classStyle(c), fmt.Sprintf("%d %s", n, c)))
		}
	}
	v.kv("pods", fmt.Sprintf("%d listed: ", p.Listed)+strings.Join(counts, ", "))
	shown, hidden := visiblePods(p.Entries, v.pods)
	if len(shown) > 0 {
		v.podRows(shown, unit)
	}
	if len(hidden) > 0 && v.pods != PodsNone {
		v.add(strings.Repeat(" ", 4) + paint(v.th.dim, hiddenPodsLine(hidden, v.listPods)))
	}
}

// podRows prints one row per pod: its usage and request (right-aligned),
// its class and, when any pod has one, the reason, cut to the width.
func (v *styledView) podRows(entries []explain.PodEntry, unit explain.MetricUnit) {
	hasRequest, hasReason := false, false
	reasons := make([]string, len(entries))
	for i, e := range entries {
		reasons[i] = clean(e.Reason)
		if e.FillInMilli != nil {
			reasons[i] = strings.TrimPrefix(reasons[i]+"; counted as "+milli(*e.FillInMilli, unit), "; ")
		}
		hasRequest = hasRequest || e.RequestMilli != nil
		hasReason = hasReason || reasons[i] != ""
	}
	value := func(p *int64) string {
		if p == nil {
			return paint(v.th.dim, "-")
		}
		return paint(v.th.plain, milli(*p, unit))
	}
	tb := &table{}
	tb.alignRight(1)
	hdr := []string{"POD", "USAGE", "REQUEST", "STATE"}
	if hasRequest {
		tb.alignRight(2)
	} else {
		hdr = slices.Delete(hdr, 2, 3)
	}
	for i := range hdr {
		hdr[i] = paint(v.th.head, hdr[i])
	}
	tb.row(hdr...)
	for _, e := range entries {
		cells := []string{paint(v.th.plain, clean(e.Name)), value(e.UsageMilli)}
		if hasRequest {
			cells = append(cells, value(e.RequestMilli))
		}
		state := clean(orUnknown(e.Class))
		tb.row(append(cells, paint(v.classStyle(state), state))...)
	}
	if hasReason {
		for i := range tb.rows {
			tb.rows[i] = append(tb.rows[i], "")
		}
		room := tb.room(v.width, 4, len(tb.rows[0]))
		tb.rows[0][len(hdr)] = paint(v.th.head, "REASON")
		for i := range entries {
			tb.rows[i+1][len(hdr)] = paint(v.th.dim, truncate(reasons[i], room))
		}
	}
	for _, l := range tb.lines() {
		v.add(strings.Repeat(" ", 4) + l)
	}
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

// toleranceVerdict writes the tolerance test out: "0.90 ≤ 1.43 ≤ 1.10 →
// outside, scale up".
func (v *styledView) toleranceVerdict(tc *explain.ToleranceCheck, ratio explain.Ratio, within bool) string {
	if !ratio.Finite() {
		return "→ " + paint(v.th.bold, "no ratio to test: the count is computed")
	}
	s := checkTest(tc, float64(ratio)) + " → "
	switch {
	case within:
		return s + paint(v.th.ok, "within, no change")
	case ratio > 1:
		return s + paint(v.th.bold, "outside, scale up")
	default:
		return s + paint(v.th.bold, "outside, scale down")
	}
}

func (v *styledView) fillInArithmetic(m *explain.MetricResult, f *explain.FillIn) []string {
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
		value = fmt.Sprintf("%s / %d%% = %s", percent(*f.NewUtilization), m.Usage.TargetMilli, formatFloat(float64(f.NewRatio)))
	case f.NewAverageMilli != nil && m.Usage != nil:
		value = fmt.Sprintf("%s / %s = %s", milli(*f.NewAverageMilli, m.Unit), milli(m.Usage.TargetMilli, m.Unit), formatFloat(float64(f.NewRatio)))
	default:
		value = "ratio " + formatFloat(float64(f.NewRatio))
	}
	parts := []string{s + ": " + value}
	if tc := m.Tolerance; tc != nil {
		parts = append(parts, v.toleranceVerdict(tc, f.NewRatio, f.Within))
	}
	if f.DirectionFlip {
		parts = append(parts, paint(v.th.warn, "the direction flips"))
	}
	return parts
}

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
		res += paint(v.th.tone(t), ", held until "+timeWords(*st.HeldUntil, v.d.Now, timeClock))
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
			part := policyWords(p) + ": " + policyArithmetic(p, l.Direction)
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
	case l.SelectPolicy == string(autoscalingv2.DisabledPolicySelect):
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

func (v *styledView) conditions() {
	cs := v.d.Conditions
	if len(cs) == 0 {
		return
	}
	v.title("Conditions", "")
	tb := &table{}
	for _, c := range cs {
		st := v.th.tone(conditionTone(c))
		tb.row(clean(c.Type), paint(st, clean(c.Status)), paint(st, clean(c.Reason)), "")
	}
	v.cutLast(tb, func(i, room int) string { return paint(v.th.dim, truncate(clean(cs[i].Message), room)) })
}

// cutLast fills the last column of each row of tb, indented by two, with
// what fill gives for the room left on the line, and adds the lines.
func (v *styledView) cutLast(tb *table, fill func(i, room int) string) {
	for i, r := range tb.rows {
		tb.rows[i][len(r)-1] = fill(i, tb.room(v.width, 2, len(r)))
	}
	for _, l := range tb.lines() {
		v.add("  " + l)
	}
}

// conditionTone says whether a condition is good news.
func conditionTone(c explain.Condition) tone {
	limited := c.Type == string(autoscalingv2.ScalingLimited)
	switch {
	case c.Status == string(corev1.ConditionUnknown):
		return toneNone
	case limited && c.Status == string(corev1.ConditionTrue):
		return toneWarn
	case limited:
		return toneOK
	case c.Type == string(autoscalingv2.ScalingActive) && c.Reason == explain.ReasonScalingDisabled:
		return toneWarn
	case c.Status == string(corev1.ConditionTrue):
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
	tb := &table{}
	for _, e := range es {
		st := v.th.dim
		if e.Type == corev1.EventTypeWarning {
			st = v.th.warn
		}
		tb.row(paint(st, clean(e.Type)), clean(e.Reason), "")
	}
	v.cutLast(tb, func(i, room int) string { return paint(v.th.dim, truncate(clean(es[i].Message), room)) })
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
		v.tail(paint(v.th.dim, "·"), " ", v.th.dim, "agreement not checked: "+notCheckedWords(a, "the HPA carries no status from the controller yet"), 2)
	case a.Agrees:
		v.tail(paint(v.th.ok, "✓"), " ", v.th.ok, "agrees with the status the controller last wrote (desired replicas, conditions, current metrics)", 2)
	default:
		v.tail(paint(v.th.warn, "≠"), " ", v.th.warn, "differs from the status the controller last wrote", 2)
		tb := &table{}
		for _, d := range a.Differences {
			tb.row(clean(d.Field), "")
		}
		room := tb.room(v.width, 2, 2)
		tb.rows = nil
		var causes []string
		for _, d := range a.Differences {
			c, r := clean(d.Controller), clean(d.Replay)
			field := clean(d.Field)
			if ansi.StringWidth(c+r)+len("controller  · replay ") <= room {
				tb.row(field, paint(v.th.dim, "controller ")+c+paint(v.th.dim, " · replay ")+paint(v.th.bold, r))
			} else {
				c, r = elideCommon(c, r, room-len("controller "))
				tb.row(field, paint(v.th.dim, "controller ")+c)
				tb.row("", paint(v.th.dim, "replay     ")+paint(v.th.bold, r))
			}
			if d.LikelyCause != "" && !slices.Contains(causes, d.LikelyCause) {
				causes = append(causes, d.LikelyCause)
			}
		}
		for _, l := range tb.lines() {
			v.add("  " + l)
		}
		for _, c := range causes {
			v.tail("  "+paint(v.th.dim, "likely:"), " ", v.th.plain, c, 4)
		}
		if stale(a) {
			v.tail(paint(v.th.warn, "!"), " ", v.th.warn, "stale status: "+staleWords(a.Sync, v.d.Now, timeClock), 2)
		}
	}
}
