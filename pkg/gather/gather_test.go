// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	core "k8s.io/client-go/testing"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	metricsfake "k8s.io/metrics/pkg/client/clientset/versioned/fake"
	customclient "k8s.io/metrics/pkg/client/custom_metrics"
	externalclient "k8s.io/metrics/pkg/client/external_metrics"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// fakeCustom answers custom-metrics queries from a list and records them.
type fakeCustom struct {
	items   []custommetricsv1beta2.MetricValue
	err     error
	queries []string
}

func (f *fakeCustom) RootScopedMetrics() customclient.MetricsInterface { return &fakeCustomNS{f: f} }

func (f *fakeCustom) NamespacedMetrics(ns string) customclient.MetricsInterface {
	return &fakeCustomNS{f: f, ns: ns}
}

type fakeCustomNS struct {
	f  *fakeCustom
	ns string
}

func (n *fakeCustomNS) GetForObject(gk schema.GroupKind, name, metric string, ms labels.Selector) (*custommetricsv1beta2.MetricValue, error) {
	n.f.queries = append(n.f.queries, fmt.Sprintf("object ns=%q %s/%s %s selector=%q", n.ns, gk.Kind, name, metric, ms.String()))
	if n.f.err != nil {
		return nil, n.f.err
	}
	for i := range n.f.items {
		it := n.f.items[i]
		if it.Metric.Name == metric && it.DescribedObject.Kind == gk.Kind && it.DescribedObject.Name == name {
			return &it, nil
		}
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Group: "custom.metrics.k8s.io"}, metric)
}

func (n *fakeCustomNS) GetForObjects(gk schema.GroupKind, sel labels.Selector, metric string, ms labels.Selector) (*custommetricsv1beta2.MetricValueList, error) {
	n.f.queries = append(n.f.queries, fmt.Sprintf("objects ns=%q %s %s labels=%q selector=%q", n.ns, gk.Kind, metric, sel.String(), ms.String()))
	if n.f.err != nil {
		return nil, n.f.err
	}
	out := &custommetricsv1beta2.MetricValueList{}
	for _, it := range n.f.items {
		if it.Metric.Name == metric && it.DescribedObject.Kind == gk.Kind {
			out.Items = append(out.Items, it)
		}
	}
	return out, nil
}

type fakeExternal struct {
	items   []externalmetricsv1beta1.ExternalMetricValue
	queries []string
}

func (f *fakeExternal) NamespacedMetrics(ns string) externalclient.MetricsInterface {
	return &fakeExternalNS{f: f, ns: ns}
}

type fakeExternalNS struct {
	f  *fakeExternal
	ns string
}

func (n *fakeExternalNS) List(metric string, sel labels.Selector) (*externalmetricsv1beta1.ExternalMetricValueList, error) {
	n.f.queries = append(n.f.queries, fmt.Sprintf("external ns=%q %s selector=%q", n.ns, metric, sel.String()))
	out := &externalmetricsv1beta1.ExternalMetricValueList{}
	for _, it := range n.f.items {
		if it.MetricName == metric && sel.Matches(labels.Set(it.MetricLabels)) {
			out.Items = append(out.Items, it)
		}
	}
	return out, nil
}

func hpaObj(ns, name, target string, metrics ...autoscalingv2.MetricSpec) *autoscalingv2.HorizontalPodAutoscaler {
	return &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: target},
			MinReplicas:    ptr(int32(1)), MaxReplicas: 10, Metrics: metrics,
		},
	}
}

func podObj(ns, name, app string) *corev1.Pod {
	start := metav1.NewTime(now.Add(-time.Hour))
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": app}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")}}}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &start, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: start}}},
	}
}

var cpu50 = autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr(int32(50))}}}

// cluster is a set of fakes wired into Clients.
type cluster struct {
	kube     *fake.Clientset
	scales   *scalefake.FakeScaleClient
	metrics  *metricsfake.Clientset
	custom   *fakeCustom
	external *fakeExternal
}

