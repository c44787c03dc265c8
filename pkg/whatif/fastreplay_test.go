// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/tune"
)

// fastCase is one random replay: a recording, the live snapshot, the
// controller's settings, the options and the HPAs replayed over it.
type fastCase struct {
	rec  *recording.Recording
	snap *engine.Snapshot
	set  engine.Settings
	opts BacktestOptions
	hpas []*autoscalingv2.HorizontalPodAutoscaler
}

// randomFastCase draws a recording whose pods start, turn unready, go
// Pending, Failed or terminating, are deleted, lack samples here and
// there, with a replica count that follows them or not (changes by hand
// among them), and HPAs on cpu and memory, Utilization and AverageValue,
// with every shape of behavior, under a random controller version and
// settings.
func randomFastCase(seed uint64) fastCase {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	step := []time.Duration{15 * time.Second, 15 * time.Second, 5 * time.Second, 30 * time.Second}[rng.IntN(4)]
	n := 30 + rng.IntN(130)
	start := bt0
	rec := &recording.Recording{
		Namespace: "shop", Workload: "Deployment/web", Start: start, Step: step, Len: n,
		SampleWindow: []time.Duration{0, 10 * time.Second, 15 * time.Second, 30 * time.Second, time.Minute}[rng.IntN(5)],
		SampleLag:    time.Duration(rng.IntN(11)) * time.Second,
		Replicas:     recording.ReplicaHistory{Source: recording.SourceKubeStateMetrics},
	}
	cpu := recording.Metric{Kind: recording.KindResource, Name: "cpu", PerPod: map[string]map[string]*recording.Series{}}
	mem := recording.Metric{Kind: recording.KindResource, Name: "memory", PerPod: map[string]map[string]*recording.Series{}}
	ctrs := []string{"app"}
	if rng.IntN(3) == 0 {
		ctrs = append(ctrs, "side")
	}
	end := rec.Instant(n)
	span := end.Sub(start)
	pods := 1 + rng.IntN(7)
	base := 0.05 + rng.Float64()*0.6
	for i := range pods {
		name := fmt.Sprintf("web-%d", i)
		created := start.Add(-time.Hour)
		if rng.IntN(3) == 0 {
			created = start.Add(time.Duration(rng.Int64N(int64(span))) - 2*time.Minute)
		}
		p := recording.Pod{Name: name, Labels: map[string]string{"app": "web"}, Created: created}
		if rng.IntN(4) == 0 {
			s := created.Add(time.Duration(rng.IntN(20)) * time.Second)
			p.Started = &s
		}
		var deleted *time.Time
		if rng.IntN(4) == 0 {
			d := created.Add(time.Duration(rng.Int64N(int64(end.Sub(created))+1)) + time.Second)
			deleted = &d
			p.Deleted = deleted
			if rng.IntN(2) == 0 {
				tm := d.Add(-time.Duration(rng.IntN(40)) * time.Second)
				p.Terminating = &tm
			}
		}
		readyAt := created.Add(time.Duration(rng.IntN(90)) * time.Second)
		if rng.IntN(8) != 0 {
			p.Ready = append(p.Ready, recording.ReadyChange{At: readyAt, Ready: true})
		}
		if rng.IntN(4) == 0 {
			off := readyAt.Add(time.Duration(rng.Int64N(int64(span)) + 1))
			p.Ready = append(p.Ready, recording.ReadyChange{At: off, Ready: false})
			if rng.IntN(2) == 0 {
				p.Ready = append(p.Ready, recording.ReadyChange{At: off.Add(time.Duration(rng.IntN(300)+1) * time.Second), Ready: true})
			}
		}
		if rng.IntN(5) == 0 {
			p.Phases = append(p.Phases, recording.PhaseChange{At: created, Phase: recording.PhasePending}, recording.PhaseChange{At: readyAt, Phase: recording.PhaseRunning})
			if rng.IntN(4) == 0 {
				p.Phases = append(p.Phases, recording.PhaseChange{At: readyAt.Add(time.Duration(rng.Int64N(int64(span)) + 1)), Phase: []string{"Failed", "Succeeded"}[rng.IntN(2)]})
			}
		}
		for c, ctr := range ctrs {
			req := map[string]int64{"cpu": int64(100 + 100*rng.IntN(10))}
			if rng.IntN(10) != 0 {
				req["memory"] = int64(64+rng.IntN(512)) << 20
			}
			if c > 0 && rng.IntN(10) == 0 {
				delete(req, "cpu")
			}
			p.Containers = append(p.Containers, recording.Container{Name: ctr, Requests: req})
		}
		if rng.IntN(25) == 0 {
			p.Containers = p.Containers[:1] // a pod unlike the others
		}
		rec.Pods = append(rec.Pods, p)
		firstSample := created.Add(time.Duration(rng.IntN(60)) * time.Second)
		gap := rng.IntN(4) == 0
		phase := rng.Float64() * 6
		for _, ctr := range ctrs {
			cs, ms := &recording.Series{}, &recording.Series{}
			for k := range n {
				t := rec.Instant(k)
				if t.Before(firstSample) || deleted != nil && !t.Before(*deleted) {
					continue
				}
				if gap && rng.IntN(6) == 0 {
					continue
				}
				x := float64(k) / float64(n)
				v := base * (1 + 0.8*math.Sin(6*x+phase)) * (0.5 + rng.Float64())
				if rng.IntN(20) == 0 {
					v *= 4 // a burst
				}
				cs.Set(k, max(v, 0))
				ms.Set(k, float64(int64(100+rng.IntN(400))<<20))
			}
			if cpu.PerPod[name] == nil {
				cpu.PerPod[name], mem.PerPod[name] = map[string]*recording.Series{}, map[string]*recording.Series{}
			}
			cpu.PerPod[name][ctr] = cs
			if rng.IntN(12) != 0 {
				mem.PerPod[name][ctr] = ms
			}
		}
	}
	rec.Metrics = []recording.Metric{cpu}
	if rng.IntN(4) != 0 {
		rec.Metrics = append(rec.Metrics, mem)
	}
	// The real count: the pods that exist, or drawn apart from them.
	if rng.IntN(6) != 0 {
		count := int32(len(rec.PodsAt(0)))
		rec.Replicas.Changes = append(rec.Replicas.Changes, recording.ReplicaChange{At: start.Add(-2 * time.Hour), Replicas: max(count, 1)})
		for range rng.IntN(6) {
			at := start.Add(time.Duration(rng.Int64N(int64(span))))
			rc := recording.ReplicaChange{At: at, Replicas: int32(1 + rng.IntN(pods+2)), External: rng.IntN(3) == 0}
			rec.Replicas.Changes = append(rec.Replicas.Changes, rc)
		}
		sort.SliceStable(rec.Replicas.Changes, func(a, b int) bool { return rec.Replicas.Changes[a].At.Before(rec.Replicas.Changes[b].At) })
	} else {
		rec.Replicas.Source = recording.SourceNone
	}

	snap := btSnapshot(nil)
	set := engine.DefaultSettings()
	vs := profile.Supported()
	set.Profile = profile.Default(vs[rng.IntN(len(vs))])
	set.Tolerance = []float64{0.1, 0.1, 0.05, 0, 0.2}[rng.IntN(5)]
	set.CPUInitializationPeriod = []time.Duration{5 * time.Minute, 0, time.Minute, 30 * time.Second}[rng.IntN(4)]
	set.InitialReadinessDelay = []time.Duration{30 * time.Second, 0, 2 * time.Minute}[rng.IntN(3)]
	set.DownscaleStabilization = []time.Duration{5 * time.Minute, 0, time.Minute, 15 * time.Second}[rng.IntN(4)]
	opts := BacktestOptions{
		Start:     start.Add(time.Duration(rng.IntN(n/2)) * step),
		LoadModel: []string{explain.LoadConstantTotal, explain.LoadConstantPerPod}[rng.IntN(2)],
	}
	switch rng.IntN(3) {
	case 0:
		opts.PodStartup = time.Duration(1+rng.IntN(90)) * time.Second
		opts.SampleDelay = time.Duration(1+rng.IntN(90)) * time.Second
	case 1:
		// On the syncs: the boundaries of readiness and samples meet them.
		opts.PodStartup = time.Duration(1+rng.IntN(4)) * step
		opts.SampleDelay = time.Duration(1+rng.IntN(4)) * step
	}
	if rng.IntN(3) == 0 {
		opts.Bounds = []Bound{{Metric: 0, Utilization: 0.3 + rng.Float64()}}
	}
	c := fastCase{rec: rec, snap: snap, set: set, opts: opts}
	for range 3 {
		c.hpas = append(c.hpas, randomHPA(rng, snap.HPA))
	}
	return c
}

