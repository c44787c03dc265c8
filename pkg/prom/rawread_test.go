// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"math"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

const rawPod, rawPod2 = "web-5d4f8-k2x9p", "web-5d4f8-h7q4m"

// rawSetup is a read of Deployment shop/web over n instants without
// kube-state-metrics, cpu and memory read raw, the store scraping every
// interval (as its probe says).
func rawSetup(t *testing.T, interval time.Duration, n int) (*fakeProm, *httptest.Server, Request, *queries) {
	t.Helper()
	f, srv := newFakeProm(t)
	req := baseRequest()
	req.NoKubeStateMetrics = true
	req.Len = n
	req.Metrics = append(req.Metrics, MetricRequest{Kind: recording.KindResource, Name: "memory"})
	q := queriesFor(req, "web-5d4f8")
	f.onRange(q.probe(), during(nil, t0.Add(-24*time.Hour), t0.Add(24*time.Hour), constant(float64(probeWindow/interval))))
	return f, srv, req, q
}

// rawPodSeries registers a pod's app container from from until to,
// sampled every every: its CPU counter cpu, its working set 100 MB.
func rawPodSeries(f *fakeProm, q *queries, pod string, from, to time.Time, every time.Duration, cpu func(time.Time) float64) {
	f.onRaw(q.rawCPU(), rawEvery(cadvisor(metricCPU, pod, "app"), from, to, every, cpu))
	f.onRaw(q.rawMemory(), rawEvery(cadvisor(metricMemory, pod, "app"), from, to, every, constant(1e8)))
}

func readOK(t *testing.T, srv *httptest.Server, req Request) *recording.Recording {
	t.Helper()
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// stepCounter is a counter from zero at origin whose rate is r1 until s,
// r2 after.
func stepCounter(origin, s time.Time, r1, r2 float64) func(time.Time) float64 {
	return func(t time.Time) float64 {
		if !t.After(s) {
			return r1 * t.Sub(origin).Seconds()
		}
		return r1*s.Sub(origin).Seconds() + r2*t.Sub(s).Seconds()
	}
}

// The samples metrics-server served are the counter's rates between its
// scrapes, wherever they fall between the store's samples: the load steps
// from 0.2 to 0.8 core at 14:10:02, inside one of the store's 5 s
// intervals, and each sync's sample is the work between its last scrape
// and the one a window before, divided by the window.
func TestRawResampleAtAnchor(t *testing.T) {
	early := t0.Add(-time.Hour)
	counter := stepCounter(early, at("10m2s"), 0.2, 0.8)
	for _, c := range []struct {
		name   string
		anchor time.Time
		window time.Duration
		// at41 is the sample of the sync at 14:10:15.
		at41 float64
	}{
		// Scrapes at :03, :18, ...: the one at 14:10:03 is a second
		// after the step, inside the store's interval that holds it.
		{"an anchor of 3s", at("3s"), 15 * time.Second, (0.2*14 + 0.8*1) / 15},
		// The default: half a window before the syncs, 14:10:07.5.
		{"the default anchor", time.Time{}, 15 * time.Second, (0.2*9.5 + 0.8*5.5) / 15},
		// A 30 s window: scrapes at 14:09:45 and 14:10:15, from 14:00 -
		// 15 s.
		{"a 30s window", time.Time{}, 30 * time.Second, 0.8*13/30 + 0.2*17/30},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, srv, req, q := rawSetup(t, 5*time.Second, 80)
			req.ScrapeAnchor, req.Window = c.anchor, c.window
			f.onRaw(q.rawCPU(), rawEvery(cadvisor(metricCPU, rawPod, "app"), early, at("2h"), 5*time.Second, counter))
			f.onRaw(q.rawMemory(), rawEvery(cadvisor(metricMemory, rawPod, "app"), early, at("2h"), 5*time.Second, func(t time.Time) float64 {
				return 1e8 + 1e6*t.Sub(t0).Minutes()
			}))
			rec := readOK(t, srv, req)
			if rec.StoreInterval != 5*time.Second || rec.SampleWindow != c.window {
				t.Errorf("store interval %s, sample window %s", rec.StoreInterval, rec.SampleWindow)
			}
			anchor := c.anchor
			if anchor.IsZero() {
				anchor = t0.Add(-c.window / 2)
			}
			cpu := rec.Metric(recording.KindResource, "cpu").PerPod[rawPod]["app"]
			mem := rec.Metric(recording.KindResource, "memory").PerPod[rawPod]["app"]
			for k := range req.Len {
				end := recording.LastScrape(rec.Instant(k), anchor, c.window)
				if !rec.SampleTime(k).Equal(end) {
					t.Fatalf("sample time of %d = %s, want %s", k, rec.SampleTime(k), end)
				}
				want := (counter(end) - counter(end.Add(-c.window))) / c.window.Seconds()
				if v, ok := cpu.At(k); !ok || math.Abs(v-want) > 1e-9 {
					t.Errorf("cpu at %d (scrape %s) = %v %v, want %v", k, end.Format("15:04:05.0"), v, ok, want)
				}
				wantMem := 1e8 + 1e6*end.Sub(t0).Minutes()
				if v, ok := mem.At(k); !ok || math.Abs(v-wantMem) > 1e-3 {
					t.Errorf("memory at %d = %v %v, want %v", k, v, ok, wantMem)
				}
			}
			if v, _ := cpu.At(41); math.Abs(v-c.at41) > 1e-9 {
				t.Errorf("cpu at 14:10:15 = %v, want %v", v, c.at41)
			}
		})
	}
}

