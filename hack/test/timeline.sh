#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Prints the timeline hack/test/step.sh recorded: each step, when it started
# and ended (minutes from T0, or from the first start), its wall time, CPU
# minutes and peak RSS, then the totals. Inner steps (a build inside the e2e
# step) are indented; the total CPU counts the outermost steps only, whose
# figures already include their inner steps.
#
#   hack/test/timeline.sh [FILE [T0]]     (FILE: default _output/timeline.tsv)
set -euo pipefail
file=${1:-_output/timeline.tsv}
t0=${2:-}
[ -s "$file" ] || { echo "hack/test/timeline.sh: $file is empty or missing" >&2; exit 1; }
sort -t$'\t' -k2,2n "$file" | awk -F'\t' -v t0="$t0" '
	{ n++; name[n]=$1; s[n]=$2; e[n]=$3; cpu[n]=$4+$5; rss[n]=$6; rc[n]=$7; d[n]=$8+0
	  if (first == "" || $2 < first) first = $2 }
	END {
		base = (t0 != "") ? t0 : first
		printf "%-60s %7s %7s %7s %8s %9s %3s\n", "step", "start", "end", "wall", "CPU", "peak RSS", "rc"
		printf "%-60s %7s %7s %7s %8s %9s %3s\n", "", "(min)", "(min)", "(min)", "(min)", "(MiB)", ""
		last = base
		for (i = 1; i <= n; i++) {
			label = sprintf("%*s%s", 2 * d[i], "", name[i])
			printf "%-60s %7.1f %7.1f %7.1f %8.1f %9.0f %3s\n", substr(label, 1, 60), (s[i]-base)/60, (e[i]-base)/60, (e[i]-s[i])/60, cpu[i]/60, rss[i]/1024, rc[i]
			if (d[i] == 0) total += cpu[i]
			if (e[i] > last) last = e[i]
			if (rss[i] > peak) peak = rss[i]
		}
		printf "total: %.1f min wall (start to the last end), %.1f CPU-minutes (outermost steps), peak RSS %.0f MiB\n", (last-base)/60, total/60, peak/1024
	}'
