// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// ForAuto is what --for means without a duration: until the replicas
// settle.
const ForAuto = "auto"

// Maxima of the projection's duration flags (docs/reliability.md,
// "Bounds"); the number of syncs is bounded too (whatif.DefaultMaxSteps).
const (
	MaxFor        = 7 * 24 * time.Hour
	MaxPodStartup = 24 * time.Hour
)

// WhatIfInput is a whatif as its options give it (WhatIfRows): the
// overrides of the HPA's inputs and of a ScaledObject, the projection and
// the backtest, as strings to parse; a nil number or duration is not
// given. Plan checks it.
type WhatIfInput struct {
	CPU, Memory        string
	Metrics            []string
	Objects            []string
	Externals          []string
	Targets            []string
	Min, Max, Replicas *int32
	ScaleUpTolerance   string
	ScaleDownTolerance string
	// BehaviorFile and TraceFile are read by Plan.
	BehaviorFile string
	AllReady     bool
	// For is a duration or ForAuto.
	For       string
	TraceFile string
	// ReplayInput: how the pods a projection or a backtest adds start, and
	// how the load spreads over them; PeriodInput: a backtest's period
	// over recorded load.
	ReplayInput
	PeriodInput
	Recorded RecordedInput
	// Report is where a backtest's HTML report goes.
	Report ReportInput
	HistoryInput

	// The changes of a ScaledObject (whatif.KEDAOverrides).
	Triggers         []string
	Activations      []string
	Cooldown         *time.Duration
	PollingInterval  *time.Duration
	Idle             *int32
	FallbackReplicas *int32
	FailureThreshold *int32
}

// DefaultWhatIfInput returns the defaults of the options.
func DefaultWhatIfInput() WhatIfInput {
	return WhatIfInput{ReplayInput: ReplayInput{LoadModel: explain.LoadConstantTotal}}
}

// flag names the option that sets field, for a message.
func (in *WhatIfInput) flag(field any) string { return WhatIfRows.Named(in, field).Flag() }

// WhatIfPlan is a checked whatif: a whatif of the objects as they are, or
// a backtest over recorded load.
type WhatIfPlan struct {
	WhatIf   *WhatIfConfig
	Backtest *BacktestConfig
}

// CheckFor checks a value of --for: a duration or ForAuto.
func CheckFor(v string) error {
	if v != ForAuto {
		if _, err := time.ParseDuration(v); err != nil {
			return fmt.Errorf("%q is not a duration (like 30m or 2h) or %q", v, ForAuto)
		}
	}
	return nil
}

// Plan parses and checks the input and returns the whatif of HPA name
// read from src. Mistakes in the values are *UsageErrors; the behavior and
// trace files that cannot be read or parsed are plain errors.
func (in WhatIfInput) Plan(src Source, name string, settings SettingsOverrides) (*WhatIfPlan, error) {
	ov, kov, err := in.overrides()
	if err != nil {
		return nil, err
	}
	var p *WhatIfPlan
	switch {
	case in.Since != "":
		if p, err = in.backtest(src, name, settings, ov); err != nil {
			return nil, err
		}
	case in.Report.File != "":
		return nil, usageErrorf("%s goes with %s: it draws a backtest", in.flag(&in.Report.File), in.flag(&in.Since))
	case in.Until != "" || in.Recorded.Used():
		r := &in.Recorded
		return nil, usageErrorf("%s and the recorded-load flags (%s, %s, ...) go with %s",
			in.flag(&in.Until), r.flag(&r.Prometheus.Endpoint), r.flag(&r.Queries), in.flag(&in.Since))
	default:
		p = &WhatIfPlan{WhatIf: &WhatIfConfig{Source: src, Name: name, Settings: settings, Overrides: ov, KEDA: kov}}
		if p.WhatIf.Projection, err = in.projection(); err != nil {
			return nil, err
		}
	}
	if err := in.validate(p); err != nil {
		return nil, &UsageError{Err: err}
	}
	return p, nil
}

