# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Sourced by the scripts in hack/release/: paths, the pinned tools and helpers.

RELEASE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$RELEASE_DIR/../.." && pwd)
# Scratch space of the release scripts (ignored by git; `make clean` removes it).
RELEASE_WORK=${RELEASE_WORK:-$REPO_ROOT/_output/release}
# The release krew/hpa.yaml describes.
RELEASE_ENV=$REPO_ROOT/krew/release.env

if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
	PATH=$PATH:/usr/local/go/bin
fi

# GORELEASER_PARALLELISM: how many targets goreleaser builds at once (each go
# build also uses every core). Default 2: the machines have 2 cores.
GORELEASER_PARALLELISM=${GORELEASER_PARALLELISM:-2}

# RELEASE_CHECK_PLATFORMS: "all" (the default) builds the six archives that
# .goreleaser.yaml lists; "host" builds only this machine's (linux/amd64 here),
# which is what `make test` checks: cross-compiling the five others, for the
# snapshot and again for the rebuilt release, costs most of half an hour on a
# cold 2-core machine. `make release-check` checks all six.
RELEASE_CHECK_PLATFORMS=${RELEASE_CHECK_PLATFORMS:-all}
case $RELEASE_CHECK_PLATFORMS in
all | host) ;;
*) printf 'hack/release: RELEASE_CHECK_PLATFORMS=%s: want all or host\n' "$RELEASE_CHECK_PLATFORMS" >&2 && exit 1 ;;
esac
export RELEASE_CHECK_PLATFORMS

log() { printf '==> %s\n' "$*" >&2; }
die() {
	printf 'hack/release: %s\n' "$*" >&2
	exit 1
}

# now prints a timestamp for elapsed.
now() { date +%s.%N; }
# elapsed START prints the seconds since START.
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }

# goreleaser_config DIR prints the goreleaser flag that picks the configuration
# to build DIR with: nothing for every platform, else a copy of DIR's
# .goreleaser.yaml (outside DIR, so its tree stays clean) whose builds list only
# the host's GOOS and GOARCH. Everything else about the builds is the same, so
# the host's archive is the same bytes either way.
goreleaser_config() {
	local dir=$1 out os arch
	[ "$RELEASE_CHECK_PLATFORMS" = host ] || return 0
	os=$(go env GOOS)
	arch=$(go env GOARCH)
	mkdir -p "$RELEASE_WORK"
	out=$RELEASE_WORK/goreleaser-host-$(basename "$dir").yaml
	sed -e "s/^\( *goos:\) \[.*\]/\1 [$os]/" -e "s/^\( *goarch:\) \[.*\]/\1 [$arch]/" "$dir/.goreleaser.yaml" >"$out"
	grep -q "^ *goos: \[$os\]\$" "$out" && grep -q "^ *goarch: \[$arch\]\$" "$out" ||
		die "$dir/.goreleaser.yaml: no one-line goos/goarch lists to narrow to $os/$arch"
	printf -- '--config=%s\n' "$out"
}

# tool NAME prints the path of a pinned tool, building it on first use.
tool() { "$REPO_ROOT/hack/tools.sh" "$1"; }

