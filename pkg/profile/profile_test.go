// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package profile

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"1.32": "v1.32", "v1.32": "v1.32", "v1.32.13": "v1.32.13", "1.37.2": "v1.37.2",
		"v1.32.13-eks-4096722": "v1.32.13", "v1.31.5+k3s1": "v1.31.5", "v1.33.5-gke.1200000": "v1.33.5",
	} {
		v, err := Parse(in)
		if err != nil || v.String() != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", in, v, err, want)
		}
	}
	for _, in := range []string{"", "latest", "2.1", "v1", "1.x", "v1.32.x", "1.32.13.1"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) accepted", in)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, s := range []string{"1.28", "1.38", "v1.10.0"} {
		err := MustParse(s).Check()
		if err == nil || !strings.Contains(err.Error(), "v1.29 to v1.37") {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, v := range Supported() {
		if err := v.Check(); err != nil {
			t.Error(err)
		}
		if v.Proven() != v {
			t.Errorf("%s: proven %s", v, v.Proven())
		}
	}
	if got := Newest().String(); got != NewestVersion || Newest().Minor != MaxMinor {
		t.Errorf("newest %s", got)
	}
	if n := len(Supported()); n != MaxMinor-MinMinor+1 {
		t.Errorf("%d supported versions", n)
	}
}

// TestGateDefaults pins the gate table against kube_features.go of each
// release (docs/versions.md).
func TestGateDefaults(t *testing.T) {
	want := map[int]string{
		29: "HPAContainerMetrics=true,HPAScaleToZero=false",
		30: "HPAContainerMetrics=true,HPAScaleToZero=false",
		31: "HPAContainerMetrics=true,HPAScaleToZero=false",
		32: "HPAScaleToZero=false,PodLevelResources=false",
		33: "HPAConfigurableTolerance=false,HPAScaleToZero=false,PodLevelResources=false",
		34: "HPAConfigurableTolerance=false,HPAScaleToZero=false,PodLevelResources=true",
		35: "HPAConfigurableTolerance=true,HPAScaleToZero=false,PodLevelResources=true",
		36: "HPAConfigurableTolerance=true,HPAScaleToZero=false,PodLevelResources=true",
		37: "HPAConfigurableTolerance=true,HPAGeneration=true,HPAOptimizedSelectorStore=true,HPAScaleToZero=true,PodLevelResources=true,StaleControllerConsistencyHPA=true",
	}
	for minor, w := range want {
		p := Default(Version{Minor: minor, Patch: -1})
		if got := FormatGates(p.Gates); got != w {
			t.Errorf("v1.%d: %s\n want %s", minor, got, w)
		}
	}
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		v     string
		gates map[Gate]bool
		want  string
	}{
		{"1.37", map[Gate]bool{HPAConfigurableTolerance: false}, "feature gate HPAConfigurableTolerance is GA and locked to true in v1.37"},
		{"1.30", map[Gate]bool{HPAContainerMetrics: false}, "feature gate HPAContainerMetrics is GA and locked to true in v1.30"},
		{"1.32", map[Gate]bool{HPAContainerMetrics: true}, "feature gate HPAContainerMetrics does not exist in v1.32"},
		{"1.36", map[Gate]bool{HPAGeneration: true}, "feature gate HPAGeneration does not exist in v1.36"},
		{"1.36", map[Gate]bool{"Foo": true}, `unknown feature gate "Foo" (gates of v1.36: HPAConfigurableTolerance, HPAScaleToZero, PodLevelResources)`},
		{"1.28", nil, "controller version v1.28 is not supported"},
	} {
		_, err := New(MustParse(c.v), c.gates)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want %q", c.v, c.gates, err, c.want)
		}
	}
	p, err := New(MustParse("1.29"), map[Gate]bool{HPAContainerMetrics: false, HPAScaleToZero: true})
	if err != nil || p.Switches.ContainerResourceMetrics || !p.Gates[HPAScaleToZero] {
		t.Errorf("1.29 overrides: %+v %v", p, err)
	}
	if got := strings.Join(p.NonDefaultGates(), ","); got != "HPAContainerMetrics=false,HPAScaleToZero=true" {
		t.Errorf("non-default gates %q", got)
	}
}

