// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package profile says which HorizontalPodAutoscaler controller a replay
// follows: a Kubernetes version between v1.29 and v1.37, the feature gates in
// force, and the behaviour switches that follow from both.
//
// It is the one place that knows what changed between controller versions.
// The engine reads Switches and never a version string; the flag parser, the
// kube-controller-manager detector and the output read the gate table here.
// docs/versions.md describes every switch with the upstream change behind it,
// and how to add the next version.
package profile

import (
	"errors"
	"fmt"

	"github.com/kubectl-hpa/kubectl-hpa/internal/release"
)

// NewestVersion is the newest controller version kubectl-hpa replays, and
// the one it assumes when nothing says otherwise.
const NewestVersion = "v1.37.2"

// Supported minors (1.MinMinor to 1.MaxMinor).
const (
	MinMinor = 29
	MaxMinor = 37
)

// provenPatches is, per supported minor, the newest patch release whose
// upstream tests and code the replay is proven against (the newest patch
// the Go module proxy serves; see docs/parity.md).
var provenPatches = map[int]int{
	29: 15, 30: 14, 31: 14, 32: 13, 33: 13, 34: 4, 35: 4, 36: 3, 37: 2,
}

// Version is a Kubernetes version of the 1.x line. Patch is -1 when only the
// minor is known.
type Version struct {
	Minor int
	Patch int
}

// Newest returns NewestVersion.
func Newest() Version { return MustParse(NewestVersion) }

// Parse reads a version such as "1.32", "v1.32" or "v1.32.13". It does not
// check that the version is supported (see Check).
func Parse(s string) (Version, error) {
	minor, patch, err := release.Parse(s, 1)
	if errors.Is(err, release.ErrSyntax) {
		return Version{}, fmt.Errorf("%q is not a Kubernetes version (like 1.32, v1.32 or v1.32.13)", s)
	}
	if err != nil {
		return Version{}, err
	}
	return Version{Minor: minor, Patch: patch}, nil
}

// MustParse is Parse for constants; it panics on a malformed version.
func MustParse(s string) Version {
	v, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return v
}

// String prints v1.MINOR or v1.MINOR.PATCH.
func (v Version) String() string {
	return release.String(1, v.Minor, v.Patch)
}

// MinorString prints v1.MINOR.
func (v Version) MinorString() string { return fmt.Sprintf("v1.%d", v.Minor) }

// IsZero reports whether v was never set.
func (v Version) IsZero() bool { return v.Minor == 0 }

// AtLeast reports whether v is minor 1.m or newer.
func (v Version) AtLeast(m int) bool { return v.Minor >= m }

// Check returns an error naming the supported range when v's minor is not
// replayed.
func (v Version) Check() error {
	if v.Minor < MinMinor || v.Minor > MaxMinor {
		return fmt.Errorf("controller version %s is not supported: kubectl-hpa replays the HPA controller of v1.%d to v1.%d", v, MinMinor, MaxMinor)
	}
	return nil
}

// Proven returns the patch release of v's minor that the replay is proven
// against (v1.36 → v1.36.3).
func (v Version) Proven() Version {
	return Version{Minor: v.Minor, Patch: provenPatches[v.Minor]}
}

// Supported lists the proven release of every supported minor, oldest first.
func Supported() []Version {
	out := make([]Version, 0, MaxMinor-MinMinor+1)
	for m := MinMinor; m <= MaxMinor; m++ {
		out = append(out, Version{Minor: m, Patch: provenPatches[m]})
	}
	return out
}
