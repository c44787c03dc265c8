// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// SettingsOverrides are the controller settings given on the command line.
// A nil field (an empty map) was not given.
type SettingsOverrides struct {
	Tolerance               *float64
	CPUInitializationPeriod *time.Duration
	InitialReadinessDelay   *time.Duration
	DownscaleStabilization  *time.Duration
	SyncPeriod              *time.Duration
	// FeatureGates apply on top of the controller version's defaults.
	FeatureGates map[profile.Gate]bool
	// ControllerVersion is --controller-version.
	ControllerVersion *profile.Version
	// ScaleUpdateError makes the replay assume the scale update fails
	// (hidden flag; replays upstream's failure tests): not a setting of the
	// controller but what the API server answers, put into each snapshot's
	// Target (assume).
	ScaleUpdateError string
	// SkipValidation replays -f input the API server would refuse (hidden
	// flag; replays upstream's unit-test objects).
	SkipValidation bool
	// KEDAVersion is --keda-version: the KEDA release replayed for the
	// HPAs a ScaledObject owns ("": detected; checked by Overrides).
	KEDAVersion string
}

// Controller is what is known of the controller that runs the HPAs: found
// in the cluster (its version, its kube-controller-manager pod's flags and
// gates, fingerprints on the HPAs) or recorded in a snapshot. Nil fields
// are unknown.
type Controller struct {
	Version *profile.Version
	// VersionSource says where Version came from.
	VersionSource string

	// Gates are the gates the controller runs with, as far as known;
	// GatesSource says from where.
	Gates       map[profile.Gate]bool
	GatesSource string

	Tolerance               *float64
	CPUInitializationPeriod *time.Duration
	InitialReadinessDelay   *time.Duration
	DownscaleStabilization  *time.Duration
	SyncPeriod              *time.Duration
	// FlagsSource says where the flags above came from ("" when none is
	// known). FlagsRead says that they were read from the controller's own
	// command line: a flag it does not give is then at its default for
	// real, not by assumption.
	FlagsSource string
	FlagsRead   bool

	// Warnings say what could not be read or what looks inconsistent.
	Warnings []string
}

// ResolveSettings decides the controller settings of a replay, once, in one
// order for every setting: kube-controller-manager's defaults, then what is
// known of the controller (c, may be nil), then the command line (o).
//
// The version is --controller-version, else the controller's, else the
// newest supported (said to be assumed). The gates are the version's
// defaults, then the controller's, then --feature-gates. An unsupported
// version or an impossible gate is an error.
func ResolveSettings(c *Controller, o SettingsOverrides) (engine.Settings, error) {
	if c == nil {
		c = &Controller{}
	}
	s := engine.DefaultSettings()

	var in SettingsInput
	flag := in.flag(&in.ControllerVersion)
	version, versionSource := profile.Newest(), "the newest supported controller (assumed)"
	switch {
	case o.ControllerVersion != nil:
		version, versionSource = *o.ControllerVersion, flag
	case c.Version != nil:
		version, versionSource = *c.Version, c.VersionSource
	}
	if err := version.Check(); err != nil {
		return s, fmt.Errorf("%w (the version came from %s; pass %s to replay a supported one)", err, versionSource, flag)
	}
	gates := map[profile.Gate]bool{}
	var notes []string
	for g, v := range c.Gates {
		if _, ok := o.FeatureGates[g]; !ok {
			gates[g] = v
		}
	}
	if len(gates) > 0 {
		// The controller's gates are read at its own version; drop the ones
		// the replayed version does not know rather than fail.
		known := map[profile.Gate]bool{}
		for _, g := range profile.GatesAt(version.Minor) {
			known[g.Name] = true
		}
		for g := range gates {
			if !known[g] {
				delete(gates, g)
				notes = append(notes, string(g))
			}
		}
	}
	controllerGates := len(gates) > 0
	for g, v := range o.FeatureGates {
		gates[g] = v
	}
	p, err := profile.New(version, gates)
	if err != nil {
		if len(o.FeatureGates) == 0 && len(c.Gates) > 0 {
			return s, fmt.Errorf("the feature gates of %s: %w", c.GatesSource, err)
		}
		return s, err
	}
	s.Profile, s.VersionSource = p, versionSource

	var fromController, fromFlags bool
	pick := func(flag, controller *float64, dst *float64) {
		switch {
		case flag != nil:
			*dst, fromFlags = *flag, true
		case controller != nil:
			*dst, fromController = *controller, true
		}
	}
	pickDur := func(flag, controller *time.Duration, dst *time.Duration) {
		switch {
		case flag != nil:
			*dst, fromFlags = *flag, true
		case controller != nil:
			*dst, fromController = *controller, true
		}
	}
	pick(o.Tolerance, c.Tolerance, &s.Tolerance)
	pickDur(o.CPUInitializationPeriod, c.CPUInitializationPeriod, &s.CPUInitializationPeriod)
	pickDur(o.InitialReadinessDelay, c.InitialReadinessDelay, &s.InitialReadinessDelay)
	pickDur(o.DownscaleStabilization, c.DownscaleStabilization, &s.DownscaleStabilization)
	pickDur(o.SyncPeriod, c.SyncPeriod, &s.SyncPeriod)
	s.SyncPeriodAssumed = syncOrigin(c, o).Source == recording.OriginAssumed
	fromFlags = fromFlags || len(o.FeatureGates) > 0
	fromController = fromController || controllerGates

	var src []string
	switch {
	case c.FlagsSource != "":
		src = append(src, c.FlagsSource)
	case fromController && c.GatesSource != "":
		src = append(src, "kube-controller-manager defaults, with the feature gates of "+c.GatesSource)
	default:
		src = append(src, "kube-controller-manager defaults")
	}
	if fromFlags {
		src = append(src, "with the flags given here")
	}
	s.Source = strings.Join(src, ", ")
	if len(notes) > 0 {
		s.Source += fmt.Sprintf(" (%s ignored: not gates of %s)", strings.Join(notes, ", "), version.MinorString())
	}
	return s, nil
}

// assume puts into a snapshot what the overrides say the cluster answers
// beyond what was read: the error of the scale update (the hidden
// --assume-scale-update-error), which the snapshot's Target carries to
// every replay made from it.
func (o SettingsOverrides) assume(snap *engine.Snapshot) {
	snap.Target.UpdateError = o.ScaleUpdateError
}
