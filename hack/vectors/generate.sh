#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Converts the upstream HPA controller's unit tests of one Kubernetes release
# into test vectors (pkg/engine/testdata/vectors/README.md describes them):
#
#   hack/vectors/generate.sh VERSION OUTDIR     e.g. v1.37.2 pkg/engine/testdata/vectors/v1.37.2
#
# 1. scratch.sh: a scratch module outside the repository (VECGEN_WORK, default
#    /tmp/vecgen-VERSION) that requires k8s.io/kubernetes@VERSION from the Go
#    module proxy, with a copy of its pkg/controller/podautoscaler package;
# 2. copies our hook (hook/vechook.go) into the copy and inserts the calls to it
#    with our instrument command (found by function name with go/parser; no
#    upstream line is changed, statements are only added);
# 3. runs the package's tests with -tags vectorhook: every hook writes the inputs
#    the code under test read and the test's own expected values; a test that
#    fails writes nothing, and the script fails if any upstream test fails;
# 4. assembles OUTDIR/<file>.json from the recorded lines with our assemble
#    command (ids from the test names) and prints the counts.
#
# Nothing from upstream is written into OUTDIR except the recorded data.
# Needs go. Heavy: the first run per version downloads and compiles
# k8s.io/kubernetes (several minutes on 2 cores); run it under nice.
set -euo pipefail

version=${1:?usage: generate.sh VERSION OUTDIR}
outdir=${2:?usage: generate.sh VERSION OUTDIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${VECGEN_WORK:-/tmp/vecgen-$version}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

"$here/scratch.sh" "$version" "$work"
sed 's|^//go:build ignore$|//go:build vectorhook|' "$here/hook/vechook.go" >"$work/podautoscaler/vechook.go"
grep -q '^//go:build vectorhook$' "$work/podautoscaler/vechook.go" || { echo "generate.sh: hook/vechook.go has no //go:build ignore line to rewrite" >&2; exit 1; }
(cd "$repo" && GOFLAGS= go run ./hack/vectors/instrument "$work/podautoscaler")

raw=$work/out
rm -rf "$raw"
mkdir -p "$raw"
# TestMultipleHPAs is a 1000-HPA throughput test with no per-HPA decision.
skip='^(TestMultipleHPAs)$'
echo "running the upstream tests of $version with the hooks (log: $work/test.log)"
set +e
(cd "$work" && VECTOR_OUT=$raw VECTOR_VERSION=$version GOFLAGS=-mod=mod go test -tags vectorhook -count=1 -timeout 30m -skip "$skip" -v ./podautoscaler/ >"$work/test.log" 2>&1)
status=$?
set -e
grep -E '^(--- FAIL|FAIL|ok)' "$work/test.log" || true
if [ $status -ne 0 ]; then
	echo "generate.sh: upstream tests failed with the hooks in (see $work/test.log)" >&2
	exit 1
fi

(cd "$repo" && GOFLAGS= go run ./hack/vectors/assemble "$raw" "$outdir")
