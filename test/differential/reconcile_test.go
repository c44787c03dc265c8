// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// nextSnapshot is the engine's input for the sync after dec: the controller
// state and the HPA status it left, the replicas it scaled to, and a clock
// 1ms later (any gap between ε and 1s gives the same decisions, since the
// generated windows and periods are whole seconds).
func nextSnapshot(snap *engine.Snapshot, dec *explain.Decision) *engine.Snapshot {
	next := *snap
	next.HPA = snap.HPA.DeepCopy()
	next.HPA.Status = *dec.Status.DeepCopy()
	next.State = dec.StateAfter.DeepCopy()
	if dec.Rescale {
		next.Target.SpecReplicas = dec.DesiredReplicas
	}
	next.Now = snap.Now.Add(time.Millisecond)
	return &next
}

type condView struct{ Type, Status, Reason, Message string }

func upstreamConds(cs []autoscalingv2.HorizontalPodAutoscalerCondition) []condView {
	out := []condView{}
	for _, c := range cs {
		out = append(out, condView{string(c.Type), string(c.Status), c.Reason, c.Message})
	}
	return out
}

func engineConds(cs []explain.Condition) []condView {
	out := []condView{}
	for _, c := range cs {
		out = append(out, condView{c.Type, c.Status, c.Reason, c.Message})
	}
	return out
}

// requestErrRE matches the pod (and container) named by a request error.
// The controller lists pods from its informer, in the random iteration order
// of the informer's map, and reports the first failing pod; which failing pod
// is named is therefore not deterministic upstream, and not compared.
var requestErrRE = regexp.MustCompile(`missing request for [^ ]+ in container [^ ]+ of Pod [^ )]+|container [^ ]+ not found in Pod [^ )]+|missing pod-level request for [^ ]+ in Pod [^ )]+`)

func normalizeMessage(m string) string { return requestErrRE.ReplaceAllString(m, "<request error>") }

