// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// AutoDuration is what --for means without a value: until the replicas
// settle.
const AutoDuration = "auto"

// Maxima of whatif's projection flags (docs/reliability.md, "Bounds"); the
// number of syncs is bounded too (whatif.DefaultMaxSteps).
const (
	MaxFor        = 7 * 24 * time.Hour
	MaxPodStartup = 24 * time.Hour
)

// WhatIfInput is whatif's changes as the command line gives them: the
// overrides of the HPA's inputs, of a ScaledObject, and the projection.
// Given holds the names of the flags set (a zero --min is a change).
type WhatIfInput struct {
	CPU, Memory        string
	Metrics            []string
	Objects            []string
	Externals          []string
	Targets            []string
	Min, Max, Replicas int32
	ScaleUpTolerance   string
	ScaleDownTolerance string
	BehaviorFile       string
	AllReady           bool
	LoadModel          string
	For                string
	PodStartup         time.Duration
	TraceFile          string

	// The changes of a ScaledObject (whatif.KEDAOverrides).
	Triggers         []string
	Activations      []string
	Cooldown         time.Duration
	PollingInterval  time.Duration
	Idle             int32
	FallbackReplicas int32
	FailureThreshold int32

	Given map[string]bool
}

// Overrides parses the changes of the HPA's inputs and of a ScaledObject.
// Errors name the flag.
func (in *WhatIfInput) Overrides() (whatif.Overrides, whatif.KEDAOverrides, error) {
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
			return ov, kov, fmt.Errorf("%s: %w", u.flag, err)
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
				return ov, kov, fmt.Errorf("%s: %w", list.flag, err)
			}
			*list.out = append(*list.out, m)
		}
	}
	for _, v := range in.Targets {
		t, err := whatif.ParseTarget(v)
		if err != nil {
			return ov, kov, fmt.Errorf("--target: %w", err)
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
				return ov, kov, fmt.Errorf("%s: %w", list.flag, err)
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
			return ov, kov, fmt.Errorf("%s: %q is not a tolerance (a non-negative number like 0.05)", tol.flag, tol.value)
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

// Projection returns the projection --for or --trace ask for (nil: none).
func (in *WhatIfInput) Projection() (*whatif.ProjectOptions, error) {
	if in.For == "" && in.TraceFile == "" {
		return nil, nil
	}
	p := &whatif.ProjectOptions{LoadModel: in.LoadModel, PodStartup: in.PodStartup}
	if in.For != "" && in.For != AutoDuration {
		p.Duration, _ = time.ParseDuration(in.For)
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

// Check checks the projection's bounds and the load model.
func (in *WhatIfInput) Check() error {
	if in.PodStartup < 0 || in.PodStartup > MaxPodStartup {
		return fmt.Errorf("--pod-startup must be between 0s and %s, got %v", MaxPodStartup, in.PodStartup)
	}
	if in.For != "" && in.For != AutoDuration {
		switch d, _ := time.ParseDuration(in.For); {
		case d <= 0:
			return fmt.Errorf("--for must be positive, got %s", in.For)
		case d > MaxFor:
			return fmt.Errorf("--for must be at most %s, got %s", MaxFor, in.For)
		}
	}
	return nil
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

// FlagNamed rewords a whatif field error with its flag, keeping what
// precedes it ("HPA shop/web: ").
func FlagNamed(err error) error {
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

// ErrNoChanges is returned when whatif gets nothing to change.
var ErrNoChanges = errors.New("no change given: pass at least one override (--cpu, --memory, --metric, --object, --external, --target, --min, --max, --scale-up-tolerance, --scale-down-tolerance, --behavior, --replicas, --all-ready; for a ScaledObject --trigger, --activation, --cooldown, --polling-interval, --idle, --fallback-replicas, --failure-threshold) or a projection (--for, --trace), or a backtest (--since)")
