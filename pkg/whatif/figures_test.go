// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"math"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

func TestFiguresByHand(t *testing.T) {
	core := 1.25
	f := Figures{Period: 10 * time.Minute, PodHours: 2.5, CoreHours: &core, AboveBound: []time.Duration{time.Minute, 3 * time.Minute}}
	if c := f.Cost(CostCoreHours); c != 1.25 {
		t.Errorf("core-hours %v", c)
	}
	if c := f.Cost(CostPodHours); c != 2.5 {
		t.Errorf("pod-hours %v", c)
	}
	if r := f.Risk(); math.Abs(r-0.3) > 1e-12 {
		t.Errorf("risk %v, want the worst metric's share 0.3", r)
	}
	f.CoreHours = nil
	if c := f.Cost(CostCoreHours); c != 2.5 {
		t.Errorf("core-hours without a CPU request: %v, want the pod-hours", c)
	}
	if r := (&Figures{}).Risk(); r != 0 {
		t.Errorf("an empty period's risk %v", r)
	}
	if u := CostUnit(&explain.PathSummary{CoreHours: &core}); u != CostCoreHours {
		t.Errorf("unit %s", u)
	}
	if u := CostUnit(&explain.PathSummary{}); u != CostPodHours {
		t.Errorf("unit %s", u)
	}
}

// A replay's figures are its summary's, typed: the time above the bound
// each metric's, the cost its pod- or core-hours, the risk the worst
// metric's share of the period; the document's figures say the same.
func TestReplayFigures(t *testing.T) {
	w := newWorld(bt0, 5*time.Second, 60)
	for _, name := range []string{"web-a", "web-b"} {
		w.pod(name, bt0.Add(-time.Hour), nil, step(bt0.Add(2*time.Minute), 0.2, 0.48))
	}
	w.replicas(bt0.Add(-2*time.Hour), 2)
	snap := btSnapshot(nil)
	r, err := NewReplayer(snap, w.rec, engine.DefaultSettings(), BacktestOptions{Start: bt0.Add(30 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	rp, err := r.ReplayFigures(snap.HPA)
	if err != nil {
		t.Fatal(err)
	}
	sum := &rp.Path.Summary
	if len(rp.Figures.AboveBound) != len(sum.AboveBound) {
		t.Fatalf("%d metrics' times above the bound, the summary %d", len(rp.Figures.AboveBound), len(sum.AboveBound))
	}
	for i, d := range rp.Figures.AboveBound {
		if d.String() != sum.AboveBound[i].Duration {
			t.Errorf("metric %d: %s above the bound, the summary says %s", i, d, sum.AboveBound[i].Duration)
		}
	}
	if rp.Figures.AboveBound[0] == 0 {
		t.Errorf("no time above the bound: the load (96%% of the request from 2 minutes on) should be above 90%%")
	}
	if got, want := rp.Figures.Period, w.rec.End().Sub(bt0.Add(30*time.Second)); got != want {
		t.Errorf("period %s, want %s", got, want)
	}
	tf := TuneFigures(sum, &rp.Figures, CostUnit(sum))
	if tf.Cost != *sum.CoreHours || math.Abs(tf.Risk-sum.AboveBound[0].Fraction) > 0.0005 || tf.Rescales != sum.Rescales {
		t.Errorf("tune's figures %+v from the summary %+v", tf, sum)
	}
}
