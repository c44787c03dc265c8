// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

// ChangeKind says how a value override is expressed.
type ChangeKind int

// Change kinds.
const (
	// Absolute sets the value ("200m").
	Absolute ChangeKind = iota
	// Relative scales the current value ("+50%", "-20%").
	Relative
	// OfRequest sets usage as a share of the request ("80%").
	OfRequest
)

// Change is one parsed value: an absolute quantity, a factor on the current
// value, or a share of the request.
type Change struct {
	Kind ChangeKind
	// Value is the absolute quantity (Absolute).
	Value resource.Quantity
	// Factor multiplies the current value (Relative): +50% is 1.5.
	Factor float64
	// Percent is the share of the request (OfRequest): 80% is 80.
	Percent float64
	// Text is what the user wrote.
	Text string
}

func (c Change) String() string { return c.Text }

// ParseChange parses VALUE, +N% / -N% (relative), and, when ofRequest is
// allowed, N% (of the request). Negative absolute values are refused.
func ParseChange(s string, ofRequest bool) (Change, error) {
	s = strings.TrimSpace(s)
	c := Change{Text: s}
	switch {
	case s == "":
		return c, fmt.Errorf("empty value")
	case (s[0] == '+' || s[0] == '-') && strings.HasSuffix(s, "%"):
		p, err := strconv.ParseFloat(s[1:len(s)-1], 64)
		if err != nil || math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
			return c, fmt.Errorf("%q is not a relative change (like +50%% or -20%%)", s)
		}
		if s[0] == '-' {
			p = -p
		}
		if p < -100 {
			return c, fmt.Errorf("%q would make the value negative", s)
		}
		if p > MaxPercent {
			return c, fmt.Errorf("%q is above the limit of +%v%%", s, MaxPercent)
		}
		c.Kind, c.Factor = Relative, 1+p/100
		return c, nil
	case strings.HasSuffix(s, "%req"), strings.HasSuffix(s, "%"):
		if !ofRequest {
			return c, fmt.Errorf("%q: a share of the request only applies to cpu and memory; give a value, or +N%%/-N%% for a relative change", s)
		}
		num := strings.TrimSuffix(strings.TrimSuffix(s, "req"), "%")
		p, err := strconv.ParseFloat(num, 64)
		if err != nil || math.IsNaN(p) || math.IsInf(p, 0) {
			return c, fmt.Errorf("%q is not a share of the request (like 80%%)", s)
		}
		if p < 0 {
			return c, fmt.Errorf("%q is negative", s)
		}
		if p > MaxPercent {
			return c, fmt.Errorf("%q is above the limit of %v%% of the request", s, MaxPercent)
		}
		c.Kind, c.Percent = OfRequest, p
		return c, nil
	}
	q, err := ParseQuantity(s)
	if err != nil {
		return c, fmt.Errorf("%q is not a quantity (like 200m, 1.5, 512Mi)", s)
	}
	if q.Sign() < 0 {
		return c, fmt.Errorf("%q is negative", s)
	}
	if q.Cmp(MaxQuantity) > 0 {
		return c, fmt.Errorf("%q is above the limit of %s", s, MaxQuantity.String())
	}
	c.Kind, c.Value = Absolute, q
	return c, nil
}

// apply returns the new milli-value for a current milli-value (Absolute and
// Relative only). Relative results round up to the next milli-unit, as the
// controller rounds samples.
func (c Change) apply(current int64) int64 {
	if c.Kind == Relative {
		return saturate(float64(current)*c.Factor - 1e-9)
	}
	return c.Value.MilliValue()
}

// UsageOverride is --cpu or --memory: [CONTAINER=]VALUE.
type UsageOverride struct {
	// Container, when set, limits the change to that container.
	Container string
	Change    Change
}

// ParseUsage parses [CONTAINER=]VALUE.
func ParseUsage(s string) (UsageOverride, error) {
	var u UsageOverride
	if k, v, ok := strings.Cut(s, "="); ok {
		if k == "" {
			return u, fmt.Errorf("%q: the container name before '=' is empty", s)
		}
		u.Container, s = k, v
	}
	c, err := ParseChange(s, true)
	if err != nil {
		return u, err
	}
	u.Change = c
	return u, nil
}

// MetricOverride is --metric, --object or --external: NAME[{LABELS}]=VALUE.
type MetricOverride struct {
	Name string
	// Labels select one external series (NAME{queue=a}=VALUE); nil means
	// every series the HPA's selector matches.
	Labels map[string]string
	Change Change
}

// ParseMetric parses NAME=VALUE, and with labels allowed NAME{k=v,...}=VALUE.
func ParseMetric(s string, labelsAllowed bool) (MetricOverride, error) {
	var m MetricOverride
	var name, val string
	if i := strings.Index(s, "{"); i >= 0 {
		j := strings.Index(s, "}")
		if j < i || !strings.HasPrefix(s[j+1:], "=") {
			return m, fmt.Errorf("%q: want NAME{LABEL=VALUE,...}=VALUE", s)
		}
		if !labelsAllowed {
			return m, namedErr("%q: series labels only apply to %s", s, FieldExternal)
		}
		lbls, err := parseLabels(s[i+1 : j])
		if err != nil {
			return m, fmt.Errorf("%q: %w", s, err)
		}
		name, val, m.Labels = s[:i], s[j+2:], lbls
	} else {
		var ok bool
		name, val, ok = strings.Cut(s, "=")
		if !ok {
			return m, fmt.Errorf("%q: want NAME=VALUE", s)
		}
	}
	if name == "" {
		return m, fmt.Errorf("%q: the metric name is empty", s)
	}
	c, err := ParseChange(val, false)
	if err != nil {
		return m, err
	}
	m.Name, m.Change = name, c
	return m, nil
}

