// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"fmt"
)

// ExplainInput is explain's options (ExplainRows): the HPAs it
// replays, --at and its recorded load, the history, and the flags of the
// command line only.
type ExplainInput struct {
	// AllNamespaces (-A) and Selector (-l) select many HPAs; Contexts
	// the kubeconfig contexts they are read in.
	AllNamespaces bool
	Selector      string
	Contexts      ContextsInput
	// At is a past instant (a duration ago, an RFC 3339 time or a UTC time
	// of day) whose sync to explain over Recorded.
	At       string
	Recorded RecordedInput
	HistoryInput
	// Dump is a file to write the gathered snapshot to, in the offline
	// format, so that explain -f reproduces the explanation.
	Dump string
	// Watch replays the HPA at every sync and as its inputs change.
	Watch bool
	// ExitCode exits 2 when an HPA has a problem of FailOn (which implies
	// it; see ParseFailOn).
	ExitCode bool
	FailOn   string
}

// flag names the option that sets field, for a message.
func (in *ExplainInput) flag(field any) string { return ExplainRows.Named(in, field).Flag() }

// Gate returns the gate of --exit-code and --fail-on, nil without them.
func (in ExplainInput) Gate() (*Gate, error) {
	if !in.ExitCode && in.FailOn == "" {
		return nil, nil
	}
	failOn, err := ParseFailOn(in.FailOn)
	if err != nil {
		return nil, err
	}
	return NewGate(failOn), nil
}

// AtConfig checks --at and its recorded load and returns the explain of
// the past sync, or nil without --at.
func (in ExplainInput) AtConfig(src Source, name string, settings SettingsOverrides) (*ExplainAtConfig, error) {
	if in.At == "" {
		if in.Recorded.Used() {
			return nil, in.Recorded.usedError(in.flag(&in.At))
		}
		return nil, nil
	}
	at, err := ParsePast(in.At, src.Now)
	if err != nil {
		return nil, usageErrorf("%s: %w", in.flag(&in.At), err)
	}
	load, err := in.Recorded.Load()
	if err != nil {
		return nil, err
	}
	return &ExplainAtConfig{Source: src, Name: name, Settings: settings, At: at, Load: load}, nil
}

// ExplainModes are what explain's arguments and flags ask for; Check
// refuses the combinations that make no sense.
type ExplainModes struct {
	// Args are the positional arguments; Name is the HPA's (one argument).
	Args []string
	Name string
	// AllNamespaces is -A, Selector -l.
	AllNamespaces bool
	Selector      string
	// Files is -f, Dump --dump, Watch --watch, Now --now, At --at and Gate
	// --exit-code or --fail-on; Contexts the contexts' options.
	Files, Dump, Watch, Now, At, Gate, Contexts bool
}

// Check returns the first contradiction among the modes, nil without.
func (m ExplainModes) Check() error {
	var in ExplainInput
	var src SourceInput
	short := func(o string) string { return "-" + o }
	all, sel := short(ExplainRows.Named(&in, &in.AllNamespaces).Shorthand), short(ExplainRows.Named(&in, &in.Selector).Shorthand)
	files := short(SourceRows.Named(&src, &src.Files).Shorthand)
	dump, watch, at := in.flag(&in.Dump), in.flag(&in.Watch), in.flag(&in.At)
	switch {
	case len(m.Args) > 1:
		return fmt.Errorf("at most one HorizontalPodAutoscaler name is expected, got %d: %v", len(m.Args), m.Args)
	case m.Name != "" && (m.AllNamespaces || m.Selector != ""):
		return fmt.Errorf("a NAME cannot be combined with %s or %s", all, sel)
	case m.Name != "" && m.Contexts:
		return fmt.Errorf("a NAME cannot be combined with %s or the other contexts' options, which read many HPAs: --context picks the cluster of one", in.Contexts.flag(&in.Contexts.Names))
	case m.Contexts && (m.Files || m.Watch):
		return fmt.Errorf("the contexts' options read many clusters once: they cannot be combined with %s or %s", files, watch)
	case m.Name == "" && m.Files:
		return fmt.Errorf("the name of the HorizontalPodAutoscaler is required with %s", files)
	case m.Name == "" && m.Dump:
		return fmt.Errorf("%s writes the snapshot of one HPA: give its NAME", dump)
	case m.Watch && m.Files:
		return fmt.Errorf("%s follows a live cluster; it cannot be combined with %s", watch, files)
	case m.Watch && m.Dump:
		return fmt.Errorf("%s and %s cannot be combined", watch, dump)
	case m.Watch && m.Now:
		return fmt.Errorf("%s replays at the current time; it cannot be combined with %s", watch, SourceRows.Named(&src, &src.Now).Flag())
	case m.At && (m.Name == "" || m.Watch || m.Dump):
		return fmt.Errorf("%s explains one HPA's past sync: give its NAME, without %s or %s", at, watch, dump)
	case m.Watch && m.Gate:
		return fmt.Errorf("%s gates on one replay, and a watch ends only when stopped (with exit 0): drop %s or %s", in.flag(&in.ExitCode), in.flag(&in.ExitCode), watch)
	}
	return nil
}

// ExplainOne replays one HPA: the sync of a past instant over recorded
// load when at is set (ExplainAtInput.Config), else cfg's.
func ExplainOne(ctx context.Context, cfg ExplainConfig, at *ExplainAtConfig) (*ExplainResult, error) {
	if at != nil {
		return ExplainAt(ctx, *at)
	}
	return Explain(ctx, cfg)
}

// NoneFound is the line explain prints when it found no HPA (nor paused
// ScaledObject), "" when it found some.
func (r *ManyResult) NoneFound(allNamespaces bool) string {
	switch {
	case r.Count > 0 || len(r.KEDA) > 0:
		return ""
	case allNamespaces:
		return "No HorizontalPodAutoscalers found in any namespace."
	}
	return fmt.Sprintf("No HorizontalPodAutoscalers found in namespace %q.", r.Namespace)
}