// randomHPA is hpa with random metrics, bounds and behavior.
func randomHPA(rng *rand.Rand, hpa *autoscalingv2.HorizontalPodAutoscaler) *autoscalingv2.HorizontalPodAutoscaler {
	h := hpa.DeepCopy()
	h.Spec.Metrics = nil
	for range 1 + rng.IntN(2) {
		res := []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceCPU, corev1.ResourceMemory}[rng.IntN(3)]
		var t autoscalingv2.MetricTarget
		if rng.IntN(3) == 0 {
			v := resource.MustParse(strconv.Itoa(50+rng.IntN(600)) + "m")
			if res == corev1.ResourceMemory {
				v = *resource.NewQuantity(int64(100+rng.IntN(400))<<20, resource.BinarySI)
			}
			t = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: &v}
		} else {
			t = autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr(int32(10 + rng.IntN(140)))}
		}
		h.Spec.Metrics = append(h.Spec.Metrics, autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{Name: res, Target: t}})
	}
	h.Spec.MinReplicas = ptr(int32(1 + rng.IntN(3)))
	h.Spec.MaxReplicas = *h.Spec.MinReplicas + int32(rng.IntN(12))
	h.Spec.Behavior = nil
	if rng.IntN(4) != 0 {
		b := &autoscalingv2.HorizontalPodAutoscalerBehavior{}
		rules := func() *autoscalingv2.HPAScalingRules {
			if rng.IntN(5) == 0 {
				return nil
			}
			r := &autoscalingv2.HPAScalingRules{}
			if rng.IntN(3) != 0 {
				r.StabilizationWindowSeconds = ptr(int32([]int{0, 15, 30, 60, 120, 300}[rng.IntN(6)]))
			}
			if rng.IntN(3) == 0 {
				r.SelectPolicy = ptr([]autoscalingv2.ScalingPolicySelect{autoscalingv2.MaxChangePolicySelect, autoscalingv2.MinChangePolicySelect, autoscalingv2.DisabledPolicySelect}[rng.IntN(3)])
			}
			for range rng.IntN(3) {
				pt := []autoscalingv2.HPAScalingPolicyType{autoscalingv2.PodsScalingPolicy, autoscalingv2.PercentScalingPolicy}[rng.IntN(2)]
				r.Policies = append(r.Policies, autoscalingv2.HPAScalingPolicy{Type: pt, Value: int32(1 + rng.IntN(150)), PeriodSeconds: int32([]int{15, 30, 60, 120}[rng.IntN(4)])})
			}
			if rng.IntN(6) == 0 {
				q := resource.MustParse([]string{"0.05", "0.2", "0.01"}[rng.IntN(3)])
				r.Tolerance = &q
			}
			return r
		}
		b.ScaleUp, b.ScaleDown = rules(), rules()
		h.Spec.Behavior = b
		if rng.IntN(2) == 0 {
			engine.DefaultHPA(h)
		}
	}
	return h
}

