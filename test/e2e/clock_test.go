// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// Real load does not wait for metrics-server: the proofs run their
// patterns at a random offset from its scrapes, drawn from a seed that is
// logged (E2E_SEED=N reruns one).

// proofSeed is the seed of this run's offsets: E2E_SEED, else drawn.
var proofSeed = sync.OnceValue(func() uint64 {
	if s := os.Getenv("E2E_SEED"); s != "" {
		if v, err := strconv.ParseUint(s, 10, 64); err == nil {
			return v
		}
	}
	return rand.Uint64()
})

// offsetRand draws the offsets of one test from the run's seed, so that two
// tests' draws do not depend on which ran first.
func offsetRand(test string) *rand.Rand {
	h := uint64(14695981039346656037)
	for _, c := range []byte(test) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return rand.New(rand.NewPCG(proofSeed(), h))
}

// atRandomOffset returns an instant at least a second from now that lies
// a random offset (uniform over the resolution) after one of
// metrics-server's scrapes, found as the moment a pod's PodMetrics
// timestamp changes (polled every 100 ms).
func atRandomOffset(t *testing.T, s *scenario, r *rand.Rand, what string) time.Time {
	t.Helper()
	scrape := nextScrape(t, s)
	off := time.Duration(r.Float64() * float64(histResolution)).Round(10 * time.Millisecond)
	at := scrape.Add(off)
	for time.Until(at) < time.Second {
		at = at.Add(histResolution)
	}
	t.Logf("%s: E2E_SEED=%d: it starts %s after a metrics-server scrape (seen at %s), at %s",
		what, proofSeed(), off, scrape.UTC().Format("15:04:05.00"), at.UTC().Format("15:04:05.00"))
	return at
}

