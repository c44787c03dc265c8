// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"reflect"
	"testing"
	"time"
)

// censorWorld is a recording of 12 instants 15 s apart, reading cpu.
func censorWorld() *Recording {
	return &Recording{Start: t0, Step: 15 * time.Second, Len: 12, Metrics: []Metric{{Kind: KindResource, Name: "cpu", PerPod: map[string]map[string]*Series{}}}}
}

// addPod adds a pod ready from the start, with containers (name → CPU
// limit in millicores, 0 for none) and their usage in cores per instant.
func (r *Recording) addPod(name string, limits map[string]int64, usage map[string][]float64) *Pod {
	p := Pod{Name: name, Created: t0.Add(-time.Hour), Ready: []ReadyChange{{At: t0.Add(-time.Hour), Ready: true}}}
	for c, l := range limits {
		ct := Container{Name: c, Requests: map[string]int64{"cpu": 100}}
		if l > 0 {
			ct.Limits = map[string]int64{"cpu": l}
		}
		p.Containers = append(p.Containers, ct)
	}
	byC := map[string]*Series{}
	for c, vs := range usage {
		byC[c] = &Series{Values: vs}
	}
	r.Metrics[0].PerPod[name] = byC
	r.Pods = append(r.Pods, p)
	return &r.Pods[len(r.Pods)-1]
}

