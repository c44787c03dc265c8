#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Builds the binaries of the local e2e control plane from the tool modules in
# hack/e2e-tools/ (each a separate Go module, so the plugin's go.mod stays clean):
#
#   kube-apiserver, kube-controller-manager, kube-scheduler of KUBE_VERSION
#     (default and buildable versions: lib.sh; module kubernetes/<version>; version-stamped)
#   etcd v3.6.8, kwok v0.8.0, metrics-server v0.9.0, fake-metrics-adapter (ours)
#
# into ${KUBECTL_HPA_CACHE:-$HOME/.cache/kubectl-hpa}/e2e-bin/<version>-<hash>/, where
# <hash> covers the pinned versions, the Go version and the tool modules (see lib.sh).
# Only the selected Kubernetes version is built. Binaries that already exist are not
# rebuilt, so a warm run takes well under a second; a cold one (empty Go caches)
# 8-15 minutes on 2 cores. One build runs at a time (a lock serialises concurrent
# callers). Prints the bin dir last and writes it to _output/e2e-bin-path.
#
#   hack/e2e-tools/build.sh                       build what is missing (default version)
#   KUBE_VERSION=v1.30.14 hack/e2e-tools/build.sh   another version
#   E2E_REBUILD=1 hack/e2e-tools/build.sh         rebuild everything for this key
set -euo pipefail
# shellcheck source=hack/e2e-tools/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

command -v go >/dev/null 2>&1 || { echo "build.sh: go not found on PATH" >&2; exit 1; }
e2e_select_version || exit 1
k8s_module=kubernetes/$E2E_K8S_VERSION

# The pins in lib.sh must agree with the modules.
check_pin() { # module-dir module version
	grep -qE "^[[:space:]]*(require[[:space:]]+)?$2 $3([[:space:]]|$)" "$E2E_TOOLS_DIR/$1/go.mod" ||
		{ echo "build.sh: $1/go.mod does not require $2 $3 (update lib.sh or the module)" >&2; exit 1; }
}
[ -f "$E2E_TOOLS_DIR/$k8s_module/go.mod" ] ||
	{ echo "build.sh: $k8s_module/go.mod missing (lib.sh lists $E2E_K8S_VERSION as buildable)" >&2; exit 1; }
check_pin "$k8s_module" k8s.io/kubernetes "$E2E_K8S_VERSION"
check_pin etcd go.etcd.io/etcd/server/v3 "$E2E_ETCD_VERSION"
check_pin kwok sigs.k8s.io/kwok "$E2E_KWOK_VERSION"
check_pin metrics-server sigs.k8s.io/metrics-server "$E2E_METRICS_SERVER_VERSION"
check_pin fakeadapter sigs.k8s.io/custom-metrics-apiserver "$E2E_CUSTOM_METRICS_APISERVER_VERSION"

out=$(e2e_bin_dir)
mkdir -p "$out"
start=$(date +%s.%N)
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1fs", b - a }'; }

# finish checks that everything is there and prints the bin dir.
finish() {
	local missing
	missing=$(e2e_missing "$out")
	if [ -n "$missing" ]; then
		echo "build.sh: still missing after build: $missing" >&2
		exit 1
	fi
	[ -f "$out/.tools-key" ] || e2e_tools_key >"$out/.tools-key"
	echo "e2e tools for Kubernetes $E2E_K8S_VERSION ready in $(elapsed "$start")" >&2
	mkdir -p "$E2E_REPO_ROOT/_output"
	echo "$out" >"$E2E_REPO_ROOT/_output/e2e-bin-path"
	echo "$out"
	exit 0
}

# Nothing to build: do not wait for the lock of another version's build.
if [ -z "${E2E_REBUILD:-}" ] && [ -z "$(e2e_missing "$out")" ]; then
	finish
fi

# Serialise builds: two cold builds at once on 2 cores would take twice as long
# and could run out of memory.
exec 9>"$E2E_CACHE/e2e-bin/.build.lock"
if ! flock -n 9; then
	echo "build.sh: another build is running; waiting for it..." >&2
	flock 9
fi

if [ -n "${E2E_REBUILD:-}" ]; then
	for b in "${E2E_BINARIES[@]}"; do rm -f "$out/$b"; done
fi

export CGO_ENABLED=0

