// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	"k8s.io/kubernetes/pkg/features"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// controllerResult is what one sync of the real controller did.
type controllerResult struct {
	// Status is the status written by this sync; nil when it wrote none.
	Status       *autoscalingv2.HorizontalPodAutoscalerStatus
	Events       []explain.Event
	ScaleUpdated bool
	ScaledTo     int32
}

// controllerRun is the outcome of consecutive syncs of one HPA.
type controllerRun struct {
	Syncs   []controllerResult
	Elapsed time.Duration
	// Stale is set when a sync may have read an HPA the informer had not
	// updated yet; the run is then retried.
	Stale bool
}

// runController runs upstream's HorizontalController (NewHorizontalController
// + Run) on fake clients for len(wantEvents) consecutive syncs of the HPA.
// wantEvents[i] is how many events the engine predicts for sync i; events are
// delivered asynchronously and the harness waits for them. The controller is
// fresh, so its in-memory state matches State.RecommendationsInitialized=false
// at the first sync and then evolves on its own.
//
// Sync boundaries are the scale GETs: every sync starts with one. The GET
// that starts sync i+1 is held until sync i's events are collected; the GET
// of the sync after the last one fails, after Run has been cancelled.
func runController(c *Case, wantEvents []int) (controllerRun, error) {
	snap, set := c.Snapshot, c.Settings
	nsyncs := len(wantEvents)
	ref := snap.Now.Add(-engineEpsilon)
	start := time.Now()
	delta := start.Sub(ref)

	hpa := snap.HPA.DeepCopy()
	for i := range hpa.Status.Conditions {
		hpa.Status.Conditions[i].LastTransitionTime.Time = shiftTime(hpa.Status.Conditions[i].LastTransitionTime.Time, delta)
	}
	objs := []runtime.Object{hpa}
	for _, p := range shiftPods(snap.Pods, delta) {
		objs = append(objs, p)
	}
	kube := fake.NewSimpleClientset(objs...)
	var hpaStore cache.Store

	var (
		mu       sync.Mutex
		run      = controllerRun{Syncs: make([]controllerResult, nsyncs+1)}
		gets     int // scale GETs so far = index+1 of the sync in progress
		events   []explain.Event
		byName   = map[string]explain.Event{}
		lastSt   *autoscalingv2.HorizontalPodAutoscalerStatus
		boundary = make([]chan struct{}, nsyncs+1) // boundary[i] closes when sync i has finished
		release  = make([]chan struct{}, nsyncs+1)
	)
	for i := range boundary {
		boundary[i], release[i] = make(chan struct{}), make(chan struct{})
	}
	var boundaryOnce sync.Map
	closeBoundary := func(i int) {
		if _, loaded := boundaryOnce.LoadOrStore(i, true); !loaded {
			close(boundary[i])
		}
	}
	// Run gets its own context, cancelled before the extra sync is
	// released; the event broadcaster keeps running on bctx until the
	// events are collected.
	bctx, bcancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	defer bcancel()
	rctx, rcancel := context.WithCancel(bctx)
	defer rcancel()

	kube.PrependReactor("create", "events", func(action core.Action) (bool, runtime.Object, error) {
		ev := action.(core.CreateAction).GetObject().(*corev1.Event)
		mu.Lock()
		e := explain.Event{Type: ev.Type, Reason: ev.Reason, Message: ev.Message}
		events = append(events, e)
		byName[ev.Name] = e
		mu.Unlock()
		return true, ev, nil
	})
	kube.PrependReactor("patch", "events", func(action core.Action) (bool, runtime.Object, error) {
		// The correlator patches a repeated event (same reason and message).
		mu.Lock()
		events = append(events, byName[action.(core.PatchAction).GetName()])
		mu.Unlock()
		return true, &corev1.Event{}, nil
	})
	kube.PrependReactor("update", "horizontalpodautoscalers", func(action core.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "status" {
			return false, nil, nil
		}
		obj := action.(core.UpdateAction).GetObject().(*autoscalingv2.HorizontalPodAutoscaler)
		mu.Lock()
		if i := gets - 1; i >= 0 && i < nsyncs {
			st := obj.Status.DeepCopy()
			run.Syncs[i].Status = st
			lastSt = st
		}
		mu.Unlock()
		// Store the write ourselves and return only once the controller's
		// informer shows it: the next sync then cannot read a stale HPA.
		gvr := autoscalingv2.SchemeGroupVersion.WithResource("horizontalpodautoscalers")
		if err := kube.Tracker().Update(gvr, obj, obj.Namespace); err != nil {
			return true, nil, err
		}
		want := jsonString(obj.Status)
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Microsecond) {
			mu.Lock()
			store := hpaStore
			mu.Unlock()
			if store == nil {
				break
			}
			if cur, ok, _ := store.GetByKey(obj.Namespace + "/" + obj.Name); ok && jsonString(cur.(*autoscalingv2.HorizontalPodAutoscaler).Status) == want {
				break
			}
		}
		return true, obj, nil
	})

	replicas := snap.Target.SpecReplicas
	scaleClient := &scalefake.FakeScaleClient{}
	scaleClient.AddReactor("get", "deployments", func(action core.Action) (bool, runtime.Object, error) {
		mu.Lock()
		gets++
		n := gets
		// The sync that is starting read the HPA from the informer just
		// before; it must have seen the previous sync's status write.
		if n > 1 && lastSt != nil && hpaStore != nil {
			if obj, ok, _ := hpaStore.GetByKey(hpa.Namespace + "/" + hpa.Name); !ok || jsonString(obj.(*autoscalingv2.HorizontalPodAutoscaler).Status) != jsonString(*lastSt) {
				run.Stale = true
			}
		}
		r := replicas
		mu.Unlock()
		if n > nsyncs+1 {
			return true, nil, fmt.Errorf("differential harness: only %d syncs", nsyncs)
		}
		if n > 1 {
			closeBoundary(n - 2)
			<-release[n-2]
		}
		if n > nsyncs {
			return true, nil, fmt.Errorf("differential harness: only %d syncs", nsyncs)
		}
		return true, &autoscalingv1.Scale{
			ObjectMeta: metav1.ObjectMeta{Name: snap.Target.Name, Namespace: hpa.Namespace},
			Spec:       autoscalingv1.ScaleSpec{Replicas: r},
			Status:     autoscalingv1.ScaleStatus{Replicas: snap.Target.StatusReplicas, Selector: snap.Target.Selector},
		}, nil
	})
	scaleClient.AddReactor("update", "deployments", func(action core.Action) (bool, runtime.Object, error) {
		obj := action.(core.UpdateAction).GetObject().(*autoscalingv1.Scale)
		mu.Lock()
		if i := gets - 1; i >= 0 && i < nsyncs {
			run.Syncs[i].ScaleUpdated = true
			run.Syncs[i].ScaledTo = obj.Spec.Replicas
		}
		replicas = obj.Spec.Replicas
		mu.Unlock()
		return true, obj, nil
	})

	mc := upstreamMetricsClient(snap, delta)

	factory := informers.NewSharedInformerFactory(kube, 0)
	ctrl := podautoscaler.NewHorizontalController(bctx, kube.CoreV1(), scaleClient, kube.AutoscalingV2(), customMapper, mc,
		factory.Autoscaling().V2().HorizontalPodAutoscalers(), factory.Core().V1().Pods(),
		time.Millisecond, set.DownscaleStabilization, set.Tolerance, set.CPUInitializationPeriod, set.InitialReadinessDelay)
	factory.Start(bctx.Done())
	// Run waits for the caches by polling every 100ms; get them synced first
	// so that its first check passes.
	hpaInf, podInf := factory.Autoscaling().V2().HorizontalPodAutoscalers().Informer(), factory.Core().V1().Pods().Informer()
	mu.Lock()
	hpaStore = hpaInf.GetStore()
	mu.Unlock()
	for deadline := time.Now().Add(10 * time.Second); !hpaInf.HasSynced() || !podInf.HasSynced(); {
		if time.Now().After(deadline) {
			return run, fmt.Errorf("seed %d: informers did not sync", c.Seed)
		}
		time.Sleep(50 * time.Microsecond)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		ctrl.Run(rctx, 1)
		for i := range boundary {
			closeBoundary(i)
		}
	})
	var err error
	collected := 0
	for i := 0; i < nsyncs; i++ {
		select {
		case <-boundary[i]:
		case <-time.After(20 * time.Second):
			err = fmt.Errorf("seed %d: sync %d did not finish within 20s", c.Seed, i+1)
		}
		// Events reach the fake API asynchronously: wait for as many as
		// the engine predicts (or a while), then a little longer.
		for deadline := time.Now().Add(200 * time.Millisecond); time.Now().Before(deadline); {
			mu.Lock()
			n := len(events)
			mu.Unlock()
			if n >= collected+wantEvents[i] {
				break
			}
			time.Sleep(100 * time.Microsecond)
		}
		time.Sleep(2 * time.Millisecond)
		mu.Lock()
		run.Syncs[i].Events = append([]explain.Event(nil), events[collected:]...)
		collected = len(events)
		mu.Unlock()
		if i == nsyncs-1 {
			run.Elapsed = time.Since(start)
			rcancel()
		}
		close(release[i])
		if err != nil {
			break
		}
	}
	for i := range release {
		select {
		case <-release[i]:
		default:
			close(release[i])
		}
	}
	rcancel()
	wg.Wait()
	bcancel()
	factory.Shutdown()
	mu.Lock()
	defer mu.Unlock()
	run.Syncs = run.Syncs[:nsyncs]
	return run, err
}

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
func compareReconcile(c *Case, syncNo int, st autoscalingv2.HorizontalPodAutoscalerStatus, writeIsNoise bool, up controllerResult, dec *explain.Decision, evalErr error) []mismatch {
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
	// nil and empty are the same list (the engine prints [] where the
	// controller leaves the slice nil).
	emptyAsNil := func(m []autoscalingv2.MetricStatus) []autoscalingv2.MetricStatus {
		if len(m) == 0 {
			return nil
		}
		return m
	}
	if a, b := jsonString(emptyAsNil(st.CurrentMetrics)), jsonString(emptyAsNil(dec.CurrentMetrics)); a != b {
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
	run, err := runController(c, want)
	for i := 0; err == nil && (run.Elapsed > maxUpstreamElapsed || run.Stale) && i < 4; i++ {
		run, err = runController(c, want)
	}
	if err != nil {
		return nil, "", outcomes, err
	}
	prev := *c.Snapshot.HPA.Status.DeepCopy()
	for i, up := range run.Syncs {
		st := prev
		// A write that only renames the pod in a request error is upstream's
		// random pod order at work, not a decision.
		noise := false
		if up.Status != nil {
			st = *up.Status
			noise = i > 0 && normalizeMessage(jsonString(st)) == normalizeMessage(jsonString(prev))
		}
		if d := compareReconcile(c, i+1, st, noise, up, decs[i], eerrs[i]); len(d) > 0 {
			var lines []string
			for _, m := range d {
				lines = append(lines, m.String())
			}
			report = fmt.Sprintf("seed %d [%s] sync %d\n  controller: %s\n  engine:     %s\n  %s\n  reproducer: DIFF_REPRO_RECONCILE_SEED=%d go test -run TestReproReconcile -v",
				c.Seed, c.Label, i+1, describeController(st, up), describeDecision(decs[i], eerrs[i]), strings.Join(lines, "\n  "), c.Seed)
			return d, report, outcomes, nil
		}
		prev = st
	}
	return nil, "", outcomes, nil
}

func describeController(st autoscalingv2.HorizontalPodAutoscalerStatus, up controllerResult) string {
	return fmt.Sprintf("wrote status=%v desired=%d current=%d scaled=%v(%d) conditions=%s currentMetrics=%s events=%s",
		up.Status != nil, st.DesiredReplicas, st.CurrentReplicas, up.ScaleUpdated, up.ScaledTo,
		condsString(upstreamConds(st.Conditions), true), jsonString(st.CurrentMetrics), jsonString(up.Events))
}

func describeDecision(dec *explain.Decision, err error) string {
	if err != nil {
		return "error: " + firstLine(err.Error())
	}
	return fmt.Sprintf("status changed=%v desired=%d current=%d scaled=%v outcome=%s conditions=%s currentMetrics=%s events=%s",
		dec.StatusChanged, dec.DesiredReplicas, dec.Status.CurrentReplicas, dec.Rescale, dec.Outcome,
		condsString(engineConds(dec.Conditions), true), jsonString(dec.CurrentMetrics), jsonString(dec.Events))
}

// gateKey groups cases by the feature gates upstream reads from its global
// gate, so that each group runs with the gates set.
func gateKey(g map[profile.Gate]bool) string {
	return fmt.Sprintf("HPAConfigurableTolerance=%v,HPAScaleToZero=%v,PodLevelResources=%v", g[profile.HPAConfigurableTolerance], g[profile.HPAScaleToZero], g[profile.PodLevelResources])
}

func setGates(t *testing.T, g map[profile.Gate]bool) {
	featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, featuregatetesting.FeatureOverrides{
		features.HPAConfigurableTolerance: g[profile.HPAConfigurableTolerance],
		features.HPAScaleToZero:           g[profile.HPAScaleToZero],
		features.PodLevelResources:        g[profile.PodLevelResources],
	})
}

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
		t.Run(k, func(t *testing.T) {
			setGates(t, cases[0].Settings.Profile.Gates)
			ch := make(chan *Case)
			var wg sync.WaitGroup
			for w := 0; w < 8; w++ {
				wg.Go(func() {
					for c := range ch {
						diffs, report, outs, err := checkReconcile(c)
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
							key := diffs[0].Field
							bad[key] = append(bad[key], c.Seed)
							if len(bad[key]) <= 2 {
								failures = append(failures, report)
							}
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
	setGates(t, c.Settings.Profile.Gates)
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
