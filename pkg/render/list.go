// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// KindExplanationList is the kind of the -o json|yaml document of a
// many-HPA explain.
const KindExplanationList = "ExplanationList"

// WriteList writes one summary line per decision (text), or every decision
// in one list document (json, yaml).
func WriteList(w io.Writer, f Format, ds []*explain.Decision, allNamespaces bool) error {
	switch f {
	case FormatJSON, FormatYAML:
		if ds == nil {
			ds = []*explain.Decision{}
		}
		return Encode(w, f, map[string]any{"apiVersion": explain.APIVersion, "kind": KindExplanationList, "items": ds})
	case FormatText:
		// The summary table below.
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	header := []string{"NAME", "REFERENCE", "REPLICAS", "DECIDED BY", "AGREEMENT"}
	if allNamespaces {
		header = append([]string{"NAMESPACE"}, header...)
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, d := range ds {
		row := []string{d.HPA.Name, d.Target.Kind + "/" + d.Target.Name, replicasWords(d), ShortReason(d), agreementWord(d.Agreement)}
		if allNamespaces {
			row = append([]string{d.HPA.Namespace}, row...)
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	return tw.Flush()
}

func replicasWords(d *explain.Decision) string {
	if d.Rescale {
		return fmt.Sprintf("%d → %d", d.CurrentReplicas, d.DesiredReplicas)
	}
	return fmt.Sprint(d.CurrentReplicas)
}

func agreementWord(a explain.Agreement) string {
	switch {
	case !a.Checked:
		return "-"
	case a.Agrees:
		return "agrees"
	}
	fields := make([]string, 0, len(a.Differences))
	for _, d := range a.Differences {
		fields = append(fields, d.Field)
	}
	return "differs (" + strings.Join(fields, ", ") + ")"
}

// ShortReason names, in a few words, the step that decided the outcome.
func ShortReason(d *explain.Decision) string {
	switch d.Outcome {
	case explain.OutcomeFailedGetScale:
		return "cannot read the target's scale"
	case explain.OutcomeScalingDisabled:
		return "target at 0 replicas: autoscaling disabled"
	case explain.OutcomeAboveMax:
		return "replicas above maxReplicas"
	case explain.OutcomeBelowMin:
		return "replicas below minReplicas"
	case explain.OutcomeInvalidSelector:
		return "unusable selector"
	case explain.OutcomeFailedUpdateScale:
		return "scale update fails"
	case explain.OutcomeMetricsFailed:
		for _, m := range d.Metrics {
			if m.Error != nil {
				if p := m.Pods; p != nil && p.Missing > 0 {
					return fmt.Sprintf("metric missing on %d/%d pods", p.Missing, p.Listed)
				}
				return "metric failed: " + m.ErrorReason
			}
		}
		return "metrics failed"
	case explain.OutcomeRescale, explain.OutcomeNoChange:
	}
	if n := d.Normalization; n != nil {
		if n.Limits.Limited {
			return "limited by " + limitName(n.Limits.Reason)
		}
		if st := n.Stabilization; st.Result != n.Input {
			dir := "scale-down"
			if st.Reason == "ScaleUpStabilized" {
				dir = "scale-up"
			}
			s := "held by " + dir + " stabilization"
			if st.HeldUntil != nil {
				s += " until " + st.HeldUntil.UTC().Format(time.TimeOnly)
			}
			return s
		}
	}
	for _, m := range d.Metrics {
		if p := m.Pods; m.Winner && p != nil && p.Missing > 0 {
			return fmt.Sprintf("metric missing on %d/%d pods", p.Missing, p.Listed)
		}
	}
	if d.Rescale {
		for _, m := range d.Metrics {
			if m.Winner {
				return "scaling on " + m.Name
			}
		}
		return "scaling"
	}
	for _, m := range d.Metrics {
		if m.Winner && m.Tolerance != nil && m.Tolerance.Within {
			return "within tolerance"
		}
	}
	return "at target"
}

func limitName(reason string) string {
	switch reason {
	case "TooManyReplicas":
		return "maxReplicas"
	case "TooFewReplicas":
		return "minReplicas"
	case "ScaleUpLimit":
		return "scale-up rate"
	case "ScaleDownLimit":
		return "scale-down rate"
	}
	return reason
}
