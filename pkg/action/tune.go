// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/metricsource"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/tune"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/validation"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// TuneResult is a tune, the as-is backtest it is measured against, and
// what the read warned of.
type TuneResult struct {
	Tune *explain.Tune
	// Backtest holds the actual curve and the as-is replay (for the
	// report).
	Backtest *explain.Backtest
	Settings engine.Settings
	Warnings []string
	// Report is what the HTML report draws beyond the document (set with
	// TuneConfig.Report).
	Report *TuneReport
}

// Tune reads one HPA and the recorded load of its target over the period,
// replays the period as the HPA is (the reference) and once per candidate
// setting the search picks, and returns the candidates, the frontier and
// the recommendation. Every figure comes from a whole replay of the
// period by whatif's backtest, the same replay `whatif --since` runs.
func Tune(ctx context.Context, cfg TuneConfig) (*TuneResult, error) {
	var opt TuneInput
	in, extra, since, until, err := readPeriod(ctx, cfg.Source, cfg.Name, cfg.Settings, cfg.Since, cfg.Until, opt.flag(&opt.Since), opt.flag(&opt.Until))
	if err != nil {
		return nil, err
	}
	hpa := in.snap.HPA
	space, names, err := tuneSpace(hpa, in.settings, cfg)
	if err != nil {
		return nil, err
	}
	bounds, err := tuneBounds(hpa, names, cfg.SLO)
	if err != nil {
		return nil, err
	}
	warm := tuneWarmUp(hpa, in.settings, space)
	rec, err := readRecording(ctx, in, extra, notBefore(since.Add(-warm), hpa.CreationTimestamp.Time), since, until, cfg.Load)
	if err != nil {
		return nil, err
	}
	opts := whatif.BacktestOptions{
		Start: since, LoadModel: cfg.LoadModel, PodStartup: cfg.PodStartup, SampleDelay: cfg.SampleDelay,
		Source: extra.source, Bounds: bounds, NoSteps: true,
	}
	ref, err := whatif.Backtest(in.snap, rec, in.settings, opts)
	if err != nil {
		return nil, fmt.Errorf("backtest of HPA %s: %w", hpaName(in.snap), err)
	}
	bt := ref.Backtest
	// The recording is marked once; every candidate counts by it.
	opts.Censoring = ref.Censoring
	unit := whatif.CostUnit(&bt.AsIs.Summary)
	refFig := whatif.TuneFigures(&bt.AsIs.Summary, &ref.AsIsFigures, unit)
	vopts := validation.OptionsFor(in.settings.Profile)
	replayer, err := whatif.NewReplayer(in.snap, rec, in.settings, opts)
	if err != nil {
		return nil, fmt.Errorf("tune of HPA %s: %w", hpaName(in.snap), err)
	}
	// Each candidate's replay and its figures, worked out once; the search
	// keeps their index (Figures.Ref).
	var replays candidateReplays
	apply := func(s tune.Setting) (*autoscalingv2.HorizontalPodAutoscaler, error) {
		h, err := s.Apply(hpa)
		if err != nil {
			return nil, err
		}
		if errs := validation.Spec(&h.Spec, field.NewPath("spec"), vopts); len(errs) > 0 {
			return nil, errs[0]
		}
		return h, nil
	}
	eval := func(_ context.Context, s tune.Setting) (tune.Figures, error) {
		h, err := apply(s)
		if err != nil {
			return tune.Figures{}, err
		}
		r, err := replayer.ReplayFigures(h)
		if err != nil {
			return tune.Figures{}, err
		}
		f := whatif.TuneFigures(&r.Path.Summary, &r.Figures, unit)
		return tune.Figures{Cost: f.Cost, Risk: f.Risk, Rescales: f.Rescales, Ref: replays.keep(r.Path, f)}, nil
	}
	res, err := tune.Search(ctx, space, eval, tune.Options{Budget: cfg.Budget, Workers: cfg.Workers, Reference: tune.Figures{Cost: refFig.Cost, Risk: refFig.Risk}, MaxRisk: cfg.MaxRisk})
	if err != nil {
		return nil, fmt.Errorf("tune of HPA %s: %w", hpaName(in.snap), err)
	}
	// The finalists again, under what the recording cannot tell: one
	// variant of the recording at a time.
	variants := rec.Variants()
	variant := func(v int) (tune.Evaluator, func(), error) {
		r, err := replayer.Variant(variants[v-1].Scrapes)
		if err != nil {
			return nil, nil, err
		}
		return func(_ context.Context, s tune.Setting) (tune.Figures, error) {
			h, err := apply(s)
			if err != nil {
				return tune.Figures{}, err
			}
			rp, err := r.ReplayFigures(h)
			if err != nil {
				return tune.Figures{}, err
			}
			return tune.Figures{Cost: rp.Figures.Cost(unit), Risk: rp.Figures.Risk(), Rescales: rp.Figures.Rescales}, nil
		}, nil, nil
	}
	period := bt.End.Sub(bt.Start)
	grain := 0.0
	if period > 0 {
		grain = float64(rec.Step) / float64(period)
	}
	if err := tune.Robust(ctx, res, tune.RobustOptions{Variants: len(variants), Variant: variant, Workers: cfg.Workers, RiskGrain: grain, FixedBound: cfg.MaxRisk != nil}); err != nil {
		return nil, fmt.Errorf("tune of HPA %s: %w", hpaName(in.snap), err)
	}
	t := &explain.Tune{
		APIVersion: explain.APIVersion, Kind: explain.KindTune, HPA: hpaName(in.snap),
		Start: bt.Start, End: bt.End, SyncPeriod: bt.SyncPeriod, Source: bt.Source, LoadModel: bt.LoadModel, CostUnit: unit,
		GridSize: res.GridSize, Replayed: len(res.Candidates), Rounds: res.Rounds, Exhausted: res.Exhausted,
		Actual: bt.Actual.Summary, Reference: refFig, Current: res.Current, Recommended: res.Recommended, RiskBound: res.Bound,
		Censored: bt.Censored,
	}
	for _, b := range bt.AsIs.Summary.AboveBound {
		t.Bounds = append(t.Bounds, explain.MetricBound{Metric: b.Metric, Bound: b.Bound})
	}
	for _, v := range variants {
		t.Variants = append(t.Variants, v.Words)
	}
	for _, ax := range space.Axes {
		a := explain.TuneAxis{Name: ax.Name, Current: ax.Fine[ax.Current].Label}
		for _, v := range ax.Fine {
			a.Values = append(a.Values, v.Label)
		}
		t.Space = append(t.Space, a)
	}
	for i := range res.Candidates {
		c := &res.Candidates[i]
		tc := explain.TuneCandidate{Values: c.Values, Error: c.Err, Frontier: c.Frontier}
		if r := c.Range; r != nil {
			tc.Range = &explain.TuneRange{
				CostMin: round3(r.Cost[0]), CostMax: round3(r.Cost[1]), RiskMin: round3(r.Risk[0]), RiskMax: round3(r.Risk[1]),
				Replays: r.Variants, Swings: r.Swings,
			}
		}
		if path, f, ok := replays.get(c); ok {
			tc.Figures = &f
			if c.Frontier || i == res.Current || i == res.Recommended {
				tc.Replicas = path.Replicas
			}
		}
		t.Candidates = append(t.Candidates, tc)
	}
	if res.Recommended >= 0 {
		c := &res.Candidates[res.Recommended]
		patch, err := tune.Patch(hpa, c.Setting)
		if err != nil {
			return nil, fmt.Errorf("tune of HPA %s: %w", hpaName(in.snap), err)
		}
		r := &explain.TuneRecommendation{
			Changes: space.Changes(c), Patch: string(patch),
			Command: fmt.Sprintf("kubectl patch hpa %s -n %s --type merge -p '%s'", hpa.Name, hpa.Namespace, patch),
			Saving:  round3(refFig.Cost - worseCost(c)),
		}
		if r.Changes == nil {
			r.Changes = []string{}
		}
		if refFig.Cost > 0 {
			r.SavingFraction = round3((refFig.Cost - worseCost(c)) / refFig.Cost)
		}
		t.Recommendation = r
	}
	t.Clock = bt.Clock
	t.Notes = tuneNotes(t, res, bt)
	out := &TuneResult{Tune: t, Backtest: bt, Settings: in.settings, Warnings: append(in.warnings, rec.Warnings...)}
	if cfg.Report {
		out.Report, out.Warnings = tuneReport(cfg, in, rec, opts, res, &replays, bt, out.Warnings)
	}
	return out, nil
}

