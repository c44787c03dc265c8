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
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok metrics-server fake-metrics-adapter)

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
ALL_PORTS=("$PORT_ETCD" "$PORT_ETCD_PEER" "$PORT_APISERVER" "$PORT_KCM" "$PORT_SCHEDULER" "$PORT_KWOK"
	"$PORT_METRICS_SERVER" "$PORT_ADAPTER" "$PORT_ADAPTER_CONTROL")

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
