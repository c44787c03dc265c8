// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

// Smoke tests of the local cluster's add-ons (hack/cluster): Prometheus, which
// always runs, and KEDA, which runs only when attached (KEDA=1 hack/cluster/up.sh
// or hack/cluster/keda.sh up; `make test-e2e` attaches it for its KEDA phase and
// sets E2E_KEDA=1). Tests whose name contains "KEDA" need KEDA: `make test-e2e`
// runs them (-run KEDA) only in that phase, and skips them (-skip KEDA) in the
// main one, where our fake adapter serves external.metrics.k8s.io.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// kedaEnv is the variable `make test-e2e` sets in its KEDA phase, once KEDA
// serves external.metrics.k8s.io.
const kedaEnv = "E2E_KEDA"

// prometheusURL is the local cluster's Prometheus (hack/cluster/up.sh:
// 127.0.0.1:${PROMETHEUS_PORT:-9090 + KUBECTL_HPA_PORT_OFFSET}).
func prometheusURL() string {
	port := os.Getenv("PROMETHEUS_PORT")
	if port == "" {
		port = localPort(9090)
	}
	return "http://127.0.0.1:" + port
}

// promSample is one series of an instant vector.
type promSample struct {
	Labels map[string]string
	Value  float64
}

// promQuery runs an instant query against Prometheus's HTTP API.
func promQuery(query string) ([]promSample, error) {
	resp, err := http.Get(prometheusURL() + "/api/v1/query?query=" + url.QueryEscape(query))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var r struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			ResultType string `json:"resultType"`
			Result     []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", resp.Status, body, err)
	}
	if r.Status != "success" {
		return nil, fmt.Errorf("query %q: %s %s", query, r.Status, r.Error)
	}
	if r.Data.ResultType != "vector" {
		return nil, fmt.Errorf("query %q: result type %q, want vector", query, r.Data.ResultType)
	}
	out := make([]promSample, 0, len(r.Data.Result))
	for _, s := range r.Data.Result {
		str, ok := s.Value[1].(string)
		if !ok {
			return nil, fmt.Errorf("query %q: value %v is not a string", query, s.Value[1])
		}
		v, err := strconv.ParseFloat(str, 64)
		if err != nil {
			return nil, fmt.Errorf("query %q: %w", query, err)
		}
		out = append(out, promSample{Labels: s.Metric, Value: v})
	}
	return out, nil
}

// TestPrometheusScrapesKwok: Prometheus scrapes the simulated kubelets'
// resource metrics from kwok, so the rate of a pod's CPU counter is the usage
// its annotation sets, and its working set is the memory annotation.
func TestPrometheusScrapesKwok(t *testing.T) {
	t.Parallel()
	s := newScenario(t, "prom")
	const cpu, memory = 0.3, 96 * 1024 * 1024
	s.deploy("web", 2, map[string]string{annCPU: "300m", annMemory: "96Mi"})
	pods := s.waitPods("web", 2)

	// irate over the last two scrapes (5 s apart): kwok integrates the
	// counter at each scrape, and Prometheus stamps a sample with the time
	// the scrape was due, so a loaded machine makes the rate a little off.
	rate := fmt.Sprintf(`irate(container_cpu_usage_seconds_total{namespace=%q,container="app"}[30s])`, s.ns)
	mem := fmt.Sprintf(`container_memory_working_set_bytes{namespace=%q,container="app"}`, s.ns)
	s.poll("Prometheus's CPU rate and working set of both pods", 90*time.Second, func() error {
		rates, err := promQuery(rate)
		if err != nil {
			return err
		}
		mems, err := promQuery(mem)
		if err != nil {
			return err
		}
		byPod := map[string]float64{}
		for _, r := range rates {
			if r.Labels["node"] != "kwok-node-0" {
				return fmt.Errorf("series %v has no node label kwok-node-0", r.Labels)
			}
			byPod[r.Labels["pod"]] = r.Value
		}
		memByPod := map[string]float64{}
		for _, m := range mems {
			memByPod[m.Labels["pod"]] = m.Value
		}
		for _, p := range pods {
			got, ok := byPod[p.Name]
			if !ok {
				return fmt.Errorf("no CPU rate for pod %s yet (have %v)", p.Name, byPod)
			}
			if math.Abs(got-cpu) > 0.05*cpu {
				return fmt.Errorf("pod %s: CPU rate %.4f cores, want %.3f ± 5%%", p.Name, got, cpu)
			}
			if m := memByPod[p.Name]; m != memory {
				return fmt.Errorf("pod %s: working set %.0f bytes, want %d", p.Name, m, memory)
			}
		}
		t.Logf("Prometheus: CPU rate per pod %v cores, working set %v bytes", byPod, memByPod)
		return nil
	})

	// A usage change reaches the rate within a couple of scrapes.
	s.annotate(pods[:1], map[string]string{annCPU: "700m"})
	s.poll("Prometheus's CPU rate after the usage change", 60*time.Second, func() error {
		rates, err := promQuery(fmt.Sprintf(`irate(container_cpu_usage_seconds_total{namespace=%q,pod=%q,container="app"}[30s])`, s.ns, pods[0].Name))
		if err != nil {
			return err
		}
		if len(rates) != 1 || math.Abs(rates[0].Value-0.7) > 0.05*0.7 {
			return fmt.Errorf("rate of %s: %v, want 0.7 ± 5%%", pods[0].Name, rates)
		}
		return nil
	})
}

