// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	autoscalingv2defaults "k8s.io/kubernetes/pkg/apis/autoscaling/v2"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// refTime is the reference instant of every generated case. The engine is
// asked to evaluate at refTime+1µs; upstream runs at refTime+ε because all
// timestamps are shifted onto the real clock right before the call.
var refTime = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

// engineEpsilon is how far after refTime the engine evaluates.
const engineEpsilon = time.Microsecond

const (
	genNamespace = "ns1"
	genHPAName   = "web"
	genTarget    = "web"
)

// Case is one differential input: the snapshot the engine gets and the
// controller settings. Upstream's inputs are derived from the same data.
type Case struct {
	Seed     uint64           `json:"seed"`
	Label    string           `json:"label"`
	Settings engine.Settings  `json:"settings"`
	Snapshot *engine.Snapshot `json:"snapshot"`
}

type gen struct {
	r   *rand.Rand
	c   *Case
	now time.Time
	// resource is the resource of a Resource/ContainerResource metric.
	res corev1.ResourceName
	// level is the usage level of the case relative to the target (1.0 = on target).
	level float64
	// huge makes values large enough to overflow int64 arithmetic upstream.
	huge bool
	// reconcile widens the case for the controller-level comparison: several
	// metrics, min/max and replicas that trigger the short-circuits, and
	// behavior policies.
	reconcile bool
	// podMetricsDone is set once PodMetrics were generated.
	podMetricsDone bool
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }
func (g *gen) intn(n int) int        { return g.r.IntN(n) }
func (g *gen) between(lo, hi int) int {
	return lo + g.r.IntN(hi-lo+1)
}

// pick returns the index chosen according to the weights.
func (g *gen) pick(weights ...float64) int {
	total := 0.0
	for _, w := range weights {
		total += w
	}
	x := g.r.Float64() * total
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

func oneOf[T any](g *gen, xs ...T) T { return xs[g.r.IntN(len(xs))] }

// edge is a tiny offset used to sit on, just before or just after a boundary.
func (g *gen) edge() time.Duration {
	return oneOf(g, -time.Second, -time.Nanosecond, 0, time.Nanosecond, time.Second)
}

// nowEdge is an offset from a boundary that is compared against "now". Only
// offsets whose outcome does not depend on the exact ε are allowed: ≤ +1ns is
// "in the past" for both sides (ε ≥ 1ns upstream, 1µs for the engine), and
// whole seconds are far beyond ε.
func (g *gen) nowEdge() time.Duration {
	return oneOf(g, -time.Second, -time.Nanosecond, 0, time.Nanosecond, time.Second)
}

func mt(t time.Time) metav1.Time   { return metav1.Time{Time: t} }
func mtp(t time.Time) *metav1.Time { m := mt(t); return &m }
func i32p(v int32) *int32          { return &v }

func qp(q resource.Quantity) *resource.Quantity { return &q }

// podLevelForSeed says whether the PodLevelResources gate is on for a seed
// (on for 90% of the seeds, as in v1.36 where it defaults to on).
func podLevelForSeed(seed uint64) bool { return seed%10 != 9 }

// Generate builds the case for one seed.
func Generate(seed uint64) *Case {
	return generateFrom(rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), seed)
}

func generateFrom(r *rand.Rand, seed uint64) *Case {
	g := &gen{r: r, now: refTime}
	g.c = &Case{Seed: seed}
	g.build()
	return g.c
}

// GenerateReconcile builds the controller-level case for one seed.
func GenerateReconcile(seed uint64) *Case {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d)), now: refTime, reconcile: true}
	g.c = &Case{Seed: seed}
	g.build()
	return g.c
}

func metricCategory(s autoscalingv2.MetricSpec) string {
	switch s.Type {
	case autoscalingv2.ResourceMetricSourceType, autoscalingv2.ContainerResourceMetricSourceType:
		return "resource"
	}
	return string(s.Type)
}

