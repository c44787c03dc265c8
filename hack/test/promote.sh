#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# hack/test/promote.sh PIDFILE...: puts the processes of make test's niced
# background jobs (each PIDFILE holds a job's pid) and all their descendants
# back at nice 0, and writes 0 to PIDFILE's .prio sibling so that the job's
# next targets start at nice 0 too (run.sh's run_job reads it). make test
# calls it once nothing timing-sensitive runs any more (the e2e main phase
# is over): from then on the niced jobs are what the run waits for.
set -uo pipefail
ps -eo pid=,ppid= >"${TMPDIR:-/tmp}/promote.$$"
for f in "$@"; do
	[ -f "$f" ] || continue
	root=$(cat "$f")
	echo 0 >"${f%.pid}.prio"
	awk -v r="$root" '{ kids[$2] = kids[$2] " " $1 } END { n = split(r, q, " "); while (n > 0) { p = q[n]; n--; print p; m = split(kids[p], c, " "); for (i = 1; i <= m; i++) q[++n] = c[i] } }' "${TMPDIR:-/tmp}/promote.$$" |
		xargs -r renice -n 0 -p >/dev/null 2>&1
done
rm -f "${TMPDIR:-/tmp}/promote.$$"
exit 0
