// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

const faultPod = "web-5d4f8-k2x9p"

// faultScenario is an hour of one live pod without kube-state-metrics,
// whose cpu is the user's query (gridCPU), answered with cpu (and memory,
// read raw, 100 MB throughout).
func faultScenario(f *fakeProm, cpu ...fakeSeries) Request {
	req := faultScenarioOf(f, 240)
	q := queriesFor(req, "web-5d4f8")
	q.pods = newPodMatcher([]string{"web-5d4f8"}, "", []string{faultPod}).expr
	f.onRange(gridCPU(q), cpu...)
	return gridRequest(req)
}

// faultScenarioOf is faultScenario over n instants, with cpu read raw
// (answered with cpu).
func faultScenarioOf(f *fakeProm, n int, cpu ...fakeRaw) Request {
	req := baseRequest()
	req.Len = n
	req.Metrics = append(req.Metrics, MetricRequest{Kind: recording.KindResource, Name: "memory"})
	req.Pods = []corev1.Pod{livePod(faultPod, t0.Add(-2*time.Hour), true, t0.Add(-119*time.Minute), corev1.PodRunning)}
	q := queriesFor(req, "web-5d4f8")
	q.pods = newPodMatcher([]string{"web-5d4f8"}, "", []string{faultPod}).expr
	far := t0.Add(-24 * time.Hour)
	f.onInstant(queriesFor(req).replicaSets("Deployment", "web"))
	f.onInstant(q.podOwners([]string{"Deployment", "ReplicaSet"}, []string{"web", "web-5d4f8"}))
	f.onRange(q.replicas("Deployment", "web"))
	f.onRange(q.probe(), during(nil, far, at("2h"), constant(40)))
	f.onRaw(q.rawCPU(), cpu...)
	f.onRaw(q.rawMemory(), rawEvery(cadvisor(metricMemory, faultPod, "app"), t0.Add(-time.Hour), at("2h"), 15*time.Second, constant(1e8)))
	return req
}

// The same label set twice in one answer (a Thanos without deduplication)
// fails the read with one line naming the series and the query, rather
// than replaying one of them, or their sum.
func TestDuplicateSeries(t *testing.T) {
	f, srv := newFakeProm(t)
	far := t0.Add(-24 * time.Hour)
	s := lbl("pod", faultPod, "container", "app")
	req := faultScenario(f, during(s, far, at("2h"), constant(0.2)), during(s, far, at("2h"), constant(0.3)))
	_, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{"read cpu usage: the answer has the series {container=\"app\", pod=\"" + faultPod + "\"} twice", "(query: max by (pod, container) (irate("} {
		if !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
}

// A series that comes in every piece of a long read is not a duplicate.
func TestSeriesAcrossPiecesIsNoDuplicate(t *testing.T) {
	f, srv := newFakeProm(t)
	far := t0.Add(-24 * time.Hour)
	req := faultScenario(f, during(lbl("pod", faultPod, "container", "app"), far, at("2h"), constant(0.2)))
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), func() Request { req.MaxPoints = 50; return req }())
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := rec.Metric(recording.KindResource, "cpu").PerPod[faultPod]["app"].At(200); !ok || v != 0.2 {
		t.Errorf("cpu at 200 = %v %v", v, ok)
	}
}

// NaN samples are gaps; ±Inf ones are gaps too, and said in one warning
// that names the read and counts them.
func TestNaNAndInfiniteSamples(t *testing.T) {
	f, srv := newFakeProm(t)
	far := t0.Add(-24 * time.Hour)
	req := faultScenario(f, during(lbl("pod", faultPod, "container", "app"), far, at("2h"), func(t time.Time) float64 {
		switch m := t.Sub(t0).Minutes(); {
		case m >= 10 && m < 11:
			return math.NaN()
		case m >= 20 && m < 21:
			return math.Inf(1)
		case m >= 30 && m < 30.5:
			return math.Inf(-1)
		}
		return 0.2
	}))
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	cpu := rec.Metric(recording.KindResource, "cpu").PerPod[faultPod]["app"]
	for _, k := range []int{40, 80, 120} { // 10m, 20m, 30m
		if v, ok := cpu.At(k); ok {
			t.Errorf("cpu at %d = %v, want none", k, v)
		}
	}
	for _, k := range []int{39, 44, 79, 84, 119, 122} {
		if v, ok := cpu.At(k); !ok || v != 0.2 {
			t.Errorf("cpu at %d = %v %v, want 0.2", k, v, ok)
		}
	}
	want := "cpu usage: 6 samples were +Inf or -Inf (a division by zero in the query?); they were taken as missing"
	if got := strings.Join(rec.Warnings, "\n"); !strings.Contains(got, want) {
		t.Errorf("warnings %q lack %q", rec.Warnings, want)
	}
}

