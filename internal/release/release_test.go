// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package release

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		s            string
		major        int
		minor, patch int
		syntax       bool
	}{
		{s: "1.32", major: 1, minor: 32, patch: -1},
		{s: "v1.32.13", major: 1, minor: 32, patch: 13},
		{s: "v1.32.13-eks-4096722", major: 1, minor: 32, patch: 13},
		{s: "v1.32.13+k3s1", major: 1, minor: 32, patch: 13},
		{s: "v2.21.0-rc1", major: 2, minor: 21, patch: 0},
		{s: "v2.21", major: 1, syntax: true},
		{s: "v11.2", major: 1, syntax: true},
		{s: "01.32", major: 1, syntax: true},
		{s: "1.32.x", major: 1, syntax: true},
		{s: "vv1.32", major: 1, syntax: true},
		{s: "", major: 1, syntax: true},
	} {
		minor, patch, err := Parse(tc.s, tc.major)
		switch {
		case tc.syntax:
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("Parse(%q, %d): %d %d %v, want ErrSyntax", tc.s, tc.major, minor, patch, err)
			}
		case err != nil || minor != tc.minor || patch != tc.patch:
			t.Errorf("Parse(%q, %d) = %d, %d, %v; want %d, %d", tc.s, tc.major, minor, patch, err, tc.minor, tc.patch)
		}
	}
	if _, _, err := Parse("1.99999999999999999999", 1); err == nil || errors.Is(err, ErrSyntax) {
		t.Errorf("an overflowing minor: %v, want a minor version error", err)
	}
	if got := String(1, 32, -1) + " " + String(2, 21, 0); got != "v1.32 v2.21.0" {
		t.Errorf("String: %s", got)
	}
}
