// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// queueSnapshot: n pods, an External metric "queue" at value with an
// AverageValue target of 10 per pod, min 1, max 10, and the behavior of the
// e2e projection scenario: scale up by at most 2 pods per 15 s, scale down
// after a 30 s window by at most 3 pods per 15 s. The controller is fresh.
func queueSnapshot(n int, value string) *engine.Snapshot {
	s := cpuSnapshot(n, "100m")
	s.HPA.Spec.Metrics = []autoscalingv2.MetricSpec{{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
		Metric: autoscalingv2.MetricIdentifier{Name: "queue"},
		Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse("10"))},
	}}}
	s.HPA.Spec.MaxReplicas = 10
	s.HPA.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{
		ScaleUp: &autoscalingv2.HPAScalingRules{
			StabilizationWindowSeconds: ptr[int32](0),
			Policies:                   []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 2, PeriodSeconds: 15}},
		},
		ScaleDown: &autoscalingv2.HPAScalingRules{
			StabilizationWindowSeconds: ptr[int32](30),
			Policies:                   []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 3, PeriodSeconds: 15}},
		},
	}
	engine.DefaultHPA(s.HPA)
	s.ExternalMetrics = []externalmetricsv1beta1.ExternalMetricValue{{MetricName: "queue", Value: resource.MustParse(value), Timestamp: metav1.NewTime(t0)}}
	s.State = engine.ControllerState{}
	return s
}

func settings5s() engine.Settings {
	set := engine.DefaultSettings()
	set.SyncPeriod = 5 * time.Second
	return set
}

func rescaleWords(p *explain.Projection) string {
	var out []string
	for _, r := range p.Rescales {
		out = append(out, fmt.Sprintf("%d→%d@%s", r.From, r.To, r.Offset))
	}
	return strings.Join(out, " ")
}

