// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// checkError is a failure of KEDA's ScaledObject controller: it writes
// Ready=False with Message, creates or updates no HPA, and starts no scale
// loop; an older HPA and loop may still run.
type checkError struct {
	// Message is the condition message, "<what>: <error>".
	Message string
}

func (e *checkError) Error() string { return e.Message }

// target returns the workload reference with KEDA's defaults: apiVersion
// apps/v1 and kind Deployment when unset.
func target(so *ScaledObject) (apiVersion, kind string, err error) {
	ref := so.Spec.ScaleTargetRef
	group, version := "apps", "v1"
	if ref.APIVersion != "" {
		gv, err := schema.ParseGroupVersion(ref.APIVersion)
		if err != nil {
			return "", "", err
		}
		group, version = gv.Group, gv.Version
	}
	kind = ref.Kind
	if kind == "" {
		kind = "Deployment"
	}
	return schema.GroupVersion{Group: group, Version: version}.String(), kind, nil
}

// ScaleTargetRef is so's workload reference with KEDA's defaults for
// what is unset (apps/v1, Deployment), its apiVersion as written.
func ScaleTargetRef(so *ScaledObject) autoscalingv2.CrossVersionObjectReference {
	ref := so.Spec.ScaleTargetRef
	out := autoscalingv2.CrossVersionObjectReference{APIVersion: ref.APIVersion, Kind: ref.Kind, Name: ref.Name}
	if out.APIVersion == "" {
		out.APIVersion = "apps/v1"
	}
	if out.Kind == "" {
		out.Kind = "Deployment"
	}
	return out
}

// buildAll builds every trigger's scaler. KEDA stops at the first trigger
// that fails and the whole object fails with it; all are built here so
// that each can be shown, and the first error is returned.
func buildAll(so *ScaledObject, sw Switches, load LocationLoader) ([]*scaler, error) {
	out := make([]*scaler, len(so.Spec.Triggers))
	var first error
	for i := range so.Spec.Triggers {
		out[i] = buildScaler(so, i, sw, load)
		if out[i].err != nil && first == nil {
			first = out[i].err
		}
	}
	return out, first
}

// controllerCheck replays the checks of KEDA's ScaledObject reconcile in
// its order, up to the scalers and the formula the HPA needs. A failure is
// a *checkError with the Ready condition's message.
func controllerCheck(so *ScaledObject, scalers []*scaler, buildErr error) error {
	fail := func(what string, err error) error {
		return &checkError{Message: fmt.Sprintf("%s: %s", what, err)}
	}
	if _, _, err := target(so); err != nil {
		return fail("ScaledObject doesn't have correct scaleTargetRef specification", err)
	}
	if err := checkReplicaCountBounds(so); err != nil {
		return fail("ScaledObject doesn't have correct Idle/Min/Max Replica Counts specification", err)
	}
	// ValidateTriggers: no cached metrics on cpu, memory and cron; unique
	// trigger names.
	names := map[string]bool{}
	for _, t := range so.Spec.Triggers {
		if t.UseCachedMetrics && (t.Type == TypeCPU || t.Type == TypeMemory || t.Type == TypeCron) {
			return fail("ScaledObject doesn't have correct triggers specification", fmt.Errorf("property \"useCachedMetrics\" is not supported for %q scaler", t.Type))
		}
		if t.Name != "" {
			if names[t.Name] {
				return fail("ScaledObject doesn't have correct triggers specification", fmt.Errorf("triggerName %q is defined multiple times in the ScaledObject/ScaledJob, but it must be unique", t.Name))
			}
			names[t.Name] = true
		}
	}
	// The HPA: every scaler builds, the formula compiles, the External
	// metric names are unique.
	if buildErr != nil {
		return fail("failed to ensure HPA is correctly created for ScaledObject", buildErr)
	}
	if _, err := compileFormula(so); err != nil {
		return fail("failed to ensure HPA is correctly created for ScaledObject", err)
	}
	seen := map[string]bool{}
	for _, s := range scalers {
		if !s.external || s.metricName == "" {
			continue
		}
		if seen[s.metricName] {
			return fail("failed to ensure HPA is correctly created for ScaledObject", fmt.Errorf("metricName %s defined multiple times in ScaledObject %s", s.metricName, so.Name))
		}
		seen[s.metricName] = true
	}
	if so.UsesModifiers() && so.Spec.Advanced.ScalingModifiers.MetricType == autoscalingv2.UtilizationMetricType {
		return fail("failed to ensure HPA is correctly created for ScaledObject", fmt.Errorf("error metric target type is Utilization, but it needs to be AverageValue or Value for external metrics"))
	}
	return nil
}

