#!/usr/bin/env bash
# Copyright 2026 The kubectl-hpa Authors.
# SPDX-License-Identifier: Apache-2.0
#
# `make test`: every check and test, scheduled for a 2-core machine that may
# start with every cache empty (CI's fresh clone). Four jobs run at once, the
# critical path in front and the rest niced behind it:
#
#   critical path (nice 0)   the e2e tools (control plane, etcd, kwok,
#                            metrics-server, adapter, Prometheus), then the e2e
#                            suite's phases (E2E_PHASES, default "main faults
#                            keda"; faults is the job below), which mostly wait
#                            on the controller's syncs
#   faults (nice 0)          the e2e faults phase (make test-e2e-faults) on a
#                            control plane of its own, started with the race
#                            tests: its pauses and restarts reach no other test
#   race (nice 19)           go test -race ./..., started once the suite's
#                            main phase is over or says that what is left of
#                            it only waits (tune's proof run): either
#                            creates E2E_QUIET_FILE;
#                            earlier, its CPU would disturb the timing the
#                            suite's replays are held to
#   checks (nice 10)         vet, verify-code-patterns, lint, beside the builds
#                            and the e2e suite
#   KEDA (nice 15)           KEDA's operator and adapter, for the keda phase
#                            (started only when missing)
#   beside (nice 19)         release-check-host, test-differential and
#                            test-browser (the HTML reports in Chromium), started
#                            once the control plane is built, so the default
#                            version's oracle finds its packages compiled
#
# Every job runs to its end; any failure fails make test. The checks' and the
# beside job's output goes to _output/test-*.log and is printed after the e2e
# suite; hack/test/step.sh records each step in _output/timeline.tsv
# (KUBECTL_HPA_TIMELINE) and the table is printed last.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
make=${MAKE:-make}
step=$root/hack/test/step.sh
mkdir -p _output
export KUBECTL_HPA_TIMELINE=${KUBECTL_HPA_TIMELINE:-$root/_output/timeline.tsv}
: >"$KUBECTL_HPA_TIMELINE"
t0=$(date +%s.%N)
phases=${E2E_PHASES:-main faults keda}
# The faults phase runs beside the others (below), not in their sequence.
faults=
case " $phases " in *" faults "*) faults=1 ;; esac
main_phases=$(echo " $phases " | sed 's/ faults / /; s/^ *//; s/ *$//')
bold='' reset=''
if [ -z "${NO_COLOR:-}" ] && [ "${CI:-}" != true ]; then bold=$'\033[1m' reset=$'\033[0m'; fi
section() { printf '\n%s==> %s%s\n' "$bold" "$*" "$reset"; }
since() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f min", (b - a) / 60 }'; }

pids=()
trap 'kill "${pids[@]}" 2>/dev/null' INT TERM

# run_job NAME NICE LOG TARGET... runs the make targets one after the other
# (stopping at the first failure) at priority NICE in the background, output
# to LOG; its exit status goes to LOG.rc.
run_job() {
	local name=$1 prio=$2 log=$3
	shift 3
	rm -f "$log.rc" "$log.prio"
	(
		rc=0
		for t in "$@"; do
			# hack/test/promote.sh puts the job back at nice 0 once the e2e suite is over.
			p=$(cat "$log.prio" 2>/dev/null || echo "$prio")
			nice -n "$p" "$step" "$t" "$make" --no-print-directory "$t" || { rc=$?; break; }
		done
		echo "$rc" >"$log.rc"
		echo "($name finished at $(since) with exit $rc)"
	) >"$log" 2>&1 </dev/null &
	echo $! >"$log.pid"
	pids+=($!)
	echo "started $name at nice $prio (log: $log)"
}

# wait_job NAME LOG waits for run_job's job and prints its log.
wait_job() { # NAME LOG
	local name=$1 log=$2 r
	if [ ! -f "$log.rc" ]; then echo "waiting for $name (since $(since))..."; fi
	while [ ! -f "$log.rc" ] && kill -0 "$(cat "$log.pid" 2>/dev/null)" 2>/dev/null; do sleep 2; done
	sleep 0.2
	r=$(cat "$log.rc" 2>/dev/null || echo 1)
	section "$name (exit $r)"
	cat "$log"
	return "$r"
}

section "make test: the critical path in front, the rest niced behind it ($(nproc) cores)"

# KEDA, when the keda phase needs it and it is not built: the longest build
# off the critical path, so it starts first. test-e2e's keda phase waits for
# it through _output/keda-build.{pid,rc}.
if echo " $phases " | grep -q ' keda ' && ! hack/e2e-tools/bin-dir.sh --check --keda >/dev/null 2>&1; then
	rm -f _output/keda-build.rc
	(
		E2E_KEDA_ONLY=1 nice -n 15 "$step" "build KEDA" hack/e2e-tools/build.sh >_output/keda-build.log 2>&1
		echo $? >_output/keda-build.rc
	) </dev/null &
	echo $! >_output/keda-build.pid
	pids+=($!)
	echo "started the KEDA build at nice 15 (log: _output/keda-build.log)"
