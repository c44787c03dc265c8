// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"fmt"
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

// probeInterval measures the scrape interval of the container counters: 10
// minutes divided by the most samples one container has in 10 minutes, at
// up to 60 instants over the period.
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
	rd.prog.Requests++
	if err != nil {
		return 0, err
	}
	rd.warnings = append(rd.warnings, warnings...)
	rd.rec.Sources = append(rd.rec.Sources, recording.Source{What: "scrape interval", Query: q, Series: n})
	if most < 2 {
		return 0, nil
	}
	interval := time.Duration(float64(probeWindow) / most).Round(time.Second)
	if interval > maxSampleInterval {
		return 0, fmt.Errorf("prometheus %s: the container counters of %s hold one sample every %s at best (a downsampled long-term store?): too sparse to replay %s syncs",
			rd.c.endpoint, rd.rec.Workload, interval, rd.g.step)
	}
	return max(interval, time.Second), nil
}

// noData explains a metric without a single value over the period.
func (rd *reader) noData(ctx context.Context, m *recording.Metric) error {
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
	v, _, err := rd.c.instant(ctx, "the oldest data", upQuery(), rd.g.start)
	rd.prog.Requests++
	if err != nil {
		return err
	}
	rd.rec.Sources = append(rd.rec.Sources, recording.Source{What: "data at the start", Query: upQuery(), Series: len(v)})
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
