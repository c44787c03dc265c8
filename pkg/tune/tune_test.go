// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package tune

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func ptr[T any](v T) *T { return &v }

func cpuHPA(target int32, b *autoscalingv2.HorizontalPodAutoscalerBehavior) *autoscalingv2.HorizontalPodAutoscaler {
	h := &autoscalingv2.HorizontalPodAutoscaler{}
	h.Name, h.Namespace = "web", "shop"
	h.Spec.MaxReplicas = 10
	h.Spec.Metrics = []autoscalingv2.MetricSpec{{
		Type: autoscalingv2.ResourceMetricSourceType,
		Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{
			Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &target,
		}},
	}}
	h.Spec.Behavior = b
	return h
}

func TestFromHPADefaults(t *testing.T) {
	s, err := FromHPA(cpuHPA(50, nil), 300*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if s.MinReplicas != 1 || s.UpWindow != 0 || s.DownWindow != 300 || s.Targets[0] != 50 {
		t.Errorf("setting %+v", s)
	}
	if s.Up.String() != "4/15s+100%/15s" || s.Down.String() != "100%/15s" {
		t.Errorf("policies %s / %s", s.Up, s.Down)
	}
	if s.UpTolerance != NoTolerance || s.DownTolerance != NoTolerance {
		t.Errorf("tolerances %d %d", s.UpTolerance, s.DownTolerance)
	}
}

func TestApplyRoundTrip(t *testing.T) {
	sel := autoscalingv2.MinChangePolicySelect
	h := cpuHPA(60, &autoscalingv2.HorizontalPodAutoscalerBehavior{
		ScaleDown: &autoscalingv2.HPAScalingRules{
			StabilizationWindowSeconds: ptr[int32](120),
			SelectPolicy:               &sel,
			Policies:                   []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 1, PeriodSeconds: 60}, {Type: autoscalingv2.PercentScalingPolicy, Value: 10, PeriodSeconds: 60}},
			Tolerance:                  resource.NewMilliQuantity(50, resource.DecimalSI),
		},
	})
	h.Spec.MinReplicas = ptr[int32](2)
	s, err := FromHPA(h, 300*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if s.Down.String() != "1/60s+10%/60s:min" || s.DownWindow != 120 || s.DownTolerance != 50 || s.MinReplicas != 2 {
		t.Fatalf("setting %+v (down %s)", s, s.Down)
	}
	out, err := s.Apply(h)
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromHPA(out, time.Hour) // every field is explicit now: the default window is not used
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(back) != fmt.Sprint(s) {
		t.Errorf("round trip\n got %+v\nwant %+v", back, s)
	}
	if h.Spec.Behavior.ScaleUp != nil {
		t.Error("Apply changed its input")
	}
}

func TestParsePolicy(t *testing.T) {
	for _, c := range []struct{ in, out, err string }{
		{in: "4/15s+100%/15s", out: "4/15s+100%/15s"},
		{in: "1/1m", out: "1/60s"},
		{in: "10%/60s:min", out: "10%/60s:min"},
		{in: "2/15s:max", out: "2/15s"},
		{in: "disabled", out: "disabled"},
		{in: "", err: "no rule"},
		{in: "4", err: "want N/PERIOD"},
		{in: "0/15s", err: "positive whole number"},
		{in: "4/1.5s", err: "whole seconds"},
		{in: "4/31m", err: "whole seconds"},
	} {
		p, err := ParsePolicy(c.in)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
		case err != nil:
			t.Errorf("%q: %v", c.in, err)
		case p.String() != c.out:
			t.Errorf("%q: %s, want %s", c.in, p, c.out)
		}
	}
	a, _ := ParsePolicy("100%/15s+4/15s")
	b, _ := ParsePolicy("4/15s+100%/15s")
	if !a.Equal(b) || a.speed() != b.speed() {
		t.Error("the same rules in another order differ")
	}
	slow, _ := ParsePolicy("1/60s")
	if !(slow.speed() < a.speed()) {
		t.Errorf("speed(1/60s) = %v, speed(default) = %v", slow.speed(), a.speed())
	}
}

