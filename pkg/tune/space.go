// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package tune

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Dimension names a knob of the search space, as --vary and --set spell it.
type Dimension string

// The dimensions. DimTarget has one axis per metric.
const (
	DimTarget        Dimension = "target"
	DimUpWindow      Dimension = "up-window"
	DimDownWindow    Dimension = "down-window"
	DimUpPolicy      Dimension = "up-policy"
	DimDownPolicy    Dimension = "down-policy"
	DimUpTolerance   Dimension = "up-tolerance"
	DimDownTolerance Dimension = "down-tolerance"
	DimMinReplicas   Dimension = "min-replicas"
)

// Dimensions lists every dimension in the order the axes come in.
var Dimensions = []Dimension{DimTarget, DimUpWindow, DimDownWindow, DimUpPolicy, DimDownPolicy, DimUpTolerance, DimDownTolerance, DimMinReplicas}

// DefaultVary is what tune varies unless told otherwise: minReplicas is
// the user's floor, and the tolerances only where the controller honours
// them (SpaceOptions.Tolerance).
var DefaultVary = []Dimension{DimTarget, DimUpWindow, DimDownWindow, DimUpPolicy, DimDownPolicy, DimUpTolerance, DimDownTolerance}

// Value is one point of an axis.
type Value struct {
	// Label is the value as the output and --set write it ("70%", "60s",
	// "4/15s+100%/15s", "0.05").
	Label string
	set   func(*Setting)
	order float64
}

// Axis is one dimension of the space (one metric's target, a window, a
// policy, ...), its values in order along it.
type Axis struct {
	Dim Dimension
	// Metric is the metric's index for a target axis.
	Metric int
	// Name is how the output names the axis ("target of cpu", "up-window").
	Name string
	// Fine holds every value, in order; Coarse the indices of the first
	// round's values; Current the index of the HPA's own value.
	Fine    []Value
	Coarse  []int
	Current int
}

// Space is the axes of a search, and the setting they start from.
type Space struct {
	Base Setting
	Axes []Axis
}

// Setting returns the setting at one index per axis.
func (sp *Space) Setting(idx []int) Setting {
	s := sp.Base
	s.Targets = slices.Clone(s.Targets)
	s.Up.Rules = slices.Clone(s.Up.Rules)
	s.Down.Rules = slices.Clone(s.Down.Rules)
	for a, i := range idx {
		sp.Axes[a].Fine[i].set(&s)
	}
	return s
}

// CurrentIndex is the index vector of the HPA's own setting.
func (sp *Space) CurrentIndex() []int {
	idx := make([]int, len(sp.Axes))
	for a := range sp.Axes {
		idx[a] = sp.Axes[a].Current
	}
	return idx
}

// Size is the number of settings of the whole fine grid (saturating).
func (sp *Space) Size() int {
	n := 1
	for _, a := range sp.Axes {
		if n > math.MaxInt32/len(a.Fine) {
			return math.MaxInt32
		}
		n *= len(a.Fine)
	}
	return n
}

// MetricInfo describes one metric of the HPA for the target axes.
type MetricInfo struct {
	// Name names the metric in the output ("cpu", "queue{q=jobs}").
	Name string
	// Type is its target type.
	Type autoscalingv2.MetricTargetType
}

// SpaceOptions shape the default space.
type SpaceOptions struct {
	// Metrics describes spec.metrics, in order.
	Metrics []MetricInfo
	// Vary lists the dimensions to vary (DefaultVary when empty); the
	// others stay at the HPA's values.
	Vary []Dimension
	// Set gives a dimension's values instead of the default grid, as
	// --set DIM=V1,V2,... writes them (every value is replayed at the
	// coarse round). "target" sets every metric's; "target:N" (N from 0)
	// one metric's.
	Set map[string][]string
	// Tolerance says whether the controller version honours the
	// per-direction tolerance (behavior.scaleUp/scaleDown.tolerance); the
	// tolerance dimensions are dropped otherwise.
	Tolerance bool
	// MaxReplicas bounds the minReplicas axis.
	MaxReplicas int32
	// VaryName and SetName name the options that set Vary and Set in
	// errors (the command's flags, a tool's arguments); default "vary"
	// and "set".
	VaryName, SetName string
}

func (o SpaceOptions) varyName() string { return orName(o.VaryName, "vary") }
func (o SpaceOptions) setName() string  { return orName(o.SetName, "set") }

