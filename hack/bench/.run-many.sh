#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# hack/bench/many.sh N_NAMESPACES HPAS PODS [RUNS]
#
# Fleet-scale benchmark of `kubectl hpa explain -A` on the local control plane
# (hack/cluster). It populates the cluster with HPAS Deployments and HPAs (CPU
# utilization, 50% of a 100m request, pods at 50m; scale-ups stabilized over 5
# minutes like scale-downs, because the simulated usage jitters around the
# target by more than the tolerance and the fleet would otherwise keep growing)
# spread over N_NAMESPACES namespaces, PODS pods in all, on simulated kwok nodes,
# waits until every pod runs and every HPA has a status, then times, in the same
# run and RUNS times each (default 3):
#
#   kubectl-hpa explain -A -o json     kubectl-hpa explain -A (text)
#   kubectl describe hpa -A            kubectl get hpa -A
#
# and, for one HPA, kubectl-hpa explain NAME -o json and kubectl describe hpa NAME,
# with /usr/bin/time (wall seconds, peak RSS) and the API requests each made
# (kubectl-hpa -v 1 prints "API calls: N"; kubectl -v 6 logs one line per
# request). It prints a Markdown table (also written to _output/bench/). The
# bench objects carry the label kubectl-hpa-bench=many; a run of the same shape
# reuses them, a run of another shape restarts the local control plane (a fresh
# etcd: much faster than deleting thousands of pods). `hack/bench/many.sh clean`
# deletes them. MANY_WAIT=0 measures at once, without waiting for the pods.
#
# The pods name their node (no scheduling) and the Deployments' pods are created
# by the ReplicaSet controller: start the cluster with a higher client rate for
# kube-controller-manager, or 20,000 pods take a quarter of an hour to appear.
# When no cluster is running, this script starts one so (KCM_EXTRA_ARGS), with
# the HPA controller's and metrics-server's production periods (HPA_SYNC_PERIOD,
# METRIC_RESOLUTION: 15s each). It also prints the CPU time of the client, the
# API server and the rest of the control plane per command, and runs kwok at
# nice 19 while timing (MANY_NICE=0: nice 0). Each run starts once every pod
# has its PodMetrics, and the table says, per explain -A -o json, how many
# HPAs read their metric, how many pods they select and how many of those had
# no PodMetrics; and, per command, how many objects the API server listed
# from etcd rather than from its watch cache (its metrics, read between the
# commands).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

usage() { echo "usage: hack/bench/many.sh N_NAMESPACES HPAS PODS [RUNS] | clean" >&2; exit 2; }
LABEL=kubectl-hpa-bench
export KUBECONFIG=${KUBECONFIG_BENCH:-$repo/_output/local-cluster/kubeconfig}
kc() { kubectl --request-timeout=5m "$@"; }

clean() {
	echo "many.sh: deleting the bench namespaces and nodes" >&2
	kc delete ns -l "$LABEL" --wait=false >/dev/null 2>&1 || true
	kc delete node -l "$LABEL" >/dev/null 2>&1 || true
	while [ -n "$(kc get ns -l "$LABEL" -o name 2>/dev/null)" ]; do sleep 2; done
}

