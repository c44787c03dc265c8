// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

import "fmt"

// The sentences of KEDA's part that the replay of a ScaledObject writes
// into the model (summaries, assumptions, steps): they are fields of the
// -o json document, so they are worded here rather than at render time.

// Words names who serves external.metrics.k8s.io.
func (ms *KEDAMetricsServer) Words() string {
	if ms.Missing {
		return "nobody (no APIService v1beta1.external.metrics.k8s.io)"
	}
	if ms.Service == "" {
		return "the API server itself (no Service)"
	}
	return "Service " + ms.Service
}

// NoteForeignMetricsServer says in k's summary and assumptions that ms,
// not KEDA's metrics server, serves external.metrics.k8s.io.
func (k *KEDA) NoteForeignMetricsServer(ms *KEDAMetricsServer) {
	k.Summary += fmt.Sprintf(" But the HPA does not read KEDA's metrics server: v1beta1.external.metrics.k8s.io is served by %s (only one server can serve it), so its External metrics are not KEDA's.", ms.Words())
	k.Assumptions = append(k.Assumptions, fmt.Sprintf("v1beta1.external.metrics.k8s.io is served by %s, not KEDA's metrics server: the HPA never reads the values KEDA answers (usually <unknown>); its next sync is replayed from what it does read", ms.Words()))
}

// NoteHPAMissing says that KEDA's HPA hpa is not there to replay.
func (k *KEDA) NoteHPAMissing(hpa string) {
	k.Assumptions = append(k.Assumptions, fmt.Sprintf("KEDA's HPA %s is not there (not written yet, or deleted): what the HPA would do is not replayed", hpa))
}

// KEDAValueNotRead is the note on a trigger whose value was not read
// because ms, not KEDA's metrics server, answers for it.
func KEDAValueNotRead(metric string, ms *KEDAMetricsServer) string {
	return fmt.Sprintf("%s: its value was not read: external.metrics.k8s.io is served by %s, not KEDA's metrics server", metric, ms.Words())
}

// KEDAFallbackAnswered is the note on a trigger whose value read is the
// fallback value KEDA's metrics server answered, not the trigger's.
func KEDAFallbackAnswered(metric string, value float64, failures int32) string {
	return fmt.Sprintf("%s: KEDA's metrics server answered %v, the fallback value of a trigger that status.health counts as failing %d times; the trigger's error itself was not read", metric, value, failures)
}

// KEDAFallbackFailing is the error of a trigger that status.health counts
// as failing, standing in for the error not read.
func KEDAFallbackFailing(failures int32) string {
	return fmt.Sprintf("failing (status.health: %d failures)", failures)
}

// KEDAHPAStep is the last step of KEDA's part: the HPA's next sync d from
// from replicas, which leaves to.
func KEDAHPAStep(from, to int32, d *Decision) KEDAStep {
	st := KEDAStep{Kind: KEDAStepHPA, From: &from, To: &to}
	switch {
	case d.Outcome == OutcomeScalingDisabled:
		st.Text = fmt.Sprintf("the HPA's next sync at %d replicas: it does not act at zero (ScalingDisabled); the workload stays at 0 until KEDA activates it", from)
	case from == to:
		st.Text = fmt.Sprintf("the HPA's next sync from %d replicas: desired %d, no change (%s)", from, to, d.Summary)
	default:
		st.Text = fmt.Sprintf("the HPA's next sync from %d replicas: %d → %d (%s)", from, from, to, d.Summary)
	}
	return st
}

// SetKEDA puts KEDA's part in d. At zero replicas the HPA does not act,
// and KEDA, not a person, scales the workload up: the summary says so.
func (d *Decision) SetKEDA(k *KEDA) {
	d.KEDA = k
	if d.Outcome != OutcomeScalingDisabled || k == nil {
		return
	}
	s := "the target is at 0 replicas, where the HPA does not act; "
	switch {
	case !k.HPAActs:
		s += "KEDA is paused and scales nothing"
	case k.KEDAScaleTo != nil && k.Replicas != nil && *k.Replicas != *k.KEDAScaleTo:
		s += fmt.Sprintf("KEDA scales it %d → %d at this poll (%s), then the HPA takes it to %d", k.CurrentReplicas, *k.KEDAScaleTo, k.Reason, *k.Replicas)
	case k.KEDAScaleTo != nil:
		s += fmt.Sprintf("KEDA scales it %d → %d at this poll (%s)", k.CurrentReplicas, *k.KEDAScaleTo, k.Reason)
	case k.Reason == KEDAReasonPaused:
		s += "KEDA would scale it up, but paused-scale-out holds it"
	default:
		s += fmt.Sprintf("KEDA scales it up when a trigger is active, and none is at this poll (%s)", k.Reason)
	}
	d.Summary = s
}
