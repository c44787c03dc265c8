// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"errors"
	"fmt"

	"github.com/kubectl-hpa/kubectl-hpa/internal/release"
)

// NewestVersion is the newest KEDA release replayed, and the one assumed
// when nothing says otherwise.
const NewestVersion = "v2.21.0"

// Supported minors of the 2.x line (2.MinMinor to 2.MaxMinor).
const (
	MinMinor = 20
	MaxMinor = 21
)

// provenPatches is, per supported minor, the release whose sources and unit
// tests the replay is proven against (the newest patch the Go module proxy
// serves; testdata/vectors/README.md says how).
var provenPatches = map[int]int{20: 2, 21: 0}

// Version is a KEDA release of the 2.x line. Patch is -1 when only the
// minor is known.
type Version struct {
	Minor int
	Patch int
}

// ParseVersion reads "2.21", "v2.21" or "v2.21.0". It does not check that
// the version is supported (see Check).
func ParseVersion(s string) (Version, error) {
	minor, patch, err := release.Parse(s, 2)
	if errors.Is(err, release.ErrSyntax) {
		return Version{}, fmt.Errorf("%q is not a KEDA version (like 2.21, v2.21 or v2.21.0)", s)
	}
	if err != nil {
		return Version{}, err
	}
	return Version{Minor: minor, Patch: patch}, nil
}

// MustParseVersion is ParseVersion for constants; it panics on a malformed
// version.
func MustParseVersion(s string) Version {
	v, err := ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

// Newest returns NewestVersion.
func Newest() Version { return MustParseVersion(NewestVersion) }

// String prints v2.MINOR or v2.MINOR.PATCH.
func (v Version) String() string {
	return release.String(2, v.Minor, v.Patch)
}

// IsZero reports whether v was never set.
func (v Version) IsZero() bool { return v.Minor == 0 && v.Patch == 0 }

// Check returns an error naming the supported range when v's minor is not
// replayed.
func (v Version) Check() error {
	if v.Minor < MinMinor || v.Minor > MaxMinor {
		return fmt.Errorf("KEDA version %s is not supported: kubectl-hpa replays KEDA v2.%d to v2.%d", v, MinMinor, MaxMinor)
	}
	return nil
}

// Proven returns the release of v's minor the replay is proven against.
func (v Version) Proven() Version { return Version{Minor: v.Minor, Patch: provenPatches[v.Minor]} }

// SupportedVersions lists the proven release of every supported minor,
// oldest first.
func SupportedVersions() []Version {
	out := make([]Version, 0, MaxMinor-MinMinor+1)
	for m := MinMinor; m <= MaxMinor; m++ {
		out = append(out, Version{Minor: m, Patch: provenPatches[m]})
	}
	return out
}

// Switches are the differences between KEDA releases that change a replay.
// Each field is one change, found by diffing the releases' sources; the
// replay reads only these, so a test can flip one and see that it matters.
type Switches struct {
	// HPAObservations: v2.21+ let the polling loop reuse what the HPA's
	// last metric request observed instead of querying the triggers, when
	// polling is not relevant (minReplicaCount ≥ 1, no idleReplicaCount, no
	// useCachedMetrics, no scalingModifiers) and the HPA's ScalingActive
	// condition is True (ScaledObject.UsesHPAObservations and
	// scaleHandler.hpaActivelyQuerying). The loop then counts no failure
	// of its own: only the HPA's requests move status.health.
	HPAObservations bool
	// ScaleErrorSetsReady: v2.21+ set Ready=False (ErrorScalingTarget) when
	// KEDA's own scale update fails; v2.20 only record an event.
	ScaleErrorSetsReady bool
	// MetricsAPIAuthModesRestricted: v2.21+ reject a metrics-api trigger
	// whose authModes name a mode the scaler never applies (custom, oauth);
	// v2.20 accept and ignore them.
	MetricsAPIAuthModesRestricted bool
}

// Switches returns the switches of v's minor.
func (v Version) Switches() Switches {
	return Switches{
		// 2.21: scale_handler.go hpaObservedRecord, ScaledObject.UsesHPAObservations.
		HPAObservations: v.Minor >= 21,
		// 2.21: scale_scaledobjects.go sets result.Error and Ready=False.
		ScaleErrorSetsReady: v.Minor >= 21,
		// 2.21: metricsAPIScalerMetadata.Validate calls Config.ValidateAllowed.
		MetricsAPIAuthModesRestricted: v.Minor >= 21,
	}
}
