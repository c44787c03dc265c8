# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Sourced by build.sh, bin-dir.sh and hack/cluster/*.sh: the pinned versions of
# the e2e tools and where their binaries are cached.
#
# The versions below must match the go.mod of each tool module (build.sh checks);
# go.mod/go.sum decide what is compiled, these are used for version stamping and
# the cache key.

# The Kubernetes versions that can be built (kube-apiserver, kube-controller-
# manager, kube-scheduler): one tool module per version in kubernetes/<version>/.
# KUBE_VERSION (environment or make variable) selects one; e2e_select_version
# below checks it and sets E2E_K8S_VERSION. One patch per minor.
E2E_K8S_DEFAULT_VERSION=v1.37.2
E2E_K8S_VERSIONS=(v1.37.2 v1.36.3 v1.30.14)
# Minors that cannot be built from the Go module proxy, and why (checked with
# go mod tidy at v1.31.14 and v1.32.13, the newest patches the proxy serves).
declare -A E2E_K8S_UNBUILDABLE=(
	[31]="the Go module proxy refuses its staging modules (k8s.io/kube-scheduler, kube-controller-manager, csi-translation-lib, endpointslice, cri-client v0.31.x)"
	[32]="the Go module proxy refuses its staging modules (k8s.io/kube-scheduler, kube-controller-manager, csi-translation-lib, endpointslice v0.32.x)"
)

E2E_ETCD_VERSION=v3.6.8
E2E_KWOK_VERSION=v0.8.0
E2E_METRICS_SERVER_VERSION=v0.9.0
E2E_CUSTOM_METRICS_APISERVER_VERSION=v1.36.0
# The add-ons, each built into a bin dir of its own (e2e_addon_dir below), so
# that adding or changing one never changes the key of the Kubernetes binaries.
# Prometheus (always part of the local cluster): module prometheus/, the Go
# module version of Prometheus 3.16.0.
E2E_PROMETHEUS_VERSION=v0.316.0
E2E_PROMETHEUS_APP_VERSION=3.16.0
# Only the file and http service discoveries (kwok's /discovery/prometheus is an
# http_sd): the cloud ones would double the build.
E2E_PROMETHEUS_TAGS=remove_all_sd
# KEDA (started only with KEDA=1): module keda/; its operator and metrics API
# server (adapter), and its CRDs.
E2E_KEDA_VERSION=v2.21.0
# Fixed, so that a rebuild gives the same binaries.
E2E_BUILD_DATE=2026-01-01T00:00:00Z

E2E_BINARIES=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok metrics-server fake-metrics-adapter)

# kwok documents (stages and the resource-metrics endpoint) that build.sh copies
# from the kwok module into <bin dir>/kwok-stages.yaml. The pod usage (CPU and
# memory from annotations) is ours: hack/cluster/config/kwok-usage.yaml.
E2E_KWOK_STAGE_FILES=(
	stage/node/fast/node-initialize.yaml
	stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml
	stage/pod/fast/pod-ready.yaml
	stage/pod/fast/pod-complete.yaml
	stage/pod/fast/pod-delete.yaml
	metrics/resource/metrics-resource.yaml
)

# What each add-on bin dir holds when complete.
E2E_PROMETHEUS_BINARIES=(prometheus)
E2E_KEDA_BINARIES=(keda-operator keda-adapter)
E2E_KEDA_CRD_FILE=keda-crds.yaml

E2E_TOOLS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
E2E_REPO_ROOT=$(cd "$E2E_TOOLS_DIR/../.." && pwd)
E2E_CACHE=${KUBECTL_HPA_CACHE:-${HOME:?set HOME or KUBECTL_HPA_CACHE}/.cache/kubectl-hpa}

if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
	PATH=$PATH:/usr/local/go/bin
fi

