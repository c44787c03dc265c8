// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// censoredWorld is 20 minutes of three pods (500m requests and, with
// limit > 0, CPU limits) at 0.25 cores, 0.5 from 14:05 to 14:12, then 0.2;
// the workload stays at 3 replicas.
func censoredWorld(limit int64, from string) *world {
	w := newWorld(bt0, 15*time.Second, 81)
	rise, fall := bt0.Add(5*time.Minute), bt0.Add(12*time.Minute)
	for i := 0; i < 3; i++ {
		w.pod(fmt.Sprintf("web-%d", i), bt0.Add(-time.Hour), nil, func(t time.Time) float64 {
			switch {
			case t.Before(rise):
				return 0.25
			case t.Before(fall):
				return 0.5
			}
			return 0.2
		})
		if limit > 0 {
			w.rec.Pods[i].Containers[0].Limits = map[string]int64{"cpu": limit}
		}
	}
	w.replicas(bt0.Add(-time.Hour), 3)
	w.rec.LimitsFrom = from
	return w
}

// TestBacktestCensored: with a 500m limit the pods run at it from 14:05 to
// 14:12 (the demand may have been higher): one stretch of 7 minutes, 3
// pods. The actual curve (3 pods at 0.5 cores, above the 90% bound the
// whole time) has all its time above the bound in it; every curve's time
// above the bound is marked a lower bound, and a candidate replayed alone
// has the as-is replay's figures.
func TestBacktestCensored(t *testing.T) {
	w := censoredWorld(500, recording.LimitsKubeStateMetrics)
	testBacktestCensored(t, w, "limits from kube-state-metrics")
	// A recording made by hand with limits, whose source is not named.
	testBacktestCensored(t, censoredWorld(500, ""), "limits from the recording")
}

