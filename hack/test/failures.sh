#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# hack/test/failures.sh LOG...: what failed in make test's logs, in a few
# lines, for the end of its output (where a reader of a long CI log looks
# first). For each failing Go test: its "--- FAIL" line and the lines the
# test wrote from a source line that is not a plain t.Log/t.Logf (that is:
# its errors, and the lines of helpers that may have failed it), the last 12
# of them (a test's t.Fatal is its last line), each cut to 400 characters; the packages that failed; the linter's findings. Prints
# nothing when nothing failed.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 0
max=${FAILURES_MAX_LINES:-60}
out=$(
	for log in "$@"; do
		[ -s "$log" ] || continue
		awk -v logf="$log" -v per="${FAILURES_PER_TEST:-12}" '
		function srcline(file, n,    path, cmd, line, i) {
			if (!(file in where)) {
				# Not git ls-files: a clone owned by another user (as the CI
				# may be) makes git refuse, and every log line passed.
				cmd = "find . \\( -name _output -o -name .git -o -name node_modules \\) -prune -o -type f -name \"" file "\" -print 2>/dev/null | head -1"
				path = ""
				cmd | getline path
				close(cmd)
				where[file] = path
			}
			path = where[file]
			if (path == "") return ""
			key = path ":" n
			if (key in cache) return cache[key]
			line = ""
			i = 0
			while ((getline l < path) > 0) { if (++i == n) { line = l; break } }
			close(path)
			cache[key] = line
			return line
		}
		function flush(    i, from) {
			from = kept > per ? kept - per + 1 : 1
			if (from > 1) print logf ": \t(" from - 1 " earlier lines of it left out)"
			for (i = from; i <= kept; i++) print lines[i]
			kept = 0
		}
		/^[[:space:]]*--- FAIL: / { flush(); print logf ": " $0; infail = 1; next }
		/^[[:space:]]*(--- PASS|--- SKIP|=== )/ || /^(ok|PASS)/ { flush(); infail = 0 }
		END { flush() }
		/^FAIL[[:space:]]/ { print logf ": " $0; next }
		/^panic: / { print logf ": " $0; next }
		/\([a-z]+\)$/ && /^[^[:space:]]+\.go:[0-9]+:[0-9]+: / { print logf ": " $0; next }
		infail && match($0, /^[[:space:]]+[A-Za-z0-9_]+_test\.go:[0-9]+: /) {
			loc = substr($0, RSTART, RLENGTH)
			gsub(/^[[:space:]]+|: $/, "", loc)
			split(loc, parts, ":")
			src = srcline(parts[1], parts[2] + 0)
			if (src ~ /\.Logf?\(/) next
			lines[++kept] = logf ": " $0
		}
		' "$log"
	done | cut -c1-400
)
[ -n "$out" ] || exit 0
n=$(printf '%s\n' "$out" | wc -l)
printf '%s\n' "$out" | head -n "$max"
if [ "$n" -gt "$max" ]; then echo "... $((n - max)) more lines (the logs: $*)"; fi