// A period read in chunks within a small point budget: consecutive
// instant queries whose ranges join end to end from a minute before the
// start (two windows and two store intervals) to an interval after the
// last instant, each sized for the series of the one before, and the same
// recording as one chunk gives.
func TestRawChunks(t *testing.T) {
	f, srv, req, q := rawSetup(t, 15*time.Second, 240)
	early := t0.Add(-time.Hour)
	rawPodSeries(f, q, rawPod, early, at("2h"), 15*time.Second, ramp(0.04, 0.001/60, early))
	rawPodSeries(f, q, rawPod2, early, at("2h"), 15*time.Second, steady(0.3, early))
	rawPodSeries(f, q, "web-api-6b7c8-bbbbb", early, at("2h"), 15*time.Second, steady(9, early)) // foreign
	whole := readOK(t, srv, req)
	if n := len(f.rawRequests(q.rawCPU())); n != 1 {
		t.Errorf("%d requests at the default budget", n)
	}

	f.mu.Lock()
	f.log = nil
	f.mu.Unlock()
	req.PointBudget = 100
	var seen []Progress
	req.Progress = func(p Progress) { seen = append(seen, p) }
	rec := readOK(t, srv, req)
	rs := f.rawRequests(q.rawCPU())
	if len(rs) != 6 {
		t.Fatalf("%d chunks, want 6 (25m, then 8m20s each: 100 points of 3 series)", len(rs))
	}
	if lo := rs[0].time.Add(-rs[0].rng); !lo.Equal(t0.Add(-time.Minute)) || rs[0].rng != 25*time.Minute {
		t.Errorf("first chunk from %s over %s", lo, rs[0].rng)
	}
	for i := 1; i < len(rs); i++ {
		if !rs[i].time.Add(-rs[i].rng).Equal(rs[i-1].time) {
			t.Errorf("chunk %d begins at %s, the one before ended at %s", i, rs[i].time.Add(-rs[i].rng), rs[i-1].time)
		}
		if i < len(rs)-1 && rs[i].rng != 500*time.Second {
			t.Errorf("chunk %d spans %s", i, rs[i].rng)
		}
	}
	if last := rs[len(rs)-1].time; !last.Equal(at("1h")) {
		t.Errorf("the last chunk ends at %s", last)
	}
	for _, name := range []string{"cpu", "memory"} {
		a, b := rec.Metric(recording.KindResource, name), whole.Metric(recording.KindResource, name)
		if !reflect.DeepEqual(seriesValues(a.PerPod), seriesValues(b.PerPod)) || !reflect.DeepEqual(a.Raw, b.Raw) {
			t.Errorf("%s read in chunks differs from one read", name)
		}
		if len(a.PerPod) != 2 || len(a.Raw) != 2 {
			t.Errorf("%s pods = %d, raw %d", name, len(a.PerPod), len(a.Raw))
		}
	}
	if r := rec.Metric(recording.KindResource, "cpu").Raw[rawPod2]["app"]; r.Len() != 244 || !r.First().Equal(t0.Add(-time.Minute).Add(15*time.Second)) || !r.Last().Equal(at("1h")) {
		t.Errorf("raw series of %d samples from %s to %s", r.Len(), r.First(), r.Last())
	}
	for _, s := range rec.Sources {
		if s.What == "cpu usage (1 series of other pods left out)" && (s.Series != 2 || s.Query != q.rawCPU()) {
			t.Errorf("cpu source = %+v", s)
		}
	}
	last := seen[len(seen)-1]
	if last.Done != last.Total || last.Total != 2*240 || last.Requests != 1+6+6 {
		t.Errorf("last progress = %+v", last)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i].Done < seen[i-1].Done {
			t.Errorf("progress goes back: %+v", seen)
		}
	}

	// The first chunk holds at most MaxPoints samples of a series (the
	// pods known may be far fewer than the period had); the next one is
	// sized for the series the first had.
	f.mu.Lock()
	f.log = nil
	f.mu.Unlock()
	req.PointBudget, req.MaxPoints, req.Progress = 0, 50, nil
	capped := readOK(t, srv, req)
	rs = f.rawRequests(q.rawCPU())
	if len(rs) != 2 || rs[0].rng != 50*15*time.Second || !rs[1].time.Equal(at("1h")) {
		t.Errorf("chunks %+v", rs)
	}
	if a, b := capped.Metric(recording.KindResource, "cpu"), whole.Metric(recording.KindResource, "cpu"); !reflect.DeepEqual(a.Raw, b.Raw) {
		t.Error("the capped first chunk's read differs from one read")
	}
}