// checkFastCase replays every HPA of c with the fast path off and on
// (checking each fast replay against the reference sync by sync), and
// compares the two documents; it returns how many replays the fast path
// served.
func checkFastCase(t *testing.T, seed uint64, c fastCase) (served int) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("seed %d: %v", seed, r)
		}
	}()
	for _, h := range c.hpas {
		replay := func(fast bool) ([]byte, error) {
			old := fastReplay
			fastReplay = fast
			defer func() { fastReplay = old }()
			r, err := NewReplayer(c.snap, c.rec, c.set, c.opts)
			if err != nil {
				return nil, err
			}
			out, err := r.ReplayFigures(h)
			if err != nil {
				return nil, err
			}
			return json.Marshal(out)
		}
		want, errRef := replay(false)
		before := fastServed.Load()
		got, errFast := replay(true)
		if fastServed.Load() > before {
			served++
		}
		if (errRef == nil) != (errFast == nil) {
			t.Fatalf("seed %d: reference error %v, fast error %v", seed, errRef, errFast)
		}
		if !bytes.Equal(want, got) {
			t.Fatalf("seed %d: the fast replay's document differs:\nref  %s\nfast %s", seed, want, got)
		}
		// As tune runs it: the outcomes streamed into the figures, not
		// listed and checked against the reference's.
		checkFastReplay = false
		streamed, errStreamed := replay(true)
		checkFastReplay = true
		if (errRef == nil) != (errStreamed == nil) || !bytes.Equal(want, streamed) {
			t.Fatalf("seed %d: the streamed fast replay's document differs (%v):\nref      %s\nstreamed %s", seed, errStreamed, want, streamed)
		}
	}
	// The backtest of the HPA as it is, without steps (tune's): the
	// actual curve's syncs where the as-is replay ran other pods than the
	// real ones are replayed on the fast path too (each checked against
	// the reference in step, checkFastReplay), and the backtest is the
	// same byte for byte.
	backtest := func(fast bool) ([]byte, error) {
		old := fastReplay
		fastReplay = fast
		defer func() { fastReplay = old }()
		opts := c.opts
		opts.NoSteps = true
		res, err := Backtest(c.snap, c.rec, c.set, opts)
		if err != nil {
			return nil, err
		}
		return json.Marshal(res.Backtest)
	}
	want, errRef := backtest(false)
	got, errFast := backtest(true)
	if (errRef == nil) != (errFast == nil) {
		t.Fatalf("seed %d: backtest: reference error %v, fast error %v", seed, errRef, errFast)
	}
	if !bytes.Equal(want, got) {
		t.Fatalf("seed %d: the backtest differs on the fast path:\nref  %s\nfast %s", seed, want, got)
	}
	return served
}

