// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
)

// The overrides of a ScaledObject.
const (
	FieldTrigger          Field = "trigger"
	FieldActivation       Field = "activation"
	FieldCooldown         Field = "cooldown"
	FieldPollingInterval  Field = "polling-interval"
	FieldIdle             Field = "idle"
	FieldFallbackReplicas Field = "fallback-replicas"
	FieldFailureThreshold Field = "failure-threshold"
)

// KEDAOverrides change a ScaledObject KEDA scales with and what its
// triggers read. --min and --max (Overrides.Min, Max) change its
// minReplicaCount and maxReplicaCount, from which KEDA's HPA takes its
// bounds.
type KEDAOverrides struct {
	// Triggers set what a trigger's scaler reads (a value, or an error).
	Triggers []TriggerOverride
	// Activations set a trigger's activation threshold (its
	// activationTargetValue or activationValue).
	Activations []TriggerOverride
	// Cooldown is spec.cooldownPeriod, PollingInterval
	// spec.pollingInterval, Idle spec.idleReplicaCount (-1 removes it).
	Cooldown        *time.Duration
	PollingInterval *time.Duration
	Idle            *int32
	// FallbackReplicas and FailureThreshold set spec.fallback (added with
	// the static behavior when the object has none).
	FallbackReplicas *int32
	FailureThreshold *int32
	// Min and Max are moved here from Overrides for a ScaledObject.
	Min, Max *int32
}

// Empty reports whether no KEDA override is given.
func (o *KEDAOverrides) Empty() bool {
	return o == nil || len(o.Triggers) == 0 && len(o.Activations) == 0 && o.Cooldown == nil && o.PollingInterval == nil &&
		o.Idle == nil && o.FallbackReplicas == nil && o.FailureThreshold == nil && o.Min == nil && o.Max == nil
}

// TriggerOverride names a trigger (by name, External metric name or index)
// and gives a value, or an error its scaler returns.
type TriggerOverride struct {
	Name  string
	Value float64
	// Error, when set, is the scaler's error instead of a value.
	Error string
	// Raw is the override as given.
	Raw string
}

// ParseTriggerOverride reads NAME=VALUE, or NAME=error[:MESSAGE] when
// errorsAllowed (a failing endpoint, for fallbacks).
func ParseTriggerOverride(s string, errorsAllowed bool) (TriggerOverride, error) {
	name, value, ok := strings.Cut(s, "=")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || name == "" || value == "" {
		return TriggerOverride{}, fmt.Errorf("%q: want NAME=VALUE (NAME: the trigger's name, its metric name or its index)", s)
	}
	out := TriggerOverride{Name: name, Raw: s}
	if errorsAllowed && (value == "error" || strings.HasPrefix(value, "error:")) {
		out.Error = "the scaler failed (whatif)"
		if msg := strings.TrimSpace(strings.TrimPrefix(value, "error:")); msg != "" && msg != "error" {
			out.Error = msg
		}
		return out, nil
	}
	v, err := strconv.ParseFloat(value, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		want := "a number"
		if errorsAllowed {
			want += ", or error[:MESSAGE]"
		}
		return TriggerOverride{}, fmt.Errorf("%q: %q is not %s", s, value, want)
	}
	out.Value = v
	return out, nil
}

// KEDAEdit is a ScaledObject with the overrides applied.
type KEDAEdit struct {
	ScaledObject *keda.ScaledObject
	// Triggers are the trigger results the overrides give, by index.
	Triggers map[int]keda.TriggerResult
	// Changes words each override.
	Changes []string
}

