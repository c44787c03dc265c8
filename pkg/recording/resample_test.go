// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// counterOf is a counter sampled every interval from t0 for n samples,
// of a load (cores) that is rate(t) at each moment: the integral, as a
// kubelet's CPU counter holds it.
func counterOf(t0 time.Time, interval time.Duration, n int, rate func(time.Time) float64) *Raw {
	r := &Raw{}
	v := 0.0
	const dt = 10 * time.Millisecond
	at := t0
	for i := range n {
		end := t0.Add(time.Duration(i) * interval)
		for at.Before(end) {
			v += rate(at) * dt.Seconds()
			at = at.Add(dt)
		}
		r.Append(end.UnixMilli(), v, true)
	}
	return r
}

func TestRawAppend(t *testing.T) {
	r := &Raw{}
	r.Append(1000, 1, true)
	r.Append(1000, 5, true) // same time: dropped
	r.Append(900, 5, true)  // earlier: dropped
	r.Append(2000, 3, true)
	r.Append(3000, math.NaN(), true)
	r.Append(4000, 0.5, true) // a reset: counted from zero on
	r.Append(5000, 1.5, true)
	want := []float64{1, 3, 3.5, 4.5}
	if len(r.V) != len(want) {
		t.Fatalf("values %v, want %v", r.V, want)
	}
	for i := range want {
		if math.Abs(r.V[i]-want[i]) > 1e-12 {
			t.Fatalf("values %v, want %v", r.V, want)
		}
	}
}

// TestValueAtStep checks the counter's value inside an interval of the
// store's in which the load stepped: exact for a single step, where a
// straight line smears it.
func TestValueAtStep(t *testing.T) {
	t0 := time.Unix(1000, 0)
	interval := 5 * time.Second
	for _, stepAt := range []time.Duration{6 * time.Second, 7200 * time.Millisecond, 9900 * time.Millisecond} {
		rate := func(at time.Time) float64 {
			if at.Sub(t0) < stepAt {
				return 0.3
			}
			return 1.2
		}
		raw := counterOf(t0, interval, 6, rate)
		for _, probe := range []time.Duration{5500 * time.Millisecond, 6500 * time.Millisecond, 8 * time.Second, 9500 * time.Millisecond} {
			at := t0.Add(probe)
			want := 0.3 * min(probe, stepAt).Seconds()
			if probe > stepAt {
				want += 1.2 * (probe - stepAt).Seconds()
			}
			got, ok := raw.ValueAt(at, true, 0, 0)
			if !ok || math.Abs(got-want) > 0.02 {
				t.Errorf("step at %s: value at %s = %.4f, want %.4f", stepAt, probe, got, want)
			}
		}
	}
}

func TestValueAtEnds(t *testing.T) {
	t0 := time.Unix(1000, 0)
	raw := &Raw{}
	for i := range 4 {
		at := t0.Add(2*time.Second + time.Duration(i)*5*time.Second)
		raw.Append(at.UnixMilli(), 10+0.5*at.Sub(t0).Seconds(), true)
	}
	// Before the first sample by up to before: run back at the first rate.
	if v, ok := raw.ValueAt(t0.Add(time.Second), true, 2*time.Second, 0); !ok || math.Abs(v-(raw.V[0]-0.5)) > 1e-9 {
		t.Errorf("a second before the first sample: %v %v", v, ok)
	}
	if _, ok := raw.ValueAt(t0, true, time.Second, 0); ok {
		t.Errorf("two seconds before the first sample with one allowed: a value")
	}
	last := raw.Last()
	if v, ok := raw.ValueAt(last.Add(time.Second), true, 0, time.Second); !ok || math.Abs(v-(raw.V[3]+0.5)) > 1e-9 {
		t.Errorf("a second after the last sample: %v %v", v, ok)
	}
	g := &Raw{}
	g.Append(t0.UnixMilli(), 100, false)
	g.Append(t0.Add(10*time.Second).UnixMilli(), 200, false)
	if v, _ := g.ValueAt(t0.Add(5*time.Second), false, 0, 0); v != 150 {
		t.Errorf("gauge halfway: %v, want 150", v)
	}
}

