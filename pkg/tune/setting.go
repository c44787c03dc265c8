// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package tune

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/metricsource"
)

// Setting is one candidate: the knobs of an HPA that tune varies.
type Setting struct {
	// Targets holds each metric's target, in the order of spec.metrics, in
	// the unit of its target type: percent for Utilization, milli-units
	// for Value and AverageValue.
	Targets []int64
	// UpWindow and DownWindow are the stabilization windows in seconds.
	UpWindow, DownWindow int32
	// Up and Down are the scaling policies of each direction.
	Up, Down Policy
	// UpTolerance and DownTolerance are the per-direction tolerances in
	// thousandths (100 is 0.1); NoTolerance leaves the field unset, so the
	// controller's own tolerance applies.
	UpTolerance, DownTolerance int64
	// MinReplicas is spec.minReplicas.
	MinReplicas int32
}

// NoTolerance marks a tolerance left to the controller.
const NoTolerance int64 = -1

// Rule is one scaling policy: at most Value pods (or Value percent of the
// current count, when Percent) per Period seconds.
type Rule struct {
	Percent bool
	Value   int32
	Period  int32
}

// Policy is the policies of one direction and how they combine.
type Policy struct {
	Rules []Rule
	// Select is selectPolicy: Max (the default), Min or Disabled.
	Select autoscalingv2.ScalingPolicySelect
}

// The controller's defaults for an HPA without behavior, or a direction
// without rules.
var (
	defaultUp   = Policy{Rules: []Rule{{Value: 4, Period: 15}, {Percent: true, Value: 100, Period: 15}}, Select: autoscalingv2.MaxChangePolicySelect}
	defaultDown = Policy{Rules: []Rule{{Percent: true, Value: 100, Period: 15}}, Select: autoscalingv2.MaxChangePolicySelect}
)

// FromHPA reads the setting of hpa, with the controller's defaults where a
// field is unset; downWindow is the controller's default scale-down window
// (--horizontal-pod-autoscaler-downscale-stabilization).
func FromHPA(hpa *autoscalingv2.HorizontalPodAutoscaler, downWindow time.Duration) (Setting, error) {
	s := Setting{UpTolerance: NoTolerance, DownTolerance: NoTolerance, MinReplicas: 1, Up: defaultUp, Down: defaultDown, DownWindow: int32(downWindow / time.Second)}
	if hpa.Spec.MinReplicas != nil {
		s.MinReplicas = *hpa.Spec.MinReplicas
	}
	for i := range hpa.Spec.Metrics {
		t, err := targetOf(&hpa.Spec.Metrics[i])
		if err != nil {
			return Setting{}, fmt.Errorf("spec.metrics[%d]: %w", i, err)
		}
		v, err := targetValue(t)
		if err != nil {
			return Setting{}, fmt.Errorf("spec.metrics[%d].target: %w", i, err)
		}
		s.Targets = append(s.Targets, v)
	}
	if b := hpa.Spec.Behavior; b != nil {
		readRules(b.ScaleUp, &s.UpWindow, &s.Up, &s.UpTolerance)
		readRules(b.ScaleDown, &s.DownWindow, &s.Down, &s.DownTolerance)
	}
	return s, nil
}

func readRules(r *autoscalingv2.HPAScalingRules, window *int32, p *Policy, tol *int64) {
	if r == nil {
		return
	}
	if r.StabilizationWindowSeconds != nil {
		*window = *r.StabilizationWindowSeconds
	}
	if len(r.Policies) > 0 {
		p.Rules = nil
		for _, q := range r.Policies {
			p.Rules = append(p.Rules, Rule{Percent: q.Type == autoscalingv2.PercentScalingPolicy, Value: q.Value, Period: q.PeriodSeconds})
		}
	}
	if r.SelectPolicy != nil {
		p.Select = *r.SelectPolicy
	}
	if r.Tolerance != nil {
		*tol = r.Tolerance.MilliValue()
	}
}