func (g *gen) build() {
	set := upstreamSettings()
	switch g.pick(6, 1, 1, 1, 1, 1) {
	case 1:
		set.Tolerance = 0
	case 2:
		set.Tolerance = 0.05
	case 3:
		set.Tolerance = 0.3
	case 4:
		set.Tolerance = 0.5
	case 5:
		set.Tolerance = float64(g.intn(30)) / 100
	}
	set.CPUInitializationPeriod = oneOf(g, 5*time.Minute, 5*time.Minute, 2*time.Minute, 30*time.Second, 0)
	set.InitialReadinessDelay = oneOf(g, 30*time.Second, 30*time.Second, 10*time.Second, 0, time.Minute)
	setGate(&set, profile.HPAConfigurableTolerance, g.chance(0.9))
	// The PodLevelResources gate is process-global upstream, so it is a
	// function of the seed: TestDifferential runs the two groups separately.
	setGate(&set, profile.PodLevelResources, podLevelForSeed(g.c.Seed))
	g.huge = g.chance(0.02)
	g.level = g.genLevel()

	snap := &engine.Snapshot{
		Now:       g.now.Add(engineEpsilon),
		State:     engine.ControllerState{RecommendationsInitialized: false, Provenance: "assumed"},
		Target:    engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: genTarget},
		APIErrors: map[string]string{},
	}
	g.c.Snapshot = snap

	hpa := &autoscalingv2.HorizontalPodAutoscaler{
		TypeMeta:   metav1.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: metav1.ObjectMeta{Name: genHPAName, Namespace: genNamespace},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: genTarget},
			MinReplicas:    i32p(1),
			MaxReplicas:    math.MaxInt32,
		},
	}
	if g.chance(0.5) {
		hpa.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{}
		if g.chance(0.8) {
			hpa.Spec.Behavior.ScaleUp = &autoscalingv2.HPAScalingRules{Tolerance: g.genTolerance()}
		}
		if g.chance(0.8) {
			hpa.Spec.Behavior.ScaleDown = &autoscalingv2.HPAScalingRules{Tolerance: g.genTolerance()}
		}
	}
	snap.HPA = hpa

	// The selector, and the labels that match it.
	selector, match, nomatch := oneOfSelector(g)
	snap.Target.Selector = selector

	spec, label := g.genMetric()
	hpa.Spec.Metrics = []autoscalingv2.MetricSpec{spec}
	if g.reconcile {
		g.widen(hpa, &set)
		for _, m := range hpa.Spec.Metrics[1:] {
			label += " + " + metricCategory(m)
		}
	}
	autoscalingv2defaults.SetDefaults_HorizontalPodAutoscaler(hpa)
	if g.huge {
		label += "/huge"
	}
	g.c.Label = label

	// Pods.
	nPods := g.pick(1, 10, 20, 12, 6, 2)
	switch nPods {
	case 0:
		nPods = 0
	case 1:
		nPods = g.between(1, 2)
	case 2:
		nPods = g.between(3, 5)
	case 3:
		nPods = g.between(6, 10)
	case 4:
		nPods = g.between(11, 25)
	case 5:
		nPods = g.between(26, 60)
	}
	for i := 0; i < nPods; i++ {
		labels := match
		if g.chance(0.05) {
			labels = nomatch
		}
		snap.Pods = append(snap.Pods, g.genPod(fmt.Sprintf("web-%d", i), labels, set))
	}

	// Replicas.
	cur := int32(g.between(1, 12))
	if g.chance(0.4) && nPods > 0 {
		cur = int32(nPods)
	}
	snap.Target.SpecReplicas = cur
	switch g.pick(14, 5, 1) {
	case 0:
		snap.Target.StatusReplicas = cur
	case 1:
		snap.Target.StatusReplicas = int32(g.between(1, 12))
	case 2:
		snap.Target.StatusReplicas = 0
	}
	// Scale from zero: the only way the controller computes metrics at 0.
	if g.chance(0.03) {
		setGate(&set, profile.HPAScaleToZero, true)
		snap.Target.SpecReplicas = 0
		if upstreamVersion.Minor >= 36 {
			hpa.Status.Conditions = []autoscalingv2.HorizontalPodAutoscalerCondition{{
				Type: autoscalingv2.ScaledToZero, Status: corev1.ConditionTrue, Reason: "ScaledToZero",
				Message:            "the HPA controller scaled the workload to zero",
				LastTransitionTime: mt(g.now.Add(-time.Hour)),
			}}
		} else {
			// Before v1.36 the controller computes metrics at 0 replicas
			// only when minReplicas is 0 (and writes no ScaledToZero).
			hpa.Spec.MinReplicas = i32p(0)
		}
	}

	for _, m := range hpa.Spec.Metrics {
		g.genMetricsData(m, match, nomatch)
	}
	if g.reconcile {
		g.widenReplicas(hpa, &set)
		// v1.29 only: the beta HPAContainerMetrics gate can be off (no random
		// draw in other versions, so their streams are unchanged).
		if gateSettable(upstreamVersion, profile.HPAContainerMetrics) && g.chance(0.1) {
			setGate(&set, profile.HPAContainerMetrics, false)
		}
	}
	g.c.Settings = set
	fitVersion(g.c)
}

// fitVersion removes from a case the fields upstreamVersion's API does not
// have, so that the engine and the oracle see the same objects (the oracle
// would drop them when decoding): behavior tolerances before v1.33, pod-level
// resources before v1.32.
func fitVersion(c *Case) {
	minor := upstreamVersion.Minor
	if b := c.Snapshot.HPA.Spec.Behavior; b != nil && minor < 33 {
		for _, r := range []*autoscalingv2.HPAScalingRules{b.ScaleUp, b.ScaleDown} {
			if r != nil {
				r.Tolerance = nil
			}
		}
	}
	if minor < 32 {
		for i := range c.Snapshot.Pods {
			c.Snapshot.Pods[i].Spec.Resources = nil
		}
	}
}

