// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"fmt"
	"math"
	"strings"
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
	raw := false
	for i := range r.Metrics {
		raw = raw || r.Metrics[i].Raw != nil
	}
	if sc.Window <= 0 || !raw {
		return
	}
	scale := sc.Scale
	if scale == 0 {
		scale = 1
	}
	r.SampleWindow, r.scrapes = sc.Window, &sc
	interval := r.StoreInterval
	if interval <= 0 {
		interval = sc.Window
	}
	gone := r.deletions()
	for i := range r.Metrics {
		m := &r.Metrics[i]
		if m.Raw == nil {
			continue
		}
		m.PerPod = make(map[string]map[string]*Series, len(m.Raw))
		for pod, byC := range m.Raw {
			out := make(map[string]*Series, len(byC))
			for c, raw := range byC {
				if s := r.resampleOne(raw, m.Cumulative, sc, scale, interval, gone[pod]); s != nil {
					out[c] = s
				}
			}
			if len(out) > 0 {
				m.PerPod[pod] = out
			}
		}
		m.Load = r.windowLoad(m, sc, scale, interval, gone)
		if m.Served == nil {
			m.Served = r.servedLoad(m, interval, gone)
		}
	}
}

// windowLoad is the load of every pod of m, summed per container name,
// over the window of each instant's sample: what the pods together
// served between metrics-server's two scrapes, as a rate. A pod that
// existed for part of the window counts for that part (unlike its own
// sample, which it has only when it existed throughout): a workload that
// adds or removes a pod serves the same load, and a replay that shares
// the load over its own pods shares all of it.
func (r *Recording) windowLoad(m *Metric, sc Scrapes, scale float64, interval time.Duration, gone map[string]*time.Time) map[string]*Series {
	out := map[string]*Series{}
	for k := range r.Len {
		end := LastScrape(r.Instant(k), sc.Anchor, sc.Window)
		r.sumOver(m, end.Add(-sc.Window), end, interval, k, scale, gone, out)
	}
	return out
}

// servedLoad is the load of every pod of m, summed per container name,
// between each instant and the next (the last instant: a step on): what
// the pods served over each sync's interval, whatever the scrapes.
func (r *Recording) servedLoad(m *Metric, interval time.Duration, gone map[string]*time.Time) map[string]*Series {
	out := map[string]*Series{}
	for k := range r.Len {
		t := r.Instant(k)
		r.sumOver(m, t, t.Add(r.Step), interval, k, 1, gone, out)
	}
	return out
}

// sumOver adds to out[container] at instant k the rate of every pod's
// series of m between from and to (a counter's work over the stretch it
// existed in, a gauge's value at to), scaled.
func (r *Recording) sumOver(m *Metric, from, to time.Time, interval time.Duration, k int, scale float64, gone map[string]*time.Time, out map[string]*Series) {
	span := to.Sub(from).Seconds()
	if span <= 0 {
		return
	}
	for pod, byC := range m.Raw {
		for c, raw := range byC {
			if raw.Len() == 0 {
				continue
			}
			lo, hi := raw.span(m.Cumulative, interval, gone[pod])
			var v float64
			if m.Cumulative {
				a, b := later(from, lo), earlier(to, hi)
				if !a.Before(b) {
					continue
				}
				va, ok1 := raw.ValueAt(a, true, interval, interval)
				vb, ok2 := raw.ValueAt(b, true, interval, interval)
				if !ok1 || !ok2 {
					continue
				}
				v = (vb - va) / span
			} else {
				if to.Before(lo) || to.After(hi) {
					continue
				}
				g, ok := raw.ValueAt(to, false, interval, interval)
				if !ok {
					continue
				}
				v = g
			}
			s := out[c]
			if s == nil {
				s = &Series{}
				out[c] = s
			}
			v *= scale
			if old, ok := s.At(k); ok {
				v += old
			}
			s.Set(k, v)
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// resampleOne is Resample of one series; nil when it has no sample.
func (r *Recording) resampleOne(raw *Raw, counter bool, sc Scrapes, scale float64, interval time.Duration, gone *time.Time) *Series {
	if raw.Len() == 0 {
		return nil
	}
	from, until := raw.span(counter, interval, gone)
	var s Series
	first := -1
	for k := range r.Len {
		end := LastScrape(r.Instant(k), sc.Anchor, sc.Window)
		begin := end.Add(-sc.Window)
		if end.After(until) || (counter && begin.Before(from)) || (!counter && end.Before(from)) {
			continue
		}
		var v float64
		if counter {
			hi, ok1 := raw.ValueAt(end, true, interval, interval)
			lo, ok2 := raw.ValueAt(begin, true, interval, interval)
			if !ok1 || !ok2 {
				continue
			}
			v = (hi - lo) / sc.Window.Seconds()
		} else {
			g, ok := raw.ValueAt(end, false, interval, interval)
			if !ok {
				continue
			}
			v = g
		}
		if first < 0 {
			first = k
			s.First = k
			s.Values = make([]float64, 0, r.Len-k)
		}
		for s.First+len(s.Values) < k {
			s.Values = append(s.Values, math.NaN())
		}
		s.Values = append(s.Values, v*scale)
	}
	if first < 0 {
		return nil
	}
	return &s
}

// span is when a series existed as the store's samples tell it: a
// counter from where its first value, run back at its first rate, was
// zero (its container's start; within a store interval of its first
// sample), a gauge from half an interval before its first sample; both
// until half an interval after the last.
//
// When the pod's deletion is known (gone, the first instant it no longer
// existed) and falls within an interval after the last sample, the
// series runs until then: the pod served load up to it, which the store,
// scraping every interval, missed.
func (raw *Raw) span(counter bool, interval time.Duration, gone *time.Time) (from, until time.Time) {
	from = raw.First().Add(-interval / 2)
	if counter && raw.Len() >= 2 {
		if rt, ok := raw.rate(1); ok && rt > 0 {
			back := time.Duration(raw.V[0] / rt * float64(time.Second))
			from = raw.First().Add(-min(max(back, 0), interval))
		}
	}
	until = raw.Last().Add(interval / 2)
	if gone != nil && gone.After(raw.Last()) && !gone.After(raw.Last().Add(interval)) {
		until = *gone
	}
	return from, until
}

// deletions maps each pod of r that was deleted in the period to the
// first instant it no longer existed.
func (r *Recording) deletions() map[string]*time.Time {
	out := map[string]*time.Time{}
	for i := range r.Pods {
		if p := &r.Pods[i]; p.Deleted != nil {
			out[p.Name] = p.Deleted
		}
	}
	return out
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

// AtScrapes returns a copy of r resampled as sc says: r's pods, raw
// samples and other metrics are shared, the resource samples are its own.
func (r *Recording) AtScrapes(sc Scrapes) *Recording {
	out := *r
	out.Metrics = make([]Metric, len(r.Metrics))
	copy(out.Metrics, r.Metrics)
	out.Resample(sc)
	return &out
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
