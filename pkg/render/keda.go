// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// WriteKEDA renders the KEDA part of a ScaledObject that has no HPA to
// replay (explain scaledobject/NAME of a paused object): text, or a
// KEDAExplanation document.
func WriteKEDA(w io.Writer, f Format, k *explain.KEDA, opts Options) error {
	if k == nil {
		return fmt.Errorf("no KEDA part to render")
	}
	switch f {
	case FormatJSON, FormatYAML:
		return Encode(w, f, &explain.KEDAExplanation{APIVersion: explain.APIVersion, Kind: explain.KindKEDA, KEDA: k})
	case FormatText, "":
	default:
		return fmt.Errorf("unknown output format %q", f)
	}
	var out []byte
	if opts.Color {
		v := &styledView{th: newTheme(w, opts.Palette), width: max(opts.Width, minWidth), pods: opts.Pods}
		if opts.Width <= 0 {
			v.width = DefaultWidth
		}
		v.keda(k, true)
		out = []byte(strings.Join(v.lines, "\n") + "\n")
	} else {
		t := &textView{d: &explain.Decision{Now: k.Now}, opts: opts}
		t.fields(0,
			field{"ScaledObject", kedaObjectWords(k)},
			field{"Reference", objectName(k.Target.Kind, k.Target.Name) + " (" + k.Target.APIVersion + ")"},
			field{"Now", formatTime(k.Now)},
			field{"HPA", "none: " + noHPAWords(k)},
		)
		t.keda(k)
		t.flush()
		out = []byte(t.b.String())
	}
	_, err := w.Write(out)
	return err
}

// noHPAWords says why a ScaledObject has no HPA to replay.
func noHPAWords(k *explain.KEDA) string {
	if k.Pause.Paused {
		return "KEDA deleted it while the object is paused"
	}
	return "KEDA has not written it"
}

// keda is the text view's KEDA section: the poll replayed, with the
// triggers, the steps, what KEDA's metrics server answers the HPA, the
// conditions and events KEDA writes.
func (t *textView) keda(k *explain.KEDA) {
	if k == nil {
		return
	}
	t.section("KEDA (one poll of its operator, replayed)")
	fs := []field{
		{"ScaledObject", kedaObjectWords(k)},
		{"Reason", string(k.Reason)},
		{"Summary", orNone(k.Summary)},
		{"Active", kedaActiveWords(k)},
		{"Replicas", kedaReplicasWords(k)},
	}
	if s := kedaScaleToZeroWords(k, k.Now); s != "" {
		fs = append(fs, field{"Scale to zero", s})
	}
	fs = append(fs,
		field{"Polling", kedaPollingWords(k)},
		field{"Cooldown", kedaCooldownWords(k)},
		field{"Bounds", kedaBoundsWords(k)},
	)
	if k.LastActiveTime != nil {
		fs = append(fs, field{"Last active", t.when(*k.LastActiveTime)})
	}
	if p := k.Pause; len(p.Annotations) > 0 {
		var parts []string
		for _, a := range slices.Sorted(maps.Keys(p.Annotations)) {
			parts = append(parts, a+"="+p.Annotations[a])
		}
		fs = append(fs, field{"Annotations", strings.Join(parts, ", ")})
	}
	if f := k.Fallback; f != nil {
		fs = append(fs, field{"Fallback", kedaFallbackWords(f)})
	}
	if m := k.ScalingModifiers; m != nil {
		fs = append(fs, field{"Formula", kedaFormulaWords(m)})
	}
	t.fields(1, fs...)
	if len(k.Triggers) > 0 {
		t.line(1, "Triggers:")
		rows := make([][]string, 0, len(k.Triggers))
		for i := range k.Triggers {
			rows = append(rows, kedaTriggerRow(&k.Triggers[i]))
		}
		t.table(2, kedaTriggerHeader, rows)
		for i := range k.Triggers {
			if e := k.Triggers[i].Error; e != "" {
				t.line(2, fmt.Sprintf("- trigger %d: %s", k.Triggers[i].Index, clean(e)))
			}
		}
	}
	t.line(1, "Steps:")
	for i, s := range k.Steps {
		t.line(2, strconv.Itoa(i+1)+". "+clean(s.Text))
	}
	if len(k.HPAMetrics) > 0 {
		head := "KEDA's metrics server answers the HPA:"
		switch ms := k.ExternalMetricsServer; {
		case ms != nil && ms.Missing:
			head = "KEDA's metrics server would answer (the HPA cannot ask it: no server serves external.metrics.k8s.io):"
		case ms != nil && !ms.KEDA:
			head = "KEDA's metrics server would answer (the HPA does not ask it: another server serves external.metrics.k8s.io):"
		}
		t.line(1, head)
		for i := range k.HPAMetrics {
			t.line(2, "- "+kedaMetricWords(&k.HPAMetrics[i]))
		}
	}
	if len(k.Conditions) > 0 {
		t.line(1, "ScaledObject conditions KEDA writes:")
		rows := make([][]string, 0, len(k.Conditions))
		for _, c := range k.Conditions {
			rows = append(rows, []string{c.Type, c.Status, orDash(c.Reason), clean(c.Message)})
		}
		t.table(2, []string{"Type", "Status", "Reason", "Message"}, rows)
	}
	if len(k.Events) > 0 {
		t.line(1, "Events KEDA emits:")
		rows := make([][]string, 0, len(k.Events))
		for _, e := range k.Events {
			rows = append(rows, []string{e.Type, e.Reason, clean(e.Message)})
		}
		t.table(2, []string{"Type", "Reason", "Message"}, rows)
	}
	if len(k.Assumptions) > 0 {
		t.line(1, "Assumptions:")
		for _, a := range k.Assumptions {
			t.line(2, "- "+clean(a))
		}
	}
}