// ApplyKEDA returns a copy of so with the overrides applied, the trigger
// results they give, and one sentence per change. An override that cannot
// apply (an unknown trigger, a trigger without an activation threshold, a
// bound the API server refuses) is a *FieldError.
func ApplyKEDA(so *keda.ScaledObject, v keda.Version, o *KEDAOverrides, load keda.LocationLoader) (*KEDAEdit, error) {
	out := &KEDAEdit{ScaledObject: so.DeepCopy(), Triggers: map[int]keda.TriggerResult{}}
	if o.Empty() {
		return out, nil
	}
	metrics, err := keda.TriggerMetrics(so, v, load)
	if err != nil {
		return nil, err
	}
	if err := out.triggerValues(metrics, o.Triggers); err != nil {
		return nil, err
	}
	if err := out.activations(metrics, o.Activations); err != nil {
		return nil, err
	}
	if err := out.periods(o); err != nil {
		return nil, err
	}
	if err := out.bounds(o); err != nil {
		return nil, err
	}
	if err := out.fallback(o); err != nil {
		return nil, err
	}
	// What the API server would refuse of the edited object is refused.
	if err := keda.Validate(out.ScaledObject); err != nil {
		return nil, &FieldError{Field: FieldBoundsKEDA, Msg: err.Error()}
	}
	return out, nil
}

// findTrigger is the trigger an override of field f names.
func findTrigger(metrics []keda.TriggerMetric, f Field, t TriggerOverride) (keda.TriggerMetric, error) {
	i, known := keda.FindTrigger(metrics, t.Name)
	if i < 0 {
		return keda.TriggerMetric{}, &FieldError{
			Field: f, Value: t.Raw,
			Msg: fmt.Sprintf("no trigger %q (its triggers: %s)", t.Name, strings.Join(known, ", ")),
		}
	}
	return metrics[i], nil
}

// triggerValues sets what the triggers' scalers return (--trigger): a
// value, or an error.
func (out *KEDAEdit) triggerValues(metrics []keda.TriggerMetric, overrides []TriggerOverride) error {
	for _, t := range overrides {
		m, err := findTrigger(metrics, FieldTrigger, t)
		if err != nil {
			return err
		}
		if !m.External {
			return fieldErr(FieldTrigger, t.Raw, "trigger %d is %s: a metric of the HPA, not KEDA's (use %s or %s)", m.Index, m.Type, FieldCPU, FieldMemory)
		}
		if t.Error != "" {
			out.Triggers[m.Index] = keda.TriggerResult{Error: t.Error}
			out.Changes = append(out.Changes, fmt.Sprintf("trigger %d (%s) fails: %s", m.Index, triggerLabel(m), t.Error))
			continue
		}
		val := t.Value
		out.Triggers[m.Index] = keda.TriggerResult{Value: &val}
		out.Changes = append(out.Changes, fmt.Sprintf("trigger %d (%s) reads %s", m.Index, triggerLabel(m), strconv.FormatFloat(val, 'g', -1, 64)))
	}
	return nil
}

// activations set the triggers' activation thresholds in their metadata.
func (out *KEDAEdit) activations(metrics []keda.TriggerMetric, overrides []TriggerOverride) error {
	ed := out.ScaledObject
	for _, t := range overrides {
		m, err := findTrigger(metrics, FieldActivation, t)
		if err != nil {
			return err
		}
		if m.ActivationParameter == "" || t.Error != "" {
			return &FieldError{
				Field: FieldActivation, Value: t.Raw,
				Msg: fmt.Sprintf("trigger %d (%s) has no activation threshold", m.Index, m.Type),
			}
		}
		tr := &ed.Spec.Triggers[m.Index]
		tr.Metadata = maps.Clone(tr.Metadata)
		if tr.Metadata == nil {
			tr.Metadata = map[string]string{}
		}
		old := tr.Metadata[m.ActivationParameter]
		tr.Metadata[m.ActivationParameter] = strconv.FormatFloat(t.Value, 'g', -1, 64)
		out.Changes = append(out.Changes, fmt.Sprintf("trigger %d (%s): %s %s → %s", m.Index, triggerLabel(m), m.ActivationParameter, orDefault(old), tr.Metadata[m.ActivationParameter]))
	}
	return nil
}