// A store that answers a chunk's first instant too (before Prometheus
// 3.0, a range selector's start was inclusive), and a series with a sample
// out of order and an infinite one: each sample is kept once, in order;
// the infinite one is said.
func TestRawOverlapAndDisorder(t *testing.T) {
	f, srv, req, q := rawSetup(t, 15*time.Second, 240)
	f.inclusive = true
	early := t0.Add(-time.Hour)
	rawPodSeries(f, q, rawPod, early, at("2h"), 15*time.Second, steady(0.25, early))
	clean := readOK(t, srv, req) // one chunk

	f2, srv2, _, _ := rawSetup(t, 15*time.Second, 240)
	f2.inclusive = true
	s := rawEvery(cadvisor(metricCPU, rawPod, "app"), early, at("2h"), 15*time.Second, steady(0.25, early))
	// After a chunk's samples: one at an earlier time (another value),
	// one again at a sample's time, one infinite.
	s.points = []rawPoint{{at("10m"), 5}, {at("20m"), 1e9}, {at("30m7s"), math.Inf(1)}}
	f2.onRaw(q.rawCPU(), s)
	f2.onRaw(q.rawMemory(), rawEvery(cadvisor(metricMemory, rawPod, "app"), early, at("2h"), 15*time.Second, constant(1e8)))
	req.PointBudget = 50
	rec := readOK(t, srv2, req)
	if n := len(f2.rawRequests(q.rawCPU())); n < 4 {
		t.Errorf("%d chunks", n)
	}
	a, b := rec.Metric(recording.KindResource, "cpu"), clean.Metric(recording.KindResource, "cpu")
	if !reflect.DeepEqual(a.Raw, b.Raw) || !reflect.DeepEqual(seriesValues(a.PerPod), seriesValues(b.PerPod)) {
		t.Errorf("the overlapping chunks' read differs:\n%v\n%v", a.Raw[rawPod]["app"], b.Raw[rawPod]["app"])
	}
	if got := strings.Join(rec.Warnings, "\n"); !strings.Contains(got, "cpu usage: 1 samples were +Inf or -Inf; they were left out") {
		t.Errorf("warnings %q", rec.Warnings)
	}
}

