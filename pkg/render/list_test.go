// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

func TestShortReason(t *testing.T) {
	held := time.Date(2026, 1, 1, 14, 5, 30, 0, time.UTC)
	ready := func(missing int) *explain.PodAccounting { return &explain.PodAccounting{Listed: 5, Missing: missing} }
	errMsg := "boom"
	for _, c := range []struct {
		name string
		d    explain.Decision
		want string
	}{
		{"disabled", explain.Decision{Outcome: explain.OutcomeScalingDisabled}, "target at 0 replicas: autoscaling disabled"},
		{"max", explain.Decision{Outcome: explain.OutcomeRescale, Rescale: true, Normalization: &explain.Normalization{Input: 30, Limits: explain.Limits{Limited: true, Reason: "TooManyReplicas"}}}, "limited by maxReplicas"},
		{"held", explain.Decision{Outcome: explain.OutcomeNoChange, Normalization: &explain.Normalization{Input: 2, Stabilization: explain.Stabilization{Result: 5, Reason: "ScaleDownStabilized", HeldUntil: &held}}}, "held by scale-down stabilization until 14:05:30"},
		{"missing", explain.Decision{Outcome: explain.OutcomeMetricsFailed, Metrics: []explain.MetricResult{{Error: &errMsg, Pods: ready(2)}}}, "metric missing on 2/5 pods"},
		{"failed", explain.Decision{Outcome: explain.OutcomeMetricsFailed, Metrics: []explain.MetricResult{{Error: &errMsg, ErrorReason: "FailedGetExternalMetric"}}}, "metric failed: FailedGetExternalMetric"},
		{"scaling", explain.Decision{Outcome: explain.OutcomeRescale, Rescale: true, Normalization: &explain.Normalization{Input: 4, Stabilization: explain.Stabilization{Result: 4}}, Metrics: []explain.MetricResult{{Winner: true, Name: "pods metric qps"}}}, "scaling on pods metric qps"},
		{"within", explain.Decision{Outcome: explain.OutcomeNoChange, Normalization: &explain.Normalization{Input: 3, Stabilization: explain.Stabilization{Result: 3}}, Metrics: []explain.MetricResult{{Winner: true, Tolerance: &explain.ToleranceCheck{Within: true}}}}, "within tolerance"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ShortReason(&c.d); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestWriteList(t *testing.T) {
	ds := []*explain.Decision{
		{HPA: explain.ObjectRef{Namespace: "a", Name: "web"}, Target: explain.TargetInfo{Kind: "Deployment", Name: "web"}, CurrentReplicas: 3, DesiredReplicas: 5, Rescale: true, Outcome: explain.OutcomeRescale, Agreement: explain.Agreement{Checked: true, Agrees: true}},
		{HPA: explain.ObjectRef{Namespace: "b", Name: "api"}, Target: explain.TargetInfo{Kind: "StatefulSet", Name: "api"}, CurrentReplicas: 2, DesiredReplicas: 2, Outcome: explain.OutcomeScalingDisabled, Agreement: explain.Agreement{Checked: true, Differences: []explain.Difference{{Field: "desiredReplicas"}}}},
	}
	var b bytes.Buffer
	if err := WriteList(&b, FormatText, ds, true); err != nil {
		t.Fatal(err)
	}
	want := "NAMESPACE  NAME  REFERENCE        REPLICAS  DECIDED BY                                  AGREEMENT\n" +
		"a          web   Deployment/web   3 → 5     scaling                                     agrees\n" +
		"b          api   StatefulSet/api  2         target at 0 replicas: autoscaling disabled  differs (desiredReplicas)\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteList(&b, FormatJSON, ds, false); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Kind  string             `json:"kind"`
		Items []explain.Decision `json:"items"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc.Kind != KindExplanationList || len(doc.Items) != 2 || !strings.Contains(b.String(), `"apiVersion": "kubectl-hpa.io/v1alpha1"`) {
		t.Fatalf("json list: %v %+v", err, doc)
	}
}
