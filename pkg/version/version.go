// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package version holds the build's version information. The values are set
// at link time (-ldflags -X) by `make build` and by goreleaser
// (.goreleaser.yaml), which stamp the same three. A build without them, such
// as `go install ...@v0.1.0`, takes what the Go toolchain recorded in the
// binary instead: the module version and, for a build in a git checkout, the
// commit and its date. Otherwise the defaults below stay.
package version

import (
	"runtime"
	"runtime/debug"
)

// Version is the release version, or `git describe` output for a development build.
var Version = "dev"

// Commit is the full git commit the binary was built from.
var Commit = "unknown"

// Date is the commit date of that build, in RFC 3339 (UTC).
var Date = "unknown"

func init() {
	if bi, ok := debug.ReadBuildInfo(); ok {
		Version, Commit, Date = fromBuildInfo(bi, Version, Commit, Date)
	}
}

// fromBuildInfo fills in the values that were not stamped from the build
// information the Go toolchain records.
func fromBuildInfo(bi *debug.BuildInfo, version, commit, date string) (v, c, d string) {
	v, c, d = version, commit, date
	if v == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision" && c == "unknown" && s.Value != "":
			c = s.Value
		case s.Key == "vcs.time" && d == "unknown" && s.Value != "":
			d = s.Value
		}
	}
	return v, c, d
}

// Info is the build information `kubectl hpa version -o json|yaml` prints.
type Info struct {
	// Version is the release version, or `git describe` output for a
	// development build.
	Version string `json:"version"`
	// Commit is the full git commit the binary was built from.
	Commit string `json:"commit"`
	// Date is the commit date of the build, in RFC 3339 (UTC).
	Date string `json:"date"`
	// GoVersion is the Go toolchain that built the binary.
	GoVersion string `json:"goVersion"`
	// Platform is the binary's OS/architecture, like linux/amd64.
	Platform string `json:"platform"`
}

// Get returns the build information of this binary.
func Get() Info {
	return Info{
		Version: Version, Commit: Commit, Date: Date,
		GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
}
