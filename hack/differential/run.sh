#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Runs the differential test (test/differential) against one Kubernetes
# controller version:
#
#   hack/differential/run.sh VERSION [go test flags...]
#   e.g. hack/differential/run.sh v1.29.15 -v
#
# Builds (or reuses) that version's oracle with oracle.sh, then runs every
# test of test/differential that compares the engine with the oracle
# (TestOracleVersion, TestVersionMismatchDetected, TestUpstreamVectors,
# TestEngineVectors, TestGeneratorCoverage, TestDifferential,
# TestDifferentialReconcile and FuzzEvaluate's seed corpus); the engine
# replays profile.Default(VERSION). TestValidationParity is not version
# dependent (it runs in process at v1.37.2) and is left out.
#
# Environment: DIFF_CASES (calculator cases, default 100000),
# DIFF_RECONCILE_CASES (controller cases, default 10000), DIFF_SEED (first
# seed, default 1), DIFF_SHOW, DIFF_OUT, DIFF_KLOG (see test/differential/README.md),
# GO (the go command).
set -euo pipefail

version=${1:?usage: run.sh VERSION [go test flags...]}
shift
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
go=${GO:-go}

start=$(date +%s)
oracle=$("$root/hack/differential/oracle.sh" "$version")
echo "differential $version: oracle $oracle ready in $(($(date +%s) - start))s"
cd "$root/test/differential"
export DIFF_VERSION=$version DIFF_ORACLE=$oracle
set -x
"$go" test -count=1 -timeout 120m -skip '^TestValidationParity$' "$@" .
