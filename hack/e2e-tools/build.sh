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
# The add-ons have bin dirs of their own, keyed on their own module only (so adding
# or changing one never rebuilds the binaries above):
#
#   prometheus (Prometheus 3.16.0, module prometheus/)   always: e2e-bin/prometheus-<version>-<hash>/
#   keda-operator, keda-adapter and keda-crds.yaml
#     (KEDA v2.21.0, module keda/)                       only with KEDA=1: e2e-bin/keda-<version>-<hash>/
#
# Only the selected Kubernetes version is built. Binaries that already exist are not
# rebuilt, so a warm run takes well under a second; a cold one (empty Go caches)
# 8-15 minutes on 2 cores, plus about 5 for Prometheus and 10 for KEDA (figures:
# hack/cluster/README.md). One build runs at a time (a lock serialises concurrent
# callers). Prints the bin dir of the Kubernetes binaries last and writes it to
# _output/e2e-bin-path.
#
#   hack/e2e-tools/build.sh                       build what is missing (default version)
#   KUBE_VERSION=v1.30.14 hack/e2e-tools/build.sh   another version
#   KEDA=1 hack/e2e-tools/build.sh                also KEDA
#   E2E_REBUILD=1 hack/e2e-tools/build.sh         rebuild everything selected
#   E2E_REBUILD=prometheus,keda hack/e2e-tools/build.sh   rebuild only those
#                                                 (names: kubernetes, prometheus, keda)
#   E2E_KEDA_ONLY=1 hack/e2e-tools/build.sh       KEDA alone, under a lock of its own, so that
#                                                 it can run beside a build of the rest
#                                                 (make test starts it first, in the background)
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
check_pin prometheus github.com/prometheus/prometheus "$E2E_PROMETHEUS_VERSION"
check_pin keda github.com/kedacore/keda/v2 "$E2E_KEDA_VERSION"

want_keda=
if e2e_keda_wanted; then want_keda=1; fi
only_keda=
case ${E2E_KEDA_ONLY:-} in
"" | 0 | false | no) ;;
*) only_keda=1 want_keda=1 ;;
esac

# E2E_REBUILD: 1 (everything selected) or a comma-separated list of
# kubernetes, prometheus, keda.
rebuild_main='' rebuild_prometheus='' rebuild_keda=''
case ${E2E_REBUILD:-} in
"" | 0) ;;
1 | true | yes) rebuild_main=1 rebuild_prometheus=1 rebuild_keda=$want_keda ;;
*)
	IFS=, read -ra parts <<<"$E2E_REBUILD"
	for p in "${parts[@]}"; do
		case $p in
		kubernetes) rebuild_main=1 ;;
		prometheus) rebuild_prometheus=1 ;;
		keda) rebuild_keda=1 want_keda=1 ;;
		*)
			echo "build.sh: E2E_REBUILD=$E2E_REBUILD: '$p' is not one of 1, kubernetes, prometheus, keda" >&2
			exit 2
			;;
		esac
	done
	;;
esac

out=$(e2e_bin_dir)
prom_out=$(e2e_addon_dir prometheus)
keda_out=
if [ -n "$want_keda" ]; then keda_out=$(e2e_addon_dir keda); fi
mkdir -p "$out" "$prom_out" ${keda_out:+"$keda_out"}
start=$(date +%s.%N)
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1fs", b - a }'; }

# all_missing prints what is missing in the selected bin dirs.
all_missing() {
	if [ -z "$only_keda" ]; then
		e2e_missing "$out"
		e2e_addon_missing prometheus "$prom_out"
	fi
	if [ -n "$keda_out" ]; then e2e_addon_missing keda "$keda_out"; fi
}

# finish checks that everything is there and prints the bin dir.
finish() {
	local missing
	missing=$(all_missing)
	if [ -n "$missing" ]; then
		echo "build.sh: still missing after build:" $missing >&2
		exit 1
	fi
	if [ -n "$only_keda" ]; then
		echo "KEDA ready in $(elapsed "$start"): $keda_out" >&2
		exit 0
	fi
	echo "e2e tools for Kubernetes $E2E_K8S_VERSION${keda_out:+ and KEDA} ready in $(elapsed "$start")" >&2
	echo "    prometheus: $prom_out" >&2
	if [ -n "$keda_out" ]; then echo "    keda:       $keda_out" >&2; fi
	mkdir -p "$E2E_REPO_ROOT/_output"
	echo "$out" >"$E2E_REPO_ROOT/_output/e2e-bin-path"
	echo "$out"
	exit 0
}

