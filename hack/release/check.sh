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
#   4. the container image (.goreleaser.yaml's kos) of HEAD is built by
#      goreleaser's ko pipe, as a release builds it (lib.sh: build_image): a
#      non-snapshot release with a throwaway tag in a throwaway clone, on a
#      stand-in base image (hack/release/image-base: the configured base's
#      registry is out of reach), pushed to crane's in-memory registry on
#      127.0.0.1, together with the linux archives of the same run;
#   5. go test ./hack/release/releasecheck, which inspects the archives and
#      binaries, checks krew/hpa.yaml is what rendering gives, runs krew's own
#      validator on it and on a snapshot manifest (installing every platform
#      from a file server on 127.0.0.1), installs the snapshot and the release
#      with `kubectl krew install --manifest --archive` into temporary
#      KREW_ROOTs, with no network, and runs `kubectl hpa version` and the
#      completion helper through kubectl; and reads the image back from the
#      registry: its platforms, layers, files (modes, owners), entrypoint,
#      user and environment, its SBOMs, its binary byte for byte the archive's,
#      and runs that binary (`kubectl-hpa version`, also as the image's
#      entrypoint in a root of the image's files, as its user).
#
# The registry is stopped, and the image's clone removed, when the script
# exits, however it exits.
#
# Tools (goreleaser, krew, validate-krew-manifest, crane) come from
# hack/tools.sh, built from the Go module proxy on first use. kubectl must be
# on PATH.
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
tool crane >/dev/null
log "tools ready in $(elapsed "$t")"

"$RELEASE_DIR/snapshot.sh"

# A work directory other than make krew-manifest's, so that every run also
# shows the archives do not depend on where they are built.
read_release
RELEASE_WORK=$REPO_ROOT/_output/release-check
release_dist=$RELEASE_WORK/release-dist
build_release "$KREW_RELEASE" "$KREW_RELEASE_COMMIT" "$release_dist"

trap image_cleanup EXIT
image_dist=$RELEASE_WORK/image-dist
build_image "$image_dist"

t=$(now)
log "go test ./hack/release/releasecheck"
KUBECTL_HPA_RELEASE_CHECK=1 \
	RELEASE_CHECK_SNAPSHOT_DIST=$REPO_ROOT/dist \
	RELEASE_CHECK_RELEASE_DIST=$release_dist \
	RELEASE_CHECK_KREW=$krew \
	RELEASE_CHECK_VALIDATOR=$validator \
	RELEASE_CHECK_IMAGE_DIST=$image_dist \
	RELEASE_CHECK_IMAGE_REPO=$IMAGE_REPO \
	RELEASE_CHECK_IMAGE_BASE=$IMAGE_BASE \
	RELEASE_CHECK_IMAGE_CA_BUNDLE=$IMAGE_CA_BUNDLE \
	go test -count=1 -v ./hack/release/releasecheck/
log "release checks passed in $(elapsed "$t")"
image_cleanup
rm -rf "$RELEASE_WORK"
log "release-check passed in $(elapsed "$total")"
