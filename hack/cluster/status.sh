#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Shows the Kubernetes version of the local cluster, whether each component is
# running, and the state of the apiserver, the node, the metrics APIServices,
# Prometheus's scrape targets and KEDA (attached or not: hack/cluster/keda.sh).
# Notes when the running version is not the one KUBE_VERSION selects (up.sh then
# refuses to start). Exits 0 only if all components run and the apiserver is
# ready; KEDA is optional and does not count.
set -euo pipefail
# shellcheck source=hack/cluster/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ok=0
# The version KUBE_VERSION selects (default: hack/e2e-tools/lib.sh); the running
# one comes from the apiserver's /version, or, when it does not answer, from what
# up.sh recorded.
want=
if e2e_select_version 2>/dev/null; then want=$E2E_K8S_VERSION; fi
if have=$(running_version); then
	src="kube-apiserver /version"
else
	have=$(cat "$RUN/kube-version" 2>/dev/null || true)
	src="started by up.sh; apiserver not answering"
fi
if [ -n "$have" ]; then
	note=
	if [ -n "$want" ] && [ "$have" != "$want" ]; then
		note="  (KUBE_VERSION selects $want: make cluster-down before cluster-up)"
	fi
	echo "  Kubernetes $have ($src)$note"
fi
for c in "${COMPONENTS[@]}"; do
	if pid=$(pid_of "$c"); then
		rss=$(awk '/VmRSS/ { printf "%d MB", $2 / 1024 }' "/proc/$pid/status" 2>/dev/null || true)
		printf '  %-24s running  pid %-8s %s\n' "$c" "$pid" "$rss"
	else
		printf '  %-24s stopped\n' "$c"
		ok=1
	fi
done
if apiserver_ready; then
	echo "  apiserver /readyz: ok    kubeconfig: $KUBECONFIG_FILE"
	kc get nodes --no-headers 2>/dev/null | sed 's/^/  node: /' || true
	kc get apiservices "${APISERVICES[@]}" --no-headers 2>/dev/null | awk '{ printf "  apiservice: %-36s Available=%s\n", $1, $3 }' || true
else
	echo "  apiserver /readyz: not ready"
	ok=1
fi
if prometheus_ready; then
	targets=$(curl -sS --max-time 3 "http://127.0.0.1:$PORT_PROMETHEUS/api/v1/targets?state=active" 2>/dev/null || true)
	up=$(grep -o '"health":"up"' <<<"$targets" | wc -l)
	all=$(grep -o '"health":"[a-z]*"' <<<"$targets" | wc -l)
	echo "  prometheus: http://127.0.0.1:$PORT_PROMETHEUS ready, $up of $all kubelet-resource targets (one per node) up"
else
	echo "  prometheus: not ready"
fi
if [ -n "$(for c in "${KEDA_COMPONENTS[@]}"; do pid_of "$c" || true; done)" ]; then
	echo "  KEDA:"
	"$CLUSTER_HACK_DIR/keda.sh" status | sed 's/^/  /' || true
else
	echo "  KEDA: not running (attach it with hack/cluster/keda.sh up, or start with KEDA=1)"
fi
exit "$ok"
