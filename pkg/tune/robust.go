// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package tune

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
)

// What no recording tells: where metrics-server's scrapes fell (when its
// phase is not known) and the last fraction of a percent between the
// store's counters and metrics-server's rate. A candidate whose outcome
// turns on either (a step of the load mixed into one sample where the real
// run's was not, a load that sits on the boundary between two pod counts)
// can be predicted cheap and run dear. So the finalists are replayed again
// under variants of the recording (other phases, the load a little lower
// and higher); each gets the range of its figures, and the recommendation
// is ranked and chosen on the worse ends.

// DefaultFinalists is how many candidates are replayed under the variants:
// the cheapest within the bound by their first replay. The frontier runs
// cheap to dear, and the candidates a swing can reorder are those whose
// costs lie within a few percent of the cheapest; eight of them hold the
// runner-up whatever the first few turn out to be on their worse ends, for
// a fraction of the search's replays.
const DefaultFinalists = 8

// Range is a candidate's figures over the variants of the recording,
// its first replay included.
type Range struct {
	Cost, Risk [2]float64
	// Variants is how many replays it spans.
	Variants int
	// Swings says the figures move more than a recommendation can ignore
	// (SwingCost of the cost, or SwingRisk of the period).
	Swings bool
}

// How much a range may move before a candidate is said to swing: a
// twentieth of its cost, or a hundredth of the period above the bound.
const (
	SwingCost = 0.05
	SwingRisk = 0.01
)

// Worse is the range's worse end: its highest cost and risk.
func (r *Range) Worse() (cost, risk float64) { return r.Cost[1], r.Risk[1] }

// RobustOptions say what Robust replays.
type RobustOptions struct {
	// Variants is how many variants of the recording there are besides
	// the search's. Variant prepares variant v (1 to Variants) and returns
	// the evaluator that replays a setting under it, and a release called
	// once every finalist has been replayed under it: the variants are
	// taken one after the other, so that only one is held at a time (a
	// variant is a recording of its own).
	Variants int
	Variant  func(v int) (Evaluator, func(), error)
	// Finalists is how many of the cheapest candidates within the bound
	// are replayed under them (0: DefaultFinalists); Workers how many at
	// once (0: GOMAXPROCS, as Search).
	Finalists, Workers int
	// RiskGrain is the share of the period the risk moves by when a
	// stretch above the bound begins or ends a sync earlier or later: a
	// range of risk no wider than two grains does not swing, whatever
	// SwingRisk says of a short period.
	RiskGrain float64
	// FixedBound keeps the bound as the search had it (the user's
	// --max-risk). Otherwise the bound, the HPA's own risk, becomes the
	// worse end of its own setting's range: every candidate is held to
	// what the HPA as it is risks under the same variants.
	FixedBound bool
}

// Robust replays the finalists (the cheapest candidates within the bound,
// and the current setting) under each variant, sets their ranges, and
// recommends again on the worse ends: the cheapest worse cost whose worse
// risk is within the bound. Candidates outside the finalists keep no
// range, and are not recommended (their worse ends are not known). With no
// variant it changes nothing.
func Robust(ctx context.Context, res *Result, o RobustOptions) error {
	if o.Variants <= 0 || len(res.Candidates) == 0 {
		return nil
	}
	finalists := o.Finalists
	if finalists <= 0 {
		finalists = DefaultFinalists
	}
	var picks []int
	for i := range res.Candidates {
		c := &res.Candidates[i]
		if c.Err == "" && c.Figures.Risk <= res.Bound+riskSlack && len(picks) < finalists {
			picks = append(picks, i)
		}
	}
	if res.Current >= 0 && !slices.Contains(picks, res.Current) {
		picks = append(picks, res.Current)
	}
	ranges := make([]*Range, len(picks))
	for p, i := range picks {
		f := res.Candidates[i].Figures
		ranges[p] = &Range{Cost: [2]float64{f.Cost, f.Cost}, Risk: [2]float64{f.Risk, f.Risk}, Variants: 1}
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	for v := 1; v <= o.Variants; v++ {
		eval, release, err := o.Variant(v)
		if err != nil {
			return fmt.Errorf("variant %d: %w", v, err)
		}
		figs, err := replayAll(ctx, res, picks, eval, o.Workers)
		if release != nil {
			release()
		}
		if err != nil {
			return fmt.Errorf("variant %d: %w", v, err)
		}
		for p, f := range figs {
			r := ranges[p]
			r.Cost = [2]float64{min(r.Cost[0], f.Cost), max(r.Cost[1], f.Cost)}
			r.Risk = [2]float64{min(r.Risk[0], f.Risk), max(r.Risk[1], f.Risk)}
			r.Variants++
		}
	}
	for p, i := range picks {
		r := ranges[p]
		r.Swings = r.Cost[1]-r.Cost[0] > SwingCost*r.Cost[0] || r.Risk[1]-r.Risk[0] > max(SwingRisk, 2*o.RiskGrain)+riskSlack
		res.Candidates[i].Range = r
	}
	res.Finalists = picks
	if cur := res.Current; !o.FixedBound && cur >= 0 && res.Candidates[cur].Range != nil {
		res.Bound = max(res.Bound, res.Candidates[cur].Range.Risk[1])
	}
	res.Recommended = recommendWorse(res.Candidates, res.Bound)
	return nil
}

// replayAll replays the candidates picks of res with eval, workers at a
// time, and returns their figures in picks' order.
func replayAll(ctx context.Context, res *Result, picks []int, eval Evaluator, workers int) ([]Figures, error) {
	figs := make([]Figures, len(picks))
	errs := make([]error, len(picks))
	ch := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, len(picks))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range ch {
				if err := ctx.Err(); err != nil {
					errs[p] = err
					continue
				}
				figs[p], errs[p] = eval(ctx, res.Candidates[picks[p]].Setting)
			}
		}()
	}
	for p := range picks {
		ch <- p
	}
	close(ch)
	wg.Wait()
	for p, err := range errs {
		if err == nil {
			continue
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, fmt.Errorf("replay of %v: %w", res.Candidates[picks[p]].Values, err)
	}
	return figs, nil
}

// recommendWorse is recommend on the worse ends of the candidates with a
// range: the cheapest worse cost whose worse risk is within the bound;
// ties go to the lower worse risk, then as recommend's.
func recommendWorse(cands []Candidate, bound float64) int {
	best := -1
	for i := range cands {
		c := &cands[i]
		if c.Err != "" || c.Range == nil {
			continue
		}
		cost, risk := c.Range.Worse()
		if risk > bound+riskSlack {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		bc, br := cands[best].Range.Worse()
		switch {
		case cost < bc:
			best = i
		case cost > bc:
		case risk < br-riskSlack:
			best = i
		case risk > br+riskSlack:
		case better(c, &cands[best]):
			best = i
		}
	}
	return best
}
