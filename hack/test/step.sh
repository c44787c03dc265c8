#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Runs one step of `make test` and, when KUBECTL_HPA_TIMELINE names a file,
# appends a line to it: the step's name, when it started and ended (Unix
# seconds), its CPU seconds (user and system, the step's processes and every
# descendant it waited for), its peak RSS (KiB, of the largest of them) and
# its exit status and its depth (0 for a step of make test itself, 1 for a
# step inside one, such as a build inside the e2e step: the depth-0 steps'
# CPU already counts their inner steps). hack/test/timeline.sh prints the table.
#
#   hack/test/step.sh NAME CMD [ARG...]
#
# The exit status is CMD's. Without KUBECTL_HPA_TIMELINE the command just runs.
set -uo pipefail

name=${1:?usage: hack/test/step.sh NAME CMD [ARG...]}
shift
if [ -z "${KUBECTL_HPA_TIMELINE:-}" ] || [ ! -x /usr/bin/time ]; then
	exec "$@"
fi
depth=${KUBECTL_HPA_STEP_DEPTH:-0}
export KUBECTL_HPA_STEP_DEPTH=$((depth + 1))
res=$(mktemp "${TMPDIR:-/tmp}/kubectl-hpa-step.XXXXXX")
start=$(date +%s.%N)
# GNU time's own line goes to a file, so the command's output is untouched.
/usr/bin/time -f '%U %S %M' -o "$res" "$@"
rc=$?
end=$(date +%s.%N)
read -r user sys rss <"$res" 2>/dev/null || { user=0 sys=0 rss=0; }
# time writes "Command exited with non-zero status N" first when CMD failed.
if [ "$rc" != 0 ]; then read -r user sys rss < <(tail -n 1 "$res") || true; fi
rm -f "$res"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$start" "$end" "${user:-0}" "${sys:-0}" "${rss:-0}" "$rc" "$depth" >>"$KUBECTL_HPA_TIMELINE"
exit "$rc"
