// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install" // registers v2 conversion and defaults
	upstreamvalidation "k8s.io/kubernetes/pkg/apis/autoscaling/validation"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/validation"
)

var flagValidationCases = flag.Int("validation-cases", 0, "number of random HPAs of TestValidationParity (default 100000, or $DIFF_VALIDATION_CASES)")

// TestValidationParity generates random autoscaling/v2 HPAs, valid ones
// and ones with one to three fields broken across the API server's rules,
// and requires pkg/validation to agree with upstream's
// ValidateHorizontalPodAutoscaler (on the object defaulted and converted
// by upstream's registered functions, with the options the registry
// strategy passes for a create at v1.37.2, this module's graph): the same
// accept/reject, the same first error (field path, type and message) and
// the same errors. Half of the cases replay HPAScaleToZero on (the gate's
// default at v1.37.2), half off.
func TestValidationParity(t *testing.T) {
	n := *flagValidationCases
	if n == 0 {
		n = envInt("DIFF_VALIDATION_CASES", 100000)
	}
	start := time.Now()
	invalid, mismatches := 0, 0
	byRule := map[string]int{}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 0x5eed))
		hpa := genValidHPA(r)
		var broken []string
		for k := r.IntN(4); k > 0; k-- {
			m := hpaMutators[r.IntN(len(hpaMutators))]
			m.apply(r, hpa)
			broken = append(broken, m.name)
		}
		scaleToZero := seed%2 == 0

		ours, up := ourErrors(hpa, scaleToZero), upstreamErrors(t, hpa, scaleToZero)
		if len(up) > 0 {
			invalid++
			byRule[string(up[0].Type)+" "+generalize(up[0].Field)]++
		}
		if msg := diffErrors(ours, up); msg != "" {
			mismatches++
			if mismatches <= 5 {
				t.Errorf("seed %d (broken: %s, scale to zero %t): %s\nHPA spec: %+v", seed, strings.Join(broken, ", "), scaleToZero, msg, hpa.Spec)
			}
		}
	}
	elapsed := time.Since(start)
	t.Logf("%d random HPAs (%d invalid, %d valid) in %v; %d first-error kinds; %d disagreements", n, invalid, n-invalid, elapsed.Round(time.Millisecond), len(byRule), mismatches)
	if testing.Verbose() {
		keys := make([]string, 0, len(byRule))
		for k := range byRule {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			t.Logf("  %6d  %s", byRule[k], k)
		}
	}
	if invalid < n/3 || invalid > n*9/10 {
		t.Errorf("%d of %d cases invalid: the generator should make both kinds", invalid, n)
	}
}

// generalize drops indices from a field path, for the statistics.
func generalize(p string) string {
	var b strings.Builder
	skip := false
	for _, c := range p {
		switch {
		case c == '[':
			skip = true
			b.WriteString("[*]")
		case c == ']':
			skip = false
		case !skip:
			b.WriteRune(c)
		}
	}
	return b.String()
}

func ourErrors(in *autoscalingv2.HorizontalPodAutoscaler, scaleToZero bool) field.ErrorList {
	h := in.DeepCopy()
	engine.DefaultHPA(h)
	// Upstream's validation runs in this process: the version of this
	// module's graph, whatever DIFF_VERSION says.
	p, err := profile.New(profile.MustParse(defaultVersion), map[profile.Gate]bool{profile.HPAScaleToZero: scaleToZero})
	if err != nil {
		panic(err)
	}
	return validation.HPA(h, validation.OptionsFor(p))
}