// targetOf returns the target of a metric, whatever its source, and an
// error naming its type when it sets no source.
func targetOf(m *autoscalingv2.MetricSpec) (*autoscalingv2.MetricTarget, error) {
	if t := metricsource.Target(m); t != nil {
		return t, nil
	}
	return nil, fmt.Errorf("metric of type %q has no source", m.Type)
}

func targetValue(t *autoscalingv2.MetricTarget) (int64, error) {
	switch t.Type {
	case autoscalingv2.UtilizationMetricType:
		if t.AverageUtilization == nil {
			return 0, fmt.Errorf("averageUtilization is not set")
		}
		return int64(*t.AverageUtilization), nil
	case autoscalingv2.AverageValueMetricType:
		if t.AverageValue == nil {
			return 0, fmt.Errorf("averageValue is not set")
		}
		return t.AverageValue.MilliValue(), nil
	case autoscalingv2.ValueMetricType:
		if t.Value == nil {
			return 0, fmt.Errorf("value is not set")
		}
		return t.Value.MilliValue(), nil
	}
	return 0, fmt.Errorf("unknown target type %q", t.Type)
}

// Apply returns a copy of hpa with the setting: the metrics' targets,
// minReplicas, and a behavior that states every field of both directions
// (so the copy does not depend on the controller's defaults).
func (s Setting) Apply(hpa *autoscalingv2.HorizontalPodAutoscaler) (*autoscalingv2.HorizontalPodAutoscaler, error) {
	out := hpa.DeepCopy()
	if len(s.Targets) != len(out.Spec.Metrics) {
		return nil, fmt.Errorf("the setting has %d targets, the HPA %d metrics", len(s.Targets), len(out.Spec.Metrics))
	}
	for i := range out.Spec.Metrics {
		t, err := targetOf(&out.Spec.Metrics[i])
		if err != nil {
			return nil, fmt.Errorf("spec.metrics[%d]: %w", i, err)
		}
		setTarget(t, s.Targets[i])
	}
	minReplicas := s.MinReplicas
	out.Spec.MinReplicas = &minReplicas
	out.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{
		ScaleUp:   rules(s.UpWindow, s.Up, s.UpTolerance),
		ScaleDown: rules(s.DownWindow, s.Down, s.DownTolerance),
	}
	return out, nil
}

func setTarget(t *autoscalingv2.MetricTarget, v int64) {
	switch t.Type {
	case autoscalingv2.UtilizationMetricType:
		u := int32(v)
		t.AverageUtilization = &u
	case autoscalingv2.AverageValueMetricType:
		t.AverageValue = milliQuantity(v)
	case autoscalingv2.ValueMetricType:
		t.Value = milliQuantity(v)
	}
}

// milliQuantity is v thousandths, in the shortest form (500m, 2, 1500m).
func milliQuantity(v int64) *resource.Quantity {
	var q *resource.Quantity
	if v%1000 == 0 {
		q = resource.NewQuantity(v/1000, resource.DecimalSI)
	} else {
		q = resource.NewMilliQuantity(v, resource.DecimalSI)
	}
	return q
}

func rules(window int32, p Policy, tol int64) *autoscalingv2.HPAScalingRules {
	w := window
	sel := p.Select
	r := &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: &w, SelectPolicy: &sel}
	for _, q := range p.Rules {
		typ := autoscalingv2.PodsScalingPolicy
		if q.Percent {
			typ = autoscalingv2.PercentScalingPolicy
		}
		r.Policies = append(r.Policies, autoscalingv2.HPAScalingPolicy{Type: typ, Value: q.Value, PeriodSeconds: q.Period})
	}
	if tol != NoTolerance {
		r.Tolerance = resource.NewMilliQuantity(tol, resource.DecimalSI)
	}
	return r
}

