// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Scrapes say when metrics-server took the samples a replay reads: every
// Window from Anchor, and how a replay sees them.
type Scrapes struct {
	// Anchor is one scrape; the others are Window apart.
	Anchor time.Time
	Window time.Duration
	// Scale multiplies every sample (1 when 0): a perturbation of the
	// recorded load, for what no recording can tell (the last fraction of
	// a percent between the store's counters and metrics-server's rate).
	Scale float64
}

// Resample works out, for every resource metric read as raw samples (Raw),
// the sample metrics-server served at each instant of r when it scraped as
// sc says, and puts them in the metric's PerPod (replacing what was
// there). A CPU sample at an instant is the counter's rate between the last
// scrape at or before the instant and the one a window before it; a memory
// sample the working set at that last scrape. A pod has a sample only when
// its series covers both ends (a pod the store first saw after the earlier
// scrape, or last saw well before the later one, has none, as
// metrics-server had two points of it or none). r's SampleWindow becomes
// the window, and SampleTime gives the scrape each instant's samples are
// of.
func (r *Recording) Resample(sc Scrapes) {
	r.resampleEach([]*Recording{r}, []Scrapes{sc})
}

// resampleEach is Resample of r at each of scs into outs[j] (r, or copies
// of r sharing its pods and raw samples), where scs differ in their Scale
// alone: the samples are worked out once, unscaled, and each output's
// series share them, scaled as they are read (Series.Scale: the same
// product, to the bit, as scaling them as they were worked out); each
// output's Load adds its own scaled samples in the same order; Served,
// which no scale changes, is shared.
func (r *Recording) resampleEach(outs []*Recording, scs []Scrapes) {
	raw := false
	for i := range r.Metrics {
		raw = raw || r.Metrics[i].Raw != nil
	}
	sc := scs[0]
	if sc.Window <= 0 || !raw {
		return
	}
	scales := make([]float64, len(scs))
	for j := range scs {
		scales[j] = scs[j].Scale
		if scales[j] == 0 {
			scales[j] = 1
		}
		outs[j].SampleWindow, outs[j].scrapes = sc.Window, &scs[j]
	}
	interval := r.StoreInterval
	if interval <= 0 {
		interval = sc.Window
	}
	gone := r.deletions()
	// The scrapes each instant's samples are of (Unix milliseconds): the
	// same for every pod.
	ends := make([]int64, r.Len)
	for k := range ends {
		ends[k] = LastScrape(r.Instant(k), sc.Anchor, sc.Window).UnixMilli()
	}
	spans := Spans(len(ends))
	for i := range r.Metrics {
		if r.Metrics[i].Raw == nil {
			continue
		}
		m := &r.Metrics[i]
		served := m.Served == nil
		loads, work := make([]*sums, len(scs)), newSums(r.Len)
		for j := range loads {
			loads[j] = newSums(r.Len)
		}
		// In the pods' name order: the sums are then the same, to the
		// last bit, from one read of the same samples to the next. The
		// instants are cut into spans worked out at once, each over every
		// pod in that order, so each instant's sum is the same whatever
		// the spans.
		type series struct {
			pod, c string
			sw     sweep
			vals   []float64
			// from and to bound the instants with a sample, per span.
			from, to []int
		}
		var all []*series
		for _, pod := range slices.Sorted(maps.Keys(m.Raw)) {
			byC := m.Raw[pod]
			for _, c := range slices.Sorted(maps.Keys(byC)) {
				raw := byC[c]
				if raw.Len() == 0 {
					continue
				}
				for _, l := range loads {
					l.of(c)
				}
				if served {
					work.of(c)
				}
				all = append(all, &series{
					pod: pod, c: c, from: make([]int, len(spans)), to: make([]int, len(spans)),
					sw: sweep{r: r, raw: raw, counter: m.Cumulative, interval: interval, gone: gone[pod], window: sc.Window, once: &sync.Once{}},
				})
			}
		}
		var wg sync.WaitGroup
		for j, span := range spans {
			wg.Add(1)
			go func() {
				defer wg.Done()
				dst := make([][]float64, len(loads))
				for _, se := range all {
					sw := se.sw
					se.from[j], se.to[j] = sw.samples(ends, span, &se.vals)
					for l := range loads {
						dst[l] = loads[l].by[se.c]
					}
					sw.load(ends, span, dst, scales)
					if served {
						sw.served(span, work.by[se.c])
					}
				}
			}()
		}
		wg.Wait()
		var servedSeries map[string]*Series
		if served {
			servedSeries = work.series()
		}
		for j, out := range outs {
			om := &out.Metrics[i]
			om.PerPod = make(map[string]map[string]*Series, len(m.Raw))
			for _, se := range all {
				first, last := -1, -1
				for sp := range spans {
					if se.from[sp] < 0 {
						continue
					}
					if first < 0 {
						first = se.from[sp]
					}
					last = se.to[sp]
				}
				if first < 0 {
					continue
				}
				byC := om.PerPod[se.pod]
				if byC == nil {
					byC = map[string]*Series{}
					om.PerPod[se.pod] = byC
				}
				s := &Series{First: first, Values: se.vals[first : last+1 : last+1]}
				if scales[j] != 1 {
					s.Scale = scales[j]
				}
				byC[se.c] = s
			}
			om.Load = loads[j].series()
			if served {
				om.Served = servedSeries
			}
		}
	}
}

