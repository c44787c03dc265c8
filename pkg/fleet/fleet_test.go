// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package fleet

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// curve builds a replica curve from offsets in seconds and counts, and
// its rescales.
func curve(source string, pts ...int) *explain.BacktestPath {
	p := &explain.BacktestPath{Source: source}
	for i := 0; i+1 < len(pts); i += 2 {
		at := t0.Add(time.Duration(pts[i]) * time.Second)
		n := int32(pts[i+1])
		if k := len(p.Replicas); k > 0 {
			p.Rescales = append(p.Rescales, explain.ProjectedRescale{Time: at, From: p.Replicas[k-1].Replicas, To: n})
		}
		p.Replicas = append(p.Replicas, explain.ReplicaPoint{Time: at, Replicas: n})
	}
	return p
}

func TestFidelity(t *testing.T) {
	const sync = 15 * time.Second
	end := t0.Add(1000 * time.Second)
	for _, tc := range []struct {
		name            string
		actual, asIs    *explain.BacktestPath
		equal           float64
		rescales, match int
	}{
		{"the same curve", curve("kube-state-metrics", 0, 2, 100, 3, 500, 2), curve("replay", 0, 2, 100, 3, 500, 2), 1, 2, 2},
		// 10 s late on the way up and 20 s early on the way down: both
		// rescales made, and the time between them no difference.
		{"a sync late, a sync early", curve("kube-state-metrics", 0, 2, 100, 3, 500, 2), curve("replay", 0, 2, 110, 3, 480, 2), 1, 2, 2},
		// A record 60 s late (the store's scrapes of kube-state-metrics)
		// on top of two syncs: still the same rescale.
		{"a late record", curve("kube-state-metrics", 0, 2, 190, 3), curve("replay", 0, 2, 100, 3), 1, 1, 1},
		// The replay never scaled down: 500 s of 1000 differ, one of two
		// rescales made.
		{"a missed scale-down", curve("events", 0, 2, 100, 3, 500, 2), curve("replay", 0, 2, 100, 3), 0.5, 2, 1},
		// The same instant but another size is no match.
		{"another size", curve("events", 0, 2, 100, 4), curve("replay", 0, 2, 100, 3), 0.1, 1, 0},
		// Two syncs and a minute apart, and more, is no match: the 91 s
		// between count.
		{"too late", curve("events", 0, 2, 100, 3), curve("replay", 0, 2, 191, 3), 0.909, 1, 0},
		// Each recorded rescale is matched to the closest, once: the
		// replay's extra dip from 130 s to 160 s is a difference.
		{"the closest match", curve("events", 0, 2, 100, 3, 200, 2, 300, 3), curve("replay", 0, 2, 100, 3, 130, 2, 160, 3, 200, 2, 300, 3), 0.97, 3, 3},
		// Points before the period count from its start; a rescale before
		// it is not the period's.
		{"history before the period", curve("events", -300, 1, -100, 2, 600, 3), curve("replay", -300, 1, -90, 2, 600, 3), 1, 1, 1},
		// Where the real curve is not known yet, it is not equal.
		{"an actual curve that starts late", curve("pods", 200, 2), curve("replay", 0, 2), 0.8, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Fidelity(tc.actual, tc.asIs, t0, end, sync)
			if f.Equal != tc.equal || f.Rescales != tc.rescales || f.Matched != tc.match || f.Source != tc.actual.Source {
				t.Errorf("fidelity %+v, want equal %v, %d of %d rescales, source %s", f, tc.equal, tc.match, tc.rescales, tc.actual.Source)
			}
		})
	}
	if f := Fidelity(curve("events", 0, 2), curve("replay", 0, 2), end, t0, sync); f.Equal != 0 {
		t.Errorf("an empty period: %+v", f)
	}
}

// tuned is a tune document whose recommendation (index 1) saves saving of
// cost 1.
func tuned(hpa string, saving float64, unit string) *explain.Tune {
	return &explain.Tune{
		HPA: hpa, CostUnit: unit, Current: 0, Recommended: 1, RiskBound: 0.05,
		Reference: explain.TuneFigures{Cost: 1, Risk: 0.04, RescalesPerHour: 12},
		Candidates: []explain.TuneCandidate{
			{Values: []string{"50%"}, Figures: &explain.TuneFigures{Cost: 1, Risk: 0.04}},
			{Values: []string{"60%"}, Figures: &explain.TuneFigures{Cost: 1 - saving - 0.01, Risk: 0.03, RescalesPerHour: 8}, Range: &explain.TuneRange{CostMin: 1 - saving - 0.01, CostMax: 1 - saving, RiskMin: 0.03, RiskMax: 0.045}},
		},
		Recommendation: &explain.TuneRecommendation{Changes: []string{"target of cpu 50% → 60%"}, Patch: "{}", Command: "kubectl patch hpa", Saving: saving, SavingFraction: saving},
	}
}

func backtest(asIs *explain.BacktestPath) *explain.Backtest {
	return &explain.Backtest{Start: t0, End: t0.Add(1000 * time.Second), SyncPeriod: "15s", Actual: *curve("kube-state-metrics", 0, 2, 100, 3, 500, 2), AsIs: *asIs}
}