# Nothing to build: do not wait for the lock of another version's build.
if [ -z "$rebuild_main$rebuild_prometheus$rebuild_keda" ] && [ -z "$(all_missing)" ]; then
	finish
fi

# Serialise builds: two cold builds at once on 2 cores would take twice as long
# and could run out of memory.
# KEDA alone takes a lock of its own; a full build takes that one too
# before its KEDA step (below).
lock=.build.lock
if [ -n "$only_keda" ]; then lock=.build-keda.lock; fi
exec 9>"$E2E_CACHE/e2e-bin/$lock"
if ! flock -n 9; then
	echo "build.sh: another build is running; waiting for it..." >&2
	flock 9
fi

if [ -n "$rebuild_main" ]; then
	for b in "${E2E_BINARIES[@]}"; do rm -f "$out/$b"; done
fi
if [ -n "$rebuild_prometheus" ]; then
	for b in "${E2E_PROMETHEUS_BINARIES[@]}"; do rm -f "$prom_out/$b"; done
fi
if [ -n "$rebuild_keda" ]; then
	for b in "${E2E_KEDA_BINARIES[@]}"; do rm -f "$keda_out/$b"; done
	rm -f "$keda_out/$E2E_KEDA_CRD_FILE"
fi

export CGO_ENABLED=0

# step NAME DIR LDFLAGS RENAME PKG... builds PKGs of module DIR into $dest (one
# go build; $dest is $out unless an add-on's step sets it, and $step_tags are its
# build tags). RENAME is empty or "from=to[,from=to]" when the binaries' default
# names are wrong.
dest=$out
step_tags=
step() {
	local name=$1 dir=$2 ldflags=$3 rename=$4
	shift 4
	local t tmp r
	t=$(date +%s.%N)
	tmp=$(mktemp -d "$dest/.tmp.XXXXXX")
	echo "==> building $name" >&2
	# hack/test/step.sh records the build in make test's timeline.
	if ! "$E2E_REPO_ROOT/hack/test/step.sh" "build $name" go build -C "$E2E_TOOLS_DIR/$dir" -mod=readonly -trimpath ${step_tags:+-tags "$step_tags"} \
		-ldflags "-s -w $ldflags" -o "$tmp/" "$@"; then
		rm -rf "$tmp"
		echo "build.sh: building $name failed" >&2
		exit 1
	fi
	if [ -n "$rename" ]; then
		IFS=, read -ra renames <<<"$rename"
		for r in "${renames[@]}"; do
			mv -f "$tmp/${r%%=*}" "$tmp/${r#*=}"
		done
	fi
	mv -f "$tmp"/* "$dest/"
	rmdir "$tmp"
	printf '    %-48s %s\n' "$name" "$(elapsed "$t")" >&2
}

# reuse PART NAME... hard-links (or copies) the binaries NAME... from another
# bin dir built from the same inputs for PART (the same .key-PART: lib.sh's
# e2e_part_key), so that each part is built once for every version and every
# change elsewhere; kept notes that PART's binaries are in $out.
reuse() {
	local part=$1 d b key
	shift
	key=$(e2e_part_key "$part") || return 1
	for d in "$E2E_CACHE"/e2e-bin/*/; do
		d=${d%/}
		[ "$d" != "$out" ] && [ "$(cat "$d/.key-$part" 2>/dev/null)" = "$key" ] || continue
		for b; do [ -x "$d/$b" ] || continue 2; done
		for b; do
			ln -f "$d/$b" "$out/$b" 2>/dev/null || cp -f "$d/$b" "$out/$b"
			printf '    %-48s reused from %s\n' "$b" "${d##*/}" >&2
		done
		echo "$key" >"$out/.key-$part"
		return 0
	done
	return 1
}
kept() { e2e_part_key "$1" >"$out/.key-$1"; }

need() { # true if any of the named binaries is missing
	local b
	[ -z "$only_keda" ] || return 1
	for b; do [ -x "$out/$b" ] || return 0; done
	return 1
}

if need kube-apiserver kube-controller-manager kube-scheduler && ! reuse k8s kube-apiserver kube-controller-manager kube-scheduler; then
	step "kube-apiserver kube-controller-manager kube-scheduler $E2E_K8S_VERSION" "$k8s_module" \
		"$(e2e_ldflags_version "$E2E_K8S_VERSION" 1 "$E2E_K8S_MINOR")" "" \
		k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler
	kept k8s