// TestResample checks the samples metrics-server served: the rate over
// its window ending at its last scrape before each sync, a step of the
// load mixed into the one sample whose window holds it.
func TestResample(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	stepAt := t0.Add(63 * time.Second)
	rate := func(at time.Time) float64 {
		if at.Before(stepAt) {
			return 0.2
		}
		return 0.8
	}
	rec := &Recording{
		Start: t0.Add(30 * time.Second), Step: 5 * time.Second, Len: 20, StoreInterval: 5 * time.Second,
		Metrics: []Metric{{
			Kind: KindResource, Name: "cpu", Cumulative: true,
			Raw: map[string]map[string]*Raw{"web-1": {"app": counterOf(t0, 5*time.Second, 40, rate)}},
		}},
	}
	// Scrapes at 1 s past the multiples of 10 s from t0.
	sc := Scrapes{Anchor: t0.Add(time.Second), Window: 10 * time.Second}
	rec.Resample(sc)
	s := rec.Metrics[0].PerPod["web-1"]["app"]
	if s == nil {
		t.Fatal("no resampled series")
	}
	for k := range rec.Len {
		at := rec.Instant(k)
		end := LastScrape(at, sc.Anchor, sc.Window)
		if got := rec.SampleTime(k); !got.Equal(end) {
			t.Errorf("instant %d: sample time %s, want %s", k, got, end)
		}
		begin := end.Add(-sc.Window)
		// The load's integral over the window, by hand.
		old := max(0, min(stepAt.Sub(begin), sc.Window))
		want := (0.2*old.Seconds() + 0.8*(sc.Window-old).Seconds()) / sc.Window.Seconds()
		got, ok := s.At(k)
		if !ok || math.Abs(got-want) > 0.005 {
			t.Errorf("instant %d (%s, scrape %s): sample %.4f, want %.4f", k, at.Sub(t0), end.Sub(t0), got, want)
		}
	}
	if rec.SampleWindow != sc.Window {
		t.Errorf("sample window %s, want %s", rec.SampleWindow, sc.Window)
	}
	// Another phase, on a copy: the original keeps its samples.
	other := rec.AtScrapes(Scrapes{Anchor: t0.Add(6 * time.Second), Window: 10 * time.Second, Scale: 1.01})
	a, _ := rec.Metrics[0].PerPod["web-1"]["app"].At(7)
	b, _ := other.Metrics[0].PerPod["web-1"]["app"].At(7)
	if a == b {
		t.Errorf("the copy at another phase and scale has the original's sample at instant 7 (%v)", a)
	}
	if c, _ := rec.Metrics[0].PerPod["web-1"]["app"].At(7); c != a {
		t.Errorf("AtScrapes changed the original")
	}
}

// TestResampleNewPod checks that a pod has no sample until metrics-server
// had two points of it: the window must start after its container did.
func TestResampleNewPod(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	// The pod started at t0+12s; the store first saw it at t0+15s.
	start := t0.Add(12 * time.Second)
	raw := &Raw{}
	for i := range 10 {
		at := t0.Add(15*time.Second + time.Duration(i)*5*time.Second)
		raw.Append(at.UnixMilli(), 0.5*at.Sub(start).Seconds(), true)
	}
	rec := &Recording{
		Start: t0, Step: 5 * time.Second, Len: 14, StoreInterval: 5 * time.Second,
		Metrics: []Metric{{Kind: KindResource, Name: "cpu", Cumulative: true, Raw: map[string]map[string]*Raw{"p": {"c": raw}}}},
	}
	rec.Resample(Scrapes{Anchor: t0, Window: 10 * time.Second})
	s := rec.Metrics[0].PerPod["p"]["c"]
	for k := range rec.Len {
		end := LastScrape(rec.Instant(k), t0, 10*time.Second)
		_, ok := s.At(k)
		want := !end.Add(-10*time.Second).Before(start) && !end.After(raw.Last().Add(2500*time.Millisecond))
		if ok != want {
			t.Errorf("instant %d (scrape %s): sample %v, want %v", k, end.Sub(t0), ok, want)
		}
	}
}

