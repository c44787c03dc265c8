// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"math"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// TestTotalLoadSpans: the recorded load worked out in spans at once is the
// one a single pass works out, to the bit (the totals and where each
// instant's begin, the pods counted, the steady totals, the load served),
// over random recordings with both load models and over a day of raw
// counters (Metric.Load and Served), cut into 2, 3 and 7 spans.
func TestTotalLoadSpans(t *testing.T) {
	oldMin, oldParts := recording.MinSpan, recording.SpanParts
	defer func() { recording.MinSpan, recording.SpanParts = oldMin, oldParts }()
	type loadCase struct {
		name string
		p    *replayRun
	}
	var cases []loadCase
	for seed := range uint64(30) {
		c := randomFastCase(seed)
		p, err := newReplayRun("changed", c.snap, c.hpas[0], c.rec, c.set, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, loadCase{fmt.Sprintf("seed %d (%s)", seed, c.opts.LoadModel), p})
	}
	rec := rawRecordingOf(1)
	s := weekSnapshot(50)
	for _, model := range []string{explain.LoadConstantTotal, explain.LoadConstantPerPod} {
		p, err := newReplayRun("changed", s, s.HPA, rec, engine.DefaultSettings(), BacktestOptions{Start: rec.Start, LoadModel: model})
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, loadCase{"counters (" + model + ")", p})
	}
	served := false
	for _, c := range cases {
		recording.MinSpan, recording.SpanParts = 1, 1
		one := c.p.totalLoad()
		for _, parts := range []int{2, 3, 7} {
			recording.SpanParts = parts
			got := c.p.totalLoad()
			for _, f := range []struct {
				name      string
				want, got [][]float64
			}{{"totals", one.totals, got.totals}, {"steady", one.steady, got.steady}, {"served", one.served, got.served}} {
				if !sameBits(f.want, f.got) {
					t.Errorf("%s in %d spans: the %s differ from one pass's", c.name, parts, f.name)
				}
			}
			if fmt.Sprint(one.from, one.n, one.nc) != fmt.Sprint(got.from, got.n, got.nc) {
				t.Errorf("%s in %d spans: the instants' bounds or counts differ from one pass's", c.name, parts)
			}
		}
		for _, sv := range one.served {
			served = served || len(sv) > 0
		}
		// A resource read from the counters has no dips to hold: its
		// steady totals are its totals.
		if c.p.opts.LoadModel == explain.LoadConstantTotal && len(one.served) > 0 && len(one.served[0]) > 0 && !sameBits(one.steady, one.totals) {
			t.Errorf("%s: the counters' steady totals differ from their totals", c.name)
		}
	}
	if !served {
		t.Error("no case had the load served: the counters' case does not reach it")
	}
}

// sameBits says a and b hold the same floats, to the bit (NaN included),
// nil and empty alike.
func sameBits(a, b [][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if math.Float64bits(a[i][j]) != math.Float64bits(b[i][j]) {
				return false
			}
		}
	}
	return true
}