func orName(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// NewSpace builds the search space around the HPA's setting cur.
func NewSpace(cur Setting, o SpaceOptions) (*Space, error) {
	if len(o.Metrics) != len(cur.Targets) {
		return nil, fmt.Errorf("%d metrics described for %d targets", len(o.Metrics), len(cur.Targets))
	}
	vary := o.Vary
	if len(vary) == 0 {
		vary = DefaultVary
	}
	for _, d := range vary {
		if !slices.Contains(Dimensions, d) {
			return nil, fmt.Errorf("%s: unknown dimension %q (known: %s)", o.varyName(), d, dimList())
		}
	}
	for k := range o.Set {
		d, _, _ := strings.Cut(k, ":")
		if !slices.Contains(Dimensions, Dimension(d)) {
			return nil, fmt.Errorf("%s %s: unknown dimension %q (known: %s)", o.setName(), k, d, dimList())
		}
	}
	sp := &Space{Base: cur}
	on := func(d Dimension) bool { return slices.Contains(vary, d) }
	for i, m := range o.Metrics {
		given, err := o.values(DimTarget, i)
		if err != nil {
			return nil, err
		}
		if !on(DimTarget) && given == nil {
			continue
		}
		ax, err := targetAxis(i, m, cur.Targets[i], given)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", o.setName(), DimTarget, err)
		}
		sp.Axes = append(sp.Axes, ax)
	}
	type build func([]string) (Axis, error)
	for _, d := range []struct {
		dim Dimension
		b   build
	}{
		{DimUpWindow, func(g []string) (Axis, error) {
			return windowAxis(DimUpWindow, cur.UpWindow, []int32{0, 15, 30, 60, 90, 120, 180, 300}, []int32{0, 60, 180}, g, func(s *Setting, v int32) { s.UpWindow = v })
		}},
		{DimDownWindow, func(g []string) (Axis, error) {
			return windowAxis(DimDownWindow, cur.DownWindow, []int32{0, 15, 30, 60, 90, 120, 180, 240, 300, 450, 600}, []int32{0, 60, 120, 300}, g, func(s *Setting, v int32) { s.DownWindow = v })
		}},
		{DimUpPolicy, func(g []string) (Axis, error) {
			return policyAxis(DimUpPolicy, cur.Up, []string{"1/60s", "1/30s", "1/15s", "2/15s", "4/15s", "100%/15s", "4/15s+100%/15s", "8/15s+200%/15s"},
				[]string{"1/30s", "4/15s+100%/15s", "8/15s+200%/15s"}, g, func(s *Setting, p Policy) { s.Up = p })
		}},
		{DimDownPolicy, func(g []string) (Axis, error) {
			return policyAxis(DimDownPolicy, cur.Down, []string{"1/120s", "1/60s", "1/30s", "10%/60s", "1/15s", "2/15s", "50%/60s", "50%/15s", "100%/15s"},
				[]string{"1/60s", "10%/60s", "100%/15s"}, g, func(s *Setting, p Policy) { s.Down = p })
		}},
		{DimUpTolerance, func(g []string) (Axis, error) {
			return toleranceAxis(DimUpTolerance, cur.UpTolerance, g, func(s *Setting, v int64) { s.UpTolerance = v })
		}},
		{DimDownTolerance, func(g []string) (Axis, error) {
			return toleranceAxis(DimDownTolerance, cur.DownTolerance, g, func(s *Setting, v int64) { s.DownTolerance = v })
		}},
		{DimMinReplicas, func(g []string) (Axis, error) { return minAxis(cur.MinReplicas, o.MaxReplicas, g) }},
	} {
		given, err := o.values(d.dim, -1)
		if err != nil {
			return nil, err
		}
		if (d.dim == DimUpTolerance || d.dim == DimDownTolerance) && !o.Tolerance {
			if given != nil {
				return nil, fmt.Errorf("%s %s: the controller version does not honour a per-direction tolerance (HPAConfigurableTolerance, v1.33 and later)", o.setName(), d.dim)
			}
			continue
		}
		if !on(d.dim) && given == nil {
			continue
		}
		ax, err := d.b(given)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", o.setName(), d.dim, err)
		}
		if len(ax.Fine) > 1 {
			sp.Axes = append(sp.Axes, ax)
		}
	}
	return sp, nil
}

func dimList() string {
	names := make([]string, len(Dimensions))
	for i, d := range Dimensions {
		names[i] = string(d)
	}
	return strings.Join(names, ", ")
}