// readPeriod reads HPA name for a replay over [since, until) and moves
// since to the HPA's creation when it came later (with a warning);
// sinceFlag and untilFlag name the options that set them.
func readPeriod(ctx context.Context, src Source, name string, o SettingsOverrides, since, until time.Time, sinceFlag, untilFlag string) (*snapshot, *recordedExtra, time.Time, time.Time, error) {
	if until.IsZero() {
		until = src.Now
	}
	if !since.Before(until) {
		return nil, nil, since, until, fmt.Errorf("%s %s is not before %s %s", sinceFlag, stamp(since), untilFlag, stamp(until))
	}
	in, extra, err := readForRecorded(ctx, src, name, o)
	if err != nil {
		return nil, nil, since, until, err
	}
	created := in.snap.HPA.CreationTimestamp.Time
	if !created.IsZero() && since.Before(created) {
		if !created.Before(until) {
			return nil, nil, since, until, fmt.Errorf("HPA %s was created at %s, after %s %s: there is nothing of it to replay", hpaName(in.snap), stamp(created), untilFlag, stamp(until))
		}
		// Before it, no HPA of this name scaled anything; one of the same
		// name deleted before it (a namespace created again) had its own
		// pods and history, which are not this one's.
		since = created
		in.warnings = append(in.warnings, fmt.Sprintf("HPA %s was created at %s, after %s: the replay starts there, with no controller history", hpaName(in.snap), stamp(created), sinceFlag))
	}
	return in, extra, since, until, nil
}

