// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package release reads and prints the release numbers kubectl-hpa
// replays: the HPA controller's Kubernetes 1.x (pkg/profile) and KEDA's
// 2.x (pkg/keda). Each of those keeps its own Version type, range and
// messages; the syntax is one, here, where both can import it.
package release

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
)

// ErrSyntax is the error of a string that is not a version of the major
// asked for; callers word it for their product.
var ErrSyntax = errors.New("not a version")

// versionRE accepts MAJOR.MINOR and MAJOR.MINOR.PATCH with an optional
// leading v and any suffix after - or + (v1.32.13-eks-4096722,
// v1.32.13+k3s1, v2.21.0-rc1).
var versionRE = regexp.MustCompile(`^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$`)

// Parse reads a version of major: its minor, and its patch (-1 when only
// the minor is given). A string of another form or major is ErrSyntax.
func Parse(s string, major int) (minor, patch int, err error) {
	m := versionRE.FindStringSubmatch(s)
	if len(m) != 4 || m[1] != strconv.Itoa(major) {
		return 0, 0, ErrSyntax
	}
	if minor, err = strconv.Atoi(m[2]); err != nil {
		return 0, 0, fmt.Errorf("%q: minor version: %w", s, err)
	}
	patch = -1
	if m[3] != "" {
		if patch, err = strconv.Atoi(m[3]); err != nil {
			return 0, 0, fmt.Errorf("%q: patch version: %w", s, err)
		}
	}
	return minor, patch, nil
}

// String prints vMAJOR.MINOR, or vMAJOR.MINOR.PATCH when patch ≥ 0.
func String(major, minor, patch int) string {
	if patch < 0 {
		return "v" + strconv.Itoa(major) + "." + strconv.Itoa(minor)
	}
	return "v" + strconv.Itoa(major) + "." + strconv.Itoa(minor) + "." + strconv.Itoa(patch)
}