func upstreamErrors(t *testing.T, in *autoscalingv2.HorizontalPodAutoscaler, scaleToZero bool) field.ErrorList {
	t.Helper()
	v2 := in.DeepCopy()
	legacyscheme.Scheme.Default(v2)
	var internal autoscaling.HorizontalPodAutoscaler
	if err := legacyscheme.Scheme.Convert(v2, &internal, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	opts := upstreamvalidation.HorizontalPodAutoscalerSpecValidationOptions{
		MinReplicasLowerBound:           1,
		ScaleTargetRefValidationOptions: upstreamvalidation.CrossVersionObjectReferenceValidationOptions{AllowEmptyAPIGroup: internal.Spec.ScaleTargetRef.Kind == "ReplicationController"},
		ObjectMetricsValidationOptions:  upstreamvalidation.CrossVersionObjectReferenceValidationOptions{AllowEmptyAPIGroup: true},
	}
	if scaleToZero {
		opts.MinReplicasLowerBound = 0
	}
	return upstreamvalidation.ValidateHorizontalPodAutoscaler(&internal, opts)
}

// diffErrors says how two error lists differ: acceptance, the first
// error, then the whole list as a multiset (upstream reports some
// Forbidden errors in map order).
func diffErrors(ours, up field.ErrorList) string {
	switch {
	case len(ours) == 0 && len(up) == 0:
		return ""
	case len(ours) == 0:
		return "we accept, upstream refuses: " + up[0].Error()
	case len(up) == 0:
		return "we refuse, upstream accepts: " + ours[0].Error()
	case unorderedForbidden(ours[0], up[0]):
		// Two source blocks besides the one of the type: upstream names
		// them in map order; the multiset check below still applies.
	case ours[0].Field != up[0].Field || ours[0].Type != up[0].Type:
		return fmt.Sprintf("first error:\n ours     %s\n upstream %s", ours[0].Error(), up[0].Error())
	case ours[0].Error() != up[0].Error():
		return fmt.Sprintf("first message:\n ours     %s\n upstream %s", ours[0].Error(), up[0].Error())
	}
	texts := func(l field.ErrorList) []string {
		out := make([]string, len(l))
		for i, e := range l {
			out[i] = e.Error()
		}
		slices.Sort(out)
		return out
	}
	if a, b := texts(ours), texts(up); !slices.Equal(a, b) {
		return fmt.Sprintf("errors:\n ours     %q\n upstream %q", a, b)
	}
	return ""
}

// unorderedForbidden reports whether a and b are both "must populate the
// given metric source only" errors of the same metric, which upstream
// reports in no set order.
func unorderedForbidden(a, b *field.Error) bool {
	const detail = "must populate the given metric source only"
	parent := func(p string) string { return p[:max(strings.LastIndex(p, "."), 0)] }
	return a.Type == field.ErrorTypeForbidden && b.Type == field.ErrorTypeForbidden &&
		a.Detail == detail && b.Detail == detail && parent(a.Field) == parent(b.Field)
}

// ---- the generator ----

func vq(s string) *resource.Quantity { q := resource.MustParse(s); return &q }

func vGenTarget(r *rand.Rand, kind string) autoscalingv2.MetricTarget {
	switch kind {
	case "resource":
		if r.IntN(2) == 0 {
			return autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: i32p(int32(1 + r.IntN(150)))}
		}
		return autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: vq(fmt.Sprintf("%dm", 1+r.IntN(2000)))}
	case "pods":
		return autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: vq(fmt.Sprint(1 + r.IntN(100)))}
	default: // object, external
		if r.IntN(2) == 0 {
			return autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: vq(fmt.Sprint(1 + r.IntN(1000)))}
		}
		return autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: vq(fmt.Sprint(1 + r.IntN(100)))}
	}
}

func vGenMetric(r *rand.Rand) autoscalingv2.MetricSpec {
	id := autoscalingv2.MetricIdentifier{Name: pick(r, "rps", "queue_length", "hits.total", "latency-p99")}
	if r.IntN(3) == 0 {
		id.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	}
	switch r.IntN(5) {
	case 0:
		return autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
			Name: pick(r, corev1.ResourceCPU, corev1.ResourceMemory), Target: vGenTarget(r, "resource"),
		}}
	case 1:
		return autoscalingv2.MetricSpec{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricSource{
			Name: pick(r, corev1.ResourceCPU, corev1.ResourceMemory, "hugepages-2Mi", "example.com/gpu"), Container: pick(r, "app", "sidecar-1"), Target: vGenTarget(r, "resource"),
		}}
	case 2:
		return autoscalingv2.MetricSpec{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricSource{Metric: id, Target: vGenTarget(r, "pods")}}
	case 3:
		return autoscalingv2.MetricSpec{Type: autoscalingv2.ObjectMetricSourceType, Object: &autoscalingv2.ObjectMetricSource{
			DescribedObject: autoscalingv2.CrossVersionObjectReference{Kind: pick(r, "Ingress", "Service"), Name: "main", APIVersion: pick(r, "networking.k8s.io/v1", "v1", "")},
			Metric:          id, Target: vGenTarget(r, "object"),
		}}
	default:
		return autoscalingv2.MetricSpec{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{Metric: id, Target: vGenTarget(r, "external")}}
	}
}