// A counter that starts again from zero (a restart under one series, as
// /metrics/resource has it), and a restart that is a new cAdvisor series
// (another cgroup id, here sorting first in the answer): both read as one
// counter whose work goes on, at 0.3 core but for the 10 s between the
// last sample before the restart and the restart itself.
func TestRawResetsAndRestarts(t *testing.T) {
	early, restart := t0.Add(-time.Hour), at("19m55s")
	before := steady(0.3, early)
	after := steady(0.3, restart)
	reset := func(t time.Time) float64 {
		if t.Before(at("20m")) {
			return before(t)
		}
		return after(t)
	}
	old := cadvisor(metricCPU, rawPod, "app")
	old["id"] += "/c1"
	renewed := cadvisor(metricCPU, rawPod, "app")
	renewed["id"] += "/c0"
	for _, c := range []struct {
		name   string
		series []fakeRaw
		kept   int
	}{
		{"a reset", []fakeRaw{rawEvery(old, early, at("2h"), 15*time.Second, reset)}, 1},
		{"a new series", []fakeRaw{
			rawEvery(renewed, at("20m"), at("2h"), 15*time.Second, after),
			rawEvery(old, early, at("20m"), 15*time.Second, before),
		}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, srv, req, q := rawSetup(t, 15*time.Second, 240)
			f.onRaw(q.rawCPU(), c.series...)
			f.onRaw(q.rawMemory(), rawEvery(cadvisor(metricMemory, rawPod, "app"), early, at("2h"), 15*time.Second, constant(1e8)))
			req.PointBudget = 60 // the restart inside a chunk, and chunks after it
			rec := readOK(t, srv, req)
			cpu := rec.Metric(recording.KindResource, "cpu")
			r := cpu.Raw[rawPod]["app"]
			for i := 1; i < r.Len(); i++ {
				if r.V[i] < r.V[i-1] || r.T[i] <= r.T[i-1] {
					t.Fatalf("the counter falls or goes back at %d: %v", i, r)
				}
			}
			// The sync at 14:20 reads 14:19:37.5 to 14:19:52.5, the one at
			// 14:20:15 14:19:52.5 to 14:20:07.5: both hold the store's
			// interval with 1.5 s of work in 15 s (0.1 core).
			for k, want := range map[int]float64{79: 0.3, 80: 0.2, 81: 0.2, 82: 0.3, 200: 0.3} {
				if v, ok := cpu.PerPod[rawPod]["app"].At(k); !ok || math.Abs(v-want) > 1e-9 {
					t.Errorf("cpu at %d = %v %v, want %v", k, v, ok, want)
				}
			}
			for _, s := range rec.Sources {
				if s.What == "cpu usage" && s.Series != c.kept {
					t.Errorf("cpu source = %+v", s)
				}
			}
		})
	}
}

// Two series of one container over the same time (two scrapes of the
// kubelet, a store's replicas not deduplicated), or one label set twice
// in an answer, fail the read in one line naming them.
func TestRawDuplicates(t *testing.T) {
	early := t0.Add(-time.Hour)
	a := cadvisor(metricCPU, rawPod, "app")
	b := cadvisor(metricCPU, rawPod, "app")
	b["job"] = "kubelet-2"
	for _, c := range []struct {
		name   string
		series []fakeRaw
		want   string
	}{
		{"one label set twice", []fakeRaw{
			rawEvery(a, early, at("2h"), 15*time.Second, steady(0.2, early)),
			rawEvery(a, early, at("2h"), 15*time.Second, steady(0.3, early)),
		}, `read cpu usage: the answer has the series container_cpu_usage_seconds_total{container="app", id=`},
		{"two scrapes", []fakeRaw{
			rawEvery(a, early, at("2h"), 15*time.Second, steady(0.2, early)),
			rawEvery(b, at("30m"), at("2h"), 15*time.Second, steady(0.2, early)),
		}, `read cpu usage: the answer has two series of one container over the same time, container_cpu_usage_seconds_total{container="app", id="/kubepods/burstable/pod-web-5d4f8-k2x9p/app", image="registry.example/web:1", job="kubelet", `},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, srv, req, q := rawSetup(t, 15*time.Second, 240)
			f.onRaw(q.rawCPU(), c.series...)
			_, err := newTestClient(t, srv.URL).Read(context.Background(), req)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") ||
				!strings.Contains(err.Error(), "(deduplicate the store's replicas, e.g. Thanos' dedup, or scrape each kubelet once) (query: "+q.rawCPU()+"[") {
				t.Errorf("error %v\nwant one line with %q", err, c.want)
			}
		})
	}
}

