// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package profile

import (
	"fmt"
	"sort"
	"strings"
)

// Profile is one controller: its version, the feature gates in force and
// the switches that follow from them.
type Profile struct {
	// Version is the version replayed (the patch is -1 when only the minor
	// is known; every patch of a minor replays alike).
	Version Version
	// Gates holds every gate that exists at Version, with its value.
	Gates map[Gate]bool
	// Switches are what the engine reads.
	Switches Switches
}

// Switches are the differences between controller versions that change a
// replay. Each field is one upstream change; docs/versions.md names it. The
// engine reads only these, so a test can flip one switch and see that it
// matters.
type Switches struct {
	// ContainerResourceMetrics is false when the HPAContainerMetrics gate is
	// off (v1.29): every ContainerResource metric then fails, with no event.
	ContainerResourceMetrics bool

	// AbsoluteTolerance: v1.32 and older keep the replicas when
	// |1 − ratio| ≤ tolerance; v1.33+ when 1 − down ≤ ratio ≤ 1 + up. The two
	// differ at ratios exactly 1 ± tolerance in float64 (55/50, 66/60 …).
	AbsoluteTolerance bool
	// BehaviorTolerance: spec.behavior.*.tolerance is read (v1.33+ with
	// HPAConfigurableTolerance).
	BehaviorTolerance bool

	// MissingContainerSampleFails: v1.32 and older fail a ContainerResource
	// metric when a pod's metrics lack the named container; v1.33+ count the
	// pod as missing.
	MissingContainerSampleFails bool
	// ObjectAverageStatusNamesObject: v1.33+ write describedObject into the
	// status of an Object metric with an AverageValue target.
	ObjectAverageStatusNamesObject bool

	// MemoryStatusBinarySI: v1.34+ write memory averages of Resource and
	// ContainerResource metrics in binary units (256Mi); older versions in
	// decimal (268435456).
	MemoryStatusBinarySI bool
	// PodLevelRequests: v1.34+ with PodLevelResources use a pod's pod-level
	// requests as the utilization denominator when it sets them.
	PodLevelRequests bool
	// RetryScaleUpdateOnConflict: v1.34+ retry a scale update that got a
	// conflict (five attempts); older versions fail the rescale.
	RetryScaleUpdateOnConflict bool
	// ExternalAverageCaps: v1.34+ saturate the External AverageValue sum at
	// MaxInt64 and the proposal at MaxInt32; older versions wrap.
	ExternalAverageCaps bool

	// NamedContainerRequired: v1.35+ fail a ContainerResource metric when a
	// pod lacks the named container; older versions count its request as 0.
	NamedContainerRequired bool
	// UsageRatioReplicaCap: v1.35+ cap the Object/External Value proposal at
	// MaxInt32; older versions convert as amd64 does (to MinInt32).
	UsageRatioReplicaCap bool
	// ExternalValueSumCap: v1.35+ saturate the External Value sum at
	// MaxInt64; older versions wrap.
	ExternalValueSumCap bool

	// ScaleToZeroConditions: v1.36+ decide a target at zero replicas from
	// the ScaledToZero condition; v1.35 and older disable autoscaling when
	// replicas are 0 and minReplicas is not, and compute metrics otherwise.
	ScaleToZeroConditions bool
	// ScaledToZero: with ScaleToZeroConditions, the HPAScaleToZero gate is
	// on: the controller reads and writes the ScaledToZero condition
	// (v1.37 by default); off, it removes the condition.
	ScaledToZero bool

	// ObservedGeneration: v1.37 with HPAGeneration write
	// status.observedGeneration at every sync.
	ObservedGeneration bool
	// AmbiguousSelectorMoreThanOne: v1.37 word the AmbiguousSelector message
	// "controlled by more than one HPA (e.g. …)"; older versions
	// "controlled by multiple HPAs: …".
	AmbiguousSelectorMoreThanOne bool
	// AmbiguousSelectorLimit: the most HPAs that message names (2 with
	// HPAOptimizedSelectorStore); 0 names all.
	AmbiguousSelectorLimit int
	// ObjectMetricErrorReordered: v1.37 word an Object metric failure
	// "unable to get metric M on KIND NS/NAME: ERR"; older versions print
	// their arguments out of order ("unable to get metric M: KIND on NS NAME/ERR").
	ObjectMetricErrorReordered bool
	// SyncOnSpecChange: v1.37 sync a new HPA at once, and a spec change at
	// once with HPAGeneration; older versions wait for the resync period.
	// Timing only: it changes when a sync happens, not what it decides.
	SyncOnSpecChange bool
}

// New resolves the profile of version v with gate overrides on top of the
// version's defaults. It fails on an unsupported version, a gate that does
// not exist at v, and a locked gate set against its default, as
// kube-controller-manager refuses to start then.
func New(v Version, overrides map[Gate]bool) (Profile, error) {
	if err := v.Check(); err != nil {
		return Profile{}, err
	}
	return resolve(v, v.Minor, v.MinorString(), overrides)
}

