#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Breaks one component of the running local cluster on purpose, and mends it,
# for the fault tests (test/e2e/faults_test.go) and the soak (hack/soak/run.sh):
#
#   hack/cluster/fault.sh pause   COMPONENT   SIGSTOP it: its sockets stay open, nothing answers
#   hack/cluster/fault.sh resume  COMPONENT   SIGCONT it, then wait until it serves again
#   hack/cluster/fault.sh kill    COMPONENT   SIGKILL it (a crash), wait until it is gone
#   hack/cluster/fault.sh start   COMPONENT   start it again with the command line up.sh or
#                                             keda.sh recorded ($RUN/COMPONENT.cmd), wait until it serves
#   hack/cluster/fault.sh restart COMPONENT   kill, then start
#   hack/cluster/fault.sh state   COMPONENT   print running, paused or stopped
#
# COMPONENT: etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok,
# metrics-server, fake-metrics-adapter, prometheus, keda-operator, keda-adapter.
# "Serves" is the readiness up.sh and keda.sh wait for (component_ready in
# lib.sh). FAULT_TIMEOUT (seconds, default 60) bounds each wait; on a timeout, or
# if the component exits while being waited for, the script fails with the tail
# of its log. The cluster is the one of KUBECTL_HPA_CLUSTER_DIR and
# KUBECTL_HPA_PORT_OFFSET, as for up.sh.
set -euo pipefail
# shellcheck source=hack/cluster/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

FAULT_TIMEOUT=${FAULT_TIMEOUT:-60}

usage() {
	echo "usage: hack/cluster/fault.sh pause|resume|kill|start|restart|state COMPONENT" >&2
	exit 2
}
die() {
	echo "fault.sh: $*" >&2
	exit 1
}
[ $# -eq 2 ] || usage
action=$1 comp=$2
[[ " ${COMPONENTS[*]} ${KEDA_COMPONENTS[*]} " == *" $comp "* ]] ||
	die "unknown component '$comp' (${COMPONENTS[*]} ${KEDA_COMPONENTS[*]})"

# proc_state PID prints the process's state letter (R, S, T, Z, ...).
proc_state() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1; }

log_tail() {
	[ -f "$RUN/$comp.log" ] || return 0
	echo "---- last 20 lines of $RUN/$comp.log ----" >&2
	tail -n 20 "$RUN/$comp.log" >&2
	echo "----" >&2
}

wait_ready() {
	local deadline=$((SECONDS + FAULT_TIMEOUT)) st
	until component_ready "$comp" >/dev/null 2>&1; do
		st=$(proc_state "$(<"$RUN/$comp.pid")" || true)
		if [ -z "$st" ] || [ "$st" = Z ]; then
			log_tail
			die "$comp exited while waiting for it to serve"
		fi
		if [ "$SECONDS" -ge "$deadline" ]; then
			log_tail
			die "$comp does not serve ${FAULT_TIMEOUT}s after: $action"
		fi
		sleep 0.2
	done
}

do_kill() {
	local pid deadline st
	pid=$(pid_of "$comp") || die "$comp is not running"
	kill -KILL "$pid"
	deadline=$((SECONDS + 10))
	# Gone, or a zombie whose threads have all exited: the leader of a Go
	# process turns Z before its other threads are torn down, and until the
	# last one is, its sockets stay open (a start then finds the port in use).
	while st=$(proc_state "$pid") && [ -n "$st" ] &&
		{ [ "$st" != Z ] || [ "$(find "/proc/$pid/task" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" -gt 1 ] ||
			[ -n "$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | head -n 1)" ]; }; do
		[ "$SECONDS" -lt "$deadline" ] || die "$comp (pid $pid) still runs 10s after SIGKILL"
		sleep 0.1
	done
}

do_start() {
	if pid_of "$comp" >/dev/null; then die "$comp is already running"; fi
	[ -f "$RUN/$comp.cmd" ] || die "no recorded command line for $comp ($RUN/$comp.cmd): start the cluster with hack/cluster/up.sh"
	start_recorded "$comp"
	wait_ready
}

case $action in
pause)
	pid=$(pid_of "$comp") || die "$comp is not running"
	kill -STOP "$pid"
	;;
resume)
	pid=$(pid_of "$comp") || die "$comp is not running"
	kill -CONT "$pid"
	wait_ready
	;;
kill) do_kill ;;
start) do_start ;;
restart)
	do_kill
	do_start
	;;
state)
	if ! pid=$(pid_of "$comp"); then
		echo stopped
	elif [ "$(proc_state "$pid")" = T ]; then
		echo paused
	else
		echo running
	fi
	;;
*) usage ;;
esac
