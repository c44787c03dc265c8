#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Installs the MCP client of the end-to-end suite (test/e2e/mcpclient: the
# official TypeScript SDK, @modelcontextprotocol/sdk, at the versions its
# package-lock.json pins) with `npm ci` into a cache outside the repository,
# and prints the directory (its package.json and node_modules) that
# test/e2e/mcpclient/client.mjs takes as MCP_CLIENT_DIR.
#
#   hack/mcpclient/install.sh
#
# Layout: ${KUBECTL_HPA_CACHE:-$HOME/.cache/kubectl-hpa}/npm-mcpclient-<hash>, where
# <hash> is that of package.json and package-lock.json: a changed pin installs
# into a new directory, and an installed one is reused (a warm run prints its
# path at once, without npm or the network). The install goes into a
# temporary directory renamed when complete, so an interrupted run leaves
# nothing half-installed behind. Needs node (>= 20) and npm on PATH.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
src=$root/test/e2e/mcpclient
cache=${KUBECTL_HPA_CACHE:-${HOME:?set HOME or KUBECTL_HPA_CACHE}/.cache/kubectl-hpa}

hash=$(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -c1-16)
dir=$cache/npm-mcpclient-$hash
if [[ -f $dir/.installed ]]; then
	echo "$dir"
	exit 0
fi

for tool in node npm; do
	if ! command -v "$tool" >/dev/null; then
		echo "hack/mcpclient/install.sh: $tool is not on PATH (the MCP e2e test runs the TypeScript SDK's client with node)" >&2
		exit 1
	fi
done

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/npm-mcpclient-$hash.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$src/package.json" "$src/package-lock.json" "$tmp/"
echo "installing @modelcontextprotocol/sdk (test/e2e/mcpclient/package-lock.json) into $dir" >&2
# --ignore-scripts: nothing the packages ship runs at install time.
(cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error --cache "$cache/npm-cache" >&2)
touch "$tmp/.installed"
if ! mv -T "$tmp" "$dir" 2>/dev/null; then
	# Another run installed it meanwhile.
	[[ -f $dir/.installed ]] || { echo "hack/mcpclient/install.sh: cannot create $dir" >&2; exit 1; }
fi
trap - EXIT
rm -rf "$tmp"
echo "$dir"
