// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build oracle

// Command oracle is the upstream side of the differential test. It is built
// per Kubernetes version by hack/differential/oracle.sh, in a scratch module
// outside the repository that requires that version of k8s.io/kubernetes (and
// its staging modules at the matching v0 tag). It reads cases as JSON lines
// on stdin, runs them through that version's ReplicaCalculator or
// HorizontalController on fakes, and writes one JSON line per case to
// stdout. The build tags select the upstream API epoch:
//
//	oracle_abstol  v1.29-v1.32: the calculator takes one tolerance, no Tolerances
//	oracle_v129    v1.29: NewHorizontalController has no context and takes the
//	               ContainerResource switch as an argument
//
// The files carry the build tag oracle so that test/differential's own build
// and vet do not compile them as part of the test; go mod tidy still sees their
// imports, which are all in test/differential's graph.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	"k8s.io/klog/v2"
	_ "k8s.io/kubernetes/pkg/features" // registers the kube-controller-manager gates
)

func main() {
	// A controller run mostly waits (for its informers and events), so the
	// pool is larger than the core count; the test sends at most 8 at once.
	workers := flag.Int("workers", max(8, runtime.GOMAXPROCS(0)), "cases run at once")
	flag.Parse()
	if os.Getenv("DIFF_KLOG") == "" {
		fs := flag.NewFlagSet("klog", flag.ContinueOnError)
		klog.InitFlags(fs)
		_ = fs.Set("logtostderr", "false")
		_ = fs.Set("alsologtostderr", "false")
		_ = fs.Set("stderrthreshold", "FATAL")
		klog.SetOutput(io.Discard)
	}
	if err := checkAPI(); err != nil {
		fmt.Fprintln(os.Stderr, "oracle: "+err.Error())
		os.Exit(2)
	}
	serve(os.Stdin, os.Stdout, *workers)
}

// serve answers the requests read from in, running up to workers of them at
// once. Feature gates are process-global: a request whose gates differ from
// the current ones waits until no other case runs, then switches them.
func serve(in io.Reader, out io.Writer, workers int) {
	var (
		outMu sync.Mutex
		enc   = json.NewEncoder(out)
		gates gateState
		wg    sync.WaitGroup
		reqs  = make(chan oracleRequest)
	)
	write := func(r response) {
		outMu.Lock()
		defer outMu.Unlock()
		if err := enc.Encode(r); err != nil {
			fmt.Fprintln(os.Stderr, "oracle: write:", err)
			os.Exit(1)
		}
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for req := range reqs {
				write(handle(&gates, req))
			}
		}()
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var req oracleRequest
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			write(response{Error: "decode request: " + err.Error()})
			continue
		}
		if req.Kind == "info" {
			// Answered at once, outside the pool.
			write(response{ID: req.ID, Info: info()})
			continue
		}
		reqs <- req
	}
	close(reqs)
	wg.Wait()
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "oracle: read:", err)
		os.Exit(1)
	}
}

func handle(gates *gateState, req oracleRequest) (resp response) {
	resp.ID = req.ID
	defer func() {
		if r := recover(); r != nil {
			resp.Error = fmt.Sprintf("oracle panic: %v\n%s", r, debug.Stack())
		}
	}()
	if req.Case != nil {
		if err := req.Case.restoreTimes(); err != nil {
			resp.Error = err.Error()
			return resp
		}
	}
	release, err := gates.acquire(req.Gates)
	if err != nil {
		resp.Error = err.Error()
		return resp
	}
	defer release()
	switch req.Kind {
	case "calc":
		r := runCalcStable(req.Case)
		resp.Calc = &r
	case "reconcile":
		r, err := runReconcileStable(req.Case, req.WantEvents)
		if err != nil {
			resp.Error = err.Error()
		}
		resp.Run = &r
	default:
		resp.Error = fmt.Sprintf("unknown request kind %q", req.Kind)
	}
	return resp
}

// gateState serializes gate switches against the cases that run.
type gateState struct {
	mu  sync.RWMutex
	cur map[string]bool
}

// acquire returns once the process-global gates equal want (only the gates
// named in want are set), holding them until release is called.
func (g *gateState) acquire(want map[string]bool) (release func(), err error) {
	known := utilfeature.DefaultMutableFeatureGate.GetAll()
	for k := range want {
		if _, ok := known[featureName(k)]; !ok {
			return nil, fmt.Errorf("feature gate %s does not exist in this version", k)
		}
	}
	for {
		g.mu.RLock()
		if g.matches(want) {
			return g.mu.RUnlock, nil
		}
		g.mu.RUnlock()
		g.mu.Lock()
		if !g.matches(want) {
			if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(withDependents(want)); err != nil {
				g.mu.Unlock()
				return nil, fmt.Errorf("set feature gates %v: %w", want, err)
			}
			if g.cur == nil {
				g.cur = map[string]bool{}
			}
			maps.Copy(g.cur, want)
		}
		g.mu.Unlock()
	}
}

func (g *gateState) matches(want map[string]bool) bool {
	for k, v := range want {
		if utilfeature.DefaultFeatureGate.Enabled(featureName(k)) != v {
			return false
		}
	}
	return true
}

// info describes the binary: the module versions it was built with and the
// gates it knows, with their defaults.
func info() *oracleInfo {
	in := &oracleInfo{Modules: map[string]string{}, Gates: map[string]bool{}}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			v := m.Version
			if m.Replace != nil {
				v = m.Replace.Version
			}
			if strings.HasPrefix(m.Path, "k8s.io/") {
				in.Modules[m.Path] = v
			}
		}
	}
	known := utilfeature.DefaultMutableFeatureGate.GetAll()
	names := make([]string, 0, len(known))
	for name := range known {
		names = append(names, string(name))
	}
	sort.Strings(names)
	for _, n := range names {
		in.Gates[n] = utilfeature.DefaultFeatureGate.Enabled(featureName(n))
	}
	in.Epoch = calcEpoch + "," + controllerEpoch
	return in
}

func featureName(s string) featuregate.Feature { return featuregate.Feature(s) }

// withDependents adds to the gates switched off every gate that depends on
// one of them (from v1.37 the gate refuses a set that leaves a dependent on;
// kube-controller-manager would have to be given the same). The gates added
// this way are not read by the HPA controller.
func withDependents(want map[string]bool) map[string]bool {
	deps, ok := utilfeature.DefaultMutableFeatureGate.(interface {
		Dependencies() map[featuregate.Feature][]featuregate.Feature
	})
	if !ok {
		return want
	}
	out := maps.Clone(want)
	for changed := true; changed; {
		changed = false
		for feature, needs := range deps.Dependencies() {
			if on, set := out[string(feature)]; set && !on {
				continue
			}
			for _, need := range needs {
				if on, set := out[string(need)]; set && !on {
					out[string(feature)] = false
					changed = true
					break
				}
			}
		}
	}
	return out
}
