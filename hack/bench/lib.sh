#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# What the benchmarks against a real Prometheus share (tune-prometheus.sh,
# tune-fleet.sh): the e2e build of Prometheus and promtool, bin/kubectl-hpa
# and tuneprom, a backfilled TSDB cached by what writes it, Prometheus
# started on a copy of it, a logging proxy in front of it, and timed runs.
# Source it from the repository root after setting NICE and out (the
# results' directory); it sets repo, BIN, TP and prom_dir.

# shellcheck source=hack/e2e-tools/lib.sh
source hack/e2e-tools/lib.sh
repo=$PWD
say() { echo "$(basename "$0"): $*" >&2; }
run_nice() { nice -n "$NICE" "$@"; }
load() { cut -d' ' -f1 /proc/loadavg; }
# With the kernel's autogroup scheduling a nice value weighs only within its
# session's group; BENCH_AUTOGROUP_NICE (empty: left as it is) sets the
# group's own, which weighs against the other sessions'.
if [ -n "${BENCH_AUTOGROUP_NICE:-}" ] && [ -w /proc/self/autogroup ]; then
	echo "$BENCH_AUTOGROUP_NICE" >/proc/self/autogroup 2>/dev/null || true
fi

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

# backfill NAME ARGS...: the series tuneprom backfill ARGS writes, as a TSDB
# and the objects beside it, cached under
# $KUBECTL_HPA_CACHE/bench/NAME/<key of ARGS, Prometheus and the writer's
# code>; sets data to that directory.
backfill() {
	local name=$1 key
	shift
	key=$(
		{
			echo "$*"
			cat "$prom_dir/.key"
			# What writes the series and the objects (not the proxy's or
			# the timing's code).
			cat hack/bench/tuneprom/{workload,openmetrics,objects,backfill}.go
		} | sha256sum | cut -c1-12
	)
	data=${KUBECTL_HPA_CACHE:-$HOME/.cache/kubectl-hpa}/bench/$name/$key
	if [ ! -f "$data/backfill.json" ]; then
		say "writing the series (tuneprom backfill $*) and backfilling them into $data"
		rm -rf "$data.tmp"
		mkdir -p "$data.tmp"
		run_nice "$TP" backfill -out "$data.tmp/tsdb" -objects "$data.tmp/objects" -promtool "$prom_dir/promtool" "$@" >"$data.tmp/backfill.json"
		rm -rf "$data"
		mv "$data.tmp" "$data"
	fi
	cp "$data/backfill.json" "$out/backfill.json"
	say "series: $(jq -r '"\(.series) series, \(.samples) samples from \(.start) to \(.end); \(.textBytes / 1e9 * 10 | floor / 10) GB of OpenMetrics text, a TSDB of \(.tsdbBytes / 1e6 | floor) MB"' "$data/backfill.json")"
}

pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_prometheus BLOCK: Prometheus on a copy of $data/tsdb in $out/tsdb,
# on a free local port; sets prom_url and prom_pid.
start_prometheus() {
	local block=$1 port i
	rm -rf "$out/tsdb"
	# Prometheus writes only its WAL and lock beside the blocks, and never
	# rewrites a block in place: hard links spare copying them.
	cp -al "$data/tsdb" "$out/tsdb" 2>/dev/null || cp -a "$data/tsdb" "$out/tsdb"
	# Retention from the config file (the flag is deprecated); blocks no
	# longer than the backfilled ones, so that Prometheus compacts nothing
	# while it is measured.
	cat >"$out/prometheus.yaml" <<EOC
global:
  scrape_interval: 1m
storage:
  tsdb:
    retention:
      time: 3650d
EOC
	port=$("$TP" port)
	nice -n "$NICE" "$prom_dir/prometheus" --config.file="$out/prometheus.yaml" --storage.tsdb.path="$out/tsdb" \
		--storage.tsdb.max-block-duration="$block" --web.listen-address="127.0.0.1:$port" >"$out/prometheus.log" 2>&1 &
	prom_pid=$!
	pids+=("$prom_pid")
	prom_url=http://127.0.0.1:$port
	for ((i = 0; ; i++)); do
		curl -fsS --max-time 2 "$prom_url/-/ready" >/dev/null 2>&1 && break
		if [ "$i" -ge 240 ] || ! kill -0 "$prom_pid" 2>/dev/null; then
			tail -20 "$out/prometheus.log" >&2
			say "Prometheus did not get ready"
			exit 1
		fi
		sleep 0.5
	done
	say "Prometheus $E2E_PROMETHEUS_APP_VERSION ready at $prom_url on $(find "$out/tsdb" -maxdepth 2 -name meta.json | wc -l) blocks"
}

# proxy NAME starts a proxy in front of Prometheus that logs the requests
# to NAME.requests.jsonl, and sets url to its URL.
proxy() {
	rm -f "$out/$1.url"
	nice -n "$NICE" "$TP" proxy -target "$prom_url" -log "$out/$1.requests.jsonl" -ready-file "$out/$1.url" &
	pids+=($!)
	while [ ! -s "$out/$1.url" ]; do sleep 0.1; done
	url=$(cat "$out/$1.url")
}

# timed NAME COMMAND...: /usr/bin/time's wall, peak RSS, user and system
# CPU to NAME.time, the output to NAME.out and NAME.err.
timed() {
	local name=$1
	shift
	/usr/bin/time -f '%e %M %U %S' -o "$out/$name.time" "$@" >"$out/$name.out" 2>"$out/$name.err" || {
		tail -20 "$out/$name.err" >&2
		say "$name failed"
		exit 1
	}
}
