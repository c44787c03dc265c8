// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// TestReplayerEqualsReplayHPA: a Replayer, which sums the recorded load of
// every instant once for all its replays, gives each HPA what ReplayHPA
// gives it alone, figure for figure, with its replays run at once; over
// a recording whose pods come and go and whose candidates run other
// counts than the real one (where the shared load is read).
func TestReplayerEqualsReplayHPA(t *testing.T) {
	start := bt0
	w := newWorld(start, 15*time.Second, 161)
	wave := func(phase float64) func(time.Time) float64 {
		return func(at time.Time) float64 {
			x := at.Sub(start).Minutes()
			return 0.3 + 0.2*math.Sin(x/4+phase)
		}
	}
	for i := range 4 {
		w.pod(fmt.Sprintf("web-%d", i), start.Add(-time.Hour), nil, wave(float64(i)))
	}
	gone := start.Add(20 * time.Minute)
	w.pod("web-old", start.Add(-time.Hour), &gone, wave(2))
	w.pod("web-new", start.Add(25*time.Minute), nil, wave(3))
	w.replicas(start.Add(-time.Hour), 5)
	w.replicas(gone, 4)
	w.replicas(start.Add(25*time.Minute), 5)
	snap := btSnapshot(nil)
	set := engine.DefaultSettings()
	opts := BacktestOptions{Start: start.Add(5 * time.Minute), Bounds: []Bound{{Metric: 0, Utilization: 0.7}}}
	var hpas []*autoscalingv2.HorizontalPodAutoscaler
	for _, target := range []int32{30, 50, 70, 90} {
		for _, window := range []int32{0, 60} {
			h := snap.HPA.DeepCopy()
			h.Spec.Metrics[0].Resource.Target.AverageUtilization = ptr(target)
			h.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr(window)}}
			engine.DefaultHPA(h)
			hpas = append(hpas, h)
		}
	}
	want := make([][]byte, len(hpas))
	rescaled := false
	for i, h := range hpas {
		path, err := ReplayHPA(snap, w.rec, set, h, opts)
		if err != nil {
			t.Fatal(err)
		}
		rescaled = rescaled || path.Summary.Rescales > 0
		want[i], _ = json.Marshal(path)
	}
	if !rescaled {
		t.Fatal("no candidate ran another count than the real one: the shared load is never read")
	}
	r, err := NewReplayer(snap, w.rec, set, opts)
	if err != nil {
		t.Fatal(err)
	}
	got := make([][]byte, len(hpas))
	errs := make([]error, len(hpas))
	var wg sync.WaitGroup
	for i, h := range hpas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path, err := r.Replay(h)
			errs[i] = err
			got[i], _ = json.Marshal(path)
		}()
	}
	wg.Wait()
	for i, h := range hpas {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("target %d%%, window %ds: the Replayer differs from ReplayHPA:\nreplayer %s\nalone    %s", *h.Spec.Metrics[0].Resource.Target.AverageUtilization,
				*h.Spec.Behavior.ScaleDown.StabilizationWindowSeconds, got[i], want[i])
		}
	}
}

// TestReplayPodLifecycle replays pods whose phase, readiness and deletion
// change while they keep their place among the sync's pods: a pod Pending
// then Running, one terminating before it goes, one the recording sees
// after the count that includes it, a count that drops before its pod
// goes. The tests' replays check at every sync that the snapshot's pods
// are copies of the sync's pods (checkPodCopies, set by TestMain), which
// these changes put to the test; Backtest's curves must also be the ones
// ReplayHPA gives.
func TestReplayPodLifecycle(t *testing.T) {
	if !checkPodCopies {
		t.Skip("checkPodCopies is off")
	}
	start := bt0
	at := func(m float64) time.Time { return start.Add(time.Duration(m * float64(time.Minute))) }
	w := newWorld(start, 15*time.Second, 81)
	for i := range 3 {
		w.pod(fmt.Sprintf("web-%d", i), start.Add(-time.Hour), nil, step(at(9), 0.2, 0.45))
	}
	w.pod("web-slow", at(-1), nil, step(at(9), 0.2, 0.45))
	slow := &w.rec.Pods[len(w.rec.Pods)-1]
	slow.Phases = []recording.PhaseChange{{At: at(-1), Phase: recording.PhasePending}, {At: at(3), Phase: recording.PhaseRunning}}
	slow.Ready = []recording.ReadyChange{{At: at(3), Ready: true}}
	goneAt := at(7)
	w.pod("web-going", start.Add(-time.Hour), &goneAt, step(at(9), 0.2, 0.45))
	w.rec.Pods[len(w.rec.Pods)-1].Terminating = ptr(at(6))
	w.pod("web-late", at(8).Add(15*time.Second), nil, step(at(9), 0.2, 0.45))
	lateGone := at(16)
	w.pod("web-last", start.Add(-time.Hour), &lateGone, step(at(9), 0.2, 0.45))
	w.replicas(start.Add(-time.Hour), 6)
	w.replicas(at(7), 5)
	w.replicas(at(8), 6)
	w.replicas(at(15), 5)
	snap := btSnapshot(nil)
	set := engine.DefaultSettings()
	for _, target := range []string{"cpu=50%", "cpu=30%", "cpu=90%"} {
		ch := &Overrides{Targets: []TargetOverride{mustTarget(t, target)}}
		opts := BacktestOptions{Start: start, Changes: ch, PodStartup: 20 * time.Second, SampleDelay: 30 * time.Second}
		res, err := Backtest(snap, w.rec, set, opts)
		if err != nil {
			t.Fatal(err)
		}
		edited, _, err := Apply(snap, ch, set)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReplayHPA(snap, w.rec, set, edited.HPA, opts)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(res.Backtest.Changed)
		b, _ := json.Marshal(got)
		if !bytes.Equal(a, b) {
			t.Errorf("%s:\nbacktest %s\nreplay   %s", target, a, b)
		}
	}
}
