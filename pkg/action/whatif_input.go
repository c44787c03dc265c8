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

// WhatIfInput is a whatif as its flags give it (the MCP tools' arguments
// carry the same names): the overrides of the HPA's inputs and of a
// ScaledObject, the projection and the backtest, as strings to parse. Plan
// checks it.
type WhatIfInput struct {
	CPU, Memory        string
	Metrics            []string
	Objects            []string
	Externals          []string
	Targets            []string
	Min, Max, Replicas int32
	ScaleUpTolerance   string
	ScaleDownTolerance string
	// BehaviorFile and TraceFile are read by Plan.
	BehaviorFile string
	AllReady     bool
	LoadModel    string
	// For is a duration or ForAuto.
	For        string
	PodStartup time.Duration
	TraceFile  string
	// Since and Until are a backtest's period over recorded load;
	// SampleDelay how long a pod it adds takes to have a sample.
	Since, Until string
	SampleDelay  time.Duration
	Recorded     RecordedInput

	// The changes of a ScaledObject (whatif.KEDAOverrides).
	Triggers         []string
	Activations      []string
	Cooldown         time.Duration
	PollingInterval  time.Duration
	Idle             int32
	FallbackReplicas int32
	FailureThreshold int32

	// Given holds the names of the flags set: only they override min, max,
	// replicas, the ScaledObject's numbers and durations, and the
	// backtest's pod-startup.
	Given map[string]bool
}

