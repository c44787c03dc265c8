#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# The fleet benchmark (docs/performance.md, "tune of a fleet"): `kubectl
# hpa tune` without a NAME over BENCH_WORKLOADS (100) HPAs of
# BENCH_MIN_PODS..BENCH_MAX_PODS (10..50) pods each, a day of 15 s syncs,
# read from a real Prometheus, against the sum of `tune NAME` over the same
# HPAs, in one run. It
#
#   1. writes BENCH_SPAN (26h: the day and the warm-up before it) of the
#      workloads' series, as the local cluster records them (each pod's
#      kubelet resource series every BENCH_KUBELET_INTERVAL, 15s, and
#      kube-state-metrics' every BENCH_KSM_INTERVAL, 30s), on BENCH_NODES
#      (60) simulated nodes, backfills a TSDB with them (cached), and
#      writes each workload's objects (HPA, Deployment, pods, PodMetrics)
#      into a directory of its own (hack/bench/tuneprom backfill
#      -workloads);
#   2. starts the e2e build of Prometheus on it;
#   3. times `kubectl hpa tune -A -f DIR... --since DAY --until END
#      --prometheus URL -o json` (the fleet: the files read and parsed
#      once), then `tune NAME -n NS -f ITS-OBJECTS` for each HPA in turn,
#      with Prometheus's CPU time (from /proc) and peak RSS (VmHWM, reset
#      before each part) measured beside each, and the requests through a
#      logging proxy;
#   4. checks that each HPA's fleet row has its own tune's figures (the
#      as-is cost and risk, the recommendation's patch).
#
# The results go to _output/bench-tune-fleet/results.md. Everything runs at
# nice BENCH_NICE (19); the machine may run other work, so the load average
# is given beside the times.
#
#   hack/bench/tune-fleet.sh
#
# Environment: BENCH_WORKLOADS (100), BENCH_MIN_PODS (10), BENCH_MAX_PODS
# (50), BENCH_SPAN (26h), BENCH_NODES (60), BENCH_KUBELET_INTERVAL (15s),
# BENCH_KSM_INTERVAL (30s), BENCH_END (2026-11-30T00:00:00Z), BENCH_SINGLES
# (1; 0 skips the tune NAME runs), BENCH_NICE (19), BENCH_AUTOGROUP_NICE.
set -euo pipefail
cd "$(dirname "$0")/../.."

WORKLOADS=${BENCH_WORKLOADS:-100}
MIN_PODS=${BENCH_MIN_PODS:-10}
MAX_PODS=${BENCH_MAX_PODS:-50}
SPAN=${BENCH_SPAN:-26h}
NODES=${BENCH_NODES:-60}
KUBELET_INTERVAL=${BENCH_KUBELET_INTERVAL:-15s}
KSM_INTERVAL=${BENCH_KSM_INTERVAL:-30s}
END=${BENCH_END:-2026-11-30T00:00:00Z}
NICE=${BENCH_NICE:-19}
BLOCK=2h
SINCE=$(date -u -d "$END - 24 hours" +%Y-%m-%dT%H:%M:%SZ)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain -- pkg cmd hack/bench 2>/dev/null)" ] || commit="$commit (with changes)"
out=$PWD/_output/bench-tune-fleet
mkdir -p "$out"
# shellcheck source=hack/bench/lib.sh
source hack/bench/lib.sh

backfill tune-fleet -end "$END" -span "$SPAN" -workloads "$WORKLOADS" -min-pods "$MIN_PODS" -max-pods "$MAX_PODS" \
	-nodes "$NODES" -kubelet-interval "$KUBELET_INTERVAL" -ksm-interval "$KSM_INTERVAL" -block "$BLOCK" -namespace bench -name svc
start_prometheus "$BLOCK"