// A pod that comes and goes within the period has samples from the first
// sync after metrics-server's second scrape of it (a rate needs two) to
// the last sync whose scrape was within half a store interval of its last
// sample; without kube-state-metrics, that is when it existed.
func TestRawPodComesAndGoes(t *testing.T) {
	f, srv, req, q := rawSetup(t, 15*time.Second, 240)
	early := t0.Add(-time.Hour)
	rawPodSeries(f, q, rawPod, early, at("2h"), 15*time.Second, steady(0.2, early))
	// Started at 14:09:55, scraped from 14:10:00 to 14:29:45.
	rawPodSeries(f, q, rawPod2, at("10m"), at("30m"), 15*time.Second, steady(0.5, at("9m55s")))
	rec := readOK(t, srv, req)
	cpu := rec.Metric(recording.KindResource, "cpu").PerPod[rawPod2]["app"]
	mem := rec.Metric(recording.KindResource, "memory").PerPod[rawPod2]["app"]
	// cpu: the counter, 2.5 s of CPU at 0.5 core at its first sample,
	// began at 14:09:55; the first scrape window that begins after that
	// is 14:10:07.5 to 14:10:22.5, read by the sync at 14:10:30.
	if cpu.First != 42 || len(cpu.Values) != 120-42+1 {
		t.Errorf("cpu from %d for %d instants", cpu.First, len(cpu.Values))
	}
	for k := cpu.First; k < cpu.First+len(cpu.Values); k++ {
		if v, ok := cpu.At(k); !ok || math.Abs(v-0.5) > 1e-9 {
			t.Errorf("cpu at %d = %v %v", k, v, ok)
		}
	}
	// memory: from half an interval before its first sample (14:09:52.5,
	// the scrape the sync at 14:10 reads) to half one after its last.
	if mem.First != 40 || len(mem.Values) != 120-40+1 {
		t.Errorf("memory from %d for %d instants", mem.First, len(mem.Values))
	}
	var p *recording.Pod
	for i := range rec.Pods {
		if rec.Pods[i].Name == rawPod2 {
			p = &rec.Pods[i]
		}
	}
	if p == nil || !p.Created.Equal(at("9m45s")) || p.Deleted == nil || !p.Deleted.Equal(at("30m15s")) {
		t.Errorf("pod = %+v", p)
	}
}

// --query cpu=PROMQL is read on the sync grid as before (no raw read, no
// resampling), and needs no window.
func TestRawUserQueryOnGrid(t *testing.T) {
	f, srv := newFakeProm(t)
	req := baseRequest()
	req.NoKubeStateMetrics = true
	req.Window = 0
	simpleScenario(f, req, t0.Add(-time.Hour), at("2h"), 1)
	q := queriesFor(req, "web-5d4f8")
	req = gridRequest(req)
	rec := readOK(t, srv, req)
	if n := len(f.rawRequests(q.rawCPU())); n != 0 {
		t.Errorf("%d raw reads of the counter", n)
	}
	if n := len(f.requests(gridCPU(q))); n != 1 || f.requests(gridCPU(q))[0].path != "/api/v1/query_range" {
		t.Errorf("the user's query was asked %d times", n)
	}
	cpu := rec.Metric(recording.KindResource, "cpu")
	if cpu.Raw != nil || cpu.Cumulative || cpu.Query != gridCPU(q) || rec.SampleWindow != 15*time.Second || !rec.SampleTime(7).Equal(rec.Instant(7)) {
		t.Errorf("cpu metric raw %v, query %q, window %s", cpu.Raw, cpu.Query, rec.SampleWindow)
	}
	if v, ok := cpu.PerPod[rawPod]["app"].At(7); !ok || v != 7 {
		t.Errorf("cpu at 7 = %v %v", v, ok)
	}

	// The counters read raw need metrics-server's resolution.
	req = baseRequest()
	req.Window = 0
	if err := req.Validate(); err == nil || !strings.Contains(err.Error(), "the window (metrics-server's resolution) is required") {
		t.Errorf("no window: %v", err)
	}
}

