// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "5166abd4ee671416186f28b9bae3bf3a08f19329"},
		{Key: "vcs.time", Value: "2026-11-21T08:02:16Z"},
	}
	tests := []struct {
		name                string
		main                string
		settings            []debug.BuildSetting
		version, commit, dt string // stamped
		want                [3]string
	}{
		{"stamped values win", "v0.1.0", vcs, "v0.2.0", "abc", "2026-01-01T00:00:00Z", [3]string{"v0.2.0", "abc", "2026-01-01T00:00:00Z"}},
		{"go install pkg@version", "v0.1.0", nil, "dev", "unknown", "unknown", [3]string{"v0.1.0", "unknown", "unknown"}},
		{
			"go build in a checkout", "v0.0.0-20261121080216-5166abd4ee67+dirty", vcs, "dev", "unknown", "unknown",
			[3]string{"v0.0.0-20261121080216-5166abd4ee67+dirty", "5166abd4ee671416186f28b9bae3bf3a08f19329", "2026-11-21T08:02:16Z"},
		},
		{"go test or go run", "(devel)", nil, "dev", "unknown", "unknown", [3]string{"dev", "unknown", "unknown"}},
		{"no module version", "", nil, "dev", "unknown", "unknown", [3]string{"dev", "unknown", "unknown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/kubectl-hpa/kubectl-hpa", Version: tt.main}, Settings: tt.settings}
			v, c, d := fromBuildInfo(bi, tt.version, tt.commit, tt.dt)
			if got := [3]string{v, c, d}; got != tt.want {
				t.Errorf("fromBuildInfo = %q, want %q", got, tt.want)
			}
		})
	}
}
