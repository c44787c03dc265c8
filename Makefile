# kubectl-hpa. Run `make help` for the list of targets.
#
# Development tools (golangci-lint) are pinned in hack/tools.sh and installed
# from the Go module proxy into $(KUBECTL_HPA_CACHE)/tools, outside the repo.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
# Targets run one at a time, in the order listed (the machine may have 2 cores,
# and `test` relies on the order of its prerequisites).
.NOTPARALLEL:

MODULE := github.com/kubectl-hpa/kubectl-hpa
GO ?= go
BIN := bin/kubectl-hpa

KUBECTL_HPA_CACHE ?= $(HOME)/.cache/kubectl-hpa
export KUBECTL_HPA_CACHE

# Kubernetes version of the local control plane (e2e-tools, cluster-up,
# test-e2e, demo), e.g. `make cluster-up KUBE_VERSION=v1.30.14`. Empty means the
# default; hack/e2e-tools/lib.sh defines it (v1.37.2) and the buildable versions.
KUBE_VERSION ?=
export KUBE_VERSION

# KEDA=1 adds KEDA to the local control plane (e2e-tools builds it, cluster-up
# starts it); test-e2e builds and attaches it for its KEDA phase by itself.
KEDA ?=
export KEDA

# Version stamping (pkg/version). DATE is the commit date, so a rebuild of the
# same commit gives the same binary.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
DATE ?= $(shell TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -X $(MODULE)/pkg/version.Version=$(VERSION) \
	-X $(MODULE)/pkg/version.Commit=$(COMMIT) \
	-X $(MODULE)/pkg/version.Date=$(DATE)

# The race detector needs cgo; use it when a C compiler is available.
# Override with `make test RACE=` (off) or `make test RACE=-race` (on).
ifeq ($(origin RACE),undefined)
RACE := $(shell [ "$$($(GO) env CGO_ENABLED)" = 1 ] && command -v "$$($(GO) env CC)" >/dev/null 2>&1 && echo -race)
endif

# `make demo` replays a bundled example snapshot; no cluster needed. The time
# of the replayed sync is the one in the example's "Replay it:" header line.
DEMO_FILE ?= docs/examples/cpu-scale-up-unready.yaml
DEMO_NOW ?= $(shell sed -n 's/^\#.*--now[ =]\([^ ]*\).*/\1/p' $(DEMO_FILE) 2>/dev/null | head -n 1)
DEMO_ARGS ?= explain web -n shop -f $(DEMO_FILE) --now $(DEMO_NOW)

# Extra flags for the differential test, e.g. DIFF_TEST_FLAGS=-v.
DIFF_TEST_FLAGS ?=
# Controller versions test-differential compares the engine with, each against
# its own upstream build (hack/differential/run.sh): make test runs the default
# version's, whose oracle shares the control plane's compiled packages; the
# other eight versions' upstream vectors run in go test ./... (pkg/engine), and
# test-versions runs all nine oracles (e.g. DIFF_VERSIONS="v1.37.2 v1.29.15").
DIFF_VERSIONS ?= v1.37.2
DIFF_ALL_VERSIONS := v1.29.15 v1.30.14 v1.31.14 v1.32.13 v1.33.13 v1.34.4 v1.35.4 v1.36.3 v1.37.2
# Cases per version of test-differential (DIFF_CASES/DIFF_RECONCILE_CASES in
# the environment win); test-versions runs the tests' defaults.
DIFF_QUICK_CASES ?= 20000
DIFF_QUICK_RECONCILE_CASES ?= 2000
FUZZTIME ?= 60s

# Colour only for humans: off when NO_COLOR is set or in CI.
ifeq ($(NO_COLOR)$(filter true,$(CI)),)
BOLD := \033[1m
CYAN := \033[36m
RESET := \033[0m
endif
section = @printf '\n$(BOLD)==> %s$(RESET)\n' "$(1)"

##@ General

.PHONY: help
help: ## Show this help
	@awk 'BEGIN {FS = ":.*## "; printf "Usage: make $(CYAN)<target>$(RESET) [VAR=value...]\n"} \
		/^[a-zA-Z0-9_-]+:.*## / { printf "  $(CYAN)%-22s$(RESET) %s\n", $$1, $$2 } \
		/^##@/ { printf "\n$(BOLD)%s$(RESET)\n", substr($$0, 5) }' $(MAKEFILE_LIST)

##@ Build

.PHONY: build
build: ## Build bin/kubectl-hpa (static, version-stamped)
	$(call section,build $(BIN) ($(VERSION)))
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/kubectl-hpa

.PHONY: docs
docs: schema ## Regenerate the command reference in docs/commands, the explain outputs embedded in docs/*.md and the JSON Schemas
	$(call section,go run ./hack/gendocs -pages docs docs/commands)
	rm -rf docs/commands
	$(GO) run ./hack/gendocs -pages docs docs/commands

.PHONY: schema
schema: ## Regenerate the JSON Schemas of the -o json documents (docs/schema) and their descriptions (pkg/schema/docs_generated.go)
	$(call section,go run ./hack/genschema)
	$(GO) run ./hack/genschema

.PHONY: demo
demo: build ## Start the local control plane (KUBE_VERSION, default v1.37.2), run a sample app under changing load and explain its HPA (offline example if no cluster)
	$(call section,hack/demo.sh)
	BIN=$(BIN) hack/demo.sh

.PHONY: demo-offline
demo-offline: build ## Explain a bundled example snapshot, no cluster (adjust with DEMO_ARGS=...)
	$(call section,kubectl hpa $(DEMO_ARGS))
	$(BIN) $(DEMO_ARGS)

##@ Test

.PHONY: test
test: ## Run every check and test (what CI runs): hack/test/run.sh schedules them for 2 cores and prints a timeline
	hack/test/run.sh

.PHONY: test-cold
test-cold: ## Run make test as CI does on a new machine: a fresh clone of HEAD, every cache empty; prints the timeline (hack/test/cold.sh)
	hack/test/cold.sh

.PHONY: test-unit
test-unit: ## Run the main module's tests (with -race when cgo is available)
	$(call section,go test $(RACE) ./...)
	$(GO) test $(RACE) ./...

.PHONY: wait-e2e-quiet
# make test's race job starts with it (hack/test/run.sh): it waits until the
# e2e suite says that what is left of it only waits (E2E_QUIET_FILE) or is over.
wait-e2e-quiet:
	@while [ ! -f "$${E2E_QUIET_FILE:-_output/e2e-quiet}" ] && [ ! -f _output/e2e-over ]; do sleep 2; done

.PHONY: test-short
test-short: ## Run the main module's tests in -short mode
	$(call section,go test -short ./...)
	$(GO) test -short ./...

.PHONY: test-browser
test-browser: ## Load the HTML reports of tune and whatif --since in headless Chromium (test/browser; hack/test/chromium.sh installs Debian's chromium when missing); KUBECTL_HPA_UPDATE_SCREENSHOTS=1 rewrites docs/images/*-report.png
	$(call section,browser test of the HTML reports (test/browser))
	KUBECTL_HPA_CHROMIUM="$$(hack/test/chromium.sh)" $(GO) test -tags browser -count=1 ./test/browser/

.PHONY: test-differential
test-differential: ## Compare the engine with upstream's controller on random snapshots, per version in DIFF_VERSIONS (test/differential)
	$(call section,differential test (test/differential) against $(DIFF_VERSIONS))
	@set -e; for v in $(DIFF_VERSIONS); do \
		cases=$${DIFF_CASES:-$(DIFF_QUICK_CASES)}; rcases=$${DIFF_RECONCILE_CASES:-$(DIFF_QUICK_RECONCILE_CASES)}; \
		echo "DIFF_CASES=$$cases DIFF_RECONCILE_CASES=$$rcases hack/differential/run.sh $$v $(DIFF_TEST_FLAGS)"; \
		DIFF_CASES=$$cases DIFF_RECONCILE_CASES=$$rcases GO="$(GO)" hack/differential/run.sh $$v $(DIFF_TEST_FLAGS); \
	done
	cd test/differential && $(GO) test -count=1 -run '^TestValidationParity$$' $(DIFF_TEST_FLAGS) .

.PHONY: test-versions
test-versions: ## Run the differential test against all nine supported controller versions (about 20 min once the oracles are built; each first build 2-6 min)
	$(MAKE) test-differential DIFF_VERSIONS="$(DIFF_ALL_VERSIONS)" DIFF_QUICK_CASES=100000 DIFF_QUICK_RECONCILE_CASES=10000

# Extra flags for the end-to-end suite, e.g.
# E2E_TEST_FLAGS='-v -run TestAgreement/scenarios/cpu-up'. E2E_PARALLEL (in the
# environment) sets how many scenarios run at once (default 20: all).
E2E_TEST_FLAGS ?=
# The phases of test-e2e, in order: main (every test but those named *KEDA*
# and TestFaults*, with our fake adapter serving external.metrics.k8s.io),
# faults (the tests named TestFaults*, one at a time: they pause and kill the
# cluster's components, hack/cluster/fault.sh) and keda (only the tests named
# *KEDA*, with KEDA attached: hack/cluster/keda.sh up, E2E_KEDA=1; KEDA's
# faults are TestKEDAFaults*). E2E_TEST_FLAGS go to every phase; the keda
# phase's -run E2E_KEDA_RUN comes after them, e.g. E2E_PHASES=keda
# E2E_KEDA_RUN=TestKEDASmoke.
E2E_PHASES ?= main faults keda
E2E_KEDA_RUN ?= KEDA
E2E_GO_TEST = $(GO) test -tags e2e -count=1 -timeout 60m

.PHONY: mcpclient
mcpclient: ## Install the e2e suite's MCP client (@modelcontextprotocol/sdk, pinned in test/e2e/mcpclient) with npm into $(KUBECTL_HPA_CACHE); instant once installed
	$(call section,hack/mcpclient/install.sh)
	hack/mcpclient/install.sh

.PHONY: test-e2e
# The faults phase on a control plane of its own: make test runs it beside
# the main phase's quiet tail, where its pauses and restarts reach no other
# test. Its ports are the usual ones moved by FAULTS_PORT_OFFSET.
FAULTS_PORT_OFFSET ?= 10000

.PHONY: test-e2e-faults
test-e2e-faults: ## Run the e2e faults phase (TestFaults*) on a control plane of its own (_output/faults-cluster, ports + FAULTS_PORT_OFFSET), so that it can run beside the other phases
	KUBECTL_HPA_CLUSTER_DIR=$(CURDIR)/_output/faults-cluster KUBECTL_HPA_PORT_OFFSET=$(FAULTS_PORT_OFFSET) \
		PROMETHEUS_PORT=$$((9090 + $(FAULTS_PORT_OFFSET))) $(MAKE) --no-print-directory test-e2e E2E_PHASES=faults

.PHONY: test-tune-proof
test-tune-proof: ## Run tune's proof against the real controller alone (TestHistoryBacktest, also in make test: the recorded pattern, tune over it, the pattern again with the recommendation; about 19 minutes; docs/tune.md)
	$(MAKE) --no-print-directory test-e2e E2E_PHASES=main E2E_TEST_FLAGS='-run TestHistoryBacktest -v'

test-e2e: cluster-preflight e2e-tools mcpclient ## Run the end-to-end suite (test/e2e) on the local cluster (KUBE_VERSION, default v1.37.2) in phases E2E_PHASES (main, faults, then keda with KEDA attached); starts and stops the cluster if it is not running
	$(call section,end-to-end suite (test/e2e): phases $(E2E_PHASES))
	@for p in $(E2E_PHASES); do \
		case $$p in main | faults | keda) ;; *) echo "E2E_PHASES: unknown phase '$$p' (main, faults, keda)" >&2; exit 2 ;; esac; \
	done; \
	started=; had_keda=; rc=0; keda_build=; \
	if echo " $(E2E_PHASES) " | grep -q ' keda ' && ! hack/e2e-tools/bin-dir.sh --check --keda >/dev/null 2>&1; then \
		if [ -f _output/keda-build.pid ] && { [ -f _output/keda-build.rc ] || kill -0 "$$(cat _output/keda-build.pid)" 2>/dev/null; }; then \
			echo "KEDA is being built in the background since make test started (log: _output/keda-build.log)"; keda_build=early; \
		else \
			echo "building KEDA in the background, at a low priority, while the main phase runs (log: _output/keda-build.log)"; \
			mkdir -p _output; \
			( E2E_KEDA_ONLY=1 nice -n 15 hack/e2e-tools/build.sh >_output/keda-build.log 2>&1 ) & keda_build=$$!; \
		fi; \
	fi; \
	restore() { \
		case " $(E2E_PHASES) " in *" main "*) if [ -d _output/second-cluster ]; then \
			KUBECTL_HPA_CLUSTER_DIR=$(CURDIR)/_output/second-cluster KUBECTL_HPA_PORT_OFFSET=15000 hack/cluster/down.sh >/dev/null 2>&1 || true; fi ;; esac; \
		if [ -n "$$started" ]; then hack/cluster/down.sh || true; return; fi; \
		if [ -n "$$had_keda" ]; then hack/cluster/keda.sh up >/dev/null || true; \
		else hack/cluster/keda.sh down >/dev/null || true; fi; \
	}; \
	trap restore EXIT; trap 'exit 130' INT TERM; \
	if hack/cluster/status.sh >/dev/null 2>&1; then \
		echo "using the local cluster that is already running"; \
		if hack/cluster/keda.sh status >/dev/null 2>&1; then had_keda=1; fi; \
	else \
		started=1; KEDA= hack/cluster/up.sh; \
	fi; \
	for p in $(E2E_PHASES); do \
		case $$p in \
		main) \
			printf '\n$(BOLD)==> e2e phase main: every test but *KEDA* and TestFaults*, the fake adapter serving external metrics$(RESET)\n'; \
			hack/cluster/keda.sh down >/dev/null; \
			echo "E2E_KEDA= $(E2E_GO_TEST) -skip 'KEDA|^TestFaults' $(E2E_TEST_FLAGS) ./test/e2e/..."; \
			E2E_KEDA= $(E2E_GO_TEST) -skip 'KEDA|^TestFaults' $(E2E_TEST_FLAGS) ./test/e2e/... || rc=1; \
			if [ -n "$${E2E_QUIET_FILE:-}" ]; then touch "$$E2E_QUIET_FILE"; fi ;; \
		faults) \
			printf '\n$(BOLD)==> e2e phase faults: the tests named TestFaults*, one at a time (they pause and kill components)$(RESET)\n'; \
			hack/cluster/keda.sh down >/dev/null; \
			echo "E2E_KEDA= $(E2E_GO_TEST) -skip KEDA $(E2E_TEST_FLAGS) -run '^TestFaults' ./test/e2e/..."; \
			E2E_KEDA= $(E2E_GO_TEST) -skip KEDA $(E2E_TEST_FLAGS) -run '^TestFaults' ./test/e2e/... || rc=1 ;; \
		keda) \
			printf '\n$(BOLD)==> e2e phase keda: the tests named *KEDA*, KEDA serving external metrics$(RESET)\n'; \
			if [ -n "$$keda_build" ]; then \
				echo "waiting for the KEDA build..."; \
				hack/test/promote.sh _output/keda-build.pid _output/test-beside.log.pid; \
				if [ "$$keda_build" = early ]; then \
					while [ ! -f _output/keda-build.rc ] && kill -0 "$$(cat _output/keda-build.pid)" 2>/dev/null; do sleep 5; done; \
					kb=$$(cat _output/keda-build.rc 2>/dev/null || echo 1); rm -f _output/keda-build.pid _output/keda-build.rc; \
				else kb=0; wait $$keda_build || kb=$$?; fi; \
				if [ "$$kb" != 0 ]; then tail -20 _output/keda-build.log >&2; echo "building KEDA failed" >&2; rc=1; continue; fi; \
			fi; \
			hack/cluster/keda.sh up; \
			echo "E2E_KEDA=1 $(E2E_GO_TEST) $(E2E_TEST_FLAGS) -run '$(E2E_KEDA_RUN)' ./test/e2e/..."; \
			E2E_KEDA=1 $(E2E_GO_TEST) $(E2E_TEST_FLAGS) -run '$(E2E_KEDA_RUN)' ./test/e2e/... || rc=1 ;; \
		esac; \
	done; \
	exit $$rc