func TestItem(t *testing.T) {
	good := backtest(curve("replay", 0, 2, 100, 3, 500, 2))
	it := Item(tuned("shop/web", 0.3, "core-hours"), good, []string{"a warning"}, DefaultMinFidelity)
	if it.Status != explain.FleetRecommended || it.HPA != (explain.ObjectRef{Namespace: "shop", Name: "web"}) {
		t.Fatalf("item %+v", it)
	}
	// The recommendation's cost is its range's worse end, as tune
	// promises it and the saving counts it; its risk is its replay's at
	// the recording's phase, as the HPA's own is.
	if r := it.Recommended; r == nil || r.Cost != 0.7 || r.Risk != 0.03 || r.RescalesPerHour != 8 {
		t.Errorf("recommended %+v, want cost 0.7 (the worse end) and risk 0.03", it.Recommended)
	}
	if it.AsIs.Cost != 1 || it.Saving != 0.3 || it.Fidelity.Equal != 1 || len(it.Changes) != 1 || it.Patch == "" || len(it.Warnings) != 1 {
		t.Errorf("item %+v", it)
	}

	bad := Item(tuned("shop/web", 0.3, "core-hours"), backtest(curve("replay", 0, 2, 100, 3)), nil, DefaultMinFidelity)
	if bad.Status != explain.FleetUntrusted || bad.Recommended != nil || bad.Saving != 0 || bad.Patch != "" ||
		!strings.Contains(bad.Reason, "held the recorded replica count (kube-state-metrics) 50.0% of the period, below 90.0%, and made 1 of its 2 rescales") {
		t.Errorf("an untrusted replay: %+v", bad)
	}
	// A lower bound lets the same HPA through.
	if it := Item(tuned("shop/web", 0.3, "core-hours"), backtest(curve("replay", 0, 2, 100, 3)), nil, 0.5); it.Status != explain.FleetRecommended {
		t.Errorf("with a bound of 50%%: %s", it.Status)
	}

	none := tuned("shop/web", 0.3, "core-hours")
	none.Recommended, none.Recommendation = -1, nil
	if it := Item(none, good, nil, DefaultMinFidelity); it.Status != explain.FleetNoChange || it.Reason != "no candidate kept the time above the bound within 5.0% of the period" {
		t.Errorf("no recommendation: %+v", it)
	}
	same := tuned("shop/web", 0, "core-hours")
	same.Recommended, same.Recommendation.Changes = 0, []string{}
	if it := Item(same, good, nil, DefaultMinFidelity); it.Status != explain.FleetNoChange || it.Saving != 0 {
		t.Errorf("the own setting recommended: %+v", it)
	}
}

func TestDocument(t *testing.T) {
	bt := backtest(curve("replay", 0, 2, 100, 3, 500, 2))
	items := []explain.FleetItem{
		Failed(explain.ObjectRef{Namespace: "a", Name: "broken"}, errors.New("no recording")),
		Item(tuned("b/small", 0.1, "core-hours"), bt, nil, DefaultMinFidelity),
		Item(tuned("b/big", 0.4, "core-hours"), bt, nil, DefaultMinFidelity),
		Item(tuned("a/pods", 0.2, "pod-hours"), bt, nil, DefaultMinFidelity),
		Item(tuned("a/odd", 0.5, "core-hours"), backtest(curve("replay", 0, 2)), nil, DefaultMinFidelity),
	}
	doc := Document(items, t0, t0.Add(time.Hour), DefaultMinFidelity, nil)
	var order []string
	for _, it := range doc.Items {
		order = append(order, it.HPA.Namespace+"/"+it.HPA.Name+":"+string(it.Status))
	}
	want := "b/big:recommended a/pods:recommended b/small:recommended a/odd:untrusted a/broken:failed"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("ranked %s\nwant     %s", got, want)
	}
	if len(doc.Totals) != 2 {
		t.Fatalf("totals %+v, want one per cost unit", doc.Totals)
	}
	// core-hours: big (1 → 0.6), small (1 → 0.9), odd (1, untrusted: as it is).
	if c := doc.Totals[0]; c.CostUnit != "core-hours" || c.HPAs != 3 || c.Recommended != 2 || c.AsIs != 3 || c.WithRecommendations != 2.5 || c.Saving != 0.5 {
		t.Errorf("core-hours total %+v", c)
	}
	if p := doc.Totals[1]; p.CostUnit != "pod-hours" || p.HPAs != 1 || p.AsIs != 1 || p.Saving != 0.2 {
		t.Errorf("pod-hours total %+v", p)
	}
	if doc.Kind != explain.KindTuneFleet || doc.Notes == nil {
		t.Errorf("document %+v", doc)
	}
	if empty := Document(nil, t0, t0, DefaultMinFidelity, nil); empty.Items == nil || empty.Totals == nil {
		t.Errorf("an empty fleet has null lists: %+v", empty)
	}
}
