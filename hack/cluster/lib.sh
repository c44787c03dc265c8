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

# Fixed loopback ports (up.sh checks they are free).
PORT_ETCD=2379
PORT_ETCD_PEER=2380
PORT_APISERVER=6443
PORT_KCM=10257
PORT_SCHEDULER=10259
PORT_KWOK=10247
PORT_METRICS_SERVER=4443
PORT_ADAPTER=6445
PORT_ADAPTER_CONTROL=6446
# Prometheus's HTTP API (http://127.0.0.1:9090/api/v1/...).
PORT_PROMETHEUS=${PROMETHEUS_PORT:-9090}
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
PORT_KEDA_OPERATOR_GRPC=9666
PORT_KEDA_OPERATOR_HEALTH=9667
PORT_KEDA_OPERATOR_METRICS=9668
PORT_KEDA_ADAPTER=6447
PORT_KEDA_ADAPTER_METRICS=9669
KEDA_PORTS=("$PORT_KEDA_OPERATOR_GRPC" "$PORT_KEDA_OPERATOR_HEALTH" "$PORT_KEDA_OPERATOR_METRICS"
	"$PORT_KEDA_ADAPTER" "$PORT_KEDA_ADAPTER_METRICS")

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
# the PID in $RUN/NAME.pid.
start_in() {
	local dir=$1 name=$2
	shift 2
	setsid "$dir/$name" "$@" </dev/null >"$RUN/$name.log" 2>&1 &
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