var scaledObjectGVR = schema.GroupVersionResource{Group: "keda.sh", Version: "v1alpha1", Resource: "scaledobjects"}

// requireKEDA skips the test unless `make test-e2e` (or the caller) said
// KEDA is attached, and fails it if KEDA then does not serve external metrics.
func requireKEDA(t *testing.T) {
	t.Helper()
	if !envSet(kedaEnv) {
		t.Skipf("KEDA is not attached (%s unset): `make test-e2e` runs this in its KEDA phase; "+
			"by hand: hack/cluster/keda.sh up && %s=1 go test -tags e2e -run KEDA ./test/e2e/", kedaEnv, kedaEnv)
	}
	dyn, err := dynamic.NewForConfig(env.cfg)
	if err != nil {
		t.Fatal(err)
	}
	gvr := schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
	a, err := dyn.Resource(gvr).Get(t.Context(), "v1beta1.external.metrics.k8s.io", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("%s=1 but: %v", kedaEnv, err)
	}
	if ns, _, _ := unstructured.NestedString(a.Object, "spec", "service", "namespace"); ns != "keda" {
		t.Fatalf("%s=1 but v1beta1.external.metrics.k8s.io is served from namespace %q, not keda (hack/cluster/keda.sh up)", kedaEnv, ns)
	}
}

