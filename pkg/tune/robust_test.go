// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package tune

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"
)

// robustResult is a hand-made search result: candidates cheapest first,
// the current setting last.
func robustResult() *Result {
	mk := func(name string, cost, risk float64) Candidate {
		return Candidate{Values: []string{name}, Setting: Setting{Targets: []int64{int64(cost*100 + 0.5)}}, Figures: Figures{Cost: cost, Risk: risk}}
	}
	return &Result{
		Candidates: []Candidate{
			mk("edge", 0.80, 0.10),   // cheapest, but on a boundary: dear and hot in a variant
			mk("steady", 0.85, 0.11), // a little dearer, steady
			mk("hot", 0.86, 0.30),    // over the bound
			mk("also", 0.90, 0.12),
			mk("current", 1.00, 0.12),
		},
		Current: 4, Recommended: 0, Bound: 0.12,
	}
}

// TestRobust checks the ranges of the finalists and the recommendation on
// the worse ends: the candidate that swings loses to a steady one.
func TestRobust(t *testing.T) {
	res := robustResult()
	evalV := func(_ context.Context, s Setting, v int) (Figures, error) {
		cost := float64(s.Targets[0]) / 100
		switch {
		case cost == 0.80 && v == 2: // the edge candidate in its second variant
			return Figures{Cost: 0.95, Risk: 0.13}, nil
		case cost == 1.00:
			return Figures{Cost: 1.00, Risk: 0.12 + 0.005*float64(v)}, nil
		}
		return Figures{Cost: cost + 0.001*float64(v), Risk: 0.11}, nil
	}
	prepared, released := 0, 0
	variant := func(v int) (Evaluator, func(), error) {
		prepared++
		if released != prepared-1 {
			t.Errorf("variant %d prepared before variant %d was released", v, v-1)
		}
		return func(ctx context.Context, s Setting) (Figures, error) { return evalV(ctx, s, v) }, func() { released++ }, nil
	}
	if err := Robust(context.Background(), res, RobustOptions{Variants: 3, Variant: variant, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if prepared != 3 || released != 3 {
		t.Errorf("%d variants prepared, %d released; want 3 each", prepared, released)
	}
	if len(res.Finalists) != 4 { // edge, steady, also (within the bound), current
		t.Fatalf("finalists %v", res.Finalists)
	}
	edge := res.Candidates[0].Range
	if edge == nil || edge.Cost != [2]float64{0.80, 0.95} || edge.Risk != [2]float64{0.10, 0.13} || edge.Variants != 4 || !edge.Swings {
		t.Errorf("the edge candidate's range %+v", edge)
	}
	if res.Candidates[2].Range != nil {
		t.Errorf("a candidate over the bound got a range")
	}
	// The bound is the current setting's worse risk: 0.135.
	if res.Bound < 0.1349 || res.Bound > 0.1351 {
		t.Errorf("bound %v, want the current setting's worse risk 0.135", res.Bound)
	}
	// The edge candidate's worse end (0.95) is dearer than steady's (0.853).
	if res.Recommended != 1 {
		t.Errorf("recommended %v, want steady", res.Candidates[res.Recommended].Values)
	}
	// With the user's bound kept, the edge's worse risk 0.13 is over 0.12:
	// out, and steady is still the one.
	res = robustResult()
	if err := Robust(context.Background(), res, RobustOptions{Variants: 3, Variant: variant, FixedBound: true}); err != nil {
		t.Fatal(err)
	}
	if res.Bound != 0.12 || res.Recommended != 1 {
		t.Errorf("with a fixed bound: bound %v, recommended %d", res.Bound, res.Recommended)
	}
}

func TestRobustNoVariants(t *testing.T) {
	res := robustResult()
	if err := Robust(context.Background(), res, RobustOptions{}); err != nil || res.Recommended != 0 || res.Finalists != nil {
		t.Errorf("without variants: %v, recommended %d, finalists %v", err, res.Recommended, res.Finalists)
	}
}

func TestRobustErrors(t *testing.T) {
	res := robustResult()
	boom := errors.New("boom")
	failing := func(int) (Evaluator, func(), error) {
		return func(context.Context, Setting) (Figures, error) { return Figures{}, boom }, nil, nil
	}
	err := Robust(context.Background(), res, RobustOptions{Variants: 1, Variant: failing})
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res = robustResult()
	fine := func(int) (Evaluator, func(), error) {
		return func(context.Context, Setting) (Figures, error) { return Figures{}, nil }, nil, nil
	}
	err = Robust(ctx, res, RobustOptions{Variants: 2, Variant: fine})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// A variant that cannot be prepared.
	res = robustResult()
	err = Robust(context.Background(), res, RobustOptions{Variants: 1, Variant: func(int) (Evaluator, func(), error) { return nil, nil, boom }})
	if !errors.Is(err, boom) {
		t.Errorf("unprepared: %v", err)
	}
}

// TestRobustWorkersDefault checks that Robust without Workers replays the
// finalists GOMAXPROCS at a time, as Search does: each replay waits,
// briefly, for another to run beside it.
func TestRobustWorkersDefault(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var mu sync.Mutex
	running, most := 0, 0
	variant := func(int) (Evaluator, func(), error) {
		return func(context.Context, Setting) (Figures, error) {
			mu.Lock()
			running++
			most = max(most, running)
			mu.Unlock()
			for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				mu.Lock()
				both := most >= 2
				mu.Unlock()
				if both {
					break
				}
			}
			mu.Lock()
			running--
			mu.Unlock()
			return Figures{Cost: 1, Risk: 0.1}, nil
		}, nil, nil
	}
	if err := Robust(context.Background(), robustResult(), RobustOptions{Variants: 1, Variant: variant}); err != nil {
		t.Fatal(err)
	}
	if most < 2 {
		t.Errorf("at most %d replays at once with GOMAXPROCS 2, want 2", most)
	}
}
