// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// The recorded workload's own rescales leave dips in the recorded total
// (its samples trail the load); steadyTotals takes them out within a
// resolution and a step of a change in the pod counts, and leaves every
// other instant as recorded.
func TestSteadyTotals(t *testing.T) {
	step, resolution := 5*time.Second, 10*time.Second // hold: 3 instants
	for _, tc := range []struct {
		name     string
		totals   []float64
		n        []int
		rescaled []bool
		want     []float64
	}{
		{
			// 6 pods share 750m; one is removed at 2; the five left report
			// 125m each until their samples catch up at 4.
			name:     "a pod removed",
			totals:   []float64{750, 750, 625, 625, 750, 750, 750},
			n:        []int{6, 6, 5, 5, 5, 5, 5},
			rescaled: []bool{false, false, true, false, false, false, false},
			want:     []float64{750, 750, 750, 750, 750, 750, 750},
		},
		{
			// 3 pods share 1500m; the workload scales to 4 at 2 (the store
			// knows the new pod only at its first sample, at 4); the three
			// report 375m from 3.
			name:     "a pod added",
			totals:   []float64{1500, 1500, 1500, 1125, 1500, 1500},
			n:        []int{3, 3, 3, 3, 4, 4},
			rescaled: []bool{false, false, true, false, true, false},
			want:     []float64{1500, 1500, 1500, 1500, 1500, 1500},
		},
		{
			// The load falls with no change of the pods: as recorded.
			name:     "a real fall",
			totals:   []float64{1500, 1500, 750, 750, 750},
			n:        []int{4, 4, 4, 4, 4},
			rescaled: []bool{false, false, false, false, false},
			want:     []float64{1500, 1500, 750, 750, 750},
		},
		{
			// A fall long after a change is not held.
			name:     "a fall after the hold",
			totals:   []float64{750, 750, 750, 750, 750, 750, 500},
			n:        []int{6, 5, 5, 5, 5, 5, 5},
			rescaled: []bool{false, true, false, false, false, false, false},
			want:     []float64{750, 750, 750, 750, 750, 750, 500},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &recordedLoad{totals: [][]float64{tc.totals}, n: [][]int{tc.n}, from: [][]int{make([]int, len(tc.totals)+1)}}
			for k := range tc.totals {
				l.from[0][k+1] = k + 1
			}
			got := steadyTotals(l, tc.rescaled, resolution, step)[0]
			if !slices.Equal(got, tc.want) {
				t.Errorf("steady totals %v, want %v", got, tc.want)
			}
			if !slices.Equal(l.totals[0], tc.totals) {
				t.Errorf("the recorded totals changed: %v", l.totals[0])
			}
		})
	}
}

// A Pods metric's recorded total dips like a resource's when the
// workload removes a pod (the pods it keeps report their old share for a
// scrape): with constant-total the replay holds it, and the recorded
// totals keep the dip.
func TestSteadyPodsMetricTotals(t *testing.T) {
	step := 5 * time.Second
	w := newWorld(bt0, step, 8)
	w.rec.Metrics = append(w.rec.Metrics, recording.Metric{Kind: recording.KindPods, Name: "requests_per_second", PerPod: map[string]map[string]*recording.Series{}})
	rps := &w.rec.Metrics[len(w.rec.Metrics)-1]
	w.cpu = &w.rec.Metrics[0]
	gone := bt0.Add(3 * step)
	// 30 requests a second shared by three pods, then by two from 3: the
	// two report 10 each until their samples catch up at 5.
	per := []float64{10, 10, 10, 10, 10, 15, 15, 15}
	for i, name := range []string{"web-a", "web-b", "web-c"} {
		var deleted *time.Time
		if i == 2 {
			deleted = &gone
		}
		w.pod(name, bt0.Add(-time.Minute), deleted, func(time.Time) float64 { return 0.1 })
		s := &recording.Series{}
		for k := range w.rec.Len {
			if deleted == nil || w.rec.Instant(k).Before(*deleted) {
				s.Set(k, per[k])
			}
		}
		rps.PerPod[name] = map[string]*recording.Series{"": s}
	}
	w.replicas(bt0.Add(-time.Hour), 3)
	w.replicas(gone, 2)
	p, err := newReplayRun("as-is", btSnapshot(nil), btSnapshot(nil).HPA, w.rec, engine.Settings{}, BacktestOptions{LoadModel: explain.LoadConstantTotal})
	if err != nil {
		t.Fatal(err)
	}
	l := p.totalLoad()
	q := len(p.resources) // the Pods metric's index
	var recorded, replayed []float64
	for k := range w.rec.Len {
		vals, _ := l.at(q, k)
		replayed = append(replayed, vals...)
		recorded = append(recorded, l.totals[q][l.from[q][k]:l.from[q][k+1]]...)
	}
	if want := []float64{30, 30, 30, 20, 20, 30, 30, 30}; !slices.Equal(recorded, want) {
		t.Errorf("recorded totals %v, want %v", recorded, want)
	}
	if want := []float64{30, 30, 30, 30, 30, 30, 30, 30}; !slices.Equal(replayed, want) {
		t.Errorf("replayed totals %v, want %v (the dip held)", replayed, want)
	}
}

