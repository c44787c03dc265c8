// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

func measuredCount(s *engine.Snapshot) int {
	n := 0
	for i := range s.Pods {
		if s.Pods[i].Status.Phase == "Running" {
			n++
		}
	}
	return n
}

// Above maxReplicas the controller clamps without reading metrics: only
// the pods the clamp keeps are simulated, whatever the count.
func TestReplicasAboveMaxSimulatesMaxPods(t *testing.T) {
	s := cpuSnapshot(4, "300m") // max 20
	got, changes, err := Apply(s, &Overrides{Replicas: ptr[int32](100_000_000)}, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if n := measuredCount(got); n != 20 || len(got.PodMetrics) != 20 {
		t.Fatalf("%d pods and %d samples simulated, want 20", n, len(got.PodMetrics))
	}
	if got.Target.SpecReplicas != 100_000_000 {
		t.Errorf("spec replicas %d", got.Target.SpecReplicas)
	}
	if !strings.Contains(strings.Join(changes, "\n"), "only the 20 pods it keeps are simulated") {
		t.Errorf("changes: %q", changes)
	}
	d := evaluate(t, got)
	if d.Outcome != explain.OutcomeAboveMax || d.DesiredReplicas != 20 {
		t.Errorf("outcome %s, desired %d", d.Outcome, d.DesiredReplicas)
	}
	// The projection's next syncs start from the 20 pods.
	p, err := Project(got, engine.DefaultSettings(), ProjectOptions{Duration: 2 * time.Minute, PodStartup: DefaultPodStartup})
	if err != nil {
		t.Fatal(err)
	}
	if p.Steps[1].Replicas != 20 {
		t.Errorf("second sync at %d replicas, want 20", p.Steps[1].Replicas)
	}
}

// A clamp above MaxPods simulates no pods at all; a count within the
// bounds above MaxPods is refused, naming the limit.
func TestReplicasLimit(t *testing.T) {
	s := cpuSnapshot(4, "300m")
	s.HPA.Spec.MaxReplicas = 2 * MaxPods
	got, changes, err := Apply(s, &Overrides{Replicas: ptr[int32](3 * MaxPods)}, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if measuredCount(got) != 4 || !strings.Contains(strings.Join(changes, "\n"), "no pods are simulated") {
		t.Errorf("%d pods, changes %q", measuredCount(got), changes)
	}
	if d := evaluate(t, got); d.DesiredReplicas != 2*MaxPods {
		t.Errorf("desired %d", d.DesiredReplicas)
	}

	_, _, err = Apply(s, &Overrides{Replicas: ptr[int32](MaxPods + 1)}, engine.DefaultSettings())
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != FieldReplicas || !strings.Contains(err.Error(), "at most 10000 pods") {
		t.Fatalf("err = %v", err)
	}
}

// A projection that would grow past MaxPods stops with an error.
func TestProjectPodLimit(t *testing.T) {
	s := cpuSnapshot(4, "500m") // 100% of the request, target 50%
	s.HPA.Spec.MaxReplicas = 1 << 30
	_, err := Project(s, engine.DefaultSettings(), ProjectOptions{Duration: time.Hour, LoadModel: explain.LoadConstantPerPod, PodStartup: DefaultPodStartup})
	if err == nil || !strings.Contains(err.Error(), "whatif simulates at most 10000 pods") {
		t.Fatalf("err = %v", err)
	}
}

// Values are bounded, and a change never overflows into a negative value.
func TestParseLimits(t *testing.T) {
	// E100000000 (found by FuzzWhatifFlags) hung in the first computation.
	for _, bad := range []string{"2P", "1Ei", "9223372036854775807", "+1000001%", "1000001%", "E100000000", "1e-100000000", "1e+100"} {
		if _, err := ParseChange(bad, true); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	if _, err := ParseTarget("cpu=2P"); err == nil {
		t.Error("target 2P accepted")
	}
	c, err := ParseChange("+1000000%", false)
	if err != nil {
		t.Fatal(err)
	}
	if v := c.apply(1 << 62); v != maxMilli {
		t.Errorf("saturated value %d, want %d", v, maxMilli)
	}
	if _, err := ParseTrace("t.csv", []byte("time,cpu\n0s,2P\n")); err == nil {
		t.Error("trace value 2P accepted")
	}
}

// A projection's work is bounded by the pods it simulates over its syncs.
func TestProjectWorkLimit(t *testing.T) {
	s := cpuSnapshot(4, "300m")
	opts := ProjectOptions{Duration: 5 * time.Minute, PodStartup: DefaultPodStartup, NoSkip: true, MaxPodSyncs: 40}
	_, err := Project(s, engine.DefaultSettings(), opts)
	if err == nil || !strings.Contains(err.Error(), "simulated more than 40 pods over its syncs") {
		t.Fatalf("err = %v", err)
	}
	opts.MaxPodSyncs = 0 // the default
	if _, err := Project(s, engine.DefaultSettings(), opts); err != nil {
		t.Fatal(err)
	}
}