// specMetricName names a metric of the spec as --slo takes it: the
// resource ("cpu") or the metric's name.
func specMetricName(m *autoscalingv2.MetricSpec) string {
	if src, ok := metricsource.Given(m); ok {
		return src.Name()
	}
	return string(m.Type)
}

// tuneSpace builds the search space around the HPA's own setting.
func tuneSpace(hpa *autoscalingv2.HorizontalPodAutoscaler, set engine.Settings, cfg TuneConfig) (*tune.Space, []string, error) {
	cur, err := tune.FromHPA(hpa, set.DownscaleStabilization)
	if err != nil {
		return nil, nil, fmt.Errorf("HPA %s: %w", hpa.Namespace+"/"+hpa.Name, err)
	}
	names := make([]string, len(hpa.Spec.Metrics))
	infos := make([]tune.MetricInfo, len(hpa.Spec.Metrics))
	for i := range hpa.Spec.Metrics {
		m := &hpa.Spec.Metrics[i]
		names[i] = specMetricName(m)
		infos[i] = tune.MetricInfo{Name: names[i], Type: metricTargetType(m)}
	}
	sp, err := tune.NewSpace(cur, tune.SpaceOptions{
		Metrics: infos, Vary: cfg.Vary, Set: cfg.Set, Tolerance: set.Profile.Switches.BehaviorTolerance, MaxReplicas: hpa.Spec.MaxReplicas,
		VaryName: tuneFlag(func(in *TuneInput) any { return &in.Vary }), SetName: tuneFlag(func(in *TuneInput) any { return &in.Set }),
	})
	if err != nil {
		return nil, nil, &UsageError{Err: err}
	}
	return sp, names, nil
}