// overrides parses the changes of the HPA's inputs and of a ScaledObject.
func (in WhatIfInput) overrides() (whatif.Overrides, whatif.KEDAOverrides, error) {
	ov := whatif.Overrides{AllReady: in.AllReady, LoadModel: in.LoadModel, Min: in.Min, Max: in.Max, Replicas: in.Replicas}
	kov := whatif.KEDAOverrides{
		Idle: in.Idle, FallbackReplicas: in.FallbackReplicas, FailureThreshold: in.FailureThreshold,
		Cooldown: in.Cooldown, PollingInterval: in.PollingInterval,
	}
	for _, u := range []struct {
		field *string
		out   **whatif.UsageOverride
	}{{&in.CPU, &ov.CPU}, {&in.Memory, &ov.Memory}} {
		if *u.field == "" {
			continue
		}
		v, err := whatif.ParseUsage(*u.field)
		if err != nil {
			return ov, kov, usageErrorf("%s: %w", in.flag(u.field), err)
		}
		*u.out = &v
	}
	for _, list := range []struct {
		field    *[]string
		external bool
		out      *[]whatif.MetricOverride
	}{{&in.Metrics, false, &ov.Pods}, {&in.Objects, false, &ov.Objects}, {&in.Externals, true, &ov.Externals}} {
		for _, v := range *list.field {
			m, err := whatif.ParseMetric(v, list.external)
			if err != nil {
				return ov, kov, usageErrorf("%s: %w", in.flag(list.field), flagNamed(err))
			}
			*list.out = append(*list.out, m)
		}
	}
	for _, v := range in.Targets {
		t, err := whatif.ParseTarget(v)
		if err != nil {
			return ov, kov, usageErrorf("%s: %w", in.flag(&in.Targets), err)
		}
		ov.Targets = append(ov.Targets, t)
	}
	for _, list := range []struct {
		field   *[]string
		trigger bool
		out     *[]whatif.TriggerOverride
	}{{&in.Triggers, true, &kov.Triggers}, {&in.Activations, false, &kov.Activations}} {
		for _, v := range *list.field {
			t, err := whatif.ParseTriggerOverride(v, list.trigger)
			if err != nil {
				return ov, kov, usageErrorf("%s: %w", in.flag(list.field), err)
			}
			*list.out = append(*list.out, t)
		}
	}
	for _, tol := range []struct {
		field *string
		out   **resource.Quantity
	}{{&in.ScaleUpTolerance, &ov.ScaleUpTolerance}, {&in.ScaleDownTolerance, &ov.ScaleDownTolerance}} {
		if *tol.field == "" {
			continue
		}
		q, err := whatif.ParseQuantity(*tol.field)
		if err != nil || q.Sign() < 0 {
			return ov, kov, usageErrorf("%s: %q is not a tolerance (a non-negative number like 0.05)", in.flag(tol.field), *tol.field)
		}
		*tol.out = &q
	}
	if in.BehaviorFile != "" {
		data, err := os.ReadFile(in.BehaviorFile)
		if err != nil {
			return ov, kov, fmt.Errorf("%s: %w", in.flag(&in.BehaviorFile), err)
		}
		b, err := whatif.ParseBehavior(in.BehaviorFile, data)
		if err != nil {
			return ov, kov, fmt.Errorf("%s %w", in.flag(&in.BehaviorFile), err)
		}
		ov.Behavior, ov.BehaviorSource = b, in.BehaviorFile
	}
	return ov, kov, nil
}

// projection parses --for and --trace (nil: no projection).
func (in WhatIfInput) projection() (*whatif.ProjectOptions, error) {
	if in.For == "" && in.TraceFile == "" {
		return nil, nil
	}
	p := &whatif.ProjectOptions{LoadModel: in.LoadModel, PodStartup: whatif.DefaultPodStartup}
	if in.PodStartup != nil {
		p.PodStartup = *in.PodStartup
	}
	if in.For != "" {
		if err := CheckFor(in.For); err != nil {
			return nil, usageErrorf("%s: %w", in.flag(&in.For), err)
		}
		if in.For != ForAuto {
			p.Duration, _ = time.ParseDuration(in.For)
		}
	}
	if in.TraceFile != "" {
		data, err := os.ReadFile(in.TraceFile)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.flag(&in.TraceFile), err)
		}
		tr, err := whatif.ParseTrace(in.TraceFile, data)
		if err != nil {
			return nil, fmt.Errorf("%s %w", in.flag(&in.TraceFile), err)
		}
		p.Trace, p.TraceName = tr, in.TraceFile
	}
	return p, nil
}

// backtest resolves --since, --until and the recorded load. The load is
// the recorded one: only changes of the HPA apply.
func (in WhatIfInput) backtest(src Source, name string, settings SettingsOverrides, ov whatif.Overrides) (*WhatIfPlan, error) {
	for _, o := range concat(WhatIfLoadRows, WhatIfProjectionRows).Bind(&in) {
		if o.IsSet() {
			return nil, usageErrorf("--%s changes the load, which a backtest (%s) reads from what was recorded: change the HPA instead (%s, %s, %s, %s, tolerances)",
				o.Name, in.flag(&in.Since), in.flag(&in.BehaviorFile), in.flag(&in.Targets), in.flag(&in.Min), in.flag(&in.Max))
		}
	}
	now := src.Now
	since, err := ParsePast(in.Since, now)
	if err != nil {
		return nil, usageErrorf("%s: %w", in.flag(&in.Since), err)
	}
	until := now
	if in.Until != "" {
		if until, err = ParsePast(in.Until, now); err != nil {
			return nil, usageErrorf("%s: %w", in.flag(&in.Until), err)
		}
	}
	load, err := in.Recorded.Load()
	if err != nil {
		return nil, err
	}
	b := &BacktestConfig{
		Source: src, Name: name, Settings: settings, Since: since, Until: until, Changes: ov,
		LoadModel: in.LoadModel, SampleDelay: in.SampleDelay, Load: load, Report: in.Report.File != "",
	}
	if in.PodStartup != nil {
		b.PodStartup = *in.PodStartup
	}
	return &WhatIfPlan{Backtest: b}, nil
}