# The soak (test/e2e TestSoak): explain --watch for SOAK_DURATION, the API
# server and kube-controller-manager killed and started again every
# SOAK_RESTART_EVERY, on a cluster of its own (SOAK_CLUSTER_DIR, every port
# moved by SOAK_PORT_OFFSET), so it runs beside the e2e cluster without its
# lock. Its figures go to _output/soak.md, as rows for docs/reliability.md.
SOAK_DURATION ?= 1h
SOAK_RESTART_EVERY ?= 10m
SOAK_PORT_OFFSET ?= 20000
SOAK_CLUSTER_DIR ?= $(CURDIR)/_output/soak-cluster

.PHONY: test-soak
test-soak: e2e-tools ## Run the soak (not in make test): a --watch for SOAK_DURATION (1h) with a control-plane restart every SOAK_RESTART_EVERY (10m), on its own cluster (ports + SOAK_PORT_OFFSET); figures in _output/soak.md
	$(call section,soak: explain --watch for $(SOAK_DURATION), a control-plane restart every $(SOAK_RESTART_EVERY))
	KUBECTL_HPA_CLUSTER_DIR=$(SOAK_CLUSTER_DIR) KUBECTL_HPA_PORT_OFFSET=$(SOAK_PORT_OFFSET) E2E_SOAK=1 \
		SOAK_DURATION=$(SOAK_DURATION) SOAK_RESTART_EVERY=$(SOAK_RESTART_EVERY) SOAK_REPORT=$(CURDIR)/_output/soak.md \
		$(GO) test -tags e2e -count=1 -timeout 0 -run '^TestSoak$$' -v ./test/e2e/...

