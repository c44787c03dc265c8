#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# The benchmark of `kubectl hpa tune` against a real Prometheus
# (docs/performance.md, "tune from a real Prometheus"). It
#
#   1. writes a month of a 50-pod Deployment's series as the local cluster
#      records them (hack/cluster/config/prometheus.yaml): each pod's
#      container_cpu_usage_seconds_total and container_memory_working_set_bytes
#      from the kubelet-resource job every BENCH_KUBELET_INTERVAL (5s, the
#      local cluster's), and the kube-state-metrics series pkg/prom reads, with
#      the labels hack/e2e-tools/fakeadapter/statemetrics.go serves, every
#      BENCH_KSM_INTERVAL (30s, kube-prometheus's interval for
#      kube-state-metrics), on a daily load cycle (hack/bench/tuneprom);
#   2. backfills a TSDB with them, one OpenMetrics piece per 54-hour block,
#      with the e2e build of Prometheus's promtool (`promtool tsdb
#      create-blocks-from openmetrics`), cached under
#      $KUBECTL_HPA_CACHE/bench/tune-prometheus/<key> (the first run takes
#      several minutes and about 2 GB of disk at a time; later ones reuse it);
#   3. starts the e2e build of Prometheus on a copy (hard links) of it, on a
#      free local port, and waits until it is ready;
#   4. for each SINCE (default 168h and 720h: tune's --since takes no "d"),
#      times `kubectl hpa tune web -n bench -f OBJECTS --now END --since SINCE
#      --prometheus URL -o json` (wall, CPU, peak RSS: /usr/bin/time), then
#      tune again in `tuneprom phases` (pkg/action's Tune, as the command runs
#      it), which splits the read of Prometheus from the replays and reports
#      the requests the prom client counted. Both reach Prometheus through
#      `tuneprom proxy`, which logs every request: how many, of which kind,
#      the bytes answered, how many were open at once (and a CPU profile of the
#      phases' tune, $out/phases-SINCE.cpu);
#   5. with BENCH_COMPARE=1 (the default), runs the command once more with
#      --prometheus-query-api-only and fails unless its document is the same,
#      byte for byte: the raw samples through the remote-read API (the
#      default) are the query API's.
#
# The results go to _output/bench-tune-prometheus/results.md (and the JSON
# beside it). Everything runs at nice BENCH_NICE (19): the machine may be
# running other work, so the wall times are those of a shared machine; the CPU
# times are steadier.
#
#   hack/bench/tune-prometheus.sh [SINCE...]
#
# The shared parts are in hack/bench/lib.sh.
#
# Environment: BENCH_DAYS (31), BENCH_PODS (50), BENCH_KUBELET_INTERVAL (5s),
# BENCH_KSM_INTERVAL (30s), BENCH_END (2026-11-30T00:00:00Z, the series' end
# and tune's --now), BENCH_CLI (1; 0 skips the command's own run),
# BENCH_NICE (19), BENCH_AUTOGROUP_NICE (empty), BENCH_QUERY_API_ONLY (0; 1
# reads through the query API alone, as before the remote-read API),
# BENCH_COMPARE (1), BENCH_VS (empty; another kubectl-hpa binary, such as
# an older commit's bin/kubectl-hpa built in a git worktree: the command is
# then run BENCH_PAIRS (5) more times against the same Prometheus,
# alternating this tree's binary and BENCH_VS's, each pair's documents must
# be the same, and the pairs' figures and ratios go to
# _output/bench-tune-prometheus/vs-SINCE.md).
set -euo pipefail
cd "$(dirname "$0")/../.."

DAYS=${BENCH_DAYS:-31}
PODS=${BENCH_PODS:-50}
KUBELET_INTERVAL=${BENCH_KUBELET_INTERVAL:-5s}
KSM_INTERVAL=${BENCH_KSM_INTERVAL:-30s}
END=${BENCH_END:-2026-11-30T00:00:00Z}
NICE=${BENCH_NICE:-19}
BLOCK=54h
if [ $# -gt 0 ]; then SINCES=("$@"); else SINCES=(168h 720h); fi
for s in "${SINCES[@]}"; do
	[[ $s =~ ^[0-9]+h$ ]] || { echo "tune-prometheus.sh: SINCE must be hours like 168h, got $s" >&2; exit 2; }
	[ "${s%h}" -lt $((DAYS * 24)) ] || { echo "tune-prometheus.sh: --since $s needs more than BENCH_DAYS=$DAYS days of series (the warm-up)" >&2; exit 2; }
done
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain -- pkg cmd hack/bench 2>/dev/null)" ] || commit="$commit (with changes)"
out=$PWD/_output/bench-tune-prometheus
mkdir -p "$out"
# shellcheck source=hack/bench/lib.sh
source hack/bench/lib.sh

