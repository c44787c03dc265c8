#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Smoke test of a running local cluster (hack/cluster/up.sh): the real HPA
# controller must act on CPU from kwok/metrics-server, on a Pods metric and on an
# External metric from the fake adapter. Works in namespace "smoke" (recreated)
# and deletes it at the end. Takes about 1-2 minutes. Exits non-zero on failure.
set -euo pipefail
# shellcheck source=hack/cluster/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NS=smoke
A=http://127.0.0.1:$PORT_ADAPTER_CONTROL
t0=$SECONDS
say() { printf '[%3ds] %s\n' "$((SECONDS - t0))" "$*"; }
fail() {
	say "FAIL: $*" >&2
	kc -n "$NS" get hpa,deploy,pods -o wide >&2 || true
	kc -n "$NS" describe hpa >&2 || true
	exit 1
}
# until_eq DESC TIMEOUT WANT CMD...: polls CMD until it prints WANT.
until_eq() {
	local desc=$1 timeout=$2 want=$3 got=""
	shift 3
	local deadline=$((SECONDS + timeout))
	while [ "$SECONDS" -lt "$deadline" ]; do
		got=$("$@" 2>/dev/null || true)
		if [ "$got" = "$want" ]; then
			say "ok: $desc = $want"
			return 0
		fi
		sleep 1
	done
	fail "$desc: want $want, last saw '$got' after ${timeout}s"
}
hpa() { kc -n "$NS" get hpa "$1" -o "jsonpath=$2"; }
# raw PATH JQ-FILTER: GET an API path (kubectl get --raw has no -o) and filter it.
raw() { kc get --raw "$1" | jq -r "$2"; }

command -v jq >/dev/null 2>&1 || fail "jq is required"

apiserver_ready || fail "the local cluster is not running (hack/cluster/up.sh)"
kc delete namespace "$NS" --ignore-not-found --wait=true >/dev/null
kc create namespace "$NS" >/dev/null
until_eq "default ServiceAccount in $NS" 30 default kc -n "$NS" get sa default -o 'jsonpath={.metadata.name}'

kc -n "$NS" apply -f - >/dev/null <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations: {kwok.x-k8s.io/usage-cpu: 200m, kwok.x-k8s.io/usage-memory: 64Mi, kwok.x-k8s.io/usage-cpu.sidecar: 20m}
    spec:
      containers:
      - {name: app, image: fake, resources: {requests: {cpu: 500m, memory: 128Mi}}}
      - {name: sidecar, image: fake, resources: {requests: {cpu: 100m, memory: 32Mi}}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
  behavior:
    scaleUp: {stabilizationWindowSeconds: 0}
    scaleDown: {stabilizationWindowSeconds: 0}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: worker}
spec:
  replicas: 2
  selector: {matchLabels: {app: worker}}
  template:
    metadata: {labels: {app: worker}}
    spec:
      containers:
      - {name: app, image: fake, resources: {requests: {cpu: 100m}}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: worker}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: worker}
  minReplicas: 1
  maxReplicas: 10
  metrics:
  - type: Pods
    pods:
      metric: {name: packets-per-second}
      target: {type: AverageValue, averageValue: "100"}
  - type: External
    external:
      metric: {name: queue-depth, selector: {matchLabels: {queue: orders}}}
      target: {type: AverageValue, averageValue: "100"}
  behavior:
    scaleUp: {stabilizationWindowSeconds: 0}
    scaleDown: {stabilizationWindowSeconds: 0}
EOF
say "created deployments web (cpu 200m+20m of 600m requested) and worker, with HPAs"

until_eq "web pods Running" 60 Running kc -n "$NS" get pods -l app=web -o 'jsonpath={.items[0].status.phase}'
# CPU utilization = (200m + 20m) / (500m + 100m) = 36%.
until_eq "web HPA current cpu utilization" 90 36 hpa web '{.status.currentMetrics[0].resource.current.averageUtilization}'
until_eq "web HPA desiredReplicas" 10 1 hpa web '{.status.desiredReplicas}'
pod=$(kc -n "$NS" get pods -l app=web -o 'jsonpath={.items[0].metadata.name}')
until_eq "metrics.k8s.io per-container cpu (app,sidecar)" 30 "200m,20m" \
	raw "/apis/metrics.k8s.io/v1beta1/namespaces/$NS/pods/$pod" \
	'[.containers | sort_by(.name)[] | .usage.cpu | if endswith("n") then (.[:-1] | tonumber / 1e6 | round | tostring) + "m" else . end] | join(",")'
