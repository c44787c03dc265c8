#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Creates the scratch module the vector generator runs in, outside the repository:
#
#   hack/vectors/scratch.sh VERSION DIR
#
# DIR/go.mod requires k8s.io/kubernetes@VERSION from the Go module proxy, with a
# replace line per staging module of upstream's go.mod (k8s.io/X => k8s.io/X
# v0.MINOR.PATCH), and DIR/podautoscaler/ is a copy of upstream's
# pkg/controller/podautoscaler package (sources and tests, not its sub-packages,
# which stay imported from the module). Nothing of upstream is written into the
# repository. generate.sh calls this; run it alone to warm the build cache.
set -euo pipefail

version=${1:?usage: scratch.sh VERSION DIR}
dir=${2:?usage: scratch.sh VERSION DIR}
case $version in
v1.*.*) ;;
*) echo "scratch.sh: VERSION must look like v1.37.2" >&2; exit 2 ;;
esac
staging=v0.${version#v1.}

mkdir -p "$dir"
cd "$dir"
export GOFLAGS=-mod=mod GOTOOLCHAIN=local
if [ ! -f go.mod ]; then
	go mod init vecgen >/dev/null 2>&1
fi
go mod download -json "k8s.io/kubernetes@$version" >/dev/null
src=$(go list -m -f '{{.Dir}}' "k8s.io/kubernetes@$version" 2>/dev/null || true)
if [ -z "$src" ]; then
	src=$(go env GOMODCACHE)/k8s.io/kubernetes@$version
fi
[ -d "$src/pkg/controller/podautoscaler" ] || { echo "scratch.sh: $src has no podautoscaler package" >&2; exit 1; }

# The module: k8s.io/kubernetes plus its staging modules at the matching v0 tag.
{
	echo "module vecgen"
	echo
	sed -n 's/^go \(.*\)$/go \1/p' "$src/go.mod"
	echo
	echo "require k8s.io/kubernetes $version"
	echo
	echo "replace ("
	sed -n 's#^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => ./staging/src/k8s.io/[a-z0-9-]*$#\t\1 => \1 '"$staging"'#p' "$src/go.mod" |
		grep -v -e sample-cli-plugin -e sample-controller
	echo ")"
} >go.mod

rm -rf podautoscaler
mkdir podautoscaler
# Only the package's own files; metrics/, monitor/ and config/ stay in the module.
find "$src/pkg/controller/podautoscaler" -maxdepth 1 -name '*.go' -exec cp {} podautoscaler/ \;
chmod -R u+w podautoscaler
echo "$src" >upstream.path
go mod tidy -e >tidy.log 2>&1 || { cat tidy.log >&2; exit 1; }