// validate checks the values against their bounds.
func (in WhatIfInput) validate(p *WhatIfPlan) error {
	if in.LoadModel != explain.LoadConstantTotal && in.LoadModel != explain.LoadConstantPerPod {
		return fmt.Errorf("%s must be %s or %s, got %q", in.flag(&in.LoadModel), explain.LoadConstantTotal, explain.LoadConstantPerPod, in.LoadModel)
	}
	if p.WhatIf != nil && p.WhatIf.Overrides.Empty() && p.WhatIf.KEDA.Empty() && p.WhatIf.Projection == nil {
		return in.noChanges()
	}
	if in.SampleDelay < 0 || in.SampleDelay > MaxPodStartup {
		return fmt.Errorf("%s must be between 0s and %s, got %v", in.flag(&in.SampleDelay), MaxPodStartup, in.SampleDelay)
	}
	if d := in.PodStartup; d != nil && (*d < 0 || *d > MaxPodStartup) {
		return fmt.Errorf("%s must be between 0s and %s, got %v", in.flag(&in.PodStartup), MaxPodStartup, *d)
	}
	if in.For != "" && in.For != ForAuto {
		switch d, _ := time.ParseDuration(in.For); {
		case d <= 0:
			return fmt.Errorf("%s must be positive, got %s", in.flag(&in.For), in.For)
		case d > MaxFor:
			return fmt.Errorf("%s must be at most %s, got %s", in.flag(&in.For), MaxFor, in.For)
		}
	}
	return nil
}

// Run replays the plan: the whatif, or the backtest. An override that
// cannot apply is reworded with its flag.
func (p *WhatIfPlan) Run(ctx context.Context) (*WhatIfResult, error) {
	var res *WhatIfResult
	var err error
	if p.Backtest != nil {
		res, err = Backtest(ctx, *p.Backtest)
	} else {
		res, err = WhatIf(ctx, *p.WhatIf)
	}
	if err != nil {
		return nil, flagNamed(err)
	}
	return res, nil
}

// fieldFlag names the option of a field of whatif's errors.
func fieldFlag(f whatif.Field) (string, bool) {
	var in WhatIfInput
	fields := map[whatif.Field]any{
		whatif.FieldCPU: &in.CPU, whatif.FieldMemory: &in.Memory, whatif.FieldMetric: &in.Metrics,
		whatif.FieldObject: &in.Objects, whatif.FieldExternal: &in.Externals, whatif.FieldTarget: &in.Targets,
		whatif.FieldMin: &in.Min, whatif.FieldMax: &in.Max, whatif.FieldReplicas: &in.Replicas,
		whatif.FieldTrace: &in.TraceFile, whatif.FieldFor: &in.For, whatif.FieldBehavior: &in.BehaviorFile,
		whatif.FieldTrigger: &in.Triggers, whatif.FieldActivation: &in.Activations, whatif.FieldCooldown: &in.Cooldown,
		whatif.FieldPollingInterval: &in.PollingInterval, whatif.FieldIdle: &in.Idle,
		whatif.FieldFallbackReplicas: &in.FallbackReplicas, whatif.FieldFailureThreshold: &in.FailureThreshold,
	}
	switch f {
	case whatif.FieldBounds:
		return in.flag(&in.Min) + "/" + in.flag(&in.Max), true
	case whatif.FieldTolerance:
		return in.flag(&in.ScaleUpTolerance) + "/" + in.flag(&in.ScaleDownTolerance), true
	case whatif.FieldBoundsKEDA:
		return "the ScaledObject's overrides", true
	default:
	}
	field, ok := fields[f]
	if !ok {
		return "", false
	}
	return in.flag(field), true
}

// flagNamed rewords a whatif error that names overrides (a
// *whatif.FieldError, a *whatif.NamedError) with their flags, keeping what
// precedes it ("HPA shop/web: ").
func flagNamed(err error) error {
	var ne interface {
		error
		Text(name func(whatif.Field) string) string
	}
	if !errors.As(err, &ne) {
		return err
	}
	named := ne.Text(func(f whatif.Field) string {
		if flag, ok := fieldFlag(f); ok {
			return flag
		}
		return string(f)
	})
	if named == ne.Error() {
		return err
	}
	return errors.New(strings.Replace(err.Error(), ne.Error(), named, 1))
}

// noChanges is the error of a whatif given nothing to change.
func (in *WhatIfInput) noChanges() error {
	flags := func(fields ...any) string {
		names := make([]string, len(fields))
		for i, f := range fields {
			names[i] = in.flag(f)
		}
		return strings.Join(names, ", ")
	}
	return fmt.Errorf("no change given: pass at least one override (%s; for a ScaledObject %s) or a projection (%s), or a backtest (%s)",
		flags(&in.CPU, &in.Memory, &in.Metrics, &in.Objects, &in.Externals, &in.Targets, &in.Min, &in.Max,
			&in.ScaleUpTolerance, &in.ScaleDownTolerance, &in.BehaviorFile, &in.Replicas, &in.AllReady),
		flags(&in.Triggers, &in.Activations, &in.Cooldown, &in.PollingInterval, &in.Idle, &in.FallbackReplicas, &in.FailureThreshold),
		flags(&in.For, &in.TraceFile), flags(&in.Since))
}