.PHONY: bench
bench: ## Run the engine benchmarks
	$(call section,benchmarks (pkg/engine))
	$(GO) test -run '^$$' -bench . -benchmem ./pkg/engine/

# --since of bench-tune-prometheus, e.g. BENCH_SINCE=168h (empty: 168h and 720h).
BENCH_SINCE ?=

.PHONY: bench-tune-prometheus
bench-tune-prometheus: ## Time tune --since 7 and 30 days against a real Prometheus backfilled with a month of a 50-pod workload: reads apart from replays, requests, peak RSS (hack/bench/tune-prometheus.sh; not in make test; the first run backfills for a quarter of an hour or more)
	$(call section,hack/bench/tune-prometheus.sh $(BENCH_SINCE))
	hack/bench/tune-prometheus.sh $(BENCH_SINCE)

.PHONY: bench-tune-fleet
bench-tune-fleet: ## Time tune -A over 100 HPAs of 10-50 pods (a day each, from a real Prometheus) against the sum of tune NAME over them, Prometheus's CPU and RSS included (hack/bench/tune-fleet.sh; not in make test; the first run backfills for a quarter of an hour)
	$(call section,hack/bench/tune-fleet.sh)
	hack/bench/tune-fleet.sh

.PHONY: fuzz
fuzz: ## Fuzz the engine against upstream (FUZZTIME=60s)
	$(call section,fuzz FuzzEvaluate for $(FUZZTIME))
	cd test/differential && $(GO) test -run '^$$' -fuzz FuzzEvaluate -fuzztime $(FUZZTIME) .

