// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TriggerMetric is what one trigger gives KEDA's HPA, known before any
// value is read: its External metric's name, which a reader of the
// cluster (or of files) needs to find the trigger's value.
type TriggerMetric struct {
	// Index is the trigger's position in spec.triggers; Name and Type are
	// its name and scaler type.
	Index int
	Name  string
	Type  string
	// MetricName is the External metric of the trigger (s<index>-…): ""
	// for cpu and memory, which are not External, and for a scaler that is
	// not replayed when status.externalMetricNames does not name it.
	MetricName string
	// External is false for cpu and memory.
	External bool
	// Replayed is true for the types of ReplayedTypes.
	Replayed bool
	// ActivationParameter names the metadata parameter of the trigger's
	// activation threshold ("" when it has none: cron, cpu, memory, the
	// scalers not replayed).
	ActivationParameter string
	// Error is the scaler's error: KEDA cannot build it.
	Error string
}

// TriggerMetrics lists the External metric of every trigger of so, in
// spec order, as KEDA names them for release v (zero: NewestVersion).
func TriggerMetrics(so *ScaledObject, v Version, load LocationLoader) ([]TriggerMetric, error) {
	if v.IsZero() {
		v = Newest()
	}
	if err := Validate(so); err != nil {
		return nil, err
	}
	scalers, _ := buildAll(so, v.Switches(), load)
	out := make([]TriggerMetric, len(scalers))
	for i, s := range scalers {
		out[i] = TriggerMetric{
			Index: s.index, Name: s.trigger.Name, Type: s.trigger.Type, MetricName: s.metricName,
			External: s.external, Replayed: s.replayed, ActivationParameter: s.activationParam,
		}
		if s.err != nil {
			out[i].Error = s.err.Error()
		}
	}
	return out, nil
}

// HPAName is the name of the HPA KEDA writes for so: status.hpaName when
// KEDA has written it, else advanced.horizontalPodAutoscalerConfig.name,
// else keda-hpa-NAME.
func HPAName(so *ScaledObject) string {
	if so.Status.HpaName != "" {
		return so.Status.HpaName
	}
	return so.hpaName()
}

// Ref names the object in messages: NAMESPACE/NAME, or NAME.
func (so *ScaledObject) Ref() string { return so.ref() }

// DeepCopy returns a copy of so that shares nothing with it.
func (so *ScaledObject) DeepCopy() *ScaledObject {
	if so == nil {
		return nil
	}
	data, err := json.Marshal(so)
	if err != nil {
		// Every field of a ScaledObject encodes.
		panic(fmt.Sprintf("encode ScaledObject %s: %v", so.ref(), err))
	}
	out := &ScaledObject{}
	if err := json.Unmarshal(data, out); err != nil {
		panic(fmt.Sprintf("decode ScaledObject %s: %v", so.ref(), err))
	}
	return out
}

// FindTrigger returns the index of the trigger a user names: by its name,
// by its External metric's name, or by its index (0, s0); -1 when no
// trigger matches, with the names that would.
func FindTrigger(metrics []TriggerMetric, name string) (int, []string) {
	var known []string
	for _, m := range metrics {
		if m.Name != "" && m.Name == name || m.MetricName != "" && m.MetricName == name {
			return m.Index, nil
		}
	}
	idx := strings.TrimPrefix(name, "s")
	if n, err := strconv.Atoi(idx); err == nil && n >= 0 && n < len(metrics) && idx == strconv.Itoa(n) {
		return n, nil
	}
	for _, m := range metrics {
		switch {
		case m.Name != "":
			known = append(known, m.Name)
		case m.MetricName != "":
			known = append(known, m.MetricName)
		default:
			known = append(known, strconv.Itoa(m.Index))
		}
	}
	return -1, known
}

// Owner returns the name of the ScaledObject that owns hpa (KEDA makes
// itself the HPA's controller), "" when none does.
func Owner(hpa *autoscalingv2.HorizontalPodAutoscaler) string {
	if hpa == nil {
		return ""
	}
	for _, o := range hpa.OwnerReferences {
		gv, err := schema.ParseGroupVersion(o.APIVersion)
		if err == nil && gv.Group == Group && o.Kind == KindScaledObject {
			return o.Name
		}
	}
	return ""
}

// Group is the API group of KEDA's objects.
const Group = "keda.sh"