# e2e_select_version checks KUBE_VERSION (default E2E_K8S_DEFAULT_VERSION) and
# sets E2E_K8S_VERSION and E2E_K8S_MINOR. It accepts "1.37.2" for "v1.37.2" and a
# minor alone ("v1.37") for the table's patch of that minor. Anything else fails
# with one line that names the buildable versions.
e2e_select_version() {
	local given=${KUBE_VERSION:-$E2E_K8S_DEFAULT_VERSION} want v minor list
	want=v${given#v}
	list="buildable: ${E2E_K8S_VERSIONS[*]} (default $E2E_K8S_DEFAULT_VERSION)"
	if [[ ! $want =~ ^v1\.([0-9]+)(\.[0-9]+)?$ ]]; then
		echo "KUBE_VERSION=$given is not a Kubernetes version like v1.37.2; $list" >&2
		return 1
	fi
	minor=${BASH_REMATCH[1]}
	for v in "${E2E_K8S_VERSIONS[@]}"; do
		if [ "$v" = "$want" ] || [ "$v" != "${v#"$want".}" ]; then
			E2E_K8S_VERSION=$v
			E2E_K8S_MINOR=$minor
			return 0
		fi
	done
	if [ -n "${E2E_K8S_UNBUILDABLE[$minor]:-}" ]; then
		echo "KUBE_VERSION=$want cannot be built: ${E2E_K8S_UNBUILDABLE[$minor]}; $list" >&2
	else
		echo "KUBE_VERSION=$want is not buildable (no hack/e2e-tools/kubernetes/$want module); $list" >&2
	fi
	return 1
}

# e2e_prometheus_ldflags prints the -X flags that stamp Prometheus's version
# into its binaries (prometheus, and promtool for hack/bench/tune-prometheus.sh).
e2e_prometheus_ldflags() {
	local pv=github.com/prometheus/common/version
	printf '%s' "-X $pv.Version=$E2E_PROMETHEUS_APP_VERSION -X $pv.Revision=$E2E_PROMETHEUS_VERSION -X $pv.Branch=HEAD -X $pv.BuildUser=kubectl-hpa -X $pv.BuildDate=$E2E_BUILD_DATE"
}

# e2e_ldflags_version prints the -X flags that stamp a Kubernetes version into
# client-go and component-base (unstamped binaries report v0.0.0-master, which
# breaks kubectl's version parsing). Args: version major minor.
e2e_ldflags_version() {
	local v=$1 major=$2 minor=$3 pkg out=""
	for pkg in k8s.io/client-go/pkg/version k8s.io/component-base/version; do
		out+=" -X $pkg.gitVersion=$v -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
		out+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$E2E_BUILD_DATE"
	done
	printf '%s' "$out"
}

# e2e_hash_input [k8s=VERSION] DIR... prints what the hashes below cover: the
# pinned versions, the Go toolchain and the go.mod, go.sum and Go sources (tests
# excluded) of the tool modules DIR.
e2e_hash_input() {
	local k8s=$1
	shift
	cd "$E2E_TOOLS_DIR" || return 1
	echo "${k8s:+$k8s }etcd=$E2E_ETCD_VERSION kwok=$E2E_KWOK_VERSION"
	echo "metrics-server=$E2E_METRICS_SERVER_VERSION cma=$E2E_CUSTOM_METRICS_APISERVER_VERSION date=$E2E_BUILD_DATE"
	echo "flags=-trimpath -s -w CGO_ENABLED=0 stamp=v2"
	go env GOVERSION GOOS GOARCH
	find "$@" \( -name go.mod -o -name go.sum -o \( -name '*.go' ! -name '*_test.go' \) \) -type f |
		LC_ALL=C sort | while IFS= read -r f; do
		printf '== %s\n' "$f"
		cat "$f"
	done
}

# e2e_key prints the selected Kubernetes version and a short hash of everything
# that decides the binaries: the selected version's kubernetes/<version> module
# and the other tool modules. The version is part of the key, so the binaries
# of several versions live side by side.
e2e_key() {
	: "${E2E_K8S_VERSION:?call e2e_select_version first}"
	local in
	in=$(e2e_hash_input "k8s=$E2E_K8S_VERSION" "kubernetes/$E2E_K8S_VERSION" etcd kwok metrics-server fakeadapter) || return 1
	printf '%s-%s\n' "$E2E_K8S_VERSION" "$(sha256sum <<<"$in" | cut -c1-12)"
}

# e2e_part_key PART prints the hash of what one part of the bin dir is built
# from: k8s (the selected version's kube-apiserver, kube-controller-manager
# and kube-scheduler), etcd, kwok, metrics-server or fakeadapter. build.sh
# keeps each part's key beside the binaries (.key-PART), so that a bin dir
# for a new key (another version, or a change to the adapter) takes every
# part whose inputs did not change from a bin dir that has it, instead of
# building it again (the control plane is about 15 minutes of a cold build).
e2e_part_key() {
	local in
	case $1 in
	k8s) in=$(e2e_hash_input "k8s=$E2E_K8S_VERSION" "kubernetes/$E2E_K8S_VERSION") || return 1 ;;
	*) in=$(e2e_hash_input "" "$1") || return 1 ;;
	esac
	sha256sum <<<"$in" | cut -c1-12
}