// MinSpan is the fewest instants a span of Spans holds. The tests set
// it, and SpanParts, to cut small recordings too.
var MinSpan = 4096

// SpanParts is the most spans Spans cuts (0: one per processor).
var SpanParts = 0

// Spans cuts n instants into spans [from, to) to be worked out at once,
// one per processor, of at least MinSpan instants each (one span when n is
// smaller).
func Spans(n int) [][2]int {
	parts := SpanParts
	if parts <= 0 {
		parts = runtime.GOMAXPROCS(0)
	}
	parts = max(1, min(parts, n/max(MinSpan, 1)))
	out := make([][2]int, 0, parts)
	for j := range parts {
		out = append(out, [2]int{n * j / parts, n * (j + 1) / parts})
	}
	return out
}

// sums adds up, per container name, a value per instant over the pods
// (NaN: no pod had one there).
type sums struct {
	n  int
	by map[string][]float64
}

func newSums(n int) *sums { return &sums{n: n, by: map[string][]float64{}} }

// of is the sums of container c, made on first use.
func (s *sums) of(c string) []float64 {
	v := s.by[c]
	if v == nil {
		v = make([]float64, s.n)
		for k := range v {
			v[k] = math.NaN()
		}
		s.by[c] = v
	}
	return v
}

// series returns each container's sums as a Series.
func (s *sums) series() map[string]*Series {
	out := make(map[string]*Series, len(s.by))
	for c, v := range s.by {
		first := 0
		for first < len(v) && math.IsNaN(v[first]) {
			first++
		}
		last := len(v)
		for last > first && math.IsNaN(v[last-1]) {
			last--
		}
		if first < last {
			out[c] = &Series{First: first, Values: v[first:last:last]}
		}
	}
	return out
}

// add adds v to dst at k.
func add(dst []float64, k int, v float64) {
	if math.IsNaN(dst[k]) {
		dst[k] = v
	} else {
		dst[k] += v
	}
}

// sweep works one raw series out at the instants of r, in order: every
// time it is asked at rises with the instant, so each of its cursors walks
// the samples once. Times are Unix milliseconds.
type sweep struct {
	r        *Recording
	raw      *Raw
	counter  bool
	interval time.Duration
	gone     podEnd
	window   time.Duration
	// once makes the samples' slice (vals).
	once *sync.Once
}