// widen adds what only the controller-level comparison needs.
func (g *gen) widen(hpa *autoscalingv2.HorizontalPodAutoscaler, set *engine.Settings) {
	set.DownscaleStabilization = oneOf(g, 5*time.Minute, 5*time.Minute, 0, time.Minute, 15*time.Second)
	seen := map[string]bool{metricCategory(hpa.Spec.Metrics[0]): true}
	for extra := g.pick(5, 3.5, 1.5); extra > 0; extra-- {
		if g.chance(0.03) {
			hpa.Spec.Metrics = append(hpa.Spec.Metrics, autoscalingv2.MetricSpec{Type: "CheddarCheese"})
			continue
		}
		for try := 0; try < 5; try++ {
			m, _ := g.genMetric()
			if c := metricCategory(m); !seen[c] || c == "resource" {
				seen[c] = true
				hpa.Spec.Metrics = append(hpa.Spec.Metrics, m)
				break
			}
		}
	}
	if g.chance(0.1) && len(hpa.Spec.Metrics) > 1 {
		g.r.Shuffle(len(hpa.Spec.Metrics), func(i, j int) { hpa.Spec.Metrics[i], hpa.Spec.Metrics[j] = hpa.Spec.Metrics[j], hpa.Spec.Metrics[i] })
	}
	if b := hpa.Spec.Behavior; b != nil {
		for _, rules := range []**autoscalingv2.HPAScalingRules{&b.ScaleUp, &b.ScaleDown} {
			if *rules == nil {
				if !g.chance(0.5) {
					continue
				}
				*rules = &autoscalingv2.HPAScalingRules{}
			}
			r := *rules
			if g.chance(0.5) {
				r.StabilizationWindowSeconds = i32p(oneOf[int32](g, 0, 0, 15, 60, 300, int32(g.intn(600))))
			}
			if g.chance(0.4) {
				p := oneOf(g, autoscalingv2.MaxChangePolicySelect, autoscalingv2.MinChangePolicySelect, autoscalingv2.DisabledPolicySelect)
				r.SelectPolicy = &p
			}
			if g.chance(0.5) {
				for n := g.between(1, 3); n > 0; n-- {
					r.Policies = append(r.Policies, autoscalingv2.HPAScalingPolicy{
						Type:          oneOf(g, autoscalingv2.PodsScalingPolicy, autoscalingv2.PercentScalingPolicy),
						Value:         oneOf[int32](g, 1, 2, 4, 10, 50, 100, 200, int32(g.between(1, 300))),
						PeriodSeconds: oneOf[int32](g, 15, 60, 300, int32(g.between(1, 1800))),
					})
				}
			}
		}
	}
}

// widenReplicas varies min, max and the current replicas so that every
// short-circuit of the reconcile is reached.
func (g *gen) widenReplicas(hpa *autoscalingv2.HorizontalPodAutoscaler, set *engine.Settings) {
	snap := g.c.Snapshot
	if g.chance(0.4) {
		hpa.Spec.MinReplicas = i32p(int32(g.between(1, 5)))
	}
	if g.chance(0.6) {
		hpa.Spec.MaxReplicas = *hpa.Spec.MinReplicas + int32(g.intn(20))
	}
	if snap.Target.SpecReplicas > 0 && g.chance(0.1) {
		snap.Target.SpecReplicas = int32(g.intn(26))
	}
	if set.Profile.Gates[profile.HPAScaleToZero] && g.chance(0.5) {
		hpa.Spec.MinReplicas = i32p(0)
	}
}

// genLevel is the usage relative to the target; ties with common tolerances
// are frequent on purpose.
func (g *gen) genLevel() float64 {
	switch g.pick(3, 2, 1, 1, 1) {
	case 0:
		return oneOf(g, 1.0, 1.1, 0.9, 1.05, 0.95, 1.3, 0.7, 0.5, 1.5, 2, 0.2, 0)
	case 1:
		return 0.3 + g.r.Float64()*1.6
	case 2:
		return g.r.Float64() * 5
	case 3:
		return float64(g.between(80, 120)) / 100
	default:
		return g.r.Float64() * 0.3
	}
}

func (g *gen) genTolerance() *resource.Quantity {
	switch g.pick(3, 1, 2, 1, 1, 1, 1) {
	case 0:
		return nil
	case 1:
		return qp(resource.MustParse("0"))
	case 2:
		return qp(resource.MustParse("0.3"))
	case 3:
		return qp(resource.MustParse("50m"))
	case 4:
		return qp(resource.MustParse("1"))
	case 5:
		return qp(resource.MustParse("0.1"))
	default:
		return qp(*resource.NewMilliQuantity(int64(g.intn(500)), resource.DecimalSI))
	}
}

func oneOfSelector(g *gen) (sel string, match, nomatch map[string]string) {
	switch g.pick(6, 2, 2) {
	case 0:
		return "app=web", map[string]string{"app": "web"}, map[string]string{"app": "other"}
	case 1:
		return "app=web,tier!=db", map[string]string{"app": "web", "tier": "fe"}, map[string]string{"app": "web", "tier": "db"}
	default:
		return "app in (api,web)", map[string]string{"app": "api"}, map[string]string{"app": "db"}
	}
}

// metric kinds the generator produces.
const (
	kResUtil = iota
	kResAvg
	kCResUtil
	kCResAvg
	kPods
	kObjValue
	kObjAvg
	kExtValue
	kExtAvg
	kInvalid
)