// wholeSeconds is d in whole seconds, at least least (nil for nil).
func wholeSeconds(f Field, d *time.Duration, least int64) (*int32, error) {
	if d == nil {
		return nil, nil
	}
	s := int64(*d / time.Second)
	if *d%time.Second != 0 || s < least || s > math.MaxInt32 {
		return nil, &FieldError{Field: f, Value: d.String(), Msg: fmt.Sprintf("must be whole seconds, at least %ds", least)}
	}
	n := int32(s)
	return &n, nil
}

// periods set cooldownPeriod and pollingInterval.
func (out *KEDAEdit) periods(o *KEDAOverrides) error {
	ed := out.ScaledObject
	if n, err := wholeSeconds(FieldCooldown, o.Cooldown, 0); err != nil {
		return err
	} else if n != nil {
		out.Changes = append(out.Changes, fmt.Sprintf("cooldownPeriod %s → %ds", secondsWords(ed.Spec.CooldownPeriod, keda.DefaultCooldownPeriod), *n))
		ed.Spec.CooldownPeriod = n
	}
	if n, err := wholeSeconds(FieldPollingInterval, o.PollingInterval, 1); err != nil {
		return err
	} else if n != nil {
		out.Changes = append(out.Changes, fmt.Sprintf("pollingInterval %s → %ds", secondsWords(ed.Spec.PollingInterval, keda.DefaultPollingInterval), *n))
		ed.Spec.PollingInterval = n
	}
	return nil
}

// bound sets the replica count *dst named name to v (nil: unchanged), at
// least least.
func (out *KEDAEdit) bound(f Field, name string, dst **int32, v *int32, least int32) error {
	if v == nil {
		return nil
	}
	if *v < least {
		return &FieldError{Field: f, Value: strconv.Itoa(int(*v)), Msg: fmt.Sprintf("%s must be at least %d", name, least)}
	}
	old := "unset"
	if *dst != nil {
		old = strconv.Itoa(int(**dst))
	}
	n := *v
	*dst = &n
	out.Changes = append(out.Changes, fmt.Sprintf("%s %s → %d", name, old, n))
	return nil
}

// bounds set minReplicaCount, maxReplicaCount and idleReplicaCount (a
// negative idle removes it).
func (out *KEDAEdit) bounds(o *KEDAOverrides) error {
	ed := out.ScaledObject
	if err := out.bound(FieldMin, "minReplicaCount", &ed.Spec.MinReplicaCount, o.Min, 0); err != nil {
		return err
	}
	if err := out.bound(FieldMax, "maxReplicaCount", &ed.Spec.MaxReplicaCount, o.Max, 1); err != nil {
		return err
	}
	if o.Idle != nil && *o.Idle < 0 {
		if ed.Spec.IdleReplicaCount != nil {
			out.Changes = append(out.Changes, fmt.Sprintf("idleReplicaCount %d → unset", *ed.Spec.IdleReplicaCount))
		}
		ed.Spec.IdleReplicaCount = nil
		return nil
	}
	return out.bound(FieldIdle, "idleReplicaCount", &ed.Spec.IdleReplicaCount, o.Idle, 0)
}

