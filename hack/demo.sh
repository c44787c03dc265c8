#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# make demo: start the local control plane (real kube-apiserver, real
# kube-controller-manager, kwok node, metrics-server), run a sample app whose
# load changes, and let kubectl-hpa explain the real HPA controller at each
# stage. When the control plane cannot be built or started, it explains the
# bundled offline example instead.
#
# KUBE_VERSION picks the control plane's Kubernetes version (default and
# buildable versions: hack/e2e-tools/lib.sh). DEMO_OFFLINE=1 skips the cluster.
# The cluster is left running at the end (make cluster-down stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/go/bin

BIN=${BIN:-bin/kubectl-hpa}
NS=hpa-demo
OUT=_output
mkdir -p "$OUT"

say() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
[ -n "${NO_COLOR:-}" ] && say() { printf '\n==> %s\n' "$*"; }

offline() {
	say "Offline example: docs/examples/cpu-scale-up-unready.yaml (no cluster needed)"
	"$BIN" explain web -n shop -f docs/examples/cpu-scale-up-unready.yaml --now 2026-01-01T00:00:00Z
	say "What if each pod used 200m instead? The decision, and the next 10 minutes"
	"$BIN" whatif web -n shop -f docs/examples/cpu-scale-up-unready.yaml --now 2026-01-01T00:00:00Z --cpu=200m --for 10m
}

if [ "${DEMO_OFFLINE:-}" = 1 ]; then
	offline
	exit 0
fi

# A cluster of another version is running, or KUBE_VERSION is not buildable:
# up.sh --check has said which, before a long build.
if ! hack/cluster/up.sh --check; then
	echo "showing the offline example instead"
	offline
	exit 0
fi
say "Building the local control plane's binaries (cached; the first build takes 8-15 minutes)"
if ! hack/e2e-tools/build.sh >"$OUT/demo-build.log" 2>&1; then
	echo "could not build the control plane (see $OUT/demo-build.log); showing the offline example instead"
	offline
	exit 0
fi
tail -n 1 "$OUT/demo-build.log"
say "Starting the local control plane"
if ! hack/cluster/up.sh; then
	echo "could not start the control plane; showing the offline example instead"
	offline
	exit 0
fi
export KUBECONFIG=$PWD/_output/local-cluster/kubeconfig

# poll CMD... runs CMD every 2 s until it succeeds, at most $1 seconds.
poll() {
	local limit=$1
	shift
	local end=$((SECONDS + limit))
	until "$@"; do
		if [ $SECONDS -ge $end ]; then
			echo "timed out after ${limit}s waiting for: $*" >&2
			return 1
		fi
		sleep 2
	done
}
utilization() { kubectl get hpa shop -n $NS -o 'jsonpath={.status.currentMetrics[0].resource.current.averageUtilization}' 2>/dev/null; }
has_metrics() { [ -n "$(utilization)" ]; }
util_at_least() { local u; u=$(utilization); [ -n "$u" ] && [ "$u" -ge "$1" ]; }
util_at_most() { local u; u=$(utilization); [ -n "$u" ] && [ "$u" -le "$1" ]; }
set_load() {
	local pods
	pods=$(kubectl get pods -n $NS -l app=shop -o name)
	# shellcheck disable=SC2086
	kubectl annotate --overwrite -n $NS $pods "kwok.x-k8s.io/usage-cpu=$1" >/dev/null
}
# replay_proposes_fewer: the replay's metrics propose fewer replicas than run.
replay_proposes_fewer() {
	local text cur rec
	text=$("$BIN" explain shop -n $NS 2>/dev/null) || return 1
	cur=$(sed -n 's/^Current replicas: *\([0-9]*\).*/\1/p' <<<"$text")
	rec=$(sed -n 's/^Summary: *metrics propose \([0-9]*\).*/\1/p' <<<"$text")
	[ -n "$cur" ] && [ -n "$rec" ] && [ "$rec" -lt "$cur" ]
}
replay_agrees() { "$BIN" explain shop -n $NS 2>/dev/null | grep -q '^Agreement: *agrees'; }
explain_summary() {
	"$BIN" explain shop -n $NS | sed -n 's/^\(Desired replicas\|Summary\|Agreement\):/\1:/p'
}