func (g *gen) genMetric() (autoscalingv2.MetricSpec, string) {
	kind := g.pick(5, 2.5, 2, 1, 2.5, 2, 1.5, 2, 1.5, 0.2)
	g.res = oneOf(g, corev1.ResourceCPU, corev1.ResourceCPU, corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceMemory, corev1.ResourceEphemeralStorage)
	switch kind {
	case kResUtil, kCResUtil:
		t := autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: i32p(oneOf[int32](g, 100, 80, 50, 60, 70, 150, 200, 1, 10, 99, int32(g.between(1, 300))))}
		if g.chance(0.02) {
			// averageValue wins over averageUtilization, whatever the type says.
			t.AverageValue = qp(g.avgTarget())
		}
		return g.resSpec(kind == kCResUtil, t)
	case kResAvg, kCResAvg:
		return g.resSpec(kind == kCResAvg, autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: qp(g.avgTarget())})
	case kPods:
		s := autoscalingv2.MetricSpec{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: "rps", Selector: g.metricSelector(false)},
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: qp(g.plainTarget())},
		}}
		return s, "Pods/AverageValue"
	case kObjValue, kObjAvg:
		obj := oneOf(g,
			autoscalingv2.CrossVersionObjectReference{APIVersion: "v1", Kind: "Service", Name: "svc"},
			autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: genTarget},
			autoscalingv2.CrossVersionObjectReference{APIVersion: "networking.k8s.io/v1", Kind: "Ingress", Name: "ing"},
			autoscalingv2.CrossVersionObjectReference{APIVersion: "v1", Kind: "Namespace", Name: genNamespace},
			autoscalingv2.CrossVersionObjectReference{APIVersion: "v1", Kind: "Namespace", Name: "elsewhere"},
		)
		src := &autoscalingv2.ObjectMetricSource{DescribedObject: obj, Metric: autoscalingv2.MetricIdentifier{Name: "hits", Selector: g.metricSelector(false)}}
		label := "Object/" + obj.Kind + "/"
		if kind == kObjValue {
			src.Target = autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: qp(g.plainTarget())}
			label += "Value"
		} else {
			src.Target = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: qp(g.plainTarget())}
			label += "AverageValue"
		}
		if g.chance(0.01) {
			// The type names the field that is not set: invalid.
			if src.Target.Type == autoscalingv2.ValueMetricType {
				src.Target.Type = autoscalingv2.AverageValueMetricType
			} else {
				src.Target.Type = autoscalingv2.ValueMetricType
			}
			label += "/mismatched-type"
		}
		return autoscalingv2.MetricSpec{Type: autoscalingv2.ObjectMetricSourceType, Object: src}, label
	case kExtValue, kExtAvg:
		src := &autoscalingv2.ExternalMetricSource{Metric: autoscalingv2.MetricIdentifier{Name: "queue", Selector: g.metricSelector(true)}}
		label := "External/"
		if kind == kExtValue {
			src.Target = autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: qp(g.plainTarget())}
			label += "Value"
		} else {
			src.Target = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: qp(g.plainTarget())}
			label += "AverageValue"
		}
		if g.chance(0.02) {
			src.Target.Value, src.Target.AverageValue = qp(g.plainTarget()), qp(g.plainTarget())
			label += "/both"
		}
		if src.Metric.Selector == nil {
			label += "/nil-selector"
		}
		return autoscalingv2.MetricSpec{Type: autoscalingv2.ExternalMetricSourceType, External: src}, label
	default:
		// Targets the API would reject but the controller handles.
		switch g.intn(3) {
		case 0:
			return g.resSpec(false, autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType})
		case 1:
			return autoscalingv2.MetricSpec{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
				Metric: autoscalingv2.MetricIdentifier{Name: "queue"}, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType},
			}}, "External/no-target"
		default:
			return autoscalingv2.MetricSpec{Type: autoscalingv2.ObjectMetricSourceType, Object: &autoscalingv2.ObjectMetricSource{
				DescribedObject: autoscalingv2.CrossVersionObjectReference{APIVersion: "v1", Kind: "Service", Name: "svc"},
				Metric:          autoscalingv2.MetricIdentifier{Name: "hits"}, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType},
			}}, "Object/no-target"
		}
	}
}

func (g *gen) resSpec(container bool, t autoscalingv2.MetricTarget) (autoscalingv2.MetricSpec, string) {
	tt := string(t.Type)
	if t.AverageValue != nil {
		tt = "AverageValue"
	} else if t.AverageUtilization == nil {
		tt = "no-target"
	}
	if container {
		c := oneOf(g, "c0", "c0", "c0", "c1", "sidecar", "init", "nope")
		return autoscalingv2.MetricSpec{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricSource{
			Name: g.res, Container: c, Target: t,
		}}, "ContainerResource/" + string(g.res) + "/" + tt
	}
	return autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
		Name: g.res, Target: t,
	}}, "Resource/" + string(g.res) + "/" + tt
}

// metricSelector is the metric's label selector. For External metrics it
// selects among the generated metricLabels.
func (g *gen) metricSelector(external bool) *metav1.LabelSelector {
	switch g.pick(4, 1, 3, 1.5, 0.4) {
	case 0:
		return nil
	case 1:
		return &metav1.LabelSelector{}
	case 2:
		return &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}
	case 3:
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "zone", Operator: oneOf(g, metav1.LabelSelectorOpIn, metav1.LabelSelectorOpNotIn), Values: []string{"a"}},
		}}
	default:
		// Does not convert into a selector.
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "zone", Operator: "Bogus", Values: []string{"a"}}}}
	}
}