// TestWindowLoad checks the load of all pods over a sample's window: a pod
// that joins in the middle of it counts for its part, though it has no
// sample of its own yet.
func TestWindowLoad(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	mk := func(start time.Time, v0 float64) *Raw {
		r := &Raw{}
		for i := range 30 {
			at := start.Add(time.Duration(i) * 5 * time.Second)
			r.Append(at.UnixMilli(), v0+0.4*at.Sub(start).Seconds(), true)
		}
		return r
	}
	// web-1 runs throughout; web-2 starts at t0+33s (its counter from zero).
	rec := &Recording{
		Start: t0.Add(20 * time.Second), Step: 5 * time.Second, Len: 10, StoreInterval: 5 * time.Second,
		Metrics: []Metric{{Kind: KindResource, Name: "cpu", Cumulative: true, Raw: map[string]map[string]*Raw{
			"web-1": {"app": mk(t0, 100)},
			"web-2": {"app": mk(t0.Add(35*time.Second), 0.8)},
		}}},
	}
	rec.Resample(Scrapes{Anchor: t0, Window: 10 * time.Second})
	m := &rec.Metrics[0]
	for k := range rec.Len {
		end := rec.SampleTime(k)
		begin := end.Add(-10 * time.Second)
		start2 := t0.Add(33 * time.Second)
		part := max(0, min(end.Sub(start2), 10*time.Second))
		want := 0.4 + 0.4*part.Seconds()/10
		got, ok := m.Load["app"].At(k)
		if !ok || math.Abs(got-want) > 1e-6 {
			t.Errorf("instant %d (window %s-%s): load %.4f, want %.4f", k, begin.Sub(t0), end.Sub(t0), got, want)
		}
		_, own := m.PerPod["web-2"]["app"].At(k)
		if wantOwn := !begin.Before(start2); own != wantOwn {
			t.Errorf("instant %d: web-2 has a sample %v, want %v", k, own, wantOwn)
		}
		served, _ := m.Served["app"].At(k)
		from := rec.Instant(k)
		part = max(0, min(from.Add(5*time.Second).Sub(start2), 5*time.Second))
		if want := 0.4 + 0.4*part.Seconds()/5; math.Abs(served-want) > 1e-6 {
			t.Errorf("instant %d: served %.4f, want %.4f", k, served, want)
		}
	}
}

func TestVariants(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	rec := func(from string, spread time.Duration) *Recording {
		r := &Recording{
			Start: t0, Step: 5 * time.Second, Len: 4, StoreInterval: 5 * time.Second,
			Clock: Clock{ScrapeFrom: Origin{Source: from}, ScrapeSpread: spread},
			Metrics: []Metric{{Kind: KindResource, Name: "cpu", Cumulative: true, Raw: map[string]map[string]*Raw{
				"p": {"c": counterOf(t0.Add(-time.Minute), 5*time.Second, 30, func(time.Time) float64 { return 0.5 })},
			}}},
		}
		if from != OriginUnknown {
			r.Clock.ScrapeAnchor = t0.Add(2 * time.Second)
		}
		r.Resample(Scrapes{Anchor: t0.Add(2 * time.Second), Window: 10 * time.Second})
		return r
	}
	for _, tc := range []struct {
		name string
		rec  *Recording
	}{
		{"phase polled", rec(OriginRead, 50*time.Millisecond)},
		{"phase from whole seconds", rec(OriginRead, 500*time.Millisecond)},
		{"phase unknown", rec(OriginUnknown, 0)},
	} {
		vs := tc.rec.Variants()
		if want := VariantPhases*3 - 1; len(vs) != want {
			t.Errorf("%s: %d variants, want %d", tc.name, len(vs), want)
		}
		seen := map[string]bool{}
		for _, v := range vs {
			if seen[v.Words] || v.Words == "" {
				t.Errorf("%s: variant %q twice or without words", tc.name, v.Words)
			}
			seen[v.Words] = true
			if v.Scrapes.Window != 10*time.Second || v.Scrapes.Scale < 0.98 || v.Scrapes.Scale > 1.02 {
				t.Errorf("%s: variant %+v", tc.name, v.Scrapes)
			}
		}
	}
	// A recording of grid samples has none.
	grid := &Recording{Start: t0, Step: 5 * time.Second, Len: 4}
	if vs := grid.Variants(); len(vs) != 0 {
		t.Errorf("grid samples: %d variants", len(vs))
	}
}

// weekOfCounters is a week of a 50-pod workload's CPU counters as a store
// scraping every 15 s keeps them, replayed at a 15 s sync: what tune
// resamples once per variant.
func weekOfCounters() *Recording {
	start := time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC)
	const n = 7 * 24 * 240
	rec := &Recording{
		Start: start, Step: 15 * time.Second, Len: n, StoreInterval: 15 * time.Second,
		Metrics: []Metric{{Kind: KindResource, Name: "cpu", Cumulative: true, Raw: map[string]map[string]*Raw{}}},
	}
	for p := range 50 {
		raw := &Raw{T: make([]int64, 0, n+8), V: make([]float64, 0, n+8)}
		v := 0.0
		for i := -4; i < n+4; i++ {
			at := start.Add(time.Duration(i)*15*time.Second + time.Duration(p)*100*time.Millisecond)
			v += 15 * (0.25 + 0.02*math.Sin(float64(i)/240))
			raw.Append(at.UnixMilli(), v, true)
		}
		rec.Metrics[0].Raw[fmt.Sprintf("web-%02d", p)] = map[string]*Raw{"app": raw}
	}
	return rec
}

