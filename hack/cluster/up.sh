#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Starts a real, local Kubernetes control plane on 127.0.0.1 for the e2e tests and
# `make demo`, at the version KUBE_VERSION selects (default and buildable versions:
# hack/e2e-tools/lib.sh): etcd, kube-apiserver (with an audit log), kube-controller-
# manager (HPA sync period 5s), kube-scheduler, kwok with one simulated node,
# metrics-server, and our fake custom/external metrics adapter, with the four
# metrics APIServices registered, and Prometheus scraping the simulated kubelets'
# resource metrics from kwok every 5s. With KEDA=1, also KEDA (keda.sh up): its
# operator and its metrics API server, which then serves external.metrics.k8s.io
# instead of the fake adapter. No Docker, no kubelet, no root.
#
# Everything lives in _output/local-cluster/ (override with KUBECTL_HPA_CLUSTER_DIR):
# PKI in pki/, the admin kubeconfig in kubeconfig, <component>.log and
# <component>.pid, the apiserver's audit.log, Prometheus's data in prometheus-data/.
# Stop it with hack/cluster/down.sh.
#
# The binaries come from hack/e2e-tools/build.sh for the same KUBE_VERSION
# (E2E_BIN_DIR, PROMETHEUS_BIN_DIR and KEDA_BIN_DIR override). If a complete
# cluster of that version is already running, up.sh says so and exits 0 (with
# KEDA=1 it attaches KEDA to it if KEDA is not running); if one of another version
# is running, it refuses (exit 1) and leaves it alone: stop it with down.sh first.
#
#   hack/cluster/up.sh           start (or find running) the selected version
#   hack/cluster/up.sh --check   only that check: exit 1 if a cluster of another
#                                version is running, 0 otherwise; starts nothing
#
# Tunables (environment):
#   KUBE_VERSION           Kubernetes version, e.g. v1.36.3 (default: lib.sh)
#   HPA_SYNC_PERIOD        --horizontal-pod-autoscaler-sync-period (default 5s)
#   KCM_EXTRA_ARGS         extra kube-controller-manager flags, e.g.
#                          "--horizontal-pod-autoscaler-tolerance=0.2 --horizontal-pod-autoscaler-downscale-stabilization=1m"
#   FEATURE_GATES          --feature-gates for kube-apiserver and kube-controller-manager,
#                          e.g. HPAScaleToZero=true (alpha and off before v1.37, beta and on in v1.37)
#   APISERVER_EXTRA_ARGS, SCHEDULER_EXTRA_ARGS, METRICS_SERVER_EXTRA_ARGS, ADAPTER_EXTRA_ARGS
#   METRIC_RESOLUTION      metrics-server --metric-resolution (default 10s, its minimum)
#   UP_TIMEOUT             seconds to wait for each readiness step (default 60)
#   KEEP_ON_FAILURE=1      leave the processes running when start-up fails
#   ADAPTER_VERBOSITY      klog -v of the adapter (default 2: logs every write)
#   PROMETHEUS_PORT        Prometheus's HTTP port on 127.0.0.1 (default 9090)
#   PROMETHEUS_SCRAPE_INTERVAL  how often Prometheus scrapes kwok (default 5s)
#   PROMETHEUS_EXTRA_ARGS  extra prometheus flags
#   PROMETHEUS_CLUSTER     the value of the label cluster on every series (default
#                          e2e-local; the e2e test's second cluster has its own)
#   KEDA=1                 also start KEDA (hack/cluster/keda.sh up; its tunables there)
#   KUBECTL_HPA_PORT_OFFSET  added to every port (default 0), for a second cluster
#                          beside the first, with its own KUBECTL_HPA_CLUSTER_DIR
#
# Each component's command line is recorded in <component>.cmd, from which
# hack/cluster/fault.sh starts it again after a kill.
set -euo pipefail
# shellcheck source=hack/cluster/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_select_version || exit 1

check_only=
case "${1:-}" in
"") ;;
--check) check_only=1 ;;
*)
	echo "usage: up.sh [--check]" >&2
	exit 2
	;;
esac