# The main module's fuzz targets as PACKAGE:TARGET, run one after the other
# by fuzz-all (docs/reliability.md, "Fuzzing", says what each checks).
# fuzz-all gives each FUZZTIME, 10m unless set on the command line or in the
# environment, and FUZZ_PARALLEL workers.
FUZZ_TARGETS := ./pkg/load:FuzzLoad ./pkg/whatif:FuzzParseOverride ./pkg/cmd:FuzzWhatifFlags ./pkg/engine:FuzzEngine
FUZZ_ALL_TIME = $(if $(filter command line environment,$(origin FUZZTIME)),$(FUZZTIME),10m)
FUZZ_PARALLEL ?= 1
# Time spent minimizing each new input; Go's default (60s) eats most of a
# 10m run on the large YAML seeds of FuzzLoad.
FUZZ_MINIMIZETIME ?= 5s

.PHONY: fuzz-all
fuzz-all: ## Run every fuzz target in turn, then FuzzEvaluate against upstream (FUZZTIME=10m each, FUZZ_PARALLEL=1)
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		printf '\n$(BOLD)==> fuzz %s (%s) for %s$(RESET)\n' "$$name" "$$pkg" "$(FUZZ_ALL_TIME)"; \
		echo "$(GO) test -run '^\$$' -fuzz '^$$name\$$' -fuzztime $(FUZZ_ALL_TIME) -fuzzminimizetime $(FUZZ_MINIMIZETIME) -parallel $(FUZZ_PARALLEL) $$pkg"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZ_ALL_TIME) -fuzzminimizetime $(FUZZ_MINIMIZETIME) -parallel $(FUZZ_PARALLEL) "$$pkg" || exit 1; \
	done
	$(call section,fuzz FuzzEvaluate (test/differential) for $(FUZZ_ALL_TIME))
	cd test/differential && $(GO) test -run '^$$' -fuzz '^FuzzEvaluate$$' -fuzztime $(FUZZ_ALL_TIME) -fuzzminimizetime $(FUZZ_MINIMIZETIME) -parallel $(FUZZ_PARALLEL) .

