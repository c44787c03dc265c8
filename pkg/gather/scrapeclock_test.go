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

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	metricsfake "k8s.io/metrics/pkg/client/clientset/versioned/fake"
)

// fakeClock is a clock that moves only when told to: by a sleep, or by
// a fake server's answer taking its time.
type fakeClock struct {
	mu     sync.Mutex
	t      time.Time
	sleeps int
	// onSleep, when set, runs before each sleep (a test cancels its
	// context there).
	onSleep func(n int)
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func (c *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps++
	n, hook := c.sleeps, c.onSleep
	c.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.advance(d)
	return nil
}

// scrapeStart is the fake clock's start: 0.3 s into a second, so that the
// whole-second timestamps and the polled moments differ.
var scrapeStart = time.Date(2026, 5, 4, 20, 14, 20, 300_000_000, time.UTC)

// scrapeCluster is a fake cluster for ReadScrapeClock: PodMetrics served
// by reactors, a clock, and the fakes' recorded requests.
type scrapeCluster struct {
	kube    *fake.Clientset
	metrics *metricsfake.Clientset
	clock   *fakeClock
	// gets counts the GETs of a PodMetrics.
	gets int
	// changeAt, when set, is the instant the polled pod's timestamp moves
	// from the list's to newStamp; the server sees each GET 2 ms after it
	// is sent and answers 3 ms later.
	changeAt time.Time
	newStamp time.Time
	getErr   error
}

func pm(ns, name string, window time.Duration, ts time.Time) metricsv1beta1.PodMetrics {
	return metricsv1beta1.PodMetrics{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Timestamp:  metav1.NewTime(ts.Truncate(time.Second)),
		Window:     metav1.Duration{Duration: window},
	}
}

func node(name string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

func newScrapeCluster(items []metricsv1beta1.PodMetrics, objs ...runtime.Object) *scrapeCluster {
	sc := &scrapeCluster{kube: fake.NewClientset(objs...), metrics: metricsfake.NewSimpleClientset(), clock: &fakeClock{t: scrapeStart}}
	sc.metrics.PrependReactor("list", "pods", func(a core.Action) (bool, runtime.Object, error) {
		out := &metricsv1beta1.PodMetricsList{}
		for _, it := range items {
			if a.GetNamespace() == "" || it.Namespace == a.GetNamespace() {
				out.Items = append(out.Items, it)
			}
		}
		return true, out, nil
	})
	sc.metrics.PrependReactor("get", "pods", func(a core.Action) (bool, runtime.Object, error) {
		sc.gets++
		sc.clock.advance(2 * time.Millisecond)
		defer sc.clock.advance(3 * time.Millisecond)
		if sc.getErr != nil {
			return true, nil, sc.getErr
		}
		name := a.(core.GetAction).GetName()
		for _, it := range items {
			if it.Namespace == a.GetNamespace() && it.Name == name {
				out := it.DeepCopy()
				if !sc.changeAt.IsZero() && !sc.clock.now().Before(sc.changeAt) {
					out.Timestamp = metav1.NewTime(sc.newStamp.Truncate(time.Second))
				}
				return true, out, nil
			}
		}
		return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: "metrics.k8s.io", Resource: "pods"}, name)
	})
	sc.metrics.PrependReactor("list", "nodes", func(core.Action) (bool, runtime.Object, error) {
		return true, &metricsv1beta1.NodeMetricsList{}, nil
	})
	return sc
}

func (sc *scrapeCluster) clients() *Clients {
	return &Clients{Kube: sc.kube, Metrics: sc.metrics}
}

func (sc *scrapeCluster) options(o ScrapeClockOptions) ScrapeClockOptions {
	o.Now, o.Sleep = sc.clock.now, sc.clock.sleep
	return o
}

// onlyReads fails the test if a fake saw anything but GET and LIST.
func (sc *scrapeCluster) onlyReads(t *testing.T) {
	t.Helper()
	for _, a := range append(sc.kube.Actions(), sc.metrics.Actions()...) {
		if v := a.GetVerb(); v != "get" && v != "list" {
			t.Errorf("a %s of %s: ReadScrapeClock must only read", v, a.GetResource().Resource)
		}
	}
}