func vGenRules(r *rand.Rand) *autoscalingv2.HPAScalingRules {
	if r.IntN(3) == 0 {
		return nil
	}
	rules := &autoscalingv2.HPAScalingRules{}
	if r.IntN(2) == 0 {
		rules.StabilizationWindowSeconds = i32p(int32(r.IntN(3601)))
	}
	if r.IntN(2) == 0 {
		sp := pick(r, autoscalingv2.MaxChangePolicySelect, autoscalingv2.MinChangePolicySelect, autoscalingv2.DisabledPolicySelect)
		rules.SelectPolicy = &sp
	}
	for k := r.IntN(3); k > 0; k-- {
		rules.Policies = append(rules.Policies, autoscalingv2.HPAScalingPolicy{
			Type: pick(r, autoscalingv2.PodsScalingPolicy, autoscalingv2.PercentScalingPolicy), Value: int32(1 + r.IntN(200)), PeriodSeconds: int32(1 + r.IntN(1800)),
		})
	}
	if r.IntN(3) == 0 {
		rules.Tolerance = vq(pick(r, "0", "0.05", "1", "150m"))
	}
	return rules
}

func genValidHPA(r *rand.Rand) *autoscalingv2.HorizontalPodAutoscaler {
	h := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: pick(r, "web", "api-v2", "a.b"), Namespace: pick(r, "shop", "default")},
	}
	if r.IntN(2) == 0 {
		h.Spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: pick(r, "Deployment", "StatefulSet"), Name: "web"}
	} else {
		h.Spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference{APIVersion: "v1", Kind: "ReplicationController", Name: "web"}
	}
	minR := int32(1 + r.IntN(5))
	if r.IntN(4) > 0 {
		h.Spec.MinReplicas = &minR
	}
	h.Spec.MaxReplicas = minR + int32(r.IntN(20))
	for k := r.IntN(4); k > 0; k-- {
		h.Spec.Metrics = append(h.Spec.Metrics, vGenMetric(r))
	}
	if r.IntN(2) == 0 {
		h.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: vGenRules(r), ScaleDown: vGenRules(r)}
	}
	return h
}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

type hpaMutator struct {
	name  string
	apply func(*rand.Rand, *autoscalingv2.HorizontalPodAutoscaler)
}

// aMetric returns a random metric of h, adding one when it has none.
func aMetric(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) *autoscalingv2.MetricSpec {
	if len(h.Spec.Metrics) == 0 {
		h.Spec.Metrics = append(h.Spec.Metrics, vGenMetric(r))
	}
	return &h.Spec.Metrics[r.IntN(len(h.Spec.Metrics))]
}

// aTarget returns the target of a random metric, and its source kind.
func aTarget(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) *autoscalingv2.MetricTarget {
	m := aMetric(r, h)
	switch {
	case m.Resource != nil:
		return &m.Resource.Target
	case m.ContainerResource != nil:
		return &m.ContainerResource.Target
	case m.Pods != nil:
		return &m.Pods.Target
	case m.Object != nil:
		return &m.Object.Target
	case m.External != nil:
		return &m.External.Target
	}
	m.Type, m.External = autoscalingv2.ExternalMetricSourceType, &autoscalingv2.ExternalMetricSource{Metric: autoscalingv2.MetricIdentifier{Name: "x"}}
	return &m.External.Target
}