// keda is the styled view's KEDA block: a badge line, the replicas once
// KEDA and the HPA act, the triggers and the steps. alone is true when no
// HPA explanation follows.
func (v *styledView) keda(k *explain.KEDA, alone bool) {
	if k == nil {
		return
	}
	label, tn := kedaVerdict(k)
	v.gap()
	prefix := paint(v.th.badge[tn], " "+label+" ") + " " + paint(v.th.bold, clean(objectName(k.ScaledObject.Namespace, k.ScaledObject.Name)))
	if k.Replicas != nil {
		prefix += "  " + paint(v.th.tone(tn).Bold(true), fmt.Sprintf("%d → %d", k.CurrentReplicas, *k.Replicas))
	}
	v.tail(prefix, "  ", v.th.plain, k.Summary, 2)
	ctx := []string{objectName(k.Target.Kind, k.Target.Name), "KEDA " + orUnknown(k.KEDAVersion), "polling " + kedaPollingWords(k)}
	if alone {
		ctx = append(ctx, "no HPA: "+noHPAWords(k))
	}
	v.tail("", "  ", v.th.dim, strings.Join(ctx, " · "), 2)
	v.kvWrapped("replicas", v.th.plain, kedaReplicasWords(k))
	if s := kedaScaleToZeroWords(k, k.Now); s != "" {
		v.kvWrapped("to zero", v.th.warn, s)
	}
	v.kvWrapped("cooldown", v.th.plain, kedaCooldownWords(k))
	if f := k.Fallback; f != nil {
		v.kvWrapped("fallback", v.th.plain, kedaFallbackWords(f))
	}
	if m := k.ScalingModifiers; m != nil {
		v.kvWrapped("formula", v.th.plain, kedaFormulaWords(m))
	}
	tb := &table{}
	tb.row(kedaTriggerHeader...)
	for i := range k.Triggers {
		tb.row(kedaTriggerRow(&k.Triggers[i])...)
	}
	for i, l := range tb.lines() {
		if i == 0 {
			l = paint(v.th.head, l)
		}
		v.add("  " + truncate(l, v.width-2))
	}
	for _, s := range k.Steps {
		v.tail("  "+paint(v.th.accent, "›"), " ", v.th.plain, s.Text, 4)
	}
	for _, a := range k.Assumptions {
		v.tail("  "+paint(v.th.warn, "!"), " ", v.th.plain, a, 4)
	}
}

