// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package version holds the build's version information. The values are set
// at link time by `make build` (-ldflags -X); a plain `go build` or
// `go install` leaves the defaults below.
package version

// Version is the release version, or `git describe` output for a development build.
var Version = "dev"

// Commit is the full git commit the binary was built from.
var Commit = "unknown"

// Date is the commit date of that build, in RFC 3339 (UTC).
var Date = "unknown"
