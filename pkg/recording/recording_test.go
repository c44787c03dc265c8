// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"math"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)

func TestSeriesSetAndAt(t *testing.T) {
	var s Series
	s.Set(5, 1)
	s.Set(3, 2)
	s.Set(8, 3)
	for _, c := range []struct {
		k    int
		want float64
		ok   bool
	}{{2, 0, false}, {3, 2, true}, {4, 0, false}, {5, 1, true}, {7, 0, false}, {8, 3, true}, {9, 0, false}} {
		got, ok := s.At(c.k)
		if got != c.want || ok != c.ok {
			t.Errorf("At(%d) = %v, %v; want %v, %v", c.k, got, ok, c.want, c.ok)
		}
	}
	if s.First != 3 || len(s.Values) != 6 || !math.IsNaN(s.Values[1]) {
		t.Errorf("series = %+v", s)
	}
	var nilSeries *Series
	if _, ok := nilSeries.At(0); ok {
		t.Error("a nil series has a value")
	}
}

func TestIndexAndInstant(t *testing.T) {
	r := &Recording{Start: t0, Step: 15 * time.Second, Len: 4}
	for _, c := range []struct {
		t    time.Time
		want int
		ok   bool
	}{
		{t0.Add(-time.Second), 0, false},
		{t0, 0, true},
		{t0.Add(14 * time.Second), 0, true},
		{t0.Add(15 * time.Second), 1, true},
		{t0.Add(time.Hour), 3, true},
	} {
		k, ok := r.Index(c.t)
		if k != c.want || ok != c.ok {
			t.Errorf("Index(%s) = %d, %v; want %d, %v", c.t, k, ok, c.want, c.ok)
		}
	}
	if got := r.End(); !got.Equal(t0.Add(45 * time.Second)) {
		t.Errorf("End = %s", got)
	}
}

func TestPodLifeAndReadiness(t *testing.T) {
	del := t0.Add(30 * time.Second)
	r := &Recording{Start: t0, Step: 15 * time.Second, Len: 4, Pods: []Pod{
		{Name: "a", Created: t0.Add(-time.Hour), Ready: []ReadyChange{{t0.Add(-59 * time.Minute), true}, {t0.Add(10 * time.Second), false}, {t0.Add(20 * time.Second), true}}},
		{Name: "b", Created: t0.Add(10 * time.Second), Deleted: &del},
	}}
	if got := r.PodsAt(0); len(got) != 1 || got[0] != 0 {
		t.Errorf("PodsAt(0) = %v", got)
	}
	if got := r.PodsAt(1); len(got) != 2 {
		t.Errorf("PodsAt(1) = %v", got)
	}
	if got := r.PodsAt(2); len(got) != 1 {
		t.Errorf("PodsAt(2) = %v (b is deleted at 30s)", got)
	}
	p := &r.Pods[0]
	for _, c := range []struct {
		at    time.Duration
		ready bool
		since time.Duration
	}{{0, true, -59 * time.Minute}, {15 * time.Second, false, 10 * time.Second}, {25 * time.Second, true, 20 * time.Second}} {
		ready, since := p.ReadyAt(t0.Add(c.at))
		if ready != c.ready || !since.Equal(t0.Add(c.since)) {
			t.Errorf("ReadyAt(+%s) = %v since %s", c.at, ready, since)
		}
	}
	if ready, since := r.Pods[1].ReadyAt(t0.Add(15 * time.Second)); ready || !since.Equal(t0.Add(10*time.Second)) {
		t.Errorf("a pod without readiness changes is not ready since its creation: %v %s", ready, since)
	}
}

func TestPhaseAndTerminating(t *testing.T) {
	term := t0.Add(time.Minute)
	p := Pod{Name: "a", Created: t0, Terminating: &term, Phases: []PhaseChange{{t0, PhasePending}, {t0.Add(20 * time.Second), PhaseRunning}}}
	for _, c := range []struct {
		at   time.Duration
		want string
	}{{-time.Second, ""}, {0, PhasePending}, {19 * time.Second, PhasePending}, {20 * time.Second, PhaseRunning}, {time.Hour, PhaseRunning}} {
		if got := p.PhaseAt(t0.Add(c.at)); got != c.want {
			t.Errorf("PhaseAt(+%s) = %q; want %q", c.at, got, c.want)
		}
	}
	if p.TerminatingAt(t0.Add(59*time.Second)) || !p.TerminatingAt(term) {
		t.Error("TerminatingAt is wrong around the deletionTimestamp")
	}
	if (&Pod{}).TerminatingAt(t0) {
		t.Error("a pod without a deletionTimestamp is terminating")
	}
}

func TestReplicasAt(t *testing.T) {
	h := ReplicaHistory{Changes: []ReplicaChange{{At: t0, Replicas: 2}, {At: t0.Add(time.Minute), Replicas: 5}}}
	if _, ok := h.ReplicasAt(t0.Add(-time.Second)); ok {
		t.Error("replicas before the history")
	}
	if n, _ := h.ReplicasAt(t0.Add(59 * time.Second)); n != 2 {
		t.Errorf("ReplicasAt(59s) = %d", n)
	}
	if n, _ := h.ReplicasAt(t0.Add(time.Minute)); n != 5 {
		t.Errorf("ReplicasAt(1m) = %d", n)
	}
}

func TestValidate(t *testing.T) {
	del := t0
	for _, c := range []struct {
		r    Recording
		want string
	}{
		{Recording{Step: 0, Len: 1}, "step must be positive"},
		{Recording{Step: time.Second}, "no instants"},
		{Recording{Step: time.Second, Len: 1, Pods: []Pod{{}}}, "has no name"},
		{Recording{Step: time.Second, Len: 1, Pods: []Pod{{Name: "a", Created: t0, Deleted: &del}}}, "deleted"},
		{Recording{Step: time.Second, Len: 1, Pods: []Pod{{Name: "a", Created: t0, Phases: []PhaseChange{{t0.Add(time.Second), PhaseRunning}, {t0, PhasePending}}}}}, "phase changes of pod a are out of order"},
		{Recording{Step: time.Second, Len: 2, Metrics: []Metric{{Kind: KindExternal, Name: "q", Total: &Series{First: 1, Values: []float64{1, 2}}}}}, "outside 0..1"},
		{Recording{Step: time.Second, Len: 2, Replicas: ReplicaHistory{Changes: []ReplicaChange{{At: t0, Replicas: 1}, {At: t0.Add(-time.Second), Replicas: 2}}}}, "out of order"},
	} {
		err := c.r.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate() = %v; want %q", err, c.want)
		}
	}
	ok := Recording{Step: time.Second, Len: 2, Metrics: []Metric{{Kind: KindResource, Name: "cpu", PerPod: map[string]map[string]*Series{"a": {"app": {First: 0, Values: []float64{1, 2}}}}}}}
	if err := ok.Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}
}