// Quantities.

func (g *gen) isMem() bool {
	return g.res == corev1.ResourceMemory || g.res == corev1.ResourceEphemeralStorage
}

// requestMilli is a container request in milli-units of g.res.
func (g *gen) requestMilli() int64 {
	if g.huge {
		return int64(g.between(1, 9)) * 100_000_000_000_000_000 // 1e17 milli
	}
	if g.isMem() {
		return int64(oneOf(g, 64, 128, 256, 512, 1024, g.between(1, 2048))) * 1024 * 1024 * 1000
	}
	return int64(oneOf(g, 100, 250, 500, 1000, 2000, g.between(1, 4000)))
}

func (g *gen) resQuantity(milli int64) resource.Quantity {
	if g.isMem() && milli%1000 == 0 {
		return *resource.NewQuantity(milli/1000, resource.BinarySI)
	}
	return *resource.NewMilliQuantity(milli, resource.DecimalSI)
}

// avgTarget is a Resource AverageValue target.
func (g *gen) avgTarget() resource.Quantity {
	if g.isMem() {
		return oneOf(g, resource.MustParse("100Mi"), resource.MustParse("256Mi"), resource.MustParse("1Gi"), resource.MustParse("500M"), resource.MustParse("1.5"))
	}
	return oneOf(g, resource.MustParse("500m"), resource.MustParse("1"), resource.MustParse("100m"), resource.MustParse("250m"),
		resource.MustParse("1500m"), resource.MustParse("0.0001"), *resource.NewMilliQuantity(int64(g.between(1, 3000)), resource.DecimalSI))
}

// plainTarget is a Pods/Object/External target.
func (g *gen) plainTarget() resource.Quantity {
	if g.huge && g.chance(0.5) {
		return resource.MustParse("1m")
	}
	return oneOf(g, resource.MustParse("1"), resource.MustParse("10"), resource.MustParse("100"), resource.MustParse("500m"),
		resource.MustParse("30"), resource.MustParse("1k"), resource.MustParse("2.5"), *resource.NewMilliQuantity(int64(g.between(1, 100000)), resource.DecimalSI))
}

// usageAround returns a milli value near level × base.
func (g *gen) usageAround(base int64) int64 {
	v := float64(base) * g.level
	switch g.pick(5, 3, 1, 0.2) {
	case 0:
	case 1:
		v *= 0.8 + g.r.Float64()*0.4
	case 2:
		v *= g.r.Float64() * 3
	default:
		return 0
	}
	if v > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(v)
}

// Pods.

func (g *gen) genPod(name string, labels map[string]string, set engine.Settings) corev1.Pod {
	p := corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: genNamespace, Labels: labels},
	}
	switch g.pick(14, 2, 1, 1, 0.7, 0.3) {
	case 0:
		p.Status.Phase = corev1.PodRunning
	case 1:
		p.Status.Phase = corev1.PodPending
	case 2:
		p.Status.Phase = corev1.PodFailed
	case 3:
		p.Status.Phase = corev1.PodSucceeded
	case 4:
		p.Status.Phase = corev1.PodUnknown
	default:
		p.Status.Phase = ""
	}
	if g.chance(0.05) {
		p.DeletionTimestamp = mtp(g.now.Add(-time.Duration(g.intn(60)) * time.Second))
	}

	// Containers and requests.
	nc := g.pick(6, 3, 1) + 1
	for i := 0; i < nc; i++ {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: fmt.Sprintf("c%d", i), Resources: g.requests()})
	}
	if g.chance(0.2) {
		always := corev1.ContainerRestartPolicyAlways
		p.Spec.InitContainers = append(p.Spec.InitContainers, corev1.Container{Name: "sidecar", RestartPolicy: &always, Resources: g.requests()})
	}
	if g.chance(0.15) {
		ic := corev1.Container{Name: "init", Resources: g.requests()}
		if g.chance(0.5) {
			p.Spec.InitContainers = append([]corev1.Container{ic}, p.Spec.InitContainers...)
		} else {
			p.Spec.InitContainers = append(p.Spec.InitContainers, ic)
		}
	}
	if g.chance(0.1) {
		// Pod-level resources (KEP-2837).
		rl := corev1.ResourceList{}
		if g.chance(0.7) {
			rl[corev1.ResourceCPU] = *resource.NewMilliQuantity(int64(g.between(100, 4000)), resource.DecimalSI)
		}
		if g.chance(0.6) {
			rl[corev1.ResourceMemory] = *resource.NewQuantity(int64(g.between(64, 4096))*1024*1024, resource.BinarySI)
		}
		if g.chance(0.05) {
			rl[corev1.ResourceCPU] = resource.MustParse("0")
		}
		p.Spec.Resources = &corev1.ResourceRequirements{Requests: rl}
	}
	if g.chance(0.04) {
		p.Spec.Overhead = corev1.ResourceList{
			corev1.ResourceCPU:    *resource.NewMilliQuantity(int64(g.between(10, 250)), resource.DecimalSI),
			corev1.ResourceMemory: *resource.NewQuantity(int64(g.between(1, 128))*1024*1024, resource.BinarySI),
		}
	}

	// Start time, relative to the CPU initialization period boundary.
	P := set.CPUInitializationPeriod
	var start *time.Time
	switch g.pick(0.5, 5, 3, 3, 0.2) {
	case 0:
		// nil
	case 1:
		t := g.now.Add(-P - time.Duration(g.between(1, 7200))*time.Second)
		start = &t
	case 2:
		t := g.now.Add(-P + g.nowEdge())
		start = &t
	case 3:
		t := g.now.Add(-time.Duration(g.intn(int(P/time.Second)+1)) * time.Second)
		start = &t
	default:
		t := g.now.Add(time.Duration(g.between(1, 60)) * time.Second)
		start = &t
	}
	if start != nil {
		p.Status.StartTime = mtp(*start)
	}

	// Conditions.
	anchor := g.now.Add(-time.Hour)
	if start != nil {
		anchor = *start
	}
	var ltt time.Time
	switch g.pick(3, 3, 2, 1, 0.3) {
	case 0:
		ltt = anchor.Add(set.InitialReadinessDelay + g.edge())
	case 1:
		ltt = anchor.Add(time.Duration(g.intn(600)) * time.Second)
	case 2:
		ltt = anchor.Add(-time.Duration(g.intn(600)) * time.Second)
	case 3:
		ltt = g.now.Add(-time.Duration(g.intn(120)) * time.Second)
	default:
		// zero: lastTransitionTime absent
	}
	if g.chance(0.1) {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: mt(anchor)})
	}
	switch g.pick(8, 3, 1, 1) {
	case 0:
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: mt(ltt)})
	case 1:
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse, LastTransitionTime: mt(ltt)})
	case 2:
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionUnknown, LastTransitionTime: mt(ltt)})
	default:
		// no Ready condition
	}
	if g.chance(0.03) {
		// A second Ready condition: only the first one counts.
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: oneOf(g, corev1.ConditionTrue, corev1.ConditionFalse), LastTransitionTime: mt(g.now.Add(-time.Duration(g.intn(600)) * time.Second))})
	}
	return p
}