# Flags that depend on the Kubernetes version, one per line:
#   COMPONENT FROM-MINOR TO-MINOR FLAG    (minors inclusive, "-" = no bound)
# Everything else is the same for every buildable version.
VERSION_FLAGS=(
	# v1.37 validates --advertise-address for the endpoint reconciler, and a
	# loopback address "may not be in the loopback range"; nothing here needs the
	# reconciled endpoints of the "kubernetes" Service (there is no kube-proxy).
	"kube-apiserver 37 - --endpoint-reconciler-type=none"
)
# version_flags COMPONENT prints the flags VERSION_FLAGS gives COMPONENT at the
# selected minor, one per line.
version_flags() {
	local row comp from to flag
	for row in "${VERSION_FLAGS[@]}"; do
		read -r comp from to flag <<<"$row"
		[ "$comp" = "$1" ] || continue
		[ "$from" = - ] || [ "$E2E_K8S_MINOR" -ge "$from" ] || continue
		[ "$to" = - ] || [ "$E2E_K8S_MINOR" -le "$to" ] || continue
		echo "$flag"
	done
}

UP_TIMEOUT=${UP_TIMEOUT:-60}
HPA_SYNC_PERIOD=${HPA_SYNC_PERIOD:-5s}
METRIC_RESOLUTION=${METRIC_RESOLUTION:-10s}
PROMETHEUS_SCRAPE_INTERVAL=${PROMETHEUS_SCRAPE_INTERVAL:-5s}
PROMETHEUS_CLUSTER=${PROMETHEUS_CLUSTER:-e2e-local}
[[ $PROMETHEUS_CLUSTER =~ ^[a-z0-9][a-z0-9.-]*$ ]] ||
	{ echo "up.sh: PROMETHEUS_CLUSTER=$PROMETHEUS_CLUSTER is not a name like e2e-local" >&2; exit 2; }
[[ $PROMETHEUS_SCRAPE_INTERVAL =~ ^[1-9][0-9]*(ms|s|m)$ ]] ||
	{ echo "up.sh: PROMETHEUS_SCRAPE_INTERVAL=$PROMETHEUS_SCRAPE_INTERVAL is not a duration like 5s" >&2; exit 2; }
want_keda=
if e2e_keda_wanted; then want_keda=1; fi

t0=$(date +%s.%N)
since() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%6.2fs", b - a }'; }
step() { printf '  %-40s %s\n' "$1" "$(since)"; }
die() {
	echo "up.sh: $*" >&2
	exit 1
}

for tool in curl openssl kubectl; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is required but not on PATH"
done

# --- already running? -------------------------------------------------------

# A cluster of another version is never reused and never stopped here: the
# caller asked for a version, and the running cluster may be someone's demo.
if have=$(running_version) && [ "$have" != "$E2E_K8S_VERSION" ]; then
	die "a local Kubernetes ${have:-(unknown version)} cluster is running, but KUBE_VERSION selects $E2E_K8S_VERSION;" \
		"stop it first (make cluster-down) or use KUBE_VERSION=${have:-...}"
fi
[ -z "$check_only" ] || exit 0

running=()
for c in "${COMPONENTS[@]}"; do
	if pid_of "$c" >/dev/null; then running+=("$c"); fi
done
if [ "${#running[@]}" -eq "${#COMPONENTS[@]}" ] && apiserver_ready; then
	echo "local Kubernetes $E2E_K8S_VERSION cluster already running (${#running[@]} processes, apiserver ready)"
	echo "kubeconfig: $KUBECONFIG_FILE"
	if [ -n "$want_keda" ]; then
		exec "$CLUSTER_HACK_DIR/keda.sh" up
	fi
	exit 0
fi
if [ "${#running[@]}" -gt 0 ]; then
	echo "up.sh: a partial cluster is running (${running[*]}); stopping it first" >&2
	"$CLUSTER_HACK_DIR/down.sh"
fi

