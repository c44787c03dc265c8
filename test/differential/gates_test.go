// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"fmt"
	"maps"
	"os"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// defaultVersion is the controller version replayed when DIFF_VERSION is not
// set: the one this module's own graph holds (k8s.io/kubernetes in go.mod).
const defaultVersion = "v1.37.2"

// upstreamVersion is the controller the oracle runs ($DIFF_VERSION): the
// engine replays that version here.
var upstreamVersion = func() profile.Version {
	v := os.Getenv("DIFF_VERSION")
	if v == "" {
		v = defaultVersion
	}
	return profile.MustParse(v)
}()

// upstreamSettings are kube-controller-manager's defaults, replaying
// upstreamVersion with its default gates.
func upstreamSettings() engine.Settings {
	set := engine.DefaultSettings()
	set.Profile = profile.Default(upstreamVersion)
	return set
}

// gateSettable reports whether a gate exists in the profile's version and
// is not locked there (only those can be switched).
func gateSettable(v profile.Version, g profile.Gate) bool {
	for _, s := range profile.GatesAt(v.Minor) {
		if s.Name == g {
			return !s.Stage.Locked
		}
	}
	return false
}

// withGates returns the profile of upstreamVersion with gates set on top
// of its current gates. Gates that do not exist in upstreamVersion, or are
// locked there, are left out.
func withGates(p profile.Profile, gates map[profile.Gate]bool) profile.Profile {
	all := maps.Clone(p.Gates)
	if all == nil {
		all = map[profile.Gate]bool{}
	}
	for g, on := range gates {
		if gateSettable(upstreamVersion, g) {
			all[g] = on
		}
	}
	np, err := profile.New(upstreamVersion, all)
	if err != nil {
		panic(fmt.Sprintf("gates %v at %s: %v", gates, upstreamVersion, err))
	}
	return np
}

// setGate sets one gate of the settings' profile (when upstreamVersion has
// it and it is not locked).
func setGate(set *engine.Settings, g profile.Gate, on bool) {
	set.Profile = withGates(set.Profile, map[profile.Gate]bool{g: on})
}