say "metrics.k8s.io: $(raw "/apis/metrics.k8s.io/v1beta1/namespaces/$NS/pods/$pod" '[.containers[] | "\(.name) cpu=\(.usage.cpu) memory=\(.usage.memory)"] | join("; ")')"

kc -n "$NS" annotate --overwrite pod -l app=web kwok.x-k8s.io/usage-cpu=880m >/dev/null
say "web: usage-cpu 200m -> 880m: utilization (880+20)/600 = 150% -> ceil(1 * 150/50) = 3 replicas"
until_eq "web HPA desiredReplicas" 90 3 hpa web '{.status.desiredReplicas}'
until_eq "web Deployment replicas" 30 3 kc -n "$NS" get deploy web -o 'jsonpath={.spec.replicas}'
hpa web '{range .status.conditions[*]}{.type}={.status}/{.reason} {end}' | sed 's/^/         conditions: /'
echo

until_eq "worker pods Running" 60 "Running Running" kc -n "$NS" get pods -l app=worker -o 'jsonpath={.items[*].status.phase}'
for p in $(kc -n "$NS" get pods -l app=worker -o 'jsonpath={.items[*].metadata.name}'); do
	curl -fsS -X POST -d '"300"' "$A/write-metrics/namespaces/$NS/pods/$p/packets-per-second" >/dev/null
done
curl -fsS -X POST -d '"250"' "$A/write-external-metrics/namespaces/$NS/queue-depth?labels=queue=orders" >/dev/null
curl -fsS -X POST -d '"999"' "$A/write-external-metrics/namespaces/$NS/queue-depth?labels=queue=billing" >/dev/null
say "worker: packets-per-second 300 on both pods, queue-depth{queue=orders}=250"
until_eq "custom.metrics.k8s.io v1beta2 pods/* values" 10 "300 300" \
	raw "/apis/custom.metrics.k8s.io/v1beta2/namespaces/$NS/pods/*/packets-per-second" '[.items[].value] | join(" ")'
until_eq "custom.metrics.k8s.io v1beta1 pods/* values" 10 "300 300" \
	raw "/apis/custom.metrics.k8s.io/v1beta1/namespaces/$NS/pods/*/packets-per-second" '[.items[].value] | join(" ")'
until_eq "external.metrics.k8s.io queue=orders" 10 250 \
	raw "/apis/external.metrics.k8s.io/v1beta1/namespaces/$NS/queue-depth?labelSelector=queue%3Dorders" '[.items[].value] | join(" ")'
until_eq "external.metrics.k8s.io, empty selector (all series)" 10 "999 250" \
	raw "/apis/external.metrics.k8s.io/v1beta1/namespaces/$NS/queue-depth" '[.items[].value] | join(" ")'
# Pods: 300 avg / 100 -> 2 * 3 = 6; External: 250 / 100 per pod -> ceil(2.5) = 3; the max wins.
until_eq "worker HPA desiredReplicas" 60 6 hpa worker '{.status.desiredReplicas}'
until_eq "worker HPA current Pods metric averageValue" 10 300 hpa worker '{.status.currentMetrics[0].pods.current.averageValue}'
# The External average is 250 / current replicas: 125 before the scale-up, 41666m after.
until_eq "worker HPA External metric reported" 10 queue-depth hpa worker '{.status.currentMetrics[1].external.metric.name}'
say "worker currentMetrics: $(hpa worker '{.status.currentMetrics}')"

curl -fsS -X DELETE "$A/write-external-metrics/namespaces/$NS/queue-depth" >/dev/null
until_eq "external.metrics.k8s.io after delete" 10 "" \
	raw "/apis/external.metrics.k8s.io/v1beta1/namespaces/$NS/queue-depth" '[.items[].value] | join(" ")'

kc delete namespace "$NS" --wait=false >/dev/null
say "smoke test passed"