##@ Checks

.PHONY: vet
vet: ## Run go vet (also on the e2e build tag)
	$(call section,go vet ./...)
	$(GO) vet ./...
	$(GO) vet -tags e2e ./test/e2e/...

.PHONY: verify-code-patterns
verify-code-patterns: ## Check house rules (no time.Now in the engine, no stdout in pkg/, license headers)
	$(call section,hack/verify-code-patterns.sh)
	hack/verify-code-patterns.sh

.PHONY: lint
lint: ## Run golangci-lint (pinned in hack/tools.sh)
	$(call section,golangci-lint run ./...)
	@lint=$$(hack/tools.sh golangci-lint); echo "$$lint run ./..."; "$$lint" run ./...

.PHONY: lint-fix
lint-fix: ## Run golangci-lint and apply its fixes
	$(call section,golangci-lint run --fix ./...)
	@lint=$$(hack/tools.sh golangci-lint); "$$lint" run --fix ./...

.PHONY: fmt
fmt: ## Format the code (gofumpt + goimports)
	$(call section,golangci-lint fmt)
	@lint=$$(hack/tools.sh golangci-lint); "$$lint" fmt ./...

.PHONY: tools
tools: ## Install the pinned tools into the cache and print their paths
	$(call section,hack/tools.sh)
	hack/tools.sh