// WriteExplanation renders an explain result: the decision (with its KEDA
// part), or KEDA's part alone when there is no HPA to replay (k, with d
// nil).
func WriteExplanation(w io.Writer, f Format, d *explain.Decision, k *explain.KEDA, opts Options) error {
	if d == nil && k != nil {
		return WriteKEDA(w, f, k, opts)
	}
	return Write(w, f, d, opts)
}

// ---- KEDA's vocabulary (the words of vocab.go for KEDA's part) ----

// kedaCell is the KEDA column of a list row: KEDA's reason at the poll and,
// when the replicas move, where KEDA and the HPA take them ("-" without a
// ScaledObject).
func kedaCell(k *explain.KEDA) string {
	if k == nil {
		return "-"
	}
	s := string(k.Reason)
	if k.Reason == explain.KEDAReasonCooldown && k.ScaleToZeroAt != nil {
		s += fmt.Sprintf(" (→%d after %s)", k.Bounds.DeactivationReplicas, k.ScaleToZeroAt.UTC().Format(time.TimeOnly))
	} else if k.Replicas != nil && *k.Replicas != k.CurrentReplicas {
		s += fmt.Sprintf(" (→%d)", *k.Replicas)
	}
	return s
}

// kedaReplicasWords says what the workload will have once KEDA and the
// HPA act: "6 → 0 (KEDA scales 6 → 0; the HPA keeps 0)".
func kedaReplicasWords(k *explain.KEDA) string {
	var steps []string
	switch {
	case k.KEDAScaleTo != nil:
		steps = append(steps, fmt.Sprintf("KEDA scales %d → %d", k.CurrentReplicas, *k.KEDAScaleTo))
	default:
		steps = append(steps, "KEDA writes nothing")
	}
	switch {
	case !k.HPAActs:
		steps = append(steps, "no HPA acts (paused)")
	case k.Replicas == nil:
		steps = append(steps, "the HPA is not replayed")
	case *k.Replicas == k.ReplicasAfterKEDA:
		steps = append(steps, fmt.Sprintf("the HPA keeps %d", *k.Replicas))
	default:
		steps = append(steps, fmt.Sprintf("the HPA takes %d → %d", k.ReplicasAfterKEDA, *k.Replicas))
	}
	total := unknown
	if k.Replicas != nil {
		total = strconv.Itoa(int(*k.Replicas))
	}
	return fmt.Sprintf("%d → %s (%s)", k.CurrentReplicas, total, strings.Join(steps, "; "))
}

// kedaActiveWords is the activation decision: "yes", "no", "yes (forced)".
func kedaActiveWords(k *explain.KEDA) string {
	s := yesNo(k.Active)
	if k.Pause.ForceActivation {
		s += " (forced by autoscaling.keda.sh/force-activation)"
	}
	return s
}

// kedaObjectWords names the ScaledObject and the release replayed.
func kedaObjectWords(k *explain.KEDA) string {
	s := objectName(k.ScaledObject.Namespace, k.ScaledObject.Name)
	v := orUnknown(k.KEDAVersion)
	if k.KEDAVersionSource != "" {
		v += " from " + k.KEDAVersionSource
	}
	return s + " (KEDA " + v + ")"
}

// kedaPollingWords: "every 30s; it can move the workload (minReplicaCount
// 0)" or "every 30s; it changes nothing: the HPA does all the scaling".
func kedaPollingWords(k *explain.KEDA) string {
	s := fmt.Sprintf("every %ds", k.Polling.IntervalSeconds)
	if !k.Polling.Relevant {
		s += "; changes nothing: minReplicaCount ≥ 1 without idleReplicaCount, the HPA does all the scaling"
	}
	if k.Polling.Source == explain.KEDASourceHPAObservation {
		s += "; values from the HPA's last observation"
	}
	return s
}

