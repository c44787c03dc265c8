// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	fakediscovery "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	core "k8s.io/client-go/testing"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	metricsfake "k8s.io/metrics/pkg/client/clientset/versioned/fake"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/history"
)

var w0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// fakeWatchCluster is one Deployment web (4 replicas) with an HPA on cpu
// (target 50 %) and a 60 s scale-down window, its pods using usage[i]
// millicores of 1000m, and the metrics API answering with the current usage.
type fakeWatchCluster struct {
	kube    *fake.Clientset
	metrics *metricsfake.Clientset
	mu      sync.Mutex
	usage   int64
}

func newFakeWatchCluster(t *testing.T, usage int64) *fakeWatchCluster {
	t.Helper()
	c := &fakeWatchCluster{usage: usage}
	four := int32(4)
	window := int32(60)
	objs := []apiruntime.Object{
		&appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
			Spec:       appsv1.DeploymentSpec{Replicas: &four, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
			Status:     appsv1.DeploymentStatus{Replicas: 4},
		},
		&autoscalingv2.HorizontalPodAutoscaler{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "uid-1", Generation: 1},
			Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
				ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
				MinReplicas:    ptr(int32(1)), MaxReplicas: 10,
				Metrics: []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
					Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr(int32(50))},
				}}},
				Behavior: &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: &window}},
			},
		},
	}
	// The API server defaults what it stores.
	engine.DefaultHPA(objs[1].(*autoscalingv2.HorizontalPodAutoscaler))
	start := metav1.NewTime(w0.Add(-time.Hour))
	for i := range 4 {
		objs = append(objs, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("web-%d", i), Namespace: "shop", Labels: map[string]string{"app": "web"}},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}}},
			Status:     corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &start, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: start}}},
		})
	}
	c.kube = fake.NewClientset(objs...)
	c.kube.Discovery().(*fakediscovery.FakeDiscovery).FakedServerVersion = &version.Info{GitVersion: "v1.36.3"}
	c.metrics = metricsfake.NewSimpleClientset()
	c.metrics.PrependReactor("list", "pods", func(core.Action) (bool, apiruntime.Object, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		out := &metricsv1beta1.PodMetricsList{}
		for i := range 4 {
			out.Items = append(out.Items, metricsv1beta1.PodMetrics{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("web-%d", i), Namespace: "shop", Labels: map[string]string{"app": "web"}},
				Timestamp:  metav1.NewTime(w0), Window: metav1.Duration{Duration: 15 * time.Second},
				Containers: []metricsv1beta1.ContainerMetrics{{Name: "app", Usage: corev1.ResourceList{corev1.ResourceCPU: *resource.NewMilliQuantity(c.usage, resource.DecimalSI)}}},
			})
		}
		return true, out, nil
	})
	return c
}

// clients wires the fakes; the scale subresource answers from the
// Deployment, as the API server does.
func (c *fakeWatchCluster) clients() *gather.Clients {
	scales := &scalefake.FakeScaleClient{}
	scales.AddReactor("get", "deployments", func(a core.Action) (bool, apiruntime.Object, error) {
		d, err := c.kube.AppsV1().Deployments(a.GetNamespace()).Get(context.Background(), a.(core.GetAction).GetName(), metav1.GetOptions{})
		if err != nil {
			return true, nil, err
		}
		return true, &autoscalingv1.Scale{
			ObjectMeta: metav1.ObjectMeta{Name: d.Name, Namespace: d.Namespace},
			Spec:       autoscalingv1.ScaleSpec{Replicas: *d.Spec.Replicas},
			Status:     autoscalingv1.ScaleStatus{Replicas: d.Status.Replicas, Selector: "app=web"},
		}, nil
	})
	mapper := meta.NewDefaultRESTMapper([]schema.GroupVersion{{Group: "apps", Version: "v1"}})
	mapper.Add(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, meta.RESTScopeNamespace)
	return &gather.Clients{Kube: c.kube, Metrics: c.metrics, Scales: scales, Mapper: mapper}
}