[ "${1:-}" = clean ] && { clean; exit 0; }
[ $# -ge 3 ] || usage
NS=$1 HPAS=$2 PODS=$3 RUNS=${4:-3}
for v in "$NS" "$HPAS" "$PODS" "$RUNS"; do [[ $v =~ ^[1-9][0-9]*$ ]] || usage; done
[ "$HPAS" -ge "$NS" ] || { echo "many.sh: HPAS must be at least N_NAMESPACES" >&2; exit 2; }
[ "$PODS" -ge "$HPAS" ] || { echo "many.sh: PODS must be at least HPAS" >&2; exit 2; }
shape="$NS-$HPAS-$PODS-b2" # -b2: the fleet with stabilized scale-ups

# The control plane at the defaults of a production cluster: the HPA
# controller's 15 s sync period (upstream's default; hack/cluster's 5 s is
# for the e2e tests) and metrics-server at the 15 s resolution of its
# published manifest. kube-controller-manager gets a higher client rate so
# that the ReplicaSet controller creates 20,000 pods in seconds.
# metrics-server waits up to 13 s for a simulated kubelet's answer (at most
# 0.9 of its resolution; the e2e cluster's 5 s): kwok runs at the lowest
# priority while the commands are timed (below), and a scrape that times
# out drops that node's pods from the PodMetrics until the next one succeeds.
start_cluster() {
	HPA_SYNC_PERIOD=${HPA_SYNC_PERIOD:-15s} METRIC_RESOLUTION=${METRIC_RESOLUTION:-15s} \
		METRICS_SERVER_EXTRA_ARGS="${METRICS_SERVER_EXTRA_ARGS:---kubelet-request-timeout=13s}" \
		KCM_EXTRA_ARGS="${KCM_EXTRA_ARGS:---kube-api-qps=500 --kube-api-burst=1000}" hack/cluster/up.sh >&2
}
if ! hack/cluster/status.sh >/dev/null 2>&1; then
	echo "many.sh: starting the local control plane (kube-controller-manager at 500 QPS)" >&2
	start_cluster
fi
make -s build >&2
BIN=$repo/bin/kubectl-hpa

# --- populate ------------------------------------------------------------------
have=$(kc get ns -l "$LABEL" -o jsonpath='{.items[0].metadata.labels.kubectl-hpa-bench-shape}' 2>/dev/null || true)
if [ -n "$have" ] && [ "$have" != "$shape" ]; then
	# Deleting thousands of pods through namespace deletion takes many minutes;
	# a fresh start of the local control plane (new etcd) takes seconds.
	echo "many.sh: the cluster holds the bench of shape $have: restarting the local control plane" >&2
	hack/cluster/down.sh >&2
	start_cluster
	have=
fi
PER_NODE=2000
NODES=$(((PODS + PER_NODE - 1) / PER_NODE))
if [ -z "$have" ]; then
	echo "many.sh: creating $NODES nodes, $NS namespaces, $HPAS Deployments and HPAs, $PODS pods" >&2
	{
		for ((n = 0; n < NODES; n++)); do
			cat <<EOF
---
apiVersion: v1
kind: Node
metadata:
  name: kwok-bench-$n
  labels: {$LABEL: many, type: kwok, kubernetes.io/hostname: kwok-bench-$n, kubernetes.io/os: linux}
  annotations:
    kwok.x-k8s.io/node: fake
    node.alpha.kubernetes.io/ttl: "0"
    metrics.k8s.io/resource-metrics-path: /metrics/nodes/kwok-bench-$n/metrics/resource
status:
  allocatable: {cpu: "1000", memory: 4Ti, pods: "$PER_NODE"}
  capacity: {cpu: "1000", memory: 4Ti, pods: "$PER_NODE"}
EOF
		done
		for ((i = 0; i < NS; i++)); do
			cat <<EOF
---
apiVersion: v1
kind: Namespace
metadata:
  name: bench-$i
  labels: {$LABEL: many, $LABEL-shape: "$shape"}
EOF
		done
		pod=0
		for ((h = 0; h < HPAS; h++)); do
			ns=bench-$((h % NS))
			# PODS over HPAS, the remainder to the first ones.
			r=$((PODS / HPAS + (h < PODS % HPAS ? 1 : 0)))
			node=kwok-bench-$((pod / PER_NODE))
			pod=$((pod + r))
			cat <<EOF
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app-$h, namespace: $ns}
spec:
  replicas: $r
  selector: {matchLabels: {app: app-$h}}
  template:
    metadata:
      labels: {app: app-$h}
      annotations: {kwok.x-k8s.io/usage-cpu: 50m}
    spec:
      nodeName: $node
      containers:
      - {name: app, image: app, resources: {requests: {cpu: 100m, memory: 64Mi}}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: app-$h, namespace: $ns}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: app-$h}
  minReplicas: 1
  maxReplicas: $((r * 4))
  behavior:
    scaleUp: {stabilizationWindowSeconds: 300}
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
EOF
		done
	} >"${TMPDIR:-/tmp}/many-$shape.yaml"
	# Namespaces and nodes first, then the rest.
	kc create -f "${TMPDIR:-/tmp}/many-$shape.yaml" >/dev/null 2>"${TMPDIR:-/tmp}/many-create.err" || {
		# create reports the objects that exist; anything else is an error.
		if grep -v 'AlreadyExists\|already exists\|not found' "${TMPDIR:-/tmp}/many-create.err" | grep -q .; then
			cat "${TMPDIR:-/tmp}/many-create.err" >&2
			exit 1
		fi
		kc create -f "${TMPDIR:-/tmp}/many-$shape.yaml" >/dev/null 2>&1 || true
	}
