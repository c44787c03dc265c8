#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Writes krew/hpa.yaml, the krew manifest of a release, and what it is made from:
#
#   hack/release/krew-manifest.sh [TAG [COMMIT]]     (make krew-manifest)
#
# TAG and COMMIT default to those in krew/release.env (re-render the current
# release, e.g. after a change to plugin.yaml); COMMIT defaults to the commit
# TAG points at, or HEAD. It rebuilds the release's archives reproducibly from
# COMMIT with the Go toolchain on PATH (hack/release/lib.sh: build_release),
# then writes krew/release.env (tag, commit, Go version), krew/checksums.txt
# (goreleaser's, for those archives) and krew/hpa.yaml (plugin.yaml rendered
# with them). `make release-check` repeats the build and fails if any of the
# three would change.
set -euo pipefail
# shellcheck source=hack/release/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

tag=${1:-}
commit=${2:-}
if [ -z "$tag" ]; then
	read_release
	tag=$KREW_RELEASE
	commit=${commit:-$KREW_RELEASE_COMMIT}
fi
if [ -z "$commit" ]; then
	commit=$(git rev-parse --verify --quiet "refs/tags/$tag^{commit}" || git rev-parse HEAD)
fi
commit=$(git rev-parse --verify "$commit^{commit}")
[[ $tag =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || die "tag $tag is not vMAJOR.MINOR.PATCH"

out=$RELEASE_WORK/krew-manifest
build_release "$tag" "$commit" "$out"

mkdir -p krew
{
	echo "# The release that krew/hpa.yaml describes: its tag, the commit its archives"
	echo "# are built from, and the Go toolchain they were built with. Written by"
	echo "# \`make krew-manifest\`; see hack/release/README.md."
	echo "KREW_RELEASE=$tag"
	echo "KREW_RELEASE_COMMIT=$commit"
	echo "KREW_RELEASE_GO=$(go env GOVERSION)"
} >krew/release.env
cp "$out/checksums.txt" krew/checksums.txt
go run ./hack/release/krew-manifest -release krew/release.env -checksums krew/checksums.txt -o krew/hpa.yaml
rm -rf "$out"
log "wrote krew/release.env, krew/checksums.txt and krew/hpa.yaml for $tag (commit $commit)"