// TestSwitchesByVersion pins the minor at which each switch changes with
// default gates (the engine's TestSwitches proves what each one does).
func TestSwitchesByVersion(t *testing.T) {
	flips := map[string]int{
		"AbsoluteTolerance": 33, "BehaviorTolerance": 35, "MissingContainerSampleFails": 33,
		"ObjectAverageStatusNamesObject": 33, "MemoryStatusBinarySI": 34, "PodLevelRequests": 34,
		"RetryScaleUpdateOnConflict": 34, "ExternalAverageCaps": 34, "NamedContainerRequired": 35,
		"UsageRatioReplicaCap": 35, "ExternalValueSumCap": 35, "ScaleToZeroConditions": 36,
		"ScaledToZero": 37, "ObservedGeneration": 37, "AmbiguousSelectorMoreThanOne": 37,
		"ObjectMetricErrorReordered": 37, "SyncOnSpecChange": 37, "AmbiguousSelectorLimit": 37,
	}
	get := func(minor int, name string) any {
		s := Default(Version{Minor: minor, Patch: -1}).Switches
		switch name {
		case "AbsoluteTolerance":
			return s.AbsoluteTolerance
		case "BehaviorTolerance":
			return s.BehaviorTolerance
		case "MissingContainerSampleFails":
			return s.MissingContainerSampleFails
		case "ObjectAverageStatusNamesObject":
			return s.ObjectAverageStatusNamesObject
		case "MemoryStatusBinarySI":
			return s.MemoryStatusBinarySI
		case "PodLevelRequests":
			return s.PodLevelRequests
		case "RetryScaleUpdateOnConflict":
			return s.RetryScaleUpdateOnConflict
		case "ExternalAverageCaps":
			return s.ExternalAverageCaps
		case "NamedContainerRequired":
			return s.NamedContainerRequired
		case "UsageRatioReplicaCap":
			return s.UsageRatioReplicaCap
		case "ExternalValueSumCap":
			return s.ExternalValueSumCap
		case "ScaleToZeroConditions":
			return s.ScaleToZeroConditions
		case "ScaledToZero":
			return s.ScaledToZero
		case "ObservedGeneration":
			return s.ObservedGeneration
		case "AmbiguousSelectorMoreThanOne":
			return s.AmbiguousSelectorMoreThanOne
		case "ObjectMetricErrorReordered":
			return s.ObjectMetricErrorReordered
		case "SyncOnSpecChange":
			return s.SyncOnSpecChange
		case "AmbiguousSelectorLimit":
			return s.AmbiguousSelectorLimit
		}
		t.Fatalf("unknown switch %s", name)
		return nil
	}
	for name, at := range flips {
		for m := MinMinor; m < MaxMinor; m++ {
			changes := get(m, name) != get(m+1, name)
			if changes != (m+1 == at) {
				t.Errorf("%s: v1.%d → v1.%d changes=%v, want the change at v1.%d", name, m, m+1, changes, at)
			}
		}
	}
	if !Default(Version{Minor: 29, Patch: -1}).Switches.ContainerResourceMetrics {
		t.Error("v1.29 default gates must compute ContainerResource metrics")
	}
}

// A v1.37 controller whose gates emulate v1.36 may turn HPAConfigurableTolerance
// off (upstream's TestConfigurableTolerance does so): the gates are v1.36's,
// the switches v1.37's.
func TestNewEmulated(t *testing.T) {
	v := MustParse("1.37")
	p, err := NewEmulated(v, 36, map[Gate]bool{HPAConfigurableTolerance: false})
	if err != nil {
		t.Fatal(err)
	}
	if p.Switches.BehaviorTolerance {
		t.Error("BehaviorTolerance with HPAConfigurableTolerance off")
	}
	if p.Gates[HPAScaleToZero] || p.Gates[HPAGeneration] {
		t.Errorf("gates of v1.36 expected: %v", p.Gates)
	}
	if _, ok := p.Gates[HPAGeneration]; ok {
		t.Errorf("HPAGeneration does not exist at v1.36: %v", p.Gates)
	}
	// The code stays v1.37's: switches that no gate drives are v1.37's.
	if !p.Switches.ObjectMetricErrorReordered || p.Switches.AbsoluteTolerance {
		t.Errorf("v1.37 switches expected: %+v", p.Switches)
	}
	same, err := NewEmulated(v, 37, nil)
	if err != nil || !reflect.DeepEqual(same, Default(v)) {
		t.Errorf("emulating its own minor: %+v %v", same, err)
	}
	for _, c := range []struct {
		minor int
		gates map[Gate]bool
		want  string
	}{
		{33, nil, "emulated version v1.33 is out of range for v1.37 (v1.34 to v1.37)"},
		{38, nil, "emulated version v1.38 is out of range"},
		{36, map[Gate]bool{HPAGeneration: true}, "feature gate HPAGeneration does not exist in v1.36 (emulated by v1.37)"},
	} {
		if _, err := NewEmulated(v, c.minor, c.gates); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d %v: %v, want %q", c.minor, c.gates, err, c.want)
		}
	}
	if _, err := NewEmulated(MustParse("1.32"), 30, nil); err == nil {
		t.Error("emulating v1.30: want an error (emulation starts at v1.31)")
	}
}
