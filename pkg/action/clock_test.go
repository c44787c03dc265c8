// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/history"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// rescaleEvents are SuccessfulRescale events of a controller that syncs
// every step from first on, one at each of the syncs given, as the API
// gives them: whole seconds.
func rescaleEvents(first time.Time, step time.Duration, syncs ...int) []corev1.Event {
	var out []corev1.Event
	for _, k := range syncs {
		at := metav1.NewTime(first.Add(time.Duration(k) * step).Truncate(time.Second))
		out = append(out, corev1.Event{
			Reason: "SuccessfulRescale", Source: corev1.EventSource{Component: "horizontal-pod-autoscaler"},
			FirstTimestamp: at, LastTimestamp: at, Count: 1,
		})
	}
	return out
}

func clockSnapshot(given *time.Duration) *snapshot {
	set := engine.DefaultSettings()
	o := SettingsOverrides{}
	if given != nil {
		set.SyncPeriod, o.SyncPeriod = *given, given
	}
	hpa := &autoscalingv2.HorizontalPodAutoscaler{}
	return &snapshot{snap: &engine.Snapshot{HPA: hpa}, settings: set, syncFrom: syncOrigin(nil, o)}
}

// TestSyncClock checks the sync period as a run sees it: given, assumed,
// or inferred from the HPA's events (the local cluster's 5 s).
func TestSyncClock(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 18, 48, 32, 600_000_000, time.UTC)
	// A 5 s controller whose own work adds 20 ms to each sync.
	step := 5020 * time.Millisecond
	events := rescaleEvents(t0, step, 0, 4, 8, 12, 35, 39, 43, 56, 60, 64, 79, 83, 87, 91)
	from, until := t0.Add(-time.Minute), t0.Add(9*time.Minute)

	in := clockSnapshot(nil)
	c, note := syncClock(in, &recordedExtra{events: events}, from, until)
	if c.SyncPeriod != 5*time.Second || c.SyncPeriodFrom.Source != recording.OriginInferred || c.SyncPeriodFrom.Confidence < minInferred {
		t.Errorf("assumed, with the events: period %s (%+v)", c.SyncPeriod, c.SyncPeriodFrom)
	}
	if in.settings.SyncPeriod != 5*time.Second {
		t.Errorf("the settings keep %s", in.settings.SyncPeriod)
	}
	if !strings.Contains(note, "not the default 15s") {
		t.Errorf("note %q", note)
	}
	if d := c.SyncStep - step; d < -5*time.Millisecond || d > 5*time.Millisecond {
		t.Errorf("step %s, want about %s", c.SyncStep, step)
	}
	if c.SyncAnchor.IsZero() || c.SyncPhaseFrom.Source != recording.OriginInferred {
		t.Errorf("no phase: %+v", c.SyncPhaseFrom)
	}
	// The anchor is one of the controller's syncs, within the events'
	// precision.
	off := c.SyncAnchor.Sub(t0) % step
	if off > step/2 {
		off -= step
	}
	if off < -time.Second || off > time.Second {
		t.Errorf("the anchor is %s off the controller's syncs", off)
	}

	// Given: kept, the events give the syncs' spacing and phase.
	p := 5 * time.Second
	in = clockSnapshot(&p)
	c, note = syncClock(in, &recordedExtra{events: events}, from, until)
	if c.SyncPeriod != p || c.SyncPeriodFrom.Source != recording.OriginFlag || note != "" || c.SyncAnchor.IsZero() {
		t.Errorf("given: %s %+v %q anchor %s", c.SyncPeriod, c.SyncPeriodFrom, note, c.SyncAnchor)
	}
	// Given, and contradicted: kept, with a warning.
	p = 15 * time.Second
	in = clockSnapshot(&p)
	c, _ = syncClock(in, &recordedExtra{events: events}, from, until)
	if c.SyncPeriod != p || len(in.warnings) != 1 {
		t.Errorf("given 15s, the events say 5s: %s, warnings %q", c.SyncPeriod, in.warnings)
	}
	// No events: assumed, on the multiples.
	in = clockSnapshot(nil)
	c, _ = syncClock(in, &recordedExtra{}, from, until)
	if c.SyncPeriod != 15*time.Second || c.SyncPeriodFrom.Source != recording.OriginAssumed || !c.SyncAnchor.IsZero() || c.SyncPhaseFrom.Source != recording.OriginAssumed {
		t.Errorf("no events: %s %+v %+v", c.SyncPeriod, c.SyncPeriodFrom, c.SyncPhaseFrom)
	}
	// A period far from the events: their grid, but no known phase.
	in = clockSnapshot(nil)
	c, _ = syncClock(in, &recordedExtra{events: events}, t0.Add(-48*time.Hour), t0.Add(-47*time.Hour))
	if c.SyncPeriod != 5*time.Second || c.SyncPhaseFrom.Source != recording.OriginAssumed {
		t.Errorf("far period: %s %+v", c.SyncPeriod, c.SyncPhaseFrom)
	}
}

