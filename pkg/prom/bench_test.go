// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// cachingHandler answers a request it has answered before from the bytes
// it wrote then, so a benchmark measures the reader, not the fake's
// formatting.
type cachingHandler struct {
	next http.Handler
	mu   sync.Mutex
	m    map[string][]byte
}

func (h *cachingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	key := r.URL.Path + "?" + r.Form.Encode()
	h.mu.Lock()
	body, ok := h.m[key]
	h.mu.Unlock()
	if !ok {
		rec := httptest.NewRecorder()
		h.next.ServeHTTP(rec, r)
		body = rec.Body.Bytes()
		h.mu.Lock()
		h.m[key] = body
		h.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// heapObjects is the bytes of live and not yet swept heap objects.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

const benchPods = 50

// benchScenario registers 7 days at a 15 s step (40,320 instants) of a
// 50-pod Deployment with one container, cpu and memory (their raw
// samples, every 15 s), with kube-state-metrics (owners, phases,
// readiness, facts, replicas).
func benchScenario(f *fakeProm) Request {
	req := baseRequest()
	req.Len = 7 * 24 * 60 * 4
	req.Metrics = append(req.Metrics, MetricRequest{Kind: recording.KindResource, Name: "memory"})
	q := queriesFor(req, "web-5d4f8")
	far, end := t0.Add(-time.Hour), t0.Add(8*24*time.Hour)
	f.onInstant(q.replicaSets("Deployment", "web"), fakeSeries{labels: lbl("replicaset", "web-5d4f8"), at: func(time.Time) (float64, bool) { return 1, true }})
	owners := q.podOwners([]string{"Deployment", "ReplicaSet"}, []string{"web", "web-5d4f8"})
	for i := range benchPods {
		name := fmt.Sprintf("web-5d4f8-%c%c%c%c%c", suffixAlphabet[i%27], suffixAlphabet[(i/27)%27], 'b', 'c', 'd')
		p := lbl("pod", name)
		f.onInstant(owners, fakeSeries{labels: lbl("pod", name, "owner_kind", "ReplicaSet", "owner_name", "web-5d4f8"), at: func(time.Time) (float64, bool) { return 1, true }})
		f.onInstant(q.lastValue(ksmCreated), during(p, far, end, constant(float64(far.Unix()))))
		f.onInstant(q.lastValue(ksmStarted), during(p, far, end, constant(float64(far.Unix()+5))))
		f.onInstant(q.requests(), during(lbl("pod", name, "container", "app", "resource", "cpu"), far, end, constant(0.2)))
		f.onRange(q.phase(), during(lbl("pod", name, "phase", "Running"), far, end, constant(1)))
		f.onRange(q.ready(), during(p, far, end, constant(1)))
		seed := float64(i)
		// The counter of a rate of 0.1 + 0.05·sin(seed + s/900) cores, s
		// seconds since far.
		f.onRaw(q.rawCPU(), rawEvery(cadvisor(metricCPU, name, "app"), far, end, 15*time.Second, func(t time.Time) float64 {
			s := t.Sub(far).Seconds()
			return 0.1*s + 45*(math.Cos(seed)-math.Cos(seed+s/900))
		}))
		f.onRaw(q.rawMemory(), rawEvery(cadvisor(metricMemory, name, "app"), far, end, 15*time.Second, func(t time.Time) float64 {
			return math.Round(2e8 + 1e7*math.Cos(seed+t.Sub(far).Seconds()/3600))
		}))
	}
	f.onInstant(q.lastValue(ksmDeletion))
	f.onInstant(q.lastValue(ksmReadyTime))
	f.onInstant(q.limits()) // no CPU limit: no throttling read
	f.onRange(q.probe(), during(nil, far, end, constant(40)))
	f.onRange(q.replicas("Deployment", "web"), during(nil, far, end, constant(benchPods)))
	return req
}

const benchServeEnv = "KUBECTL_HPA_BENCH_FAKE_PROM"

// TestBenchFakeServer is the benchmark's fake Prometheus, run in a child
// process so that its answers (rendered once, then cached: about 250 MB)
// weigh neither on the benchmark's heap nor on its allocations. It prints
// its URL and serves until its standard input closes.
func TestBenchFakeServer(t *testing.T) {
	if os.Getenv(benchServeEnv) == "" {
		t.Skip("the benchmark's child process")
	}
	f := &fakeProm{t: t, ranges: map[string][]fakeSeries{}, instants: map[string][]fakeSeries{}, raws: map[string][]fakeRaw{}, fail: map[string]fakeFailure{}, maxPoints: 11000, strict: true}
	benchScenario(f)
	srv := httptest.NewServer(&cachingHandler{next: f, m: map[string][]byte{}})
	defer srv.Close()
	_, _ = fmt.Fprintln(os.Stdout, srv.URL) // the one line the parent reads
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// BenchmarkRead7Days reads benchScenario from the fake in a child process,
// its answers rendered and cached by a first read before the timer starts.
// Besides time and allocations (the reader's only) it reports the peak
// heap growth during a read (peak-MiB, objects not yet collected
// included) and what the recording keeps (recording-MiB).
//
//	go test ./pkg/prom -run '^$' -bench Read7Days -benchtime 3x
func BenchmarkRead7Days(b *testing.B) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestBenchFakeServer$")
	cmd.Env = append(os.Environ(), benchServeEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	c := newTestClient(b, strings.TrimSpace(line))
	req := benchScenario(&fakeProm{t: b, ranges: map[string][]fakeSeries{}, instants: map[string][]fakeSeries{}, raws: map[string][]fakeRaw{}})
	if _, err := c.Read(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	var peak, kept float64
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		runtime.GC()
		base := heapObjects()
		var top atomic.Uint64
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			t := time.NewTicker(2 * time.Millisecond)
			defer t.Stop()
			for {
				if h := heapObjects(); h > top.Load() {
					top.Store(h)
				}
				select {
				case <-stop:
					return
				case <-t.C:
				}
			}
		}()
		b.StartTimer()
		rec, err := c.Read(context.Background(), req)
		b.StopTimer()
		close(stop)
		<-done
		if err != nil {
			b.Fatal(err)
		}
		peak = max(peak, float64(top.Load()-min(top.Load(), base))/(1<<20))
		runtime.GC()
		if h := heapObjects(); h > base {
			kept = float64(h-base) / (1 << 20)
		}
		if len(rec.Pods) != benchPods || len(rec.Metric(recording.KindResource, "cpu").PerPod) != benchPods {
			b.Fatalf("read %d pods", len(rec.Pods))
		}
		runtime.KeepAlive(rec)
		b.StartTimer()
	}
	b.ReportMetric(peak, "peak-MiB")
	b.ReportMetric(kept, "recording-MiB")
}