fi
if need etcd && ! reuse etcd etcd; then
	# go names the binary of go.etcd.io/etcd/server/v3 "server".
	step etcd etcd "" server=etcd go.etcd.io/etcd/server/v3
	kept etcd
fi
if need kwok && ! reuse kwok kwok; then
	step kwok kwok "-X sigs.k8s.io/kwok/pkg/consts.Version=${E2E_KWOK_VERSION#v}" "" sigs.k8s.io/kwok/cmd/kwok
	kept kwok
fi
if need metrics-server && ! reuse metrics-server metrics-server; then
	ms_minor=${E2E_METRICS_SERVER_VERSION#v0.}
	step metrics-server metrics-server \
		"-X k8s.io/client-go/pkg/version.gitVersion=$E2E_METRICS_SERVER_VERSION -X k8s.io/client-go/pkg/version.gitMajor=0 -X k8s.io/client-go/pkg/version.gitMinor=${ms_minor%%.*} -X k8s.io/client-go/pkg/version.buildDate=$E2E_BUILD_DATE" "" \
		sigs.k8s.io/metrics-server/cmd/metrics-server
	kept metrics-server
fi
if need fake-metrics-adapter && ! reuse fakeadapter fake-metrics-adapter; then
	step fake-metrics-adapter fakeadapter "" fakeadapter=fake-metrics-adapter .
	kept fakeadapter
fi

# kwok has no built-in stages: copy the ones we use from the kwok module, so the
# bin dir is self-contained (a CI cache of it needs no module cache).
if [ -z "$only_keda" ] && [ ! -f "$out/kwok-stages.yaml" ]; then
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

# --- add-ons (their own bin dirs) ----------------------------------------------

# module_dir TOOL-MODULE MODULE@VERSION prints where the module cache holds
# MODULE@VERSION (downloading it if needed).
module_dir() {
	go -C "$E2E_TOOLS_DIR/$1" mod download -json "$2" |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p'
}

dest=$prom_out
if [ -z "$only_keda" ] && [ -n "$(e2e_addon_missing prometheus "$prom_out")" ]; then
	step_tags=$E2E_PROMETHEUS_TAGS
	step "prometheus $E2E_PROMETHEUS_APP_VERSION (tags $E2E_PROMETHEUS_TAGS)" prometheus "$(e2e_prometheus_ldflags)" "" \
		github.com/prometheus/prometheus/cmd/prometheus
	step_tags=
fi
[ -n "$only_keda" ] || [ -f "$prom_out/.key" ] || e2e_addon_key prometheus >"$prom_out/.key"

if [ -n "$keda_out" ]; then
	dest=$keda_out
	if [ -z "$only_keda" ]; then
		exec 8>"$E2E_CACHE/e2e-bin/.build-keda.lock"
		if ! flock -n 8; then
			echo "build.sh: KEDA is being built by another build; waiting for it..." >&2
			flock 8
		fi
	fi
	if e2e_addon_missing keda "$keda_out" | grep -qv "^$E2E_KEDA_CRD_FILE\$"; then
		kv=github.com/kedacore/keda/v2/version
		step "keda-operator keda-adapter $E2E_KEDA_VERSION" keda \
			"-X $kv.Version=${E2E_KEDA_VERSION#v} -X $kv.GitCommit=$E2E_KEDA_VERSION" operator=keda-operator,adapter=keda-adapter \
			github.com/kedacore/keda/v2/cmd/operator github.com/kedacore/keda/v2/cmd/adapter
	fi
	# The CRDs, next to the binaries (a CI cache of the dir needs no module cache).
	if [ ! -f "$keda_out/$E2E_KEDA_CRD_FILE" ]; then
		keda_dir=$(module_dir keda "github.com/kedacore/keda/v2@$E2E_KEDA_VERSION")
		[ -d "$keda_dir/config/crd/bases" ] || { echo "build.sh: KEDA's module not found in the module cache" >&2; exit 1; }
		{
			echo "# Copied by hack/e2e-tools/build.sh from github.com/kedacore/keda/v2@$E2E_KEDA_VERSION/config/crd/bases/."
			for f in "$keda_dir"/config/crd/bases/*.yaml; do
				echo "---"
				echo "# ${f##*/}"
				cat "$f"
			done
		} >"$keda_out/$E2E_KEDA_CRD_FILE.tmp"
		mv "$keda_out/$E2E_KEDA_CRD_FILE.tmp" "$keda_out/$E2E_KEDA_CRD_FILE"
	fi
	[ -f "$keda_out/.key" ] || e2e_addon_key keda >"$keda_out/.key"
fi

finish