// TestKEDASmoke: a ScaledObject with a metrics-api trigger that reads an HTTP
// server of this test. Below the activation value the Deployment goes to (and
// stays at) 0; above it, KEDA scales it 0 → 1 and the HPA KEDA made reads its
// External metric from KEDA's metrics server; below it again, KEDA scales it to
// 0 after the cooldown.
func TestKEDASmoke(t *testing.T) {
	requireKEDA(t)
	t.Parallel()
	s := newScenario(t, "keda")

	var value atomic.Int64
	value.Store(3)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"value": %d}`, value.Load())
	}))
	t.Cleanup(srv.Close)

	s.deploy("worker", 1, map[string]string{annCPU: cpuIdle})
	s.waitPods("worker", 1)

	dyn, err := dynamic.NewForConfig(env.cfg)
	if err != nil {
		t.Fatal(err)
	}
	so := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "keda.sh/v1alpha1",
		"kind":       "ScaledObject",
		"metadata":   map[string]any{"name": "worker"},
		"spec": map[string]any{
			"scaleTargetRef":  map[string]any{"name": "worker"},
			"pollingInterval": int64(1),
			"cooldownPeriod":  int64(5),
			"minReplicaCount": int64(0),
			"maxReplicaCount": int64(3),
			"triggers": []any{map[string]any{
				"type": "metrics-api",
				"metadata": map[string]any{
					"url":                   srv.URL + "/queue",
					"format":                "json",
					"valueLocation":         "value",
					"targetValue":           "10",
					"activationTargetValue": "5",
				},
			}},
		},
	}}
	sos := dyn.Resource(scaledObjectGVR).Namespace(s.ns)
	if _, err := sos.Create(s.ctx, so, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create ScaledObject: %v", err)
	}
	// The ScaledObject carries KEDA's finalizer: delete it while KEDA runs
	// (before the namespace, which would hang once KEDA is detached).
	t.Cleanup(func() {
		ctx := context.Background()
		if err := sos.Delete(ctx, "worker", metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Logf("delete ScaledObject: %v", err)
			return
		}
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if _, err := sos.Get(ctx, "worker", metav1.GetOptions{}); apierrors.IsNotFound(err) {
				return
			}
			time.Sleep(250 * time.Millisecond)
		}
		t.Logf("ScaledObject worker still there 30s after its deletion")
	})

	replicas := func() (int32, error) {
		d, err := env.kube.AppsV1().Deployments(s.ns).Get(s.ctx, "worker", metav1.GetOptions{})
		if err != nil {
			return 0, err
		}
		return *d.Spec.Replicas, nil
	}
	waitReplicas := func(what string, want int32, timeout time.Duration) {
		t.Helper()
		began := time.Now()
		s.poll(what, timeout, func() error {
			n, err := replicas()
			if err != nil {
				return err
			}
			if n != want {
				return fmt.Errorf("spec.replicas %d, want %d", n, want)
			}
			return nil
		})
		t.Logf("%s after %v", what, time.Since(began).Round(100*time.Millisecond))
	}

	// 3 is below the activation value 5: never active, so KEDA scales 1 → 0
	// (initialCooldownPeriod 0) and keeps it there.
	waitReplicas("inactive: scaled 1 → 0", 0, 90*time.Second)
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		if n, err := replicas(); err != nil || n != 0 {
			t.Fatalf("at 3 (activation 5) the Deployment has %d replicas (%v), want it to stay at 0", n, err)
		}
	}

	// 25 is above the activation value: KEDA scales 0 → 1, then the HPA
	// decides (AverageValue 10: 25/10 → 3, its maxReplicas).
	value.Store(25)
	waitReplicas("active: scaled 0 → 1 or more", 1, 60*time.Second)
	var hpaName, metricName string
	s.poll("ScaledObject status.hpaName", 30*time.Second, func() error {
		u, err := sos.Get(s.ctx, "worker", metav1.GetOptions{})
		if err != nil {
			return err
		}
		hpaName, _, _ = unstructured.NestedString(u.Object, "status", "hpaName")
		if hpaName == "" {
			return fmt.Errorf("no status.hpaName yet")
		}
		return nil
	})
	if hpaName != "keda-hpa-worker" {
		t.Errorf("status.hpaName %q, want keda-hpa-worker", hpaName)
	}
	o := s.settle(hpaName, settleOptions{timeout: 2 * time.Minute},
		desired(3),
		hasCondition(autoscalingv2.ScalingActive, "True", "ValidMetricFound"),
		func(o *observed) error {
			ms := o.HPA.Status.CurrentMetrics
			if len(ms) != 1 || ms[0].External == nil || ms[0].External.Current.AverageValue == nil {
				return fmt.Errorf("currentMetrics %s: want one External metric with an averageValue", jsonString(ms))
			}
			return nil
		})
	metricName = o.HPA.Spec.Metrics[0].External.Metric.Name
	t.Logf("HPA %s: External %s = %s (averageValue), desired %d", hpaName, metricName,
		o.HPA.Status.CurrentMetrics[0].External.Current.AverageValue, o.HPA.Status.DesiredReplicas)

	// The value comes from KEDA's metrics server: the same through the API.
	raw, err := env.kube.Discovery().RESTClient().Get().
		AbsPath("/apis/external.metrics.k8s.io/v1beta1/namespaces", s.ns, metricName).
		Param("labelSelector", "scaledobject.keda.sh/name=worker").DoRaw(s.ctx)
	if err != nil {
		t.Fatalf("read %s from external.metrics.k8s.io: %v", metricName, err)
	}
	var list struct {
		Items []struct {
			Value string `json:"value"`
		} `json:"items"`
	}
	if err := json.Unmarshal(raw, &list); err != nil || len(list.Items) != 1 || list.Items[0].Value != "25" {
		t.Fatalf("external.metrics.k8s.io answered %s (%v), want one item of value 25", raw, err)
	}

	// Back below the activation value: 0 after the cooldown (5 s), straight
	// from 3.
	value.Store(0)
	waitReplicas("inactive again: scaled to 0 after the cooldown", 0, 90*time.Second)
}
