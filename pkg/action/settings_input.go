// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// Maxima of the settings flags (docs/reliability.md, "Bounds"). Above them a
// replay means nothing, and a whatif projection would keep a history that
// grows with every sync.
const (
	// MaxTolerance bounds --tolerance (1 is already ±100%).
	MaxTolerance = 100.0
	// MaxSettingDuration bounds --cpu-initialization-period,
	// --initial-readiness-delay and --downscale-stabilization.
	MaxSettingDuration = 24 * time.Hour
	// MaxSyncPeriod bounds --sync-period.
	MaxSyncPeriod = time.Hour
)

// SettingsInput is the kube-controller-manager settings a user gives (the
// flags and arguments of SettingsRows): its version, its feature gates
// and its --horizontal-pod-autoscaler-* flags. A nil field is not given:
// what is detected stands. Overrides checks them.
type SettingsInput struct {
	Tolerance               *float64
	CPUInitializationPeriod *time.Duration
	InitialReadinessDelay   *time.Duration
	DownscaleStabilization  *time.Duration
	SyncPeriod              *time.Duration
	FeatureGates            string
	ControllerVersion       string
	// AssumeScaleUpdateError makes the replay assume the scale UPDATE fails
	// with this message (hidden; used to replay upstream's failure tests).
	AssumeScaleUpdateError string
	// SkipValidation replays -f input the API server would refuse (hidden;
	// used to replay upstream's unit-test objects, which never met one).
	SkipValidation bool
	// KEDAVersion is the KEDA release ("": detected from KEDA's operator).
	KEDAVersion string
}

// flag names the option that sets field, for a message.
func (in *SettingsInput) flag(field any) string { return SettingsRows.Named(in, field).Flag() }

// Overrides checks the values against their bounds and returns the
// settings the user gave.
func (in SettingsInput) Overrides() (SettingsOverrides, error) {
	var o SettingsOverrides
	if t := in.Tolerance; t != nil {
		switch {
		case *t < 0:
			return o, fmt.Errorf("%s must not be negative, got %v", in.flag(&in.Tolerance), *t)
		case !(*t <= MaxTolerance): // also refuses NaN
			return o, fmt.Errorf("%s must be a number between 0 and %v, got %v", in.flag(&in.Tolerance), MaxTolerance, *t)
		}
		o.Tolerance = t
	}
	for _, d := range []struct {
		field **time.Duration
		limit time.Duration
		dst   **time.Duration
	}{
		{&in.CPUInitializationPeriod, MaxSettingDuration, &o.CPUInitializationPeriod},
		{&in.InitialReadinessDelay, MaxSettingDuration, &o.InitialReadinessDelay},
		{&in.DownscaleStabilization, MaxSettingDuration, &o.DownscaleStabilization},
		{&in.SyncPeriod, MaxSyncPeriod, &o.SyncPeriod},
	} {
		v := *d.field
		switch {
		case v == nil:
			continue
		case *v < 0:
			return o, fmt.Errorf("%s must not be negative, got %v", in.flag(d.field), *v)
		case *v > d.limit:
			return o, fmt.Errorf("%s must be at most %v, got %v", in.flag(d.field), d.limit, *v)
		}
		*d.dst = v
	}
	if p := in.SyncPeriod; p != nil && *p <= 0 {
		return o, fmt.Errorf("%s must be positive, got %v", in.flag(&in.SyncPeriod), *p)
	}
	gates, err := profile.ParseGates(in.FeatureGates)
	if err != nil {
		return o, fmt.Errorf("%s: %w", in.flag(&in.FeatureGates), err)
	}
	if len(gates) > 0 {
		o.FeatureGates = gates
	}
	if in.ControllerVersion != "" {
		v, err := profile.Parse(in.ControllerVersion)
		if err != nil {
			return o, fmt.Errorf("%s: %w", in.flag(&in.ControllerVersion), err)
		}
		if err := v.Check(); err != nil {
			return o, err
		}
		o.ControllerVersion = &v
		// With the version given, impossible gates fail now; otherwise
		// once the version is detected.
		if _, err := profile.New(v, o.FeatureGates); err != nil {
			return o, err
		}
	}
	if in.KEDAVersion != "" {
		if _, _, _, err := kedaVersion(in.KEDAVersion); err != nil {
			return o, err
		}
		o.KEDAVersion = in.KEDAVersion
	}
	o.ScaleUpdateError = in.AssumeScaleUpdateError
	o.SkipValidation = in.SkipValidation
	return o, nil
}