func condsString(cs []condView, withMessage bool) string {
	var parts []string
	for _, c := range cs {
		s := c.Type + "=" + c.Status + "/" + c.Reason
		if withMessage {
			s += " (" + normalizeMessage(c.Message) + ")"
		}
		parts = append(parts, s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// compareReconcile checks the engine's whole-sync result against the status
// the controller wrote.
// upMetrics is status.currentMetrics as upstream marshalled it.
func compareReconcile(c *Case, syncNo int, st autoscalingv2.HorizontalPodAutoscalerStatus, upMetrics string, writeIsNoise bool, up controllerResult, dec *explain.Decision, evalErr error) []mismatch {
	var out []mismatch
	add := func(field, u, e string) {
		out = append(out, mismatch{Seed: c.Seed, Label: c.Label, Function: "reconcile", Field: fmt.Sprintf("sync %d %s", syncNo, field), Upstream: u, Engine: e})
	}
	if evalErr != nil {
		add("evaluate", "ok", firstLine(evalErr.Error()))
		return out
	}
	if wrote := up.Status != nil; wrote != dec.StatusChanged && !writeIsNoise {
		add("status written", fmt.Sprint(wrote), fmt.Sprint(dec.StatusChanged))
	}
	if st.DesiredReplicas != dec.DesiredReplicas || st.DesiredReplicas != dec.Status.DesiredReplicas {
		add("desiredReplicas", fmt.Sprint(st.DesiredReplicas), fmt.Sprintf("%d (status %d)", dec.DesiredReplicas, dec.Status.DesiredReplicas))
	}
	if st.CurrentReplicas != dec.Status.CurrentReplicas {
		add("currentReplicas", fmt.Sprint(st.CurrentReplicas), fmt.Sprint(dec.Status.CurrentReplicas))
	}
	uc, ecs := upstreamConds(st.Conditions), engineConds(dec.Conditions)
	if condsString(uc, false) != condsString(ecs, false) {
		add("conditions", condsString(uc, false), condsString(ecs, false))
	} else if condsString(uc, true) != condsString(ecs, true) {
		add("condition messages", condsString(uc, true), condsString(ecs, true))
	}
	if a, b := upMetrics, jsonString(emptyAsNil(dec.CurrentMetrics)); a != b {
		add("currentMetrics", a, b)
	} else if b := jsonString(emptyAsNil(dec.Status.CurrentMetrics)); a != b {
		add("status.currentMetrics", a, b)
	}
	if up.ScaleUpdated != dec.Rescale || (up.ScaleUpdated && up.ScaledTo != dec.DesiredReplicas) {
		add("scale update", fmt.Sprintf("%v to %d", up.ScaleUpdated, up.ScaledTo), fmt.Sprintf("%v to %d", dec.Rescale, dec.DesiredReplicas))
	}
	evs := func(es []explain.Event) string {
		var parts []string
		for _, e := range es {
			parts = append(parts, e.Type+"/"+e.Reason+" ("+normalizeMessage(e.Message)+")")
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	if a, b := evs(up.Events), evs(dec.Events); a != b {
		add("events", a, b)
	}
	if (st.LastScaleTime != nil) != (dec.Status.LastScaleTime != nil) {
		add("lastScaleTime set", fmt.Sprint(st.LastScaleTime != nil), fmt.Sprint(dec.Status.LastScaleTime != nil))
	}
	return out
}

// reconcileSyncs is how many consecutive syncs each controller-level case
// runs: the first from a fresh controller, the next ones from the history it
// built (recommendations, scale events, the status it wrote).
const reconcileSyncs = 2

// checkReconcile runs the case through the engine and the controller for
// reconcileSyncs syncs and compares them sync by sync, stopping at the first
// sync that disagrees.
func checkReconcile(c *Case) (diffs []mismatch, report string, outcomes []string, err error) {
	var decs []*explain.Decision
	var eerrs []error
	snap := c.Snapshot
	for i := 0; i < reconcileSyncs; i++ {
		ci := *c
		ci.Snapshot = snap
		dec, eerr := runEngine(&ci)
		decs, eerrs = append(decs, dec), append(eerrs, eerr)
		if eerr != nil || dec == nil {
			break
		}
		outcomes = append(outcomes, string(dec.Outcome))
		snap = nextSnapshot(snap, dec)
	}
	want := make([]int, len(decs))
	for i, d := range decs {
		if d != nil {
			want[i] = len(d.Events)
		}
	}
	run, err := runControllerStable(c, want)
	if err != nil {
		return nil, "", outcomes, err
	}
	prev := *c.Snapshot.HPA.Status.DeepCopy()
	prevMetrics := jsonString(emptyAsNil(prev.CurrentMetrics))
	for i, up := range run.Syncs {
		st, metrics := prev, prevMetrics
		// A write that only renames the pod in a request error is upstream's
		// random pod order at work, not a decision.
		noise := false
		if up.Status != nil {
			st, metrics = *up.Status, string(up.CurrentMetrics)
			noise = i > 0 && normalizeMessage(jsonString(st)) == normalizeMessage(jsonString(prev))
		}
		if d := compareReconcile(c, i+1, st, metrics, noise, up, decs[i], eerrs[i]); len(d) > 0 {
			var lines []string
			for _, m := range d {
				lines = append(lines, m.String())
			}
			report = fmt.Sprintf("seed %d [%s] sync %d\n  controller: %s\n  engine:     %s\n  %s\n  reproducer: DIFF_REPRO_RECONCILE_SEED=%d go test -run TestReproReconcile -v",
				c.Seed, c.Label, i+1, describeController(st, metrics, up), describeDecision(decs[i], eerrs[i]), strings.Join(lines, "\n  "), c.Seed)
			return d, report, outcomes, nil
		}
		prev, prevMetrics = st, metrics
	}
	return nil, "", outcomes, nil
}

// emptyAsNil treats an empty list as none (the engine prints [] where the
// controller leaves the slice nil).
func emptyAsNil(m []autoscalingv2.MetricStatus) []autoscalingv2.MetricStatus {
	if len(m) == 0 {
		return nil
	}
	return m
}

func describeController(st autoscalingv2.HorizontalPodAutoscalerStatus, metrics string, up controllerResult) string {
	return fmt.Sprintf("wrote status=%v desired=%d current=%d scaled=%v(%d) conditions=%s currentMetrics=%s events=%s",
		up.Status != nil, st.DesiredReplicas, st.CurrentReplicas, up.ScaleUpdated, up.ScaledTo,
		condsString(upstreamConds(st.Conditions), true), metrics, jsonString(up.Events))
}

func describeDecision(dec *explain.Decision, err error) string {
	if err != nil {
		return "error: " + firstLine(err.Error())
	}
	return fmt.Sprintf("status changed=%v desired=%d current=%d scaled=%v outcome=%s conditions=%s currentMetrics=%s events=%s",
		dec.StatusChanged, dec.DesiredReplicas, dec.Status.CurrentReplicas, dec.Rescale, dec.Outcome,
		condsString(engineConds(dec.Conditions), true), jsonString(dec.CurrentMetrics), jsonString(dec.Events))
}

// gateKey groups cases by their feature gates, which are process-global in
// the oracle: each group runs with its gates set.
func gateKey(g map[profile.Gate]bool) string { return profile.FormatGates(g) }

// TestDifferentialReconcile runs whole syncs of the real controller and of
// the engine on generated cases and compares desiredReplicas, the conditions
// (type, status, reason, and messages), status.currentMetrics and the scale
// update. Case count: -reconcile-cases, $DIFF_RECONCILE_CASES, default 10000.
func TestDifferentialReconcile(t *testing.T) {
	n := envInt("DIFF_RECONCILE_CASES", 10000)
	if *flagReconcileCases > 0 {
		n = *flagReconcileCases
	}
	first := firstSeed()
	groups := map[string][]*Case{}
	var keys []string
	for i := 0; i < n; i++ {
		c := GenerateReconcile(first + uint64(i))
		k := gateKey(c.Settings.Profile.Gates)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], c)
	}
	sort.Strings(keys)
	start := time.Now()
	var (
		mu       sync.Mutex
		total    int
		failures []string
		bad      = map[string][]uint64{}
		outcomes = map[string]int{}
	)
	for _, k := range keys {
		cases := groups[k]
		// The oracle switches its process-global gates between groups.
		t.Run(k, func(t *testing.T) {
			ch := make(chan *Case)
			var wg sync.WaitGroup
			var again []*Case
			for w := 0; w < 8; w++ {
				wg.Go(func() {
					for c := range ch {
						diffs, _, outs, err := checkReconcile(c)
						if err != nil {
							t.Error(err)
							continue
						}
						mu.Lock()
						total++
						for i, o := range outs {
							outcomes[fmt.Sprintf("sync%d:%s", i+1, o)]++
						}
						if len(diffs) > 0 {
							again = append(again, c)
						}
						mu.Unlock()
					}
				})
			}
			for _, c := range cases {
				ch <- c
			}
			close(ch)
			wg.Wait()
			// The controller's run is paced by real waits (its events, its
			// informer's view of the last write), which eight runs at once
			// on a loaded machine can outlast: a disagreement is run again,
			// alone, and counts when it disagrees again (a disagreement
			// of the engine's comes back with its seed, which fixes the
			// case). Seen: seeds 2129 and 129, once each, under make
			// test's load; alone, both agreed every time.
			for _, c := range again {
				diffs, report, _, err := checkReconcile(c)
				if err == nil && len(diffs) == 0 {
					diffs, report, _, err = checkReconcile(c)
				}
				if err != nil {
					t.Error(err)
					continue
				}
				if len(diffs) == 0 {
					t.Logf("seed %d disagreed among eight runs at once and agreed twice when run alone", c.Seed)
					continue
				}
				key := diffs[0].Field
				bad[key] = append(bad[key], c.Seed)
				if len(bad[key]) <= 2 {
					failures = append(failures, report)
				}
			}
		})
	}
	elapsed := time.Since(start)
	var b strings.Builder
	fmt.Fprintf(&b, "reconcile differential: %d cases (2 syncs each) in %v, %d disagreeing\n  engine outcomes:", total, elapsed.Round(time.Millisecond), func() int {
		s := 0
		for _, v := range bad {
			s += len(v)
		}
		return s
	}())
	var oks []string
	for o := range outcomes {
		oks = append(oks, o)
	}
	sort.Strings(oks)
	for _, o := range oks {
		fmt.Fprintf(&b, " %s=%d", o, outcomes[o])
	}
	fmt.Println(b.String())
	t.Log(b.String())
	var fields []string
	for f := range bad {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		seeds := bad[f]
		var ss []string
		for i, s := range seeds {
			if i == 200 {
				ss = append(ss, "...")
				break
			}
			ss = append(ss, fmt.Sprint(s))
		}
		t.Errorf("%d disagreements on %s; seeds %s", len(seeds), f, strings.Join(ss, " "))
	}
	for i, f := range failures {
		if i < 2*numShow() {
			t.Log(f)
		}
	}
}

// TestReproReconcile replays one controller-level seed.
func TestReproReconcile(t *testing.T) {
	v := envInt("DIFF_REPRO_RECONCILE_SEED", -1)
	if v < 0 {
		t.Skip("set DIFF_REPRO_RECONCILE_SEED=<seed>")
	}
	c := GenerateReconcile(uint64(v))
	if testing.Verbose() {
		b, _ := json.MarshalIndent(c, "", "  ")
		t.Logf("case:\n%s", b)
	}
	diffs, report, outs, err := checkReconcile(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("engine outcomes per sync: %v", outs)
	if len(diffs) > 0 {
		t.Error(report)
	}
}