// A workload whose pods the store first saw in the period's last minute
// is too young to replay, and the read says so in one line rather than
// blaming the store (a probe that counts few samples in 10 minutes, or
// no sample metrics-server could have served); a short period over older
// pods is read.
func TestYoungWorkload(t *testing.T) {
	end := t0.Add(5*time.Minute - 15*time.Second) // 5 minutes: 20 syncs
	young := func(t *testing.T, firstSample time.Time, mod func(*Request)) (Request, error) {
		t.Helper()
		f, srv := newFakeProm(t)
		req := baseRequest()
		req.NoKubeStateMetrics = true
		req.Len = 20
		req.Metrics = append(req.Metrics, MetricRequest{Kind: recording.KindResource, Name: "memory"})
		req.Pods = []corev1.Pod{livePod(rawPod, firstSample.Add(-5*time.Second), true, firstSample, corev1.PodRunning)}
		if mod != nil {
			mod(&req)
		}
		q := queriesFor(req, "web-5d4f8")
		q.pods = newPodMatcher([]string{"web-5d4f8"}, "", []string{rawPod}).expr
		// The probe counts the samples of the last 10 minutes at the end.
		samples := float64(end.Sub(firstSample)/(15*time.Second)) + 1
		f.onRange(q.probe(), during(nil, t0.Add(-time.Hour), at("2h"), constant(samples)))
		rawPodSeries(f, q, rawPod, firstSample, at("2h"), 15*time.Second, steady(0.2, firstSample.Add(-5*time.Second)))
		f.onInstant(upQuery(""), fakeSeries{at: func(time.Time) (float64, bool) { return 1, true }})
		_, err := newTestClient(t, srv.URL).Read(context.Background(), req)
		return req, err
	}
	// 45 s old: 4 samples in 10 minutes, which read as one every 2m30s.
	_, err := young(t, end.Add(-45*time.Second), nil)
	want := "Deployment/web is too young to replay: the store's first sample of its pods is at 2026-11-26T14:04:00Z, 45s before the end of the period; wait for a few more scrapes (a few minutes), or start the period after 2026-11-26T14:04:00Z"
	if err == nil || !strings.HasSuffix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("45 s old:\n got: %v\nwant: %s", err, want)
	}
	// 10 s old, the interval given: metrics-server had no CPU sample of
	// it yet.
	_, err = young(t, end.Add(-10*time.Second), func(r *Request) { r.ScrapeInterval = 15 * time.Second })
	if err == nil || !strings.Contains(err.Error(), "Deployment/web is too young to replay: the store's first sample of its pods is at 2026-11-26T14:04:35Z, 10s before the end") {
		t.Errorf("10 s old: %v", err)
	}
	// Pods 90 s old over the last minute: the probe's count is low, the raw
	// samples' spacing says 15 s, and the read goes on.
	_, err = young(t, end.Add(-90*time.Second), func(r *Request) { r.Start = end.Add(-45 * time.Second); r.Len = 4 })
	if err != nil {
		t.Errorf("90 s old over a minute: %v", err)
	}
	// Pods first seen 45 s before the end, in the warm-up read before a
	// period of the last 30 s: the period has every sample it needs.
	_, err = young(t, end.Add(-45*time.Second), func(r *Request) { r.PeriodStart = end.Add(-30 * time.Second) })
	if err != nil {
		t.Errorf("45 s old, first seen in the warm-up: %v", err)
	}
	// The same pods over a period of the last 2 minutes are too young.
	_, err = young(t, end.Add(-45*time.Second), func(r *Request) { r.PeriodStart = end.Add(-2 * time.Minute) })
	if err == nil || !strings.Contains(err.Error(), "too young to replay") {
		t.Errorf("45 s old over the last 2 minutes: %v", err)
	}
}
