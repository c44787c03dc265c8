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
#      the bytes answered, how many were open at once.
#
# The results go to _output/bench-tune-prometheus/results.md (and the JSON
# beside it). Everything runs at nice BENCH_NICE (19): the machine may be
# running other work, so the wall times are those of a shared machine; the CPU
# times are steadier.
#
#   hack/bench/tune-prometheus.sh [SINCE...]
#
# Environment: BENCH_DAYS (31), BENCH_PODS (50), BENCH_KUBELET_INTERVAL (5s),
# BENCH_KSM_INTERVAL (30s), BENCH_END (2026-11-30T00:00:00Z, the series' end
# and tune's --now), BENCH_CLI (1; 0 skips the command's own run),
# BENCH_NICE (19), BENCH_AUTOGROUP_NICE (empty).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
# shellcheck source=hack/e2e-tools/lib.sh
source hack/e2e-tools/lib.sh

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
out=$repo/_output/bench-tune-prometheus
mkdir -p "$out"
say() { echo "tune-prometheus.sh: $*" >&2; }
run_nice() { nice -n "$NICE" "$@"; }
# With the kernel's autogroup scheduling a nice value weighs only within its
# session's group; BENCH_AUTOGROUP_NICE (empty: left as it is) sets the
# group's own, which weighs against the other sessions'.
if [ -n "${BENCH_AUTOGROUP_NICE:-}" ] && [ -w /proc/self/autogroup ]; then
	echo "$BENCH_AUTOGROUP_NICE" >/proc/self/autogroup 2>/dev/null || true
fi

# --- tools -------------------------------------------------------------------------
# Prometheus and promtool, built from the e2e tools' Prometheus module with
# the same flags as hack/e2e-tools/build.sh, into its add-on bin dir.
prom_dir=$(e2e_addon_dir prometheus)
mkdir -p "$prom_dir"
build_prom_tool() { # name
	[ -x "$prom_dir/$1" ] && return 0
	say "building $1 $E2E_PROMETHEUS_APP_VERSION into $prom_dir (a few minutes from an empty Go cache)"
	local tmp
	tmp=$(mktemp -d "$prom_dir/.tmp.XXXXXX")
	if ! CGO_ENABLED=0 run_nice go build -C "$E2E_TOOLS_DIR/prometheus" -mod=readonly -trimpath -tags "$E2E_PROMETHEUS_TAGS" \
		-ldflags "-s -w $(e2e_prometheus_ldflags)" -o "$tmp/$1" "github.com/prometheus/prometheus/cmd/$1"; then
		rm -rf "$tmp"
		say "building $1 failed"
		exit 1
	fi
	mv -f "$tmp/$1" "$prom_dir/$1"
	rmdir "$tmp"
}
build_prom_tool prometheus
build_prom_tool promtool
[ -f "$prom_dir/.key" ] || e2e_addon_key prometheus >"$prom_dir/.key"
say "building bin/kubectl-hpa and the benchmark's helper"
run_nice make -s build >&2
BIN=$repo/bin/kubectl-hpa
run_nice go build -o "$out/tuneprom" ./hack/bench/tuneprom
TP=$out/tuneprom

# --- the series, backfilled (cached) -------------------------------------------------
key=$(
	{
		echo "days=$DAYS pods=$PODS kubelet=$KUBELET_INTERVAL ksm=$KSM_INTERVAL end=$END block=$BLOCK"
		cat "$prom_dir/.key"
		# What writes the series and the objects (not the proxy's or the
		# timing's code).
		cat hack/bench/tuneprom/{workload,openmetrics,objects,backfill}.go
	} | sha256sum | cut -c1-12
)
data=${KUBECTL_HPA_CACHE:-$HOME/.cache/kubectl-hpa}/bench/tune-prometheus/$key
if [ ! -f "$data/backfill.json" ]; then
	say "writing $DAYS days of $PODS pods' series (kubelet every $KUBELET_INTERVAL, kube-state-metrics every $KSM_INTERVAL) and backfilling them into $data"
	rm -rf "$data.tmp"
	mkdir -p "$data.tmp"
	run_nice "$TP" backfill -out "$data.tmp/tsdb" -objects "$data.tmp/objects" -promtool "$prom_dir/promtool" \
		-end "$END" -days "$DAYS" -pods "$PODS" -kubelet-interval "$KUBELET_INTERVAL" -ksm-interval "$KSM_INTERVAL" \
		-block "$BLOCK" >"$data.tmp/backfill.json"
	rm -rf "$data"
	mv "$data.tmp" "$data"
fi
cp "$data/backfill.json" "$out/backfill.json"
say "series: $(jq -r '"\(.series) series, \(.samples) samples from \(.start) to \(.end); \(.textBytes / 1e9 * 10 | floor / 10) GB of OpenMetrics text, a TSDB of \(.tsdbBytes / 1e6 | floor) MB"' "$data/backfill.json")"

# --- Prometheus ----------------------------------------------------------------------
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM
rm -rf "$out/tsdb"
# Prometheus writes only its WAL and lock beside the blocks, and never
# rewrites a block in place: hard links spare copying them.
cp -al "$data/tsdb" "$out/tsdb" 2>/dev/null || cp -a "$data/tsdb" "$out/tsdb"
# Retention from the config file (the flag is deprecated); blocks no longer
# than the backfilled ones, so that Prometheus compacts nothing while it is
# measured.
cat >"$out/prometheus.yaml" <<EOF
global:
  scrape_interval: 1m