# e2e_bin_dir prints the cache directory for the current key.
e2e_bin_dir() {
	local key
	key=$(e2e_key) || return 1
	printf '%s/e2e-bin/%s\n' "$E2E_CACHE" "$key"
}

# e2e_missing DIR prints the binaries not yet in DIR (nothing when complete).
e2e_missing() {
	local b
	for b in "${E2E_BINARIES[@]}"; do
		[ -x "$1/$b" ] || echo "$b"
	done
	[ -f "$1/kwok-stages.yaml" ] || echo kwok-stages.yaml
}

# e2e_addon_key NAME prints VERSION-HASH for the add-on NAME (prometheus or
# keda): the hash covers its pinned version, its build flags, the Go toolchain
# and its tool module hack/e2e-tools/NAME (go.mod, go.sum, Go sources).
e2e_addon_key() {
	local name=$1 version in
	case $name in
	prometheus) version="$E2E_PROMETHEUS_VERSION tags=$E2E_PROMETHEUS_TAGS app=$E2E_PROMETHEUS_APP_VERSION" ;;
	keda) version="$E2E_KEDA_VERSION crds=$E2E_KEDA_CRD_FILE" ;;
	*)
		echo "e2e_addon_key: unknown add-on '$name' (prometheus, keda)" >&2
		return 1
		;;
	esac
	in=$(
		cd "$E2E_TOOLS_DIR" || exit 1
		echo "$name=$version date=$E2E_BUILD_DATE"
		echo "flags=-trimpath -s -w CGO_ENABLED=0"
		go env GOVERSION GOOS GOARCH
		find "$name" \( -name go.mod -o -name go.sum -o \( -name '*.go' ! -name '*_test.go' \) \) -type f |
			LC_ALL=C sort | while IFS= read -r f; do
			printf '== %s\n' "$f"
			cat "$f"
		done
	) || return 1
	printf '%s-%s\n' "${version%% *}" "$(sha256sum <<<"$in" | cut -c1-12)"
}

# e2e_addon_dir NAME prints the bin dir of the add-on NAME:
# <cache>/e2e-bin/NAME-VERSION-HASH. PROMETHEUS_BIN_DIR and KEDA_BIN_DIR
# override it.
e2e_addon_dir() {
	local key
	case $1 in
	prometheus) [ -z "${PROMETHEUS_BIN_DIR:-}" ] || { echo "$PROMETHEUS_BIN_DIR"; return 0; } ;;
	keda) [ -z "${KEDA_BIN_DIR:-}" ] || { echo "$KEDA_BIN_DIR"; return 0; } ;;
	esac
	key=$(e2e_addon_key "$1") || return 1
	printf '%s/e2e-bin/%s-%s\n' "$E2E_CACHE" "$1" "$key"
}

# e2e_addon_missing NAME DIR prints what the add-on's bin dir DIR lacks
# (nothing when complete).
e2e_addon_missing() {
	local b
	case $1 in
	prometheus)
		for b in "${E2E_PROMETHEUS_BINARIES[@]}"; do [ -x "$2/$b" ] || echo "$b"; done
		;;
	keda)
		for b in "${E2E_KEDA_BINARIES[@]}"; do [ -x "$2/$b" ] || echo "$b"; done
		[ -f "$2/$E2E_KEDA_CRD_FILE" ] || echo "$E2E_KEDA_CRD_FILE"
		;;
	esac
}

# e2e_keda_wanted succeeds when KEDA (environment or make variable) asks for
# KEDA: 1, true or yes. Empty, 0, false and no do not; anything else fails with
# one line.
e2e_keda_wanted() {
	case ${KEDA:-} in
	1 | true | yes) return 0 ;;
	"" | 0 | false | no) return 1 ;;
	*)
		echo "KEDA=$KEDA is not understood: use KEDA=1 (start KEDA) or leave it empty" >&2
		exit 2
		;;
	esac
}