func cpuSpace(t *testing.T, o SpaceOptions) *Space {
	t.Helper()
	cur, err := FromHPA(cpuHPA(50, nil), 300*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	o.Metrics = []MetricInfo{{Name: "cpu", Type: autoscalingv2.UtilizationMetricType}}
	sp, err := NewSpace(cur, o)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func TestNewSpace(t *testing.T) {
	sp := cpuSpace(t, SpaceOptions{})
	var names []string
	for _, a := range sp.Axes {
		names = append(names, a.Name)
		if a.Fine[a.Current].Label == "" || !slices.Contains(a.Coarse, a.Current) {
			t.Errorf("%s: current %d not in coarse %v", a.Name, a.Current, a.Coarse)
		}
		for i := 1; i < len(a.Fine); i++ {
			if a.Fine[i].order < a.Fine[i-1].order || a.Fine[i].Label == a.Fine[i-1].Label {
				t.Errorf("%s: values out of order or repeated: %s, %s", a.Name, a.Fine[i-1].Label, a.Fine[i].Label)
			}
		}
	}
	if want := "target of cpu,up-window,down-window,up-policy,down-policy"; strings.Join(names, ",") != want {
		t.Errorf("axes %s, want %s (no tolerance without the gate, no min-replicas unless asked)", strings.Join(names, ","), want)
	}
	tgt := sp.Axes[0]
	if tgt.Fine[0].Label != "20%" || tgt.Fine[len(tgt.Fine)-1].Label != "90%" {
		t.Errorf("target grid %s..%s", tgt.Fine[0].Label, tgt.Fine[len(tgt.Fine)-1].Label)
	}
	if s := sp.Setting(sp.CurrentIndex()); fmt.Sprint(s) != fmt.Sprint(sp.Base) {
		t.Errorf("the current index gives %+v, not the base %+v", s, sp.Base)
	}

	tol := cpuSpace(t, SpaceOptions{Tolerance: true, Vary: []Dimension{DimUpTolerance, DimDownTolerance, DimMinReplicas}, MaxReplicas: 10})
	if len(tol.Axes) != 3 || tol.Axes[0].Fine[tol.Axes[0].Current].Label != "default" {
		t.Errorf("tolerance and min axes: %+v", tol.Axes)
	}

	set := cpuSpace(t, SpaceOptions{Vary: []Dimension{DimTarget}, Set: map[string][]string{"down-window": {"30s", "2m"}, "target": {"65%", "80"}}})
	if len(set.Axes) != 2 {
		t.Fatalf("axes %d, want target and down-window", len(set.Axes))
	}
	var labels []string
	for _, v := range set.Axes[0].Fine {
		labels = append(labels, v.Label)
	}
	if strings.Join(labels, " ") != "50% 65% 80%" || len(set.Axes[0].Coarse) != 3 {
		t.Errorf("given targets %v (coarse %v)", labels, set.Axes[0].Coarse)
	}
	labels = nil
	for _, v := range set.Axes[1].Fine {
		labels = append(labels, v.Label)
	}
	if strings.Join(labels, " ") != "30s 2m0s 5m0s" {
		t.Errorf("given windows %v", labels)
	}

	cur, _ := FromHPA(cpuHPA(50, nil), 300*time.Second)
	for _, c := range []struct {
		o   SpaceOptions
		err string
	}{
		{SpaceOptions{Vary: []Dimension{"speed"}}, `unknown dimension "speed"`},
		{SpaceOptions{Set: map[string][]string{"target": {"-5%"}}}, "positive percent"},
		{SpaceOptions{Set: map[string][]string{"target:3": {"50%"}}}, "from 0 to 0"},
		{SpaceOptions{Set: map[string][]string{"down-window:0": {"50s"}}}, "only target takes"},
		{SpaceOptions{Set: map[string][]string{"down-window": {"1.5s"}}}, "whole seconds"},
		{SpaceOptions{Set: map[string][]string{"up-policy": {"4"}}}, "want N/PERIOD"},
		{SpaceOptions{Set: map[string][]string{"up-tolerance": {"0.05"}}}, "does not honour"},
		{SpaceOptions{Set: map[string][]string{"min-replicas": {"11"}}, MaxReplicas: 10}, "from 1 to maxReplicas"},
	} {
		c.o.Metrics = []MetricInfo{{Name: "cpu", Type: autoscalingv2.UtilizationMetricType}}
		c.o.SetName, c.o.VaryName = "--set", "--vary"
		if _, err := NewSpace(cur, c.o); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%+v: error %v, want %q", c.o, err, c.err)
		}
	}
}

func TestValueTargetAxis(t *testing.T) {
	h := cpuHPA(50, nil)
	h.Spec.Metrics = []autoscalingv2.MetricSpec{{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
		Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: resource.NewQuantity(30, resource.DecimalSI)},
	}}}
	cur, err := FromHPA(h, 300*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewSpace(cur, SpaceOptions{Metrics: []MetricInfo{{Name: "queue", Type: autoscalingv2.AverageValueMetricType}}, Vary: []Dimension{DimTarget}})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, v := range sp.Axes[0].Fine {
		labels = append(labels, v.Label)
	}
	if want := "15 18 21 24 27 30 33 37500m 45 52500m 60"; strings.Join(labels, " ") != want {
		t.Errorf("value targets %s, want %s", strings.Join(labels, " "), want)
	}
	s := sp.Setting([]int{7})
	out, err := s.Apply(h)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Spec.Metrics[0].External.Target.AverageValue.String(); got != "37500m" {
		t.Errorf("applied %s", got)
	}
}

