// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// fallbackValueSO has one Value-target trigger (10 in all) failing past
// its fallback's threshold: KEDA answers 10 × 6 ÷ the ready pods, so the
// value the HPA reads shows the ready count KEDA used.
const fallbackValueSO = `
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: {name: worker, namespace: jobs, creationTimestamp: "2026-01-01T09:00:00Z"}
spec:
  scaleTargetRef: {name: worker}
  pollingInterval: 30
  maxReplicaCount: 20
  fallback: {failureThreshold: 3, replicas: 6}
  triggers:
  - type: metrics-api
    metricType: Value
    metadata: {url: "http://queue/stats", valueLocation: depth, targetValue: "10"}
status:
  lastActiveTime: "2026-01-01T12:00:00Z"
  externalMetricNames: [s0-metric-api-depth]
  health: {s0-metric-api-depth: {numberOfFailures: 4, status: Failing}}
`

// readyTestPods are the workload's pods as KEDA would list them: three
// count as ready for KEDA (one of them being deleted), the others do not.
func readyTestPods(now time.Time) []corev1.Pod {
	pod := func(name string, phase corev1.PodPhase, ready corev1.ConditionStatus, lbl string) corev1.Pod {
		p := corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "jobs", Labels: map[string]string{"app": lbl}},
			Status:     corev1.PodStatus{Phase: phase},
		}
		if ready != "" {
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: ready}}
		}
		return p
	}
	deleting := pod("deleting", corev1.PodRunning, corev1.ConditionTrue, "worker")
	deleting.DeletionTimestamp = &metav1.Time{Time: now.Add(-time.Second)}
	// A pod whose first Ready condition is False is not ready, whatever a
	// later duplicate says.
	dup := pod("duplicate", corev1.PodRunning, corev1.ConditionFalse, "worker")
	dup.Status.Conditions = append(dup.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue})
	return []corev1.Pod{
		pod("a", corev1.PodRunning, corev1.ConditionTrue, "worker"),
		pod("b", corev1.PodRunning, corev1.ConditionTrue, "worker"),
		deleting,
		pod("unready", corev1.PodRunning, corev1.ConditionFalse, "worker"),
		pod("pending", corev1.PodPending, corev1.ConditionTrue, "worker"),
		pod("no-condition", corev1.PodRunning, "", "worker"),
		pod("other", corev1.PodRunning, corev1.ConditionTrue, "other"),
		dup,
	}
}

// explain (the KEDA part of an HPA's explanation) and whatif (KEDA's
// operator in a projection) count the same ready pods for a Value target's
// fallback: KEDA's count, where a pod being deleted still counts while it
// is Running and Ready. Before, explain left that pod out (10 × 6 ÷ 2 =
// 30) while whatif counted it (10 × 6 ÷ 3 = 20).
func TestKEDAReadyCountExplainAndWhatifAgree(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 1, 0, time.UTC)
	so, err := keda.Decode([]byte(fallbackValueSO))
	if err != nil {
		t.Fatal(err)
	}
	v := keda.MustParseVersion("v2.21.0")
	built, err := keda.BuildHPA(so, v, time.LoadLocation)
	if err != nil || built.HPA == nil {
		t.Fatalf("BuildHPA: %v %s", err, built.Error)
	}
	hpa := built.HPA
	engine.DefaultHPA(hpa)
	metric := hpa.Spec.Metrics[0].External.Metric.Name
	snap := &engine.Snapshot{
		HPA:       hpa,
		Target:    engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: "worker", SpecReplicas: 4, StatusReplicas: 4, Selector: "app=worker"},
		Pods:      readyTestPods(now),
		Now:       now,
		APIErrors: map[string]string{"external:" + metric: "connection refused"},
		State:     engine.ControllerState{RecommendationsInitialized: true, Provenance: explain.Observed},
	}
	if n := keda.ReadyReplicas(snap.Target.Selector, snap.Pods); n == nil || *n != 3 {
		t.Fatalf("keda.ReadyReplicas = %v, want 3", n)
	}

	// explain: the KEDA part of the HPA's explanation.
	ks := &kedaSnapshot{so: so, version: v, versionSource: "test", apiErrors: map[string]string{}}
	r := &kedaReplay{ks: ks, now: now, target: snap.Target, pods: snap.Pods, hpa: snap, set: engine.DefaultSettings()}
	k, err := r.run()
	if err != nil {
		t.Fatal(err)
	}
	var explained string
	for _, m := range k.HPAMetrics {
		if m.MetricName == metric && m.Value != nil {
			explained = m.Value.String()
		}
	}

	// whatif: KEDA's operator polling in a projection, on the same pods.
	loop := &whatif.KEDALoop{
		ScaledObject: so.DeepCopy(), Version: v, LoadLocation: time.LoadLocation, Start: now,
		Triggers: []keda.TriggerResult{{Error: "connection refused"}},
	}
	projected := snap.DeepCopy()
	if _, err := loop.Poll(now, projected); err != nil {
		t.Fatal(err)
	}
	var polled string
	for _, it := range projected.ExternalMetrics {
		if it.MetricName == metric {
			polled = it.Value.String()
		}
	}

	if explained != "20" || polled != "20" {
		t.Fatalf("fallback value: explain %q, whatif %q; want 20 from both (10 × 6 ÷ 3 ready pods)", explained, polled)
	}
}