func forbidden(resource string) error {
	return apierrors.NewForbidden(schema.GroupResource{Resource: resource}, "", errors.New("RBAC says no"))
}

func TestMedianDuration(t *testing.T) {
	for _, tc := range []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{10 * time.Second}, 10 * time.Second},
		{[]time.Duration{20 * time.Second, 9997 * time.Millisecond, 10001 * time.Millisecond}, 10001 * time.Millisecond},
		{[]time.Duration{20 * time.Second, 9990 * time.Millisecond, 9997 * time.Millisecond, 10001 * time.Millisecond}, 9999 * time.Millisecond},
	} {
		if got := medianDuration(tc.in); got != tc.want {
			t.Errorf("medianDuration(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestResolutionOfWindow(t *testing.T) {
	for _, tc := range []struct {
		window time.Duration
		want   time.Duration
		whole  bool
	}{
		{9997 * time.Millisecond, 10 * time.Second, true},
		{10190 * time.Millisecond, 10 * time.Second, true},
		{14800 * time.Millisecond, 15 * time.Second, true},
		{60900 * time.Millisecond, 61 * time.Second, true},
		// 3% off whole seconds: not taken for them.
		{10300 * time.Millisecond, 10300 * time.Millisecond, false},
		{12500 * time.Millisecond, 12500 * time.Millisecond, false},
		{12345678 * time.Microsecond, 12346 * time.Millisecond, false},
		{400 * time.Millisecond, 400 * time.Millisecond, false},
	} {
		got, from := resolutionOf(tc.window, 3, nil)
		if got != tc.want || strings.Contains(from, "to whole seconds") != tc.whole {
			t.Errorf("resolutionOf(%s) = %s (%s), want %s (whole seconds: %v)", tc.window, got, from, tc.want, tc.whole)
		}
	}
	ms := &MetricsServerPod{Pod: "kube-system/metrics-server-1", Resolution: 15 * time.Second}
	if got, from := resolutionOf(9997*time.Millisecond, 3, ms); got != 15*time.Second || !strings.Contains(from, "--metric-resolution of kube-system/metrics-server-1") {
		t.Errorf("with the flag read: %s (%s), want the flag's 15s", got, from)
	}
}

func TestStaggerBound(t *testing.T) {
	for nodes, want := range map[int]time.Duration{0: 0, 1: 8 * time.Millisecond, 3: 24 * time.Millisecond, 500: 4 * time.Second, 5000: 4 * time.Second} {
		if got := staggerBound(nodes); got != want {
			t.Errorf("staggerBound(%d) = %s, want %s", nodes, got, want)
		}
	}
}

func TestMetricResolutionFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{[]string{"/metrics-server", "--cert-dir=/tmp", "--metric-resolution=15s"}, 15 * time.Second},
		{[]string{"metrics-server", "--metric-resolution", "30s", "--kubelet-insecure-tls"}, 30 * time.Second},
		{[]string{"/bin/sh", "-c", "exec /metrics-server --secure-port=10250 --metric-resolution=1m"}, time.Minute},
		{[]string{"/metrics-server", "--metric-resolution='20s'"}, 20 * time.Second},
		{[]string{"/metrics-server", "--metric-resolution=soon"}, 0},
		{[]string{"/metrics-server", "--metric-resolution"}, 0},
		{[]string{"/metrics-server", "--metric-resolutions=15s"}, 0},
		{nil, 0},
	} {
		if got := metricResolutionFlag(tc.args); got != tc.want {
			t.Errorf("metricResolutionFlag(%q) = %s, want %s", tc.args, got, tc.want)
		}
	}
}