// DefaultWhatIfInput returns the default values of the flags.
func DefaultWhatIfInput() WhatIfInput {
	return WhatIfInput{
		Min: -1, Max: -1, Replicas: -1, PodStartup: whatif.DefaultPodStartup, LoadModel: explain.LoadConstantTotal,
		Recorded: DefaultRecordedInput(),
	}
}

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
	case in.Until != "" || RecordedUsed(in.Given):
		return nil, usageErrorf("--until and the recorded-load flags (--prometheus, --query, ...) go with --since")
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
	ov := whatif.Overrides{AllReady: in.AllReady, LoadModel: in.LoadModel}
	var kov whatif.KEDAOverrides
	for _, u := range []struct {
		flag, value string
		out         **whatif.UsageOverride
	}{{"--cpu", in.CPU, &ov.CPU}, {"--memory", in.Memory, &ov.Memory}} {
		if u.value == "" {
			continue
		}
		v, err := whatif.ParseUsage(u.value)
		if err != nil {
			return ov, kov, usageErrorf("%s: %w", u.flag, err)
		}
		*u.out = &v
	}
	for _, list := range []struct {
		flag   string
		values []string
		out    *[]whatif.MetricOverride
	}{
		{"--metric", in.Metrics, &ov.Pods},
		{"--object", in.Objects, &ov.Objects},
		{"--external", in.Externals, &ov.Externals},
	} {
		for _, v := range list.values {
			m, err := whatif.ParseMetric(v, list.flag == "--external")
			if err != nil {
				return ov, kov, usageErrorf("%s: %w", list.flag, err)
			}
			*list.out = append(*list.out, m)
		}
	}
	for _, v := range in.Targets {
		t, err := whatif.ParseTarget(v)
		if err != nil {
			return ov, kov, usageErrorf("--target: %w", err)
		}
		ov.Targets = append(ov.Targets, t)
	}
	for _, b := range []struct {
		flag string
		v    int32
		out  **int32
	}{
		{"min", in.Min, &ov.Min},
		{"max", in.Max, &ov.Max},
		{"replicas", in.Replicas, &ov.Replicas},
		{"idle", in.Idle, &kov.Idle},
		{"fallback-replicas", in.FallbackReplicas, &kov.FallbackReplicas},
		{"failure-threshold", in.FailureThreshold, &kov.FailureThreshold},
	} {
		if in.Given[b.flag] {
			v := b.v
			*b.out = &v
		}
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
		out  **time.Duration
	}{{"cooldown", in.Cooldown, &kov.Cooldown}, {"polling-interval", in.PollingInterval, &kov.PollingInterval}} {
		if in.Given[d.flag] {
			v := d.v
			*d.out = &v
		}
	}
	for _, list := range []struct {
		flag   string
		values []string
		out    *[]whatif.TriggerOverride
	}{{"--trigger", in.Triggers, &kov.Triggers}, {"--activation", in.Activations, &kov.Activations}} {
		for _, v := range list.values {
			t, err := whatif.ParseTriggerOverride(v, list.flag == "--trigger")
			if err != nil {
				return ov, kov, usageErrorf("%s: %w", list.flag, err)
			}
			*list.out = append(*list.out, t)
		}
	}
	for _, tol := range []struct {
		flag, value string
		out         **resource.Quantity
	}{
		{"--scale-up-tolerance", in.ScaleUpTolerance, &ov.ScaleUpTolerance},
		{"--scale-down-tolerance", in.ScaleDownTolerance, &ov.ScaleDownTolerance},
	} {
		if tol.value == "" {
			continue
		}
		q, err := whatif.ParseQuantity(tol.value)
		if err != nil || q.Sign() < 0 {
			return ov, kov, usageErrorf("%s: %q is not a tolerance (a non-negative number like 0.05)", tol.flag, tol.value)
		}
		*tol.out = &q
	}
	if in.BehaviorFile != "" {
		data, err := os.ReadFile(in.BehaviorFile)
		if err != nil {
			return ov, kov, fmt.Errorf("--behavior: %w", err)
		}
		b, err := whatif.ParseBehavior(in.BehaviorFile, data)
		if err != nil {
			return ov, kov, fmt.Errorf("--behavior %w", err)
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
	p := &whatif.ProjectOptions{LoadModel: in.LoadModel, PodStartup: in.PodStartup}
	if in.For != "" {
		if err := CheckFor(in.For); err != nil {
			return nil, usageErrorf("--for: %w", err)
		}
		if in.For != ForAuto {
			p.Duration, _ = time.ParseDuration(in.For)
		}
	}
	if in.TraceFile != "" {
		data, err := os.ReadFile(in.TraceFile)
		if err != nil {
			return nil, fmt.Errorf("--trace: %w", err)
		}
		tr, err := whatif.ParseTrace(in.TraceFile, data)
		if err != nil {
			return nil, fmt.Errorf("--trace %w", err)
		}
		p.Trace, p.TraceName = tr, in.TraceFile
	}
	return p, nil
}

// backtest resolves --since, --until and the recorded load. The load is
// the recorded one: only changes of the HPA apply.
func (in WhatIfInput) backtest(src Source, name string, settings SettingsOverrides, ov whatif.Overrides) (*WhatIfPlan, error) {
	for _, f := range []string{"cpu", "memory", "metric", "object", "external", "replicas", "all-ready", "for", "trace"} {
		if in.Given[f] {
			return nil, usageErrorf("--%s changes the load, which a backtest (--since) reads from what was recorded: change the HPA instead (--behavior, --target, --min, --max, tolerances)", f)
		}
	}
	now := src.Now
	since, err := ParsePast(in.Since, now)
	if err != nil {
		return nil, usageErrorf("--since: %w", err)
	}
	until := now
	if in.Until != "" {
		if until, err = ParsePast(in.Until, now); err != nil {
			return nil, usageErrorf("--until: %w", err)
		}
	}
	load, err := in.Recorded.Load()
	if err != nil {
		return nil, err
	}
	b := &BacktestConfig{
		Source: src, Name: name, Settings: settings, Since: since, Until: until, Changes: ov,
		LoadModel: in.LoadModel, SampleDelay: in.SampleDelay, Load: load,
	}
	if in.Given["pod-startup"] {
		b.PodStartup = in.PodStartup
	}
	return &WhatIfPlan{Backtest: b}, nil
}

// validate checks the values against their bounds.
func (in WhatIfInput) validate(p *WhatIfPlan) error {
	if in.LoadModel != explain.LoadConstantTotal && in.LoadModel != explain.LoadConstantPerPod {
		return fmt.Errorf("--load-model must be %s or %s, got %q", explain.LoadConstantTotal, explain.LoadConstantPerPod, in.LoadModel)
	}
	if p.WhatIf != nil && p.WhatIf.Overrides.Empty() && p.WhatIf.KEDA.Empty() && p.WhatIf.Projection == nil {
		return errNoChanges
	}
	if in.SampleDelay < 0 || in.SampleDelay > MaxPodStartup {
		return fmt.Errorf("--sample-delay must be between 0s and %s, got %v", MaxPodStartup, in.SampleDelay)
	}
	if in.PodStartup < 0 || in.PodStartup > MaxPodStartup {
		return fmt.Errorf("--pod-startup must be between 0s and %s, got %v", MaxPodStartup, in.PodStartup)
	}
	if in.For != "" && in.For != ForAuto {
		switch d, _ := time.ParseDuration(in.For); {
		case d <= 0:
			return fmt.Errorf("--for must be positive, got %s", in.For)
		case d > MaxFor:
			return fmt.Errorf("--for must be at most %s, got %s", MaxFor, in.For)
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

// whatifFlags maps the fields of whatif's errors to their flags.
var whatifFlags = map[whatif.Field]string{
	whatif.FieldCPU: "--cpu", whatif.FieldMemory: "--memory", whatif.FieldMetric: "--metric",
	whatif.FieldObject: "--object", whatif.FieldExternal: "--external", whatif.FieldTarget: "--target",
	whatif.FieldMin: "--min", whatif.FieldMax: "--max", whatif.FieldBounds: "--min/--max",
	whatif.FieldTolerance: "--scale-up-tolerance/--scale-down-tolerance", whatif.FieldReplicas: "--replicas",
	whatif.FieldTrace: "--trace", whatif.FieldBehavior: "--behavior",
	whatif.FieldTrigger: "--trigger", whatif.FieldActivation: "--activation", whatif.FieldCooldown: "--cooldown",
	whatif.FieldPollingInterval: "--polling-interval", whatif.FieldIdle: "--idle",
	whatif.FieldFallbackReplicas: "--fallback-replicas", whatif.FieldFailureThreshold: "--failure-threshold",
	whatif.FieldBoundsKEDA: "the ScaledObject's overrides",
}

// flagNamed rewords a whatif field error with its flag, keeping what
// precedes it ("HPA shop/web: ").
func flagNamed(err error) error {
	var fe *whatif.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	flag, ok := whatifFlags[fe.Field]
	if !ok {
		return err
	}
	msg := err.Error()
	return errors.New(strings.Replace(msg, fe.Error(), fe.Text(flag), 1))
}

// errNoChanges is returned when whatif gets nothing to change.
var errNoChanges = errors.New("no change given: pass at least one override (--cpu, --memory, --metric, --object, --external, --target, --min, --max, --scale-up-tolerance, --scale-down-tolerance, --behavior, --replicas, --all-ready; for a ScaledObject --trigger, --activation, --cooldown, --polling-interval, --idle, --fallback-replicas, --failure-threshold) or a projection (--for, --trace), or a backtest (--since)")
