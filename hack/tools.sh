#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Installs the project's pinned development tools from the Go module proxy into a
# cache outside the repository and prints the path of each requested binary.
#
#   hack/tools.sh                  install every tool, print their paths
#   hack/tools.sh golangci-lint    install one tool, print its path
#
# Layout: ${KUBECTL_HPA_CACHE:-$HOME/.cache/kubectl-hpa}/tools/<tool>-<version>/<tool>,
# with a symlink <cache>/bin/<tool> to the pinned version. A tool that is already
# installed is not rebuilt, so a warm run takes well under a second.
set -euo pipefail

# Pinned versions. Bump here only; the directory name carries the version, so an
# old build is never mistaken for a new one.
GOLANGCI_LINT_VERSION=v2.15.0

cache=${KUBECTL_HPA_CACHE:-${HOME:?set HOME or KUBECTL_HPA_CACHE}/.cache/kubectl-hpa}

# tool_pkg NAME prints "<package>@<version>" for a known tool.
tool_pkg() {
	case $1 in
	golangci-lint) echo "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@${GOLANGCI_LINT_VERSION}" ;;
	*)
		echo "hack/tools.sh: unknown tool \"$1\" (known: golangci-lint)" >&2
		return 1
		;;
	esac
}

# install NAME installs one tool if needed and prints the binary's path.
install() {
	local name=$1 pkg version dir tmp
	pkg=$(tool_pkg "$name")
	version=${pkg##*@}
	dir="$cache/tools/$name-$version"
	if [ ! -x "$dir/$name" ]; then
		command -v go >/dev/null 2>&1 || {
			echo "hack/tools.sh: go is not on PATH" >&2
			return 1
		}
		echo "hack/tools.sh: installing $name $version into $dir (one-off, takes a few minutes)" >&2
		mkdir -p "$cache/tools"
		tmp=$(mktemp -d "$cache/tools/.$name-$version.XXXXXX")
		chmod 755 "$tmp"
		# Build outside any module so the repository's go.mod is not consulted, with
		# the local toolchain, and without cgo so the binary does not depend on a C
		# toolchain being present.
		if ! (cd "$tmp" && GOBIN="$tmp" GOTOOLCHAIN=local CGO_ENABLED=0 go install "$pkg" >&2); then
			rm -rf "$tmp"
			echo "hack/tools.sh: installing $pkg failed" >&2
			return 1
		fi
		# Publish atomically: a concurrent or interrupted run never sees half a tool.
		rm -rf "$dir"
		mv "$tmp" "$dir"
	fi
	mkdir -p "$cache/bin"
	ln -sfn "../tools/$name-$version/$name" "$cache/bin/$name"
	echo "$dir/$name"
}

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(golangci-lint)
for t in "${tools[@]}"; do
	install "$t"
done