// kedaCooldownWords: the cooldown that governs the step to zero.
func kedaCooldownWords(k *explain.KEDA) string {
	c := k.Cooldown
	period, from := c.PeriodSeconds, "lastActiveTime"
	if c.CountsFrom == explain.KEDACooldownFromCreation {
		period, from = c.InitialPeriodSeconds, "creation (initialCooldownPeriod; never active)"
	}
	s := fmt.Sprintf("%ds from %s", period, from)
	if c.Since != nil {
		s += " " + c.Since.UTC().Format(time.RFC3339)
	}
	switch {
	case c.Running:
		s += fmt.Sprintf("; running until %s", c.Until.UTC().Format(time.RFC3339))
	case c.Applies:
		s += "; over"
	default:
		s += "; only governs the step to zero, not reached at this poll"
	}
	return s
}

// kedaBoundsWords: "min 0, max 10, idle -; the HPA: min 1, max 10".
func kedaBoundsWords(k *explain.KEDA) string {
	b := k.Bounds
	return fmt.Sprintf("minReplicaCount %d, maxReplicaCount %d, idleReplicaCount %s; KEDA's HPA: min %d, max %d",
		b.MinReplicaCount, b.MaxReplicaCount, int32Or(b.IdleReplicaCount, "-"), b.HPAMinReplicas, b.HPAMaxReplicas)
}

// kedaScaleToZeroWords: when KEDA scales to zero (or idle), if the
// triggers stay inactive.
func kedaScaleToZeroWords(k *explain.KEDA, now time.Time) string {
	if k.ScaleToZeroAt == nil {
		return ""
	}
	s := fmt.Sprintf("→ %d at the first poll after %s", k.Bounds.DeactivationReplicas, timeWords(*k.ScaleToZeroAt, now, timeClock))
	if k.ScaleToZeroBy != nil {
		s += ", by " + timeWords(*k.ScaleToZeroBy, now, timeClock)
	}
	return s + ", if the triggers stay inactive"
}

// kedaTriggerRow is one trigger in a table: index, name, type, metric,
// value, activation threshold, activity and how it was decided.
func kedaTriggerRow(tr *explain.KEDATrigger) []string {
	value := "-"
	if tr.Value != nil {
		value = formatFull(*tr.Value)
	}
	if tr.Error != "" {
		value = "error"
	}
	threshold := "-"
	if tr.ActivationThreshold != nil {
		threshold = tr.ActivationParameter + " " + formatFull(*tr.ActivationThreshold)
	}
	target := "-"
	switch {
	case tr.Target != nil:
		target = tr.MetricType + " " + tr.Target.String()
	case tr.TargetUtilization != nil:
		target = percent(*tr.TargetUtilization)
	}
	return []string{strconv.Itoa(tr.Index), orDash(clean(tr.Name)), clean(tr.Type), orDash(clean(tr.MetricName)), target, value, threshold, yesNo(tr.Active) + " (" + tr.ActivitySource + ")"}
}

// kedaTriggerHeader heads kedaTriggerRow.
var kedaTriggerHeader = []string{"#", "NAME", "TYPE", "METRIC", "TARGET", "VALUE", "ACTIVATION", "ACTIVE"}

// kedaMetricWords is what KEDA's metrics server answers the HPA for one
// metric: "s0-metric-api-value = 25", "= 60 (fallback)", "error: ...".
func kedaMetricWords(m *explain.KEDAMetricValue) string {
	switch {
	case m.Error != "":
		return clean(m.MetricName) + ": error: " + clean(m.Error)
	case m.Value == nil:
		return clean(m.MetricName) + ": " + unknown
	case m.Fallback:
		return clean(m.MetricName) + " = " + m.Value.String() + " (fallback value)"
	default:
		return clean(m.MetricName) + " = " + m.Value.String()
	}
}