// TestScrapeClockFromWholeSeconds: without a poll, the window is the
// median of the pods', its rounding the resolution, and the anchor the
// middle of the latest sample's second, ± half a second and the stagger
// of the nodes counted.
func TestScrapeClockFromWholeSeconds(t *testing.T) {
	ts := time.Date(2026, 5, 4, 20, 14, 31, 0, time.UTC)
	sc := newScrapeCluster([]metricsv1beta1.PodMetrics{
		pm("shop", "web-1", 9990*time.Millisecond, ts),
		pm("shop", "web-2", 9997*time.Millisecond, ts.Add(time.Second)),
		pm("shop", "web-3", 10001*time.Millisecond, ts),
		// A pod whose previous scrape failed spans two resolutions.
		pm("shop", "web-4", 20*time.Second, ts),
		pm("other", "api-1", 30*time.Second, ts.Add(5*time.Second)),
	}, node("n1"), node("n2"), node("n3"))
	got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Log(got.Detail)
	if got.Window != 9999*time.Millisecond || got.Windows != 4 || got.Resolution != 10*time.Second {
		t.Errorf("window %s of %d, resolution %s; want 9.999s of 4, 10s", got.Window, got.Windows, got.Resolution)
	}
	if want := ts.Add(time.Second + 500*time.Millisecond); !got.Anchor.Equal(want) {
		t.Errorf("anchor %s, want %s (the middle of web-2's second)", got.Anchor, want)
	}
	if want := 500*time.Millisecond + 24*time.Millisecond; got.Spread != want || got.Nodes != 3 {
		t.Errorf("spread %s over %d nodes, want %s over 3", got.Spread, got.Nodes, want)
	}
	if got.Polled {
		t.Error("Polled without a poll")
	}
	for _, want := range []string{"window 9.999s of 4 PodMetrics", "resolution 10s", "a scrape at 20:14:32.50 UTC ±524ms", "web-2", "3 nodes", "no metrics-server pod in kube-system"} {
		if !strings.Contains(got.Detail, want) {
			t.Errorf("Detail %q does not say %q", got.Detail, want)
		}
	}
	if !strings.Contains(got.AnchorFrom, "whole-second timestamp of web-2") || !strings.Contains(got.ResolutionFrom, "median window of 4 PodMetrics") {
		t.Errorf("AnchorFrom %q, ResolutionFrom %q", got.AnchorFrom, got.ResolutionFrom)
	}
	if sc.gets != 0 {
		t.Errorf("%d GETs of PodMetrics without a poll", sc.gets)
	}
	sc.onlyReads(t)
}

func TestScrapeClockPodsFilter(t *testing.T) {
	ts := time.Date(2026, 5, 4, 20, 14, 31, 0, time.UTC)
	items := []metricsv1beta1.PodMetrics{
		pm("shop", "web-1", 15*time.Second, ts),
		pm("shop", "web-2", 15100*time.Millisecond, ts),
		pm("shop", "api-1", 10*time.Second, ts),
		pm("shop", "api-2", 10*time.Second, ts),
		pm("shop", "api-3", 10*time.Second, ts),
		// No window: metrics-server has one point of it; it does not count.
		pm("shop", "web-3", 0, ts),
	}
	for _, tc := range []struct {
		name     string
		pods     []string
		windows  int
		res      time.Duration
		fellBack bool
	}{
		{"the pods asked about", []string{"web-1", "web-2", "web-3", "gone"}, 2, 15 * time.Second, false},
		{"every pod when none asked about", nil, 5, 10 * time.Second, false},
		{"every pod when none asked about has metrics", []string{"web-3", "gone"}, 5, 10 * time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newScrapeCluster(items, node("n1"))
			got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", tc.pods, sc.options(ScrapeClockOptions{}))
			if err != nil {
				t.Fatal(err)
			}
			if got.Windows != tc.windows || got.Resolution != tc.res {
				t.Errorf("%d windows, resolution %s; want %d, %s", got.Windows, got.Resolution, tc.windows, tc.res)
			}
			if said := strings.Contains(got.Detail, "none of the 2 pods asked about has metrics"); said != tc.fellBack {
				t.Errorf("Detail %q: says it fell back: %v, want %v", got.Detail, said, tc.fellBack)
			}
		})
	}
}

func TestScrapeClockNoMetrics(t *testing.T) {
	ts := time.Date(2026, 5, 4, 20, 14, 31, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		items []metricsv1beta1.PodMetrics
		err   error
		want  string
	}{
		{"empty", nil, nil, `has no PodMetrics with a window in namespace "shop"`},
		{"only other namespaces", []metricsv1beta1.PodMetrics{pm("other", "a", 10*time.Second, ts)}, nil, "has no PodMetrics"},
		{"no window yet", []metricsv1beta1.PodMetrics{pm("shop", "a", 0, ts)}, nil, "has no PodMetrics"},
		{"API unavailable", nil, apierrors.NewServiceUnavailable("the server is currently unable to handle the request\n(more)"), "did not answer a list of PodMetrics"},
		{"forbidden", nil, forbidden("pods"), "did not answer a list of PodMetrics in namespace \"shop\": forbidden"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newScrapeCluster(tc.items)
			if tc.err != nil {
				sc.metrics.PrependReactor("list", "pods", func(core.Action) (bool, runtime.Object, error) { return true, nil, tc.err })
			}
			_, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{Poll: true}))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q is more than one line", err)
			}
		})
	}
}