.PHONY: tidy
tidy: ## Run go mod tidy (main module and test/differential)
	$(call section,go mod tidy)
	$(GO) mod tidy
	@if [ -f test/differential/go.mod ]; then echo "cd test/differential && $(GO) mod tidy"; cd test/differential && $(GO) mod tidy; fi

.PHONY: verify-tidy
verify-tidy: ## Fail if go.mod/go.sum are not tidy (changes nothing)
	$(call section,go mod tidy -diff)
	$(GO) mod tidy -diff
	@if [ -f test/differential/go.mod ]; then echo "cd test/differential && $(GO) mod tidy -diff"; cd test/differential && $(GO) mod tidy -diff; fi

##@ Cleanup

.PHONY: clean
clean: ## Remove build output (keeps the tool cache)
	$(call section,clean)
	rm -rf bin dist _output

.PHONY: clean-tools
clean-tools: ## Remove the installed tools from $(KUBECTL_HPA_CACHE)
	rm -rf "$(KUBECTL_HPA_CACHE)/tools" "$(KUBECTL_HPA_CACHE)/bin"

# ---------------------------------------------------------------------------
# Release: goreleaser and krew (.goreleaser.yaml, plugin.yaml, krew/,
# hack/release/). The tools are pinned in hack/tools.sh and built from the Go
# module proxy into $(KUBECTL_HPA_CACHE)/tools. See hack/release/README.md.
# ---------------------------------------------------------------------------

##@ Release

.PHONY: release-check
release-check: ## goreleaser check + a --snapshot release (dist/), krew manifest checks, a krew install run through kubectl, and the container image built by ko into a registry on 127.0.0.1 and checked
	$(call section,hack/release/check.sh)
	hack/release/check.sh

