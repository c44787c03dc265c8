// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
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

// KEDAVersionHelp describes --keda-version.
var KEDAVersionHelp = fmt.Sprintf("KEDA release to replay for HPAs a ScaledObject owns, like 2.21 or v2.20.2 (default: detected from KEDA's operator, else %s)", keda.NewestVersion)

// SettingsInput is the kube-controller-manager settings as the command line
// gives them: its version, its feature gates and its
// --horizontal-pod-autoscaler-* flags. Overrides checks them; only the
// flags named in Given override what is detected.
type SettingsInput struct {
	Tolerance               float64
	CPUInitializationPeriod time.Duration
	InitialReadinessDelay   time.Duration
	DownscaleStabilization  time.Duration
	SyncPeriod              time.Duration
	FeatureGates            string
	ControllerVersion       string
	// AssumeScaleUpdateError makes the replay assume the scale UPDATE fails
	// with this message (hidden; used to replay upstream's failure tests).
	AssumeScaleUpdateError string
	// SkipValidation replays -f input the API server would refuse (hidden;
	// used to replay upstream's unit-test objects, which never met one).
	SkipValidation bool
	// KEDAVersion is --keda-version ("": detected from KEDA's operator).
	KEDAVersion string
	// Given holds the names of the flags set on the command line
	// ("tolerance", "sync-period", ...).
	Given map[string]bool
}

// DefaultSettingsInput returns kube-controller-manager's defaults, the
// default values of the flags.
func DefaultSettingsInput() SettingsInput {
	d := engine.DefaultSettings()
	return SettingsInput{
		Tolerance:               d.Tolerance,
		CPUInitializationPeriod: d.CPUInitializationPeriod,
		InitialReadinessDelay:   d.InitialReadinessDelay,
		DownscaleStabilization:  d.DownscaleStabilization,
		SyncPeriod:              d.SyncPeriod,
	}
}

// Overrides checks the values against their bounds and returns the
// settings the user gave.
func (in SettingsInput) Overrides() (SettingsOverrides, error) {
	var o SettingsOverrides
	switch {
	case in.Tolerance < 0:
		return o, fmt.Errorf("--tolerance must not be negative, got %v", in.Tolerance)
	case !(in.Tolerance <= MaxTolerance): // also refuses NaN
		return o, fmt.Errorf("--tolerance must be a number between 0 and %v, got %v", MaxTolerance, in.Tolerance)
	}
	for _, d := range []struct {
		flag  string
		v     time.Duration
		limit time.Duration
		dst   **time.Duration
	}{
		{"cpu-initialization-period", in.CPUInitializationPeriod, MaxSettingDuration, &o.CPUInitializationPeriod},
		{"initial-readiness-delay", in.InitialReadinessDelay, MaxSettingDuration, &o.InitialReadinessDelay},
		{"downscale-stabilization", in.DownscaleStabilization, MaxSettingDuration, &o.DownscaleStabilization},
		{"sync-period", in.SyncPeriod, MaxSyncPeriod, &o.SyncPeriod},
	} {
		if d.v < 0 {
			return o, fmt.Errorf("--%s must not be negative, got %v", d.flag, d.v)
		}
		if d.v > d.limit {
			return o, fmt.Errorf("--%s must be at most %v, got %v", d.flag, d.limit, d.v)
		}
		if in.Given[d.flag] {
			v := d.v
			*d.dst = &v
		}
	}
	if in.SyncPeriod <= 0 {
		return o, fmt.Errorf("--sync-period must be positive, got %v", in.SyncPeriod)
	}
	if in.Given["tolerance"] {
		v := in.Tolerance
		o.Tolerance = &v
	}
	gates, err := profile.ParseGates(in.FeatureGates)
	if err != nil {
		return o, fmt.Errorf("--feature-gates: %w", err)
	}
	if len(gates) > 0 {
		o.FeatureGates = gates
	}
	if in.ControllerVersion != "" {
		v, err := profile.Parse(in.ControllerVersion)
		if err != nil {
			return o, fmt.Errorf("--controller-version: %w", err)
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