// TestFastReplayRandom: over random recordings (a fixed range of seeds),
// the fast replay decides every sync as the reference does, and the
// replay's document is the same byte for byte. FAST_REPLAY_SEEDS=n runs
// n seeds instead (the long run).
func TestFastReplayRandom(t *testing.T) {
	seeds := 100
	if s := os.Getenv("FAST_REPLAY_SEEDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		seeds = n
	} else if testing.Short() {
		seeds = 100
	}
	served, total := 0, 0
	actual, elders, restarts := actualFastServed.Load(), fastElderSyncs.Load(), fastRestarts.Load()
	for seed := range uint64(seeds) {
		c := randomFastCase(seed)
		served += checkFastCase(t, seed, c)
		total += len(c.hpas)
	}
	actual, elders, restarts = actualFastServed.Load()-actual, fastElderSyncs.Load()-elders, fastRestarts.Load()-restarts
	t.Logf("%d of %d random replays served by the fast path, the others by the reference; %d of %d backtests' actual curves; %d fast syncs with a pod standing in for the replay's own (elders); %d streamed replays handed to the reference after a miss (TestStreamedReplayRestarts has some)",
		served, total, actual, seeds, elders, restarts)

	if elders == 0 {
		t.Errorf("no fast sync had a real pod standing in for the replay's own pod: the random recordings should have some (a replay that scales up before the workload)")
	}
	if served*2 < total {
		t.Errorf("the fast path served %d of %d random replays; the recordings should mostly be ones it models", served, total)
	}
	if actual*4 < int64(seeds) {
		t.Errorf("the fast path replayed the actual curve of %d of %d backtests; the as-is replays should often run other pods than the real ones", actual, seeds)
	}
}