func BenchmarkResampleWeek(b *testing.B) {
	rec := weekOfCounters()
	b.ReportAllocs()
	for b.Loop() {
		rec.Metrics[0].Served = nil
		rec.Resample(Scrapes{Anchor: rec.Start.Add(3 * time.Second), Window: 15 * time.Second})
	}
}

// TestScaledDownPodEnd checks where the load of a pod that went ends: at
// the controller's sync when its scale-down removed it and the syncs are
// known (the only one between its last sample and the scrape that no
// longer found it), else half a store interval after its last sample, or
// at its deletion when that came sooner. The case is a real run's (an e2e
// of 2026-12-02): the store's last sample 0.25 s before the sync that
// removed the pod, half an interval after it 2.25 s too late, which made
// the load of the next sample's window 1% too high.
func TestScaledDownPodEnd(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	// web-2 serves 0.1 core until the controller's sync at t0+60.25s
	// removes it; the store scrapes every 5 s at whole multiples of t0, so
	// its last sample is at t0+60s. web-1 serves 0.4 throughout.
	removed := t0.Add(60250 * time.Millisecond)
	raw := func(rate float64, until time.Time) *Raw {
		r := &Raw{}
		for at := t0; !at.After(until); at = at.Add(5 * time.Second) {
			r.Append(at.UnixMilli(), rate*at.Sub(t0).Seconds(), true)
		}
		return r
	}
	// The first instant web-2 no longer existed, on a grid 0.3 s off the
	// syncs (as a recording's instants are).
	gone := t0.Add(65550 * time.Millisecond)
	syncs := Clock{SyncPeriod: 5 * time.Second, SyncStep: 5 * time.Second, SyncAnchor: t0.Add(250 * time.Millisecond)}
	down := ReplicaHistory{Source: SourceKubeStateMetrics, Changes: []ReplicaChange{{At: t0, Replicas: 2}, {At: gone, Replicas: 1}}}
	for _, tc := range []struct {
		name     string
		clock    Clock
		replicas ReplicaHistory
		gone     time.Time
		until    time.Time
	}{
		{"scaled down, syncs known", syncs, down, gone, removed},
		{"syncs not known", Clock{}, down, gone, t0.Add(62500 * time.Millisecond)},
		{"not a scale-down", syncs, ReplicaHistory{Source: SourceKubeStateMetrics, Changes: []ReplicaChange{{At: t0, Replicas: 2}}}, gone, t0.Add(62500 * time.Millisecond)},
		{"deleted sooner than half an interval", Clock{}, down, t0.Add(61 * time.Second), t0.Add(61 * time.Second)},
		// Two syncs between the last sample and the scrape that missed the
		// pod (a 2 s period): which one is not known.
		{"two syncs", Clock{SyncPeriod: 2 * time.Second, SyncStep: 2 * time.Second, SyncAnchor: t0.Add(250 * time.Millisecond)}, down, gone, t0.Add(62500 * time.Millisecond)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.gone
			rec := &Recording{
				Start: t0.Add(20 * time.Second), Step: 5 * time.Second, Len: 12, StoreInterval: 5 * time.Second,
				Clock: tc.clock, Replicas: tc.replicas,
				Pods: []Pod{{Name: "web-1", Created: t0}, {Name: "web-2", Created: t0, Deleted: &g}},
				Metrics: []Metric{{Kind: KindResource, Name: "cpu", Cumulative: true, Raw: map[string]map[string]*Raw{
					"web-1": {"app": raw(0.4, t0.Add(2*time.Minute))},
					"web-2": {"app": raw(0.1, t0.Add(60*time.Second))},
				}}},
			}
			// Scrapes at 1.5 s past the multiples of 10 s: the window
			// (51.5, 61.5] holds the pod's end.
			rec.Resample(Scrapes{Anchor: t0.Add(1500 * time.Millisecond), Window: 10 * time.Second})
			m := &rec.Metrics[0]
			for k := range rec.Len {
				end := rec.SampleTime(k)
				part := max(0, min(tc.until.Sub(end.Add(-10*time.Second)), 10*time.Second))
				want := 0.4 + 0.1*part.Seconds()/10
				if got, ok := m.Load["app"].At(k); !ok || math.Abs(got-want) > 1e-9 {
					t.Errorf("instant %d (window to %s): load %.5f, want %.5f", k, end.Sub(t0), got, want)
				}
				_, own := m.PerPod["web-2"]["app"].At(k)
				if wantOwn := !end.After(tc.until); own != wantOwn {
					t.Errorf("instant %d (scrape %s): web-2 has a sample %v, want %v", k, end.Sub(t0), own, wantOwn)
				}
			}
		})
	}
}

