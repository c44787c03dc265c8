// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// The variants of one phase take the pods laid out once for it: by the
// replayer itself at its own phase, by the phase's first variant at the
// others. What they take is what each would lay out alone, array for
// array; the accounting of the samples' values is each variant's own.
// (Every replay below is also held to the reference replay, sync by sync,
// by checkFastReplay.)
func TestVariantsSharePods(t *testing.T) {
	w := newWorld(bt0, 15*time.Second, 160)
	for i := range 4 {
		w.rawPod(fmt.Sprintf("web-%d", i), bt0.Add(-time.Hour), nil, func(at time.Time) float64 {
			return 0.25 + 0.2*math.Sin(at.Sub(bt0).Minutes()/7+float64(i))
		})
	}
	late := bt0.Add(20 * time.Minute)
	w.rawPod("web-late", late, nil, func(time.Time) float64 { return 0.3 })
	w.replicas(bt0.Add(-2*time.Hour), 4)
	w.replicas(late, 5)
	w.rec.Resample(recording.Scrapes{Anchor: bt0.Add(1300 * time.Millisecond), Window: 15 * time.Second})
	snap := btSnapshot(&autoscalingv2.HorizontalPodAutoscalerBehavior{})
	base, err := NewReplayer(snap, w.rec, engine.DefaultSettings(), BacktestOptions{Start: bt0.Add(10 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := base.ReplayFigures(snap.HPA); err != nil {
		t.Fatal(err)
	}
	variants := w.rec.Variants()
	if len(variants) != 3*recording.VariantPhases-1 {
		t.Fatalf("%d variants", len(variants))
	}
	borrowed := 0
	laid := map[recording.Scrapes]*fastShared{}
	if own, ok := w.rec.ResampledAt(); ok {
		laid[scrapePhase(own)] = base.fast
	}
	for _, vr := range variants {
		v, err := base.Variant(vr.Scrapes)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := v.ReplayFigures(snap.HPA); err != nil {
			t.Fatal(err)
		}
		sh := v.fast
		if sh.miss != "" {
			t.Fatalf("%s: the fast path missed: %s", vr.Words, sh.miss)
		}
		if first, ok := laid[v.phase]; ok {
			if &first.frames[0] == &sh.frames[0] {
				borrowed++
			} else {
				t.Errorf("%s: the pods laid out again at a phase laid out before", vr.Words)
			}
		} else {
			laid[v.phase] = sh
		}
		// What the variant would lay out alone.
		scratch, err := newReplayRun("alone", v.snap, snap.HPA, v.rec, v.set, v.opts)
		if err != nil {
			t.Fatal(err)
		}
		alone := buildFastShared(v, scratch)
		a, b := *sh, *alone
		if sh.scratch == nil || sh.scratch.rec != v.rec {
			t.Errorf("%s: the accounting reads another recording's samples", vr.Words)
		}
		for _, x := range []*fastShared{&a, &b} {
			x.exact, x.missReq, x.exactOnce, x.scratch = nil, nil, nil, nil
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: the pods taken differ from the ones it lays out alone", vr.Words)
		}
	}
	// Four phases: the base's own and three others, whose first variant
	// lays the pods out; the other eight take them.
	if borrowed != len(variants)-(recording.VariantPhases-1) {
		t.Errorf("%d of %d variants took the pods of their phase, want %d", borrowed, len(variants), len(variants)-(recording.VariantPhases-1))
	}
}
