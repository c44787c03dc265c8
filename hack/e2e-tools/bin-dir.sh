#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# Prints the directory that holds (or will hold) the e2e tool binaries for the
# current pins and KUBE_VERSION (default: lib.sh), without building anything.
# With --prometheus or --keda, prints the add-on's own bin dir instead (cache them
# in CI too). With --check, exits 1 and names the missing binaries if the
# directory is incomplete, or, for the default one, if Prometheus's is (and
# KEDA's with KEDA=1).
#
#   hack/e2e-tools/bin-dir.sh [--check] [--prometheus|--keda]
set -euo pipefail
# shellcheck source=hack/e2e-tools/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

check='' which=main
for a; do
	case $a in
	--check) check=1 ;;
	--prometheus) which=prometheus ;;
	--keda) which=keda ;;
	*)
		echo "usage: hack/e2e-tools/bin-dir.sh [--check] [--prometheus|--keda]" >&2
		exit 2
		;;
	esac
done

hint="(run hack/e2e-tools/build.sh or make e2e-tools)"
case $which in
main)
	e2e_select_version || exit 1
	dir=$(e2e_bin_dir)
	if [ -n "$check" ]; then
		missing=$(e2e_missing "$dir")
		if [ -n "$missing" ]; then
			echo "e2e binaries missing in $dir:" $missing "$hint" >&2
			exit 1
		fi
		addons=(prometheus)
		if e2e_keda_wanted; then addons+=(keda); fi
		for a in "${addons[@]}"; do
			d=$(e2e_addon_dir "$a")
			missing=$(e2e_addon_missing "$a" "$d")
			if [ -n "$missing" ]; then
				[ "$a" = keda ] && hint="(run KEDA=1 hack/e2e-tools/build.sh or make e2e-tools KEDA=1)"
				echo "e2e binaries missing in $d:" $missing "$hint" >&2
				exit 1
			fi
		done
	fi
	;;
*)
	dir=$(e2e_addon_dir "$which")
	if [ -n "$check" ]; then
		missing=$(e2e_addon_missing "$which" "$dir")
		if [ -n "$missing" ]; then
			[ "$which" = keda ] && hint="(run KEDA=1 hack/e2e-tools/build.sh or make e2e-tools KEDA=1)"
			echo "e2e binaries missing in $dir:" $missing "$hint" >&2
			exit 1
		fi
	fi
	;;
esac
echo "$dir"