// TestResampleSpans resamples one recording whole and cut into spans
// worked out at once: every sample, every instant's load and served work
// must be the same to the last bit (the spans only split the instants;
// each instant's sum still runs over the pods in their name order). The
// recording has pods that start and go at any moment, gaps in their
// samples, a counter reset, two containers, a gauge, and a scale.
// randomRawRecording is 700 instants of 9 pods' raw counters and gauges
// (one or two containers; created before or during the period, some
// deleted; scrapes irregular, some missed; counters that restart).
func randomRawRecording(rng *rand.Rand) *Recording {
	t0 := time.Unix(1_700_000_000, 0)
	rec := &Recording{Start: t0, Step: 15 * time.Second, Len: 700, StoreInterval: 5 * time.Second}
	end := rec.Instant(rec.Len - 1)
	cpu := Metric{Kind: KindResource, Name: "cpu", Cumulative: true, Raw: map[string]map[string]*Raw{}}
	mem := Metric{Kind: KindResource, Name: "memory", Raw: map[string]map[string]*Raw{}}
	for i := range 9 {
		name := fmt.Sprintf("web-%d", i)
		from := t0.Add(-time.Hour + time.Duration(rng.Int64N(int64(3*time.Hour))))
		until := end.Add(time.Minute)
		p := Pod{Name: name, Created: from}
		if i%3 == 1 {
			gone := from.Add(time.Duration(rng.Int64N(int64(2 * time.Hour))))
			until, p.Deleted = gone, &gone
		}
		rec.Pods = append(rec.Pods, p)
		cpu.Raw[name], mem.Raw[name] = map[string]*Raw{}, map[string]*Raw{}
		for _, c := range []string{"app", "sidecar"}[:1+i%2] {
			counter, gauge := &Raw{}, &Raw{}
			v := 0.0
			for at := from; at.Before(until); at = at.Add(rec.StoreInterval + time.Duration(rng.Int64N(400))*time.Millisecond) {
				if rng.IntN(20) == 0 {
					continue // a scrape the store missed
				}
				v += rng.Float64() * 3
				if rng.IntN(500) == 0 {
					v = 0 // a restart
				}
				counter.Append(at.UnixMilli(), v, true)
				gauge.Append(at.UnixMilli(), 1e8+rng.Float64()*1e7, false)
			}
			cpu.Raw[name][c], mem.Raw[name][c] = counter, gauge
		}
	}
	rec.Metrics = []Metric{cpu, mem}
	return rec
}

func TestResampleSpans(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 38))
	rec := randomRawRecording(rng)
	t0 := rec.Start
	sc := Scrapes{Anchor: t0.Add(2300 * time.Millisecond), Window: 15 * time.Second, Scale: 1.01}
	oldMin, oldParts := MinSpan, SpanParts
	defer func() { MinSpan, SpanParts = oldMin, oldParts }()
	MinSpan, SpanParts = 1<<30, 0
	whole := rec.AtScrapes(sc)
	if len(Spans(rec.Len)) != 1 {
		t.Fatalf("%d spans, want 1", len(Spans(rec.Len)))
	}
	MinSpan = 1
	for _, parts := range []int{2, 3, 7, 64} {
		SpanParts = parts
		if n := len(Spans(rec.Len)); n != parts {
			t.Fatalf("%d spans, want %d", n, parts)
		}
		cut := rec.AtScrapes(sc)
		for mi := range whole.Metrics {
			w, c := &whole.Metrics[mi], &cut.Metrics[mi]
			if len(w.PerPod) == 0 || len(w.Load) == 0 {
				t.Fatalf("%s: nothing resampled", w.Name)
			}
			same := func(what string, a, b map[string]*Series) {
				t.Helper()
				if len(a) != len(b) {
					t.Errorf("%d spans, %s %s: %d series, whole %d", parts, w.Name, what, len(b), len(a))
				}
				for key, sa := range a {
					sb := b[key]
					if sb == nil || sa.First != sb.First || len(sa.Values) != len(sb.Values) {
						t.Errorf("%d spans, %s %s %s: %+v, whole first %d of %d", parts, w.Name, what, key, sb, sa.First, len(sa.Values))
						continue
					}
					for k := range sa.Values {
						if math.Float64bits(sa.Values[k]) != math.Float64bits(sb.Values[k]) {
							t.Errorf("%d spans, %s %s %s at %d: %v, whole %v", parts, w.Name, what, key, sa.First+k, sb.Values[k], sa.Values[k])
							break
						}
					}
				}
			}
			same("load", w.Load, c.Load)
			same("served", w.Served, c.Served)
			if len(w.PerPod) != len(c.PerPod) {
				t.Errorf("%d spans, %s: %d pods, whole %d", parts, w.Name, len(c.PerPod), len(w.PerPod))
			}
			for pod, byC := range w.PerPod {
				same(pod, byC, c.PerPod[pod])
			}
		}
	}
}