# --- the series, backfilled (cached) -------------------------------------------------
backfill tune-prometheus -end "$END" -days "$DAYS" -pods "$PODS" -kubelet-interval "$KUBELET_INTERVAL" -ksm-interval "$KSM_INTERVAL" -block "$BLOCK"

# --- Prometheus ----------------------------------------------------------------------
start_prometheus "$BLOCK"

# --- measure -------------------------------------------------------------------------
api_only=() phases_api_only=()
if [ "${BENCH_QUERY_API_ONLY:-0}" = 1 ]; then
	api_only=(--prometheus-query-api-only) phases_api_only=(-query-api-only)
fi
# vs_pairs SINCE FROM runs the command BENCH_PAIRS times with this tree's
# binary and BENCH_VS's in turn, through the proxy of the command's own run,
# and writes each pair's wall, CPU and peak RSS and their ratios (this
# tree's over BENCH_VS's), with the medians, to vs-SINCE.md.
vs_pairs() {
	local since=$1 from=$2 i side bin
	local n=${BENCH_PAIRS:-5}
	say "$n pairs against $BENCH_VS"
	for ((i = 1; i <= n; i++)); do
		for side in a b; do
			bin=$BIN
			[ "$side" = b ] && bin=$BENCH_VS
			timed "vs-$since-$side$i" nice -n "$NICE" "$bin" tune web -n bench -f "$data/objects" --since "$from" --until "$END" --prometheus "$url" -o json "${api_only[@]}"
		done
		cmp "$out/vs-$since-a$i.out" "$out/vs-$since-b$i.out" || { say "the documents differ: $out/vs-$since-a$i.out, $out/vs-$since-b$i.out"; exit 1; }
	done
	{
		echo "kubectl hpa tune --since $since: this tree ($commit) against $BENCH_VS ($("$BENCH_VS" version 2>/dev/null | awk '/^Version:/ { print $2 }')), $n pairs, the same document in each"
		echo
		echo "| pair | wall (s) | CPU (s) | peak RSS (MiB) | vs: wall (s) | vs: CPU (s) | vs: peak RSS (MiB) | wall ratio | CPU ratio |"
		echo "|---|---|---|---|---|---|---|---|---|"
		for ((i = 1; i <= n; i++)); do
			paste -d ' ' "$out/vs-$since-a$i.time" "$out/vs-$since-b$i.time"
		done | awk '{
			ca = $3 + $4; cb = $7 + $8
			printf "| %d | %.2f | %.1f | %d | %.2f | %.1f | %d | %.3f | %.3f |\n", NR, $1, ca, $2 / 1024, $5, cb, $6 / 1024, $1 / $5, ca / cb
			w[NR] = $1 / $5; c[NR] = ca / cb
		}
		function median(a, n,   i, j, t) {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		END { printf "| median | | | | | | | %.3f | %.3f |\n", median(w, NR), median(c, NR) }'
	} | tee "$out/vs-$since.md"
}