// A Thanos partial response (a store that did not answer) comes as
// warnings: the read fails naming them and the flag that keeps them, or
// with the flag, the recording carries them to the output's warnings.
func TestPartialResponse(t *testing.T) {
	f, srv := newFakeProm(t)
	far := t0.Add(-24 * time.Hour)
	req := faultScenario(f, during(lbl("pod", faultPod, "container", "app"), far, at("2h"), constant(0.2)))
	f.warnings = []string{"No StoreAPIs matched for this query", "receive-0: context deadline exceeded"}
	_, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "the server warned: No StoreAPIs matched for this query; receive-0: context deadline exceeded (the data may be incomplete; --prometheus-allow-warnings keeps it) (query: ") {
		t.Errorf("error %v", err)
	}
	rec, err := newTestClient(t, srv.URL, func(o *Config) { o.AllowWarnings = true }).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rec.Warnings, "\n"); !strings.Contains(got, "cpu usage: receive-0: context deadline exceeded") {
		t.Errorf("warnings %q", rec.Warnings)
	}
}

// One raw read answered with 100,000 series (a store that ignores the
// pod filter, all of other pods): the read keeps the one pod's series,
// and the heap it holds at its peak is bounded by the series' label sets,
// not by the answer's points (streamed).
func TestHundredThousandSeries(t *testing.T) {
	if testing.Short() {
		t.Skip("a 100,000-series read")
	}
	const series = 100_000
	f, srv := newFakeProm(t)
	early, every := t0.Add(-time.Hour), 15*time.Second
	cpu := make([]fakeRaw, 0, series+1)
	cpu = append(cpu, rawEvery(cadvisor(metricCPU, faultPod, "app"), early, at("2h"), every, steady(0.2, early)))
	for i := range series {
		cpu = append(cpu, rawEvery(lbl("pod", fmt.Sprintf("other-%06d", i), "container", "app"), early, at("2h"), every, steady(0.1, early)))
	}
	// 80 instants, and the minute before them and the interval after:
	// 8.5 million points, about 250 MB of JSON (under the race detector,
	// a fifth of the instants).
	req := faultScenarioOf(f, 80/raceScale, cpu...)

	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	start := time.Now()
	// What is measured is the heap, not the time. Under the race detector
	// beside the e2e suite at nice 19, the read once ran out the default
	// two-minute bound of a request after 241 s (28 s on a quiet machine,
	// most of it the fake store making and encoding its chunks), so the
	// bound here is far.
	rec, err := newTestClient(t, srv.URL, func(c *Config) { c.Timeout = 15 * time.Minute }).Read(context.Background(), req)
	close(stop)
	<-sampled
	if err != nil {
		t.Fatal(err)
	}
	grew := float64(peak.Load()-min(peak.Load(), base.HeapAlloc)) / (1 << 20)
	requests := len(f.rawRequests(queriesFor(req, "web-5d4f8").rawCPU()))
	t.Logf("100,000 other pods' series over %d instants: %s, %d requests of the cpu query, peak heap %.1f MiB above the %.1f MiB before",
		req.Len, time.Since(start).Round(time.Millisecond), requests, grew, float64(base.HeapAlloc)/(1<<20))
	if v, ok := rec.Metric(recording.KindResource, "cpu").PerPod[faultPod]["app"].At(req.Len - 1); !ok || math.Abs(v-0.2) > 1e-9 {
		t.Errorf("the pod's cpu at the end = %v %v", v, ok)
	}
	var src string
	for _, s := range rec.Sources {
		if strings.HasPrefix(s.What, "cpu usage") {
			src = s.What
		}
	}
	if src != "cpu usage (100000 series of other pods left out)" {
		t.Errorf("cpu source %q", src)
	}
	// What is held is the series' label sets (100,000 of ~60 bytes, and
	// their map) and the pod's series; holding the answer would be 200 MB.
	if grew > 64 {
		t.Errorf("the heap grew %.1f MiB at its peak", grew)
	}
}