// values returns the --set values of a dimension (metric >= 0: of that
// metric's target, or of every target), nil when not given.
func (o SpaceOptions) values(d Dimension, metric int) ([]string, error) {
	for k := range o.Set {
		if dd, n, ok := strings.Cut(k, ":"); ok && Dimension(dd) == d {
			if i, err := strconv.Atoi(n); err != nil || d != DimTarget || i < 0 || i >= len(o.Metrics) {
				return nil, fmt.Errorf("%s %s: only target takes a metric index, from 0 to %d (target:0, ...)", o.setName(), k, len(o.Metrics)-1)
			}
		}
	}
	if metric >= 0 {
		if v, ok := o.Set[fmt.Sprintf("%s:%d", d, metric)]; ok {
			return v, nil
		}
	}
	if v, ok := o.Set[string(d)]; ok {
		return v, nil
	}
	return nil, nil
}

// finish sorts an axis's values, removes duplicates, and finds the current
// value and the coarse indices (the labels in coarse, and the current one).
func finish(ax Axis, cur string, coarse []string) Axis {
	sort.SliceStable(ax.Fine, func(i, j int) bool { return ax.Fine[i].order < ax.Fine[j].order })
	ax.Fine = slices.CompactFunc(ax.Fine, func(a, b Value) bool { return a.Label == b.Label })
	ax.Coarse = nil
	for i, v := range ax.Fine {
		if v.Label == cur {
			ax.Current = i
		}
		if v.Label == cur || slices.Contains(coarse, v.Label) {
			ax.Coarse = append(ax.Coarse, i)
		}
	}
	return ax
}

func targetAxis(i int, m MetricInfo, cur int64, given []string) (Axis, error) {
	ax := Axis{Dim: DimTarget, Metric: i, Name: "target of " + m.Name}
	label := func(v int64) string {
		if m.Type == autoscalingv2.UtilizationMetricType {
			return fmt.Sprintf("%d%%", v)
		}
		return milliQuantity(v).String()
	}
	add := func(v int64) {
		ax.Fine = append(ax.Fine, Value{Label: label(v), order: float64(v), set: func(s *Setting) { s.Targets[i] = v }})
	}
	add(cur)
	var coarse []string
	switch {
	case given != nil:
		for _, g := range given {
			v, err := parseTarget(m.Type, g)
			if err != nil {
				return Axis{}, fmt.Errorf("%q: %w", g, err)
			}
			add(v)
			coarse = append(coarse, label(v))
		}
	case m.Type == autoscalingv2.UtilizationMetricType:
		// Every 5% from 30 below the current target to 40 above it, within
		// 5-100%; the coarse round every 10% within 20 below to 30 above.
		lo, hi := max(5, cur-30), min(100, cur+40)
		for v := (lo + 4) / 5 * 5; v <= hi; v += 5 {
			add(v)
			if v%10 == 0 && v >= cur-20 && v <= cur+30 {
				coarse = append(coarse, label(v))
			}
		}
	default:
		for _, f := range []float64{0.5, 0.6, 0.7, 0.8, 0.9, 1.1, 1.25, 1.5, 1.75, 2} {
			v := roundMilli(float64(cur) * f)
			if v <= 0 {
				continue
			}
			add(v)
			if f == 0.7 || f == 1.25 || f == 1.5 {
				coarse = append(coarse, label(v))
			}
		}
	}
	return finish(ax, label(cur), coarse), nil
}

// roundMilli rounds a milli-value to three significant digits.
func roundMilli(v float64) int64 {
	if v <= 0 {
		return 0
	}
	mag := math.Pow(10, math.Floor(math.Log10(v))-2)
	return int64(math.Round(v/mag) * mag)
}

// parseTarget reads a target value: a percent for utilization ("70%" or
// "70"), a quantity for the others ("500m", "2", "1.5k").
func parseTarget(t autoscalingv2.MetricTargetType, s string) (int64, error) {
	if t == autoscalingv2.UtilizationMetricType {
		n, err := strconv.Atoi(strings.TrimSuffix(s, "%"))
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("want a positive percent of the request, such as 70%%")
		}
		return int64(n), nil
	}
	q, err := resource.ParseQuantity(s)
	if err != nil || q.Sign() <= 0 {
		return 0, fmt.Errorf("want a positive quantity, such as 500m or 20")
	}
	return q.MilliValue(), nil
}