func newCluster(objs []runtime.Object, selectors map[string]string, podMetrics []metricsv1beta1.PodMetrics) *cluster {
	c := &cluster{kube: fake.NewClientset(objs...), scales: &scalefake.FakeScaleClient{}, metrics: metricsfake.NewSimpleClientset(), custom: &fakeCustom{}, external: &fakeExternal{}}
	c.scales.AddReactor("get", "deployments", func(a core.Action) (bool, runtime.Object, error) {
		name := a.(core.GetAction).GetName()
		sel, ok := selectors[a.GetNamespace()+"/"+name]
		if !ok {
			return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: "apps", Resource: "deployments"}, name)
		}
		return true, &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: a.GetNamespace()}, Spec: autoscalingv1.ScaleSpec{Replicas: 2}, Status: autoscalingv1.ScaleStatus{Replicas: 2, Selector: sel}}, nil
	})
	// PodMetrics go through a reactor, as kubectl top's tests do: the
	// tracker would file them under a guessed resource.
	c.metrics.PrependReactor("list", "pods", func(a core.Action) (bool, runtime.Object, error) {
		sel := a.(core.ListAction).GetListRestrictions().Labels
		out := &metricsv1beta1.PodMetricsList{}
		for _, pm := range podMetrics {
			if (a.GetNamespace() == "" || pm.Namespace == a.GetNamespace()) && sel.Matches(labels.Set(pm.Labels)) {
				out.Items = append(out.Items, pm)
			}
		}
		return true, out, nil
	})
	return c
}

func (c *cluster) clients() *Clients {
	mapper := meta.NewDefaultRESTMapper([]schema.GroupVersion{{Group: "apps", Version: "v1"}})
	mapper.Add(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, meta.RESTScopeNamespace)
	return &Clients{Kube: c.kube, Scales: c.scales, Mapper: mapper, Metrics: c.metrics, Custom: c.custom, External: c.external}
}

func podMetric(ns, name, app, cpu string) metricsv1beta1.PodMetrics {
	return metricsv1beta1.PodMetrics{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": app}},
		Timestamp:  metav1.NewTime(now.Add(-10 * time.Second)), Window: metav1.Duration{Duration: 15 * time.Second},
		Containers: []metricsv1beta1.ContainerMetrics{{Name: "c", Usage: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}}},
	}
}

