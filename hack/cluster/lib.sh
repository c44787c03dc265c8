# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Sourced by hack/cluster/{up,down,status}.sh: where the local cluster lives,
# its components (in start order), their ports, and small helpers.

CLUSTER_HACK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=hack/e2e-tools/lib.sh
source "$CLUSTER_HACK_DIR/../e2e-tools/lib.sh"

RUN=${KUBECTL_HPA_CLUSTER_DIR:-$E2E_REPO_ROOT/_output/local-cluster}
KUBECONFIG_FILE=$RUN/kubeconfig

# Start order; down.sh stops them in reverse.
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok metrics-server fake-metrics-adapter prometheus)
# KEDA's processes: started only with KEDA=1 (up.sh) or by keda.sh up.
KEDA_COMPONENTS=(keda-operator keda-adapter)

# Fixed loopback ports (up.sh checks they are free). KUBECTL_HPA_PORT_OFFSET
# (default 0) is added to every one of them, so that a second cluster (the soak,
# hack/soak/run.sh, with its own KUBECTL_HPA_CLUSTER_DIR) runs beside the e2e one.
PORT_OFFSET=${KUBECTL_HPA_PORT_OFFSET:-0}
if [[ ! $PORT_OFFSET =~ ^(0|[1-9][0-9]{0,4})$ ]] || [ "$PORT_OFFSET" -gt 55000 ]; then
	echo "KUBECTL_HPA_PORT_OFFSET=$PORT_OFFSET is not an offset from 0 to 55000" >&2
	exit 2
fi
PORT_ETCD=$((2379 + PORT_OFFSET))
PORT_ETCD_PEER=$((2380 + PORT_OFFSET))
PORT_APISERVER=$((6443 + PORT_OFFSET))
PORT_KCM=$((10257 + PORT_OFFSET))
PORT_SCHEDULER=$((10259 + PORT_OFFSET))
PORT_KWOK=$((10247 + PORT_OFFSET))
PORT_METRICS_SERVER=$((4443 + PORT_OFFSET))
PORT_ADAPTER=$((6445 + PORT_OFFSET))
PORT_ADAPTER_CONTROL=$((6446 + PORT_OFFSET))
# Prometheus's HTTP API (http://127.0.0.1:9090/api/v1/...); PROMETHEUS_PORT is
# taken as it is, the offset only moves the default.
PORT_PROMETHEUS=${PROMETHEUS_PORT:-$((9090 + PORT_OFFSET))}
if [[ ! $PORT_PROMETHEUS =~ ^[1-9][0-9]{0,4}$ ]] || [ "$PORT_PROMETHEUS" -gt 65535 ]; then
	echo "PROMETHEUS_PORT=$PORT_PROMETHEUS is not a port number (1-65535)" >&2
	exit 2
fi
ALL_PORTS=("$PORT_ETCD" "$PORT_ETCD_PEER" "$PORT_APISERVER" "$PORT_KCM" "$PORT_SCHEDULER" "$PORT_KWOK"
	"$PORT_METRICS_SERVER" "$PORT_ADAPTER" "$PORT_ADAPTER_CONTROL" "$PORT_PROMETHEUS")
# KEDA (keda.sh): the operator's gRPC metrics service (the adapter asks it for
# every value, mTLS), its health probes and its own /metrics; the adapter's
# secure port (the aggregator's backend for external.metrics.k8s.io) and its own
# /metrics (KEDA binds that one on every address, --port).
PORT_KEDA_OPERATOR_GRPC=$((9666 + PORT_OFFSET))
PORT_KEDA_OPERATOR_HEALTH=$((9667 + PORT_OFFSET))
PORT_KEDA_OPERATOR_METRICS=$((9668 + PORT_OFFSET))
PORT_KEDA_ADAPTER=$((6447 + PORT_OFFSET))
PORT_KEDA_ADAPTER_METRICS=$((9669 + PORT_OFFSET))
KEDA_PORTS=("$PORT_KEDA_OPERATOR_GRPC" "$PORT_KEDA_OPERATOR_HEALTH" "$PORT_KEDA_OPERATOR_METRICS"
	"$PORT_KEDA_ADAPTER" "$PORT_KEDA_ADAPTER_METRICS")

