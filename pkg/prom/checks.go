// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"fmt"
	"math"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// checkData is step 5: what the store did not have.
func (rd *reader) checkData(ctx context.Context) error {
	for i := range rd.rec.Metrics {
		m := &rd.rec.Metrics[i]
		if m.Kind == recording.KindResource && len(m.PerPod) == 0 || m.Kind == recording.KindPods && len(m.PerPod) == 0 ||
			(m.Kind == recording.KindObject || m.Kind == recording.KindExternal) && m.Total == nil {
			return rd.noData(ctx, m)
		}
	}
	return rd.checkRetention(ctx)
}

// The raw probe: an interval over this from the count of samples sends
// the probe to the raw samples, which tell a store that is sparse from a
// workload younger than the count's 10 minutes.
const probeSuspect = 30 * time.Second

// youngAge is how close to the period's end a workload's first sample is
// for the workload to be too young to replay (and not the store to
// blame).
const youngAge = 2 * time.Minute

// probeInterval measures the scrape interval of the container counters: 10
// minutes divided by the most samples one container has in 10 minutes, at
// up to 60 instants over the period. A count that gives a long interval
// (or none) is checked against the raw samples of the last 10 minutes: a
// workload younger than that has few samples in any 10 minutes although
// the store scrapes it often, and one whose first sample is within the
// last minutes of the period is said to be too young to replay.
func (rd *reader) probeInterval(ctx context.Context) (time.Duration, error) {
	q := rd.q.probe()
	end := rd.g.at(rd.g.n - 1)
	start := rd.g.start.Add(probeWindow)
	if start.After(end) {
		start = end
	}
	step := max(probeWindow, end.Sub(start)/60).Round(time.Second)
	most := 0.0
	n, warnings, err := rd.c.queryRange(ctx, "the scrape interval", q, v1.Range{Start: start, End: end, Step: step},
		func(model.Metric) func(model.Time, float64) {
			return func(_ model.Time, v float64) { most = max(most, v) }
		})
	rd.requested()
	if err != nil {
		return 0, err
	}
	rd.warnings = append(rd.warnings, warnings...)
	rd.rec.Sources = append(rd.rec.Sources, recording.Source{What: "scrape interval", Query: q, Series: n})
	var interval time.Duration
	if most >= 2 {
		interval = time.Duration(float64(probeWindow) / most).Round(time.Second)
	}
	if interval == 0 || interval > probeSuspect {
		p, err := rd.probeRaw(ctx)
		if err != nil {
			return 0, err
		}
		if err := rd.youngError(p.first, p.found); err != nil {
			return 0, err
		}
		if p.interval > 0 {
			interval = p.interval
		}
	}
	if interval == 0 {
		return 0, nil
	}
	if interval > maxSampleInterval {
		return 0, fmt.Errorf("prometheus %s: the container counters of %s hold one sample every %s at best (a downsampled long-term store?): too sparse to replay %s syncs",
			rd.c.endpoint, rd.rec.Workload, interval, rd.g.step)
	}
	return max(interval, time.Second), nil
}

// rawProbe is what the raw samples of the last 10 minutes of the period
// tell: the first sample of any pod of the workload (found: there is
// one), and the shortest mean spacing of one container's samples
// (interval; 0 when no container has two).
type rawProbe struct {
	first    time.Time
	found    bool
	interval time.Duration
}