func windowAxis(d Dimension, cur int32, fine, coarse []int32, given []string, set func(*Setting, int32)) (Axis, error) {
	ax := Axis{Dim: d, Name: string(d)}
	label := func(v int32) string { return (time.Duration(v) * time.Second).String() }
	add := func(v int32) {
		ax.Fine = append(ax.Fine, Value{Label: label(v), order: float64(v), set: func(s *Setting) { set(s, v) }})
	}
	add(cur)
	var cl []string
	if given != nil {
		fine, coarse = nil, nil
		for _, g := range given {
			w, err := time.ParseDuration(g)
			if err != nil || w < 0 || w%time.Second != 0 || w > time.Hour {
				return Axis{}, fmt.Errorf("%q: want whole seconds between 0s and 1h, such as 60s or 5m", g)
			}
			fine = append(fine, int32(w/time.Second))
			coarse = append(coarse, int32(w/time.Second))
		}
	}
	for _, v := range fine {
		add(v)
	}
	for _, v := range coarse {
		cl = append(cl, label(v))
	}
	return finish(ax, label(cur), cl), nil
}

func policyAxis(d Dimension, cur Policy, fine, coarse, given []string, set func(*Setting, Policy)) (Axis, error) {
	ax := Axis{Dim: d, Name: string(d)}
	add := func(p Policy) {
		ax.Fine = append(ax.Fine, Value{Label: p.String(), order: p.speed(), set: func(s *Setting) {
			set(s, Policy{Rules: slices.Clone(p.Rules), Select: p.Select})
		}})
	}
	add(cur)
	if given != nil {
		fine, coarse = given, given
	}
	var cl []string
	for _, f := range fine {
		p, err := ParsePolicy(f)
		if err != nil {
			return Axis{}, err
		}
		if p.Equal(cur) {
			continue // the current one, perhaps written in another order
		}
		add(p)
		if slices.Contains(coarse, f) {
			cl = append(cl, p.String())
		}
	}
	return finish(ax, cur.String(), cl), nil
}

// toleranceLabel writes a tolerance in thousandths as a fraction ("0.05"),
// "default" when unset.
func toleranceLabel(v int64) string {
	if v == NoTolerance {
		return "default"
	}
	return strconv.FormatFloat(float64(v)/1000, 'f', -1, 64)
}

func toleranceAxis(d Dimension, cur int64, given []string, set func(*Setting, int64)) (Axis, error) {
	ax := Axis{Dim: d, Name: string(d)}
	add := func(v int64) {
		o := float64(v)
		if v == NoTolerance {
			o = 100 // the controller's default, 0.1
		}
		ax.Fine = append(ax.Fine, Value{Label: toleranceLabel(v), order: o, set: func(s *Setting) { set(s, v) }})
	}
	add(cur)
	fine := []int64{0, 20, 50, 150, 200}
	coarse := []string{toleranceLabel(cur)}
	if given != nil {
		fine, coarse = nil, nil
		for _, g := range given {
			f, err := strconv.ParseFloat(strings.TrimSuffix(g, "%"), 64)
			if strings.HasSuffix(g, "%") {
				f /= 100
			}
			if err != nil || f < 0 || f > 1 {
				return Axis{}, fmt.Errorf("%q: want a fraction between 0 and 1 (0.05) or a percent (5%%)", g)
			}
			v := int64(math.Round(f * 1000))
			fine = append(fine, v)
			coarse = append(coarse, toleranceLabel(v))
		}
	}
	for _, v := range fine {
		add(v)
	}
	return finish(ax, toleranceLabel(cur), coarse), nil
}

func minAxis(cur, maxReplicas int32, given []string) (Axis, error) {
	ax := Axis{Dim: DimMinReplicas, Name: string(DimMinReplicas)}
	label := func(v int32) string { return strconv.Itoa(int(v)) }
	add := func(v int32) {
		ax.Fine = append(ax.Fine, Value{Label: label(v), order: float64(v), set: func(s *Setting) { s.MinReplicas = v }})
	}
	add(cur)
	var coarse []string
	if given != nil {
		for _, g := range given {
			n, err := strconv.Atoi(g)
			if err != nil || n < 1 || (maxReplicas > 0 && int32(n) > maxReplicas) {
				return Axis{}, fmt.Errorf("%q: want a whole number from 1 to maxReplicas (%d)", g, maxReplicas)
			}
			add(int32(n))
			coarse = append(coarse, g)
		}
	} else {
		for v := max(1, cur-3); v <= cur+2 && (maxReplicas <= 0 || v <= maxReplicas); v++ {
			add(v)
		}
		coarse = []string{label(max(1, cur-1))}
	}
	return finish(ax, label(cur), coarse), nil
}