// requests returns container resources; sometimes a resource is missing.
func (g *gen) requests() corev1.ResourceRequirements {
	rl := corev1.ResourceList{}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage} {
		if g.chance(0.985) {
			saved := g.res
			g.res = r
			rl[r] = g.resQuantity(g.requestMilli())
			if g.chance(0.02) {
				rl[r] = resource.MustParse("0")
			}
			g.res = saved
		}
	}
	return corev1.ResourceRequirements{Requests: rl}
}

// Metrics API data.

func (g *gen) genMetricsData(spec autoscalingv2.MetricSpec, match, nomatch map[string]string) {
	snap := g.c.Snapshot
	switch spec.Type {
	case autoscalingv2.ResourceMetricSourceType, autoscalingv2.ContainerResourceMetricSourceType:
		if g.podMetricsDone {
			return
		}
		g.podMetricsDone = true
		if spec.Resource != nil {
			g.res = spec.Resource.Name
		} else {
			g.res = spec.ContainerResource.Name
		}
		g.genPodMetrics(spec, match, nomatch)
		if g.chance(0.03) {
			snap.APIErrors["resource"] = oneOf(g, "the server is currently unable to handle the request", "connection refused")
		}
	case autoscalingv2.PodsMetricSourceType:
		g.genPodsCustom(spec)
		if g.chance(0.03) {
			snap.APIErrors["pods:"+spec.Pods.Metric.Name] = "the server could not find the metric rps for pods"
		}
	case autoscalingv2.ObjectMetricSourceType:
		g.genObjectCustom(spec)
		if g.chance(0.03) {
			snap.APIErrors["object:"+spec.Object.Metric.Name] = "the server could not find the requested resource"
		}
	case autoscalingv2.ExternalMetricSourceType:
		g.genExternal(spec)
		if g.chance(0.03) {
			snap.APIErrors["external:"+spec.External.Metric.Name] = "external metrics adapter unavailable"
		}
	}
	// Noise that no metric of this case should pick up.
	if g.chance(0.2) {
		snap.CustomMetrics = append(snap.CustomMetrics, g.customValue("other", "v1", "Pod", "web-0", 5000))
	}
	if g.chance(0.2) {
		snap.ExternalMetrics = append(snap.ExternalMetrics, externalmetricsv1beta1.ExternalMetricValue{
			MetricName: "other", MetricLabels: map[string]string{"env": "prod"}, Timestamp: mt(g.now.Add(-10 * time.Second)),
			Value: *resource.NewMilliQuantity(123456, resource.DecimalSI),
		})
	}
}

// podRequestMilli is the request used to scale generated usage (approximate;
// the calculation itself is left to the code under test).
func podRequestMilli(p *corev1.Pod, res corev1.ResourceName) int64 {
	var sum int64
	for _, c := range p.Spec.Containers {
		if q, ok := c.Resources.Requests[res]; ok {
			sum += q.MilliValue()
		}
	}
	if sum == 0 {
		sum = 1000
	}
	return sum
}

