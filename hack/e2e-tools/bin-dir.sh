#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Prints the directory that holds (or will hold) the e2e tool binaries for the
# current pins and KUBE_VERSION (default: lib.sh), without building anything.
# With --check, exits 1 and names the missing binaries if the directory is
# incomplete.
set -euo pipefail
# shellcheck source=hack/e2e-tools/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_select_version || exit 1

dir=$(e2e_bin_dir)
if [ "${1:-}" = --check ]; then
	missing=$(e2e_missing "$dir")
	if [ -n "$missing" ]; then
		echo "e2e binaries missing in $dir:" $missing "(run hack/e2e-tools/build.sh or make e2e-tools)" >&2
		exit 1
	fi
fi
echo "$dir"