// fallback sets spec.fallback's replicas and failureThreshold, adding a
// static fallback when the object has none.
func (out *KEDAEdit) fallback(o *KEDAOverrides) error {
	ed := out.ScaledObject
	if o.FallbackReplicas == nil && o.FailureThreshold == nil {
		return nil
	}
	if ed.Spec.Fallback == nil {
		ed.Spec.Fallback = &keda.Fallback{FailureThreshold: 3, Behavior: keda.FallbackStatic}
		out.Changes = append(out.Changes, "fallback added (static, failureThreshold 3 unless given)")
	}
	f := ed.Spec.Fallback
	if o.FallbackReplicas != nil {
		if *o.FallbackReplicas < 0 {
			return &FieldError{Field: FieldFallbackReplicas, Value: strconv.Itoa(int(*o.FallbackReplicas)), Msg: "must be at least 0"}
		}
		out.Changes = append(out.Changes, fmt.Sprintf("fallback.replicas %d → %d", f.Replicas, *o.FallbackReplicas))
		f.Replicas = *o.FallbackReplicas
	}
	if o.FailureThreshold != nil {
		if *o.FailureThreshold < 0 {
			return &FieldError{Field: FieldFailureThreshold, Value: strconv.Itoa(int(*o.FailureThreshold)), Msg: "must be at least 0"}
		}
		out.Changes = append(out.Changes, fmt.Sprintf("fallback.failureThreshold %d → %d", f.FailureThreshold, *o.FailureThreshold))
		f.FailureThreshold = *o.FailureThreshold
	}
	return nil
}

// FieldBoundsKEDA is an edited ScaledObject the API server would refuse
// (minReplicaCount above maxReplicaCount, ...).
const FieldBoundsKEDA Field = "keda"

func triggerLabel(m keda.TriggerMetric) string {
	switch {
	case m.Name != "" && m.MetricName != "":
		return m.Name + ", " + m.MetricName
	case m.MetricName != "":
		return m.MetricName
	case m.Name != "":
		return m.Name
	}
	return m.Type
}

func orDefault(s string) string {
	if s == "" {
		return "(default)"
	}
	return s
}

func secondsWords(p *int32, def int32) string {
	if p == nil {
		return fmt.Sprintf("%ds (default)", def)
	}
	return fmt.Sprintf("%ds", *p)
}

// KEDAHPA sets the bounds of KEDA's HPA in snap from so, as KEDA writes
// them (minReplicas: minReplicaCount, or 1 for 0).
func KEDAHPA(snap *engine.Snapshot, so *keda.ScaledObject, v keda.Version, load keda.LocationLoader) error {
	res, err := keda.BuildHPA(so, v, load)
	if err != nil {
		return err
	}
	if res.HPA == nil {
		if res.Error != "" {
			return errors.New(res.Error)
		}
		return nil
	}
	snap.HPA.Spec.MinReplicas = res.HPA.Spec.MinReplicas
	snap.HPA.Spec.MaxReplicas = res.HPA.Spec.MaxReplicas
	return nil
}

// SetKEDAMetrics sets the External values of snap to what KEDA's metrics
// server answers the HPA (k.HPAMetrics): a value, or an error.
func SetKEDAMetrics(snap *engine.Snapshot, k *explain.KEDA, scaledObject string, at time.Time) {
	for _, mv := range k.HPAMetrics {
		kept := snap.ExternalMetrics[:0]
		for _, it := range snap.ExternalMetrics {
			if it.MetricName != mv.MetricName {
				kept = append(kept, it)
			}
		}
		snap.ExternalMetrics = kept
		if snap.APIErrors == nil {
			snap.APIErrors = map[string]string{}
		}
		delete(snap.APIErrors, "external:"+mv.MetricName)
		switch {
		case mv.Error != "":
			snap.APIErrors["external:"+mv.MetricName] = mv.Error
		case mv.Value != nil:
			snap.ExternalMetrics = append(snap.ExternalMetrics, externalmetricsv1beta1.ExternalMetricValue{
				MetricName:   mv.MetricName,
				MetricLabels: map[string]string{keda.LabelScaledObjectName: scaledObject},
				Timestamp:    metav1.NewTime(at),
				Value:        mv.Value.DeepCopy(),
			})
		}
	}
}