func (g *gen) metricTimestamp(p *corev1.Pod, window time.Duration) time.Time {
	var ltt time.Time
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			ltt = c.LastTransitionTime.Time
			break
		}
	}
	switch g.pick(3, 3, 0.3) {
	case 0:
		if !ltt.IsZero() {
			return ltt.Add(window + g.edge())
		}
		return g.now.Add(-time.Duration(g.intn(90)) * time.Second)
	case 1:
		return g.now.Add(-time.Duration(g.intn(120)) * time.Second)
	default:
		return time.Time{}
	}
}

func (g *gen) genPodMetrics(spec autoscalingv2.MetricSpec, match, nomatch map[string]string) {
	snap := g.c.Snapshot
	target := int64(100)
	var avgTarget int64
	if spec.Resource != nil {
		if spec.Resource.Target.AverageUtilization != nil {
			target = int64(*spec.Resource.Target.AverageUtilization)
		}
		if spec.Resource.Target.AverageValue != nil {
			avgTarget = spec.Resource.Target.AverageValue.MilliValue()
		}
	} else {
		if spec.ContainerResource.Target.AverageUtilization != nil {
			target = int64(*spec.ContainerResource.Target.AverageUtilization)
		}
		if spec.ContainerResource.Target.AverageValue != nil {
			avgTarget = spec.ContainerResource.Target.AverageValue.MilliValue()
		}
	}
	window := oneOf(g, time.Minute, 30*time.Second, 15*time.Second, 0, 90*time.Second)
	if g.chance(0.02) {
		// An empty list from the API.
		return
	}
	add := func(name string, labels map[string]string, containers []string, perContainerMilli int64, ts time.Time) {
		pm := metricsv1beta1.PodMetrics{
			TypeMeta:   metav1.TypeMeta{APIVersion: "metrics.k8s.io/v1beta1", Kind: "PodMetrics"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: genNamespace, Labels: labels},
			Timestamp:  mt(ts),
			Window:     metav1.Duration{Duration: window},
		}
		if g.chance(0.1) {
			pm.Window = metav1.Duration{Duration: oneOf(g, time.Minute, 30*time.Second, 0)}
		}
		for _, c := range containers {
			usage := corev1.ResourceList{}
			for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage} {
				if r == g.res {
					usage[r] = g.resQuantity(g.usageAround(perContainerMilli))
				} else {
					usage[r] = *resource.NewMilliQuantity(int64(g.intn(1000)), resource.DecimalSI)
				}
			}
			if g.chance(0.03) {
				delete(usage, g.res)
			}
			pm.Containers = append(pm.Containers, metricsv1beta1.ContainerMetrics{Name: c, Usage: usage})
		}
		snap.PodMetrics = append(snap.PodMetrics, pm)
	}
	for i := range snap.Pods {
		p := &snap.Pods[i]
		if !g.chance(0.82) {
			continue
		}
		var names []string
		for _, c := range p.Spec.Containers {
			names = append(names, c.Name)
		}
		for _, c := range p.Spec.InitContainers {
			if c.RestartPolicy != nil || g.chance(0.2) {
				names = append(names, c.Name)
			}
		}
		switch g.pick(20, 1, 1) {
		case 1:
			names = nil // no containers reported
		case 2:
			names[0] = "renamed"
		}
		per := int64(0)
		if len(names) > 0 {
			if avgTarget > 0 {
				per = avgTarget / int64(len(names))
			} else {
				per = podRequestMilli(p, g.res) * target / 100 / int64(len(names))
			}
		}
		labels := p.Labels
		if g.chance(0.03) {
			labels = nomatch
		}
		add(p.Name, labels, names, per, g.metricTimestamp(p, window))
	}
	// Superfluous metrics: pods not in the list (or not matching the selector).
	for n := g.pick(10, 2, 1); n > 0; n-- {
		base := int64(500)
		if avgTarget > 0 {
			base = avgTarget
		}
		add(fmt.Sprintf("ghost-%d", n), match, []string{"c0"}, base, g.now.Add(-time.Duration(g.intn(60))*time.Second))
	}
	if len(snap.PodMetrics) > 1 && g.chance(0.3) {
		g.r.Shuffle(len(snap.PodMetrics), func(i, j int) { snap.PodMetrics[i], snap.PodMetrics[j] = snap.PodMetrics[j], snap.PodMetrics[i] })
	}
}

func (g *gen) customValue(metric, apiVersion, kind, name string, milli int64) custommetricsv1beta2.MetricValue {
	mv := custommetricsv1beta2.MetricValue{
		TypeMeta:        metav1.TypeMeta{APIVersion: "custom.metrics.k8s.io/v1beta2", Kind: "MetricValue"},
		DescribedObject: corev1.ObjectReference{APIVersion: apiVersion, Kind: kind, Name: name, Namespace: genNamespace},
		Metric:          custommetricsv1beta2.MetricIdentifier{Name: metric},
		Timestamp:       mt(g.now.Add(-time.Duration(g.intn(60)) * time.Second)),
		Value:           *resource.NewMilliQuantity(milli, resource.DecimalSI),
	}
	if kind == "Namespace" {
		mv.DescribedObject.Namespace = ""
	}
	if g.chance(0.3) {
		mv.WindowSeconds = ptrInt64(int64(oneOf(g, 15, 30, 60, 120)))
	}
	return mv
}

func ptrInt64(v int64) *int64 { return &v }

