// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// WhatIfConfig is one whatif of one HPA.
type WhatIfConfig struct {
	Source    Source
	Name      string
	Settings  SettingsOverrides
	Overrides whatif.Overrides
	// KEDA are the changes of the ScaledObject that owns the HPA.
	KEDA whatif.KEDAOverrides
	// Projection, when set, projects the syncs after the changes.
	Projection *whatif.ProjectOptions
	Evaluate   EvaluateFunc
}

// WhatIfResult is the whatif document and what the user should know.
type WhatIfResult struct {
	WhatIf   *explain.WhatIf
	Settings engine.Settings
	Warnings []string
	// Loads are the recorded load of a backtest's metrics, for its HTML
	// report (BacktestConfig.Report).
	Loads []explain.LoadCurve
}

// WhatIf reads one HPA and its inputs, applies the overrides, replays the
// sync before and after them, and projects the changed state when asked.
// An override that cannot apply is a *whatif.FieldError.
func WhatIf(ctx context.Context, cfg WhatIfConfig) (*WhatIfResult, error) {
	in, err := readForWhatIf(ctx, cfg)
	if err != nil {
		return nil, err
	}
	name := in.snap.HPA.Namespace + "/" + in.snap.HPA.Name
	ov := cfg.Overrides
	kov := cfg.KEDA
	if in.keda != nil {
		// --min and --max change the ScaledObject, whose bounds KEDA
		// copies to its HPA.
		kov.Min, kov.Max, ov.Min, ov.Max = ov.Min, ov.Max, nil, nil
	} else if !kov.Empty() {
		var opt WhatIfInput
		flags := []string{
			opt.flag(&opt.Triggers), opt.flag(&opt.Activations), opt.flag(&opt.Cooldown), opt.flag(&opt.PollingInterval),
			opt.flag(&opt.Idle), opt.flag(&opt.FallbackReplicas),
		}
		return nil, fmt.Errorf("HPA %s belongs to no KEDA ScaledObject: %s and %s change a ScaledObject",
			name, strings.Join(flags, ", "), opt.flag(&opt.FailureThreshold))
	}
	edited, changes, err := whatif.Apply(in.snap, &ov, in.settings)
	if err != nil {
		return nil, fmt.Errorf("HPA %s: %w", name, err)
	}
	// The changed replay is hypothetical: when the controller last synced
	// the real HPA says nothing of it, so it gets no stale-status verdict
	// (Apply returned a copy of its own).
	edited.HPA.ManagedFields, edited.LastControllerEvent = nil, time.Time{}
	eval := cfg.Evaluate
	if eval == nil {
		eval = engine.Evaluate
	}
	before, err := eval(in.snap, in.settings)
	if err != nil {
		return nil, fmt.Errorf("replay HPA %q: %w", name, err)
	}
	if err := attachKEDA(in.keda, in.snap, in.settings, eval, before); err != nil {
		return nil, err
	}
	var loop *whatif.KEDALoop
	if in.keda != nil {
		var kch []string
		if loop, kch, err = whatIfKEDA(in, edited, &kov, eval); err != nil {
			return nil, err
		}
		changes = append(changes, kch...)
	}
	after, err := eval(edited, in.settings)
	if err != nil {
		return nil, fmt.Errorf("replay HPA %q: %w", name, err)
	}
	if loop != nil {
		after.SetKEDA(loop.First)
	}
	if changes == nil {
		changes = []string{}
	}
	w := &explain.WhatIf{APIVersion: explain.APIVersion, Kind: explain.KindWhatIf, Changes: changes, Before: before, After: after}
	if cfg.Projection != nil {
		opts := *cfg.Projection
		if loop != nil {
			opts.Outer = loop
		}
		p, err := whatif.Project(edited, in.settings, opts)
		if err != nil {
			return nil, fmt.Errorf("project HPA %s: %w", name, err)
		}
		w.Projection = p
	}
	return &WhatIfResult{WhatIf: w, Settings: in.settings, Warnings: in.warnings}, nil
}

// readForWhatIf reads the HPA of a whatif: NAME, or the HPA of
// scaledobject/NAME.
func readForWhatIf(ctx context.Context, cfg WhatIfConfig) (*snapshot, error) {
	if err := checkObjectName(cfg.Name); err != nil {
		return nil, err
	}
	name, ok := ScaledObjectName(cfg.Name)
	if !ok {
		return cfg.Source.read(ctx, plainHPAName(cfg.Name), cfg.Settings)
	}
	res, err := explainScaledObject(ctx, ExplainConfig{Source: cfg.Source, Name: cfg.Name, Settings: cfg.Settings, Evaluate: cfg.Evaluate}, name)
	if err != nil {
		return nil, err
	}
	if res.Decision == nil {
		return nil, NoHPAError(res.KEDA, "whatif changes what KEDA's HPA reads")
	}
	return res.in, nil
}

// NoHPAError says that the ScaledObject of k has no HPA to replay, and
// why, then hint.
func NoHPAError(k *explain.KEDA, hint string) error {
	why := "KEDA has not written it"
	if k.Pause.Paused {
		why = "it is paused, and KEDA deleted its HPA"
	}
	return fmt.Errorf("ScaledObject %s/%s has no HPA to replay (%s): %s", k.ScaledObject.Namespace, k.ScaledObject.Name, why, hint)
}

// whatIfKEDA applies the changes of the ScaledObject: the edited object's
// bounds on the HPA, KEDA's poll with the triggers' new values (in the
// loop's First), and the External values KEDA then answers the HPA.
func whatIfKEDA(in *snapshot, edited *engine.Snapshot, kov *whatif.KEDAOverrides, eval EvaluateFunc) (*whatif.KEDALoop, []string, error) {
	k := in.keda
	ke, err := whatif.ApplyKEDA(k.so, k.version, kov, time.LoadLocation)
	if err != nil {
		return nil, nil, fmt.Errorf("ScaledObject %s: %w", k.so.Ref(), err)
	}
	if kov.Min != nil || kov.Max != nil {
		if err := whatif.KEDAHPA(edited, ke.ScaledObject, k.version, time.LoadLocation); err != nil {
			return nil, nil, fmt.Errorf("ScaledObject %s: %w", k.so.Ref(), err)
		}
	}
	ks := *k
	ks.so = ke.ScaledObject
	r := &kedaReplay{ks: &ks, now: edited.Now, target: edited.Target, pods: edited.Pods, hpa: edited, set: in.settings, eval: eval, overrides: ke.Triggers}
	results, _, err := r.triggers()
	if err != nil {
		return nil, nil, err
	}
	first, err := r.run()
	if err != nil {
		return nil, nil, err
	}
	// The HPA's sync after the changes reads what KEDA answers.
	whatif.SetKEDAMetrics(edited, first, ks.so.Name, edited.Now)
	loop := &whatif.KEDALoop{
		ScaledObject: ke.ScaledObject.DeepCopy(), Version: k.version, Triggers: results,
		LoadLocation: time.LoadLocation, Start: edited.Now, First: first,
	}
	return loop, ke.Changes, nil
}
