// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
)

// foreignSO is a ScaledObject with one metrics-api trigger (target 10 per
// pod, activation 5), active at KEDA's last poll, a second before
// foreignNow.
const foreignSO = `
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: {name: worker, namespace: jobs, creationTimestamp: "2026-01-01T09:00:00Z"}
spec:
  scaleTargetRef: {name: worker}
  pollingInterval: 1
  cooldownPeriod: 10
  maxReplicaCount: 10
  triggers:
  - type: metrics-api
    metadata: {url: "http://queue/stats", valueLocation: depth, targetValue: "10", activationTargetValue: "5"}
status:
  lastActiveTime: "2026-01-01T12:00:00Z"
  externalMetricNames: [s0-metric-api-depth]
  triggersActivity: {s0-metric-api-depth: {isActive: true}}
`

var foreignNow = time.Date(2026, 1, 1, 12, 0, 1, 0, time.UTC)

// foreignReplay is a replay of foreignSO at 3 replicas whose HPA read
// metric from the external metrics API: a value of 50, or an error.
func foreignReplay(t *testing.T, server *explain.KEDAMetricsServer, apiErr string) *kedaReplay {
	t.Helper()
	so, err := keda.Decode([]byte(foreignSO))
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
	target := engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: "worker", SpecReplicas: 3, StatusReplicas: 3, Selector: "app=worker"}
	snap := &engine.Snapshot{
		HPA:    hpa,
		Target: target,
		Now:    foreignNow,
		State:  engine.ControllerState{RecommendationsInitialized: true, Provenance: explain.Observed},
	}
	metric := hpa.Spec.Metrics[0].External.Metric.Name
	if apiErr != "" {
		snap.APIErrors = map[string]string{"external:" + metric: apiErr}
	} else {
		snap.ExternalMetrics = []externalmetricsv1beta1.ExternalMetricValue{{
			MetricName:   metric,
			MetricLabels: map[string]string{keda.LabelScaledObjectName: "worker"},
			Value:        resource.MustParse("50"),
			Timestamp:    metav1.NewTime(foreignNow),
		}}
	}
	ks := &kedaSnapshot{so: so, version: v, versionSource: "test", apiErrors: map[string]string{}, metricsServer: server}
	return &kedaReplay{ks: ks, now: foreignNow, target: target, hpa: snap, set: engine.DefaultSettings()}
}

// While KEDA's metrics server serves external.metrics.k8s.io, the value
// the HPA reads is the trigger's, and the HPA's next sync follows it (50
// over 10 per pod: 3 → 5).
func TestKEDAReplayKEDAServesExternalMetrics(t *testing.T) {
	r := foreignReplay(t, &explain.KEDAMetricsServer{Service: "keda/keda-operator-metrics-apiserver", KEDA: true, Available: "True"}, "")
	k, err := r.run()
	if err != nil {
		t.Fatal(err)
	}
	if v := k.Triggers[0].Value; v == nil || *v != 50 {
		t.Fatalf("trigger value %v, want 50", v)
	}
	if !k.Active || k.Replicas == nil || *k.Replicas != 5 {
		t.Fatalf("active %v replicas %v, want active and 5", k.Active, k.Replicas)
	}
	if k.ExternalMetricsServer == nil || !k.ExternalMetricsServer.KEDA {
		t.Fatalf("externalMetricsServer %+v", k.ExternalMetricsServer)
	}
}