// String writes the policy as the --set flag takes it: the rules joined by
// "+", each N/PERIOD (pods) or N%/PERIOD (percent), then ":min" when Select
// is Min; "disabled" when scaling that way is off.
func (p Policy) String() string {
	if p.Select == autoscalingv2.DisabledPolicySelect {
		return "disabled"
	}
	parts := make([]string, 0, len(p.Rules))
	for _, r := range p.Rules {
		pct := ""
		if r.Percent {
			pct = "%"
		}
		parts = append(parts, fmt.Sprintf("%d%s/%ds", r.Value, pct, r.Period))
	}
	s := strings.Join(parts, "+")
	if p.Select == autoscalingv2.MinChangePolicySelect {
		s += ":min"
	}
	return s
}

// ParsePolicy reads a policy as Policy.String writes it ("4/15s+100%/15s",
// "1/60s", "10%/60s:min", "disabled"); a period may be any duration of whole
// seconds (1m).
func ParsePolicy(s string) (Policy, error) {
	s = strings.TrimSpace(s)
	if s == "disabled" {
		return Policy{Select: autoscalingv2.DisabledPolicySelect}, nil
	}
	p := Policy{Select: autoscalingv2.MaxChangePolicySelect}
	if rest, ok := strings.CutSuffix(s, ":min"); ok {
		s, p.Select = rest, autoscalingv2.MinChangePolicySelect
	} else if rest, ok := strings.CutSuffix(s, ":max"); ok {
		s = rest
	}
	if s == "" {
		return Policy{}, fmt.Errorf("no rule: want N/PERIOD or N%%/PERIOD joined by +, e.g. 4/15s+100%%/15s")
	}
	for _, part := range strings.Split(s, "+") {
		num, period, ok := strings.Cut(strings.TrimSpace(part), "/")
		if !ok {
			return Policy{}, fmt.Errorf("%q: want N/PERIOD (pods) or N%%/PERIOD (percent), e.g. 4/15s", part)
		}
		r := Rule{}
		if n, ok := strings.CutSuffix(num, "%"); ok {
			num, r.Percent = n, true
		}
		v, err := strconv.ParseInt(num, 10, 32)
		if err != nil || v <= 0 {
			return Policy{}, fmt.Errorf("%q: the value must be a positive whole number", part)
		}
		d, err := time.ParseDuration(period)
		if err != nil || d <= 0 || d%time.Second != 0 || d > 1800*time.Second {
			return Policy{}, fmt.Errorf("%q: the period must be whole seconds between 1s and 30m", part)
		}
		r.Value, r.Period = int32(v), int32(d/time.Second)
		p.Rules = append(p.Rules, r)
	}
	return p, nil
}

// speed is how many pods per minute the policy lets a workload of 10
// replicas change by: the order of the policy axes, slowest first.
func (p Policy) speed() float64 {
	if p.Select == autoscalingv2.DisabledPolicySelect || len(p.Rules) == 0 {
		return 0
	}
	best := math.NaN()
	for _, r := range p.Rules {
		v := float64(r.Value)
		if r.Percent {
			v = 10 * v / 100
		}
		per := v * 60 / float64(r.Period)
		switch {
		case math.IsNaN(best):
			best = per
		case p.Select == autoscalingv2.MinChangePolicySelect:
			best = math.Min(best, per)
		default:
			best = math.Max(best, per)
		}
	}
	return best
}

// Equal reports whether two policies are the same rules (in any order)
// with the same selection.
func (p Policy) Equal(q Policy) bool {
	if p.Select != q.Select || len(p.Rules) != len(q.Rules) {
		return false
	}
	a, b := slices.Clone(p.Rules), slices.Clone(q.Rules)
	cmp := func(x, y Rule) int {
		if x.Percent != y.Percent {
			if x.Percent {
				return 1
			}
			return -1
		}
		if x.Value != y.Value {
			return int(x.Value - y.Value)
		}
		return int(x.Period - y.Period)
	}
	slices.SortFunc(a, cmp)
	slices.SortFunc(b, cmp)
	return slices.Equal(a, b)
}