func parseLabels(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("label %q: want KEY=VALUE", kv)
		}
		out[k] = v
	}
	return out, nil
}

func labelsString(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, ",")
}

// TargetOverride is --target NAME=VALUE: cpu=70% (utilization), cpu=250m
// (average value), or a metric name with the value of its target type.
type TargetOverride struct {
	Metric string
	// Utilization is set for N% targets.
	Utilization *int32
	// Value is set otherwise.
	Value *resource.Quantity
	Text  string
}

// ParseTarget parses NAME=N% or NAME=VALUE.
func ParseTarget(s string) (TargetOverride, error) {
	t := TargetOverride{Text: s}
	name, val, ok := strings.Cut(s, "=")
	if !ok || name == "" || val == "" {
		return t, fmt.Errorf("%q: want METRIC=VALUE, like cpu=70%% or requests_per_second=100", s)
	}
	t.Metric = name
	if strings.HasSuffix(val, "%") {
		p, err := strconv.ParseInt(strings.TrimSuffix(val, "%"), 10, 32)
		if err != nil {
			return t, fmt.Errorf("%q: %q is not a whole percentage", s, val)
		}
		if p <= 0 {
			return t, fmt.Errorf("%q: a utilization target must be positive", s)
		}
		u := int32(p)
		t.Utilization = &u
		return t, nil
	}
	q, err := ParseQuantity(val)
	if err != nil {
		return t, fmt.Errorf("%q: %q is not a quantity", s, val)
	}
	if q.Sign() <= 0 {
		return t, fmt.Errorf("%q: a target must be positive", s)
	}
	if q.Cmp(MaxQuantity) > 0 {
		return t, fmt.Errorf("%q: %q is above the limit of %s", s, val, MaxQuantity.String())
	}
	t.Value = &q
	return t, nil
}

// ParseBehavior reads a behavior stanza: the behavior itself, or wrapped in
// "behavior:" or "spec: behavior:", in YAML or JSON. It checks what the API
// server would check of it.
func ParseBehavior(name string, data []byte) (*autoscalingv2.HorizontalPodAutoscalerBehavior, error) {
	var probe map[string]any
	if err := yaml.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("%s: %s", name, joinLines(err.Error()))
	}
	if spec, ok := probe["spec"].(map[string]any); ok {
		if b, ok := spec["behavior"]; ok {
			probe = map[string]any{"behavior": b}
		}
	}
	if b, ok := probe["behavior"]; ok {
		var err error
		if data, err = yaml.Marshal(b); err != nil {
			return nil, fmt.Errorf("%s: %s", name, joinLines(err.Error()))
		}
	}
	var out autoscalingv2.HorizontalPodAutoscalerBehavior
	if err := yaml.UnmarshalStrict(data, &out); err != nil {
		return nil, fmt.Errorf("%s: %s (want a behavior stanza: scaleUp and/or scaleDown)", name, joinLines(err.Error()))
	}
	if out.ScaleUp == nil && out.ScaleDown == nil {
		return nil, fmt.Errorf("%s: no scaleUp or scaleDown rules found", name)
	}
	for _, r := range []struct {
		dir   string
		rules *autoscalingv2.HPAScalingRules
	}{{"scaleUp", out.ScaleUp}, {"scaleDown", out.ScaleDown}} {
		if r.rules == nil {
			continue
		}
		if w := r.rules.StabilizationWindowSeconds; w != nil && (*w < 0 || *w > 3600) {
			return nil, fmt.Errorf("%s: %s.stabilizationWindowSeconds must be between 0 and 3600, got %d", name, r.dir, *w)
		}
		for i, p := range r.rules.Policies {
			if p.Value <= 0 || p.PeriodSeconds <= 0 || p.PeriodSeconds > 1800 {
				return nil, fmt.Errorf("%s: %s.policies[%d]: value must be positive and periodSeconds between 1 and 1800", name, r.dir, i)
			}
			if p.Type != autoscalingv2.PodsScalingPolicy && p.Type != autoscalingv2.PercentScalingPolicy {
				return nil, fmt.Errorf("%s: %s.policies[%d].type must be Pods or Percent, got %q", name, r.dir, i, p.Type)
			}
		}
	}
	return &out, nil
}

// joinLines makes a multi-line message (the YAML decoder lists its errors
// one per line) one line: a line ending in ':' runs on into the next, the
// others are separated by "; ".
func joinLines(msg string) string {
	var b strings.Builder
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if b.Len() > 0 {
			if strings.HasSuffix(b.String(), ":") {
				b.WriteString(" ")
			} else {
				b.WriteString("; ")
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// ParseQuantity is resource.ParseQuantity for the values of flags and
// traces, refusing a decimal exponent of more than two digits:
// "1e100000000" (or "E100000000") parses, but every later computation on it
// works on a number of a hundred million digits.
func ParseQuantity(s string) (resource.Quantity, error) {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp := strings.TrimLeft(s[i+1:], "+-")
		if len(exp) > 2 && strings.Trim(exp, "0123456789") == "" {
			return resource.Quantity{}, fmt.Errorf("%q: the exponent is out of range", s)
		}
	}
	return resource.ParseQuantity(s)
}