func (c *fakeWatchCluster) setUsage(u int64) {
	c.mu.Lock()
	c.usage = u
	c.mu.Unlock()
}

// A watch records each sync's recommendation; a load drop is then held by
// the scale-down window until the recorded higher recommendations leave it,
// and heldUntil says exactly when. After a full window the history is
// observed, and an explain in the meantime uses the recorded history.
func TestWatchRecordsTheHistory(t *testing.T) {
	c := newFakeWatchCluster(t, 900) // 90 % of 1 CPU: ratio 1.8, wants 8
	store := &history.Store{Dir: t.TempDir()}
	factory := &Factory{GatherClients: c.clients(), Hint: DefaultHint}
	now := w0
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	ticks := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan *WatchUpdate, 100)
	// changes are the replays between syncs, made when an input changed
	// (not recorded): they say when the watch has seen an update.
	changes := make(chan *WatchUpdate, 100)
	done := make(chan error, 1)
	go func() {
		done <- Watch(ctx, WatchConfig{
			Source: Source{Clients: factory, Namespace: "shop"}, Name: "web", History: store,
			Settings: SettingsOverrides{SyncPeriod: ptr(15 * time.Second)},
			Clock:    clock, NewTicker: func(time.Duration) (<-chan time.Time, func()) { return ticks, func() {} },
		}, func(u *WatchUpdate) error {
			if u.Sync {
				updates <- u
				return nil
			}
			select {
			case changes <- u:
			default:
			}
			return nil
		})
	}()
	seen := func(what string, ok func(*explain.Decision) bool) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case u := <-changes:
				if len(u.Decisions) == 1 && ok(u.Decisions[0]) {
					return
				}
			case <-deadline:
				t.Fatalf("the watch never saw %s", what)
			}
		}
	}
	next := func() *explain.Decision {
		t.Helper()
		select {
		case u := <-updates:
			if len(u.Decisions) != 1 {
				t.Fatalf("%d decisions", len(u.Decisions))
			}
			return u.Decisions[0]
		case err := <-done:
			t.Fatalf("watch ended: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatal("no update")
		}
		return nil
	}
	tick := func(d time.Duration) *explain.Decision {
		t.Helper()
		mu.Lock()
		now = now.Add(d)
		at := now
		mu.Unlock()
		ticks <- at
		return next()
	}
	goroutines := runtime.NumGoroutine()

	d := next()
	if d.DesiredReplicas != 8 || !strings.Contains(d.StateBefore.Notes[0], "watched for 0s of the 1m0s window") {
		t.Fatalf("first sync: desired %d, notes %q", d.DesiredReplicas, d.StateBefore.Notes)
	}
	// The controller scaled 4 → 8: its status says so.
	h, _ := c.kube.AutoscalingV2().HorizontalPodAutoscalers("shop").Get(ctx, "web", metav1.GetOptions{})
	h.Status = autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: 4, DesiredReplicas: 8, LastScaleTime: &metav1.Time{Time: w0.Add(2 * time.Second)}}
	if _, err := c.kube.AutoscalingV2().HorizontalPodAutoscalers("shop").UpdateStatus(ctx, h, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	dep, _ := c.kube.AppsV1().Deployments("shop").Get(ctx, "web", metav1.GetOptions{})
	dep.Spec.Replicas, dep.Status.Replicas = ptr(int32(8)), 8
	if _, err := c.kube.AppsV1().Deployments("shop").Update(ctx, dep, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The next sync must read both updates, as the controller's would.
	seen("the rescale to 8", func(d *explain.Decision) bool {
		return d.CurrentReplicas == 8 && d.Agreement.Checked
	})
	// The load drops to 200m on each pod: 20 %, ratio 0.4, wants 2 (the
	// four pods listed), held at 8 by the recommendation of 8 recorded at
	// w0 until it leaves the 60 s window.
	c.setUsage(200)
	var held *explain.Decision
	for range 3 {
		held = tick(15 * time.Second)
	}
	st := held.Normalization.Stabilization
	if held.DesiredReplicas != 8 || st.HeldUntil == nil {
		t.Fatalf("at +45s: desired %d, stabilization %+v", held.DesiredReplicas, st)
	}
	if want := w0.Add(60 * time.Second); !st.HeldUntil.Equal(want) {
		t.Errorf("heldUntil %s, want %s", st.HeldUntil, want)
	}
	if p := held.StateBefore.Provenance; p == explain.Observed {
		t.Errorf("after 45 s of a 60 s window: provenance %s", p)
	}
	if len(held.StateBefore.ScaleUpEvents) != 1 || held.StateBefore.ScaleUpEvents[0].ReplicaChange != 4 {
		t.Errorf("observed rescales %+v", held.StateBefore.ScaleUpEvents)
	}

	// Meanwhile, an explain in another terminal uses the recorded history.
	explainNow := func(store *history.Store) *explain.Decision {
		t.Helper()
		res, err := Explain(ctx, ExplainConfig{
			Source: Source{Clients: factory, Namespace: "shop", Now: clock(), History: store}, Name: "web",
			Settings: SettingsOverrides{SyncPeriod: ptr(15 * time.Second)},
		})
		if err != nil {
			t.Fatal(err)
		}
		return res.Decision
	}
	e := explainNow(store)
	if !strings.Contains(e.StateBefore.Notes[0], "recorded by kubectl hpa explain --watch") {
		t.Errorf("explain during the watch: notes %q", e.StateBefore.Notes)
	}
	if hu := e.Normalization.Stabilization.HeldUntil; hu == nil || !hu.Equal(*st.HeldUntil) {
		t.Errorf("explain's heldUntil %v, the watch's %v", hu, st.HeldUntil)
	}
	// The hold ends at w0+60s: the sync at +60s scales down.
	d = tick(15 * time.Second)
	if d.DesiredReplicas != 2 || d.StateBefore.Provenance != explain.Observed {
		t.Errorf("at +60s: desired %d, provenance %s", d.DesiredReplicas, d.StateBefore.Provenance)
	}
	if e := explainNow(store); e.StateBefore.Provenance != explain.Observed {
		t.Errorf("explain after a full window: provenance %s, notes %q", e.StateBefore.Provenance, e.StateBefore.Notes)
	}
	// Without history, a fresh controller is assumed.
	if e := explainNow(nil); e.StateBefore.Provenance == explain.Observed {
		t.Errorf("explain without history: %+v", e.StateBefore)
	}

	// An hour of syncs leaks no goroutines and holds no growing memory.
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	for range 240 {
		tick(15 * time.Second)
	}
	after := heap()
	t.Logf("heap %d KiB before an hour of syncs, %d KiB after; %d goroutines at the start", before>>10, after>>10, goroutines)
	if after > before+8<<20 {
		t.Errorf("the heap grew from %d KiB to %d KiB over an hour of syncs", before>>10, after>>10)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The watch has returned, but the goroutines it stopped (the
	// informers', the fake clients' watchers) end on their own time: wait
	// for the count to come back, with a bound, rather than a fixed pause
	// that a loaded machine (-race, nice 19) outlasts.
	if g := goroutinesAtMost(goroutines+5, 10*time.Second); g > goroutines+5 {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines 10s after an hour of syncs ended, %d during the first; they are:\n%s", g, goroutines, buf[:runtime.Stack(buf, true)])
	}
}

// goroutinesAtMost waits until at most limit goroutines run, or bound has
// passed, and returns how many run then.
func goroutinesAtMost(limit int, bound time.Duration) int {
	deadline := time.Now().Add(bound)
	for {
		n := runtime.NumGoroutine()
		if n <= limit || time.Now().After(deadline) {
			return n
		}
		time.Sleep(5 * time.Millisecond)
	}
}