// samples writes the series' own sample at each instant of span into
// *vals (made on first use, NaN where there is none, as long as ends): the
// counter's rate over the window ending at the instant's scrape, or the
// gauge at it. It returns the first and the last instant of span with a
// sample (-1 when none; see Resample).
func (sw *sweep) samples(ends []int64, span [2]int, vals *[]float64) (first, last int) {
	from, until := sw.raw.spanMs(sw.counter, sw.interval, sw.gone)
	w := sw.window.Milliseconds()
	hi, lo := sw.raw.cursor(), sw.raw.cursor()
	first, last = -1, -1
	for k := span[0]; k < span[1]; k++ {
		end := ends[k]
		begin := end - w
		if end > until || (sw.counter && begin < from) || (!sw.counter && end < from) {
			continue
		}
		var v float64
		if sw.counter {
			b, ok1 := hi.valueAt(end, true, sw.interval, sw.interval)
			a, ok2 := lo.valueAt(begin, true, sw.interval, sw.interval)
			if !ok1 || !ok2 {
				continue
			}
			v = (b - a) * 1000 / float64(w)
		} else {
			g, ok := hi.valueAt(end, false, sw.interval, sw.interval)
			if !ok {
				continue
			}
			v = g
		}
		if first < 0 {
			first = k
		}
		last = k
		sw.vals(vals, len(ends))[k] = v
	}
	return first, last
}

// vals makes *v, n NaNs, once: the spans of one series share it, and only
// one of them makes it.
func (sw *sweep) vals(v *[]float64, n int) []float64 {
	sw.once.Do(func() {
		*v = make([]float64, n)
		for k := range *v {
			(*v)[k] = math.NaN()
		}
	})
	return *v
}

// load adds to dst, at each instant of span, the series' load over the
// window of the instant's sample: a counter's work over the part of the
// window the pod existed in, as a rate over the whole window; a gauge's
// value at the scrape.
func (sw *sweep) load(ends []int64, span [2]int, dst [][]float64, scales []float64) {
	o := sw.overs()
	w := sw.window.Milliseconds()
	for k := span[0]; k < span[1]; k++ {
		end := ends[k]
		if v, ok := o.over(end-w, end); ok {
			for j, d := range dst {
				add(d, k, v*scales[j])
			}
		}
	}
}

// served adds to dst, at each instant of span, what the series served
// between the instant and the next (a step on for the last).
func (sw *sweep) served(span [2]int, dst []float64) {
	o := sw.overs()
	start, step := sw.r.Start.UnixMilli(), sw.r.Step.Milliseconds()
	for k := span[0]; k < span[1]; k++ {
		t := start + int64(k)*step
		if v, ok := o.over(t, t+step); ok {
			add(dst, k, v)
		}
	}
}

// overs is a pass of over at rising times.
type overs struct {
	sw          *sweep
	lo, hi      *cursor
	from, until int64
}

func (sw *sweep) overs() *overs {
	o := &overs{sw: sw, lo: sw.raw.cursor(), hi: sw.raw.cursor()}
	o.from, o.until = sw.raw.spanMs(sw.counter, sw.interval, sw.gone)
	return o
}

// over is the series' rate between from and to (see load).
func (o *overs) over(from, to int64) (float64, bool) {
	sw := o.sw
	if to <= from {
		return 0, false
	}
	if !sw.counter {
		if to < o.from || to > o.until {
			return 0, false
		}
		return o.hi.valueAt(to, false, sw.interval, sw.interval)
	}
	a, b := max(from, o.from), min(to, o.until)
	if a >= b {
		return 0, false
	}
	va, ok1 := o.lo.valueAt(a, true, sw.interval, sw.interval)
	vb, ok2 := o.hi.valueAt(b, true, sw.interval, sw.interval)
	if !ok1 || !ok2 {
		return 0, false
	}
	return (vb - va) * 1000 / float64(to-from), true
}

// span is when a series existed as the store's samples tell it: a
// counter from where its first value, run back at its first rate, was
// zero (its container's start; within a store interval of its first
// sample), a gauge from half an interval before its first sample; both
// until half an interval after the last.
//
// When the pod's deletion is known (end.gone, the first instant it no
// longer existed), the series runs until the pod went, as far as the
// recording tells it: the store, scraping every interval, missed its last
// moments. A pod the controller's scale-down removed went at the
// controller's sync: where the syncs are known and one alone falls
// between the last sample and the next scrape that no longer found the
// pod (or its deletion, when earlier), the series runs until that sync.
// Else, when the deletion falls within an interval after the last sample,
// until the deletion.
func (raw *Raw) spanMs(counter bool, interval time.Duration, end podEnd) (from, until int64) {
	f, u := raw.span(counter, interval, end)
	return f.UnixMilli(), u.UnixMilli()
}