fi

# --- wait for the steady state ----------------------------------------------------
waitfor() { # what timeout-seconds command...
	local what=$1 timeout=$2 start=$SECONDS got
	shift 2
	while :; do
		got=$("$@" 2>/dev/null || echo 0)
		if [ "$got" -ge "$want" ]; then
			echo "many.sh: $what: $got (after $((SECONDS - start)) s)" >&2
			return 0
		fi
		if [ $((SECONDS - start)) -ge "$timeout" ]; then
			echo "many.sh: $what: $got of $want after $timeout s" >&2
			exit 1
		fi
		sleep 10
	done
}
# Ready pods from the Deployments' status (listing 20,000 pods every few
# seconds would slow down what it waits for).
running() { kc get deploy -A -o json | jq '[.items[] | select(.metadata.namespace | startswith("bench-")) | .status.readyReplicas // 0] | add // 0'; }
podmetrics() { kc get --raw /apis/metrics.k8s.io/v1beta1/pods | jq '[.items[] | select(.metadata.namespace | startswith("bench-"))] | length'; }
hpastatus() { kc get hpa -A -o json | jq '[.items[] | select(.metadata.namespace | startswith("bench-")) | select((.status.currentMetrics // []) | length > 0)] | length'; }
if [ "${MANY_WAIT:-1}" = 0 ]; then
	# Measure the cluster as it is (e.g. while kwok is still starting pods).
	echo "many.sh: MANY_WAIT=0: not waiting; ready pods $(running), PodMetrics $(podmetrics), HPAs with a metric $(hpastatus)" >&2
else
	want=$PODS waitfor "pods ready" 1800 running
	want=$PODS waitfor "pods with metrics" 600 podmetrics
	want=$HPAS waitfor "HPAs with a computed metric" 600 hpastatus
fi