// kedaVerdict is the badge and tone of KEDA's reason.
func kedaVerdict(k *explain.KEDA) (string, tone) {
	switch k.Reason {
	case explain.KEDAReasonActive:
		return "KEDA ACTIVE", toneOK
	case explain.KEDAReasonInactive:
		return "KEDA INACTIVE", toneNone
	case explain.KEDAReasonCooldown:
		return "KEDA COOLDOWN", toneWarn
	case explain.KEDAReasonFallback:
		return "KEDA FALLBACK", toneWarn
	case explain.KEDAReasonPaused:
		return "KEDA PAUSED", toneWarn
	case explain.KEDAReasonError:
		return "KEDA ERROR", toneBad
	default:
		return "KEDA", toneNone
	}
}

// kedaFallbackWords: "after 3 failures: 5 replicas (static); active: s0-... 4 failures".
func kedaFallbackWords(f *explain.KEDAFallback) string {
	s := fmt.Sprintf("%d replicas (%s) after more than %d failures", f.Replicas, f.Behavior, f.FailureThreshold)
	if !f.Valid {
		s += "; ignored by KEDA"
	}
	var counts []string
	for _, m := range f.Metrics {
		c := fmt.Sprintf("%s %d → %d failures", clean(m.MetricName), m.FailuresBefore, m.FailuresAfter)
		if m.FallbackActive {
			c += " (falling back)"
		}
		counts = append(counts, c)
	}
	if len(counts) > 0 {
		s += "; " + strings.Join(counts, ", ")
	}
	return s
}

// kedaFormulaWords: the scalingModifiers formula, its value and activation.
func kedaFormulaWords(m *explain.KEDAScalingModifiers) string {
	s := fmt.Sprintf("%q, target %s (%s)", m.Formula, orUnknown(m.Target), m.MetricType)
	if m.ActivationTarget != "" {
		s += ", activationTarget " + m.ActivationTarget
	}
	switch {
	case m.Error != "":
		s += "; error: " + clean(m.Error)
	case m.Value != nil:
		s += fmt.Sprintf("; value %s, %s", formatFull(*m.Value), map[bool]string{true: "active", false: "inactive"}[m.Active])
	}
	return s
}

// kedaCompareRows are whatif's rows of KEDA's part, before and after: the
// triggers' values and activity, KEDA's reason and its write, and the
// replicas once KEDA and the HPA act.
func kedaCompareRows(b, a *explain.KEDA) [][3]string {
	cell := func(k *explain.KEDA, f func(*explain.KEDA) string) string {
		if k == nil {
			return "-"
		}
		return f(k)
	}
	var rows [][3]string
	n := 0
	if b != nil {
		n = len(b.Triggers)
	}
	if a != nil {
		n = max(n, len(a.Triggers))
	}
	for i := 0; i < n; i++ {
		trig := func(k *explain.KEDA) string {
			if i >= len(k.Triggers) {
				return "-"
			}
			tr := &k.Triggers[i]
			r := kedaTriggerRow(tr)
			return r[5] + " (" + r[6] + "): " + map[bool]string{true: "active", false: "inactive"}[tr.Active]
		}
		label := "KEDA trigger " + strconv.Itoa(i)
		if a != nil && i < len(a.Triggers) && a.Triggers[i].MetricName != "" {
			label += " " + clean(a.Triggers[i].MetricName)
		}
		rows = append(rows, [3]string{label, cell(b, trig), cell(a, trig)})
	}
	write := func(k *explain.KEDA) string {
		s := string(k.Reason)
		if k.KEDAScaleTo != nil {
			s += fmt.Sprintf(": KEDA scales %d → %d", k.CurrentReplicas, *k.KEDAScaleTo)
		} else if k.ScaleToZeroAt != nil {
			s += fmt.Sprintf(": → %d after %s", k.Bounds.DeactivationReplicas, k.ScaleToZeroAt.UTC().Format(time.TimeOnly))
		}
		return s
	}
	replicas := func(k *explain.KEDA) string {
		if k.Replicas == nil {
			return unknown
		}
		return fmt.Sprintf("%d → %d", k.CurrentReplicas, *k.Replicas)
	}
	rows = append(rows,
		[3]string{"KEDA poll", cell(b, write), cell(a, write)},
		[3]string{"KEDA + HPA replicas", cell(b, replicas), cell(a, replicas)})
	return rows
}
