// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package fleet turns many HPAs' tunes into one ranked document: each
// HPA's summary (as it is, recommended, the saving), how far its as-is
// replay reproduced its own history, the ranking and the totals. It is
// pure: the tunes come in, a document goes out.
package fleet

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// DefaultMinFidelity is the share of the period an HPA's as-is replay
// must hold the recorded replica count for its recommendation to be made.
// A replay that reproduces the controller makes every recorded rescale
// (the time between the two is not counted as a difference); one that
// misses a rescale, or makes one the controller did not, is off for as
// long as the difference lasts.
const DefaultMinFidelity = 0.9

// matchSyncs is how many sync periods apart a recorded rescale and the
// replay's may be to count as the same, besides RecordLag.
const matchSyncs = 2

// RecordLag is how late the recorded count may show a rescale:
// kube-state-metrics' series are as fresh as the store's last scrape of
// them, every 15 s to a minute in most clusters. A replay that makes a
// recorded rescale within two syncs and this lag made the same one, and
// the time between the two is no difference of the curves.
const RecordLag = time.Minute

// Fidelity compares the as-is replay with the workload's recorded count
// over [start, end): the recorded rescales the replay made too (the same
// sizes, within two syncs and RecordLag, the closest, each matched once), and the
// share of the period the two counts were equal, the time between a
// recorded rescale and the replay's match of it counted as equal.
func Fidelity(actual, asIs *explain.BacktestPath, start, end time.Time, sync time.Duration) explain.Fidelity {
	f := explain.Fidelity{Source: actual.Source}
	if !start.Before(end) {
		return f
	}
	var excused [][2]time.Time
	used := make([]bool, len(asIs.Rescales))
	for _, r := range actual.Rescales {
		if r.Time.Before(start) || !r.Time.Before(end) {
			continue
		}
		f.Rescales++
		// The closest of the replay's rescales of the same sizes.
		best := -1
		for j, p := range asIs.Rescales {
			d := p.Time.Sub(r.Time).Abs()
			if !used[j] && p.From == r.From && p.To == r.To && d <= matchSyncs*sync+RecordLag && (best < 0 || d < asIs.Rescales[best].Time.Sub(r.Time).Abs()) {
				best = j
			}
		}
		if best >= 0 {
			p := asIs.Rescales[best]
			used[best] = true
			f.Matched++
			excused = append(excused, [2]time.Time{minTime(r.Time, p.Time), maxTime(r.Time, p.Time)})
		}
	}
	// The instants either curve changes at, within the period.
	cuts := []time.Time{start, end}
	for _, p := range [][]explain.ReplicaPoint{actual.Replicas, asIs.Replicas} {
		for _, q := range p {
			if q.Time.After(start) && q.Time.Before(end) {
				cuts = append(cuts, q.Time)
			}
		}
	}
	slices.SortFunc(cuts, func(a, b time.Time) int { return a.Compare(b) })
	var equal time.Duration
	for i := 1; i < len(cuts); i++ {
		a, b := cuts[i-1], cuts[i]
		if !a.Before(b) {
			continue
		}
		ra, oka := countAt(actual.Replicas, a)
		rb, okb := countAt(asIs.Replicas, a)
		if oka && okb && ra == rb {
			equal += b.Sub(a)
			continue
		}
		// A segment lies between two cuts, and a matched pair's times are
		// cuts: it is inside an excused span or outside all.
		mid := a.Add(b.Sub(a) / 2)
		if slices.ContainsFunc(excused, func(e [2]time.Time) bool { return !mid.Before(e[0]) && mid.Before(e[1]) }) {
			equal += b.Sub(a)
		}
	}
	f.Equal = round3(float64(equal) / float64(end.Sub(start)))
	return f
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// countAt is a curve's count at t: that of its last point at or before
// t; ok is false before its first point.
func countAt(curve []explain.ReplicaPoint, t time.Time) (int32, bool) {
	i, found := slices.BinarySearchFunc(curve, t, func(p explain.ReplicaPoint, t time.Time) int { return p.Time.Compare(t) })
	if found {
		// The last point at t, should several share it.
		for i+1 < len(curve) && curve[i+1].Time.Equal(t) {
			i++
		}
		return curve[i].Replicas, true
	}
	if i == 0 {
		return 0, false
	}
	return curve[i-1].Replicas, true
}

// Item is one tuned HPA's row: its figures as it is and recommended,
// the saving, and whether the as-is replay reproduced its history well
// enough (minFidelity) for the recommendation to stand.
func Item(t *explain.Tune, bt *explain.Backtest, warnings []string, minFidelity float64) explain.FleetItem {
	it := explain.FleetItem{HPA: refOf(t.HPA), CostUnit: t.CostUnit, Warnings: warnings}
	it.AsIs = &explain.FleetFigures{Cost: round3(t.Reference.Cost), Risk: round3(t.Reference.Risk), RescalesPerHour: round2(t.Reference.RescalesPerHour)}
	if bt != nil {
		sync, _ := time.ParseDuration(bt.SyncPeriod)
		fid := Fidelity(&bt.Actual, &bt.AsIs, bt.Start, bt.End, sync)
		it.Fidelity = &fid
	}
	switch {
	case it.Fidelity != nil && it.Fidelity.Equal < minFidelity:
		it.Status = explain.FleetUntrusted
		it.Reason = fmt.Sprintf("the as-is replay held the recorded replica count (%s) %s of the period, below %s, and made %d of its %d rescales: its figures are not to be trusted (a backtest of it, whatif NAME over the period, draws both curves)",
			it.Fidelity.Source, pct(it.Fidelity.Equal), pct(minFidelity), it.Fidelity.Matched, it.Fidelity.Rescales)
	case t.Recommended < 0 || t.Recommendation == nil:
		it.Status = explain.FleetNoChange
		it.Reason = fmt.Sprintf("no candidate kept the time above the bound within %s of the period", pct(t.RiskBound))
	case t.Recommended == t.Current || len(t.Recommendation.Changes) == 0:
		it.Status = explain.FleetNoChange
		it.Reason = "the HPA's own setting is the cheapest within the bound"
	default:
		it.Status = explain.FleetRecommended
		c := &t.Candidates[t.Recommended]
		rec := explain.FleetFigures{}
		if c.Figures != nil {
			rec = explain.FleetFigures{Cost: c.Figures.Cost, Risk: c.Figures.Risk, RescalesPerHour: round2(c.Figures.RescalesPerHour)}
		}
		// The cost at the worse end of its range, as the saving counts it;
		// the risk of its replay at the recording's own phase, as the HPA's
		// (AsIs) is, and as tune NAME's summary compares them (the worse
		// ends of both are what the recommendation rule held it to).
		if r := c.Range; r != nil {
			rec.Cost = r.CostMax
		}
		rec.Cost, rec.Risk = round3(rec.Cost), round3(rec.Risk)
		it.Recommended = &rec
		it.Saving, it.SavingFraction = t.Recommendation.Saving, t.Recommendation.SavingFraction
		it.Changes, it.Patch, it.Command = t.Recommendation.Changes, t.Recommendation.Patch, t.Recommendation.Command
	}
	return it
}

// Failed is the row of an HPA that could not be tuned.
func Failed(ref explain.ObjectRef, err error) explain.FleetItem {
	return explain.FleetItem{HPA: ref, Status: explain.FleetFailed, Reason: err.Error()}
}

// FailedContext is the row of a kubeconfig context whose HPAs could not
// be listed (unreachable, forbidden, ...): it names no HPA.
func FailedContext(context string, err error) explain.FleetItem {
	return explain.FleetItem{Context: context, Status: explain.FleetFailed, Reason: "context " + context + ": " + err.Error()}
}

// Document ranks the items and sums them up.
func Document(items []explain.FleetItem, start, end time.Time, minFidelity float64, notes []string) *explain.TuneFleet {
	doc := &explain.TuneFleet{
		APIVersion: explain.APIVersion, Kind: explain.KindTuneFleet, Start: start, End: end, MinFidelity: minFidelity,
		Items: slices.Clone(items), Totals: []explain.FleetTotal{}, Notes: notes,
	}
	if doc.Items == nil {
		doc.Items = []explain.FleetItem{}
	}
	if doc.Notes == nil {
		doc.Notes = []string{}
	}
	slices.SortStableFunc(doc.Items, func(a, b explain.FleetItem) int {
		if c := cmp.Compare(rank(a.Status), rank(b.Status)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Saving, a.Saving); c != 0 {
			return c
		}
		if c := cmp.Compare(a.HPA.Namespace, b.HPA.Namespace); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.HPA.Name, b.HPA.Name), cmp.Compare(a.Context, b.Context))
	})
	byUnit := map[string]int{}
	for i := range doc.Items {
		it := &doc.Items[i]
		if it.AsIs == nil {
			continue
		}
		k, ok := byUnit[it.CostUnit]
		if !ok {
			k = len(doc.Totals)
			byUnit[it.CostUnit] = k
			doc.Totals = append(doc.Totals, explain.FleetTotal{CostUnit: it.CostUnit})
		}
		t := &doc.Totals[k]
		t.HPAs++
		t.AsIs += it.AsIs.Cost
		with := it.AsIs.Cost
		if it.Status == explain.FleetRecommended && it.Recommended != nil {
			t.Recommended++
			with -= it.Saving
		}
		t.WithRecommendations += with
	}
	for i := range doc.Totals {
		t := &doc.Totals[i]
		t.AsIs, t.WithRecommendations = round3(t.AsIs), round3(t.WithRecommendations)
		t.Saving = round3(t.AsIs - t.WithRecommendations)
	}
	slices.SortFunc(doc.Totals, func(a, b explain.FleetTotal) int { return cmp.Compare(a.CostUnit, b.CostUnit) })
	return doc
}

// rank orders the statuses: recommendations first, failures last.
func rank(s explain.FleetStatus) int {
	return map[explain.FleetStatus]int{
		explain.FleetRecommended: 0, explain.FleetNoChange: 1, explain.FleetUntrusted: 2, explain.FleetFailed: 3,
	}[s]
}

// refOf splits namespace/name.
func refOf(s string) explain.ObjectRef {
	ns, name, ok := strings.Cut(s, "/")
	if !ok {
		return explain.ObjectRef{Name: s}
	}
	return explain.ObjectRef{Namespace: ns, Name: name}
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
func round2(v float64) float64 { return math.Round(v*100) / 100 }
func pct(f float64) string     { return fmt.Sprintf("%.1f%%", f*100) }