// A sample shows the load of its window: each ready pod's share of it is
// the mean of 1/n over the window, n the replay's ready pods from moment
// to moment. After the replay's own rescale its pods report their old
// share until the windows have passed it (the kept pods of a scale-down
// their old, smaller share; the old pods of a scale-up their old, larger
// one), and a window across the change a mix.
func TestSampleShare(t *testing.T) {
	step, window := 5*time.Second, 10*time.Second
	p := &replayRun{rec: &recording.Recording{Start: bt0, Step: step, Len: 20, SampleWindow: window}}
	// Ready pods at the syncs 0..9: 4, then 2 from 3 (a scale-down), 5 from 6.
	ready := []int{4, 4, 4, 2, 2, 2, 5, 5, 5, 5}
	var got []float64
	for k, n := range ready {
		p.readyNow = n
		got = append(got, p.sampleShare(k))
		p.mark(p.rec.Instant(k), n)
	}
	// The window of sync k (without scrapes: ending at the sync) spans
	// syncs k-2 and k-1; before the first mark, the pods now.
	want := []float64{0.25, 0.25, 0.25, 0.25, 0.375, 0.5, 0.5, 0.35, 0.2, 0.2}
	for k := range want {
		if math.Abs(got[k]-want[k]) > 1e-9 {
			t.Errorf("shares %v, want %v", got, want)
			break
		}
	}
	if len(p.marks) > 7 {
		t.Errorf("%d marks kept; two windows and two syncs need 6 or 7", len(p.marks))
	}
	// A decision's marks: a scale-down takes the pods out at once, a
	// scale-up adds them once ready.
	p = &replayRun{rec: &recording.Recording{Start: bt0, Step: step, Len: 20, SampleWindow: window}, opts: BacktestOptions{PodStartup: 2 * time.Second}}
	p.readyNow = 4
	p.mark(bt0, 4)
	p.markDecision(&explain.Decision{Now: bt0, Rescale: true, CurrentReplicas: 4, DesiredReplicas: 2})
	if n := p.countAt(bt0.Add(time.Second)); n != 2 {
		t.Errorf("after a scale-down 4 → 2, %d ready, want 2", n)
	}
	p.readyNow = 2
	p.mark(bt0.Add(step), 2)
	p.markDecision(&explain.Decision{Now: bt0.Add(step), Rescale: true, CurrentReplicas: 2, DesiredReplicas: 5})
	if n := p.countAt(bt0.Add(step + time.Second)); n != 2 {
		t.Errorf("a second after a scale-up 2 → 5 (start-up 2s), %d ready, want 2", n)
	}
	if n := p.countAt(bt0.Add(step + 3*time.Second)); n != 5 {
		t.Errorf("three seconds after a scale-up 2 → 5, %d ready, want 5", n)
	}
	// Without a window (a recording that does not say): the pods now.
	p = &replayRun{rec: &recording.Recording{Start: bt0, Step: step, Len: 20}}
	p.readyNow = 4
	p.mark(bt0, 4)
	p.readyNow = 2
	if v := p.sampleShare(1); v != 0.5 {
		t.Errorf("without a window, a share of %v, want 0.5", v)
	}
}