// TestFastReplayFallsBack lists the cases the fast path leaves to the
// reference replay, each met by a replay that then gives what the
// reference gives.
func TestFastReplayFallsBack(t *testing.T) {
	base := randomFastCase(7)
	base.hpas = base.hpas[:1]
	h0 := base.hpas[0]
	h0.Spec.Metrics = []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
		Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr(int32(50))},
	}}}
	cases := []struct {
		miss fastMiss
		edit func(c *fastCase)
	}{
		{missMetricType, func(c *fastCase) {
			c.hpas[0].Spec.Metrics = append(c.hpas[0].Spec.Metrics, autoscalingv2.MetricSpec{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricSource{
				Metric: autoscalingv2.MetricIdentifier{Name: "rps"}, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse("10"))},
			}})
		}},
		{missMetricType, func(c *fastCase) {
			c.hpas[0].Spec.Metrics[0] = autoscalingv2.MetricSpec{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricSource{
				Name: corev1.ResourceCPU, Container: "app", Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr(int32(50))},
			}}
		}},
		{missTarget, func(c *fastCase) { c.hpas[0].Spec.Metrics[0].Resource.Target.AverageUtilization = nil }},
		{missNoMetrics, func(c *fastCase) { c.hpas[0].Spec.Metrics = nil }},
		{missUnmeasured, func(c *fastCase) { c.hpas[0].Spec.Metrics[0].Resource.Name = corev1.ResourceEphemeralStorage }},
		{missSelector, func(c *fastCase) { c.snap.Target.Selector = "app=other" }},
		{missOtherHPAs, func(c *fastCase) {
			c.snap.OtherHPAs = []engine.HPASelector{{Namespace: "shop", Name: "web2", Selector: "app=web"}}
		}},
		{missTargetRef, func(c *fastCase) { c.snap.Target.GetError = "forbidden" }},
		{missScaleError, func(c *fastCase) { c.snap.Target.UpdateError = "conflict" }},
		{missContainers, func(c *fastCase) {
			c.rec.Pods[0].Containers = append(c.rec.Pods[0].Containers, recording.Container{Name: "extra"})
		}},
		{missRequests, func(c *fastCase) { delete(c.rec.Pods[0].Containers[0].Requests, "cpu") }},
		{missPodNames, func(c *fastCase) { c.rec.Pods = append(c.rec.Pods, c.rec.Pods[0]) }},
		{missZeroReplicas, func(c *fastCase) {
			c.rec.Replicas.Changes = []recording.ReplicaChange{{At: bt0.Add(-time.Hour), Replicas: 0}}
		}},
	}
	var missing []string
	for _, tc := range cases {
		c := randomFastCase(7)
		c.hpas = []*autoscalingv2.HorizontalPodAutoscaler{h0.DeepCopy()}
		tc.edit(&c)
		before := fastFellBack.Load()
		if served := checkFastCase(t, 7, c); served != 0 {
			missing = append(missing, string(tc.miss))
			continue
		}
		if fastFellBack.Load() == before {
			t.Errorf("%s: the replay neither took the fast path nor fell back", tc.miss)
		}
	}
	if len(missing) > 0 {
		t.Errorf("the fast path served replays it should leave to the reference: %s", strings.Join(missing, "; "))
	}
	// Other HPAs of the namespace that select none of the replay's pods
	// (each its own workload's) leave the replay to the fast path, which
	// gives what the reference gives (checkFastCase compares them).
	c := randomFastCase(7)
	c.hpas = []*autoscalingv2.HorizontalPodAutoscaler{h0.DeepCopy()}
	c.snap.OtherHPAs = []engine.HPASelector{
		{Namespace: c.snap.HPA.Namespace, Name: "api", Selector: "app=api"},
		{Namespace: "elsewhere", Name: "web", Selector: c.snap.Target.Selector},
		{Namespace: c.snap.HPA.Namespace, Name: "never-synced", Selector: ""},
	}
	if served := checkFastCase(t, 7, c); served != 1 {
		t.Errorf("other HPAs selecting none of the pods: %d of 1 replays served by the fast path", served)
	}
}