// TestScrapeClockMetricsServerPod: the flag read off metrics-server's pod
// beats the window, its container's start says since when the phase
// holds, and a forbidden read of its pod is only a note.
func TestScrapeClockMetricsServerPod(t *testing.T) {
	ts := time.Date(2026, 5, 4, 20, 14, 31, 0, time.UTC)
	started := time.Date(2026, 5, 4, 18, 2, 11, 0, time.UTC)
	items := []metricsv1beta1.PodMetrics{pm("shop", "web-1", 15*time.Second, ts)}
	labelled := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "ms-7f9", Labels: map[string]string{"k8s-app": "metrics-server"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "proxy", Args: []string{"--upstream=127.0.0.1"}},
			{Name: "server", Image: "registry.k8s.io/metrics-server/metrics-server:v0.8.0", Args: []string{"--cert-dir=/tmp", "--metric-resolution=15s"}},
		}},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning, StartTime: &metav1.Time{Time: started.Add(-time.Hour)},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "server", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(started)}}}},
		},
	}
	named := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "metrics-server-abc"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "metrics-server", Command: []string{"/metrics-server", "--metric-resolution", "10s"}}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &metav1.Time{Time: started}},
	}
	unflagged := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "metrics-server-def"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "metrics-server", Args: []string{"--secure-port=10250"}}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &metav1.Time{Time: started}},
	}
	pending := named.DeepCopy()
	pending.Name, pending.Status.Phase = "metrics-server-xyz", corev1.PodPending
	other := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "coredns-1"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}}

	t.Run("labelled, flag in args", func(t *testing.T) {
		sc := newScrapeCluster(items, labelled, other)
		got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{}))
		if err != nil {
			t.Fatal(err)
		}
		want := MetricsServerPod{Pod: "kube-system/ms-7f9", Started: started, Resolution: 15 * time.Second, Running: 1}
		if got.MetricsServer == nil || *got.MetricsServer != want {
			t.Fatalf("MetricsServer %+v, want %+v", got.MetricsServer, want)
		}
		if got.Resolution != 15*time.Second || !strings.Contains(got.ResolutionFrom, "--metric-resolution of kube-system/ms-7f9") {
			t.Errorf("resolution %s from %q", got.Resolution, got.ResolutionFrom)
		}
		if !strings.Contains(got.Detail, "since it started at 2026-05-04T18:02:11Z") || !strings.Contains(got.Detail, "--metric-resolution=15s") {
			t.Errorf("Detail %q", got.Detail)
		}
	})
	t.Run("by name, flag in command, the window disagrees", func(t *testing.T) {
		sc := newScrapeCluster(items, pending, named, other)
		got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{}))
		if err != nil {
			t.Fatal(err)
		}
		want := MetricsServerPod{Pod: "kube-system/metrics-server-abc", Started: started, Resolution: 10 * time.Second, Running: 1}
		if got.MetricsServer == nil || *got.MetricsServer != want {
			t.Fatalf("MetricsServer %+v, want %+v", got.MetricsServer, want)
		}
		if got.Resolution != 10*time.Second || !strings.Contains(got.Detail, "the windows (15s) are not the flag's 10s") {
			t.Errorf("resolution %s, Detail %q", got.Resolution, got.Detail)
		}
	})
	t.Run("two replicas, no flag", func(t *testing.T) {
		second := unflagged.DeepCopy()
		second.Name = "metrics-server-ghi"
		sc := newScrapeCluster(items, unflagged, second)
		got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{}))
		if err != nil {
			t.Fatal(err)
		}
		if got.MetricsServer == nil || got.MetricsServer.Resolution != 0 || got.MetricsServer.Running != 2 {
			t.Fatalf("MetricsServer %+v, want two running without the flag", got.MetricsServer)
		}
		if got.Resolution != 15*time.Second || !strings.Contains(got.ResolutionFrom, "median window") {
			t.Errorf("resolution %s from %q, want the window's", got.Resolution, got.ResolutionFrom)
		}
		for _, want := range []string{"without --metric-resolution", "2 metrics-server pods run"} {
			if !strings.Contains(got.Detail, want) {
				t.Errorf("Detail %q does not say %q", got.Detail, want)
			}
		}
	})
	t.Run("forbidden", func(t *testing.T) {
		sc := newScrapeCluster(items, labelled)
		sc.kube.PrependReactor("list", "pods", func(core.Action) (bool, runtime.Object, error) { return true, nil, forbidden("pods") })
		got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{}))
		if err != nil {
			t.Fatalf("a forbidden read of metrics-server's pod is no error: %v", err)
		}
		if got.MetricsServer != nil || got.Resolution != 15*time.Second {
			t.Errorf("MetricsServer %+v, resolution %s; want none and the window's", got.MetricsServer, got.Resolution)
		}
		if !strings.Contains(got.Detail, "forbidden") {
			t.Errorf("Detail %q does not say the read was forbidden", got.Detail)
		}
	})
}