.PHONY: release-check-host
release-check-host: ## release-check with the host's archive only, for the snapshot and the rebuilt release (part of make test)
	$(call section,RELEASE_CHECK_PLATFORMS=host hack/release/check.sh)
	RELEASE_CHECK_PLATFORMS=host hack/release/check.sh

.PHONY: release-snapshot
release-snapshot: ## Build the six release archives of the work tree into dist/ (goreleaser --snapshot)
	$(call section,hack/release/snapshot.sh)
	hack/release/snapshot.sh

.PHONY: krew-manifest
krew-manifest: ## Rebuild a release's archives and write krew/hpa.yaml (KREW_RELEASE=vX.Y.Z [KREW_RELEASE_COMMIT=...]; default: krew/release.env)
	$(call section,hack/release/krew-manifest.sh $(KREW_RELEASE) $(KREW_RELEASE_COMMIT))
	hack/release/krew-manifest.sh $(KREW_RELEASE) $(KREW_RELEASE_COMMIT)

# ---------------------------------------------------------------------------
# Local real control plane for e2e tests and demos (hack/e2e-tools, hack/cluster).
# Binaries are cached in $(KUBECTL_HPA_CACHE)/e2e-bin/<key>; the cluster lives in
# _output/local-cluster/ (kubeconfig: _output/local-cluster/kubeconfig).
# See hack/cluster/README.md.
# ---------------------------------------------------------------------------

##@ Local cluster

.PHONY: e2e-tools
e2e-tools: ## Build (or reuse) the local cluster's binaries for KUBE_VERSION (default v1.37.2; also v1.36.3, v1.30.14): k8s, etcd, kwok, metrics-server, our adapter, Prometheus; KEDA=1 adds KEDA
	$(call section,hack/e2e-tools/build.sh$(if $(KUBE_VERSION), (KUBE_VERSION=$(KUBE_VERSION)))$(if $(KEDA), (KEDA=$(KEDA))))
	hack/e2e-tools/build.sh

# e2e-tools with KEDA, whatever KEDA says (test-e2e and cluster-keda-up need it).
.PHONY: e2e-tools-keda
e2e-tools-keda:
	$(call section,KEDA=1 hack/e2e-tools/build.sh$(if $(KUBE_VERSION), (KUBE_VERSION=$(KUBE_VERSION))))
	KEDA=1 hack/e2e-tools/build.sh

# Fails at once, before any build, when a local cluster of another Kubernetes
# version than KUBE_VERSION selects is running (up.sh would refuse it later).
.PHONY: cluster-preflight
cluster-preflight:
	@hack/cluster/up.sh --check

.PHONY: cluster-up
cluster-up: cluster-preflight e2e-tools ## Start the local control plane (KUBE_VERSION, default v1.37.2) with Prometheus on 127.0.0.1 (KEDA=1: and KEDA); refuses while another version runs
	$(call section,hack/cluster/up.sh$(if $(KEDA), (KEDA=$(KEDA))))
	hack/cluster/up.sh

.PHONY: cluster-keda-up
cluster-keda-up: e2e-tools-keda ## Attach KEDA to the running local cluster (it then serves external.metrics.k8s.io)
	$(call section,hack/cluster/keda.sh up)
	hack/cluster/keda.sh up

.PHONY: cluster-keda-down
cluster-keda-down: ## Detach KEDA from the running local cluster (our fake adapter serves external.metrics.k8s.io again)
	$(call section,hack/cluster/keda.sh down)
	hack/cluster/keda.sh down

.PHONY: cluster-down
cluster-down: ## Stop every process of the local control plane (logs stay in _output/local-cluster)
	$(call section,hack/cluster/down.sh)
	hack/cluster/down.sh

.PHONY: cluster-status
cluster-status: ## Show the local control plane's Kubernetes version, processes, node, metrics APIServices, Prometheus and KEDA
	hack/cluster/status.sh

.PHONY: cluster-smoke
cluster-smoke: ## Check that the real HPA controller acts on cpu, Pods and External metrics (cluster must be up)
	$(call section,hack/cluster/smoke.sh)
	hack/cluster/smoke.sh