// sloFlag names the option of the service bounds.
func sloFlag() string { return tuneFlag(func(in *TuneInput) any { return &in.SLO }) }

// tuneFlag names the option of a field of TuneInput.
func tuneFlag(pick func(*TuneInput) any) string {
	var in TuneInput
	return in.flag(pick(&in))
}

func metricTargetType(m *autoscalingv2.MetricSpec) autoscalingv2.MetricTargetType {
	if t := metricsource.Target(m); t != nil {
		return t.Type
	}
	return ""
}

// tuneBounds turns --slo METRIC=BOUND into whatif's bounds; a metric
// without one keeps whatif.DefaultBound.
func tuneBounds(hpa *autoscalingv2.HorizontalPodAutoscaler, names []string, slo map[string]string) ([]whatif.Bound, error) {
	var out []whatif.Bound
	for _, k := range slices.Sorted(maps.Keys(slo)) {
		i := slices.Index(names, k)
		if i < 0 {
			return nil, usageErrorf("%s %s: HPA %s/%s has no metric %q (its metrics: %s)", sloFlag(), k, hpa.Namespace, hpa.Name, k, strings.Join(names, ", "))
		}
		b, err := boundFor(i, metricTargetType(&hpa.Spec.Metrics[i]) == autoscalingv2.UtilizationMetricType, slo[k])
		if err != nil {
			return nil, usageErrorf("%s %s: %w", sloFlag(), k, err)
		}
		out = append(out, b)
	}
	return out, nil
}

// tuneWarmUp is the longest warm-up any setting of the space needs: that
// of the HPA, or of any axis at any of its values.
func tuneWarmUp(hpa *autoscalingv2.HorizontalPodAutoscaler, set engine.Settings, sp *tune.Space) time.Duration {
	warm := whatif.WarmUp(hpa, set)
	for a, ax := range sp.Axes {
		for v := range ax.Fine {
			idx := sp.CurrentIndex()
			idx[a] = v
			if h, err := sp.Setting(idx).Apply(hpa); err == nil {
				warm = max(warm, whatif.WarmUp(h, set))
			}
		}
	}
	return warm
}

// candidateReplays keeps each candidate's replay and figures, for the
// document and the report, by the index the search keeps (Figures.Ref).
// The search's workers add to it at once.
type candidateReplays struct {
	mu      sync.Mutex
	paths   []*explain.BacktestPath
	figures []explain.TuneFigures
}

// keep adds a replay and returns its index.
func (c *candidateReplays) keep(path *explain.BacktestPath, f explain.TuneFigures) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.paths, c.figures = append(c.paths, path), append(c.figures, f)
	return len(c.paths) - 1
}

