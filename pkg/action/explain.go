// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/load"
)

// ExplainConfig is one explain of one HPA.
type ExplainConfig struct {
	Source   Source
	Name     string
	Settings SettingsOverrides
	// Dump, when set, is a file to write the snapshot and settings of the
	// replay to, in the offline format.
	Dump string
	// Evaluate replays the sync; nil means engine.Evaluate.
	Evaluate EvaluateFunc
}

// ExplainResult is the replay and what the user should know about it.
type ExplainResult struct {
	// Decision is nil when there is no HPA to replay: a ScaledObject whose
	// HPA KEDA deleted (paused) or never wrote; KEDA then says it all.
	Decision *explain.Decision
	// KEDA is KEDA's part, for an HPA a ScaledObject owns (also in
	// Decision.KEDA) or a ScaledObject without HPA.
	KEDA     *explain.KEDA
	Snapshot *engine.Snapshot
	Settings engine.Settings
	// Warnings are inputs that could not be read or look wrong, one line each.
	Warnings []string
	// Notes say what was done besides the replay (the dump written).
	Notes []string

	// in is what was read (for whatif).
	in *snapshot
}

// Explain reads one HPA and its inputs and replays one sync.
func Explain(ctx context.Context, cfg ExplainConfig) (*ExplainResult, error) {
	if err := checkObjectName(cfg.Name); err != nil {
		return nil, err
	}
	if name, ok := ScaledObjectName(cfg.Name); ok {
		return explainScaledObject(ctx, cfg, name)
	}
	in, err := cfg.Source.read(ctx, plainHPAName(cfg.Name), cfg.Settings)
	if err != nil {
		return nil, err
	}
	return explainSnapshot(cfg, in)
}

// explainSnapshot replays the sync of a snapshot read, with KEDA's part
// when a ScaledObject owns the HPA.
func explainSnapshot(cfg ExplainConfig, in *snapshot) (*ExplainResult, error) {
	var err error
	res := &ExplainResult{Snapshot: in.snap, Settings: in.settings, Warnings: in.warnings}
	if cfg.Dump != "" {
		var k *load.KEDADump
		if in.keda != nil {
			k = &load.KEDADump{ScaledObject: in.keda.so, Version: in.keda.version.String(), VersionSource: in.keda.versionSource}
		}
		if err := writeDump(cfg.Dump, in.snap, &in.settings, k); err != nil {
			return nil, err
		}
		var src SourceInput
		res.Notes = append(res.Notes, fmt.Sprintf("Snapshot written to %s (replay: kubectl hpa explain %s -n %s -%s %s %s %s)",
			cfg.Dump, in.snap.HPA.Name, in.snap.HPA.Namespace, SourceRows.Named(&src, &src.Files).Shorthand, cfg.Dump,
			src.flag(&src.Now), in.snap.Now.UTC().Format(time.RFC3339Nano)))
	}
	eval := cfg.Evaluate
	if eval == nil {
		eval = engine.Evaluate
	}
	if res.Decision, err = eval(in.snap, in.settings); err != nil {
		return nil, fmt.Errorf("replay HPA %q: %w", in.snap.HPA.Namespace+"/"+in.snap.HPA.Name, err)
	}
	if err := attachKEDA(in.keda, in.snap, in.settings, eval, res.Decision); err != nil {
		// The HPA's replay stands; KEDA's part is left out, as explain -A
		// does.
		res.Warnings = append(res.Warnings, fmt.Sprintf("ScaledObject %s: KEDA's part is not explained: %v", in.keda.so.Ref(), err))
	}
	res.KEDA = res.Decision.KEDA
	res.in = in
	return res, nil
}

func writeDump(path string, snap *engine.Snapshot, set *engine.Settings, k *load.KEDADump) error {
	var in ExplainInput
	dump := in.flag(&in.Dump)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("%s: %w", dump, err)
	}
	var src SourceInput
	replay := &load.ReplayFlags{Files: "-" + SourceRows.Named(&src, &src.Files).Shorthand, Now: src.flag(&src.Now)}
	if err := load.DumpKEDA(f, snap, set, k, replay); err != nil {
		_ = f.Close()
		return fmt.Errorf("%s %s: %w", dump, path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s %s: %w", dump, path, err)
	}
	return nil
}