// anIdentifier returns the metric identifier of a random Pods, Object or
// External metric, making one when needed.
func anIdentifier(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) *autoscalingv2.MetricIdentifier {
	for range 4 {
		m := aMetric(r, h)
		switch {
		case m.Pods != nil:
			return &m.Pods.Metric
		case m.Object != nil:
			return &m.Object.Metric
		case m.External != nil:
			return &m.External.Metric
		}
	}
	h.Spec.Metrics = append(h.Spec.Metrics, autoscalingv2.MetricSpec{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricSource{
		Metric: autoscalingv2.MetricIdentifier{Name: "rps"}, Target: vGenTarget(r, "pods"),
	}})
	return &h.Spec.Metrics[len(h.Spec.Metrics)-1].Pods.Metric
}

// aRules returns random scaling rules of h, making a behavior when needed.
func aRules(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) *autoscalingv2.HPAScalingRules {
	if h.Spec.Behavior == nil {
		h.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{}
	}
	p := &h.Spec.Behavior.ScaleUp
	if r.IntN(2) == 0 {
		p = &h.Spec.Behavior.ScaleDown
	}
	if *p == nil {
		*p = &autoscalingv2.HPAScalingRules{}
	}
	return *p
}

func aPolicy(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) *autoscalingv2.HPAScalingPolicy {
	rules := aRules(r, h)
	if len(rules.Policies) == 0 {
		rules.Policies = append(rules.Policies, autoscalingv2.HPAScalingPolicy{Type: autoscalingv2.PodsScalingPolicy, Value: 1, PeriodSeconds: 15})
	}
	return &rules.Policies[r.IntN(len(rules.Policies))]
}

