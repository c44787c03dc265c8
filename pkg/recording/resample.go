// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"math"
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
	if sc.Window <= 0 {
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
	for i := range r.Metrics {
		m := &r.Metrics[i]
		if m.Raw == nil {
			continue
		}
		m.PerPod = make(map[string]map[string]*Series, len(m.Raw))
		for pod, byC := range m.Raw {
			out := make(map[string]*Series, len(byC))
			for c, raw := range byC {
				if s := r.resampleOne(raw, m.Cumulative, sc, scale, interval); s != nil {
					out[c] = s
				}
			}
			if len(out) > 0 {
				m.PerPod[pod] = out
			}
		}
	}
}

// resampleOne is Resample of one series; nil when it has no sample.
func (r *Recording) resampleOne(raw *Raw, counter bool, sc Scrapes, scale float64, interval time.Duration) *Series {
	if raw.Len() == 0 {
		return nil
	}
	from, until := raw.span(counter, interval)
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
func (raw *Raw) span(counter bool, interval time.Duration) (from, until time.Time) {
	from = raw.First().Add(-interval / 2)
	if counter && raw.Len() >= 2 {
		if rt, ok := raw.rate(1); ok && rt > 0 {
			back := time.Duration(raw.V[0] / rt * float64(time.Second))
			from = raw.First().Add(-min(max(back, 0), interval))
		}
	}
	return from, raw.Last().Add(interval / 2)
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
