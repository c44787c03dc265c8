#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# House rules that are cheaper to grep for than to lint (style guide, c.6):
#   - no time.Now() in pkg/engine production code (the engine takes "now" from its snapshot);
#   - no os.Stdout and no fmt.Print* in pkg/ production code (write to the streams you were given);
#   - every .go file starts with the copyright and SPDX header.
# Prints every violation as file:line: message and exits 1 if there is any.
set -euo pipefail
cd "$(dirname "$0")/.."

failed=0
fail() {
	printf '%s\n' "$*" >&2
	failed=1
}

# go_files [DIR...] lists the .go files under DIR (default: the whole repo),
# skipping build output and anything vendored.
go_files() {
	find "${@:-.}" \
		\( -name .git -o -name bin -o -name dist -o -name _output -o -name vendor -o -name node_modules \) -prune \
		-o -type f -name '*.go' -print 2>/dev/null | sed 's|^\./||' | LC_ALL=C sort
}

# forbid REGEX MESSAGE FILE... reports code lines (not whole-line comments)
# matching REGEX.
forbid() {
	local re=$1 msg=$2
	shift 2
	[ $# -gt 0 ] || return 0
	local hits
	hits=$(grep -nE -- "$re" "$@" /dev/null | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
	if [ -n "$hits" ]; then
		while IFS= read -r h; do
			fail "${h%%:*}:$(cut -d: -f2 <<<"$h"): $msg"
		done <<<"$hits"
	fi
}

mapfile -t engine_src < <(go_files pkg/engine pkg/whatif pkg/validation pkg/keda pkg/recording | grep -v '_test\.go$' || true)
mapfile -t pkg_src < <(go_files pkg | grep -v '_test\.go$' || true)
mapfile -t all_go < <(go_files)

forbid 'time\.Now\(' 'time.Now() in pkg/engine, pkg/whatif, pkg/validation, pkg/keda or pkg/recording: take the time from the snapshot' "${engine_src[@]}"
forbid 'os\.Stdout' 'os.Stdout in pkg/: write to the IOStreams you were given' "${pkg_src[@]}"
forbid 'fmt\.Print' 'fmt.Print* in pkg/: write to the IOStreams you were given' "${pkg_src[@]}"

want1='// Copyright 2026 The kubectl-hpa Authors.'
want2='// SPDX-License-Identifier: Apache-2.0'
for f in "${all_go[@]}"; do
	{
		IFS= read -r l1 || l1=
		IFS= read -r l2 || l2=
	} <"$f"
	if [ "${l1%$'\r'}" != "$want1" ] || [ "${l2%$'\r'}" != "$want2" ]; then
		fail "$f:1: missing header; the file must start with:"$'\n'"    $want1"$'\n'"    $want2"
	fi
done

if [ "$failed" -ne 0 ]; then
	echo "verify-code-patterns: FAILED" >&2
	exit 1
fi
echo "verify-code-patterns: OK (${#all_go[@]} Go files checked)"