// The sequences below follow from the rules by hand (§10 of the algorithm):
// a Pods policy of 2 per 15 s lets 1 grow to 3 at once; the next step waits
// until that event is a full period old (not "after now-15s"), i.e. 15 s
// later; and so on up to the proposal of 10. Down: the fresh controller's
// seed (10, an instant before the start) leaves the 30 s window at +30 s,
// then 3 pods go per 15 s.
func TestProjectPolicies(t *testing.T) {
	up, err := Project(queueSnapshot(1, "100"), settings5s(), ProjectOptions{Duration: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rescaleWords(up), "1→3@0s 3→5@15s 5→7@30s 7→9@45s 9→10@1m0s"; got != want {
		t.Errorf("scale-up rescales %s, want %s", got, want)
	}
	if up.FinalReplicas != 10 || len(up.Steps) != 25 {
		t.Errorf("final %d after %d syncs, want 10 after 25 (2 minutes at 5 s, both ends)", up.FinalReplicas, len(up.Steps))
	}
	if db := up.Steps[1].DecidedBy; db.Kind != explain.DecidedByScaleUpRateLimit || db.Policy == nil ||
		db.Policy.Type != "Pods" || db.Policy.Value != 2 || db.Policy.PeriodSeconds != 15 {
		t.Errorf("step +5s decided by %+v, want the Pods 2/15s scale-up policy", db)
	}

	down, err := Project(queueSnapshot(10, "10"), settings5s(), ProjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rescaleWords(down), "10→7@30s 7→4@45s 4→1@1m0s"; got != want {
		t.Errorf("scale-down rescales %s, want %s", got, want)
	}
	if !down.Auto || !down.Settled {
		t.Errorf("an automatic projection should stop once settled: auto %v settled %v after %s", down.Auto, down.Settled, down.Duration)
	}
	if db := down.Steps[0].DecidedBy; db.Kind != explain.DecidedByScaleDownStabilization {
		t.Errorf("first step decided by %+v, want the scale-down window", db)
	}
}

// The first sync of a projection is the plain replay of the snapshot.
func TestProjectFirstStepIsTheReplay(t *testing.T) {
	s := cpuSnapshot(3, "450m")
	d := evaluate(t, s)
	p, err := Project(s, engine.DefaultSettings(), ProjectOptions{Duration: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(stepOf(d, t0, t0, 3), p.Steps[0]); diff != "" {
		t.Errorf("first step differs from the replay (-replay +projection):\n%s", diff)
	}
}

// Constant total load: 4 pods at 100% of their request against 50% double
// to 8 (the legacy limit allows it). The new pods report nothing for 30 s
// (missing: counted as 0 on a scale-up, which keeps the ratio at 1), then
// report a share of the same total, 250m = 50%: the HPA stays at 8.
func TestProjectConstantTotal(t *testing.T) {
	s := cpuSnapshot(4, "500m")
	p, err := Project(s, engine.DefaultSettings(), ProjectOptions{PodStartup: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if got := rescaleWords(p); got != "4→8@0s" {
		t.Errorf("rescales %s, want only 4→8 at once", got)
	}
	if !p.Settled || p.FinalReplicas != 8 {
		t.Errorf("settled %v at %d, want settled at 8", p.Settled, p.FinalReplicas)
	}
	last := p.Steps[len(p.Steps)-1]
	if last.ReadyPods != 8 || last.Metrics[0].Value != "50% (250m/pod)" {
		t.Errorf("last step: %d ready pods at %s, want 8 at 50%% (250m/pod)", last.ReadyPods, last.Metrics[0].Value)
	}

	// Per-pod load instead: every pod keeps 500m, so the HPA keeps
	// doubling until maxReplicas.
	pp, err := Project(s, engine.DefaultSettings(), ProjectOptions{PodStartup: 30 * time.Second, LoadModel: explain.LoadConstantPerPod})
	if err != nil {
		t.Fatal(err)
	}
	if pp.FinalReplicas != 20 {
		t.Errorf("constant per-pod load ends at %d, want maxReplicas 20 (%s)", pp.FinalReplicas, rescaleWords(pp))
	}
}

// Legacy scale-down: the default 5-minute window holds the fresh
// controller's seed (the current 8) until +5m exactly.
func TestProjectLegacyWindow(t *testing.T) {
	s := cpuSnapshot(8, "125m")
	s.State = engine.ControllerState{}
	p, err := Project(s, engine.DefaultSettings(), ProjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rescaleWords(p); got != "8→4@5m0s" {
		t.Errorf("rescales %s, want 8→4 at +5m0s", got)
	}
}

func TestProjectTrace(t *testing.T) {
	tr, err := ParseTrace("load.csv", []byte("time,external:queue\n0s,10\n30s,60\n# a comment\n2m,20\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := queueSnapshot(1, "10")
	if err := tr.check("load.csv", s.HPA); err != nil {
		t.Fatal(err)
	}
	p, err := Project(s, settings5s(), ProjectOptions{Duration: 4 * time.Minute, Trace: tr, TraceName: "load.csv"})
	if err != nil {
		t.Fatal(err)
	}
	// 60 at +30s: 1→3→5→6 through the policy; 20 at +2m: down to 2 after
	// the 30 s window (the last 6 was at +1m55s), 3 pods per 15 s.
	if got, want := rescaleWords(p), "1→3@30s 3→5@45s 5→6@1m0s 6→3@2m25s 3→2@2m40s"; got != want {
		t.Errorf("rescales %s, want %s", got, want)
	}

	for _, bad := range []struct{ in, want string }{
		{"", "the trace is empty"},
		{"t,cpu\n", `must start with "time"`},
		{"time,gpu\n0,1\n", `unknown column "gpu"`},
		{"time,cpu\n", "no rows"},
		{"time,cpu\n10s,1\n5s,2\n", "line 3: time 5s is before the previous row's"},
		{"time,cpu\nsoon,1\n", `line 2: "soon" is not a time`},
		{"time,cpu\n0,-1\n", "is negative"},
	} {
		if _, err := ParseTrace("x.csv", []byte(bad.in)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseTrace(%q): %v, want %q", bad.in, err, bad.want)
		}
	}
	cpuOnly, _ := ParseTrace("x.csv", []byte("time,pods:rps\n0,1\n"))
	if err := cpuOnly.check("x.csv", s.HPA); err == nil || !strings.Contains(err.Error(), `column "pods:rps"`) {
		t.Errorf("a column for a metric the HPA lacks: %v", err)
	}
}

func TestProjectLimits(t *testing.T) {
	if _, err := Project(cpuSnapshot(1, "1m"), settings5s(), ProjectOptions{Duration: 365 * 24 * time.Hour}); err == nil {
		t.Error("a year at 5 s was accepted")
	}
	if _, err := Project(cpuSnapshot(1, "1m"), settings5s(), ProjectOptions{LoadModel: "random"}); err == nil {
		t.Error("an unknown load model was accepted")
	}
}

// Copying quiet syncs instead of replaying them must not change anything.
func TestProjectSkipIsExact(t *testing.T) {
	tr, err := ParseTrace("t.csv", []byte("time,cpu\n0s,2\n10m,5\n25m,800m\n50m,3500m\n"))
	if err != nil {
		t.Fatal(err)
	}
	qtr, err := ParseTrace("q.csv", []byte("time,external:queue\n0,10\n3m,95\n9m,20\n40m,60\n"))
	if err != nil {
		t.Fatal(err)
	}
	young := cpuSnapshot(4, "400m")
	for i := range young.Pods {
		start := metav1.NewTime(t0.Add(-time.Duration(i+1) * time.Minute))
		young.Pods[i].Status.StartTime = &start
		young.Pods[i].Status.Conditions[0].LastTransitionTime = start
	}
	for _, tc := range []struct {
		name string
		snap *engine.Snapshot
		set  engine.Settings
		opts ProjectOptions
	}{
		{"constant total", cpuSnapshot(4, "500m"), engine.DefaultSettings(), ProjectOptions{Duration: time.Hour, PodStartup: 30 * time.Second}},
		{"per pod", cpuSnapshot(4, "300m"), engine.DefaultSettings(), ProjectOptions{Duration: time.Hour, LoadModel: explain.LoadConstantPerPod}},
		{"legacy window", cpuSnapshot(8, "125m"), engine.DefaultSettings(), ProjectOptions{Duration: 30 * time.Minute}},
		{"policies", queueSnapshot(10, "10"), settings5s(), ProjectOptions{Duration: 20 * time.Minute}},
		{"cpu trace", cpuSnapshot(4, "500m"), engine.DefaultSettings(), ProjectOptions{Duration: time.Hour, Trace: tr, PodStartup: 45 * time.Second}},
		{"external trace", queueSnapshot(1, "10"), settings5s(), ProjectOptions{Duration: time.Hour, Trace: qtr}},
		{"pods in cpu initialization", young, engine.DefaultSettings(), ProjectOptions{Duration: 20 * time.Minute}},
		{"auto", cpuSnapshot(6, "100m"), engine.DefaultSettings(), ProjectOptions{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fast, err := Project(tc.snap, tc.set, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			slow := tc.opts
			slow.NoSkip = true
			full, err := Project(tc.snap, tc.set, slow)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(full, fast); diff != "" {
				t.Errorf("projection with copied syncs differs from the full replay (-full +copied):\n%s", diff)
			}
			t.Logf("%d syncs, rescales %s", len(full.Steps), rescaleWords(full))
		})
	}
}

// valueAt answers as a scan of the rows would: the last value given before
// the first row after the instant, also when absolute and relative times
// interleave out of order.
func TestTraceValueAt(t *testing.T) {
	tr, err := ParseTrace("t.csv", []byte("time,cpu,external:queue\n0s,1,\n30s,,5\n2026-01-01T12:00:20Z,3,\n1m,,7\n"))
	if err != nil {
		t.Fatal(err)
	}
	tr.resolve(t0) // the absolute row lands at +20s, after the +30s row
	scan := func(col int, off time.Duration) string {
		var v *resource.Quantity
		for i := range tr.Rows {
			if tr.Rows[i].Offset > off {
				break
			}
			if q := tr.Rows[i].Values[col]; q != nil {
				v = q
			}
		}
		if v == nil {
			return "-"
		}
		return v.String()
	}
	for off := -time.Second; off <= 90*time.Second; off += 5 * time.Second {
		for col := range tr.Columns {
			got := "-"
			if q, ok := tr.valueAt(col, off); ok {
				got = q.String()
			}
			if want := scan(col, off); got != want {
				t.Errorf("column %d at %s: %s, a scan gives %s", col, off, got, want)
			}
		}
	}
}