// model is a synthetic replay: cost falls and risk rises with the target
// and with a shorter scale-down window, with a little noise, so that the
// frontier is not a single line.
func model(calls *atomic.Int64) Evaluator {
	return func(_ context.Context, s Setting) (Figures, error) {
		calls.Add(1)
		tg := float64(s.Targets[0])
		w := float64(s.DownWindow)
		cost := 100/tg*10 + w/60 + s.Up.speed()/10
		risk := math.Max(0, (tg-40)/100) + math.Max(0, (120-w)/2000) - s.Up.speed()/500
		return Figures{Cost: cost, Risk: math.Max(0, risk), Rescales: int(600 / (w + 30))}, nil
	}
}

func TestSearchFrontierAndRecommendation(t *testing.T) {
	sp := cpuSpace(t, SpaceOptions{})
	var calls atomic.Int64
	eval := model(&calls)
	ref, _ := eval(context.Background(), sp.Base)
	calls.Store(0)
	res, err := Search(context.Background(), sp, eval, Options{Budget: 120, Reference: ref, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if int(calls.Load()) != len(res.Candidates) || len(res.Candidates) > 121 {
		t.Errorf("%d replays for %d candidates (budget 120 and the current setting)", calls.Load(), len(res.Candidates))
	}
	// The frontier: exactly the candidates no other dominates (brute force).
	for i := range res.Candidates {
		dominated := false
		for j := range res.Candidates {
			if dominates(&res.Candidates[j].Figures, &res.Candidates[i].Figures) {
				dominated = true
			}
		}
		if res.Candidates[i].Frontier == dominated {
			t.Errorf("candidate %v: frontier %v, dominated %v", res.Candidates[i].Values, res.Candidates[i].Frontier, dominated)
		}
	}
	// The recommendation: within the reference's risk, and no candidate
	// within it is cheaper.
	if res.Recommended < 0 {
		t.Fatal("no recommendation, though the current setting is within its own risk")
	}
	rec := res.Candidates[res.Recommended]
	if rec.Figures.Risk > ref.Risk+riskSlack {
		t.Errorf("recommended risk %v above the reference's %v", rec.Figures.Risk, ref.Risk)
	}
	for _, c := range res.Candidates {
		if c.Figures.Risk <= ref.Risk+riskSlack && c.Figures.Cost < rec.Figures.Cost {
			t.Errorf("%v is cheaper (%v < %v) within the bound", c.Values, c.Figures.Cost, rec.Figures.Cost)
		}
	}
	if !rec.Frontier {
		t.Error("the recommendation is not on the frontier")
	}
	cur := res.Candidates[res.Current]
	if fmt.Sprint(cur.Setting) != fmt.Sprint(sp.Base) || cur.Figures.Cost != ref.Cost {
		t.Errorf("the current setting's candidate %+v", cur)
	}
	if rec.Figures.Cost >= cur.Figures.Cost {
		t.Errorf("the recommendation costs %v, the current setting %v", rec.Figures.Cost, cur.Figures.Cost)
	}
	if len(sp.Changes(&rec)) == 0 {
		t.Error("the recommendation names no change")
	}

	// A looser bound gives a cheaper (or equal) recommendation; a bound
	// nothing meets gives none.
	loose := ref.Risk + 0.2
	res2, err := Search(context.Background(), sp, eval, Options{Budget: 120, Reference: ref, MaxRisk: &loose})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Candidates[res2.Recommended].Figures.Cost > rec.Figures.Cost {
		t.Errorf("--max-risk %v: %v, dearer than %v", loose, res2.Candidates[res2.Recommended].Figures.Cost, rec.Figures.Cost)
	}
	never := -1.0
	res3, err := Search(context.Background(), sp, eval, Options{Budget: 30, Reference: ref, MaxRisk: &never})
	if err != nil || res3.Recommended != -1 {
		t.Errorf("impossible bound: recommended %d, err %v", res3.Recommended, err)
	}
}

// On a space small enough to replay whole, the search with a large budget
// finds the same recommendation as replaying every setting.
func TestSearchMatchesExhaustive(t *testing.T) {
	sp := cpuSpace(t, SpaceOptions{Vary: []Dimension{DimTarget, DimDownWindow}})
	var calls atomic.Int64
	eval := model(&calls)
	ref, _ := eval(context.Background(), sp.Base)
	var all []Candidate
	for i := range sp.Axes[0].Fine {
		for j := range sp.Axes[1].Fine {
			idx := []int{i, j}
			f, _ := eval(context.Background(), sp.Setting(idx))
			all = append(all, Candidate{Index: idx, Figures: f})
		}
	}
	for k := range all {
		for a, i := range all[k].Index {
			all[k].Distance += abs(i - sp.Axes[a].Current)
		}
	}
	want := all[recommend(all, ref.Risk)]
	res, err := Search(context.Background(), sp, eval, Options{Budget: 1000, Reference: ref})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Candidates[res.Recommended]
	if !slices.Equal(got.Index, want.Index) {
		t.Errorf("search recommends %v (cost %v), exhaustive %v (cost %v)", got.Index, got.Figures.Cost, want.Index, want.Figures.Cost)
	}
	if len(res.Candidates) >= len(all) {
		t.Logf("the search replayed %d of %d settings", len(res.Candidates), len(all))
	}
}

func TestSearchCoarseThinning(t *testing.T) {
	sp := cpuSpace(t, SpaceOptions{})
	s := &searcher{sp: sp}
	full := s.coarse(0)
	thin := s.coarse(20)
	if len(thin) > 20 || len(thin) >= len(full) {
		t.Errorf("coarse %d settings, thinned to 20: %d", len(full), len(thin))
	}
	cur := key(sp.CurrentIndex())
	found := false
	for _, idx := range thin {
		if key(idx) == cur {
			found = true
		}
	}
	if !found {
		t.Error("thinning dropped the current setting")
	}
}

func TestSearchErrors(t *testing.T) {
	sp := cpuSpace(t, SpaceOptions{Vary: []Dimension{DimTarget}})
	bad := func(_ context.Context, s Setting) (Figures, error) {
		if s.Targets[0] == 70 {
			return Figures{}, errors.New("invalid candidate")
		}
		return Figures{Cost: 1000 / float64(s.Targets[0]), Risk: float64(s.Targets[0]) / 1000}, nil
	}
	res, err := Search(context.Background(), sp, bad, Options{Budget: 50, Reference: Figures{Risk: 1}})
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, c := range res.Candidates {
		if c.Err != "" {
			failed++
			if c.Frontier {
				t.Error("a failed candidate is on the frontier")
			}
		}
	}
	if failed != 1 || res.Candidates[len(res.Candidates)-1].Err == "" {
		t.Errorf("%d failed candidates (want 1, listed last)", failed)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, sp, bad, Options{Budget: 50}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// Random figures: the frontier and the recommendation rule hold whatever
// the evaluator says.
func TestFrontierProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 1 + r.IntN(30)
		cands := make([]Candidate, n)
		for i := range cands {
			cands[i] = Candidate{Index: []int{i}, Figures: Figures{Cost: float64(r.IntN(10)), Risk: float64(r.IntN(5)) / 10, Rescales: r.IntN(3)}, Distance: r.IntN(4)}
		}
		markFrontier(cands)
		bound := float64(r.IntN(5)) / 10
		rec := recommend(cands, bound)
		front := 0
		for i := range cands {
			if cands[i].Frontier {
				front++
			}
		}
		if front == 0 {
			t.Fatal("empty frontier")
		}
		if rec >= 0 {
			c := cands[rec]
			if c.Figures.Risk > bound+riskSlack {
				t.Fatalf("recommended risk %v above %v", c.Figures.Risk, bound)
			}
			for i := range cands {
				if cands[i].Figures.Risk <= bound+riskSlack && better(&cands[i], &c) {
					t.Fatalf("%+v beats the recommendation %+v", cands[i], c)
				}
			}
			if !c.Frontier {
				t.Fatalf("the recommendation %+v is dominated", c)
			}
		} else {
			for i := range cands {
				if cands[i].Figures.Risk <= bound+riskSlack {
					t.Fatalf("no recommendation, but %+v is within %v", cands[i], bound)
				}
			}
		}
	}
}

func TestPatch(t *testing.T) {
	h := cpuHPA(50, nil)
	cur, _ := FromHPA(h, 300*time.Second)
	s := cur
	s.Targets = []int64{75}
	s.DownWindow = 30
	s.Down, _ = ParsePolicy("2/15s")
	b, err := Patch(h, s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"spec":{"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":75}}}],` +
		`"behavior":{"scaleUp":{"stabilizationWindowSeconds":0,"selectPolicy":"Max","policies":[{"type":"Pods","value":4,"periodSeconds":15},{"type":"Percent","value":100,"periodSeconds":15}]},` +
		`"scaleDown":{"stabilizationWindowSeconds":30,"selectPolicy":"Max","policies":[{"type":"Pods","value":2,"periodSeconds":15}]}}}}`
	if string(b) != want {
		t.Errorf("patch\n got %s\nwant %s", b, want)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	s.MinReplicas = 3
	b, _ = Patch(h, s)
	if !strings.Contains(string(b), `"minReplicas":3`) {
		t.Errorf("a changed minReplicas is not in the patch: %s", b)
	}
}