// checkReplicaCountBounds is KEDA's CheckReplicaCountBoundsAreValid: the
// HPA's min (1 for 0; 0 when min is unset) not above max, and idle
// strictly below that min.
func checkReplicaCountBounds(so *ScaledObject) error {
	minReplicas := int32(0)
	if so.Spec.MinReplicaCount != nil {
		minReplicas = so.hpaMinReplicas()
	}
	if minReplicas > so.hpaMaxReplicas() {
		return fmt.Errorf("MinReplicaCount=%d must be less than MaxReplicaCount=%d", minReplicas, so.hpaMaxReplicas())
	}
	if idle := so.Spec.IdleReplicaCount; idle != nil && *idle >= minReplicas {
		return fmt.Errorf("IdleReplicaCount=%d must be less than MinReplicaCount=%d", *idle, minReplicas)
	}
	return nil
}

// HPAResult is the HorizontalPodAutoscaler KEDA writes for a ScaledObject.
type HPAResult struct {
	// HPA is nil when KEDA writes none: the object is paused (KEDA deletes
	// its HPA) or its controller rejects it (Error says why).
	HPA   *autoscalingv2.HorizontalPodAutoscaler `json:"hpa,omitempty"`
	Error string                                 `json:"error,omitempty"`
	// Notes lists what the replay could not know (the targets of triggers
	// whose scalers are not replayed, metric names missing from the status).
	Notes []string `json:"notes,omitempty"`
}

// BuildHPA replays the HPA KEDA's controller writes for so (controllers/
// keda/hpa.go): name keda-hpa-NAME unless advanced.horizontalPodAutoscalerConfig.name,
// minReplicas = minReplicaCount or 1 when that is 0, maxReplicas default
// 100, the behavior copied with paused-scale-in/out as selectPolicy
// Disabled, one External metric per trigger (selector
// scaledobject.keda.sh/name=NAME) or Resource/ContainerResource for cpu and
// memory, sorted by type (ContainerResource, External, Resource), and with
// scalingModifiers the Resource metrics plus one composite-metric. The
// error is for input the replay cannot read (see Validate).
func BuildHPA(so *ScaledObject, v Version, load LocationLoader) (HPAResult, error) {
	if err := Validate(so); err != nil {
		return HPAResult{}, err
	}
	if Pause(so).Paused {
		return HPAResult{Notes: []string{"paused: KEDA deletes its HPA " + so.hpaName()}}, nil
	}
	scalers, buildErr := buildAll(so, v.Switches(), load)
	if err := controllerCheck(so, scalers, buildErr); err != nil {
		return HPAResult{Error: err.Error()}, nil
	}
	return buildHPA(so, scalers, v), nil
}

