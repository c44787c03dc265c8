#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Stops the local cluster started by hack/cluster/up.sh: every process recorded in
# _output/local-cluster/*.pid, with SIGTERM and, after a grace period (DOWN_GRACE
# seconds, default 10), SIGKILL. It stops them in three stages, in this order: the
# clients (the controllers, the scheduler, kwok, the metrics servers, Prometheus
# and, if it runs, KEDA) together, then kube-apiserver, then etcd. The apiserver's shutdown still writes to etcd.
# Only PIDs that still run the recorded component are signalled. It removes the pid
# files and the recorded version, and keeps the logs, the audit log, the PKI and
# the kubeconfig.
set -euo pipefail
# shellcheck source=hack/cluster/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

grace=${DOWN_GRACE:-10}
[ -d "$RUN" ] || { echo "no local cluster directory ($RUN); nothing to stop"; exit 0; }

# alive PID: the process exists and is not a zombie (when up.sh calls us after a
# failed start, the processes are its children and stay zombies until it exits).
alive() {
	local st
	st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

stopped=()
# stop NAME...: SIGTERM the running ones, wait for all of them, SIGKILL after the grace.
stop() {
	local n pid
	local -A pids=()
	for n; do
		if pid=$(pid_of "$n"); then
			kill -TERM "$pid" 2>/dev/null || true
			pids[$n]=$pid
			stopped+=("$n")
		fi
	done
	local deadline=$((SECONDS + grace))
	for n in "${!pids[@]}"; do
		while alive "${pids[$n]}"; do
			if [ "$SECONDS" -ge "$deadline" ]; then
				echo "down.sh: $n (pid ${pids[$n]}) ignored SIGTERM for ${grace}s; sending SIGKILL" >&2
				kill -KILL "${pids[$n]}" 2>/dev/null || true
				sleep 0.2
				break
			fi
			sleep 0.1
		done
	done
	all_pids+=("${pids[@]}")
}
all_pids=()

# The clients: every known component but the apiserver and etcd, KEDA's, plus
# any stray pid file.
clients=("${KEDA_COMPONENTS[@]}")
for c in "${COMPONENTS[@]}"; do
	case $c in etcd | kube-apiserver) ;; *) clients+=("$c") ;; esac
done
for f in "$RUN"/*.pid; do
	[ -e "$f" ] || continue
	n=$(basename "$f" .pid)
	[[ " ${clients[*]} etcd kube-apiserver " == *" $n "* ]] || clients+=("$n")
done

stop "${clients[@]}"
stop kube-apiserver
stop etcd

# The processes are dead (exited or zombies). Give whoever adopted them (init) up
# to 3s to reap them, so that `pgrep` right after down.sh finds nothing. Zombies
# hold no ports. When up.sh calls us after a failed start, they stay zombies
# until up.sh exits.
reap_deadline=$((SECONDS + 3))
for pid in "${all_pids[@]}"; do
	while [ -e "/proc/$pid" ] && [ "$SECONDS" -lt "$reap_deadline" ]; do sleep 0.1; done
done

rm -f "$RUN"/*.pid "$RUN"/*.cmd "$RUN/kube-version"
if [ "${#stopped[@]}" -eq 0 ]; then
	echo "local cluster was not running"
else
	echo "stopped: ${stopped[*]} (logs kept in $RUN)"
fi
