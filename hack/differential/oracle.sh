#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Builds (or reuses) the differential test's oracle for one Kubernetes version
# and prints the path of the binary:
#
#   hack/differential/oracle.sh VERSION        # e.g. v1.29.15
#
# The oracle (test/differential/oracle/*.go) runs cases through that version's
# pkg/controller/podautoscaler. It is built in a scratch module outside the
# repository, ${KUBECTL_HPA_CACHE:-$HOME/.cache/kubectl-hpa}/differential/VERSION,
# whose go.mod requires k8s.io/kubernetes@VERSION from the Go module proxy with
# every staging module of upstream's go.mod replaced by k8s.io/X v0.MINOR.PATCH.
# A staging module the proxy does not serve at that tag is replaced by the
# newest patch of the same minor it serves (or of the previous minor when
# it serves none of ours); the build then fails if any
# package of a substituted module is compiled into the oracle (so a substitute
# never touches the HPA code). substitutions.txt in the scratch directory
# lists them. Build tags select the upstream API epoch (see oracle/main.go).
#
# A version the local control plane is built for (a module in
# hack/e2e-tools/kubernetes/VERSION) takes that module's go.mod and go.sum
# instead, unchanged but for its name: the same module graph, and the same
# flags as hack/e2e-tools/build.sh (-trimpath, CGO_ENABLED=0), so every
# upstream package the oracle shares with kube-controller-manager comes from the
# build cache once the control plane is built (make test builds it first).
set -euo pipefail

version=${1:?usage: oracle.sh VERSION}
case $version in
v1.*.*) ;;
*) echo "oracle.sh: VERSION must look like v1.37.2" >&2; exit 2 ;;
esac
minor=${version#v1.}
minor=${minor%%.*}
staging=v0.${version#v1.}
case $minor in
29) tags="oracle oracle_v129 oracle_abstol" ;;
30 | 31 | 32) tags="oracle oracle_abstol" ;;
*) tags="oracle" ;;
esac

self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
root=$(cd "$(dirname "$self")/../.." && pwd)
dir=${KUBECTL_HPA_CACHE:-$HOME/.cache/kubectl-hpa}/differential/$version
mkdir -p "$dir"
cd "$dir"
export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0
e2e_module=$root/hack/e2e-tools/kubernetes/$version
log=$dir/build.log
: >"$log"

# copy_sources puts the oracle's files into the scratch module, with the wire
# format the tests share (test/differential/wire.go) as package main.
copy_sources() {
	cp "$root"/test/differential/oracle/*.go .
	sed 's/^package differential$/package main/' "$root/test/differential/wire.go" >wire_shared.go
	grep -q '^package main$' wire_shared.go || { echo "oracle.sh: test/differential/wire.go has no 'package differential' line" >&2; exit 1; }
}

# The module is written once per version (and again when this script changes).
stamp=$(sha256sum "$self" | cut -c1-16)
if [ -f "$e2e_module/go.mod" ]; then
	stamp=$stamp-$(cat "$e2e_module/go.mod" "$e2e_module/go.sum" | sha256sum | cut -c1-16)
fi
if [ -f "$e2e_module/go.mod" ] && { [ ! -f go.sum ] || [ "$(cat module.stamp 2>/dev/null)" != "$stamp" ]; }; then
	# No go mod tidy: dropping the requirements the oracle does not import
	# could lower a version MVS selects, and so change the packages.
	rm -f go.mod go.sum module.stamp substitutions.txt
	sed 's#^module .*#module hpaoracle#' "$e2e_module/go.mod" >go.mod
	cp "$e2e_module/go.sum" go.sum
	: >substitutions.txt
	echo "$stamp" >module.stamp
elif [ ! -f go.sum ] || [ "$(cat module.stamp 2>/dev/null)" != "$stamp" ]; then
	rm -f go.mod go.sum module.stamp substitutions.txt
	go mod init hpaoracle >>"$log" 2>&1
	go mod download -json "k8s.io/kubernetes@$version" >>"$log" 2>&1 ||
		{ echo "oracle.sh: the Go module proxy does not serve k8s.io/kubernetes@$version" >&2; exit 1; }
	src=$(go env GOMODCACHE)/k8s.io/kubernetes@$version
	[ -d "$src/pkg/controller/podautoscaler" ] || { echo "oracle.sh: $src has no podautoscaler package" >&2; exit 1; }
	: >substitutions.txt
	replaces=""
	for mod in $(sed -n 's#^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => ./staging/src/k8s.io/[a-z0-9-]*$#\1#p' "$src/go.mod" | grep -v -e sample-cli-plugin -e sample-controller); do
		use=$staging
		if ! go mod download -json "$mod@$staging" >>"$log" 2>&1; then
			# The newest patch of the same minor the proxy serves, below ours;
			# failing that, the newest of the previous minor. Both require
			# nothing newer than our version does, so they raise no module of
			# the build list.
			use=""
			versions=$(go list -m -versions "$mod" 2>>"$log" | tr ' ' '\n')
			for v in $(grep -E "^v0\\.$minor\\.[0-9]+$" <<<"$versions" | sort -t. -k3,3nr) $(grep -E "^v0\\.$((minor - 1))\\.[0-9]+$" <<<"$versions" | sort -t. -k3,3nr); do
				if { [ "${v%.*}" != "${staging%.*}" ] || [ "${v##*.}" -lt "${staging##*.}" ]; } && go mod download -json "$mod@$v" >>"$log" 2>&1; then
					use=$v
					break
				fi
			done
			[ -n "$use" ] || { echo "oracle.sh: neither v0.$minor.x nor v0.$((minor - 1)).x of $mod is served; cannot build $version" >&2; exit 1; }
			echo "$mod $staging $use" >>substitutions.txt
		fi
		replaces+=$'\t'"$mod => $mod $use"$'\n'
	done
	{
		echo "module hpaoracle"
		echo
		echo "go $(go env GOVERSION | sed -E 's/^go([0-9]+\.[0-9]+).*/\1/')"
		echo
		echo "require k8s.io/kubernetes $version"
		echo
		echo "replace ("
		printf '%s' "$replaces"
		echo ")"
	} >go.mod
	# The sources are needed for go mod tidy to see the imports.
	rm -f ./*.go
	copy_sources
	go mod tidy >>"$log" 2>&1 || { cat "$log" >&2; exit 1; }
	echo "$stamp" >module.stamp
fi

rm -f ./*.go
copy_sources
# A substituted module must not provide any package of the oracle.
if [ -s substitutions.txt ]; then
	deps=$(go list -deps -tags "$tags" -f '{{with .Module}}{{.Path}}{{end}}' . 2>>"$log" | sort -u)
	while read -r mod _ _; do
		if grep -qx "$mod" <<<"$deps"; then
			echo "oracle.sh: $mod is substituted but the oracle compiles a package of it" >&2
			exit 1
		fi
	done <substitutions.txt
fi
"$root/hack/test/step.sh" "build oracle $version" go build -trimpath -tags "$tags" -ldflags "-X main.upstreamMinor=$minor" -o oracle . >>"$log" 2>&1 || { cat "$log" >&2; exit 1; }
echo "$dir/oracle"