BIN=${E2E_BIN_DIR:-$(e2e_bin_dir)}
missing=$(e2e_missing "$BIN")
[ -z "$missing" ] || die "binaries missing in $BIN:" $missing "-- run hack/e2e-tools/build.sh (make e2e-tools) first"
[ -f "$BIN/kwok-stages.yaml" ] || die "$BIN/kwok-stages.yaml missing -- run hack/e2e-tools/build.sh (make e2e-tools)"
PROM_BIN=$(e2e_addon_dir prometheus)
missing=$(e2e_addon_missing prometheus "$PROM_BIN")
[ -z "$missing" ] || die "Prometheus missing in $PROM_BIN -- run hack/e2e-tools/build.sh (make e2e-tools) first"
if [ -n "$want_keda" ]; then
	# Checked now rather than after the cluster has started.
	"$CLUSTER_HACK_DIR/keda.sh" check || exit 1
fi

# --- ports --------------------------------------------------------------------

ports=("${ALL_PORTS[@]}")
if [ -n "$want_keda" ]; then ports+=("${KEDA_PORTS[@]}"); fi
mapfile -t busy < <(busy_ports "${ports[@]}")
if [ "${#busy[@]}" -gt 0 ]; then
	echo "up.sh: these loopback ports are already in use: ${busy[*]}" >&2
	ss -Htlnp 2>/dev/null | grep -E ":($(
		IFS='|'
		echo "${busy[*]}"
	))\b" >&2 || true
	die "stop whatever holds them (another local cluster? hack/cluster/down.sh) and retry"
fi

# --- fresh state (PKI and kubeconfig are kept between runs) ------------------

