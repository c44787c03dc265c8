#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Prints the path of the Chromium the HTML report's browser test runs
# (test/browser, make test-browser): the one on PATH, else Debian's
# chromium package, installed here (as root, through apt-get; the package
# lists are refreshed only when the install cannot find it). Quiet: apt's
# output goes to a log, shown only when the install fails. Nothing is done
# when chromium is there.
set -euo pipefail
for name in chromium chromium-browser; do
	if p=$(command -v "$name" 2>/dev/null); then
		echo "$p"
		exit 0
	fi
done
if [ "$(id -u)" != 0 ]; then
	echo "chromium.sh: no chromium on PATH, and installing Debian's (apt-get install chromium) needs root" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "chromium.sh: no chromium on PATH and no apt-get to install it with" >&2
	exit 1
fi
log=$(mktemp "${TMPDIR:-/tmp}/chromium-install.XXXXXX")
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q chromium >"$log" 2>&1; then
	if ! { apt-get update -q && apt-get install -y -q chromium; } >>"$log" 2>&1; then
		cat "$log" >&2
		echo "chromium.sh: apt-get install chromium failed" >&2
		exit 1
	fi
fi
command -v chromium