func TestScrapeClockNodeCount(t *testing.T) {
	ts := time.Date(2026, 5, 4, 20, 14, 31, 0, time.UTC)
	items := []metricsv1beta1.PodMetrics{pm("shop", "web-1", 10*time.Second, ts)}
	t.Run("given", func(t *testing.T) {
		sc := newScrapeCluster(items, node("n1"))
		got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{Nodes: 600}))
		if err != nil {
			t.Fatal(err)
		}
		if got.Nodes != 600 || got.Spread != 500*time.Millisecond+4*time.Second {
			t.Errorf("%d nodes, spread %s; want 600 and 4.5s", got.Nodes, got.Spread)
		}
		for _, a := range sc.kube.Actions() {
			if a.GetResource().Resource == "nodes" {
				t.Error("nodes listed although their number was given")
			}
		}
	})
	t.Run("from NodeMetrics when nodes are forbidden", func(t *testing.T) {
		sc := newScrapeCluster(items)
		sc.kube.PrependReactor("list", "nodes", func(core.Action) (bool, runtime.Object, error) { return true, nil, forbidden("nodes") })
		sc.metrics.PrependReactor("list", "nodes", func(core.Action) (bool, runtime.Object, error) {
			return true, &metricsv1beta1.NodeMetricsList{Items: make([]metricsv1beta1.NodeMetrics, 5)}, nil
		})
		got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{}))
		if err != nil {
			t.Fatal(err)
		}
		if got.Nodes != 5 || got.Spread != 540*time.Millisecond {
			t.Errorf("%d nodes, spread %s; want 5 and 540ms", got.Nodes, got.Spread)
		}
	})
	t.Run("from the remaining count of a list of one", func(t *testing.T) {
		sc := newScrapeCluster(items)
		sc.kube.PrependReactor("list", "nodes", func(a core.Action) (bool, runtime.Object, error) {
			if lim := a.(core.ListActionImpl).ListOptions.Limit; lim != 1 {
				t.Errorf("nodes listed with limit %d, want 1", lim)
			}
			rest := int64(41)
			return true, &corev1.NodeList{ListMeta: metav1.ListMeta{Continue: "more", RemainingItemCount: &rest}, Items: []corev1.Node{*node("n1")}}, nil
		})
		got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{}))
		if err != nil {
			t.Fatal(err)
		}
		if got.Nodes != 42 {
			t.Errorf("%d nodes, want 42", got.Nodes)
		}
	})
	t.Run("unknown", func(t *testing.T) {
		sc := newScrapeCluster(items)
		sc.kube.PrependReactor("list", "nodes", func(core.Action) (bool, runtime.Object, error) { return true, nil, forbidden("nodes") })
		sc.metrics.PrependReactor("list", "nodes", func(core.Action) (bool, runtime.Object, error) { return true, nil, forbidden("nodes") })
		got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{}))
		if err != nil {
			t.Fatal(err)
		}
		if got.Nodes != 0 || got.Spread != 500*time.Millisecond || !strings.Contains(got.Detail, "node count is not readable") {
			t.Errorf("%d nodes, spread %s, Detail %q; want 0, 500ms and a note", got.Nodes, got.Spread, got.Detail)
		}
	})
}