say "Deploying the sample app: Deployment shop (3 replicas, 500m cpu request, 150m used) and an HPA at 60% cpu"
kubectl delete namespace $NS --ignore-not-found --wait=true >/dev/null
kubectl create namespace $NS >/dev/null
# The local cluster records kube-state-metrics' series for labelled namespaces
# (hack/cluster/README.md): the backtest at the end reads the real pods from them.
kubectl label namespace $NS kubectl-hpa.io/state-metrics=true >/dev/null
kubectl apply -n $NS -f - >/dev/null <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: shop}}
  template:
    metadata:
      labels: {app: shop}
      annotations: {kwok.x-k8s.io/usage-cpu: 150m}
    spec:
      containers:
      - {name: app, image: shop:demo, resources: {requests: {cpu: 500m}}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: shop}
  minReplicas: 2
  maxReplicas: 12
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
  behavior:
    scaleUp:
      policies: [{type: Pods, value: 2, periodSeconds: 15}]
    scaleDown:
      stabilizationWindowSeconds: 60
YAML
# The backtest at the end replays the demo's own run from here on.
DEMO_START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
echo "waiting for the first metrics (metrics-server scrapes every 10 s)..."
poll 120 has_metrics
kubectl get hpa shop -n $NS
say "1. Steady load (30% of request): why does the HPA do nothing?"
explain_summary

say "2. Load rises to 600m per pod (120% of request): the full explanation"
set_load 600m
poll 90 util_at_least 100
"$BIN" explain shop -n $NS

say "3. The controller scales up, 2 pods per 15 s (the Pods policy), until our replay agrees with it"
poll 120 replay_agrees || true
kubectl get hpa shop -n $NS
explain_summary

say "4. Load drops to 50m per pod: why won't it scale down at once?"
set_load 50m
poll 90 replay_proposes_fewer
explain_summary
kubectl get hpa shop -n $NS

say "5. What if each pod used 400m again? The decision, then the next 5 minutes sync by sync"
# This control plane syncs every 5 s (hack/cluster/up.sh); the controller runs
# outside the cluster, so whatif cannot detect it: pass it.
"$BIN" whatif shop -n $NS --cpu=400m --for 5m --sync-period 5s

say "6. Backtest: this run, replayed over the load Prometheus recorded, as the HPA is and with a 20 s scale-down window"
echo "waiting for the scale-down to end (the HPA's 60 s window)..."
replicas() { kubectl get deployment shop -n $NS -o 'jsonpath={.spec.replicas}' 2>/dev/null; }
at_min() { [ "$(replicas)" = 2 ]; }
poll 240 at_min || true
behavior=$(mktemp)
trap 'rm -f "$behavior"' EXIT
cat >"$behavior" <<'YAML'
scaleUp:
  policies: [{type: Pods, value: 2, periodSeconds: 15}]
scaleDown:
  stabilizationWindowSeconds: 20
YAML
"$BIN" whatif shop -n $NS --since "$DEMO_START" --prometheus "http://127.0.0.1:${PROMETHEUS_PORT:-9090}" \
	--sync-period 5s --metrics-resolution 10s --behavior "$behavior" --pod-startup 2s --sample-delay 15s || true

say "7. Tune: the settings that would have cost least over this run without running hotter"
"$BIN" tune shop -n $NS --since "$DEMO_START" --prometheus "http://127.0.0.1:${PROMETHEUS_PORT:-9090}" \
	--sync-period 5s --metrics-resolution 10s --pod-startup 2s --sample-delay 15s || true

say "Done. The cluster is still running:"
echo "  export KUBECONFIG=$KUBECONFIG"
echo "  $BIN explain shop -n $NS        # explain it again"
echo "  $BIN whatif shop -n $NS --cpu=+50% --for auto   # and ask what if"
echo "  $BIN explain shop -n $NS --at 10m --prometheus http://127.0.0.1:${PROMETHEUS_PORT:-9090} --sync-period 5s   # explain a past sync"
echo "  $BIN tune -n $NS --since $DEMO_START --prometheus http://127.0.0.1:${PROMETHEUS_PORT:-9090} --sync-period 5s   # every HPA of the namespace, ranked by saving"
echo "  make cluster-down                # stop it"