// While another adapter serves external.metrics.k8s.io, what it answers
// is not the trigger's value, and the HPA does not read what KEDA would
// answer: its next sync is replayed from the error it gets (no change),
// not from KEDA's values. Before the fix, the KEDA part said the HPA read
// KEDA's answer and predicted its replicas from it.
func TestKEDAReplayAnotherAdapterServesExternalMetrics(t *testing.T) {
	fake := &explain.KEDAMetricsServer{Service: "custom-metrics/custom-metrics-apiserver", Available: "True"}
	r := foreignReplay(t, fake, "no metrics returned from external metrics API")
	k, err := r.run()
	if err != nil {
		t.Fatal(err)
	}
	if v := k.Triggers[0].Value; v != nil {
		t.Fatalf("trigger value %v read from another adapter, want none", *v)
	}
	if k.Replicas == nil || *k.Replicas != 3 {
		t.Fatalf("replicas %s, want 3: the HPA cannot read its metric and keeps 3\n%s", fmtPtr(k.Replicas), stepsText(k))
	}
	if !strings.Contains(k.Summary, "custom-metrics/custom-metrics-apiserver") {
		t.Fatalf("summary does not name the adapter: %s", k.Summary)
	}
	found := false
	for _, a := range k.Assumptions {
		found = found || strings.Contains(a, "not KEDA's metrics server")
	}
	if !found {
		t.Fatalf("no assumption about the adapter: %q", k.Assumptions)
	}

	// No APIService at all: the HPA reads nothing either.
	r = foreignReplay(t, &explain.KEDAMetricsServer{Missing: true}, "the server could not find the requested resource")
	k, err = r.run()
	if err != nil {
		t.Fatal(err)
	}
	if k.Replicas == nil || *k.Replicas != 3 || !strings.Contains(k.Summary, "no APIService") {
		t.Fatalf("no APIService: replicas %s, summary %q", fmtPtr(k.Replicas), k.Summary)
	}

	// The other adapter happens to answer the metric: still not the
	// trigger's value.
	r = foreignReplay(t, fake, "")
	k, err = r.run()
	if err != nil {
		t.Fatal(err)
	}
	if v := k.Triggers[0].Value; v != nil {
		t.Fatalf("trigger value %v read from another adapter, want none", *v)
	}
}

func fmtPtr(p *int32) string {
	if p == nil {
		return "nil"
	}
	return strings.TrimSpace(strings.Repeat(" ", 0) + itoa(*p))
}

func itoa(n int32) string { return fmt.Sprint(n) }

func stepsText(k *explain.KEDA) string {
	var b strings.Builder
	for _, s := range k.Steps {
		b.WriteString(s.Text + "\n")
	}
	return b.String()
}

// With a formula whose composite-metric cannot be read (here: another
// adapter serves the API), KEDA's part cannot be replayed: explain still
// explains the HPA, and warns that KEDA's part is left out.
func TestKEDAReplayAnotherAdapterWithFormula(t *testing.T) {
	so, err := keda.Decode([]byte(`
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: {name: worker, namespace: jobs, creationTimestamp: "2026-01-01T09:00:00Z"}
spec:
  scaleTargetRef: {name: worker}
  advanced: {scalingModifiers: {formula: "a + b", target: "10", activationTarget: "5"}}
  triggers:
  - {type: metrics-api, name: a, metadata: {url: "http://q/a", valueLocation: v, targetValue: "10"}}
  - {type: metrics-api, name: b, metadata: {url: "http://q/b", valueLocation: v, targetValue: "10"}}
status:
  lastActiveTime: "2026-01-01T12:00:00Z"
  triggersActivity: {s0-metric-api-v: {isActive: true}, s1-metric-api-v: {isActive: true}}
`))
	if err != nil {
		t.Fatal(err)
	}
	v := keda.MustParseVersion("v2.21.0")
	ks := &kedaSnapshot{
		so: so, version: v, versionSource: "test",
		apiErrors:     map[string]string{"external:" + keda.CompositeMetricName: "no metrics returned from external metrics API"},
		metricsServer: &explain.KEDAMetricsServer{Service: "monitoring/prometheus-adapter"},
	}
	built, err := keda.BuildHPA(so, v, time.LoadLocation)
	if err != nil || built.HPA == nil {
		t.Fatalf("BuildHPA: %v %s", err, built.Error)
	}
	engine.DefaultHPA(built.HPA)
	snap := &engine.Snapshot{
		HPA:       built.HPA,
		Target:    engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: "worker", SpecReplicas: 3, StatusReplicas: 3, Selector: "app=worker"},
		Now:       foreignNow,
		APIErrors: map[string]string{"external:" + keda.CompositeMetricName: "no metrics returned from external metrics API"},
		State:     engine.ControllerState{RecommendationsInitialized: true, Provenance: explain.Observed},
	}
	res, err := explainSnapshot(ExplainConfig{}, &snapshot{snap: snap, settings: engine.DefaultSettings(), keda: ks})
	if err != nil {
		t.Fatalf("explain failed: %v", err)
	}
	if res.Decision == nil || res.KEDA != nil {
		t.Fatalf("want the HPA's explanation without KEDA's part, got decision %v keda %v", res.Decision != nil, res.KEDA != nil)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "KEDA's part is not explained") {
		t.Fatalf("warnings %q", res.Warnings)
	}
}