// TestScrapeClockPoll: the poll finds the moment the timestamp changes
// within the spread it gives, wherever the change falls between two
// polls, and polls no more than it needs.
func TestScrapeClockPoll(t *testing.T) {
	listed := scrapeStart.Add(-2 * time.Second)
	for _, after := range []time.Duration{0, time.Millisecond, 50 * time.Millisecond, 104 * time.Millisecond, 3 * time.Second, 9*time.Second + 999*time.Millisecond, 11900 * time.Millisecond} {
		t.Run(after.String(), func(t *testing.T) {
			sc := newScrapeCluster([]metricsv1beta1.PodMetrics{pm("shop", "web-1", 10*time.Second, listed), pm("shop", "web-2", 10*time.Second, listed)}, node("n1"))
			// The first GET sees the old timestamp: the change is after it.
			sc.changeAt = scrapeStart.Add(5*time.Millisecond + after)
			sc.newStamp = sc.changeAt
			got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", []string{"web-2"}, sc.options(ScrapeClockOptions{Poll: true}))
			if err != nil {
				t.Fatal(err)
			}
			if !got.Polled {
				t.Fatalf("not polled: %s", got.Detail)
			}
			t.Log(got.Detail)
			if off := got.Anchor.Sub(sc.changeAt); off < -got.Spread || off > got.Spread {
				t.Errorf("anchor %s is %s off the change at %s, more than its spread %s", got.Anchor.Format(time.StampMilli), off, sc.changeAt.Format(time.StampMilli), got.Spread)
			}
			// Polls 105 ms apart (100 ms of sleep, 5 ms of answer): ±55 ms,
			// and the 8 ms stagger of one node.
			if want := 55*time.Millisecond + 8*time.Millisecond; got.Spread != want {
				t.Errorf("spread %s, want %s", got.Spread, want)
			}
			// The server sees GET k (from 0) at 2 ms + k×105 ms: the first
			// to see the new timestamp is the first at or after the change.
			wantGets := int((after+3*time.Millisecond+104*time.Millisecond)/(105*time.Millisecond)) + 1
			if sc.gets != wantGets {
				t.Errorf("%d GETs, want %d", sc.gets, wantGets)
			}
			for _, want := range []string{"seen as the change of web-2's timestamp, polled every 100ms", "±55ms between two polls", "±63ms"} {
				if !strings.Contains(got.Detail, want) {
					t.Errorf("Detail %q does not say %q", got.Detail, want)
				}
			}
			if strings.Contains(got.Detail, "clock") {
				t.Errorf("Detail %q speaks of a clock difference where there is none", got.Detail)
			}
			sc.onlyReads(t)
		})
	}
}

// TestScrapeClockPollGivesUp: without a change the poll ends at MaxWait
// (by default the window and 2 s) and the anchor comes from the
// whole-second timestamps.
func TestScrapeClockPollGivesUp(t *testing.T) {
	ts := time.Date(2026, 5, 4, 20, 14, 18, 0, time.UTC)
	for _, tc := range []struct {
		maxWait, want time.Duration
	}{
		{0, 12 * time.Second},
		{time.Second, time.Second},
		{3 * time.Second, 3 * time.Second},
	} {
		t.Run(tc.want.String(), func(t *testing.T) {
			sc := newScrapeCluster([]metricsv1beta1.PodMetrics{pm("shop", "web-1", 10*time.Second, ts)})
			got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{Poll: true, MaxWait: tc.maxWait}))
			if err != nil {
				t.Fatal(err)
			}
			if got.Polled || !got.Anchor.Equal(ts.Add(500*time.Millisecond)) {
				t.Errorf("Polled %v, anchor %s; want the whole-second one", got.Polled, got.Anchor)
			}
			if !strings.Contains(got.Detail, "did not change in") {
				t.Errorf("Detail %q does not say the poll saw no change", got.Detail)
			}
			if took := sc.clock.now().Sub(scrapeStart); took < tc.want || took > tc.want+105*time.Millisecond {
				t.Errorf("the poll took %s, want %s to %s", took, tc.want, tc.want+105*time.Millisecond)
			}
		})
	}
}