# --- measure ------------------------------------------------------------------------
# kwok (the simulated kubelets, serving every pod's metrics) runs on worker
# nodes in a real cluster, not on the control plane's CPUs; here it shares
# two cores with the API server, and serving a metrics scrape of 20,000 pods
# takes it a core for seconds. It runs at the lowest CPU priority while the
# commands are timed (MANY_NICE=0 puts it back at the default), so that both
# clients meet an API server that is not starved by simulated nodes.
# metrics-server keeps its priority: it answers explain's PodMetrics list
# (describe reads none), and at the lowest priority that answer waited for
# everything else on the two cores (0.3-0.6 s at 20,000 pods). kube-
# controller-manager stays as it is too: its HPA syncs are the control
# plane's own load.
# With the kernel's autogroup scheduling (sched_autogroup_enabled), each
# daemon of the local cluster is its own group (hack/cluster starts them in
# their own sessions) and a process's nice value only weighs inside its
# group: the group's nice (/proc/PID/autogroup) is what counts between them.
nice=19
[ "${MANY_NICE:-1}" = 1 ] || nice=0
setnice() { # nice pid-file
	local pid
	pid=$(cat "$2" 2>/dev/null) || return 0
	renice -n "$1" -p "$pid" >/dev/null
	[ -w "/proc/$pid/autogroup" ] && echo "$1" >"/proc/$pid/autogroup"
	return 0
}
setnice "$nice" "$repo/_output/local-cluster/kwok.pid"
setnice 0 "$repo/_output/local-cluster/metrics-server.pid"
out=$repo/_output/bench
mkdir -p "$out"
# CPU time (clock ticks, user + system) of the local control plane's
# processes, from their pid files: the API server alone, and the others
# (etcd, kube-controller-manager, scheduler, kwok, metrics-server, adapter).
# The difference across a command is the server-side work it caused plus
# what the others did meanwhile (kube-controller-manager's HPA syncs).
cluster=$repo/_output/local-cluster
ticks() { # pid-file...
	local f pid t=0 u s
	for f in "$@"; do
		pid=$(cat "$f" 2>/dev/null) || continue
		# Fields 14 and 15 of /proc/PID/stat, counted after the ")" that
		# ends the command name.
		read -r u s < <(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{ print $12, $13 }') || continue
		t=$((t + ${u:-0} + ${s:-0}))
	done
	echo "$t"
}
others=()
for f in "$cluster"/*.pid; do [ "$(basename "$f")" = kube-apiserver.pid ] || others+=("$f"); done
hz=$(getconf CLK_TCK)
flag() { # process flag: --flag=value from the running process's command line
	tr '\0' '\n' <"/proc/$(cat "$cluster/$1.pid")/cmdline" 2>/dev/null | { grep -- "^--$2=" || echo "--$2 (default)"; } | tail -1
}
# The objects the API server has read from etcd for lists (all resources /
# the pods), from its metrics: what it could not answer from its watch
# cache (events always, as the watch cache holds none by default; a
# paginated list's later pages when the cache has no snapshot for them). "-"
# when the metric is missing.
etcdreads() {
	kc get --raw /metrics 2>/dev/null | awk '/^apiserver_storage_list_fetched_objects_total\{/ && /storage="etcd"/ {
		t += $2; if ($0 ~ /resource="pods"/) p += $2; seen = 1 }
		END { if (seen) printf "%d/%d", t, p; else print "-" }'
}
measure() { # name, then the command; prints wall, rss MiB, requests, items, CPU s (client, API server, others), HPAs with metrics, objects listed from etcd (all/pods)
	local name=$1 log=$out/$1.err res=$out/$1.out
	shift
	local a0 o0 a1 o1 e0 e1
	e0=$(etcdreads)
	a0=$(ticks "$cluster/kube-apiserver.pid") o0=$(ticks "${others[@]}")
	/usr/bin/time -f '%e %M %U %S' -o "$out/$name.time" "$@" >"$res" 2>"$log" || {
		echo "many.sh: $name failed:" >&2
		tail -5 "$log" >&2
		exit 1
	}
	a1=$(ticks "$cluster/kube-apiserver.pid") o1=$(ticks "${others[@]}")
	e1=$(etcdreads)
	read -r wall rss usr sys <"$out/$name.time"
	local cpu
	cpu=$(awk -v u="$usr" -v s="$sys" -v a=$((a1 - a0)) -v o=$((o1 - o0)) -v hz="$hz" 'BEGIN { printf "%.2f %.2f %.2f", u + s, a / hz, o / hz }')
	local reqs
	case $name in
	explain*) reqs=$(sed -n 's/^API calls: \([0-9]*\).*/\1/p' "$log" | tail -1) ;;
	*) reqs=$(grep -cE 'verb="[A-Z]+" url=|(GET|POST) https://[^ ]+ [0-9]{3} ' "$log" || true) ;;
	esac
	local items withm=-
	case $name in
	explain-json)
		# And how many of them read their metric, how many pods they
		# select, and how many of those had no PodMetrics: a run that met
		# a failed scrape replays with fewer metrics, less work.
		items=$(jq '.items | length' "$res")
		withm=$(jq -r '"\([.items[] | select(.metrics[0].error == null)] | length)/\([.items[] | .metrics[0].pods.listed // 0] | add)/\([.items[] | .metrics[0].pods.missing // 0] | add)"' "$res")
		;;
	explain-one) items=$(jq -r '.hpa.name | length | if . > 0 then 1 else 0 end' "$res") ;;
	describe-one) items=$(grep -c '^Name:' "$res" || true) ;;
	explain-text) items=$(grep -c '^bench-' "$res" || true) ;;
	describe) items=$(grep -c '^Name:' "$res" || true) ;;
	get) items=$(grep -c '^bench-' "$res" || true) ;;
	esac
	local etcd=-
	[ "$e0" = - ] || [ "$e1" = - ] || etcd=$(awk -v a="$e0" -v b="$e1" 'BEGIN { split(a, x, "/"); split(b, y, "/"); printf "%d/%d", y[1] - x[1], y[2] - x[2] }')
	printf '%s %s %s %s %s %s %s %s\n' "$name" "$wall" "$((rss / 1024))" "${reqs:-?}" "$items" "$cpu" "$withm" "$etcd"
}
results=$out/many-$shape.txt
: >"$results"
for ((run = 1; run <= RUNS; run++)); do
	echo "many.sh: run $run of $RUNS" >&2
	# Each run starts with every pod's metrics served (and a pause, so
	# that the check's own load is over).
	if [ "${MANY_WAIT:-1}" != 0 ]; then
		want=$PODS waitfor "pods with metrics" 120 podmetrics
		sleep 3
	fi
	# explain -A -o json and describe -A take turns at going first: the
	# check above allocates in the API server (the PodMetrics through the
	# aggregator), which brings its next collection forward onto whichever
	# command comes next.
	if ((run % 2)); then
		measure explain-json "$BIN" explain -A -o json -v 1 >>"$results"
		measure describe kubectl describe hpa -A -v 6 >>"$results"
	else
		measure describe kubectl describe hpa -A -v 6 >>"$results"
		measure explain-json "$BIN" explain -A -o json -v 1 >>"$results"
	fi
	measure explain-text "$BIN" explain -A -v 1 >>"$results"
	measure get kubectl get hpa -A -v 6 >>"$results"
	measure explain-one "$BIN" explain app-0 -n bench-0 -o json -v 1 >>"$results"
	measure describe-one kubectl describe hpa app-0 -n bench-0 -v 6 >>"$results"