func testBacktestCensored(t *testing.T, w *world, source string) {
	t.Helper()
	snap := btSnapshot(nil)
	opts := BacktestOptions{Start: bt0, Source: "test"}
	res, err := Backtest(snap, w.rec, engine.DefaultSettings(), opts)
	if err != nil {
		t.Fatal(err)
	}
	bt := res.Backtest
	c := bt.Censored
	want := &explain.Censored{
		Duration: "7m0s", Fraction: 0.35, Source: source,
		Stretches: []explain.CensoredStretch{{Start: bt0.Add(5 * time.Minute), End: bt0.Add(12 * time.Minute), Duration: "7m0s", Pods: 3}},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("censored = %+v, want %+v", c, want)
	}
	if res.Censoring == nil || len(res.Censoring.Stretches) != 1 {
		t.Errorf("the result's censoring = %+v", res.Censoring)
	}
	note := bt.Notes[len(bt.Notes)-1]
	if !strings.HasPrefix(note, "censored demand: for 7m0s (35.0% of the period, 1 stretch) ready pods ran at their CPU limit") || !strings.Contains(note, "lower bounds") {
		t.Errorf("last note = %q", note)
	}
	actual := bt.Actual.Summary.AboveBound[0]
	if actual.Duration != "7m0s" || !actual.LowerBound || actual.CensoredTime != "7m0s" {
		t.Errorf("actual above bound = %+v", actual)
	}
	asIs := bt.AsIs.Summary.AboveBound[0]
	d, _ := time.ParseDuration(asIs.Duration)
	ct, err := time.ParseDuration(asIs.CensoredTime)
	if err != nil || !asIs.LowerBound || ct > d || ct > 7*time.Minute {
		t.Errorf("as-is above bound = %+v", asIs)
	}
	// A candidate's replay (tune's), given the marking, has the same
	// figures as the backtest's curve of the same HPA.
	opts.Censoring = res.Censoring
	alone, err := ReplayHPA(snap, w.rec, engine.DefaultSettings(), snap.HPA, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(alone.Summary.AboveBound, bt.AsIs.Summary.AboveBound) {
		t.Errorf("replayed alone %+v, in the backtest %+v", alone.Summary.AboveBound, bt.AsIs.Summary.AboveBound)
	}
	b, err := json.Marshal(bt)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"censored":{"duration":"7m0s","fraction":0.35,"source":"` + source + `","stretches":[{`, `"lowerBound":true,"censoredTime":"7m0s"`} {
		if !strings.Contains(string(b), s) {
			t.Errorf("JSON lacks %s:\n%s", s, b)
		}
	}
}

// TestBacktestNotCensored: just below the limit nothing is censored; with
// no limit at all the source says it could not know; a recording without
// limits whose source did not look has no censored object (nor its
// fields).
func TestBacktestNotCensored(t *testing.T) {
	for _, c := range []struct {
		name   string
		limit  int64
		from   string
		source string
	}{
		{"below the limit", 527, recording.LimitsKubeStateMetrics, "limits from kube-state-metrics"},
		{"no limit", 0, recording.LimitsSpecs, "not known: no limits and no throttling series"},
		{"not looked", 0, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := censoredWorld(c.limit, c.from)
			res, err := Backtest(btSnapshot(nil), w.rec, engine.DefaultSettings(), BacktestOptions{Start: bt0})
			if err != nil {
				t.Fatal(err)
			}
			bt := res.Backtest
			b, err := json.Marshal(bt)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "lowerBound") || strings.Contains(string(b), "censoredTime") || strings.Contains(strings.Join(bt.Notes, "\n"), "censored") {
				t.Errorf("marked a lower bound:\n%s", b)
			}
			if c.source == "" {
				if bt.Censored != nil || strings.Contains(string(b), `"censored"`) {
					t.Errorf("censored = %+v", bt.Censored)
				}
				return
			}
			want := &explain.Censored{Duration: "0s", Source: c.source, Stretches: []explain.CensoredStretch{}}
			if !reflect.DeepEqual(bt.Censored, want) {
				t.Errorf("censored = %+v, want %+v", bt.Censored, want)
			}
		})
	}
}

// TestCensoredSummaryCap: of 25 stretches the 20 longest are listed, in
// time order, the rest counted; the duration is all of them, and a
// stretch reaching into the warm-up counts from the period's start.
func TestCensoredSummaryCap(t *testing.T) {
	rec := &recording.Recording{Start: bt0, Step: 10 * time.Second, Len: 400, LimitsFrom: recording.LimitsKubeStateMetrics}
	c := &recording.Censoring{Limits: true}
	var total time.Duration
	for i := range 25 {
		length := 1 + (i*7)%11 // 1..11 instants
		from := 5 + 15*i
		c.Stretches = append(c.Stretches, recording.CensoredStretch{From: from, To: from + length - 1, Pods: 1 + i%3})
		if i > 0 {
			total += time.Duration(length) * rec.Step
		}
	}
	// The first stretch (5..5) lies before the period's first counted
	// instant.
	first := 6
	sum := censoredSummary(rec, c, first)
	if sum.MoreStretches != 4 || len(sum.Stretches) != MaxCensoredStretches {
		t.Fatalf("%d listed, %d more", len(sum.Stretches), sum.MoreStretches)
	}
	if sum.Duration != total.String() {
		t.Errorf("duration %s, want %s", sum.Duration, total)
	}
	shortestListed := time.Hour
	for i, s := range sum.Stretches {
		if i > 0 && !s.Start.After(sum.Stretches[i-1].Start) {
			t.Errorf("stretch %d not in time order", i)
		}
		shortestListed = min(shortestListed, s.End.Sub(s.Start))
	}
	// The 4 left out are among the shortest: none listed is shorter than
	// any left out.
	listed := map[time.Time]bool{}
	for _, s := range sum.Stretches {
		listed[s.Start] = true
	}
	for _, s := range c.Stretches[1:] {
		d := time.Duration(s.To-s.From+1) * rec.Step
		if !listed[rec.Instant(s.From)] && d > shortestListed {
			t.Errorf("left out a stretch of %s, listed one of %s", d, shortestListed)
		}
	}
	if sum.Source != "limits from kube-state-metrics" {
		t.Errorf("source %q", sum.Source)
	}
}

// TestSummerCensoredTime: the time above the bound at censored instants.
func TestSummerCensoredTime(t *testing.T) {
	rec := &recording.Recording{Start: bt0, Step: 15 * time.Second, Len: 10}
	s := newPathTally(rec, 0)
	s.labels = []string{"cpu"}
	// Above the bound at 1-2 and 4-6; censored at 2-5.
	s.censored = &recording.Censoring{Mask: make([]bool, 10), Stretches: []recording.CensoredStretch{{From: 2, To: 5, Pods: 1}}}
	for k := 2; k <= 5; k++ {
		s.censored.Mask[k] = true
	}
	for k := range 10 {
		o := &syncOutcome{current: 2, desired: 2}
		if k == 1 || k == 2 || (k >= 4 && k <= 6) {
			o.over = 1
		}
		s.add(k, 2, o)
	}
	b := s.path("x", "replay").Summary.AboveBound[0]
	if b.Duration != "1m15s" || b.CensoredTime != "45s" || !b.LowerBound {
		t.Errorf("above bound = %+v", b)
	}
}

// TestBacktestViewsCensored renders the backtest of TestBacktestCensored
// as text: the one line on censored demand under the summaries, and the
// note.
func TestBacktestViewsCensored(t *testing.T) {
	w := censoredWorld(500, recording.LimitsKubeStateMetrics)
	res, err := Backtest(btSnapshot(nil), w.rec, engine.DefaultSettings(), BacktestOptions{Start: bt0, Source: "Prometheus at http://127.0.0.1:9090"})
	if err != nil {
		t.Fatal(err)
	}
	wi := &explain.WhatIf{
		APIVersion: explain.APIVersion, Kind: explain.KindWhatIf, Changes: res.Backtest.Changes,
		Before: res.AsIs, After: res.Changed, Projection: res.Projection, Backtest: res.Backtest,
	}
	var buf bytes.Buffer
	if err := render.WriteWhatIf(&buf, render.FormatText, wi, render.Options{}); err != nil {
		t.Fatal(err)
	}
	testutil.AssertGolden(t, buf.Bytes(), *updateGolden)
}
