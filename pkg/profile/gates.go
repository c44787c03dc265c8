// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package profile

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Gate names a kube-controller-manager feature gate that changes what the
// HPA controller decides or writes.
type Gate string

// The gates the replay knows.
const (
	HPAContainerMetrics           Gate = "HPAContainerMetrics"
	HPAConfigurableTolerance      Gate = "HPAConfigurableTolerance"
	HPAScaleToZero                Gate = "HPAScaleToZero"
	PodLevelResources             Gate = "PodLevelResources"
	HPAGeneration                 Gate = "HPAGeneration"
	HPAOptimizedSelectorStore     Gate = "HPAOptimizedSelectorStore"
	StaleControllerConsistencyHPA Gate = "StaleControllerConsistencyHPA"
)

// Maturity levels of a gate.
const (
	Alpha = "alpha"
	Beta  = "beta"
	GA    = "GA"
)

// Stage is a gate's state from one minor on, until the next stage.
type Stage struct {
	// Since is the first minor of the stage.
	Since int
	// Level is Alpha, Beta or GA; "" means the gate no longer exists.
	Level   string
	Default bool
	// Locked gates cannot be set to anything but their default.
	Locked bool
}

// GateSpec is one row of the gate table.
type GateSpec struct {
	Name Gate
	// Stages, oldest first. Before the first stage the gate does not exist.
	Stages []Stage
	// Effect says, in a sentence, what the gate changes in a replay.
	Effect string
}

// gateTable is read from pkg/features/kube_features.go of each release
// (docs/versions.md cites the lines).
var gateTable = []GateSpec{
	{
		Name:   HPAContainerMetrics,
		Stages: []Stage{{Since: 27, Level: Beta, Default: true}, {Since: 30, Level: GA, Default: true, Locked: true}, {Since: 32}},
		Effect: "ContainerResource metrics are computed; switched off (possible only in v1.29), such a metric fails",
	},
	{
		Name:   HPAConfigurableTolerance,
		Stages: []Stage{{Since: 33, Level: Alpha}, {Since: 35, Level: Beta, Default: true}, {Since: 37, Level: GA, Default: true, Locked: true}},
		Effect: "spec.behavior.scaleUp/scaleDown.tolerance override the controller's tolerance per direction",
	},
	{
		Name:   HPAScaleToZero,
		Stages: []Stage{{Since: 16, Level: Alpha}, {Since: 37, Level: Beta, Default: true}},
		Effect: "minReplicas 0 is accepted with an Object or External metric; from v1.36 the controller keeps a ScaledToZero condition and scales back from zero by itself",
	},
	{
		Name:   PodLevelResources,
		Stages: []Stage{{Since: 32, Level: Alpha}, {Since: 34, Level: Beta, Default: true}},
		Effect: "from v1.34, pod-level requests (spec.resources) are the utilization denominator when a pod sets them",
	},
	{
		Name:   HPAGeneration,
		Stages: []Stage{{Since: 37, Level: Beta, Default: true}},
		Effect: "the controller writes status.observedGeneration, and a spec change is synced at once",
	},
	{
		Name:   HPAOptimizedSelectorStore,
		Stages: []Stage{{Since: 37, Level: Beta, Default: true}},
		Effect: "an AmbiguousSelector message names at most two of the HPAs",
	},
	{
		Name:   StaleControllerConsistencyHPA,
		Stages: []Stage{{Since: 37, Level: Beta, Default: true}},
		Effect: "a sync waits until the controller has seen its own last status write (timing only)",
	},
}

// Gates returns the gate table.
func Gates() []GateSpec { return gateTable }

// stageAt returns the gate's stage at a minor, or false when the gate does
// not exist there.
func (g GateSpec) stageAt(minor int) (Stage, bool) {
	var cur Stage
	found := false
	for _, s := range g.Stages {
		if s.Since <= minor {
			cur, found = s, true
		}
	}
	if !found || cur.Level == "" {
		return Stage{}, false
	}
	return cur, true
}

// GateState is a gate's state at one version.
type GateState struct {
	Name    Gate
	Stage   Stage
	Enabled bool
}

// GatesAt lists the gates that exist at a minor, with their defaults, in
// table order.
func GatesAt(minor int) []GateState {
	var out []GateState
	for _, g := range gateTable {
		if st, ok := g.stageAt(minor); ok {
			out = append(out, GateState{Name: g.Name, Stage: st, Enabled: st.Default})
		}
	}
	return out
}

// GateNamesAt lists the names of the gates that exist at a minor.
func GateNamesAt(minor int) []string {
	var out []string
	for _, g := range GatesAt(minor) {
		out = append(out, string(g.Name))
	}
	return out
}

// ParseGates reads the kube-controller-manager syntax "Name=true,Other=false".
// Names are not checked here (see New): the same string may carry gates of
// other components.
func ParseGates(spec string) (map[Gate]bool, error) {
	out := map[Gate]bool{}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("%q is not Name=true|false", part)
		}
		name = strings.TrimSpace(name)
		b, err := strconv.ParseBool(strings.TrimSpace(val))
		if err != nil {
			return nil, fmt.Errorf("%s=%s: the value must be true or false", name, strings.TrimSpace(val))
		}
		out[Gate(name)] = b
	}
	return out, nil
}

// FormatGates prints gates as Name=bool, sorted by name.
func FormatGates(g map[Gate]bool) string {
	names := make([]string, 0, len(g))
	for n := range g {
		names = append(names, string(n))
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s=%t", n, g[Gate(n)])
	}
	return strings.Join(parts, ",")
}

// known reports whether a gate is in the table at all.
func known(name Gate) bool {
	for _, g := range gateTable {
		if g.Name == name {
			return true
		}
	}
	return false
}