// The variants of one phase resampled together are each the variant
// resampled alone, value for value through At, load for load, to the bit;
// they share their samples (one array a pod and container for the phase)
// and their Served.
func TestAtScrapesEach(t *testing.T) {
	for seed := range uint64(4) {
		rec := randomRawRecording(rand.New(rand.NewPCG(seed, 5)))
		rec.Resample(Scrapes{Anchor: rec.Start.Add(1700 * time.Millisecond), Window: 15 * time.Second})
		var scs []Scrapes
		for _, v := range rec.Variants() {
			scs = append(scs, v.Scrapes)
		}
		if len(scs) != 3*VariantPhases-1 {
			t.Fatalf("%d variants", len(scs))
		}
		together := rec.AtScrapesEach(scs)
		for j, sc := range scs {
			alone, got := rec.AtScrapes(sc), together[j]
			if got.SampleWindow != alone.SampleWindow || !got.SampleTime(5).Equal(alone.SampleTime(5)) {
				t.Errorf("seed %d, variant %d: sample window %s, time %s; alone %s, %s", seed, j, got.SampleWindow, got.SampleTime(5), alone.SampleWindow, alone.SampleTime(5))
			}
			for mi := range alone.Metrics {
				a, g := &alone.Metrics[mi], &got.Metrics[mi]
				same := func(what string, x, y *Series) {
					t.Helper()
					if (x == nil) != (y == nil) || x == nil {
						if (x == nil) != (y == nil) {
							t.Errorf("seed %d, variant %d, %s %s: one is missing", seed, j, a.Name, what)
						}
						return
					}
					if x.First != y.First || len(x.Values) != len(y.Values) {
						t.Errorf("seed %d, variant %d, %s %s: instants %d+%d, alone %d+%d", seed, j, a.Name, what, y.First, len(y.Values), x.First, len(x.Values))
						return
					}
					for k := x.First; k < x.First+len(x.Values); k++ {
						vx, okx := x.At(k)
						vy, oky := y.At(k)
						if okx != oky || math.Float64bits(vx) != math.Float64bits(vy) {
							t.Errorf("seed %d, variant %d, %s %s at %d: %v %v, alone %v %v", seed, j, a.Name, what, k, vy, oky, vx, okx)
							return
						}
					}
				}
				if len(a.PerPod) == 0 || len(a.PerPod) != len(g.PerPod) || len(a.Load) != len(g.Load) {
					t.Fatalf("seed %d, variant %d, %s: %d pods, %d loads; alone %d, %d", seed, j, a.Name, len(g.PerPod), len(g.Load), len(a.PerPod), len(a.Load))
				}
				for pod, byC := range a.PerPod {
					for c, s := range byC {
						same(pod+"/"+c, s, g.PerPod[pod][c])
					}
				}
				for c, s := range a.Load {
					same("load "+c, s, g.Load[c])
				}
				for c, s := range a.Served {
					same("served "+c, s, g.Served[c])
				}
			}
		}
		// One array of samples a phase: the first variant's, shared by
		// the others of its phase.
		for j := 1; j < len(scs); j++ {
			if !scs[j].Anchor.Equal(scs[j-1].Anchor) {
				continue
			}
			for pod, byC := range together[j].Metrics[0].PerPod {
				for c, s := range byC {
					if o := together[j-1].Metrics[0].PerPod[pod][c]; &o.Values[0] != &s.Values[0] {
						t.Errorf("seed %d: variants %d and %d of one phase hold %s/%s twice", seed, j-1, j, pod, c)
					}
				}
			}
		}
	}
}