// TestScrapeClock checks metrics-server's window and phase as a run sees
// them: given, read off the snapshot's PodMetrics, refined live.
func TestScrapeClock(t *testing.T) {
	ts := time.Date(2026, 12, 1, 19, 45, 24, 0, time.UTC)
	in := clockSnapshot(nil)
	in.snap.PodMetrics = []metricsv1beta1.PodMetrics{
		{Timestamp: metav1.NewTime(ts), Window: metav1.Duration{Duration: 9997 * time.Millisecond}},
		{Timestamp: metav1.NewTime(ts.Add(-10 * time.Second)), Window: metav1.Duration{Duration: 10003 * time.Millisecond}},
	}
	var c recording.Clock
	scrapeClock(&c, in, 0)
	if c.Window != 10*time.Second || c.WindowFrom.Source != recording.OriginRead {
		t.Errorf("read: window %s %+v", c.Window, c.WindowFrom)
	}
	if c.ScrapeAnchor != ts.Add(500*time.Millisecond) || c.ScrapeSpread != 500*time.Millisecond || c.ScrapeFrom.Source != recording.OriginRead {
		t.Errorf("read: anchor %s ±%s %+v", c.ScrapeAnchor, c.ScrapeSpread, c.ScrapeFrom)
	}
	c = recording.Clock{}
	scrapeClock(&c, in, 15*time.Second)
	if c.Window != 15*time.Second || c.WindowFrom.Source != recording.OriginFlag {
		t.Errorf("given: window %s %+v", c.Window, c.WindowFrom)
	}
	c = recording.Clock{}
	scrapeClock(&c, clockSnapshot(nil), 0)
	if c.Window != DefaultMetricsResolution || c.WindowFrom.Source != recording.OriginAssumed || c.ScrapeFrom.Source != recording.OriginUnknown {
		t.Errorf("nothing: window %s %+v %+v", c.Window, c.WindowFrom, c.ScrapeFrom)
	}

	// Refined live: a polled anchor; metrics-server's start decides how
	// far back it holds.
	from := ts.Add(-time.Hour)
	live := gather.ScrapeClock{Resolution: 10 * time.Second, ResolutionFrom: "window", Anchor: ts.Add(310 * time.Millisecond), Spread: 60 * time.Millisecond, AnchorFrom: "polled"}
	c = recording.Clock{}
	scrapeClock(&c, in, 0)
	refineScrapes(&c, live, from)
	if c.ScrapeAnchor != live.Anchor || c.ScrapeSpread != live.Spread || c.ScrapeFrom.Source != recording.OriginRead {
		t.Errorf("refined: %s ±%s %+v", c.ScrapeAnchor, c.ScrapeSpread, c.ScrapeFrom)
	}
	live.MetricsServer = &gather.MetricsServerPod{Pod: "kube-system/metrics-server-1", Started: from.Add(time.Minute), Running: 1}
	refineScrapes(&c, live, from)
	if c.ScrapeFrom.Source != recording.OriginUnknown || !strings.Contains(c.ScrapeFrom.Detail, "after the period began") {
		t.Errorf("metrics-server started in the period: %+v", c.ScrapeFrom)
	}
	live.MetricsServer = &gather.MetricsServerPod{Pod: "kube-system/metrics-server-1", Started: from.Add(-time.Minute), Running: 2}
	refineScrapes(&c, live, from)
	if c.ScrapeFrom.Source != recording.OriginUnknown {
		t.Errorf("two metrics-servers: %+v", c.ScrapeFrom)
	}
	// A window given stays.
	c = recording.Clock{}
	scrapeClock(&c, in, 15*time.Second)
	refineScrapes(&c, gather.ScrapeClock{Resolution: 10 * time.Second}, from)
	if c.Window != 15*time.Second {
		t.Errorf("given, refined: window %s", c.Window)
	}
}

