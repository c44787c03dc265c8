#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Attaches KEDA (v2.21.0: its operator and its metrics API server, "adapter") to
# the running local cluster, or detaches it. `KEDA=1 hack/cluster/up.sh` (make
# cluster-up KEDA=1) runs `keda.sh up` at the end of the start-up.
#
#   hack/cluster/keda.sh up       apply KEDA's CRDs (server-side), create namespace
#                                 keda, make KEDA's certificates (once, from the
#                                 cluster's CA), start keda-operator and
#                                 keda-adapter, and point v1beta1.external.metrics.k8s.io
#                                 at KEDA's adapter; waits until it is Available
#   hack/cluster/keda.sh down     point v1beta1.external.metrics.k8s.io back at our
#                                 fake adapter (waits until Available), stop both
#   hack/cluster/keda.sh status   whether KEDA runs and who serves external metrics
#                                 (exit 0 only when KEDA is attached)
#   hack/cluster/keda.sh check    only check that KEDA's binaries are built
#
# Only one server can own external.metrics.k8s.io: while KEDA is attached, the
# fake adapter keeps custom.metrics.k8s.io (v1beta1, v1beta2) and its values, but
# the HPA controller reads External metrics from KEDA. The ScaledObjects, the
# CRDs and namespace keda stay after `down`; the HPAs KEDA made then read their
# External metrics from the fake adapter (and find none).
#
# Both processes run with their own client certificate in system:masters (like
# the cluster's other components: no RBAC to set up), the operator with
# WATCH_NAMESPACE empty (all namespaces), POD_NAMESPACE and
# KEDA_CLUSTER_OBJECT_NAMESPACE keda. They talk gRPC over mTLS on 127.0.0.1:9666
# with pki/keda/{ca.crt,tls.crt,tls.key} (the operator's --cert-dir and the
# adapter's): a certificate for 127.0.0.1 and KEDA's service names, signed by
# the cluster's CA. Logs: _output/local-cluster/keda-{operator,adapter}.log.
#
# Tunables (environment): KEDA_BIN_DIR (default: hack/e2e-tools/bin-dir.sh --keda),
# KEDA_LOG_LEVEL (the --zap-log-level of both, default info), KEDA_OPERATOR_EXTRA_ARGS,
# KEDA_ADAPTER_EXTRA_ARGS, UP_TIMEOUT (60 s per wait), DOWN_GRACE (10 s), KEEP_ON_FAILURE=1.
set -euo pipefail
# shellcheck source=hack/cluster/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

