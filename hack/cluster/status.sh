#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Shows whether each component of the local cluster is running, and the state of
# the apiserver, the node and the metrics APIServices. Exits 0 only if all
# components run and the apiserver is ready.
set -euo pipefail
# shellcheck source=hack/cluster/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ok=0
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
exit "$ok"
