// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"fmt"
	"maps"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// upstreamVersion is the controller this module requires
// (k8s.io/kubernetes): the engine replays that version here.
var upstreamVersion = profile.MustParse("v1.36.3")

// upstreamSettings are kube-controller-manager's defaults, replaying
// upstreamVersion with its default gates.
func upstreamSettings() engine.Settings {
	set := engine.DefaultSettings()
	set.Profile = profile.Default(upstreamVersion)
	return set
}

// withGates returns the profile of upstreamVersion with gates set on top
// of its current gates.
func withGates(p profile.Profile, gates map[profile.Gate]bool) profile.Profile {
	all := maps.Clone(p.Gates)
	if all == nil {
		all = map[profile.Gate]bool{}
	}
	maps.Copy(all, gates)
	np, err := profile.New(upstreamVersion, all)
	if err != nil {
		panic(fmt.Sprintf("gates %v at %s: %v", gates, upstreamVersion, err))
	}
	return np
}

// setGate sets one gate of the settings' profile.
func setGate(set *engine.Settings, g profile.Gate, on bool) {
	set.Profile = withGates(set.Profile, map[profile.Gate]bool{g: on})
}
