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
