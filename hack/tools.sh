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
# Tools: golangci-lint; goreleaser; kubectl-krew and validate-krew-manifest (both
# built from the one sigs.k8s.io/krew module, into one directory named krew-<version>;
# the krew binary is named kubectl-krew so that kubectl finds it on PATH); crane
# (go-containerregistry's CLI: `make release-check` serves a registry on
# 127.0.0.1 with it and pushes the container image's stand-in base image).
#
# Layout: ${KUBECTL_HPA_CACHE:-$HOME/.cache/kubectl-hpa}/tools/<name>-<version>/<tool>,
# with a symlink <cache>/bin/<tool> to the pinned version. A tool that is already
# installed is not rebuilt, so a warm run takes well under a second.
set -euo pipefail

# Pinned versions. Bump here only; the directory name carries the version, so an
# old build is never mistaken for a new one.
GOLANGCI_LINT_VERSION=v2.15.0
# goreleaser v2.17.0 is the newest v2 release whose go.mod accepts the local Go
# 1.26 toolchain (v2.18.x requires go 1.27.1, and tools are built with
# GOTOOLCHAIN=local: no toolchain download).
GORELEASER_VERSION=v2.16.0
# krew v0.4.4 is the newest krew release the module proxy serves.
KREW_VERSION=v0.4.4
# crane: the go-containerregistry release goreleaser v2.16.0 (and its ko) is built
# with, so the registry that receives the image speaks the same library's protocol.
CRANE_VERSION=v0.21.6

cache=${KUBECTL_HPA_CACHE:-${HOME:?set HOME or KUBECTL_HPA_CACHE}/.cache/kubectl-hpa}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

known_tools="golangci-lint goreleaser kubectl-krew validate-krew-manifest crane"

# tool_spec NAME prints "<directory name> <version> <module> <package>..." for a
# known tool: every package is built (in one go command) into
# tools/<directory name>-<version>/. A module of "-" means `go install pkg@version`;
# otherwise the packages (relative to the module) are built with `go build` inside
# the module's directory in the module cache, with the module's own go.sum. That
# is for krew: `go install sigs.k8s.io/krew/...@v0.4.4` fails because it also asks
# the proxy for the module's version list (to look for a deprecation notice), and
# the proxy refuses that list.
tool_spec() {
	case $1 in
	golangci-lint) echo "golangci-lint $GOLANGCI_LINT_VERSION - github.com/golangci/golangci-lint/v2/cmd/golangci-lint" ;;
	goreleaser) echo "goreleaser $GORELEASER_VERSION - github.com/goreleaser/goreleaser/v2" ;;
	crane) echo "crane $CRANE_VERSION - github.com/google/go-containerregistry/cmd/crane" ;;
	kubectl-krew | validate-krew-manifest)
		echo "krew $KREW_VERSION sigs.k8s.io/krew ./cmd/krew ./cmd/validate-krew-manifest"
		;;
	*)
		echo "hack/tools.sh: unknown tool \"$1\" (known: $known_tools)" >&2
		return 1
		;;
	esac
}

# build_tool OUT VERSION MODULE PKG... builds the packages into OUT (see tool_spec).
build_tool() {
	local out=$1 version=$2 module=$3 moddir p
	shift 3
	if [ "$module" = - ]; then
		local -a refs=()
		for p; do refs+=("$p@$version"); done
		GOBIN="$out" "$root/hack/test/step.sh" "build $tool $version" go install "${refs[@]}"
		return
	fi
	moddir=$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[ -d "$moddir" ] || {
		echo "hack/tools.sh: $module@$version is not in the module cache after go mod download" >&2
		return 1
	}
	"$root/hack/test/step.sh" "build $tool $version" go build -C "$moddir" -mod=readonly -trimpath -o "$out/" "$@"
}

# install NAME installs one tool if needed and prints the binary's path.
install() {
	local name=$1 spec tool version module dir tmp start
	local -a pkgs
	spec=$(tool_spec "$name")
	read -r tool version module spec <<<"$spec"
	read -r -a pkgs <<<"$spec"
	dir="$cache/tools/$tool-$version"
	if [ ! -x "$dir/$name" ]; then
		command -v go >/dev/null 2>&1 || {
			echo "hack/tools.sh: go is not on PATH" >&2
			return 1
		}
		echo "hack/tools.sh: installing $tool $version into $dir (one-off, takes a few minutes)" >&2
		start=$SECONDS
		mkdir -p "$cache/tools"
		tmp=$(mktemp -d "$cache/tools/.$tool-$version.XXXXXX")
		chmod 755 "$tmp"
		# Build outside any module so the repository's go.mod is not consulted, with
		# the local toolchain, and without cgo so the binary does not depend on a C
		# toolchain being present.
		if ! (cd "$tmp" && export GOTOOLCHAIN=local CGO_ENABLED=0 && build_tool "$tmp" "$version" "$module" "${pkgs[@]}" >&2); then
			rm -rf "$tmp"
			echo "hack/tools.sh: installing $tool $version (${pkgs[*]}) failed" >&2
			return 1
		fi
		# kubectl runs `kubectl krew` as the executable kubectl-krew on PATH.
		if [ -x "$tmp/krew" ]; then mv "$tmp/krew" "$tmp/kubectl-krew"; fi
		echo "hack/tools.sh: built $tool $version in $((SECONDS - start))s" >&2
		# Publish atomically: a concurrent or interrupted run never sees half a tool.
		rm -rf "$dir"
		mv "$tmp" "$dir"
	fi
	mkdir -p "$cache/bin"
	ln -sfn "../tools/$tool-$version/$name" "$cache/bin/$name"
	echo "$dir/$name"
}

tools=("$@")
[ ${#tools[@]} -gt 0 ] || read -r -a tools <<<"$known_tools"
for t in "${tools[@]}"; do
	install "$t"
done