// nextScrape is the moment a pod's PodMetrics timestamp next changes: a
// few milliseconds after one of metrics-server's scrapes.
func nextScrape(t *testing.T, s *scenario) time.Time {
	t.Helper()
	var last string
	deadline := time.Now().Add(3 * histResolution)
	for time.Now().Before(deadline) {
		list, err := env.metrics.MetricsV1beta1().PodMetricses(s.ns).List(s.ctx, metav1.ListOptions{})
		seen := time.Now()
		if err == nil && len(list.Items) > 0 {
			items := list.Items
			slices.SortFunc(items, func(x, y metricsv1beta1.PodMetrics) int { return strings.Compare(x.Name, y.Name) })
			ts := items[0].Name + " " + items[0].Timestamp.UTC().Format(time.RFC3339Nano)
			if last != "" && ts != last && strings.HasPrefix(last, items[0].Name+" ") {
				return seen
			}
			last = ts
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: no pod's metrics-server sample changed in %s", s.ns, 3*histResolution)
	return time.Time{}
}

// checkClock checks a document's clock: the sync period inferred from the
// HPA's events as the local controller's, metrics-server's window read off
// the PodMetrics, its scrapes' phase read.
func checkClock(t *testing.T, what string, c *explain.Clock) {
	t.Helper()
	if c == nil {
		t.Errorf("%s: no clock in the document", what)
		return
	}
	t.Logf("%s: clock %s", what, jsonString(c))
	if c.SyncPeriod.Value != syncPeriod.String() || c.SyncPeriod.Source != recording.OriginInferred {
		t.Errorf("%s: the sync period is %s (%s: %s), want %s inferred from the HPA's events", what, c.SyncPeriod.Value, c.SyncPeriod.Source, c.SyncPeriod.Detail, syncPeriod)
	}
	if c.Syncs.Source != recording.OriginInferred {
		t.Errorf("%s: the sync times are %s (%s), want inferred", what, c.Syncs.Source, c.Syncs.Detail)
	}
	if c.MetricsWindow.Value != histResolution.String() || c.MetricsWindow.Source != recording.OriginRead {
		t.Errorf("%s: metrics-server's window is %s (%s: %s), want %s read off the PodMetrics", what, c.MetricsWindow.Value, c.MetricsWindow.Source, c.MetricsWindow.Detail, histResolution)
	}
	if c.Scrapes.Source != recording.OriginRead {
		t.Errorf("%s: metrics-server's scrapes are %s (%s), want read", what, c.Scrapes.Source, c.Scrapes.Detail)
	}
}

// sampleWatch records every sample metrics-server served for the pods of
// a namespace: each pod's CPU rate at each of its timestamps.
type sampleWatch struct {
	mu      sync.Mutex
	samples map[string]map[time.Time]servedSample
}

// servedSample is one of metrics-server's CPU samples of a pod: its rate
// (cores), its window, and when the watch first saw it.
type servedSample struct {
	cores  float64
	window time.Duration
	seen   time.Time
}

// watchSamples lists the namespace's PodMetrics every 500 ms until done
// is closed.
func watchSamples(s *scenario, done <-chan struct{}) *sampleWatch {
	w := &sampleWatch{samples: map[string]map[time.Time]servedSample{}}
	go func() {
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			list, err := env.metrics.MetricsV1beta1().PodMetricses(s.ns).List(s.ctx, metav1.ListOptions{})
			now := time.Now()
			if err == nil {
				w.mu.Lock()
				for _, pm := range list.Items {
					if len(pm.Containers) == 0 {
						continue
					}
					byT := w.samples[pm.Name]
					if byT == nil {
						byT = map[time.Time]servedSample{}
						w.samples[pm.Name] = byT
					}
					ts := pm.Timestamp.Time
					if _, ok := byT[ts]; !ok {
						cpu := pm.Containers[0].Usage.Cpu()
						byT[ts] = servedSample{cores: float64(cpu.MilliValue()) / 1000, window: pm.Window.Duration, seen: now}
						if n := cpu.ScaledValue(-9); n != 0 {
							byT[ts] = servedSample{cores: float64(n) / 1e9, window: pm.Window.Duration, seen: now}
						}
					}
				}
				w.mu.Unlock()
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

// compareSamples compares metrics-server's samples with the ones worked
// out of the store's raw counters (rec, resampled at scrapes anchored as
// its clock says): for each sample served, the rate of the recorded
// counter over the window ending at the scrape it was taken at. It
// returns the relative differences' median, 95th percentile and maximum,
// and how many were compared; worstAt says which sample the maximum is
// (the pod, the scrape, both rates, the store's samples around it).
func (w *sampleWatch) compareSamples(rec *recording.Recording) (median, p95, worst float64, n int, worstAt string) {
	m := rec.Metric(recording.KindResource, "cpu")
	if m == nil || m.Raw == nil {
		return 0, 0, 0, 0, ""
	}
	anchor, window := rec.Clock.ScrapeAnchor, rec.Clock.Window
	w.mu.Lock()
	defer w.mu.Unlock()
	var diffs []float64
	for pod, byT := range w.samples {
		byC := m.Raw[pod]
		if byC == nil {
			continue
		}
		var raw *recording.Raw
		for _, r := range byC {
			raw = r
		}
		for ts, s := range byT {
			if s.cores < 0.01 {
				continue // an idle pod's few millicores: relative noise
			}
			// The scrape the sample was taken at: the one in the second of
			// its whole-second timestamp.
			end := recording.LastScrape(ts.Add(time.Second), anchor, window)
			if end.Before(ts.Add(-100*time.Millisecond)) || end.After(ts.Add(1100*time.Millisecond)) {
				continue
			}
			hi, ok1 := raw.ValueAt(end, true, 0, 0)
			lo, ok2 := raw.ValueAt(end.Add(-s.window), true, 0, 0)
			if !ok1 || !ok2 {
				continue
			}
			ours := (hi - lo) / s.window.Seconds()
			d := math.Abs(ours-s.cores) / s.cores
			if d > worst {
				worst = d
				worstAt = fmt.Sprintf("%s at the scrape of %s (window %s): metrics-server %.4f, the store's counters %.4f; the store's samples around it %s",
					pod, end.UTC().Format("15:04:05.000"), s.window, s.cores, ours, rawAround(raw, end.Add(-s.window), end))
			}
			diffs = append(diffs, d)
		}
	}
	if len(diffs) == 0 {
		return 0, 0, 0, 0, ""
	}
	slices.Sort(diffs)
	return diffs[len(diffs)/2], diffs[len(diffs)*95/100], worst, len(diffs), worstAt
}

// rawAround lists a raw counter's samples from an interval before from to
// an interval after to (time and value).
func rawAround(raw *recording.Raw, from, to time.Time) string {
	var b strings.Builder
	for i := range raw.T {
		at := time.UnixMilli(raw.T[i])
		if at.Before(from.Add(-10*time.Second)) || at.After(to.Add(10*time.Second)) {
			continue
		}
		fmt.Fprintf(&b, " %s=%.4f", at.UTC().Format("15:04:05.000"), raw.V[i])
	}
	return strings.TrimSpace(b.String())
}

// sampleWords says compareSamples' figures in a line.
func sampleWords(median, p95, worst float64, n int) string {
	return fmt.Sprintf("%d of metrics-server's samples against the store's counters resampled at its scrapes: median %.2f%%, 95th percentile %.2f%%, worst %.2f%% apart",
		n, 100*median, 100*p95, 100*worst)
}

// rawRecording reads the CPU counters of the namespace's Deployment web
// between start and end as the replay does (pkg/prom's raw read), with
// the clock of metrics-server's scrapes read live (gather.ReadScrapeClock,
// polled) and the controller's sync period.
func rawRecording(t *testing.T, s *scenario, start, end time.Time) *recording.Recording {
	t.Helper()
	c, err := gather.NewClients(env.cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := gather.ReadScrapeClock(s.ctx, c, s.ns, nil, gather.ScrapeClockOptions{Poll: true})
	if err != nil {
		t.Fatalf("read metrics-server's timing: %v", err)
	}
	client, err := prom.NewClient(prom.Config{Endpoint: prometheusURL()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := client.Read(s.ctx, prom.Request{
		Namespace: s.ns, Kind: "Deployment", Name: "web",
		Metrics: []prom.MetricRequest{{Kind: recording.KindResource, Name: "cpu"}},
		Start:   start, Step: syncPeriod, Len: int(end.Sub(start)/syncPeriod) + 1,
		Window: sc.Resolution, ScrapeAnchor: sc.Anchor,
	})
	if err != nil {
		t.Fatalf("read the recording: %v", err)
	}
	rec.Clock.ScrapeAnchor, rec.Clock.Window = sc.Anchor, sc.Resolution
	return rec
}

// appendArtifact appends a line to a file of E2E_ARTIFACTS (make test
// prints tune-proof.txt after the suite: a passing go test keeps its log
// to itself); nothing without it.
func appendArtifact(t *testing.T, name, line string) {
	t.Helper()
	dir := os.Getenv("E2E_ARTIFACTS")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Error(err)
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Error(err)
	}
}