// get returns a candidate's replay and figures (ok false when its replay
// failed).
func (c *candidateReplays) get(cand *tune.Candidate) (*explain.BacktestPath, explain.TuneFigures, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := cand.Figures.Ref
	if cand.Err != "" || i < 0 || i >= len(c.paths) {
		return nil, explain.TuneFigures{}, false
	}
	return c.paths[i], c.figures[i], true
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// worseCost is a candidate's cost at the worse end of its range (its
// only replay's without one): what a recommendation promises.
func worseCost(c *tune.Candidate) float64 {
	if c.Range != nil {
		return c.Range.Cost[1]
	}
	return c.Figures.Cost
}

// tuneNotes say what the search assumed and what the recording cannot
// tell.
func tuneNotes(t *explain.Tune, res *tune.Result, bt *explain.Backtest) []string {
	notes := []string{
		fmt.Sprintf("%d of the grid's %d settings replayed, each over the whole period, sync by sync, by the same replay as a backtest (%d refinement rounds after the first%s)",
			t.Replayed, t.GridSize, t.Rounds, map[bool]string{true: "; the budget ended the search", false: ""}[t.Exhausted]),
		fmt.Sprintf("load model %s: a candidate that runs another number of pods than the workload really had %s", t.LoadModel, map[bool]string{
			true:  "shares the recorded total load over its ready pods",
			false: "gives each of its pods the load a real pod recorded",
		}[t.LoadModel == explain.LoadConstantTotal]),
		censoredTuneNote(t.Censored),
	}
	notes = append(notes, whatif.ClockNotes(t.Clock)...)
	if len(t.Variants) > 0 {
		notes = append(notes, fmt.Sprintf("the %d finalists (the cheapest candidates within the bound, and the HPA's own setting) were replayed again under %d variants of the recording (%s): the recommendation is the cheapest at its worse end whose worse risk stays within the HPA's own worse risk, and its saving is counted at its worse end",
			len(res.Finalists), len(t.Variants), strings.Join(t.Variants, "; ")))
		for _, i := range res.Finalists {
			c := &res.Candidates[i]
			if c.Range == nil || !c.Range.Swings {
				continue
			}
			who := strings.Join(c.Values, " ")
			if i == res.Current {
				who = "the HPA's own setting"
			}
			notes = append(notes, fmt.Sprintf("%s swings with what the recording cannot tell (where metrics-server's scrapes fell, a fraction of a percent of the load): cost %.3f–%.3f %s, above the bound %s–%s of the period",
				who, c.Range.Cost[0], c.Range.Cost[1], t.CostUnit, pct(c.Range.Risk[0]), pct(c.Range.Risk[1])))
		}
	}
	if res.Current >= 0 {
		c := &res.Candidates[res.Current]
		if math.Abs(c.Figures.Cost-t.Reference.Cost) > 1e-9 || math.Abs(c.Figures.Risk-t.Reference.Risk) > 1e-9 {
			notes = append(notes, fmt.Sprintf("the HPA's own setting, written out in full as a candidate, replays differently from the HPA as it is (cost %.3f vs %.3f, risk %.3f vs %.3f): a default the candidate states explicitly is not the one the controller applies",
				c.Figures.Cost, t.Reference.Cost, c.Figures.Risk, t.Reference.Risk))
		}
	}
	for _, m := range bt.AsIs.Summary.MetricsFailed {
		if m.Fraction > 0 {
			notes = append(notes, fmt.Sprintf("metric %s could not be computed for %s of the period (%s): those syncs are replayed as the controller ran them, without it", m.Metric, pct(m.Fraction), m.Duration))
		}
	}
	if t.Recommended < 0 {
		notes = append(notes, fmt.Sprintf("no candidate kept the time above the bound within %s of the period: widen the search (%s, %s) or allow more (%s)", pct(t.RiskBound),
			tuneFlag(func(in *TuneInput) any { return &in.Vary }), tuneFlag(func(in *TuneInput) any { return &in.Set }), tuneFlag(func(in *TuneInput) any { return &in.MaxRisk })))
	}
	for _, r := range bt.Reconstructed {
		notes = append(notes, "reconstructed: "+r)
	}
	return notes
}

// censoredTuneNote says what the recording tells of censored demand.
func censoredTuneNote(c *explain.Censored) string {
	if n := whatif.CensoredNote(c); n != "" {
		return n
	}
	if c != nil && c.Source != "" && !strings.HasPrefix(c.Source, "not known") {
		return "no censored demand: no ready pod ran at its CPU limit or was throttled in the period (" + c.Source + ")"
	}
	return "the recording holds no CPU limits or throttling series: where the pods ran at their limit the real demand may have been higher than recorded, so the time above the bound may be a lower bound, and nothing tells where"
}

func pct(f float64) string { return fmt.Sprintf("%.1f%%", f*100) }