// buildHPA assembles the HPA from checked scalers.
func buildHPA(so *ScaledObject, scalers []*scaler, v Version) HPAResult {
	var res HPAResult
	apiVersion, kind, _ := target(so)
	var specs []autoscalingv2.MetricSpec
	for _, s := range scalers {
		spec := *s.spec.DeepCopy()
		if s.external {
			if s.metricName == "" {
				res.Notes = append(res.Notes, fmt.Sprintf("trigger %d (%s): metric name unknown (status.externalMetricNames has no s%d- entry)", s.index, s.trigger.Type, s.index))
			}
			if !s.replayed {
				res.Notes = append(res.Notes, fmt.Sprintf("trigger %d (%s): target unknown (this scaler's parameters are not replayed)", s.index, s.trigger.Type))
			}
			spec.External.Metric.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{LabelScaledObjectName: so.Name}}
		}
		specs = append(specs, spec)
	}
	// KEDA sorts by type name with sort.Slice, which is stable for up to 12
	// metrics (insertion sort); beyond that its order may differ.
	sort.SliceStable(specs, func(i, j int) bool { return specs[i].Type < specs[j].Type })
	if len(specs) > 12 {
		res.Notes = append(res.Notes, "more than 12 metrics: KEDA's unstable sort may order metrics of the same type differently")
	}
	if so.UsesModifiers() {
		if t, ok := compositeTarget(so); ok {
			// Only the Resource metrics stay (not ContainerResource), then the
			// composite metric.
			var kept []autoscalingv2.MetricSpec
			for _, m := range specs {
				if m.Resource != nil {
					kept = append(kept, m)
				}
			}
			kept = append(kept, autoscalingv2.MetricSpec{
				Type: autoscalingv2.ExternalMetricSourceType,
				External: &autoscalingv2.ExternalMetricSource{
					Metric: autoscalingv2.MetricIdentifier{
						Name:     CompositeMetricName,
						Selector: &metav1.LabelSelector{MatchLabels: map[string]string{LabelScaledObjectName: so.Name}},
					},
					Target: t,
				},
			})
			specs = kept
		}
	}
	res.HPA = &autoscalingv2.HorizontalPodAutoscaler{
		TypeMeta: metav1.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: metav1.ObjectMeta{
			Name:        so.hpaName(),
			Namespace:   so.Namespace,
			Labels:      hpaLabels(so, v),
			Annotations: so.Annotations,
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: GroupVersion, Kind: KindScaledObject, Name: so.Name, UID: so.UID,
				Controller: ptr(true), BlockOwnerDeletion: ptr(true),
			}},
		},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{Name: so.Spec.ScaleTargetRef.Name, Kind: kind, APIVersion: apiVersion},
			MinReplicas:    ptr(so.hpaMinReplicas()),
			MaxReplicas:    so.hpaMaxReplicas(),
			Metrics:        specs,
			Behavior:       hpaBehavior(so),
		},
	}
	return res
}

// hpaBehavior copies advanced.horizontalPodAutoscalerConfig.behavior and
// disables the scale-down (paused-scale-in) or scale-up
// (paused-scale-out) select policy.
func hpaBehavior(so *ScaledObject) *autoscalingv2.HorizontalPodAutoscalerBehavior {
	var b *autoscalingv2.HorizontalPodAutoscalerBehavior
	if a := so.Spec.Advanced; a != nil && a.HorizontalPodAutoscalerConfig != nil && a.HorizontalPodAutoscalerConfig.Behavior != nil {
		b = a.HorizontalPodAutoscalerConfig.Behavior.DeepCopy()
	}
	disabled := autoscalingv2.DisabledPolicySelect
	p := Pause(so)
	if p.ScaleIn {
		if b == nil {
			b = &autoscalingv2.HorizontalPodAutoscalerBehavior{}
		}
		if b.ScaleDown == nil {
			b.ScaleDown = &autoscalingv2.HPAScalingRules{}
		}
		b.ScaleDown.SelectPolicy = ptr(disabled)
	}
	if p.ScaleOut {
		if b == nil {
			b = &autoscalingv2.HorizontalPodAutoscalerBehavior{}
		}
		if b.ScaleUp == nil {
			b.ScaleUp = &autoscalingv2.HPAScalingRules{}
		}
		b.ScaleUp.SelectPolicy = ptr(disabled)
	}
	return b
}

// hpaLabels are the HPA's labels: KEDA's four (the name cut to 63
// characters without a trailing non-alphanumeric, the version, part-of,
// managed-by) and the object's own labels except those listed in the
// hpa-excluded-labels annotation. The version label carries the release
// replayed, as KEDA's release images stamp it ("2.21.0").
func hpaLabels(so *ScaledObject, v Version) map[string]string {
	name := so.hpaName()
	if len(name) > 63 {
		name = strings.TrimRightFunc(name[:63], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	}
	out := map[string]string{
		"app.kubernetes.io/name":       name,
		"app.kubernetes.io/version":    strings.TrimPrefix(v.String(), "v"),
		"app.kubernetes.io/part-of":    so.Name,
		"app.kubernetes.io/managed-by": "keda-operator",
	}
	excluded := map[string]bool{}
	if v, ok := so.Annotations[AnnotationExcludedLabels]; ok {
		for _, l := range strings.Split(v, ",") {
			excluded[l] = true
		}
	}
	for k, v := range so.Labels {
		if !excluded[k] {
			out[k] = v
		}
	}
	return out
}