func TestWholeResolution(t *testing.T) {
	for _, tc := range []struct{ in, want time.Duration }{
		{9997 * time.Millisecond, 10 * time.Second},
		{15100 * time.Millisecond, 15 * time.Second},
		{9500 * time.Millisecond, 9500 * time.Millisecond},
		{12400 * time.Millisecond, 12400 * time.Millisecond},
	} {
		if got := wholeResolution(tc.in); got != tc.want {
			t.Errorf("wholeResolution(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestCachedScrapes checks that a run takes what an earlier run measured
// of metrics-server only where the PodMetrics agree with it.
func TestCachedScrapes(t *testing.T) {
	store := &history.Store{Dir: t.TempDir()}
	ts := time.Date(2026, 12, 1, 19, 45, 24, 0, time.UTC)
	in := clockSnapshot(nil)
	in.snap.Now = ts.Add(3 * time.Second)
	in.snap.PodMetrics = []metricsv1beta1.PodMetrics{{Timestamp: metav1.NewTime(ts), Window: metav1.Duration{Duration: 9997 * time.Millisecond}}}
	if _, ok := cachedScrapes(store, "c1", in); ok {
		t.Fatal("a measurement taken from an empty cache")
	}
	// A scrape at .31 past the second of ts, an hour ago.
	kept := &history.Scrapes{Window: 10 * time.Second, Anchor: ts.Add(-time.Hour + 310*time.Millisecond), Spread: 60 * time.Millisecond, Detail: "polled", Measured: ts.Add(-time.Hour)}
	if err := store.SaveScrapes("c1", kept); err != nil {
		t.Fatal(err)
	}
	sc, ok := cachedScrapes(store, "c1", in)
	if !ok || !sc.Anchor.Equal(kept.Anchor) || sc.Resolution != kept.Window || !sc.Polled {
		t.Fatalf("kept: %+v %v", sc, ok)
	}
	for _, tc := range []struct {
		name string
		edit func(*snapshot)
	}{
		{"another cluster", nil},
		{"another phase (a restarted metrics-server)", func(s *snapshot) { s.snap.PodMetrics[0].Timestamp = metav1.NewTime(ts.Add(3 * time.Second)) }},
		{"another window", func(s *snapshot) { s.snap.PodMetrics[0].Window.Duration = 15 * time.Second }},
		{"measured too long ago", func(s *snapshot) { s.snap.Now = ts.Add(2 * keptScrapesFor) }},
		{"no PodMetrics", func(s *snapshot) { s.snap.PodMetrics = nil }},
	} {
		in := clockSnapshot(nil)
		in.snap.Now = ts.Add(3 * time.Second)
		in.snap.PodMetrics = []metricsv1beta1.PodMetrics{{Timestamp: metav1.NewTime(ts), Window: metav1.Duration{Duration: 9997 * time.Millisecond}}}
		cluster := "c1"
		if tc.edit == nil {
			cluster = "c2"
		} else {
			tc.edit(in)
		}
		if _, ok := cachedScrapes(store, cluster, in); ok {
			t.Errorf("%s: the kept measurement was taken", tc.name)
		}
	}
	a := gather.ScrapeClock{Resolution: 10 * time.Second, Anchor: ts.Add(310 * time.Millisecond), Spread: 60 * time.Millisecond}
	b := a
	b.Anchor = ts.Add(-20*time.Second + 390*time.Millisecond)
	if !sameScrapes(a, b) {
		t.Errorf("two scrapes 80 ms apart in phase, spreads 60 ms: not the same")
	}
	b.Anchor = ts.Add(-20*time.Second + 600*time.Millisecond)
	if sameScrapes(a, b) {
		t.Errorf("two scrapes 290 ms apart in phase, spreads 60 ms: the same")
	}
}

// Files may hold the namespace's other workloads' pods and PodMetrics
// (kubectl get pods,podmetrics -o yaml of a namespace): the recording is
// read for the target's pods, its template taken from one of them, and
// metrics-server's window and phase read off their PodMetrics only, as a
// live read lists them.
func TestTargetPodsOnly(t *testing.T) {
	ts := time.Date(2026, 12, 1, 19, 45, 24, 0, time.UTC)
	pod := func(name, app string) corev1.Pod {
		return corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": app}},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: app}}},
		}
	}
	pm := func(name string, at time.Time, w time.Duration) metricsv1beta1.PodMetrics {
		return metricsv1beta1.PodMetrics{ObjectMeta: metav1.ObjectMeta{Name: name}, Timestamp: metav1.NewTime(at), Window: metav1.Duration{Duration: w}}
	}
	in := clockSnapshot(nil)
	in.snap.Target.Selector = "app=web"
	in.snap.Pods = []corev1.Pod{pod("api-1", "api"), pod("web-1", "web"), pod("api-2", "api"), pod("web-2", "web")}
	in.snap.PodMetrics = []metricsv1beta1.PodMetrics{
		pm("api-1", ts.Add(3*time.Second), 30*time.Second), pm("web-1", ts, 10*time.Second),
		pm("api-2", ts.Add(3*time.Second), 30*time.Second), pm("web-2", ts, 10*time.Second),
	}
	var names []string
	for _, p := range targetPods(in.snap) {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "web-1,web-2" {
		t.Errorf("the target's pods: %v, want web-1,web-2", names)
	}
	var c recording.Clock
	scrapeClock(&c, in, 0)
	if c.Window != 10*time.Second || !strings.Contains(c.WindowFrom.Detail, "2 PodMetrics") || !c.ScrapeAnchor.Equal(ts.Add(500*time.Millisecond)) {
		t.Errorf("window %s (%s), anchor %s: want web's 10s, from its 2 PodMetrics, half a second past %s", c.Window, c.WindowFrom.Detail, c.ScrapeAnchor, ts)
	}
	in.snap.Target.Selector = ""
	if got := len(targetPods(in.snap)); got != 4 {
		t.Errorf("no selector: %d pods, want all 4", got)
	}
}
