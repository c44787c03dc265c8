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