// flat is n values of v.
func flat(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// with sets values at instants.
func with(vs []float64, at map[int]float64) []float64 {
	for k, v := range at {
		vs[k] = v
	}
	return vs
}

func TestCensorAtTheLimit(t *testing.T) {
	r := censorWorld()
	// 200m limit: 0.19 cores is 95% of it (censored), 0.1899 just below.
	r.addPod("web-a", map[string]int64{"app": 200}, map[string][]float64{"app": with(flat(12, 0.1), map[int]float64{3: 0.19, 4: 0.2, 5: 0.1899, 8: 0.25})})
	c := r.Censor(0)
	want := []CensoredStretch{{From: 3, To: 4, Pods: 1}, {From: 8, To: 8, Pods: 1}}
	if !reflect.DeepEqual(c.Stretches, want) {
		t.Errorf("stretches %+v, want %+v", c.Stretches, want)
	}
	if !c.Limits || c.Throttling || !c.Known() {
		t.Errorf("limits %v throttling %v known %v", c.Limits, c.Throttling, c.Known())
	}
	for k, want := range map[int]bool{2: false, 3: true, 4: true, 5: false, 8: true, 11: false, -1: false, 12: false} {
		if got := c.At(k); got != want {
			t.Errorf("At(%d) = %v, want %v", k, got, want)
		}
	}
}

func TestCensorThrottled(t *testing.T) {
	r := censorWorld()
	// Usage far below the limit; throttled in 30% of periods at 6 and 7,
	// 24% at 9 (below the threshold).
	r.addPod("web-a", map[string]int64{"app": 1000}, map[string][]float64{"app": flat(12, 0.2)})
	r.Throttling = map[string]map[string]*Series{"web-a": {"app": {First: 5, Values: []float64{0.1, 0.3, 0.3, 0, 0.24}}}}
	c := r.Censor(0)
	if want := []CensoredStretch{{From: 6, To: 7, Pods: 1}}; !reflect.DeepEqual(c.Stretches, want) {
		t.Errorf("stretches %+v, want %+v", c.Stretches, want)
	}
	if !c.Throttling || !c.Limits {
		t.Errorf("limits %v throttling %v", c.Limits, c.Throttling)
	}
}

func TestCensorNothingKnown(t *testing.T) {
	r := censorWorld()
	// Usage of a full core, but no limit and no throttling series.
	r.addPod("web-a", map[string]int64{"app": 0}, map[string][]float64{"app": flat(12, 1)})
	c := r.Censor(0)
	if c.Known() || c.Mask != nil || len(c.Stretches) != 0 || c.At(3) {
		t.Errorf("censoring without limits: %+v", c)
	}
	var none *Censoring
	if none.Known() || none.At(0) {
		t.Error("a nil censoring tells something")
	}
}

func TestCensorStretchOverSeveralPods(t *testing.T) {
	r := censorWorld()
	// a at its limit 2..4, b 4..6, c 5 and again 9 (a second stretch); d
	// at its limit 2..10 but not ready until instant 9.
	r.addPod("web-a", map[string]int64{"app": 100}, map[string][]float64{"app": with(flat(12, 0), map[int]float64{2: 0.1, 3: 0.1, 4: 0.1})})
	r.addPod("web-b", map[string]int64{"app": 100}, map[string][]float64{"app": with(flat(12, 0), map[int]float64{4: 0.1, 5: 0.1, 6: 0.1})})
	r.addPod("web-c", map[string]int64{"app": 100}, map[string][]float64{"app": with(flat(12, 0), map[int]float64{5: 0.1, 9: 0.1})})
	d := r.addPod("web-d", map[string]int64{"app": 100}, map[string][]float64{"app": with(flat(12, 0), map[int]float64{2: 0.1, 3: 0.1, 4: 0.1, 5: 0.1, 6: 0.1, 7: 0.1, 8: 0.1, 9: 0.1, 10: 0.1})})
	d.Ready = []ReadyChange{{At: r.Instant(9), Ready: true}}
	c := r.Censor(0)
	want := []CensoredStretch{{From: 2, To: 6, Pods: 3}, {From: 9, To: 10, Pods: 2}}
	if !reflect.DeepEqual(c.Stretches, want) {
		t.Errorf("stretches %+v, want %+v", c.Stretches, want)
	}
}

func TestCensorContainerWithoutLimit(t *testing.T) {
	r := censorWorld()
	// The sidecar uses 2 cores (no limit: never censored); the app is at
	// its 500m limit at 7 only. A deleted pod's samples past its deletion
	// do not count, nor do a terminating pod's.
	r.addPod("web-a", map[string]int64{"app": 500, "sidecar": 0}, map[string][]float64{
		"app": with(flat(12, 0.1), map[int]float64{7: 0.5}), "sidecar": flat(12, 2),
	})
	gone := r.addPod("web-b", map[string]int64{"app": 100}, map[string][]float64{"app": flat(12, 0.1)})
	del := r.Instant(2)
	gone.Deleted = &del
	term := r.Instant(1)
	gone.Terminating = &term
	c := r.Censor(0)
	want := []CensoredStretch{{From: 0, To: 0, Pods: 1}, {From: 7, To: 7, Pods: 1}}
	if !reflect.DeepEqual(c.Stretches, want) {
		t.Errorf("stretches %+v, want %+v", c.Stretches, want)
	}
}

func TestCensorFrom(t *testing.T) {
	r := censorWorld()
	r.addPod("web-a", map[string]int64{"app": 100}, map[string][]float64{"app": with(flat(12, 0), map[int]float64{1: 0.1, 2: 0.1, 3: 0.1, 4: 0.1})})
	r.addPod("web-b", map[string]int64{"app": 100}, map[string][]float64{"app": with(flat(12, 0), map[int]float64{1: 0.1, 2: 0.1})})
	// From instant 3 on, only web-a's 3..4 count.
	c := r.Censor(3)
	if want := []CensoredStretch{{From: 3, To: 4, Pods: 1}}; !reflect.DeepEqual(c.Stretches, want) || c.At(2) {
		t.Errorf("stretches %+v, want %+v", c.Stretches, want)
	}
}

func TestValidateThrottling(t *testing.T) {
	r := censorWorld()
	r.Throttling = map[string]map[string]*Series{"web-a": {"app": {First: 10, Values: []float64{0, 0, 0}}}}
	if err := r.Validate(); err == nil {
		t.Error("a throttling series past the end validated")
	}
}