rows=()
for since in "${SINCES[@]}"; do
	l0=$(load)
	if [ "${BENCH_CLI:-1}" != 0 ]; then
		say "kubectl hpa tune --since $since"
		proxy "cli-$since"
		# tune takes no --now: the period is given by its times.
		from=$(date -u -d "$END - ${since%h} hours" +%Y-%m-%dT%H:%M:%SZ)
		timed "cli-$since" nice -n "$NICE" "$BIN" tune web -n bench -f "$data/objects" --since "$from" --until "$END" --prometheus "$url" -o json "${api_only[@]}"
		"$TP" summary -log "$out/cli-$since.requests.jsonl" >"$out/cli-$since.requests.json"
		if [ "${BENCH_COMPARE:-1}" != 0 ] && [ ${#api_only[@]} -eq 0 ]; then
			say "the same through the query API alone"
			timed "cli-$since-query-api" nice -n "$NICE" "$BIN" tune web -n bench -f "$data/objects" --since "$from" --until "$END" --prometheus "$url" -o json --prometheus-query-api-only
			cmp "$out/cli-$since.out" "$out/cli-$since-query-api.out" || { say "the documents differ: $out/cli-$since.out, $out/cli-$since-query-api.out"; exit 1; }
			read -r qw _ qu qs <"$out/cli-$since-query-api.time"
			say "the same document; through the query API alone: $qw s, $(awk -v u="$qu" -v s="$qs" 'BEGIN { printf "%.1f", u + s }') CPU-s"
		fi
		if [ -n "${BENCH_VS:-}" ]; then
			vs_pairs "$since" "$from"
		fi
	fi
	say "tune --since $since in tuneprom phases"
	proxy "phases-$since"
	timed "phases-$since" nice -n "$NICE" "$TP" phases -prometheus "$url" -f "$data/objects" -now "$END" -since "$since" "${phases_api_only[@]}" -cpuprofile "$out/phases-$since.cpu"
	"$TP" summary -log "$out/phases-$since.requests.jsonl" >"$out/phases-$since.requests.json"
	rows+=("$since|$l0|$(load)")
done

# --- report ---------------------------------------------------------------------------
{
	echo "tune from a real Prometheus: $(date -u +%Y-%m-%dT%H:%MZ), commit $commit, $(nproc) cores, nice $NICE; Prometheus $E2E_PROMETHEUS_APP_VERSION; raw samples through $([ ${#api_only[@]} -gt 0 ] && echo "the query API alone" || echo "the remote-read API")"
	echo
	jq -r --arg k "$KUBELET_INTERVAL" --arg s "$KSM_INTERVAL" '"Series: \(.series) series (\($ENV.BENCH_PODS // "50") pods), kubelet every \($k), kube-state-metrics every \($s), \(.start) to \(.end): \(.samples) samples, \(.textBytes / 1e9 * 10 | floor / 10) GB of OpenMetrics text in \(.pieces) pieces, a TSDB of \(.tsdbBytes / 1e6 | floor) MB; written in \(.generateSeconds | floor) s, promtool \(.promtoolCPUSeconds | floor) CPU-s (\(.promtoolWallSeconds | floor) s, peak RSS \(.promtoolMaxRSSKiB / 1024 | floor) MiB)"' "$out/backfill.json"
	echo
	echo "| --since | command: wall (s) | command: CPU (s) | command: peak RSS (MiB) | read: wall (s) | read: CPU (s) | replays: wall (s) | replays: CPU (s) | requests (range/raw/remote/instant) | answered (MB; largest) | most at once | syncs | candidates | phases: peak RSS (MiB) | load average (1 min) before / after |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for r in "${rows[@]}"; do
		IFS='|' read -r since l0 l1 <<<"$r"
		cw=- cc=- cr=-
		if [ -f "$out/cli-$since.time" ] && [ "${BENCH_CLI:-1}" != 0 ]; then
			read -r cw cr cu cs <"$out/cli-$since.time"
			cc=$(awk -v u="$cu" -v s="$cs" 'BEGIN { printf "%.1f", u + s }')
			cr=$((cr / 1024))
		fi
		read -r _ pr _ _ <"$out/phases-$since.time"
		jq -r --arg since "$since" --arg cw "$cw" --arg cc "$cc" --arg cr "$cr" --arg pr "$((pr / 1024))" --arg l "$l0 / $l1" --slurpfile q "$out/phases-$since.requests.json" '
			def f: . * 10 | round / 10;
			($q[0]) as $q |
			"| \($since) | \($cw) | \($cc) | \($cr) | \(.readWallSeconds | f) | \(.readCPUSeconds | f) | \(.replaysWallSeconds | f) | \(.replaysCPUSeconds | f) | \(.requests) (\($q.byKind.range // 0)/\($q.byKind.raw // 0)/\($q.byKind.remote // 0)/\($q.byKind.instant // 0)) | \($q.bytes / 1e6 | f); \($q.largestAnswer / 1e6 | f) | \($q.maxAtOnce) | \(.syncs) | \(.candidates) | \($pr) | \($l) |"' \
			"$out/phases-$since.out"
	done
} | tee "$out/results.md"