# Prometheus's CPU seconds so far, and its peak RSS in MiB since the last
# reset (writing 5 to clear_refs resets VmHWM).
prom_cpu() { awk -v t="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / t }' "/proc/$prom_pid/stat"; }
prom_reset_peak() { echo 5 >"/proc/$prom_pid/clear_refs"; }
prom_peak() { awk '/^VmHWM/ { printf "%d", $2 / 1024 }' "/proc/$prom_pid/status"; }
period=(--since "$SINCE" --until "$END")
# Each workload's objects are a directory of their own: -f each (tune reads
# a directory's files, not its subdirectories, as kubectl without -R).
files=()
for dir in "$data/objects"/*/; do files+=(-f "$dir"); done

say "the fleet: kubectl hpa tune -A over $WORKLOADS HPAs"
l0=$(load)
prom_reset_peak
c0=$(prom_cpu)
proxy fleet
# tune -A exits 1 when an HPA could not be tuned: the rows say which.
timed fleet nice -n "$NICE" "$BIN" tune -A "${files[@]}" "${period[@]}" --prometheus "$url" -o json
fleet_prom_cpu=$(awk -v a="$c0" -v b="$(prom_cpu)" 'BEGIN { printf "%.1f", b - a }')
fleet_prom_peak=$(prom_peak)
"$TP" summary -log "$out/fleet.requests.jsonl" >"$out/fleet.requests.json"
fleet_load="$l0 / $(load)"

singles_wall=0 singles_cpu=0 singles_peak=0 singles_prom_cpu=- singles_prom_peak=- singles_load=- mismatches=0 compared=0
if [ "${BENCH_SINGLES:-1}" != 0 ]; then
	say "each HPA alone: kubectl hpa tune NAME, $WORKLOADS times"
	l0=$(load)
	prom_reset_peak
	c0=$(prom_cpu)
	proxy singles
	mkdir -p "$out/singles"
	for dir in "$data/objects"/*/; do
		base=$(basename "$dir")
		ns=${base%%-svc-*}
		name=${base#"$ns"-}
		/usr/bin/time -f '%e %M %U %S' -o "$out/singles/$base.time" nice -n "$NICE" "$BIN" tune "$name" -n "$ns" -f "$dir" \
			"${period[@]}" --prometheus "$url" -o json >"$out/singles/$base.json" 2>"$out/singles/$base.err" || true
		read -r w m u s <"$out/singles/$base.time"
		singles_wall=$(awk -v a="$singles_wall" -v b="$w" 'BEGIN { print a + b }')
		singles_cpu=$(awk -v a="$singles_cpu" -v u="$u" -v s="$s" 'BEGIN { print a + u + s }')
		[ "$m" -gt "$singles_peak" ] && singles_peak=$m
		# The fleet's row against this tune (pkg/fleet.Item): the as-is cost
		# and risk (rounded to 3 places in the row), and with a
		# recommendation its patch and saving; without one, tune NAME's has
		# no change either (or the row is untrusted).
		if [ -s "$out/singles/$base.json" ]; then
			compared=$((compared + 1))
			if ! jq -e --slurpfile f "$out/fleet.out" --arg ns "$ns" --arg name "$name" '
				def near(a; b): ((a - b) | fabs) <= 0.0005000001;
				. as $t | [$f[0].items[] | select(.hpa.namespace == $ns and .hpa.name == $name)] | length == 1 and
				(.[0] as $row |
				near($row.asIs.cost; $t.reference.cost) and near($row.asIs.risk; $t.reference.risk) and
				if $row.status == "recommended" then
					$row.patch == $t.recommendation.patch and $row.saving == $t.recommendation.saving
				elif $row.status == "no-change" then
					$t.recommendation == null or $t.recommended == $t.current or ($t.recommendation.changes | length) == 0
				else $row.status == "untrusted" end)' \
				"$out/singles/$base.json" >/dev/null; then
				mismatches=$((mismatches + 1))
				say "$ns/$name: the fleet's row differs from tune NAME's document"
			fi
		fi
	done
	singles_prom_cpu=$(awk -v a="$c0" -v b="$(prom_cpu)" 'BEGIN { printf "%.1f", b - a }')
	singles_prom_peak=$(prom_peak)
	"$TP" summary -log "$out/singles.requests.jsonl" >"$out/singles.requests.json"
	singles_load="$l0 / $(load)"
fi

read -r fw fm fu fs <"$out/fleet.time"
{
	echo "tune of a fleet from a real Prometheus: $(date -u +%Y-%m-%dT%H:%MZ), commit $commit, $(nproc) cores, nice $NICE; Prometheus $E2E_PROMETHEUS_APP_VERSION"
	echo
	jq -r --arg k "$KUBELET_INTERVAL" --arg s "$KSM_INTERVAL" '"Series: \(.series) series, kubelet every \($k), kube-state-metrics every \($s), \(.start) to \(.end): \(.samples) samples, \(.textBytes / 1e9 * 10 | floor / 10) GB of OpenMetrics text in \(.pieces) pieces, a TSDB of \(.tsdbBytes / 1e6 | floor) MB; written in \(.generateSeconds | floor) s, promtool \(.promtoolCPUSeconds | floor) CPU-s"' "$out/backfill.json"
	jq -r '"Fleet: \(.items | length) HPAs, \([.items[] | select(.status == "recommended")] | length) with a recommendation, \([.items[] | select(.status == "failed")] | length) failed"' "$out/fleet.out"
	echo
	echo "| run | wall (s) | CPU (s) | peak RSS (MiB) | Prometheus: CPU (s) | Prometheus: peak RSS (MiB) | requests | answered (MB) | load average before / after |"
	echo "|---|---|---|---|---|---|---|---|---|"
	jq -r --arg w "$fw" --arg c "$(awk -v u="$fu" -v s="$fs" 'BEGIN { printf "%.1f", u + s }')" --arg m "$((fm / 1024))" --arg pc "$fleet_prom_cpu" --arg pm "$fleet_prom_peak" --arg l "$fleet_load" \
		'"| tune -A (\($ENV.BENCH_WORKLOADS // "100") HPAs, one process) | \($w) | \($c) | \($m) | \($pc) | \($pm) | \(.requests) | \(.bytes / 1e6 | . * 10 | round / 10) | \($l) |"' "$out/fleet.requests.json"
	if [ "${BENCH_SINGLES:-1}" != 0 ]; then
		jq -r --arg w "$singles_wall" --arg c "$(printf %.1f "$singles_cpu")" --arg m "$((singles_peak / 1024))" --arg pc "$singles_prom_cpu" --arg pm "$singles_prom_peak" --arg l "$singles_load" \
			'"| the sum of tune NAME over the same HPAs (peak: the largest one) | \($w) | \($c) | \($m) | \($pc) | \($pm) | \(.requests) | \(.bytes / 1e6 | . * 10 | round / 10) | \($l) |"' "$out/singles.requests.json"
		echo
		echo "Rows checked against tune NAME's document: $compared, differing: $mismatches."
	fi
} | tee "$out/results.md"
[ "$mismatches" = 0 ]
