#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# `make release-check` (part of `make test`): checks that kubectl-hpa ships.
#
#   1. goreleaser check: .goreleaser.yaml is valid for the pinned goreleaser;
#   2. goreleaser release --snapshot --clean: the six archives of the work tree
#      (linux, darwin, windows x amd64, arm64) in dist/, with checksums.txt;
#   3. the release that krew/release.env names is rebuilt from its commit in a
#      throwaway clone (hack/release/lib.sh: build_release), to check the sums
#      in krew/checksums.txt and krew/hpa.yaml;
#   4. go test ./hack/release/releasecheck, which inspects the archives and
#      binaries, checks krew/hpa.yaml is what rendering gives, runs krew's own
#      validator on it and on a snapshot manifest (installing every platform
#      from a file server on 127.0.0.1), installs the snapshot and the release
#      with `kubectl krew install --manifest --archive` into temporary
#      KREW_ROOTs, with no network, and runs `kubectl hpa version` and the
#      completion helper through kubectl.
#
# Tools (goreleaser, krew, validate-krew-manifest) come from hack/tools.sh,
# built from the Go module proxy on first use. kubectl must be on PATH.
set -euo pipefail
# shellcheck source=hack/release/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

total=$(now)
command -v kubectl >/dev/null 2>&1 ||
	die "kubectl is not on PATH: the krew install check runs the plugin through kubectl"

t=$(now)
tool goreleaser >/dev/null
krew=$(tool kubectl-krew)
validator=$(tool validate-krew-manifest)
log "tools ready in $(elapsed "$t")"

"$RELEASE_DIR/snapshot.sh"

# A work directory other than make krew-manifest's, so that every run also
# shows the archives do not depend on where they are built.
read_release
RELEASE_WORK=$REPO_ROOT/_output/release-check
release_dist=$RELEASE_WORK/release-dist
build_release "$KREW_RELEASE" "$KREW_RELEASE_COMMIT" "$release_dist"

t=$(now)
log "go test ./hack/release/releasecheck"
KUBECTL_HPA_RELEASE_CHECK=1 \
	RELEASE_CHECK_SNAPSHOT_DIST=$REPO_ROOT/dist \
	RELEASE_CHECK_RELEASE_DIST=$release_dist \
	RELEASE_CHECK_KREW=$krew \
	RELEASE_CHECK_VALIDATOR=$validator \
	go test -count=1 -v ./hack/release/releasecheck/
log "release checks passed in $(elapsed "$t")"
rm -rf "$RELEASE_WORK"
log "release-check passed in $(elapsed "$total")"