func (g *gen) hugeMilli() int64 {
	return oneOf[int64](g, math.MaxInt64, math.MaxInt64/2+1, math.MaxInt64/3, 1<<62, 9_000_000_000_000_000)
}

func (g *gen) genPodsCustom(spec autoscalingv2.MetricSpec) {
	snap := g.c.Snapshot
	t := spec.Pods.Target.AverageValue.MilliValue()
	if g.chance(0.03) {
		return // empty list
	}
	for i := range snap.Pods {
		if !g.chance(0.85) {
			continue
		}
		v := g.usageAround(t)
		if g.huge {
			v = g.hugeMilli()
		} else if g.chance(0.01) {
			v = -v
		}
		snap.CustomMetrics = append(snap.CustomMetrics, g.customValue("rps", "v1", "Pod", snap.Pods[i].Name, v))
		if g.chance(0.03) {
			// A duplicate: the later one wins.
			snap.CustomMetrics = append(snap.CustomMetrics, g.customValue("rps", "v1", "Pod", snap.Pods[i].Name, g.usageAround(t)))
		}
	}
	for n := g.pick(10, 2, 1); n > 0; n-- {
		snap.CustomMetrics = append(snap.CustomMetrics, g.customValue("rps", "v1", "Pod", fmt.Sprintf("ghost-%d", n), g.usageAround(t)))
	}
	if g.chance(0.1) {
		// Same name, not a Pod.
		snap.CustomMetrics = append(snap.CustomMetrics, g.customValue("rps", "v1", "Service", "web-0", 1))
	}
}

func (g *gen) genObjectCustom(spec autoscalingv2.MetricSpec) {
	snap := g.c.Snapshot
	obj := spec.Object.DescribedObject
	var t int64 = 1000
	if spec.Object.Target.Value != nil {
		t = spec.Object.Target.Value.MilliValue()
	} else if spec.Object.Target.AverageValue != nil {
		t = spec.Object.Target.AverageValue.MilliValue() * int64(max(1, len(snap.Pods)))
	}
	name := obj.Name
	if obj.Kind == "Namespace" {
		// The controller asks for the HPA's own namespace whatever the name says.
		name = genNamespace
	}
	val := func() int64 {
		if g.huge {
			return g.hugeMilli()
		}
		if g.chance(0.01) {
			return -g.usageAround(t)
		}
		return g.usageAround(t)
	}
	switch g.pick(1, 18, 1) {
	case 0:
	case 1:
		snap.CustomMetrics = append(snap.CustomMetrics, g.customValue("hits", obj.APIVersion, obj.Kind, name, val()))
	case 2:
		snap.CustomMetrics = append(snap.CustomMetrics, g.customValue("hits", obj.APIVersion, obj.Kind, name, val()))
		snap.CustomMetrics = append(snap.CustomMetrics, g.customValue("hits", obj.APIVersion, obj.Kind, name, val()))
	}
	if g.chance(0.3) {
		snap.CustomMetrics = append(snap.CustomMetrics, g.customValue("hits", obj.APIVersion, obj.Kind, "unrelated", val()))
	}
	if obj.Kind == "Namespace" && obj.Name != genNamespace && g.chance(0.7) {
		snap.CustomMetrics = append(snap.CustomMetrics, g.customValue("hits", "v1", "Namespace", obj.Name, val()))
	}
	if g.chance(0.2) {
		snap.CustomMetrics = append(snap.CustomMetrics, g.customValue("hits", "v1", "Pod", name, val()))
	}
	if len(snap.CustomMetrics) > 1 && g.chance(0.3) {
		g.r.Shuffle(len(snap.CustomMetrics), func(i, j int) {
			snap.CustomMetrics[i], snap.CustomMetrics[j] = snap.CustomMetrics[j], snap.CustomMetrics[i]
		})
	}
}

func (g *gen) genExternal(spec autoscalingv2.MetricSpec) {
	snap := g.c.Snapshot
	var t int64 = 1000
	if spec.External.Target.AverageValue != nil {
		t = spec.External.Target.AverageValue.MilliValue() * int64(max(1, int(snap.Target.StatusReplicas)))
	} else if spec.External.Target.Value != nil {
		t = spec.External.Target.Value.MilliValue()
	}
	n := g.pick(1, 6, 3, 2, 1)
	for i := 0; i < n; i++ {
		labels := map[string]string{}
		if g.chance(0.8) {
			labels["env"] = oneOf(g, "prod", "prod", "dev")
		}
		if g.chance(0.6) {
			labels["zone"] = oneOf(g, "a", "b")
		}
		v := g.usageAround(t / int64(max(1, n)))
		if g.huge {
			v = g.hugeMilli()
		} else if g.chance(0.02) {
			v = -v
		}
		snap.ExternalMetrics = append(snap.ExternalMetrics, externalmetricsv1beta1.ExternalMetricValue{
			TypeMeta:     metav1.TypeMeta{APIVersion: "external.metrics.k8s.io/v1beta1", Kind: "ExternalMetricValue"},
			MetricName:   "queue",
			MetricLabels: labels,
			Timestamp:    mt(g.now.Add(-time.Duration(g.intn(60)) * time.Second)),
			Value:        *resource.NewMilliQuantity(v, resource.DecimalSI),
		})
	}
}