// ManyConfig is an explain of every HPA of a namespace, of every namespace
// (AllNamespaces) or of a label selector, read from the cluster.
type ManyConfig struct {
	Source        Source
	AllNamespaces bool
	Selector      string
	Settings      SettingsOverrides
	// Progress, if set, is called as HPAs are gathered.
	Progress func(done, total int)
	// OnKEDA, if set, is called before the first replay when the scope
	// holds ScaledObjects (the list view adds its KEDA column).
	OnKEDA   func()
	Evaluate EvaluateFunc
	// Contexts, when set, selects the kubeconfig contexts ExplainContexts
	// reads (ExplainMany reads Source's).
	Contexts *Contexts
}

// ManyResult says what ExplainMany read.
type ManyResult struct {
	// Namespace is the namespace read ("" with AllNamespaces).
	Namespace string
	// Count is the number of HPAs explained.
	Count int
	// Settings are the controller settings of every replay.
	Settings engine.Settings
	Warnings []string
	// KEDA are the paused ScaledObjects of the scope whose HPA KEDA
	// deleted: they have no row of their own otherwise.
	KEDA []*explain.KEDA
}

// ExplainMany reads the selected HPAs and their inputs from the cluster,
// replays each, and calls emit with what prepare made of each decision, in
// namespace and name order. prepare runs right after each replay, in the
// replays' parallel workers (the encoding of the output, say).
func ExplainMany[T any](ctx context.Context, cfg ManyConfig, prepare func(*explain.Decision) (T, error), emit func(T) error) (*ManyResult, error) {
	src := cfg.Source
	clients, ns, err := src.liveScope(cfg.AllNamespaces)
	if err != nil {
		return nil, err
	}
	// What the controller is (its version, its flags) is read while the
	// HPAs and what they share are listed.
	detected := detectStart(ctx, clients)
	kedaWait := startKEDAMany(ctx, clients, ns, cfg.Settings.KEDAVersion)
	scope, err := gather.List(ctx, clients, gather.ManyOptions{
		Options: gather.Options{Now: src.Now}, Namespace: ns, LabelSelector: cfg.Selector, Progress: cfg.Progress,
	})
	if err != nil {
		return nil, clusterError(err, " (is the cluster reachable?)")
	}
	ctl := detected(scope.HPAs)
	set, err := ResolveSettings(ctl, cfg.Settings)
	if err != nil {
		return nil, err
	}
	out := &ManyResult{Namespace: ns, Settings: set}
	seen := map[string]bool{}
	warn := func(ws []string) {
		for _, w := range ws {
			if !seen[w] {
				seen[w] = true
				out.Warnings = append(out.Warnings, w)
			}
		}
	}
	warn(ctl.Warnings)
	warn(scope.Warnings())
	eval := cfg.Evaluate
	if eval == nil {
		eval = engine.Evaluate
	}
	km := kedaWait()
	warn(km.warnings)
	if len(km.sos) > 0 && cfg.OnKEDA != nil {
		cfg.OnKEDA()
	}
	hpas := map[string]bool{}
	// The replays (and prepare) run in parallel with the snapshots; the
	// results are emitted in order.
	err = gather.EachWith(ctx, scope, func(r *gather.Result) (T, error) {
		cfg.Settings.assume(r.Snapshot)
		d, err := eval(r.Snapshot, set)
		if err != nil {
			var none T
			return none, err
		}
		r.Warnings = append(r.Warnings, km.attach(r.Snapshot, set, eval, d)...)
		return prepare(d)
	}, func(r *gather.Result, v T, err error) error {
		hpas[r.Snapshot.HPA.Namespace+"/"+r.Snapshot.HPA.Name] = true
		warn(r.Warnings)
		if err != nil {
			return fmt.Errorf("replay HPA %q: %w", r.Snapshot.HPA.Namespace+"/"+r.Snapshot.HPA.Name, err)
		}
		out.Count++
		return emit(v)
	})
	if err != nil {
		return nil, err
	}
	km.warnings = nil
	out.KEDA = km.pausedWithoutHPA(ctx, clients, src.Now, hpas)
	warn(km.warnings)
	return out, nil
}