func (raw *Raw) span(counter bool, interval time.Duration, end podEnd) (from, until time.Time) {
	from = raw.First().Add(-interval / 2)
	if counter && raw.Len() >= 2 {
		if rt, ok := raw.rate(1); ok && rt > 0 {
			back := time.Duration(raw.V[0] / rt * float64(time.Second))
			from = raw.First().Add(-min(max(back, 0), interval))
		}
	}
	last := raw.Last()
	until = last.Add(interval / 2)
	if g := end.gone; g != nil && g.After(last) {
		next := last.Add(interval)
		if s, ok := end.onlySync(last, minTime(*g, next)); ok {
			until = s
		} else if !g.After(next) {
			until = *g
		}
	}
	return from, until
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// podEnd is what a recording tells of a pod's end: the first instant it
// no longer existed, and, when the controller's scale-down removed it and
// its syncs are known, their grid.
type podEnd struct {
	gone *time.Time
	// syncStep and syncAnchor place the controller's syncs (zero: the pod
	// did not go by a scale-down, or the syncs are not known).
	syncStep   time.Duration
	syncAnchor time.Time
}

// onlySync is the controller's sync in (after, until] when exactly one
// falls there.
func (e podEnd) onlySync(after, until time.Time) (time.Time, bool) {
	if e.syncStep <= 0 || !until.After(after) {
		return time.Time{}, false
	}
	// The first sync after after.
	n := after.Sub(e.syncAnchor) / e.syncStep
	s := e.syncAnchor.Add(n * e.syncStep)
	for !s.After(after) {
		s = s.Add(e.syncStep)
	}
	for s.Add(-e.syncStep).After(after) {
		s = s.Add(-e.syncStep)
	}
	if s.After(until) || !s.Add(e.syncStep).After(until) {
		return time.Time{}, false
	}
	return s, true
}

// deletions maps each pod of r that was deleted in the period to what r
// tells of its end (podEnd): the first instant it no longer existed and,
// when the workload's count fell then by the controller's hand and r's
// clock places the controller's syncs, their grid.
func (r *Recording) deletions() map[string]podEnd {
	out := map[string]podEnd{}
	for i := range r.Pods {
		p := &r.Pods[i]
		if p.Deleted == nil {
			continue
		}
		e := podEnd{gone: p.Deleted}
		if r.Clock.SyncStep > 0 && !r.Clock.SyncAnchor.IsZero() && r.scaledDownAt(*p.Deleted) {
			e.syncStep, e.syncAnchor = r.Clock.SyncStep, r.Clock.SyncAnchor
		}
		out[p.Name] = e
	}
	return out
}

// scaledDownAt reports whether the record of the workload's count has the
// controller lower it within a step of t.
func (r *Recording) scaledDownAt(t time.Time) bool {
	ch := r.Replicas.Changes
	for j := 1; j < len(ch); j++ {
		d := ch[j].At.Sub(t)
		if !ch[j].External && ch[j].Replicas < ch[j-1].Replicas && d <= r.Step && d >= -r.Step {
			return true
		}
	}
	return false
}

// ResampleAgain resamples r at the scrapes it was last resampled at: once
// its clock or its record of the workload's count changed (see deletions).
// Nothing when r was never resampled.
func (r *Recording) ResampleAgain() {
	if r.scrapes != nil {
		r.Resample(*r.scrapes)
	}
}

// SampleTime is when the samples r holds at instant k were taken: the
// last scrape before it when r was resampled, else SampleLag before it.
func (r *Recording) SampleTime(k int) time.Time {
	t := r.Instant(k)
	if r.scrapes != nil {
		return LastScrape(t, r.scrapes.Anchor, r.scrapes.Window)
	}
	return t.Add(-r.SampleLag)
}

// ResampledAt is the scrapes r was last resampled at; false when it never
// was.
func (r *Recording) ResampledAt() (Scrapes, bool) {
	if r.scrapes == nil {
		return Scrapes{}, false
	}
	return *r.scrapes, true
}

// AtScrapes returns a copy of r resampled as sc says: r's pods, raw
// samples and other metrics are shared, the resource samples are its own.
func (r *Recording) AtScrapes(sc Scrapes) *Recording {
	return r.AtScrapesEach([]Scrapes{sc})[0]
}

// AtScrapesEach is AtScrapes at each of scs. Scrapes that differ in their
// Scale alone (the variants of one phase) are resampled in one pass: their
// copies share the resource samples, each scaling them as they are read.
func (r *Recording) AtScrapesEach(scs []Scrapes) []*Recording {
	outs := make([]*Recording, len(scs))
	for j := range scs {
		out := *r
		out.Metrics = make([]Metric, len(r.Metrics))
		copy(out.Metrics, r.Metrics)
		outs[j] = &out
	}
	for from := 0; from < len(scs); {
		to := from + 1
		for to < len(scs) && scs[to].Anchor.Equal(scs[from].Anchor) && scs[to].Window == scs[from].Window {
			to++
		}
		outs[from].resampleEach(outs[from:to], scs[from:to])
		from = to
	}
	return outs
}

// LoadPerturbation is how much the variants raise and lower the recorded
// load: more than the difference measured between the samples worked out
// of the store's counters and metrics-server's own (docs/tune.md), so that
// a candidate whose outcome turns on that difference shows it.
const LoadPerturbation = 0.01

// VariantPhases is how many phases of metrics-server's scrapes the
// variants replay, evenly spread over the window (the recording's own
// among them). Even where the phase of the recorded scrapes is known, the
// load a recommendation will meet steps at any moment between two
// scrapes: its figures must hold at every phase. Four put any phase
// within an eighth of a window of one of them (1.25 s at 10 s), and the
// reaction to a step they bracket differs by at most a window between
// any two.
const VariantPhases = 4

// Variant is another way the recorded load may have reached the
// controller: scrapes at another phase, the load a little lower or higher.
type Variant struct {
	Scrapes Scrapes
	// Words says how it differs ("scrapes 0.5s later", "the load 1% higher").
	Words string
}

// Variants lists the other ways the recorded load may have reached the
// controller, besides the one r was last resampled at: VariantPhases
// phases of metrics-server's scrapes (where the recorded phase is not
// known, one of them is the true one; where it is, the others are how the
// same load meets the controller when its steps fall elsewhere between
// two scrapes, as future load's will), each with the load as recorded and
// LoadPerturbation lower and higher. None without raw samples (a
// recording of grid samples cannot be resampled).
func (r *Recording) Variants() []Variant {
	if r.scrapes == nil {
		return nil
	}
	raw := false
	for i := range r.Metrics {
		raw = raw || r.Metrics[i].Raw != nil
	}
	if !raw {
		return nil
	}
	base := *r.scrapes
	type shift struct {
		d     time.Duration
		words string
	}
	shifts := []shift{{0, ""}}
	for j := 1; j < VariantPhases; j++ {
		d := base.Window * time.Duration(j) / VariantPhases
		shifts = append(shifts, shift{d, fmt.Sprintf("scrapes %s later", d.Round(10*time.Millisecond))})
	}
	var out []Variant
	for _, s := range shifts {
		for _, scale := range []float64{1, 1 - LoadPerturbation, 1 + LoadPerturbation} {
			if s.d == 0 && scale == 1 {
				continue
			}
			sc := base
			sc.Anchor = base.Anchor.Add(s.d)
			sc.Scale = scale * max(base.Scale, 0)
			if base.Scale == 0 {
				sc.Scale = scale
			}
			var words []string
			if s.words != "" {
				words = append(words, s.words)
			}
			if scale < 1 {
				words = append(words, fmt.Sprintf("the load %g%% lower", LoadPerturbation*100))
			} else if scale > 1 {
				words = append(words, fmt.Sprintf("the load %g%% higher", LoadPerturbation*100))
			}
			out = append(out, Variant{Scrapes: sc, Words: strings.Join(words, ", ")})
		}
	}
	return out
}