// tuneDocument runs a search as action.Tune does (the as-is backtest,
// the candidates replayed by a Replayer, the finalists again under each
// variant of the recording) and returns its result with every
// candidate's replay, as JSON.
func tuneDocument(t *testing.T, snap *engine.Snapshot, rec *recording.Recording, set engine.Settings, opts BacktestOptions) []byte {
	t.Helper()
	ref, err := Backtest(snap, rec, set, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Censoring = ref.Censoring
	unit := CostUnit(&ref.Backtest.AsIs.Summary)
	refFig := TuneFigures(&ref.Backtest.AsIs.Summary, &ref.AsIsFigures, unit)
	cur, err := tune.FromHPA(snap.HPA, set.DownscaleStabilization)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := tune.NewSpace(cur, tune.SpaceOptions{
		Metrics: []tune.MetricInfo{{Name: "cpu", Type: autoscalingv2.UtilizationMetricType}}, MaxReplicas: snap.HPA.Spec.MaxReplicas,
	})
	if err != nil {
		t.Fatal(err)
	}
	replayer, err := NewReplayer(snap, rec, set, opts)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var paths []*Replayed
	eval := func(_ context.Context, s tune.Setting) (tune.Figures, error) {
		h, err := s.Apply(snap.HPA)
		if err != nil {
			return tune.Figures{}, err
		}
		r, err := replayer.ReplayFigures(h)
		if err != nil {
			return tune.Figures{}, err
		}
		f := TuneFigures(&r.Path.Summary, &r.Figures, unit)
		mu.Lock()
		defer mu.Unlock()
		paths = append(paths, r)
		return tune.Figures{Cost: f.Cost, Risk: f.Risk, Rescales: f.Rescales, Ref: len(paths) - 1}, nil
	}
	res, err := tune.Search(context.Background(), sp, eval, tune.Options{Budget: 24, Reference: tune.Figures{Cost: refFig.Cost, Risk: refFig.Risk}})
	if err != nil {
		t.Fatal(err)
	}
	variants := rec.Variants()
	variant := func(v int) (tune.Evaluator, func(), error) {
		r, err := replayer.Variant(variants[v-1].Scrapes)
		if err != nil {
			return nil, nil, err
		}
		return func(_ context.Context, s tune.Setting) (tune.Figures, error) {
			h, err := s.Apply(snap.HPA)
			if err != nil {
				return tune.Figures{}, err
			}
			rp, err := r.ReplayFigures(h)
			if err != nil {
				return tune.Figures{}, err
			}
			return tune.Figures{Cost: rp.Figures.Cost(unit), Risk: rp.Figures.Risk(), Rescales: rp.Figures.Rescales}, nil
		}, nil, nil
	}
	if err := tune.Robust(context.Background(), res, tune.RobustOptions{Variants: len(variants), Variant: variant}); err != nil {
		t.Fatal(err)
	}
	// The replays in candidate order (the search runs them at once).
	doc := struct {
		Result *tune.Result
		Paths  []*Replayed
	}{Result: res}
	for i := range res.Candidates {
		if c := &res.Candidates[i]; c.Err == "" {
			doc.Paths = append(doc.Paths, paths[c.Figures.Ref])
			c.Figures.Ref = 0
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFastReplayTuneDocument: a tune's search, its finalists replayed
// under the variants of a recording of raw counters, and every
// candidate's replay are the same with the fast path off and on.
func TestFastReplayTuneDocument(t *testing.T) {
	w := newWorld(bt0, 15*time.Second, 160)
	wave := func(phase float64) func(time.Time) float64 {
		return func(at time.Time) float64 { return 0.25 + 0.2*math.Sin(at.Sub(bt0).Minutes()/7+phase) }
	}
	for i := range 4 {
		w.rawPod(fmt.Sprintf("web-%d", i), bt0.Add(-time.Hour), nil, wave(float64(i)))
	}
	late := bt0.Add(20 * time.Minute)
	w.rawPod("web-late", late, nil, wave(1))
	w.replicas(bt0.Add(-2*time.Hour), 4)
	w.replicas(late, 5)
	w.rec.Resample(recording.Scrapes{Anchor: bt0.Add(1300 * time.Millisecond), Window: 15 * time.Second})
	if len(w.rec.Variants()) == 0 {
		t.Fatal("the recording has no variants")
	}
	snap := btSnapshot(&autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr(int32(120))}})
	set := engine.DefaultSettings()
	opts := BacktestOptions{Start: bt0.Add(10 * time.Minute)}
	doc := func(fast bool) []byte {
		old := fastReplay
		fastReplay = fast
		defer func() { fastReplay = old }()
		return tuneDocument(t, snap, w.rec, set, opts)
	}
	before := fastServed.Load()
	want, got := doc(false), doc(true)
	if fastServed.Load() == before {
		t.Fatal("the fast path served none of the search's replays")
	}
	if !bytes.Equal(want, got) {
		t.Errorf("the tune's document differs with the fast path:\nref  %s\nfast %s", want, got)
	}
}

// TestLaySpans: the fast path's shared part laid out in spans at once is
// the one a single pass lays out, array for array (the frames, their
// orders and bounds, the counts, and each resource's exact accounting),
// over random recordings cut into 2, 3 and 7 spans.
func TestLaySpans(t *testing.T) {
	oldMin, oldParts := recording.MinSpan, recording.SpanParts
	defer func() { recording.MinSpan, recording.SpanParts = oldMin, oldParts }()
	build := func(c fastCase, parts int) *fastShared {
		t.Helper()
		recording.MinSpan, recording.SpanParts = 1, parts
		r, err := NewReplayer(c.snap, c.rec, c.set, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		p, err := newReplayRun("changed", c.snap, c.hpas[0], c.rec, c.set, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		sh := r.fastShared(p)
		if sh.miss == "" {
			for ri := range sh.exact {
				sh.exactOf(ri)
			}
		}
		return sh
	}
	laid, cut := 0, 0
	for seed := range uint64(40) {
		c := randomFastCase(seed)
		one := build(c, 1)
		if one.miss != "" {
			continue
		}
		laid++
		for _, parts := range []int{2, 3, 7} {
			sh := build(c, parts)
			if len(recording.Spans(c.rec.Len)) == parts {
				cut++
			}
			for _, f := range []struct {
				name      string
				want, got any
			}{
				{"frames", one.frames, sh.frames},
				{"sorted", one.sorted, sh.sorted},
				{"fstart", one.fstart, sh.fstart},
				{"fend", one.fend, sh.fend},
				{"actual", one.actual, sh.actual},
				{"known", one.known, sh.known},
				{"readyShare", one.readyShare, sh.readyShare},
				{"instant", one.instant, sh.instant},
				{"sampleEnd", one.sampleEnd, sh.sampleEnd},
				{"sampleTs", one.sampleTs, sh.sampleTs},
				{"ext", one.ext, sh.ext},
				{"readyNow", one.readyNow, sh.readyNow},
				{"exact", one.exact, sh.exact},
				{"missReq", one.missReq, sh.missReq},
			} {
				if !reflect.DeepEqual(f.want, f.got) {
					t.Fatalf("seed %d, %d spans: %s differ from one pass's", seed, parts, f.name)
				}
			}
		}
	}
	if laid < 20 || cut < 3*laid {
		t.Errorf("%d recordings laid out, %d of them cut as asked: too few to compare", laid, cut/3)
	}
}

// TestStreamedReplayRestarts: a streamed fast replay (replayEach, as tune
// runs its candidates) that misses a sync after it has handed out
// outcomes (here the workload scaled to zero by hand three quarters in)
// starts its figures again from the reference replay's outcomes: the
// document is the reference's, byte for byte (checkFastCase).
func TestStreamedReplayRestarts(t *testing.T) {
	restarts := fastRestarts.Load()
	for seed := range uint64(20) {
		c := randomFastCase(seed)
		at := c.rec.Instant(c.rec.Len * 3 / 4)
		c.rec.Replicas.Changes = append(slices.DeleteFunc(c.rec.Replicas.Changes, func(ch recording.ReplicaChange) bool { return !ch.At.Before(at) }),
			recording.ReplicaChange{At: at, Replicas: 0, External: true})
		checkFastCase(t, seed, c)
	}
	if fastRestarts.Load() == restarts {
		t.Fatal("no streamed fast replay missed a sync after handing out outcomes")
	}
}
