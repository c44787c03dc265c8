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
log "goreleaser release --snapshot --clean (dist/)"
dirty=
if [ -n "$(git status --porcelain 2>/dev/null)" ]; then dirty=1; fi
KUBECTL_HPA_DIRTY=$dirty goreleaser_in "$REPO_ROOT" release --snapshot --clean --parallelism "$GORELEASER_PARALLELISM"
log "snapshot built in $(elapsed "$t"): $(ls dist/*.tar.gz dist/*.zip | wc -l) archives, dist/checksums.txt"