// NewEmulated resolves the profile of version v whose feature gates emulate
// an older minor (kube-controller-manager --emulated-version): which gates
// exist, their defaults and their locks are those of emulatedMinor, while
// the switches still follow v's code. The emulated minor is v's own or one
// of the three before it, and at least 31 (the first release with
// emulation), as kube-controller-manager accepts.
func NewEmulated(v Version, emulatedMinor int, overrides map[Gate]bool) (Profile, error) {
	if err := v.Check(); err != nil {
		return Profile{}, err
	}
	if emulatedMinor > v.Minor || emulatedMinor < v.Minor-3 || emulatedMinor < 31 {
		return Profile{}, fmt.Errorf("emulated version v1.%d is out of range for %s (v1.%d to %s)", emulatedMinor, v.MinorString(), max(v.Minor-3, 31), v.MinorString())
	}
	where := v.MinorString()
	if emulatedMinor != v.Minor {
		where = fmt.Sprintf("v1.%d (emulated by %s)", emulatedMinor, v.MinorString())
	}
	return resolve(v, emulatedMinor, where, overrides)
}

// resolve applies the overrides to the gates of gateMinor (named where in
// errors) and derives v's switches from them.
func resolve(v Version, gateMinor int, where string, overrides map[Gate]bool) (Profile, error) {
	p := Profile{Version: v, Gates: map[Gate]bool{}}
	states := map[Gate]GateState{}
	for _, g := range GatesAt(gateMinor) {
		p.Gates[g.Name] = g.Enabled
		states[g.Name] = g
	}
	names := make([]string, 0, len(overrides))
	for n := range overrides {
		names = append(names, string(n))
	}
	sort.Strings(names)
	for _, n := range names {
		g, val := Gate(n), overrides[Gate(n)]
		st, ok := states[g]
		switch {
		case !ok && known(g):
			return Profile{}, fmt.Errorf("feature gate %s does not exist in %s (gates of %s: %s)", g, where, where, strings.Join(GateNamesAt(gateMinor), ", "))
		case !ok:
			return Profile{}, fmt.Errorf("unknown feature gate %q (gates of %s: %s)", g, where, strings.Join(GateNamesAt(gateMinor), ", "))
		case st.Stage.Locked && val != st.Stage.Default:
			return Profile{}, fmt.Errorf("feature gate %s is %s and locked to %t in %s", g, st.Stage.Level, st.Stage.Default, where)
		}
		p.Gates[g] = val
	}
	p.Switches = switchesFor(v.Minor, p.Gates)
	return p, nil
}

// Default returns the profile of version v with its default gates.
func Default(v Version) Profile {
	p, err := New(v, nil)
	if err != nil {
		panic(err)
	}
	return p
}

// NewestDefault returns the profile of NewestVersion with default gates.
func NewestDefault() Profile { return Default(Newest()) }

// switchesFor derives the switches of a minor with the given gates. Each
// line cites the upstream change (docs/versions.md has the details).
func switchesFor(minor int, gates map[Gate]bool) Switches {
	on := func(g Gate) bool { return gates[g] }
	s := Switches{
		// #123482 (GA in 1.30) removed the gate check from the controller.
		ContainerResourceMetrics: minor >= 30 || on(HPAContainerMetrics),
		// #130797 (1.33): per-direction tolerances and the interval test.
		AbsoluteTolerance: minor <= 32,
		BehaviorTolerance: minor >= 33 && on(HPAConfigurableTolerance),
		// #127193 (1.33): a missing container sample no longer fails the metric.
		MissingContainerSampleFails: minor <= 32,
		// 1.33: the Object AverageValue status names the object.
		ObjectAverageStatusNamesObject: minor >= 33,
		// 1.34: buildQuantity writes memory in BinarySI.
		MemoryStatusBinarySI: minor >= 34,
		// #132430 (1.34): pod-level requests.
		PodLevelRequests: minor >= 34 && on(PodLevelResources),
		// #132007 (1.34): RetryOnConflict around the scale update.
		RetryScaleUpdateOnConflict: minor >= 34,
		// #127050 (1.34): External AverageValue overflow caps.
		ExternalAverageCaps: minor >= 34,
		// 1.35: "container %s not found in Pod %s".
		NamedContainerRequired: minor >= 35,
		// #126979 (1.35): getUsageRatioReplicaCount capped at MaxInt32.
		UsageRatioReplicaCap: minor >= 35,
		// #133888 (1.35): External Value sum capped at MaxInt64.
		ExternalValueSumCap: minor >= 35,
		// #135118 (1.36): condition-based scale to zero.
		ScaleToZeroConditions: minor >= 36,
		ScaledToZero:          minor >= 36 && on(HPAScaleToZero),
		// #138228 (1.37): status.observedGeneration.
		ObservedGeneration: minor >= 37 && on(HPAGeneration),
		// #139142 (1.37): selector store and the reworded message.
		AmbiguousSelectorMoreThanOne: minor >= 37,
		// #139029 (1.37): error texts with %w.
		ObjectMetricErrorReordered: minor >= 37,
		// #138294 (1.37): immediate reconcile of new HPAs and spec changes.
		SyncOnSpecChange: minor >= 37,
	}
	if minor >= 37 && on(HPAOptimizedSelectorStore) {
		s.AmbiguousSelectorLimit = 2
	}
	return s
}

// NonDefaultGates lists the gates whose value differs from the version's
// default, as Name=bool.
func (p Profile) NonDefaultGates() []string {
	var out []string
	for _, g := range GatesAt(p.Version.Minor) {
		if p.Gates[g.Name] != g.Enabled {
			out = append(out, fmt.Sprintf("%s=%t", g.Name, p.Gates[g.Name]))
		}
	}
	return out
}
