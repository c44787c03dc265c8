#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# `make test-cold`: runs `make test` as CI does on a new machine, and prints
# its timeline. It clones the committed HEAD into a new directory, points
# every cache the tests fill at empty directories inside it (GOCACHE,
# GOMODCACHE, KUBECTL_HPA_CACHE, which holds the e2e binaries, the tools, the
# oracles and npm's cache), runs `CI=true make test` under GNU time, and
# prints hack/test/timeline.sh's table and the run's totals (wall time, CPU
# minutes, peak RSS). Everything it prints is also in DIR/summary.txt.
#
# Environment:
#   COLD_DIR=DIR            where to work (default: a new /var/tmp/kubectl-hpa-cold.*)
#   COLD_KEEP=1             keep DIR afterwards (default: removed when make test passed)
#   COLD_INSTALL_CACHES=1   afterwards, copy the caches it filled into the usual
#                           ones (go env GOCACHE and GOMODCACHE, ~/.cache/kubectl-hpa)
#                           without overwriting anything, so the next make test
#                           on this machine is warm
#
# A local cluster started from another work tree must be down (the ports are
# the same): hack/cluster/down.sh there, or make cluster-down.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${COLD_DIR:-$(mktemp -d /var/tmp/kubectl-hpa-cold.XXXXXX)}
mkdir -p "$dir"
commit=$(git -C "$root" rev-parse HEAD)
if [ -n "$(git -C "$root" status --porcelain)" ]; then
	echo "hack/test/cold.sh: the work tree has uncommitted changes; the cold run tests the commit $commit" >&2
fi
if (exec 3<>/dev/tcp/127.0.0.1/6443) 2>/dev/null; then
	echo "hack/test/cold.sh: something listens on 127.0.0.1:6443 (a local cluster of another work tree?); stop it first" >&2
	exit 1
fi
rm -rf "$dir/src" "$dir/cache"
git clone --quiet --no-local "$root" "$dir/src"
git -C "$dir/src" -c advice.detachedHead=false checkout --quiet "$commit"
mkdir -p "$dir/cache/go-build" "$dir/cache/gomod" "$dir/cache/kubectl-hpa"
export GOCACHE=$dir/cache/go-build GOMODCACHE=$dir/cache/gomod KUBECTL_HPA_CACHE=$dir/cache/kubectl-hpa
export npm_config_cache=$dir/cache/kubectl-hpa/npm-cache CI=true
export KUBECTL_HPA_TIMELINE=$dir/timeline.tsv

{
	echo "cold make test of $commit in $dir/src ($(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 " GiB" }'), started $(date -u +%Y-%m-%dT%H:%M:%SZ))"
	echo "GOCACHE=$GOCACHE GOMODCACHE=$GOMODCACHE KUBECTL_HPA_CACHE=$KUBECTL_HPA_CACHE npm_config_cache=$npm_config_cache"
} | tee "$dir/summary.txt"
t0=$(date +%s.%N)
rc=0
(cd "$dir/src" && /usr/bin/time -v -o "$dir/time.txt" make test) 2>&1 | tee "$dir/make-test.log" || rc=$?
[ "${PIPESTATUS[0]:-$rc}" = 0 ] || rc=1
grep -q '==> make test: all passed' "$dir/make-test.log" || rc=1

{
	echo
	echo "==> cold make test of $commit: $([ "$rc" = 0 ] && echo passed || echo FAILED)"
	hack_tl=$dir/src/hack/test/timeline.sh
	"$hack_tl" "$KUBECTL_HPA_TIMELINE" "$t0" || true
	awk -F': ' '/Elapsed \(wall clock\)/ { print "make test wall time: " $2 }
		/User time/ { u = $2 } /System time/ { s = $2 }
		/Maximum resident set size/ { printf "largest process: %.0f MiB peak RSS\n", $2 / 1024 }
		END { printf "make test CPU: %.1f CPU-minutes (user %.0f s, system %.0f s)\n", (u + s) / 60, u, s }' "$dir/time.txt"
	du -sh "$dir/cache"/* 2>/dev/null | sed 's/^/cache: /'
} | tee -a "$dir/summary.txt"

if [ -n "${COLD_INSTALL_CACHES:-}" ]; then
	echo "copying the caches into the usual ones (nothing overwritten)..."
	dst_gocache=$(env -u GOCACHE go env GOCACHE)
	dst_gomod=$(env -u GOMODCACHE go env GOMODCACHE)
	dst_cache=${HOME:?}/.cache/kubectl-hpa
	mkdir -p "$dst_gocache" "$dst_gomod" "$dst_cache"
	cp -a -n "$dir/cache/go-build/." "$dst_gocache/"
	cp -a -n "$dir/cache/gomod/." "$dst_gomod/"
	cp -a -n "$dir/cache/kubectl-hpa/." "$dst_cache/"
fi
if [ "$rc" = 0 ] && [ -z "${COLD_KEEP:-}" ]; then
	chmod -R u+w "$dir" 2>/dev/null || true
	rm -rf "$dir"
else
	echo "kept $dir (summary.txt, make-test.log, timeline.tsv)"
fi
exit "$rc"