# step NAME DIR LDFLAGS RENAME PKG... builds PKGs of module DIR into $out (one
# go build). RENAME is empty or "from=to" when the binary's default name is wrong.
step() {
	local name=$1 dir=$2 ldflags=$3 rename=$4
	shift 4
	local t tmp
	t=$(date +%s.%N)
	tmp=$(mktemp -d "$out/.tmp.XXXXXX")
	echo "==> building $name" >&2
	if ! go build -C "$E2E_TOOLS_DIR/$dir" -mod=readonly -trimpath -ldflags "-s -w $ldflags" -o "$tmp/" "$@"; then
		rm -rf "$tmp"
		echo "build.sh: building $name failed" >&2
		exit 1
	fi
	if [ -n "$rename" ]; then
		mv -f "$tmp/${rename%%=*}" "$tmp/${rename#*=}"
	fi
	mv -f "$tmp"/* "$out/"
	rmdir "$tmp"
	printf '    %-48s %s\n' "$name" "$(elapsed "$t")" >&2
}

# reuse NAME hard-links (or copies) the binary NAME from the bin dir of another
# Kubernetes version built from the same tool modules (same .tools-key), so
# etcd, kwok, metrics-server and the adapter are built once for all versions.
tools_key=$(e2e_tools_key)
reuse() {
	local d
	for d in "$E2E_CACHE"/e2e-bin/*/; do
		d=${d%/}
		if [ "$d" = "$out" ] || [ ! -x "$d/$1" ] || [ "$(cat "$d/.tools-key" 2>/dev/null)" != "$tools_key" ]; then
			continue
		fi
		ln -f "$d/$1" "$out/$1" 2>/dev/null || cp -f "$d/$1" "$out/$1"
		printf '    %-48s reused from %s\n' "$1" "${d##*/}" >&2
		return 0
	done
	return 1
}

need() { # true if any of the named binaries is missing
	local b
	for b; do [ -x "$out/$b" ] || return 0; done
	return 1
}

if need kube-apiserver kube-controller-manager kube-scheduler; then
	step "kube-apiserver kube-controller-manager kube-scheduler $E2E_K8S_VERSION" "$k8s_module" \
		"$(e2e_ldflags_version "$E2E_K8S_VERSION" 1 "$E2E_K8S_MINOR")" "" \
		k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler
fi
if need etcd && ! reuse etcd; then
	# go names the binary of go.etcd.io/etcd/server/v3 "server".
	step etcd etcd "" server=etcd go.etcd.io/etcd/server/v3
fi
if need kwok && ! reuse kwok; then
	step kwok kwok "-X sigs.k8s.io/kwok/pkg/consts.Version=${E2E_KWOK_VERSION#v}" "" sigs.k8s.io/kwok/cmd/kwok
fi
if need metrics-server && ! reuse metrics-server; then
	ms_minor=${E2E_METRICS_SERVER_VERSION#v0.}
	step metrics-server metrics-server \
		"-X k8s.io/client-go/pkg/version.gitVersion=$E2E_METRICS_SERVER_VERSION -X k8s.io/client-go/pkg/version.gitMajor=0 -X k8s.io/client-go/pkg/version.gitMinor=${ms_minor%%.*} -X k8s.io/client-go/pkg/version.buildDate=$E2E_BUILD_DATE" "" \
		sigs.k8s.io/metrics-server/cmd/metrics-server
fi
if need fake-metrics-adapter && ! reuse fake-metrics-adapter; then
	step fake-metrics-adapter fakeadapter "" fakeadapter=fake-metrics-adapter .
fi

# kwok has no built-in stages: copy the ones we use from the kwok module, so the
# bin dir is self-contained (a CI cache of it needs no module cache).
if [ ! -f "$out/kwok-stages.yaml" ]; then
	kwok_dir=$(go -C "$E2E_TOOLS_DIR/kwok" mod download -json "sigs.k8s.io/kwok@$E2E_KWOK_VERSION" |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[ -d "$kwok_dir/kustomize" ] || { echo "build.sh: kwok module not found in the module cache" >&2; exit 1; }
	{
		echo "# Copied by hack/e2e-tools/build.sh from sigs.k8s.io/kwok@$E2E_KWOK_VERSION/kustomize/."
		for f in "${E2E_KWOK_STAGE_FILES[@]}"; do
			echo "---"
			echo "# $f"
			cat "$kwok_dir/kustomize/$f"
		done
	} >"$out/kwok-stages.yaml.tmp"
	mv "$out/kwok-stages.yaml.tmp" "$out/kwok-stages.yaml"
fi

finish