func TestSnapshotReadsWhatTheControllerReads(t *testing.T) {
	queue := autoscalingv2.MetricSpec{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
		Metric: autoscalingv2.MetricIdentifier{Name: "queue", Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"q": "orders"}}},
		Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: resource.NewQuantity(10, resource.DecimalSI)},
	}}
	qps := autoscalingv2.MetricSpec{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricSource{
		Metric: autoscalingv2.MetricIdentifier{Name: "qps"},
		Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: resource.NewQuantity(5, resource.DecimalSI)},
	}}
	objs := []runtime.Object{
		hpaObj("shop", "web", "web", cpu50, qps, queue),
		hpaObj("shop", "other", "canary"),
		podObj("shop", "web-1", "web"), podObj("shop", "web-2", "web"), podObj("shop", "api-1", "api"),
		&corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "e1"}, InvolvedObject: corev1.ObjectReference{Kind: "HorizontalPodAutoscaler", Name: "web"}, Reason: "SuccessfulRescale", Message: "New size: 2; reason: x", LastTimestamp: metav1.NewTime(now.Add(-time.Minute))},
	}
	cl := newCluster(objs, map[string]string{"shop/web": "app=web", "shop/canary": "app=web"},
		[]metricsv1beta1.PodMetrics{podMetric("shop", "web-1", "web", "300m"), podMetric("shop", "web-2", "web", "400m"), podMetric("shop", "api-1", "api", "900m")})
	cl.custom.items = []custommetricsv1beta2.MetricValue{
		{DescribedObject: corev1.ObjectReference{Kind: "Pod", Name: "web-1"}, Metric: custommetricsv1beta2.MetricIdentifier{Name: "qps"}, Value: resource.MustParse("4")},
	}
	cl.external.items = []externalmetricsv1beta1.ExternalMetricValue{
		{MetricName: "queue", MetricLabels: map[string]string{"q": "orders"}, Value: resource.MustParse("30")},
		{MetricName: "queue", MetricLabels: map[string]string{"q": "refunds"}, Value: resource.MustParse("99")},
	}
	res, err := Snapshot(context.Background(), cl.clients(), "shop", "web", Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Snapshot
	if s.Target.Selector != "app=web" || s.Target.SpecReplicas != 2 || len(s.Pods) != 2 || len(s.PodMetrics) != 2 {
		t.Fatalf("target %+v, %d pods, %d pod metrics", s.Target, len(s.Pods), len(s.PodMetrics))
	}
	if len(s.CustomMetrics) != 1 || len(s.ExternalMetrics) != 1 || len(res.Events) != 1 {
		t.Fatalf("custom %d external %d events %d", len(s.CustomMetrics), len(s.ExternalMetrics), len(res.Events))
	}
	// The same queries the controller makes: the pod selector for Pods
	// metrics, the metric selector for External ones.
	if got := strings.Join(cl.custom.queries, ";"); got != `objects ns="shop" Pod qps labels="app=web" selector=""` {
		t.Errorf("custom queries: %s", got)
	}
	if got := strings.Join(cl.external.queries, ";"); got != `external ns="shop" queue selector="q=orders"` {
		t.Errorf("external queries: %s", got)
	}
	if len(s.OtherHPAs) != 1 || s.OtherHPAs[0].Selector != "app=web" {
		t.Errorf("other HPAs %+v", s.OtherHPAs)
	}
	// Only reads; the pods in one request without a limit (the API server
	// answers it from its watch cache; see podPageSize).
	podLists := 0
	for _, a := range append(cl.kube.Actions(), cl.scales.Actions()...) {
		if v := a.GetVerb(); v != "get" && v != "list" {
			t.Errorf("write request: %s %s", v, a.GetResource())
		}
		if l, ok := a.(core.ListActionImpl); ok && l.GetResource().Resource == "pods" && l.GetNamespace() == "shop" {
			podLists++
			if l.ListOptions.Limit != 0 || l.ListOptions.LabelSelector != "app=web" {
				t.Errorf("pod list with limit %d, selector %q; want no limit, app=web", l.ListOptions.Limit, l.ListOptions.LabelSelector)
			}
		}
	}
	if podLists != 1 {
		t.Errorf("%d pod lists, want 1", podLists)
	}
	// The replay on it: the other HPA's target selects the same pods, so the
	// controller refuses to compute (ambiguous selector).
	dec, err := engine.Evaluate(s, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if dec.Outcome != explain.OutcomeInvalidSelector || len(dec.Selector.ConflictingHPAs) != 1 || dec.Selector.ConflictingHPAs[0] != "shop/other" {
		t.Fatalf("outcome %s selector %+v", dec.Outcome, dec.Selector)
	}
}

func TestSnapshotAPIErrorsAreInputs(t *testing.T) {
	objs := []runtime.Object{hpaObj("shop", "web", "web", cpu50), podObj("shop", "web-1", "web")}
	cl := newCluster(objs, map[string]string{"shop/web": "app=web"}, nil)
	cl.metrics.PrependReactor("list", "pods", func(core.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewServiceUnavailable("the server is currently unable to handle the request")
	})
	cl.kube.PrependReactor("list", "events", func(core.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "events"}, "", errors.New("no"))
	})
	res, err := Snapshot(context.Background(), cl.clients(), "shop", "web", Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Snapshot.APIErrors["resource"], "unable to handle the request") {
		t.Errorf("api errors %v", res.Snapshot.APIErrors)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "could not read the HPA's events (forbidden)") {
		t.Errorf("warnings %v", res.Warnings)
	}
	dec, err := engine.Evaluate(res.Snapshot, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	m := dec.Metrics[0]
	if m.Error == nil || !strings.Contains(*m.Error, "unable to fetch metrics from resource metrics API") || m.ErrorReason != "FailedGetResourceMetric" {
		t.Fatalf("metric %+v", m)
	}

	// A scale that cannot be read is the controller's FailedGetScale.
	cl = newCluster(objs, map[string]string{}, nil)
	res, err = Snapshot(context.Background(), cl.clients(), "shop", "web", Options{Now: now})
	if err != nil || res.Snapshot.Target.GetError == "" {
		t.Fatalf("err %v target %+v", err, res.Snapshot.Target)
	}
	// A missing HPA is an error naming it.
	_, err = Snapshot(context.Background(), cl.clients(), "shop", "nope", Options{Now: now})
	if err == nil || !strings.Contains(err.Error(), `horizontalpodautoscaler "nope" in namespace "shop"`) {
		t.Fatalf("err %v", err)
	}
}