func TestScrapeClockPollFallsBack(t *testing.T) {
	ts := time.Date(2026, 5, 4, 20, 14, 18, 0, time.UTC)
	items := []metricsv1beta1.PodMetrics{pm("shop", "web-1", 10*time.Second, ts)}
	t.Run("the GET fails", func(t *testing.T) {
		sc := newScrapeCluster(items)
		sc.getErr = apierrors.NewNotFound(schema.GroupResource{Group: "metrics.k8s.io", Resource: "pods"}, "web-1")
		got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{Poll: true}))
		if err != nil {
			t.Fatal(err)
		}
		if got.Polled || !strings.Contains(got.Detail, "the poll of shop/web-1's PodMetrics failed") || sc.gets != 1 {
			t.Errorf("Polled %v after %d GETs, Detail %q", got.Polled, sc.gets, got.Detail)
		}
	})
	t.Run("the answers are slow", func(t *testing.T) {
		sc := newScrapeCluster(items)
		sc.changeAt, sc.newStamp = scrapeStart.Add(time.Second), scrapeStart.Add(time.Second)
		sc.metrics.PrependReactor("get", "pods", func(core.Action) (bool, runtime.Object, error) {
			sc.clock.advance(900 * time.Millisecond)
			return false, nil, nil
		})
		got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{Poll: true}))
		if err != nil {
			t.Fatal(err)
		}
		if got.Polled || !strings.Contains(got.Detail, "slow answers") {
			t.Errorf("Polled %v, Detail %q; want the whole-second anchor", got.Polled, got.Detail)
		}
	})
	t.Run("the clocks differ", func(t *testing.T) {
		sc := newScrapeCluster(items)
		// The cluster's clock is a minute behind this machine's.
		sc.changeAt, sc.newStamp = scrapeStart.Add(time.Second), scrapeStart.Add(time.Second-time.Minute)
		got, err := ReadScrapeClock(context.Background(), sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{Poll: true}))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Polled || !strings.Contains(got.Detail, "this machine's clock and the cluster's seem to differ") {
			t.Errorf("Polled %v, Detail %q; want a note on the clocks", got.Polled, got.Detail)
		}
	})
}

func TestScrapeClockContext(t *testing.T) {
	ts := time.Date(2026, 5, 4, 20, 14, 18, 0, time.UTC)
	items := []metricsv1beta1.PodMetrics{pm("shop", "web-1", 10*time.Second, ts)}
	t.Run("cancelled before", func(t *testing.T) {
		sc := newScrapeCluster(items)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := ReadScrapeClock(ctx, sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{Poll: true})); !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
		if n := len(sc.metrics.Actions()); n != 0 {
			t.Errorf("%d requests after the context ended", n)
		}
	})
	t.Run("cancelled while polling", func(t *testing.T) {
		sc := newScrapeCluster(items)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		sc.clock.onSleep = func(n int) {
			if n == 3 {
				cancel()
			}
		}
		if _, err := ReadScrapeClock(ctx, sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{Poll: true})); !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
		if sc.gets != 3 {
			t.Errorf("%d GETs, want 3 (none after the cancel)", sc.gets)
		}
	})
	t.Run("cancelled while listing", func(t *testing.T) {
		sc := newScrapeCluster(items)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		sc.metrics.PrependReactor("list", "pods", func(core.Action) (bool, runtime.Object, error) {
			cancel()
			return true, nil, fmt.Errorf("request: %w", context.Canceled)
		})
		if _, err := ReadScrapeClock(ctx, sc.clients(), "shop", nil, sc.options(ScrapeClockOptions{})); !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	})
	t.Run("the default sleep", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		if err := sleepCtx(ctx, time.Millisecond); err != nil {
			t.Errorf("sleepCtx: %v", err)
		}
		cancel()
		start := time.Now()
		if err := sleepCtx(ctx, time.Hour); !errors.Is(err, context.Canceled) {
			t.Errorf("sleepCtx after the cancel: %v, want context.Canceled", err)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("sleepCtx after the cancel took %s", took)
		}
	})
}