# with_ports FILE prints a file of config/ with the default ports it names
# (kwok's 10247, metrics-server's 4443, the adapter's 6445) moved by the offset.
with_ports() {
	sed -e "s/\b10247\b/$PORT_KWOK/g" -e "s/\b4443\b/$PORT_METRICS_SERVER/g" -e "s/\b6445\b/$PORT_ADAPTER/g" "$1"
}

APISERVICES=(v1beta1.metrics.k8s.io v1beta1.custom.metrics.k8s.io v1beta2.custom.metrics.k8s.io v1beta1.external.metrics.k8s.io)

# pid_of NAME prints the recorded PID of a component if that process is still
# running the component's binary (so a recycled PID is never mistaken for it).
pid_of() {
	local name=$1 pid
	[ -f "$RUN/$name.pid" ] || return 1
	pid=$(<"$RUN/$name.pid")
	[[ $pid =~ ^[0-9]+$ ]] || return 1
	[ -r "/proc/$pid/cmdline" ] || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "/$name " || return 1
	echo "$pid"
}

# apiserver_ready succeeds when /readyz answers ok with the admin credentials.
apiserver_ready() {
	[ -f "$RUN/pki/admin.crt" ] || return 1
	[ "$(curl -sS --max-time 3 --cacert "$RUN/pki/ca.crt" --cert "$RUN/pki/admin.crt" --key "$RUN/pki/admin.key" \
		"https://127.0.0.1:$PORT_APISERVER/readyz" 2>/dev/null)" = ok ]
}

# running_version prints the gitVersion of the apiserver that answers on the
# cluster's port (with the admin credentials); fails if none is ready.
running_version() {
	apiserver_ready || return 1
	curl -sS --max-time 3 --cacert "$RUN/pki/ca.crt" --cert "$RUN/pki/admin.crt" --key "$RUN/pki/admin.key" \
		"https://127.0.0.1:$PORT_APISERVER/version" 2>/dev/null |
		sed -n 's/^[[:space:]]*"gitVersion":[[:space:]]*"\([^"]*\)".*/\1/p'
}

kc() {
	kubectl --kubeconfig "$KUBECONFIG_FILE" "$@"
}

# busy_ports PORT... prints those of the loopback ports that something listens on.
busy_ports() {
	local p
	for p; do
		if ss -Htln "sport = :$p" 2>/dev/null | grep -q .; then echo "$p"; fi
	done
}

# start_in DIR NAME ARGS...: runs DIR/NAME in its own session (so a Ctrl-C in
# the terminal that ran `make` does not reach it), logs to $RUN/NAME.log, records
# the PID in $RUN/NAME.pid and the command line in $RUN/NAME.cmd, so that
# fault.sh can start it again as it was. START_ENV names the variables of the
# caller's environment that belong to the command (recorded with it).
start_in() {
	local dir=$1 name=$2 v
	shift 2
	local envs=()
	for v in ${START_ENV:-}; do envs+=("$v=${!v-}"); done
	{
		printf 'cmd_dir=%q\n' "$dir"
		printf 'cmd_env=('
		[ "${#envs[@]}" -eq 0 ] || printf ' %q' "${envs[@]}"
		printf ' )\ncmd_args=('
		[ $# -eq 0 ] || printf ' %q' "$@"
		printf ' )\n'
	} >"$RUN/$name.cmd"
	setsid "$dir/$name" "$@" </dev/null >"$RUN/$name.log" 2>&1 &
	echo $! >"$RUN/$name.pid"
}

# start_recorded NAME starts a component again with the command line start_in
# recorded for it, appending to its log.
start_recorded() {
	local name=$1 cmd_dir cmd_env cmd_args
	[ -f "$RUN/$name.cmd" ] || return 1
	# shellcheck disable=SC1090 # written by start_in
	source "$RUN/$name.cmd"
	echo "---- $(date -u +%FT%TZ) started again (hack/cluster/fault.sh) ----" >>"$RUN/$name.log"
	setsid env "${cmd_env[@]}" "$cmd_dir/$name" "${cmd_args[@]}" </dev/null >>"$RUN/$name.log" 2>&1 &
	echo $! >"$RUN/$name.pid"
}

# started COMP succeeds while the process start_in launched for COMP is alive.
# Unlike pid_of, it does not look for the binary's name in its command line:
# for a moment after start_in, the child is still the forked shell (or setsid)
# that has not exec'ed the binary yet, and on a loaded machine a poll can land
# in that moment (a wait once failed with "kube-apiserver exited" and an empty
# log). The PID is our own child's, so it cannot have been reused.
started() {
	local pid state
	pid=$(<"$RUN/$1.pid") || return 1
	[[ $pid =~ ^[0-9]+$ ]] || return 1
	# An exited child stays a zombie (state Z) until the shell reaps it.
	state=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1) || return 1
	[ -n "$state" ] && [ "$state" != Z ]
}

# prometheus_ready succeeds when Prometheus answers /-/ready.
prometheus_ready() {
	curl -fsS --max-time 2 "http://127.0.0.1:$PORT_PROMETHEUS/-/ready" >/dev/null 2>&1
}

# external_metrics_owner prints the namespace/name of the Service behind
# v1beta1.external.metrics.k8s.io (custom-metrics/custom-metrics-apiserver is
# our fake adapter, keda/keda-metrics-apiserver is KEDA's).
external_metrics_owner() {
	kc get apiservice v1beta1.external.metrics.k8s.io \
		-o 'jsonpath={.spec.service.namespace}/{.spec.service.name}' 2>/dev/null
}

# The readiness of each component, as up.sh and keda.sh wait for it (and
# fault.sh after a restart).
etcd_healthy() { curl -sS --max-time 2 "http://127.0.0.1:$PORT_ETCD/health" | grep -q '"health":"true"'; }
healthz() { [ "$(curl -sSk --max-time 2 "https://127.0.0.1:$1/healthz")" = ok ]; }
adapter_control() { [ "$(curl -sS --max-time 2 "http://127.0.0.1:$PORT_ADAPTER_CONTROL/healthz")" = ok ]; }
keda_operator_ready() { [ "$(curl -sS --max-time 2 "http://127.0.0.1:$PORT_KEDA_OPERATOR_HEALTH/readyz")" = ok ]; }
keda_grpc_listening() { [ -n "$(busy_ports "$PORT_KEDA_OPERATOR_GRPC")" ]; }
keda_adapter_healthy() { [ "$(curl -sSk --max-time 2 "https://127.0.0.1:$PORT_KEDA_ADAPTER/healthz")" = ok ]; }
# apiservice_available NAME: the aggregator says the APIService is Available.
apiservice_available() {
	[ "$(kc get apiservice "$1" -o 'jsonpath={.status.conditions[?(@.type=="Available")].status}' 2>/dev/null)" = True ]
}
# metrics_server_serves: metrics-server answers a read of node metrics through
# the aggregator (its own /readyz asks for credentials).
metrics_server_serves() {
	kc get --request-timeout=3s --raw /apis/metrics.k8s.io/v1beta1/nodes >/dev/null 2>&1
}

# component_ready NAME succeeds when the component serves (after a restart).
component_ready() {
	case $1 in
	etcd) etcd_healthy ;;
	kube-apiserver) apiserver_ready ;;
	kube-controller-manager) healthz "$PORT_KCM" ;;
	kube-scheduler) healthz "$PORT_SCHEDULER" ;;
	kwok) [ -n "$(busy_ports "$PORT_KWOK")" ] ;;
	metrics-server) healthz "$PORT_METRICS_SERVER" || metrics_server_serves ;;
	fake-metrics-adapter) adapter_control ;;
	prometheus) prometheus_ready ;;
	keda-operator) keda_operator_ready && keda_grpc_listening ;;
	keda-adapter) keda_adapter_healthy ;;
	*) return 1 ;;
	esac
}
