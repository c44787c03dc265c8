#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# `make release-snapshot`: validates .goreleaser.yaml and builds the release
# archives of the work tree (uncommitted changes included) into dist/, as
# version v<next patch>-snapshot-<commit>[.dirty]. Nothing is published.
set -euo pipefail
# shellcheck source=hack/release/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

log "goreleaser check"
goreleaser_in "$REPO_ROOT" check
t=$(now)
log "goreleaser release --snapshot --clean (dist/; platforms: $RELEASE_CHECK_PLATFORMS)"
dirty=
if [ -n "$(git status --porcelain 2>/dev/null)" ]; then dirty=1; fi
config=$(goreleaser_config "$REPO_ROOT")
# shellcheck disable=SC2086 # $config is one flag or nothing
KUBECTL_HPA_DIRTY=$dirty goreleaser_in "$REPO_ROOT" release --snapshot --clean --parallelism "$GORELEASER_PARALLELISM" $config
log "snapshot built in $(elapsed "$t"): $(ls dist/*.tar.gz dist/*.zip 2>/dev/null | wc -l) archives, dist/checksums.txt"