func deploymentObj(ns, name string, replicas int32) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       appsv1.DeploymentSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}}},
		Status:     appsv1.DeploymentStatus{Replicas: replicas},
	}
}

// A many-HPA read lists each shared resource once for the whole scope and
// derives the scale of built-in workloads from the list: the number of
// requests does not grow with the HPAs.
func TestManyListsOnce(t *testing.T) {
	var objs []runtime.Object
	var pms []metricsv1beta1.PodMetrics
	for _, ns := range []string{"a", "b"} {
		for i := range 4 {
			name := fmt.Sprintf("app%d", i)
			objs = append(objs, hpaObj(ns, name, name, cpu50), podObj(ns, name+"-pod", name), deploymentObj(ns, name, 2))
			pms = append(pms, podMetric(ns, name+"-pod", name, "250m"))
		}
	}
	// An HPA whose Deployment is gone gets the scale GET's NotFound.
	objs = append(objs, hpaObj("b", "orphan", "gone", cpu50))
	cl := newCluster(objs, map[string]string{}, pms)
	scope, err := List(context.Background(), cl.clients(), ManyOptions{Options: Options{Now: now, PageSize: 3}})
	if err != nil {
		t.Fatal(err)
	}
	var results []*Result
	if err := scope.Each(context.Background(), func(r *Result) error { results = append(results, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(results) != 9 {
		t.Fatalf("%d results", len(results))
	}
	calls := map[string]int{}
	for _, a := range append(cl.kube.Actions(), cl.metrics.Actions()...) {
		calls[a.GetVerb()+" "+a.GetResource().Resource+"@"+a.GetNamespace()]++
	}
	// The fake clientset ignores the page size, so each list is one call.
	want := map[string]int{
		"list horizontalpodautoscalers@": 1, "list pods@": 2, "list events@": 1,
		"list replicasets@": 1, "list deployments@": 1,
	}
	for k, v := range want {
		if calls[k] != v {
			t.Errorf("%s: %d calls, want %d (all: %v)", k, calls[k], v, calls)
		}
	}
	if n := len(cl.scales.Actions()); n != 0 {
		t.Errorf("%d scale GETs, want none", n)
	}
	var order []string
	for _, r := range results {
		s := r.Snapshot
		order = append(order, s.HPA.Namespace+"/"+s.HPA.Name)
		if s.HPA.Name == "orphan" {
			if s.Target.GetError != `deployments.apps "gone" not found` {
				t.Errorf("orphan: target %+v", s.Target)
			}
			continue
		}
		if s.Target.SpecReplicas != 2 || s.Target.Selector != "app="+s.HPA.Name || s.Target.Kind != "Deployment" {
			t.Errorf("%s: target %+v", s.HPA.Name, s.Target)
		}
		if len(s.Pods) != 1 || len(s.PodMetrics) != 1 || len(s.OtherHPAs) != 3 {
			t.Fatalf("%s/%s: %d pods %d metrics %d others", s.HPA.Namespace, s.HPA.Name, len(s.Pods), len(s.PodMetrics), len(s.OtherHPAs))
		}
		if len(s.Pods[0].ManagedFields) != 0 || s.Pods[0].Spec.Containers[0].Resources.Requests.Cpu().MilliValue() != 500 {
			t.Errorf("pod not reduced to what the replay reads: %+v", s.Pods[0])
		}
		dec, err := engine.Evaluate(s, engine.DefaultSettings())
		// 250m of 500m against a 50% target: within tolerance, keep 2.
		if err != nil || dec.Metrics[0].ProposedReplicas == nil || *dec.Metrics[0].ProposedReplicas != 2 {
			t.Fatalf("%s: %v %+v", s.HPA.Name, err, dec.Metrics[0])
		}
	}
	if got := strings.Join(order, " "); got != "a/app0 a/app1 a/app2 a/app3 b/app0 b/app1 b/app2 b/app3 b/orphan" {
		t.Errorf("order %s", got)
	}
}

// A many-HPA read asks for the PodMetrics before the HPAs are listed (at
// 20,000 pods, metrics-server's one whole answer came last when asked for
// with the other lists), and a scope without resource metrics drops that
// answer, failed or not.
func TestManyAsksForPodMetricsFirst(t *testing.T) {
	ext := autoscalingv2.MetricSpec{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
		Metric: autoscalingv2.MetricIdentifier{Name: "queue"},
		Target: autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: ptr(resource.MustParse("10"))},
	}}
	for _, tc := range []struct {
		name     string
		metric   autoscalingv2.MetricSpec
		failHPAs bool
	}{
		{"resource metrics", cpu50, false},
		{"no resource metric", ext, false},
		{"the HPAs cannot be listed", cpu50, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs := []runtime.Object{hpaObj("a", "web", "web", tc.metric), podObj("a", "web-1", "web"), deploymentObj("a", "web", 1)}
			cl := newCluster(objs, map[string]string{}, []metricsv1beta1.PodMetrics{podMetric("a", "web-1", "web", "250m")})
			asked := make(chan struct{})
			var once sync.Once
			// Runs before newCluster's reactor, and hands on to it.
			cl.metrics.PrependReactor("list", "pods", func(core.Action) (bool, runtime.Object, error) {
				once.Do(func() { close(asked) })
				if tc.metric.Type != autoscalingv2.ResourceMetricSourceType {
					return true, nil, apierrors.NewServiceUnavailable("no metrics-server")
				}
				return false, nil, nil
			})
			cl.kube.PrependReactor("list", "horizontalpodautoscalers", func(core.Action) (bool, runtime.Object, error) {
				select {
				case <-asked:
				case <-time.After(10 * time.Second):
					t.Error("the HPAs were listed before the PodMetrics were asked for")
				}
				if tc.failHPAs {
					return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "autoscaling", Resource: "horizontalpodautoscalers"}, "", errors.New("no"))
				}
				return false, nil, nil
			})
			scope, err := List(context.Background(), cl.clients(), ManyOptions{Options: Options{Now: now}})
			if tc.failHPAs {
				if err == nil || !strings.Contains(err.Error(), "list horizontalpodautoscalers in all namespaces") {
					t.Fatalf("err %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var results []*Result
			if err := scope.Each(context.Background(), func(r *Result) error { results = append(results, r); return nil }); err != nil {
				t.Fatal(err)
			}
			if len(results) != 1 {
				t.Fatalf("%d results", len(results))
			}
			s := results[0].Snapshot
			if len(scope.Warnings()) != 0 || len(results[0].Warnings) != 0 || s.APIErrors["resource"] != "" {
				t.Errorf("warnings %v %v, API errors %v", scope.Warnings(), results[0].Warnings, s.APIErrors)
			}
			want := 0
			if tc.metric.Type == autoscalingv2.ResourceMetricSourceType {
				want = 1
			}
			if len(s.PodMetrics) != want {
				t.Errorf("%d PodMetrics, want %d", len(s.PodMetrics), want)
			}
		})
	}
}