fi

# The checks run beside everything else at nice 10, on a warm machine as on a
# cold one. (They ran first on a warm machine until 2026-12-02, so that the
# e2e suite had the machine to itself: that put their 1 to 4 minutes on the
# critical path, and a warm CI run took 27.0 minutes against a bound of 25.
# At nice 10 they take about a tenth of a core from the suite, whose main
# phase mostly waits on the controller's syncs, and tune's proof takes its
# slack from the noise each run measures.)
run_job checks 10 _output/test-checks.log vet verify-code-patterns lint

rc=0
section "e2e tools (the critical path: control plane, etcd, kwok, metrics-server, adapter, Prometheus)"
"$step" e2e-tools "$make" --no-print-directory e2e-tools || rc=$?

urc=0
if [ "$rc" = 0 ]; then
	run_job beside 19 _output/test-beside.log release-check-host test-differential test-browser
	# The race tests wait for the suite's quiet tail (or its end).
	export E2E_QUIET_FILE=$root/_output/e2e-quiet
	rm -f "$E2E_QUIET_FILE" _output/e2e-over
	# What the suite keeps: tune's text view and report of the real run, and
	# tune's proof's figures (printed below).
	export E2E_ARTIFACTS=${E2E_ARTIFACTS:-$root/_output/e2e-artifacts}
	rm -f "$E2E_ARTIFACTS/tune-proof.txt"
	run_job race 19 _output/test-race.log wait-e2e-quiet test-unit
	if [ -n "$faults" ]; then run_job faults 0 _output/test-faults.log wait-e2e-quiet test-e2e-faults; fi
	"$step" test-e2e "$make" --no-print-directory test-e2e E2E_PHASES="$main_phases" 2>&1 | tee _output/test-e2e.log
	rc=${PIPESTATUS[0]}
	touch _output/e2e-over
	frc=0
	if [ -n "$faults" ]; then
		wait_job "the e2e faults phase, on its own control plane (started beside the suite's tail)" _output/test-faults.log || frc=$?
		[ "$frc" = 0 ] || rc=$frc
	fi
	# Nothing timing-sensitive runs any more: what is left of the niced jobs
	# shares the machine on equal terms.
	hack/test/promote.sh _output/test-beside.log.pid _output/test-checks.log.pid _output/test-race.log.pid
	wait_job "go test -race ./... (started beside the e2e suite's tail, nice 19)" _output/test-race.log || urc=$?
else
	echo "building the e2e tools failed: the e2e suite does not run" >&2
	# The beside job still runs: its checks do not need the control plane.
	run_job beside 19 _output/test-beside.log release-check-host test-differential test-browser
	"$step" test-unit "$make" --no-print-directory test-unit 2>&1 | tee _output/test-race.log
	urc=${PIPESTATUS[0]}
fi

crc=0 brc=0
wait_job "checks: vet, verify-code-patterns, lint (nice 10)" _output/test-checks.log || crc=$?
wait_job "beside the e2e suite: release-check-host, test-differential, test-browser (nice 19)" _output/test-beside.log || brc=$?
if [ -f _output/keda-build.pid ] && kill -0 "$(cat _output/keda-build.pid)" 2>/dev/null; then
	# Only when the keda phase did not run (it waits for the build).
	wait "$(cat _output/keda-build.pid)" 2>/dev/null || true
fi
rm -f _output/keda-build.pid

if [ -s "${E2E_ARTIFACTS:-}/tune-proof.txt" ]; then
	section "tune's proof against the real controller (TestHistoryBacktest; $E2E_ARTIFACTS/tune-proof.txt)"
	cat "$E2E_ARTIFACTS/tune-proof.txt"
fi
section "timeline (hack/test/timeline.sh $KUBECTL_HPA_TIMELINE)"
hack/test/timeline.sh "$KUBECTL_HPA_TIMELINE" "$t0" || true

fail=
[ "$rc" = 0 ] || fail+=" e2e"
[ "$urc" = 0 ] || fail+=" unit"
[ "$crc" = 0 ] || fail+=" checks"
[ "$brc" = 0 ] || fail+=" beside"
if [ -n "$fail" ]; then
	section "what failed (hack/test/failures.sh: each failing test's last error lines, the linter's findings)"
	hack/test/failures.sh _output/test-e2e.log _output/test-faults.log _output/test-race.log _output/test-checks.log _output/test-beside.log || true
	echo "make test failed ($(since)):$fail" >&2
	exit 1
fi
section "make test: all passed ($(since))"