storage:
  tsdb:
    retention:
      time: 3650d
EOF
port=$("$TP" port)
nice -n "$NICE" "$prom_dir/prometheus" --config.file="$out/prometheus.yaml" --storage.tsdb.path="$out/tsdb" \
	--storage.tsdb.max-block-duration="$BLOCK" --web.listen-address="127.0.0.1:$port" >"$out/prometheus.log" 2>&1 &
pids+=($!)
prom_url=http://127.0.0.1:$port
for ((i = 0; ; i++)); do
	curl -fsS --max-time 2 "$prom_url/-/ready" >/dev/null 2>&1 && break
	if [ "$i" -ge 240 ] || ! kill -0 "${pids[0]}" 2>/dev/null; then
		tail -20 "$out/prometheus.log" >&2
		say "Prometheus did not get ready"
		exit 1
	fi
	sleep 0.5
done
say "Prometheus $E2E_PROMETHEUS_APP_VERSION ready at $prom_url on $(find "$out/tsdb" -maxdepth 2 -name meta.json | wc -l) blocks"

# proxy NAME starts a proxy in front of Prometheus that logs the requests
# to NAME.requests.jsonl, and sets url to its URL.
proxy() {
	rm -f "$out/$1.url"
	nice -n "$NICE" "$TP" proxy -target "$prom_url" -log "$out/$1.requests.jsonl" -ready-file "$out/$1.url" &
	pids+=($!)
	while [ ! -s "$out/$1.url" ]; do sleep 0.1; done
	url=$(cat "$out/$1.url")
}

# --- measure -------------------------------------------------------------------------
timed() { # name, then the command: /usr/bin/time's wall, peak RSS, user and system CPU to NAME.time
	local name=$1
	shift
	/usr/bin/time -f '%e %M %U %S' -o "$out/$name.time" "$@" >"$out/$name.out" 2>"$out/$name.err" || {
		tail -20 "$out/$name.err" >&2
		say "$name failed"
		exit 1
	}
}
load() { cut -d' ' -f1 /proc/loadavg; }
rows=()
for since in "${SINCES[@]}"; do
	l0=$(load)
	if [ "${BENCH_CLI:-1}" != 0 ]; then
		say "kubectl hpa tune --since $since"
		proxy "cli-$since"
		timed "cli-$since" nice -n "$NICE" "$BIN" tune web -n bench -f "$data/objects" --now "$END" --since "$since" --prometheus "$url" -o json
		"$TP" summary -log "$out/cli-$since.requests.jsonl" >"$out/cli-$since.requests.json"
	fi
	say "tune --since $since in tuneprom phases"
	proxy "phases-$since"
	timed "phases-$since" nice -n "$NICE" "$TP" phases -prometheus "$url" -f "$data/objects" -now "$END" -since "$since"
	"$TP" summary -log "$out/phases-$since.requests.jsonl" >"$out/phases-$since.requests.json"
	rows+=("$since|$l0|$(load)")
done

# --- report ---------------------------------------------------------------------------
{
	echo "tune from a real Prometheus: $(date -u +%Y-%m-%dT%H:%MZ), commit $commit, $(nproc) cores, nice $NICE; Prometheus $E2E_PROMETHEUS_APP_VERSION"
	echo
	jq -r --arg k "$KUBELET_INTERVAL" --arg s "$KSM_INTERVAL" '"Series: \(.series) series (\($ENV.BENCH_PODS // "50") pods), kubelet every \($k), kube-state-metrics every \($s), \(.start) to \(.end): \(.samples) samples, \(.textBytes / 1e9 * 10 | floor / 10) GB of OpenMetrics text in \(.pieces) pieces, a TSDB of \(.tsdbBytes / 1e6 | floor) MB; written in \(.generateSeconds | floor) s, promtool \(.promtoolCPUSeconds | floor) CPU-s (\(.promtoolWallSeconds | floor) s, peak RSS \(.promtoolMaxRSSKiB / 1024 | floor) MiB)"' "$out/backfill.json"
	echo
	echo "| --since | command: wall (s) | command: CPU (s) | command: peak RSS (MiB) | read: wall (s) | read: CPU (s) | replays: wall (s) | replays: CPU (s) | requests (range/raw/instant) | answered (MB; largest) | most at once | syncs | candidates | phases: peak RSS (MiB) | load average (1 min) before / after |"
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
			"| \($since) | \($cw) | \($cc) | \($cr) | \(.readWallSeconds | f) | \(.readCPUSeconds | f) | \(.replaysWallSeconds | f) | \(.replaysCPUSeconds | f) | \(.requests) (\($q.byKind.range // 0)/\($q.byKind.raw // 0)/\($q.byKind.instant // 0)) | \($q.bytes / 1e6 | f); \($q.largestAnswer / 1e6 | f) | \($q.maxAtOnce) | \(.syncs) | \(.candidates) | \($pr) | \($l) |"' \
			"$out/phases-$since.out"
	done
} | tee "$out/results.md"