// KEDALoop is KEDA's operator in a projection: it polls the ScaledObject
// every pollingInterval from Start, with the trigger results held
// constant, writes the workload's replicas when KEDA would (from zero, to
// zero after the cooldown), keeps the object's status (lastActiveTime, the
// failure counts) from poll to poll, and sets the External values the HPA
// reads at its next sync. It implements Outer.
type KEDALoop struct {
	ScaledObject *keda.ScaledObject
	Version      keda.Version
	// Triggers are the results each poll gets, by index (nil: what
	// status.triggersActivity says).
	Triggers     []keda.TriggerResult
	LoadLocation keda.LocationLoader
	// Start is the first poll.
	Start time.Time
	// First is the poll at Start, as the caller replayed it (the whatif's
	// after part); the loop replays it again in a projection.
	First *explain.KEDA

	last *explain.KEDA
}

// interval is the object's pollingInterval.
func (l *KEDALoop) interval() time.Duration {
	return time.Duration(deref(l.ScaledObject.Spec.PollingInterval, keda.DefaultPollingInterval)) * time.Second
}

func deref(p *int32, def int32) int32 {
	if p == nil {
		return def
	}
	return *p
}

// NextPoll is the first poll strictly after after (Start itself when
// after is before it).
func (l *KEDALoop) NextPoll(after time.Time) time.Time {
	if after.Before(l.Start) {
		return l.Start
	}
	n := after.Sub(l.Start)/l.interval() + 1
	return l.Start.Add(n * l.interval())
}

// Poll replays KEDA's poll at t on the simulated workload.
func (l *KEDALoop) Poll(t time.Time, snap *engine.Snapshot) (OuterPoll, error) {
	in := keda.Input{
		ScaledObject: l.ScaledObject, Now: t, CurrentReplicas: snap.Target.SpecReplicas,
		ReadyReplicas: keda.ReadyReplicas(snap.Target.Selector, snap.Pods), Triggers: l.Triggers, HPA: snap.HPA, LoadLocation: l.LoadLocation, Version: l.Version,
	}
	for _, c := range snap.HPA.Status.Conditions {
		if c.Type == autoscalingv2.ScalingActive {
			in.HPACondition = &keda.HPACondition{Status: string(c.Status), Reason: c.Reason, Message: c.Message}
		}
	}
	k, err := keda.Evaluate(in)
	if err != nil {
		return OuterPoll{}, err
	}
	if !k.HPAActs {
		return OuterPoll{}, fmt.Errorf("ScaledObject %s is paused at %s: KEDA deletes its HPA, and the projection has no HPA to replay", l.ScaledObject.Ref(), t.UTC().Format(time.RFC3339))
	}
	l.last = k
	// The status the poll leaves is the next poll's.
	st := &l.ScaledObject.Status
	if k.LastActiveTimeAfter != nil {
		st.LastActiveTime = &metav1.Time{Time: *k.LastActiveTimeAfter}
	}
	if k.Fallback != nil {
		st.Health = map[string]keda.HealthStatus{}
		for _, m := range k.Fallback.Metrics {
			n := m.FailuresAfter
			st.Health[m.MetricName] = keda.HealthStatus{NumberOfFailures: &n, Status: m.Status}
		}
	}
	st.Conditions = st.Conditions[:0]
	for _, c := range k.Conditions {
		st.Conditions = append(st.Conditions, keda.Condition{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message})
	}
	SetKEDAMetrics(snap, k, l.ScaledObject.Name, t)
	out := OuterPoll{ScaleTo: k.KEDAScaleTo, Reason: "KEDA: " + k.Summary}
	return out, nil
}

// Pending reports whether KEDA will act later by itself: a cooldown is
// running.
func (l *KEDALoop) Pending(time.Time) bool { return l.last != nil && l.last.Cooldown.Running }

// Notes say what the projection assumes of KEDA.
func (l *KEDALoop) Notes() []string {
	return []string{
		fmt.Sprintf("KEDA's operator polls every %s from the start (its first poll at the first sync): it scales from zero when a trigger is active and to zero (or idle) after the cooldown, past the HPA's behavior; the trigger values stay as given", l.interval()),
		"KEDA's failure counts move at its polls only (the HPA's own requests would add to them)",
	}
}