mkdir -p "$RUN"
rm -rf "$RUN/etcd-data" "$RUN/prometheus-data"
rm -f "$RUN"/*.log "$RUN"/audit*.log "$RUN"/*.pid "$RUN"/*.cmd
echo "$E2E_K8S_VERSION" >"$RUN/kube-version"
echo "starting a local Kubernetes $E2E_K8S_VERSION cluster in $RUN (binaries: $BIN)"

# --- PKI ----------------------------------------------------------------------

gen_pki() {
	local pki=$RUN/pki
	rm -rf "$pki"
	mkdir -p "$pki"
	cat >"$pki/openssl.cnf" <<-'EOF'
		[req]
		distinguished_name = dn
		prompt = no
		[dn]
		CN = unused
		[ca]
		basicConstraints = critical, CA:TRUE
		keyUsage = critical, keyCertSign, cRLSign, digitalSignature
		subjectKeyIdentifier = hash
		[serving]
		basicConstraints = critical, CA:FALSE
		keyUsage = critical, digitalSignature, keyEncipherment
		extendedKeyUsage = serverAuth, clientAuth
		subjectKeyIdentifier = hash
		authorityKeyIdentifier = keyid
		subjectAltName = @sans
		[client]
		basicConstraints = critical, CA:FALSE
		keyUsage = critical, digitalSignature, keyEncipherment
		extendedKeyUsage = clientAuth
		subjectKeyIdentifier = hash
		authorityKeyIdentifier = keyid
		[sans]
		IP.1 = 127.0.0.1
		IP.2 = 10.0.0.1
		DNS.1 = localhost
		DNS.2 = kubernetes
		DNS.3 = kubernetes.default
		DNS.4 = kubernetes.default.svc
		DNS.5 = kubernetes.default.svc.cluster.local
		DNS.6 = metrics-server.kube-system.svc
		DNS.7 = custom-metrics-apiserver.custom-metrics.svc
	EOF
	(
		cd "$pki"
		key() { openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1.key" 2>/dev/null; }
		# cert NAME SUBJECT EXTENSION-SECTION: a certificate signed by the CA.
		cert() {
			key "$1"
			openssl req -new -key "$1.key" -subj "$2" -config openssl.cnf -out "$1.csr"
			openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -set_serial "0x$(openssl rand -hex 12)" \
				-days 3650 -sha256 -extfile openssl.cnf -extensions "$3" -out "$1.crt" 2>/dev/null
			rm -f "$1.csr"
		}
		key ca
		openssl req -x509 -new -key ca.key -subj "/CN=kubectl-hpa-e2e-ca" -days 3650 -sha256 \
			-config openssl.cnf -extensions ca -out ca.crt
		cert serving "/CN=kubectl-hpa-e2e-serving" serving
		cert admin "/O=system:masters/CN=kubectl-hpa-e2e-admin" client
		# One identity per component, so the audit log tells them apart from the
		# admin user (which only humans, tests and the plugin use).
		for c in "${CLIENT_COMPONENTS[@]}"; do
			cert "$c" "/O=system:masters/CN=e2e:$c" client
		done
		cert front-proxy "/CN=front-proxy-client" client
		# Service-account token signing keypair.
		key sa
		openssl pkey -in sa.key -pubout -out sa.pub
		chmod 600 ./*.key
	)
}

# write_kubeconfig FILE CERT: a kubeconfig for the client cert pki/CERT.{crt,key}.
write_kubeconfig() {
	local file=$1 cert=$2 pki=$RUN/pki
	local tmp=$file.tmp
	cat >"$tmp" <<-EOF
		apiVersion: v1
		kind: Config
		clusters:
		- name: kubectl-hpa-e2e
		  cluster:
		    server: https://127.0.0.1:$PORT_APISERVER
		    certificate-authority-data: $(base64 -w0 "$pki/ca.crt")
		users:
		- name: admin
		  user:
		    client-certificate-data: $(base64 -w0 "$pki/$cert.crt")
		    client-key-data: $(base64 -w0 "$pki/$cert.key")
		contexts:
		- name: kubectl-hpa-e2e
		  context:
		    cluster: kubectl-hpa-e2e
		    user: admin
		    namespace: default
		current-context: kubectl-hpa-e2e
	EOF
	chmod 600 "$tmp"
	mv "$tmp" "$file"
}

CLIENT_COMPONENTS=(kube-controller-manager kube-scheduler kwok metrics-server fake-metrics-adapter)

pki_complete() {
	local f
	for f in ca sa front-proxy admin serving "${CLIENT_COMPONENTS[@]}"; do
		[ -f "$RUN/pki/$f.key" ] || return 1
	done
	openssl x509 -checkend 86400 -noout -in "$RUN/pki/serving.crt" >/dev/null 2>&1
}
if ! pki_complete; then
	gen_pki
	rm -rf "$KUBECONFIG_FILE" "$RUN/kubeconfigs"
fi
[ -f "$KUBECONFIG_FILE" ] || write_kubeconfig "$KUBECONFIG_FILE" admin
mkdir -p "$RUN/kubeconfigs"
for c in "${CLIENT_COMPONENTS[@]}"; do
	[ -f "$RUN/kubeconfigs/$c" ] || write_kubeconfig "$RUN/kubeconfigs/$c" "$c"
done
step "PKI + kubeconfig"

# --- process helpers ------------------------------------------------------------

# start NAME ARGS...: start_in (lib.sh) for a binary of $BIN.
start() {
	start_in "$BIN" "$@"
}

fail_startup() {
	local name=$1
	shift
	echo >&2
	echo "up.sh: $*" >&2
	if [ -n "$name" ] && [ -f "$RUN/$name.log" ]; then
		echo "---- last 40 lines of $RUN/$name.log ----" >&2
		tail -n 40 "$RUN/$name.log" >&2
		echo "----" >&2
	fi
	if [ -z "${KEEP_ON_FAILURE:-}" ]; then
		echo "up.sh: stopping what was started (KEEP_ON_FAILURE=1 keeps it); logs stay in $RUN" >&2
		"$CLUSTER_HACK_DIR/down.sh" >&2 || true
	fi
	exit 1
}

# wait_for DESC LOG-COMPONENT CMD...: polls CMD every 0.2s for up to UP_TIMEOUT
# seconds; fails with the component's log tail if it times out or the component
# dies. LOG-COMPONENT may be empty.
wait_for() {
	local desc=$1 comp=$2
	shift 2
	local deadline=$((SECONDS + UP_TIMEOUT))
	until "$@" >/dev/null 2>&1; do
		if [ -n "$comp" ] && ! started "$comp"; then
			fail_startup "$comp" "$comp exited while waiting for: $desc"
		fi
		if [ "$SECONDS" -ge "$deadline" ]; then
			fail_startup "$comp" "timed out after ${UP_TIMEOUT}s waiting for: $desc"
		fi
		sleep 0.2
	done
	step "$desc"
}

PKI=$RUN/pki
KCFGS=$RUN/kubeconfigs
# shellcheck disable=SC2206 # word splitting of the *_EXTRA_ARGS is intended
{
	kcm_extra=(${KCM_EXTRA_ARGS:-})
	apiserver_extra=(${APISERVER_EXTRA_ARGS:-})
	scheduler_extra=(${SCHEDULER_EXTRA_ARGS:-})
	ms_extra=(${METRICS_SERVER_EXTRA_ARGS:-})
	adapter_extra=(${ADAPTER_EXTRA_ARGS:-})
}
mapfile -t apiserver_version_flags < <(version_flags kube-apiserver)
mapfile -t kcm_version_flags < <(version_flags kube-controller-manager)
mapfile -t scheduler_version_flags < <(version_flags kube-scheduler)
if [ "${#apiserver_version_flags[@]}${#kcm_version_flags[@]}${#scheduler_version_flags[@]}" != 000 ]; then
	echo "  flags for $E2E_K8S_VERSION: ${apiserver_version_flags[*]} ${kcm_version_flags[*]} ${scheduler_version_flags[*]}"
fi
if [ -n "${FEATURE_GATES:-}" ]; then
	kcm_extra=("--feature-gates=$FEATURE_GATES" "${kcm_extra[@]}")
	apiserver_extra=("--feature-gates=$FEATURE_GATES" "${apiserver_extra[@]}")
fi

# --- etcd -------------------------------------------------------------------------

start etcd --name default --data-dir "$RUN/etcd-data" \
	--listen-client-urls "http://127.0.0.1:$PORT_ETCD" --advertise-client-urls "http://127.0.0.1:$PORT_ETCD" \
	--listen-peer-urls "http://127.0.0.1:$PORT_ETCD_PEER" --initial-advertise-peer-urls "http://127.0.0.1:$PORT_ETCD_PEER" \
	--initial-cluster "default=http://127.0.0.1:$PORT_ETCD_PEER" \
	--unsafe-no-fsync
wait_for "etcd healthy" etcd etcd_healthy

# --- kube-apiserver -----------------------------------------------------------------

cp "$CLUSTER_HACK_DIR/config/audit-policy.yaml" "$RUN/audit-policy.yaml"
start kube-apiserver \
	--etcd-servers="http://127.0.0.1:$PORT_ETCD" \
	--bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$PORT_APISERVER" \
	--tls-cert-file="$PKI/serving.crt" --tls-private-key-file="$PKI/serving.key" --client-ca-file="$PKI/ca.crt" \
	--service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
	--service-account-issuer=https://kubernetes.default.svc.cluster.local --service-cluster-ip-range=10.0.0.0/24 \
	--authorization-mode=Node,RBAC \
	--proxy-client-cert-file="$PKI/front-proxy.crt" --proxy-client-key-file="$PKI/front-proxy.key" \
	--requestheader-client-ca-file="$PKI/ca.crt" --requestheader-allowed-names=front-proxy-client \
	--requestheader-username-headers=X-Remote-User --requestheader-group-headers=X-Remote-Group \
	--requestheader-extra-headers-prefix=X-Remote-Extra- \
	--audit-policy-file="$RUN/audit-policy.yaml" --audit-log-path="$RUN/audit.log" \
	--audit-log-format=json --audit-log-mode=blocking --audit-log-maxsize=1024 --audit-log-maxbackup=1 \
	--enable-priority-and-fairness=false --profiling=false \
	"${apiserver_version_flags[@]}" "${apiserver_extra[@]}"
wait_for "kube-apiserver /readyz" kube-apiserver apiserver_ready
have=$(running_version) || true
[ "$have" = "$E2E_K8S_VERSION" ] ||
	fail_startup "" "kube-apiserver in $BIN reports version '$have', not $E2E_K8S_VERSION (E2E_BIN_DIR of another version?)"

# --- controllers, scheduler, kwok, metrics backends (start all, then wait) --------

kcfg=$KCFGS/kube-controller-manager
start kube-controller-manager \
	--kubeconfig="$kcfg" --authentication-kubeconfig="$kcfg" --authorization-kubeconfig="$kcfg" \
	--bind-address=127.0.0.1 --secure-port="$PORT_KCM" --leader-elect=false \
	--use-service-account-credentials=true \
	--service-account-private-key-file="$PKI/sa.key" --root-ca-file="$PKI/ca.crt" \
	--cluster-signing-cert-file="$PKI/ca.crt" --cluster-signing-key-file="$PKI/ca.key" \
	--controllers='*,-nodeipam,-ttl,-bootstrapsigner,-tokencleaner' \
	--horizontal-pod-autoscaler-sync-period="$HPA_SYNC_PERIOD" --profiling=false \
	"${kcm_version_flags[@]}" "${kcm_extra[@]}"

kcfg=$KCFGS/kube-scheduler
start kube-scheduler \
	--kubeconfig="$kcfg" --authentication-kubeconfig="$kcfg" --authorization-kubeconfig="$kcfg" \
	--bind-address=127.0.0.1 --secure-port="$PORT_SCHEDULER" --leader-elect=false --profiling=false \
	"${scheduler_version_flags[@]}" "${scheduler_extra[@]}"

{
	with_ports "$CLUSTER_HACK_DIR/config/kwok-configuration.yaml"
	echo "---"
	cat "$BIN/kwok-stages.yaml"
	echo "---"
	cat "$CLUSTER_HACK_DIR/config/kwok-usage.yaml"
} >"$RUN/kwok.yaml"
kcfg=$KCFGS/kwok
start kwok --kubeconfig="$kcfg" --config="$RUN/kwok.yaml" \
	--tls-cert-file="$PKI/serving.crt" --tls-private-key-file="$PKI/serving.key"

kcfg=$KCFGS/metrics-server
start metrics-server \
	--bind-address=127.0.0.1 --secure-port="$PORT_METRICS_SERVER" \
	--tls-cert-file="$PKI/serving.crt" --tls-private-key-file="$PKI/serving.key" \
	--kubeconfig="$kcfg" --authentication-kubeconfig="$kcfg" --authorization-kubeconfig="$kcfg" \
	--kubelet-preferred-address-types=InternalIP --kubelet-use-node-status-port --kubelet-insecure-tls \
	--metric-resolution="$METRIC_RESOLUTION" --kubelet-request-timeout=5s \
	"${ms_extra[@]}"

# Each scrape of the adapter's kube-state-metrics series lists the namespaces
# and, in each labelled one, its Deployments, ReplicaSets and Pods; with two
# Prometheus servers scraping it every 5 s (the e2e proof of many contexts
# adds a central one), client-go's default 5 requests per second queued the
# lists past the scrape's 4 s limit (2026-12-02: 45 s of failed scrapes at
# the suite's busiest, a rescale recorded 15 s late).
kcfg=$KCFGS/fake-metrics-adapter
start fake-metrics-adapter \
	--bind-address=127.0.0.1 --secure-port="$PORT_ADAPTER" --control-address="127.0.0.1:$PORT_ADAPTER_CONTROL" \
	--tls-cert-file="$PKI/serving.crt" --tls-private-key-file="$PKI/serving.key" \
	--lister-kubeconfig="$kcfg" --authentication-kubeconfig="$kcfg" --authorization-kubeconfig="$kcfg" \
	--client-qps=100 --client-burst=200 \
	--v="${ADAPTER_VERBOSITY:-2}" \
	"${adapter_extra[@]}"

wait_for "kube-controller-manager /healthz" kube-controller-manager healthz "$PORT_KCM"
wait_for "kube-scheduler /healthz" kube-scheduler healthz "$PORT_SCHEDULER"

kc apply -f "$CLUSTER_HACK_DIR/config/node.yaml" >/dev/null || fail_startup "" "could not create the kwok node"

# Prometheus starts once the node exists, so that its first look at kwok's
# /discovery/prometheus (an http_sd, refreshed every 5s: nodes added later are
# scraped too) already finds the node. Its readiness is awaited last.
sed -e "s/@SCRAPE_INTERVAL@/$PROMETHEUS_SCRAPE_INTERVAL/g" -e "s/@CLUSTER@/$PROMETHEUS_CLUSTER/g" -e "s/@KWOK_ADDRESS@/127.0.0.1:$PORT_KWOK/g" -e "s/@ADAPTER_CONTROL@/127.0.0.1:$PORT_ADAPTER_CONTROL/g" \
	"$CLUSTER_HACK_DIR/config/prometheus.yaml" >"$RUN/prometheus.yaml"
# shellcheck disable=SC2206 # word splitting of PROMETHEUS_EXTRA_ARGS is intended
prom_extra=(${PROMETHEUS_EXTRA_ARGS:-})
start_in "$PROM_BIN" prometheus \
	--config.file="$RUN/prometheus.yaml" --storage.tsdb.path="$RUN/prometheus-data" \
	--web.listen-address="127.0.0.1:$PORT_PROMETHEUS" \
	"${prom_extra[@]}"
node_ready() {
	[ "$(kc get node kwok-node-0 -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}')" = True ]
}
wait_for "node kwok-node-0 Ready" kwok node_ready

wait_for "adapter control endpoint" fake-metrics-adapter adapter_control

with_ports "$CLUSTER_HACK_DIR/config/metrics-apis.yaml" | kc apply -f - >/dev/null || fail_startup "" "could not register the metrics APIServices"

default_sa() { kc -n default get serviceaccount default; }
wait_for "default ServiceAccount" kube-controller-manager default_sa

apiservices_available() {
	local a s
	for a in "${APISERVICES[@]}"; do
		s=$(kc get apiservice "$a" -o 'jsonpath={.status.conditions[?(@.type=="Available")].status}')
		[ "$s" = True ] || return 1
	done
}
deadline=$((SECONDS + UP_TIMEOUT))
until apiservices_available >/dev/null 2>&1; do
	for c in metrics-server fake-metrics-adapter; do
		started "$c" || fail_startup "$c" "$c exited while waiting for the APIServices"
	done
	if [ "$SECONDS" -ge "$deadline" ]; then
		kc get apiservices "${APISERVICES[@]}" >&2 || true
		bad=metrics-server
		[ "$(kc get apiservice v1beta1.metrics.k8s.io -o 'jsonpath={.status.conditions[?(@.type=="Available")].status}')" = True ] &&
			bad=fake-metrics-adapter
		fail_startup "$bad" "timed out after ${UP_TIMEOUT}s waiting for the metrics APIServices to be Available"
	fi
	sleep 0.2
done
step "4 APIServices Available"

wait_for "Prometheus /-/ready" prometheus prometheus_ready

if [ -n "$want_keda" ]; then
	echo "  KEDA (hack/cluster/keda.sh up):"
	KEDA_STEP_INDENT="    " KEDA_T0=$t0 "$CLUSTER_HACK_DIR/keda.sh" up ||
		fail_startup "" "KEDA did not start (hack/cluster/keda.sh up)"
fi

echo
echo "local Kubernetes $E2E_K8S_VERSION cluster up in $(since | tr -d ' ')"
echo "kubeconfig: $KUBECONFIG_FILE"
echo "  export KUBECONFIG=$KUBECONFIG_FILE"
echo "  custom/external metrics: curl http://127.0.0.1:$PORT_ADAPTER_CONTROL/... (see hack/cluster/README.md)"
echo "  Prometheus: http://127.0.0.1:$PORT_PROMETHEUS/api/v1/query?query=... (kwok's kubelet resource metrics)"
if [ -n "$want_keda" ]; then
	echo "  KEDA: external.metrics.k8s.io served by KEDA; detach with hack/cluster/keda.sh down"
fi
echo "  stop: hack/cluster/down.sh"