UP_TIMEOUT=${UP_TIMEOUT:-60}
grace=${DOWN_GRACE:-10}
KEDA_NS=keda
KEDA_SVC=keda-metrics-apiserver
KPKI=$RUN/pki/keda
indent=${KEDA_STEP_INDENT:-  }
t0=${KEDA_T0:-$(date +%s.%N)}
since() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%6.2fs", b - a }'; }
step() { printf '%s%-*s %s\n' "$indent" $((40 - ${#indent} + 2)) "$1" "$(since)"; }
die() {
	echo "keda.sh: $*" >&2
	exit 1
}

usage() {
	echo "usage: hack/cluster/keda.sh up|down|status|check" >&2
	exit 2
}
[ $# -eq 1 ] || usage
cmd=$1

KEDA_BIN=$(e2e_addon_dir keda)

check_binaries() {
	local missing
	missing=$(e2e_addon_missing keda "$KEDA_BIN")
	[ -z "$missing" ] ||
		die "KEDA missing in $KEDA_BIN:" $missing "-- build it with KEDA=1 hack/e2e-tools/build.sh (make e2e-tools KEDA=1)"
}

# running_components prints the KEDA processes that run.
running_components() {
	local c
	for c in "${KEDA_COMPONENTS[@]}"; do
		if pid_of "$c" >/dev/null; then echo "$c"; fi
	done
}

external_available() {
	[ "$(kc get apiservice v1beta1.external.metrics.k8s.io \
		-o 'jsonpath={.status.conditions[?(@.type=="Available")].status}' 2>/dev/null)" = True ]
}

# stop_keda stops KEDA's processes: SIGTERM, SIGKILL after the grace period.
stop_keda() {
	local c pid deadline
	local -A pids=()
	for c in "${KEDA_COMPONENTS[@]}"; do
		if pid=$(pid_of "$c"); then
			kill -TERM "$pid" 2>/dev/null || true
			pids[$c]=$pid
		fi
	done
	deadline=$((SECONDS + grace))
	for c in "${!pids[@]}"; do
		while [ -e "/proc/${pids[$c]}" ] && [ "$(awk '{ print $3 }' "/proc/${pids[$c]}/stat" 2>/dev/null)" != Z ]; do
			if [ "$SECONDS" -ge "$deadline" ]; then
				echo "keda.sh: $c (pid ${pids[$c]}) ignored SIGTERM for ${grace}s; sending SIGKILL" >&2
				kill -KILL "${pids[$c]}" 2>/dev/null || true
				break
			fi
			sleep 0.1
		done
	done
	for c in "${KEDA_COMPONENTS[@]}"; do rm -f "$RUN/$c.pid" "$RUN/$c.cmd"; done
	[ "${#pids[@]}" -eq 0 ] || echo "${indent}stopped: ${!pids[*]}"
}

# restore_external points v1beta1.external.metrics.k8s.io back at the fake
# adapter (the definition in config/metrics-apis.yaml) and waits until it is
# Available.
restore_external() {
	local deadline
	[ "$(external_metrics_owner)" != "$KEDA_NS/$KEDA_SVC" ] && return 0
	awk 'BEGIN { RS = "\n---\n" } /name: v1beta1\.external\.metrics\.k8s\.io/ { print }' \
		<(with_ports "$CLUSTER_HACK_DIR/config/metrics-apis.yaml") | kc apply -f - >/dev/null ||
		die "could not point v1beta1.external.metrics.k8s.io back at the fake adapter"
	deadline=$((SECONDS + UP_TIMEOUT))
	until [ "$(external_metrics_owner)" = custom-metrics/custom-metrics-apiserver ] && external_available; do
		[ "$SECONDS" -lt "$deadline" ] ||
			die "v1beta1.external.metrics.k8s.io is not Available ${UP_TIMEOUT}s after pointing it back at the fake adapter"
		sleep 0.2
	done
	step "external.metrics.k8s.io: fake adapter"
}

fail_up() {
	local name=$1
	shift
	echo >&2
	echo "keda.sh: $*" >&2
	if [ -n "$name" ] && [ -f "$RUN/$name.log" ]; then
		echo "---- last 40 lines of $RUN/$name.log ----" >&2
		tail -n 40 "$RUN/$name.log" >&2
		echo "----" >&2
	fi
	if [ -z "${KEEP_ON_FAILURE:-}" ]; then
		echo "keda.sh: detaching what was started (KEEP_ON_FAILURE=1 keeps it); logs stay in $RUN" >&2
		restore_external >&2 || true
		stop_keda >&2 || true
	fi
	exit 1
}

# wait_for DESC COMPONENT CMD...: polls CMD every 0.2s for up to UP_TIMEOUT
# seconds; fails with the component's log tail if it times out or exits.
wait_for() {
	local desc=$1 comp=$2
	shift 2
	local deadline=$((SECONDS + UP_TIMEOUT))
	until "$@" >/dev/null 2>&1; do
		if [ -n "$comp" ] && ! started "$comp"; then
			fail_up "$comp" "$comp exited while waiting for: $desc"
		fi
		if [ "$SECONDS" -ge "$deadline" ]; then
			fail_up "$comp" "timed out after ${UP_TIMEOUT}s waiting for: $desc"
		fi
		sleep 0.2
	done
	step "$desc"
}

# keda_pki makes pki/keda (once): the cluster's CA as ca.crt, a certificate for
# 127.0.0.1 and KEDA's service names (serving and client: the gRPC link is mTLS
# with this one pair on both ends), and one client certificate per process for
# the API server.
keda_pki() {
	local pki=$RUN/pki
	if [ -f "$KPKI/tls.key" ] && [ -f "$pki/keda-operator.key" ] && [ -f "$pki/keda-adapter.key" ] &&
		cmp -s "$pki/ca.crt" "$KPKI/ca.crt" &&
		openssl x509 -checkend 86400 -noout -in "$KPKI/tls.crt" >/dev/null 2>&1; then
		return 0
	fi
	rm -rf "$KPKI"
	mkdir -p "$KPKI"
	cat >"$KPKI/openssl.cnf" <<-'EOF'
		[req]
		distinguished_name = dn
		prompt = no
		[dn]
		CN = unused
		[keda]
		basicConstraints = critical, CA:FALSE
		keyUsage = critical, digitalSignature, keyEncipherment
		extendedKeyUsage = serverAuth, clientAuth
		subjectKeyIdentifier = hash
		authorityKeyIdentifier = keyid
		subjectAltName = IP:127.0.0.1, DNS:localhost, DNS:keda-operator.keda.svc, DNS:keda-operator.keda.svc.cluster.local, DNS:keda-metrics-apiserver.keda.svc, DNS:keda-metrics-apiserver.keda.svc.cluster.local
		[client]
		basicConstraints = critical, CA:FALSE
		keyUsage = critical, digitalSignature, keyEncipherment
		extendedKeyUsage = clientAuth
		subjectKeyIdentifier = hash
		authorityKeyIdentifier = keyid
	EOF
	(
		set -e
		# cert OUT-BASENAME SUBJECT SECTION: a key and a certificate signed by the CA.
		cert() {
			openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1.key" 2>/dev/null
			openssl req -new -key "$1.key" -subj "$2" -config "$KPKI/openssl.cnf" -out "$1.csr"
			openssl x509 -req -in "$1.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" \
				-set_serial "0x$(openssl rand -hex 12)" -days 3650 -sha256 \
				-extfile "$KPKI/openssl.cnf" -extensions "$3" -out "$1.crt" 2>/dev/null
			rm -f "$1.csr"
			chmod 600 "$1.key"
		}
		cp "$pki/ca.crt" "$KPKI/ca.crt"
		cert "$KPKI/tls" "/CN=keda" keda
		cert "$pki/keda-operator" "/O=system:masters/CN=e2e:keda-operator" client
		cert "$pki/keda-adapter" "/O=system:masters/CN=e2e:keda-adapter" client
	) || die "could not make KEDA's certificates in $KPKI"
	rm -f "$RUN/kubeconfigs/keda-operator" "$RUN/kubeconfigs/keda-adapter"
}

# write_kubeconfig FILE CERT: a kubeconfig for the client cert pki/CERT.{crt,key}.
write_kubeconfig() {
	local file=$1 cert=$2 pki=$RUN/pki
	mkdir -p "$(dirname "$file")"
	cat >"$file.tmp" <<-EOF
		apiVersion: v1
		kind: Config
		clusters:
		- name: kubectl-hpa-e2e
		  cluster:
		    server: https://127.0.0.1:$PORT_APISERVER
		    certificate-authority-data: $(base64 -w0 "$pki/ca.crt")
		users:
		- name: $cert
		  user:
		    client-certificate-data: $(base64 -w0 "$pki/$cert.crt")
		    client-key-data: $(base64 -w0 "$pki/$cert.key")
		contexts:
		- name: kubectl-hpa-e2e
		  context:
		    cluster: kubectl-hpa-e2e
		    user: $cert
		current-context: kubectl-hpa-e2e
	EOF
	chmod 600 "$file.tmp"
	mv "$file.tmp" "$file"
}

keda_up() {
	check_binaries
	apiserver_ready || die "no local cluster is running behind $KUBECONFIG_FILE; start one with KEDA=1 (make cluster-up KEDA=1)"
	local have
	mapfile -t have < <(running_components)
	if [ "${#have[@]}" -eq "${#KEDA_COMPONENTS[@]}" ] && [ "$(external_metrics_owner)" = "$KEDA_NS/$KEDA_SVC" ] && external_available; then
		echo "${indent}KEDA already attached (external.metrics.k8s.io served by keda-adapter)"
		return 0
	fi
	if [ "${#have[@]}" -gt 0 ]; then
		echo "keda.sh: KEDA is partly running (${have[*]}); stopping it first" >&2
		stop_keda >&2
	fi
	local busy
	mapfile -t busy < <(busy_ports "${KEDA_PORTS[@]}")
	[ "${#busy[@]}" -eq 0 ] ||
		die "these loopback ports KEDA needs are in use: ${busy[*]} (another local cluster with KEDA? stop it first)"

	keda_pki
	local c
	for c in keda-operator keda-adapter; do
		[ -f "$RUN/kubeconfigs/$c" ] || write_kubeconfig "$RUN/kubeconfigs/$c" "$c"
	done
	kc apply --server-side --force-conflicts -f "$KEDA_BIN/$E2E_KEDA_CRD_FILE" >/dev/null ||
		die "could not apply KEDA's CRDs ($KEDA_BIN/$E2E_KEDA_CRD_FILE)"
	kc apply -f - >/dev/null <<-EOF || die "could not create namespace $KEDA_NS and Service $KEDA_SVC"
		apiVersion: v1
		kind: Namespace
		metadata:
		  name: $KEDA_NS
		---
		# The aggregator's way to KEDA's adapter on the host (no kube-proxy here):
		# an ExternalName Service, like the other metrics APIs (config/metrics-apis.yaml).
		apiVersion: v1
		kind: Service
		metadata:
		  name: $KEDA_SVC
		  namespace: $KEDA_NS
		spec:
		  type: ExternalName
		  externalName: 127.0.0.1
		  ports:
		    - name: https
		      port: $PORT_KEDA_ADAPTER
		      protocol: TCP
	EOF
	crds_established() {
		local n
		for n in scaledobjects.keda.sh scaledjobs.keda.sh triggerauthentications.keda.sh \
			clustertriggerauthentications.keda.sh cloudeventsources.eventing.keda.sh clustercloudeventsources.eventing.keda.sh; do
			[ "$(kc get crd "$n" -o 'jsonpath={.status.conditions[?(@.type=="Established")].status}')" = True ] || return 1
		done
	}
	wait_for "KEDA CRDs Established" "" crds_established

	# shellcheck disable=SC2206 # word splitting of the *_EXTRA_ARGS is intended
	local op_extra=(${KEDA_OPERATOR_EXTRA_ARGS:-}) ad_extra=(${KEDA_ADAPTER_EXTRA_ARGS:-})
	local level=${KEDA_LOG_LEVEL:-info}
	# WATCH_NAMESPACE must be set (empty: every namespace); without
	# POD_NAMESPACE and KEDA_CLUSTER_OBJECT_NAMESPACE KEDA reads them from the
	# service-account files of a pod, and exits.
	START_ENV="WATCH_NAMESPACE POD_NAMESPACE KEDA_CLUSTER_OBJECT_NAMESPACE" \
		WATCH_NAMESPACE="" POD_NAMESPACE=$KEDA_NS KEDA_CLUSTER_OBJECT_NAMESPACE=$KEDA_NS \
		start_in "$KEDA_BIN" keda-operator \
		--kubeconfig="$RUN/kubeconfigs/keda-operator" \
		--leader-elect=false --cert-dir="$KPKI" --ca-dir="$KPKI" \
		--metrics-service-bind-address="127.0.0.1:$PORT_KEDA_OPERATOR_GRPC" \
		--health-probe-bind-address="127.0.0.1:$PORT_KEDA_OPERATOR_HEALTH" \
		--metrics-bind-address="127.0.0.1:$PORT_KEDA_OPERATOR_METRICS" \
		--zap-log-level="$level" --zap-encoder=console \
		"${op_extra[@]}"
	local kcfg=$RUN/kubeconfigs/keda-adapter
	START_ENV="KUBECONFIG WATCH_NAMESPACE POD_NAMESPACE KEDA_CLUSTER_OBJECT_NAMESPACE" \
		KUBECONFIG=$kcfg WATCH_NAMESPACE="" POD_NAMESPACE=$KEDA_NS KEDA_CLUSTER_OBJECT_NAMESPACE=$KEDA_NS \
		start_in "$KEDA_BIN" keda-adapter \
		--bind-address=127.0.0.1 --secure-port="$PORT_KEDA_ADAPTER" \
		--cert-dir="$KPKI" --tls-cert-file="$KPKI/tls.crt" --tls-private-key-file="$KPKI/tls.key" \
		--lister-kubeconfig="$kcfg" --authentication-kubeconfig="$kcfg" --authorization-kubeconfig="$kcfg" \
		--metrics-service-address="127.0.0.1:$PORT_KEDA_OPERATOR_GRPC" \
		--port="$PORT_KEDA_ADAPTER_METRICS" \
		--zap-log-level="$level" --zap-encoder=console \
		"${ad_extra[@]}"

	wait_for "keda-operator /readyz" keda-operator keda_operator_ready
	wait_for "keda-operator gRPC :$PORT_KEDA_OPERATOR_GRPC" keda-operator keda_grpc_listening
	wait_for "keda-adapter /healthz" keda-adapter keda_adapter_healthy

	kc apply -f - >/dev/null <<-EOF || fail_up "" "could not point v1beta1.external.metrics.k8s.io at KEDA"
		apiVersion: apiregistration.k8s.io/v1
		kind: APIService
		metadata:
		  name: v1beta1.external.metrics.k8s.io
		spec:
		  service:
		    name: $KEDA_SVC
		    namespace: $KEDA_NS
		    port: $PORT_KEDA_ADAPTER
		  group: external.metrics.k8s.io
		  version: v1beta1
		  insecureSkipTLSVerify: true
		  groupPriorityMinimum: 100
		  versionPriority: 100
	EOF
	keda_serves() { [ "$(external_metrics_owner)" = "$KEDA_NS/$KEDA_SVC" ] && external_available; }
	wait_for "external.metrics.k8s.io: KEDA Available" keda-adapter keda_serves
}

keda_down() {
	if apiserver_ready; then
		restore_external
	else
		echo "${indent}no API server answers; only stopping KEDA's processes"
	fi
	local have
	mapfile -t have < <(running_components)
	if [ "${#have[@]}" -eq 0 ]; then
		echo "${indent}KEDA was not running"
		return 0
	fi
	stop_keda
}

# keda_status prints one line per KEDA process and who serves external metrics;
# succeeds only when KEDA is attached.
keda_status() {
	local c pid rss ok=0 owner avail
	for c in "${KEDA_COMPONENTS[@]}"; do
		if pid=$(pid_of "$c"); then
			rss=$(awk '/VmRSS/ { printf "%d MB", $2 / 1024 }' "/proc/$pid/status" 2>/dev/null || true)
			printf '  %-24s running  pid %-8s %s\n' "$c" "$pid" "$rss"
		else
			printf '  %-24s stopped\n' "$c"
			ok=1
		fi
	done
	if apiserver_ready; then
		owner=$(external_metrics_owner)
		avail=$(kc get apiservice v1beta1.external.metrics.k8s.io \
			-o 'jsonpath={.status.conditions[?(@.type=="Available")].status}' 2>/dev/null || true)
		case $owner in
		"$KEDA_NS/$KEDA_SVC") echo "  external.metrics.k8s.io: KEDA (Available=${avail:-?})" ;;
		custom-metrics/custom-metrics-apiserver)
			echo "  external.metrics.k8s.io: fake adapter (Available=${avail:-?})"
			ok=1
			;;
		*)
			echo "  external.metrics.k8s.io: ${owner:-not registered}"
			ok=1
			;;
		esac
		[ "$avail" = True ] || ok=1
	else
		ok=1
	fi
	return "$ok"
}

case $cmd in
up)
	keda_up
	;;
down) keda_down ;;
status) keda_status ;;
check) check_binaries ;;
*) usage ;;
esac