// A real pod the replay dropped (the candidate ran fewer pods than the
// workload) and takes back is a new pod there: it is ready PodStartup and
// reports SampleDelay after it came back, not at once with the readiness
// and samples it had in the real run.
func TestTakenBackPodReportsLate(t *testing.T) {
	every := 5 * time.Second
	w := newWorld(bt0, every, 10)
	for _, name := range []string{"web-a", "web-b", "web-c", "web-d"} {
		w.pod(name, bt0.Add(-time.Hour), nil, func(time.Time) float64 { return 0.2 })
	}
	w.replicas(bt0.Add(-2*time.Hour), 4)
	p, err := newReplayRun("changed", btSnapshot(nil), btSnapshot(nil).HPA, w.rec, engine.Settings{}, BacktestOptions{LoadModel: explain.LoadConstantTotal, SampleDelay: 15 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	p.started = true
	p.opts.PodStartup = 8 * time.Second
	counts := []int32{4, 2, 3, 3, 3, 3, 3}
	var reporting, ready []int
	for k, n := range counts {
		p.replicas = n
		if _, err := p.sync(k); err != nil {
			t.Fatal(err)
		}
		r, rd := 0, 0
		for _, sp := range p.cur {
			if sp.reports {
				r++
			}
			if isReady(sp.pod) {
				rd++
			}
		}
		reporting, ready = append(reporting, r), append(ready, rd)
	}
	// The third pod comes back at 2 (10 s), is ready from 4 (20 s, its
	// start-up of 8 s after) and reports from 5 (25 s).
	if want := []int{4, 2, 2, 2, 2, 3, 3}; !slices.Equal(reporting, want) {
		t.Errorf("pods reporting %v, want %v", reporting, want)
	}
	if want := []int{4, 2, 2, 2, 3, 3, 3}; !slices.Equal(ready, want) {
		t.Errorf("pods ready %v, want %v", ready, want)
	}
}

// rawPod adds a pod whose CPU the store recorded as a raw counter, sampled
// every 5 s from its start to its deletion, integrating usage(t) (cores).
func (w *world) rawPod(name string, c time.Time, deleted *time.Time, usage func(t time.Time) float64) {
	w.rec.Pods = append(w.rec.Pods, recording.Pod{
		Name: name, Labels: map[string]string{"app": "web"}, Created: c, Deleted: deleted,
		Ready:      []recording.ReadyChange{{At: c.Add(2 * time.Second), Ready: true}},
		Containers: []recording.Container{{Name: "app", Requests: map[string]int64{"cpu": 500}}},
	})
	if w.cpu.Raw == nil {
		w.cpu.Raw, w.cpu.Cumulative, w.rec.StoreInterval = map[string]map[string]*recording.Raw{}, true, 5*time.Second
	}
	raw := &recording.Raw{}
	v := 0.0
	end := w.rec.End().Add(time.Minute)
	if deleted != nil {
		end = *deleted
	}
	for at := c; at.Before(end); at = at.Add(100 * time.Millisecond) {
		v += usage(at) * 0.1
		if at.Sub(c)%(5*time.Second) == 0 {
			raw.Append(at.UnixMilli(), v, true)
		}
	}
	w.cpu.Raw[name] = map[string]*recording.Raw{"app": raw}
}

// A workload that serves a steady total while it adds and removes pods
// leaves no dip in the load the counters give a candidate: what all its
// pods served over each sample's window is the total, whoever served it.
func TestCounterLoadHasNoDip(t *testing.T) {
	w := newWorld(bt0, 5*time.Second, 40)
	joined, left := bt0.Add(62*time.Second), bt0.Add(141*time.Second)
	ready := func(at time.Time) float64 {
		n := 3.0
		if !at.Before(joined.Add(2 * time.Second)) {
			n++
		}
		if !at.Before(left) {
			n--
		}
		return n
	}
	share := func(at time.Time) float64 { return 1.2 / ready(at) }
	for _, name := range []string{"web-a", "web-b", "web-c"} {
		w.rawPod(name, bt0.Add(-time.Hour), nil, share)
	}
	w.rawPod("web-d", joined, &left, func(at time.Time) float64 {
		if at.Before(joined.Add(2 * time.Second)) {
			return 0 // not ready yet: no load
		}
		return share(at)
	})
	w.replicas(bt0.Add(-2*time.Hour), 3)
	w.replicas(joined, 4)
	w.replicas(left, 3)
	w.rec.Resample(recording.Scrapes{Anchor: bt0.Add(1300 * time.Millisecond), Window: 10 * time.Second})
	p, err := newReplayRun("changed", btSnapshot(nil), btSnapshot(nil).HPA, w.rec, engine.Settings{}, BacktestOptions{LoadModel: explain.LoadConstantTotal})
	if err != nil {
		t.Fatal(err)
	}
	l := p.totalLoad()
	for k := 4; k < w.rec.Len; k++ {
		vals, _ := l.at(0, k)
		// A pod's share changes within 100 ms of the step's moment here;
		// the counters hold it to that.
		if len(vals) != 1 || math.Abs(vals[0]-1.2) > 0.02 {
			t.Errorf("instant %d (%s): load %v, want 1.2 (the total, whoever served it)", k, w.rec.Instant(k).Sub(bt0), vals)
		}
		// What was served between two syncs is the counters' difference
		// there, and within the store interval in which web-d joined
		// (serving nothing until ready) nothing tells how its counter rose:
		// a straight line from its first sample. That interval is left
		// out.
		near := w.rec.Instant(k).Sub(joined)
		if served, ok := l.servedAt(0, k, -1); k < w.rec.Len-1 && (near < -5*time.Second || near > 5*time.Second) && (!ok || math.Abs(served-1.2) > 0.02) {
			t.Errorf("instant %d: served %v, want 1.2", k, served)
		}
	}
}