done

# --- report ---------------------------------------------------------------------------
kv=$(kc version -o json | jq -r .serverVersion.gitVersion)
{
	echo "Local control plane $kv, $NS namespaces, $HPAS HPAs, $PODS pods; $RUNS runs each; $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "Control plane: kube-controller-manager $(flag kube-controller-manager horizontal-pod-autoscaler-sync-period), metrics-server $(flag metrics-server metric-resolution) $(flag metrics-server kubelet-request-timeout); kwok at nice $(ps -o ni= -p "$(cat "$cluster/kwok.pid")" | tr -d ' ') ($(cat "/proc/$(cat "$cluster/kwok.pid")/autogroup" 2>/dev/null || echo 'no autogroup')), metrics-server at nice $(ps -o ni= -p "$(cat "$cluster/metrics-server.pid")" | tr -d ' ')"
	echo
	echo "| command | wall (s) | peak RSS (MiB) | API requests | HPAs printed | HPAs with their metric / pods / pods without metrics | client CPU (s) | API server CPU (s) | rest of the control plane CPU (s) | objects the API server listed from etcd (all / pods) |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for name in explain-json explain-text describe get explain-one describe-one; do
		case $name in
		explain-json) cmd='`kubectl hpa explain -A -o json`' ;;
		explain-text) cmd='`kubectl hpa explain -A`' ;;
		describe) cmd='`kubectl describe hpa -A`' ;;
		get) cmd='`kubectl get hpa -A`' ;;
		explain-one) cmd='`kubectl hpa explain app-0 -n bench-0 -o json`' ;;
		describe-one) cmd='`kubectl describe hpa app-0 -n bench-0`' ;;
		esac
		awk -v n="$name" -v c="$cmd" '$1 == n {
			w = w sep $2; r = (r == "" || $3 > r + 0) ? $3 : r; i = $5
			if (!($4 in seen)) { q = q qsep $4; qsep = ", "; seen[$4] = 1 }
			u = u sep $6; a = a sep $7; o = o sep $8; m = m sep $9; e = e sep $10; sep = ", "
		} END { if (m ~ /^[-, ]*$/) m = "-"
			if (e ~ /^[-, ]*$/) e = "-"
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c, w, r, q, i, m, u, a, o, e }' "$results"
	done
	awk '$1 == "explain-json" { e[++ne] = $2 } $1 == "describe" { d[++nd] = $2 }
		END { for (k = 1; k <= ne && k <= nd; k++) printf "%s%.2f", (k > 1 ? ", " : "explain -A -o json / describe hpa -A, per run: "), e[k] / d[k]; print "" }' "$results"
} | tee "$out/many-$shape.md"