var hpaMutators = []hpaMutator{
	{"minReplicas", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		h.Spec.MinReplicas = i32p(pick[int32](r, -3, -1, 0, 0, 0, h.Spec.MaxReplicas+1, 50))
	}},
	{"maxReplicas", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		h.Spec.MaxReplicas = pick[int32](r, -5, -1, 0, 1)
	}},
	{"scale to zero with an object metric", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		h.Spec.MinReplicas = i32p(0)
		h.Spec.Metrics = append(h.Spec.Metrics, autoscalingv2.MetricSpec{Type: autoscalingv2.ObjectMetricSourceType, Object: &autoscalingv2.ObjectMetricSource{
			DescribedObject: autoscalingv2.CrossVersionObjectReference{Kind: "Service", Name: "q", APIVersion: "v1"}, Metric: autoscalingv2.MetricIdentifier{Name: "depth"}, Target: vGenTarget(r, "object"),
		}})
	}},
	{"metadata.name", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		h.Name = pick(r, "", "Web", "web_1", strings.Repeat("a", 254), "-web")
	}},
	{"metadata.namespace", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		h.Namespace = pick(r, "", "Shop", "a.b")
	}},
	{"metadata.labels", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		h.Labels = map[string]string{pick(r, "bad key", "a/b/c", "ok"): pick(r, "v", "bad value!", strings.Repeat("x", 64))}
	}},
	{"metadata.annotations", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		h.Annotations = map[string]string{pick(r, "bad key", "example.com/ok"): "v"}
	}},
	{"metadata.finalizers", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		h.Finalizers = []string{pick(r, "foo", "example.com/foo", "kubernetes", "orphan", "Bad/..")}
	}},
	{"metadata.generation", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) { h.Generation = -1 }},
	{"scaleTargetRef.kind", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		h.Spec.ScaleTargetRef.Kind = pick(r, "", "..", "a/b", "a%b", "ReplicationController")
	}},
	{"scaleTargetRef.name", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		h.Spec.ScaleTargetRef.Name = pick(r, "", ".", "a/b", "a%2F")
	}},
	{"scaleTargetRef.apiVersion", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		h.Spec.ScaleTargetRef.APIVersion = pick(r, "", "v1", "apps/v1/x", "apps/", "/v1")
	}},
	{"no metrics", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) { h.Spec.Metrics = nil }},
	{"metric type", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		m := aMetric(r, h)
		m.Type = pick[autoscalingv2.MetricSourceType](r, "", "CheddarCheese", autoscalingv2.ObjectMetricSourceType, autoscalingv2.PodsMetricSourceType,
			autoscalingv2.ResourceMetricSourceType, autoscalingv2.ContainerResourceMetricSourceType, autoscalingv2.ExternalMetricSourceType)
	}},
	{"extra source", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		m := aMetric(r, h)
		other := vGenMetric(r)
		switch {
		case other.Resource != nil && m.Resource == nil:
			m.Resource = other.Resource
		case other.Pods != nil && m.Pods == nil:
			m.Pods = other.Pods
		case other.Object != nil && m.Object == nil:
			m.Object = other.Object
		case other.External != nil && m.External == nil:
			m.External = other.External
		case other.ContainerResource != nil && m.ContainerResource == nil:
			m.ContainerResource = other.ContainerResource
		}
	}},
	{"missing source", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		m := aMetric(r, h)
		m.Resource, m.Pods, m.Object, m.External, m.ContainerResource = nil, nil, nil, nil, nil
	}},
	{"metric name", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		anIdentifier(r, h).Name = pick(r, "", "..", "a/b", "a%b")
	}},
	{"target type", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		aTarget(r, h).Type = pick[autoscalingv2.MetricTargetType](r, "", "Percent", autoscalingv2.UtilizationMetricType, autoscalingv2.ValueMetricType, autoscalingv2.AverageValueMetricType)
	}},
	{"target value", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		aTarget(r, h).Value = pick(r, vq("0"), vq("-1"), vq("5"), nil)
	}},
	{"target averageValue", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		aTarget(r, h).AverageValue = pick(r, vq("0"), vq("-100m"), vq("500m"), nil)
	}},
	{"target averageUtilization", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		aTarget(r, h).AverageUtilization = pick(r, i32p(0), i32p(-1), i32p(50), nil)
	}},
	{"resource name", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		name := pick[corev1.ResourceName](r, "", "pods", "example.com/foo", "requests.cpu", "kubernetes.io/foo", "Bad Name", "hugepages-1Gi", "requests.example.com/x", "storage")
		for range 4 {
			m := aMetric(r, h)
			switch {
			case m.Resource != nil:
				m.Resource.Name = name
				return
			case m.ContainerResource != nil:
				m.ContainerResource.Name = name
				return
			}
		}
	}},
	{"container", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		c := pick(r, "", "App", "a_b", strings.Repeat("c", 64))
		for range 4 {
			if m := aMetric(r, h); m.ContainerResource != nil {
				m.ContainerResource.Container = c
				return
			}
		}
	}},
	{"describedObject", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		for range 4 {
			if m := aMetric(r, h); m.Object != nil {
				d := &m.Object.DescribedObject
				switch r.IntN(3) {
				case 0:
					d.Kind = pick(r, "", "a/b")
				case 1:
					d.Name = pick(r, "", "..")
				default:
					d.APIVersion = pick(r, "", "a/b/c", "/v1")
				}
				return
			}
		}
	}},
	{"stabilizationWindowSeconds", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		aRules(r, h).StabilizationWindowSeconds = i32p(pick[int32](r, -1, 0, 3600, 3601, 4000))
	}},
	{"selectPolicy", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		sp := pick[autoscalingv2.ScalingPolicySelect](r, "", "Maximum", "max", autoscalingv2.DisabledPolicySelect)
		aRules(r, h).SelectPolicy = &sp
	}},
	{"empty policies", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		aRules(r, h).Policies = []autoscalingv2.HPAScalingPolicy{}
	}},
	{"policy type", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		aPolicy(r, h).Type = pick[autoscalingv2.HPAScalingPolicyType](r, "", "Replicas", "pods")
	}},
	{"policy value", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		aPolicy(r, h).Value = pick[int32](r, -1, 0, 1)
	}},
	{"policy periodSeconds", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		aPolicy(r, h).PeriodSeconds = pick[int32](r, -1, 0, 1800, 1801)
	}},
	{"tolerance", func(r *rand.Rand, h *autoscalingv2.HorizontalPodAutoscaler) {
		aRules(r, h).Tolerance = vq(pick(r, "-1", "-0.01", "0", "2"))
	}},
}