# goreleaser_in DIR ARGS... runs the pinned goreleaser in DIR. goreleaser reads
# the commit, its date and the tags from git; it also asks for the remote's URL
# and, in snapshot mode, gives up on *all* git information ("none", date zero)
# when there is no remote. A clone has one; a repository made with `git init`
# may not, so give goreleaser one through the environment (git's
# GIT_CONFIG_COUNT), which changes nothing on disk. Nothing is published: the
# URL is only read.
goreleaser_in() {
	local dir=$1 gr
	shift
	gr=$(tool goreleaser)
	if [ -z "$(git -C "$dir" remote)" ]; then
		(cd "$dir" && GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url \
			GIT_CONFIG_VALUE_0=https://github.com/kubectl-hpa/kubectl-hpa.git "$gr" "$@")
	else
		(cd "$dir" && "$gr" "$@")
	fi
}

# build_release TAG COMMIT OUT builds the release archives of TAG from COMMIT,
# as `goreleaser release` on that tag would, into OUT (archives, checksums.txt,
# metadata.json); OUT is emptied first. It works in a throwaway clone of this repository in which it
# makes the tag, so this repository's tags and work tree are left alone. When
# COMMIT has no .goreleaser.yaml (it predates the release tooling), the current
# one is used.
build_release() {
	local tag=$1 commit=$2 out=$3 src start
	git -C "$REPO_ROOT" cat-file -e "$commit^{commit}" 2>/dev/null || {
		if [ "$(git -C "$REPO_ROOT" rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
			die "commit $commit is not in this shallow clone; fetch the history (git fetch --unshallow) to rebuild release $tag"
		fi
		die "commit $commit (release $tag) is not in this repository"
	}
	src=$RELEASE_WORK/src
	rm -rf "$src" "$out"
	mkdir -p "$RELEASE_WORK" "$out"
	start=$(now)
	log "release $tag: building the archives from commit $commit (in $src)"
	git clone --quiet --shared --no-checkout "$REPO_ROOT" "$src"
	git -C "$src" -c advice.detachedHead=false checkout --quiet --detach "$commit"
	# A tag of that name may come with the clone; the release is defined by
	# krew/release.env, so force it onto COMMIT (in the clone only).
	git -C "$src" tag --force "$tag" "$commit" >/dev/null
	local skip=publish,announce
	if [ ! -f "$src/.goreleaser.yaml" ]; then
		log "release $tag: commit $commit has no .goreleaser.yaml; using the current one"
		cp "$REPO_ROOT/.goreleaser.yaml" "$src/.goreleaser.yaml"
		# The copied file makes the tree dirty, which goreleaser's validation refuses.
		skip=$skip,validate
	fi
	if [ ! -f "$src/hack/kubectl_complete-hpa" ]; then
		die "commit $commit has no hack/kubectl_complete-hpa, which the archives ship"
	fi
	# GITHUB_TOKEN: goreleaser insists on one for a release, even with publishing
	# skipped; it is never used.
	local config
	config=$(goreleaser_config "$src")
	# shellcheck disable=SC2086 # $config is one flag or nothing
	GORELEASER_CURRENT_TAG=$tag GITHUB_TOKEN=${GITHUB_TOKEN:-unused} goreleaser_in "$src" release --clean --skip="$skip" \
		--parallelism "$GORELEASER_PARALLELISM" $config >&2
	local f
	for f in "$src"/dist/*.tar.gz "$src"/dist/*.zip; do
		# A host-only build has no zip (windows) or no tar.gz.
		[ ! -e "$f" ] || cp "$f" "$out/"
	done
	cp "$src/dist/checksums.txt" "$src/dist/metadata.json" "$out/"
	rm -rf "$src"
	log "release $tag: built in $(elapsed "$start")"
}

# read_release sets KREW_RELEASE, KREW_RELEASE_COMMIT and KREW_RELEASE_GO from
# krew/release.env.
read_release() {
	[ -f "$RELEASE_ENV" ] || die "$RELEASE_ENV does not exist"
	KREW_RELEASE=$(sed -n 's/^KREW_RELEASE=//p' "$RELEASE_ENV")
	KREW_RELEASE_COMMIT=$(sed -n 's/^KREW_RELEASE_COMMIT=//p' "$RELEASE_ENV")
	KREW_RELEASE_GO=$(sed -n 's/^KREW_RELEASE_GO=//p' "$RELEASE_ENV")
	[ -n "$KREW_RELEASE" ] && [ -n "$KREW_RELEASE_COMMIT" ] && [ -n "$KREW_RELEASE_GO" ] ||
		die "$RELEASE_ENV must set KREW_RELEASE, KREW_RELEASE_COMMIT and KREW_RELEASE_GO"
}

# cpu_now sets CPU to the CPU seconds (user + system) that this shell's
# finished child processes, and theirs, have used so far. It must run in the
# shell itself: in a $(...) subshell, `times` would count the subshell's.
cpu_now() {
	mkdir -p "$RELEASE_WORK"
	times >"$RELEASE_WORK/times"
	CPU=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { v = $i; sub(/s$/, "", v); split(v, p, "m"); s += p[1] * 60 + p[2] } printf "%.1f", s }' "$RELEASE_WORK/times")
}

# The container image (.goreleaser.yaml's kos) is built by goreleaser's ko
# pipe, which in a release pushes it to a registry: build_image gives it one,
# crane's in-memory registry on 127.0.0.1, and a base image there, since the
# configured base's registry is out of reach. IMAGE_TAG is the throwaway tag of
# that release (in a throwaway clone only). RELEASE_CHECK_CA_BUNDLE: the CA
# bundle the base ships (the host's).
IMAGE_TAG=v0.0.0-image-check
IMAGE_CA_BUNDLE=${RELEASE_CHECK_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}

# registry_start LOG starts `crane registry serve` on a free port of 127.0.0.1,
# its output in LOG, and sets REGISTRY (127.0.0.1:PORT) and REGISTRY_PID; the
# caller stops it with registry_stop (an EXIT trap).
registry_start() {
	local log_file=$1 crane port='' waited=0
	crane=$(tool crane)
	"$crane" registry serve --address 127.0.0.1:0 >"$log_file" 2>&1 &
	REGISTRY_PID=$!
	while [ -z "$port" ] && [ "$waited" -lt 100 ]; do
		kill -0 "$REGISTRY_PID" 2>/dev/null || die "crane registry serve exited: $(tr '\n' ' ' <"$log_file")"
		sleep 0.1
		waited=$((waited + 1))
		port=$(sed -n 's/.* serving on port \([0-9][0-9]*\)$/\1/p' "$log_file")
	done
	[ -n "$port" ] || die "crane registry serve did not say its port within 10s (log: $log_file)"
	REGISTRY=127.0.0.1:$port
}

# registry_stop stops the registry of registry_start, if any.
registry_stop() {
	[ -n "${REGISTRY_PID:-}" ] || return 0
	kill "$REGISTRY_PID" 2>/dev/null || true
	wait "$REGISTRY_PID" 2>/dev/null || true
	REGISTRY_PID=
}

# image_cleanup stops the registry and removes build_image's clone and base
# layout (check.sh's EXIT trap).
image_cleanup() {
	registry_stop
	rm -rf "$RELEASE_WORK/image-src" "$RELEASE_WORK/image-base"
}

# image_config BASE REPO prints the path of a copy of the work tree's
# .goreleaser.yaml for build_image: the image's base_image BASE and repository
# REPO (neither is templated, so they are edited here), only linux builds (the
# archives the image's binaries are compared with), only the host's
# architecture in host mode (builds and image platforms alike), and the GitHub
# release disabled. Everything else, the image's build flags and ldflags
# included, is as in the file; each edit is checked, so that a change of the
# file's layout fails here rather than building something else.
image_config() {
	local base=$1 repo=$2 out arch
	out=$RELEASE_WORK/goreleaser-image.yaml
	mkdir -p "$RELEASE_WORK"
	local -a edits=(
		-e '/^release:$/a\  disable: true'
		-e 's/^\( *goos:\) \[.*\]$/\1 [linux]/'
		-e "s#^\\( *base_image:\\) .*#\\1 $base#"
		-e "s#^\\( *repositories:\\) \\[.*\\]\$#\\1 [$repo]#"
	)
	if [ "$RELEASE_CHECK_PLATFORMS" = host ]; then
		arch=$(go env GOARCH)
		edits+=(-e "s/^\\( *goarch:\\) \\[.*\\]\$/\\1 [$arch]/" -e "s#^\\( *platforms:\\) \\[.*\\]\$#\\1 [linux/$arch]#")
	fi
	sed "${edits[@]}" "$REPO_ROOT/.goreleaser.yaml" >"$out"
	local want
	for want in '^  disable: true$' '^ *goos: \[linux\]$' "^ *base_image: $base\$" "^ *repositories: \\[$repo\\]\$" \
		${arch:+"^ *goarch: \\[$arch\\]\$" "^ *platforms: \\[linux/$arch\\]\$"}; do
		[ "$(grep -c -- "$want" "$out")" = 1 ] ||
			die ".goreleaser.yaml: the image check could not make one line match $want (one-line release:, goos, goarch, base_image, repositories and platforms expected)"
	done
	printf '%s\n' "$out"
}

# build_image OUT builds the container image of HEAD as a release would: in a
# throwaway clone of this repository at HEAD, tagged IMAGE_TAG, a non-snapshot
# `goreleaser release` with image_config's configuration runs the ko pipe,
# which builds the image on a local base and pushes it to the local registry
# (registry_start), together with the linux archives of the same run. OUT gets
# the archives, checksums.txt, metadata.json and artifacts.json (goreleaser's
# record of the pushed image). Sets IMAGE_REPO (where the image is) and
# IMAGE_BASE (the base's reference). The registry keeps running for the
# checks: the caller stops it (registry_stop).
build_image() {
	local out=$1 src commit base_dir config crane start cpu0
	start=$(now)
	cpu_now
	cpu0=$CPU
	[ -f "$IMAGE_CA_BUNDLE" ] || die "$IMAGE_CA_BUNDLE does not exist: set RELEASE_CHECK_CA_BUNDLE to a PEM bundle of CA certificates for the image's base"
	crane=$(tool crane)
	commit=$(git -C "$REPO_ROOT" rev-parse HEAD)
	src=$RELEASE_WORK/image-src
	base_dir=$RELEASE_WORK/image-base
	rm -rf "$src" "$base_dir" "$out"
	mkdir -p "$RELEASE_WORK" "$out"
	log "image: building the container image of $commit as $IMAGE_TAG (platforms: $RELEASE_CHECK_PLATFORMS)"
	registry_start "$RELEASE_WORK/registry.log"
	IMAGE_REPO=$REGISTRY/kubectl-hpa
	IMAGE_BASE=$REGISTRY/static:base
	# -trimpath and no cgo, as goreleaser builds: the standard library's
	# packages are those already in the build cache.
	(cd "$REPO_ROOT" && CGO_ENABLED=0 go run -trimpath ./hack/release/image-base -ca "$IMAGE_CA_BUNDLE" -o "$base_dir")
	"$crane" push --index "$base_dir" "$IMAGE_BASE" >/dev/null 2>"$RELEASE_WORK/push-base.log" ||
		die "crane push of the base image failed: $(tail -1 "$RELEASE_WORK/push-base.log")"
	git clone --quiet --shared --no-checkout "$REPO_ROOT" "$src"
	git -C "$src" -c advice.detachedHead=false checkout --quiet --detach "$commit"
	git -C "$src" tag --force "$IMAGE_TAG" "$commit" >/dev/null
	config=$(image_config "$IMAGE_BASE" "$IMAGE_REPO")
	# KO_DOCKER_REPO would override the configured repository: set it to the
	# same. COSIGN_REPOSITORY would send the SBOMs elsewhere, KOCACHE would keep
	# the binaries: neither. GITHUB_TOKEN: goreleaser wants one for a release;
	# the GitHub release is disabled, so it is never used.
	GORELEASER_CURRENT_TAG=$IMAGE_TAG GITHUB_TOKEN=unused KO_DOCKER_REPO=$IMAGE_REPO COSIGN_REPOSITORY='' KOCACHE='' \
		goreleaser_in "$src" release --clean --skip=announce --parallelism "$GORELEASER_PARALLELISM" --config="$config" >&2
	local f
	for f in "$src"/dist/*.tar.gz; do cp "$f" "$out/"; done
	cp "$src/dist/checksums.txt" "$src/dist/metadata.json" "$src/dist/artifacts.json" "$out/"
	rm -rf "$src" "$base_dir"
	cpu_now
	log "image: built and pushed to $IMAGE_REPO in $(elapsed "$start"), $(awk -v a="$cpu0" -v b="$CPU" 'BEGIN { printf "%.1f", b - a }')s CPU"
}
