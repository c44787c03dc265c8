// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"fmt"

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
	// Projection, when set, projects the syncs after the changes.
	Projection *whatif.ProjectOptions
	Evaluate   EvaluateFunc
}

// WhatIfResult is the whatif document and what the user should know.
type WhatIfResult struct {
	WhatIf   *explain.WhatIf
	Settings engine.Settings
	Warnings []string
}

// WhatIf reads one HPA and its inputs, applies the overrides, replays the
// sync before and after them, and projects the changed state when asked.
// An override that cannot apply is a *whatif.FieldError.
func WhatIf(ctx context.Context, cfg WhatIfConfig) (*WhatIfResult, error) {
	in, err := cfg.Source.read(ctx, cfg.Name, cfg.Settings)
	if err != nil {
		return nil, err
	}
	name := in.snap.HPA.Namespace + "/" + in.snap.HPA.Name
	edited, changes, err := whatif.Apply(in.snap, &cfg.Overrides, in.settings)
	if err != nil {
		return nil, fmt.Errorf("HPA %s: %w", name, err)
	}
	eval := cfg.Evaluate
	if eval == nil {
		eval = engine.Evaluate
	}
	before, err := eval(in.snap, in.settings)
	if err != nil {
		return nil, fmt.Errorf("replay HPA %q: %w", name, err)
	}
	after, err := eval(edited, in.settings)
	if err != nil {
		return nil, fmt.Errorf("replay HPA %q: %w", name, err)
	}
	if changes == nil {
		changes = []string{}
	}
	w := &explain.WhatIf{APIVersion: explain.APIVersion, Kind: explain.KindWhatIf, Changes: changes, Before: before, After: after}
	if cfg.Projection != nil {
		p, err := whatif.Project(edited, in.settings, *cfg.Projection)
		if err != nil {
			return nil, fmt.Errorf("project HPA %s: %w", name, err)
		}
		w.Projection = p
	}
	return &WhatIfResult{WhatIf: w, Settings: in.settings, Warnings: in.warnings}, nil
}