// probeRaw reads the working sets' raw samples of the last 10 minutes of
// the period.
func (rd *reader) probeRaw(ctx context.Context) (rawProbe, error) {
	q := rd.q.rawMemory()
	end := rd.g.at(rd.g.n - 1)
	first, spacing := int64(math.MaxInt64), int64(math.MaxInt64)
	n, warnings, err := rd.c.queryRaw(ctx, "the scrape interval (raw samples)", q, probeWindow, end, func(m model.Metric) func(model.Time, float64) {
		if pod := string(m["pod"]); pod == "" || rd.match == nil || !rd.match.Match(pod) {
			return nil
		}
		var lo, hi int64
		count := 0
		return func(ts model.Time, _ float64) {
			ms := int64(ts)
			if count == 0 {
				lo = ms
			}
			hi, count = ms, count+1
			first = min(first, ms)
			if count >= 2 && hi > lo {
				spacing = min(spacing, (hi-lo)/int64(count-1))
			}
		}
	})
	rd.requested()
	if err != nil {
		return rawProbe{}, err
	}
	rd.warnings = append(rd.warnings, warnings...)
	rd.rec.Sources = append(rd.rec.Sources, recording.Source{What: "scrape interval and first samples (raw)", Query: rawQuery(q, probeWindow), Series: n})
	var p rawProbe
	if first != math.MaxInt64 {
		p.first, p.found = time.UnixMilli(first), true
	}
	if spacing != math.MaxInt64 {
		p.interval = (time.Duration(spacing) * time.Millisecond).Round(time.Second)
	}
	return p, nil
}

// tooYoung fails the read when the workload is too young to replay (see
// youngError), from the raw samples read, else from those of the last 10
// minutes.
func (rd *reader) tooYoung(ctx context.Context) error {
	first, ok := rd.rawFirst()
	if !ok {
		p, err := rd.probeRaw(ctx)
		if err != nil {
			return err
		}
		first, ok = p.first, p.found
	}
	return rd.youngError(first, ok)
}

// youngError is the error of a workload too young to replay: its first
// sample (found) is more than a sync after the start of the period asked
// for (the warm-up before it aside) and within youngAge of its end, so
// the store holds only a scrape or two of its pods (which reads as a
// store too sparse, or as no data); nil otherwise.
func (rd *reader) youngError(first time.Time, found bool) error {
	end := rd.g.at(rd.g.n - 1)
	from := rd.g.start
	if rd.req.PeriodStart.After(from) {
		from = rd.req.PeriodStart
	}
	if !found || first.Before(end.Add(-youngAge)) || !first.After(from.Add(rd.g.step)) {
		return nil
	}
	return fmt.Errorf("prometheus %s: %s is too young to replay: the store's first sample of its pods is at %s, %s before the end of the period; wait for a few more scrapes (a few minutes), or start the period after %s",
		rd.c.endpoint, rd.rec.Workload, stamp(first), end.Sub(first).Round(time.Second), stamp(first))
}

// noData explains a metric without a single value over the period.
func (rd *reader) noData(ctx context.Context, m *recording.Metric) error {
	if err := rd.tooYoung(ctx); err != nil {
		return err
	}
	if err := rd.checkRetention(ctx); err != nil {
		return err
	}
	hint := ""
	if m.Kind == recording.KindResource && queryOf(rd.req.Metrics, m) == "" {
		hint = ": does the store scrape the kubelets' cAdvisor (or /metrics/resource)?"
	}
	return &QueryError{
		Endpoint: rd.c.endpoint.String(), What: m.Kind + " metric " + m.Name, Query: m.Query,
		Err: fmt.Errorf("no value of %s between %s and %s%s", rd.rec.Workload, stamp(rd.g.start), stamp(rd.g.at(rd.g.n-1)), hint),
	}
}

// checkRetention fails when the data starts later than the period and the
// store holds nothing at all at the period's start: its retention is
// shorter than the period.
func (rd *reader) checkRetention(ctx context.Context) error {
	slack := max(2, int(staleLookback/rd.g.step))
	if rd.firstData >= 0 && rd.firstData <= slack {
		return nil
	}
	v, _, err := rd.c.instant(ctx, "the oldest data", upQuery(rd.c.scope), rd.g.start)
	rd.requested()
	if err != nil {
		return err
	}
	rd.rec.Sources = append(rd.rec.Sources, recording.Source{What: "data at the start", Query: upQuery(rd.c.scope), Series: len(v)})
	if len(v) > 0 && v[0].Value > 0 {
		return nil
	}
	first := "no data of it at all"
	if rd.firstData >= 0 {
		first = "its first data of " + rd.rec.Workload + " is at " + stamp(rd.g.at(rd.firstData))
	}
	return fmt.Errorf("prometheus %s holds nothing at %s, the start of the period (its retention is shorter?): %s; start the period later",
		rd.c.endpoint, stamp(rd.g.start), first)
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
