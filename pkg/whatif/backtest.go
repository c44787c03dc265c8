// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// BacktestOptions shape a backtest.
type BacktestOptions struct {
	// Start is the first sync the summaries count. The recording may begin
	// earlier: the syncs before Start replay the controller history that
	// leads to it (the warm-up; WarmUp says how long it should be).
	Start time.Time
	// Changes, when not empty, gives the replay with changes. Only changes
	// of the HPA's spec apply (behavior, targets, bounds, tolerances): the
	// load is the recorded one.
	Changes *Overrides
	// LoadModel says how recorded load is spread over a pod count that
	// differs from the real one (explain.LoadConstantTotal, the default, or
	// explain.LoadConstantPerPod).
	LoadModel string
	// PodStartup and SampleDelay are how long a pod the replay adds takes
	// to become ready and to have a sample in the metrics API, and
	// SampleDelay also how long after its creation a real pod's first
	// recorded sample waits; 0 estimates each from the recording's pods.
	PodStartup  time.Duration
	SampleDelay time.Duration
	// Source names where the recorded load came from.
	Source string
	// Bounds are the service bounds of the HPA's metrics (DefaultBound
	// for a metric without one).
	Bounds []Bound
	// Censoring marks where the recorded demand was censored, from Start
	// on (Recording.Censor); nil marks it. Tune marks the recording once
	// (BacktestResult.Censoring) and passes it to every candidate.
	Censoring *recording.Censoring
	// NoSteps leaves the projection's steps and rescales out
	// (BacktestResult.Projection holds its totals only): tune reads a
	// backtest's paths and figures, not its steps, which for a month of
	// syncs held a gigabyte, each sync evaluated beyond its outcome. With
	// no steps to write, the replays take the fast path where it serves
	// (fastreplay.go), as tune's candidates do, and keep no last decision
	// (BacktestResult.AsIs and Changed are nil). The backtest is the same.
	NoSteps bool
}

// WarmUp is how long before a period a replay must begin so that the
// controller history it reaches the period with is the replayed one: twice
// the longest stabilization window or policy period of the HPA, plus a
// sync. Twice, because the replay's first sync is a fresh controller's,
// which seeds its history with the current count: that seed must have left
// the window, and the count it held must have been replayed away, by the
// time the period begins.
func WarmUp(hpa *autoscalingv2.HorizontalPodAutoscaler, set engine.Settings) time.Duration {
	s := &simulation{snap: &engine.Snapshot{HPA: hpa}, set: set}
	return 2*s.quietPeriod() - set.SyncPeriod
}

// BacktestResult is a backtest and the replays behind it.
type BacktestResult struct {
	Backtest *explain.Backtest
	// Projection has every counted sync of the replay with the changes
	// (as-is without changes).
	Projection *explain.Projection
	// AsIs and Changed are the decisions of the last sync of each replay
	// (Changed is AsIs without changes); nil with NoSteps, whose replays
	// keep no decision.
	AsIs, Changed *explain.Decision
	// Censoring is the marking of the recording's censored demand over
	// the period.
	Censoring *recording.Censoring
	// AsIsFigures are the figures of the replay as the HPA is.
	AsIsFigures Figures
}

// Backtest replays the controller over a recording, once with the HPA of
// snap as it is and once with the changes of opts (if any), each sync from
// the state the one before left, and compares both with the replica count
// the workload really had (rec.Replicas). Where a replay's replica count is
// the real one, its pods are the real pods with their recorded samples, so
// its decisions are the controller's; elsewhere it adds pods (ready after
// PodStartup, reporting after SampleDelay) or leaves out real ones, and
// spreads the recorded load over its pods by the load model.
func Backtest(snap *engine.Snapshot, rec *recording.Recording, set engine.Settings, opts BacktestOptions) (*BacktestResult, error) {
	if snap == nil || snap.HPA == nil {
		return nil, errors.New("snapshot has no HorizontalPodAutoscaler")
	}
	first, opts, err := prepare(rec, opts)
	if err != nil {
		return nil, err
	}
	bt := &explain.Backtest{
		Start: rec.Instant(first), End: rec.End(), SyncPeriod: syncPeriodOf(rec).String(), Clock: rec.Clock.Describe(),
		WarmUp: rec.Instant(first).Sub(rec.Start).String(), Source: opts.Source,
		LoadModel: opts.LoadModel, PodStartup: opts.PodStartup.String(), SampleDelay: opts.SampleDelay.String(),
		Sources: make([]explain.BacktestSource, 0, len(rec.Sources)), Reconstructed: slices.Clone(rec.Reconstructed),
	}
	for _, s := range rec.Sources {
		bt.Sources = append(bt.Sources, explain.BacktestSource{What: s.What, Query: s.Query, Series: s.Series})
	}
	bt.Censored = censoredSummary(rec, opts.Censoring, first)
	bt.Notes = append(backtestNotes(rec, opts), ClockNotes(bt.Clock)...)
	if n := CensoredNote(bt.Censored); n != "" {
		bt.Notes = append(bt.Notes, n)
	}

	asIs, err := newReplayRun("as-is", snap, snap.HPA, rec, set, opts)
	if err != nil {
		return nil, err
	}
	paths := []*replayRun{asIs}
	if opts.Changes != nil && !opts.Changes.Empty() {
		edited, changes, err := Apply(snap, opts.Changes, set)
		if err != nil {
			return nil, err
		}
		changed, err := newReplayRun("changed", snap, edited.HPA, rec, set, opts)
		if err != nil {
			return nil, err
		}
		paths = append(paths, changed)
		bt.Changes = changes
	}
	// The recorded load is the same for every path: worked out once.
	load := asIs.totalLoad()
	for _, p := range paths {
		p.load = load
	}
	projected := paths[len(paths)-1]
	proj := &explain.Projection{
		Start: rec.Instant(first), SyncPeriod: rec.Step.String(), LoadModel: opts.LoadModel,
		PodStartup: opts.PodStartup.String(), Trace: opts.Source, Notes: bt.Notes,
		Rescales: []explain.ProjectedRescale{},
	}
	if !opts.NoSteps {
		proj.Steps = make([]explain.ProjectionStep, 0, rec.Len-first)
	}
	// Without steps, a replay is its outcomes alone: the fast path's, where
	// it serves, as for tune's candidates (one Replayer shares what the
	// paths' fast replays share).
	var fast *Replayer
	if opts.NoSteps {
		fast = &Replayer{snap: snap, rec: rec, set: set, opts: opts, first: first, load: load}
		fast.loadOnce.Do(func() {})
	}
	// The replays are independent: each runs on its own goroutine and
	// keeps a small outcome per sync; the summaries come after.
	outcomes := make([][]syncOutcome, len(paths))
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if fast != nil {
				outcomes[i], errs[i] = fast.replayOutcomes(p, first)
				return
			}
			var steps *explain.Projection
			if p == projected && !opts.NoSteps {
				steps = proj
			}
			outcomes[i], errs[i] = p.run(first, steps)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	acc := make([]*pathTally, len(paths))
	for i := range paths {
		acc[i] = newPathTally(rec, first)
		acc[i].censored = opts.Censoring
	}
	forced, err := newActualReplay(fast, func() (*replayRun, error) {
		p, err := newReplayRun("actual", snap, snap.HPA, rec, set, opts)
		if err == nil {
			p.load = load
		}
		return p, err
	})
	if err != nil {
		return nil, err
	}
	actual := newPathTally(rec, first)
	actual.censored = opts.Censoring
	for k := first; k < rec.Len; k++ {
		for i := range paths {
			o := &outcomes[i][k-first]
			acc[i].add(k, o.after(), o)
			if o.rescale {
				acc[i].rescale(rec.Instant(k), o)
			}
		}
		// The actual curve's metrics are the as-is replay's wherever that
		// replay ran the real pods; elsewhere a sync of the real pods at
		// the real count gives them.
		n, _ := asIs.actualAt(k)
		o := &outcomes[0][k-first]
		if o.current != n {
			forcedOutcome, err := forced.syncAt(k, n)
			if err != nil {
				return nil, err
			}
			o = &forcedOutcome
		}
		actual.add(k, n, o)
	}
	forced.finish()
	acc[0].describe(asIs)
	actual.describe(asIs)
	if len(paths) > 1 {
		acc[1].describe(paths[1])
	}
	proj.FinalReplicas = projected.replicas
	proj.Duration = rec.End().Sub(rec.Instant(first)).String()
	bt.Actual = actual.path("actual", rec.Replicas.Source)
	if rec.Replicas.Source == "" || rec.Replicas.Source == recording.SourceNone {
		bt.Actual.Source = "pods"
	}
	bt.Actual.Rescales = actualRescales(rec, first)
	bt.Actual.Summary.Rescales = len(bt.Actual.Rescales)
	// The actual curve's rescales are the recorded ones, counted only now.
	bt.Actual.Summary.RescalesPerHour = perHour(len(bt.Actual.Rescales), rec.End().Sub(rec.Instant(first)))
	bt.AsIs = acc[0].path("as-is", "replay")
	asIsFigures := acc[0].figures(&bt.AsIs.Summary)
	if len(paths) > 1 {
		ch := acc[1].path("changed", "replay")
		bt.Changed = &ch
	}
	res := &BacktestResult{Backtest: bt, Projection: proj, Censoring: opts.Censoring, AsIsFigures: asIsFigures}
	if !opts.NoSteps {
		res.AsIs, res.Changed = paths[0].last, projected.last
	}
	return res, nil
}

// prepare checks the recording and the options, fills in their defaults
// and returns the index of the first counted sync: the first instant at or
// after opts.Start.
func prepare(rec *recording.Recording, opts BacktestOptions) (int, BacktestOptions, error) {
	if err := rec.Validate(); err != nil {
		return 0, opts, err
	}
	if opts.LoadModel == "" {
		opts.LoadModel = explain.LoadConstantTotal
	}
	if opts.LoadModel != explain.LoadConstantTotal && opts.LoadModel != explain.LoadConstantPerPod {
		return 0, opts, fmt.Errorf("unknown load model %q (want %s or %s)", opts.LoadModel, explain.LoadConstantTotal, explain.LoadConstantPerPod)
	}
	first := 0
	for first < rec.Len-1 && rec.Instant(first).Before(opts.Start) {
		first++
	}
	if opts.Censoring == nil {
		opts.Censoring = rec.Censor(first)
	}
	return first, estimateDelays(rec, opts), nil
}

// ReplayHPA replays the recording once with hpa in place of the snapshot's
// HPA and sums the curve up as Backtest sums up its replay with changes:
// tune's candidates. It is that replay alone (no as-is and no actual
// curve), so a candidate's figures are those `whatif --since` gives for the
// same HPA.
func ReplayHPA(snap *engine.Snapshot, rec *recording.Recording, set engine.Settings, hpa *autoscalingv2.HorizontalPodAutoscaler, opts BacktestOptions) (*explain.BacktestPath, error) {
	r, err := NewReplayer(snap, rec, set, opts)
	if err != nil {
		return nil, err
	}
	// One replay: the load of the instants it replays on other pods than
	// the real ones is summed at those instants only.
	r.alone = true
	return r.Replay(hpa)
}

// Replayer replays one recording under many HPAs, as ReplayHPA does each:
// tune's candidates. What depends on the recording alone (its checks, the
// estimated delays, the real pods' total load at each instant) is worked
// out once and read, never written, by the replays, which may run at once.
type Replayer struct {
	snap  *engine.Snapshot
	rec   *recording.Recording
	set   engine.Settings
	opts  BacktestOptions
	first int
	// load is built by the first replay, once (loadOnce), beside the
	// fast path's shared part (prepOnce).
	load     *recordedLoad
	loadOnce sync.Once
	prepOnce sync.Once
	alone    bool
	// fastSharedOnce holds what the fast replays share (fastreplay.go).
	fastSharedOnce
	// given is the options as NewReplayer was given them; parent is the
	// Replayer whose Variant made this one (nil: none), and phase its
	// scrapes but for their Scale (variants.go).
	given  BacktestOptions
	parent *Replayer
	phase  recording.Scrapes
	// kept is the shared part of the variants' pods at keptPhase, and
	// keptRecs the recordings of the variants resampled beside the last
	// one asked for (variants.go).
	keptRecs   []keptRecording
	keptMu     sync.Mutex
	kept       *fastShared
	keptPhase  recording.Scrapes
	keptDelays [2]time.Duration
}

// NewReplayer checks the recording and the options for replays of it.
func NewReplayer(snap *engine.Snapshot, rec *recording.Recording, set engine.Settings, opts BacktestOptions) (*Replayer, error) {
	given := opts
	if snap == nil {
		return nil, errors.New("no HorizontalPodAutoscaler to replay")
	}
	first, opts, err := prepare(rec, opts)
	if err != nil {
		return nil, err
	}
	return &Replayer{snap: snap, rec: rec, set: set, opts: opts, first: first, given: given}, nil
}

// Replay is ReplayHPA of the replayer's recording with hpa.
func (r *Replayer) Replay(hpa *autoscalingv2.HorizontalPodAutoscaler) (*explain.BacktestPath, error) {
	out, err := r.ReplayFigures(hpa)
	if err != nil {
		return nil, err
	}
	return out.Path, nil
}

// ReplayFigures is Replay, with the curve's figures.
func (r *Replayer) ReplayFigures(hpa *autoscalingv2.HorizontalPodAutoscaler) (*Replayed, error) {
	if hpa == nil {
		return nil, errors.New("no HorizontalPodAutoscaler to replay")
	}
	rec, first := r.rec, r.first
	p, err := newReplayRun("changed", r.snap, hpa, rec, r.set, r.opts)
	if err != nil {
		return nil, err
	}
	if !r.alone {
		// The first replay works out the recorded load and, beside it,
		// the fast path's shared part.
		r.prepOnce.Do(func() {
			var wg sync.WaitGroup
			if fastReplay {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r.buildShared(p)
				}()
			}
			r.loadOnce.Do(func() { r.load = p.totalLoad() })
			wg.Wait()
		})
		p.load = r.load
	}
	var acc *pathTally
	restart := func() {
		acc = newPathTally(rec, first)
		acc.censored = r.opts.Censoring
	}
	restart()
	tally := func(k int, o *syncOutcome) {
		acc.add(k, o.after(), o)
		if o.rescale {
			acc.rescale(rec.Instant(k), o)
		}
	}
	if err := r.replayEach(p, first, tally, restart); err != nil {
		return nil, err
	}
	acc.describe(p)
	path := acc.path("changed", "replay")
	return &Replayed{Path: &path, Figures: acc.figures(&path.Summary)}, nil
}

// ReplayAt replays the controller over a recording with the HPA of snap
// as it is, from the recording's start to the sync at or before at, and
// returns that sync's decision: the explanation of a past instant, with
// the controller history replayed from the recording's start.
func ReplayAt(snap *engine.Snapshot, rec *recording.Recording, set engine.Settings, at time.Time, opts BacktestOptions) (*explain.Decision, error) {
	if snap == nil || snap.HPA == nil {
		return nil, errors.New("snapshot has no HorizontalPodAutoscaler")
	}
	if err := rec.Validate(); err != nil {
		return nil, err
	}
	last, ok := rec.Index(at)
	if !ok {
		return nil, fmt.Errorf("%s is before the recorded load, which begins at %s", at.UTC().Format(time.RFC3339), rec.Start.UTC().Format(time.RFC3339))
	}
	opts = estimateDelays(rec, opts)
	p, err := newReplayRun("as-is", snap, snap.HPA, rec, set, opts)
	if err != nil {
		return nil, err
	}
	var dec *explain.Decision
	for k := 0; k <= last; k++ {
		p.full = k == last
		dec, err = p.sync(k)
		if err != nil {
			return nil, fmt.Errorf("replay the sync at %s: %w", rec.Instant(k).UTC().Format(time.RFC3339), err)
		}
		if k < last {
			p.apply(dec)
		}
	}
	n, _ := p.actualAt(last)
	notes := []string{
		fmt.Sprintf("the sync at %s replayed over recorded load (%s), from %s on (%d syncs every %s): the controller history is the replayed one",
			rec.Instant(last).UTC().Format(time.RFC3339), orWord(opts.Source, "recorded load"), rec.Start.UTC().Format(time.RFC3339), last+1, rec.Step),
		fmt.Sprintf("the workload really had %d replicas then (%s); the replay had %d", n, orWord(rec.Replicas.Source, "pods"), dec.CurrentReplicas),
		"the HPA's spec is the one it has now (the past spec is not recorded)",
	}
	for _, r := range rec.Reconstructed {
		notes = append(notes, "reconstructed: "+r)
	}
	dec.Assumptions = append(notes, dec.Assumptions...)
	return dec, nil
}

// syncPeriodOf is the controller's sync period a recording was read for:
// its clock's, else the spacing of its instants.
func syncPeriodOf(rec *recording.Recording) time.Duration {
	if rec.Clock.IsSet() {
		return rec.Clock.SyncPeriod
	}
	return rec.Step
}

// ClockNotes say which figures of the clock were assumed or are unknown,
// and what a wrong guess shifts.
func ClockNotes(c *explain.Clock) []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, f := range []struct {
		what string
		fig  explain.ClockFigure
	}{
		{"the controller's sync period", c.SyncPeriod},
		{"the controller's sync times", c.Syncs},
		{"metrics-server's window", c.MetricsWindow},
		{"metrics-server's scrape times", c.Scrapes},
	} {
		if f.fig.IfWrong == "" {
			continue
		}
		v := f.fig.Value
		if v == "" {
			v = "not known"
		}
		out = append(out, fmt.Sprintf("%s %s (%s: %s): %s", f.what, v, f.fig.Source, f.fig.Detail, f.fig.IfWrong))
	}
	return out
}

// backtestNotes states the simplifications of a backtest.
func backtestNotes(rec *recording.Recording, opts BacktestOptions) []string {
	out := []string{
		"every sync replays the controller on the recorded load from the state the sync before left; the HPA's spec is the one it has now (the past spec is not recorded)",
		"where a replay's replica count is the real one, its pods are the real pods with their recorded samples; elsewhere it adds pods or leaves real ones out",
		fmt.Sprintf("a pod the replay adds is ready after %s and has a sample after %s", opts.PodStartup, opts.SampleDelay),
	}
	switch opts.LoadModel {
	case explain.LoadConstantPerPod:
		out = append(out, "load model constant-per-pod: where the replay's pods are not the real ones, each reporting pod gets the real pods' average")
	default:
		out = append(out, "load model constant-total: where the replay's pods are not the real ones, the real pods' total is shared evenly by the replay's reporting pods")
	}
	if rec.Replicas.Source == "" || rec.Replicas.Source == recording.SourceNone {
		out = append(out, "the actual replica count is the number of the workload's pods that existed (no record of the count itself)")
	}
	return out
}

// estimateDelays fills PodStartup and SampleDelay from the recording's pods
// created in it: the median time from creation to ready, and to the first
// sample.
func estimateDelays(rec *recording.Recording, opts BacktestOptions) BacktestOptions {
	if opts.PodStartup > 0 && opts.SampleDelay > 0 {
		return opts
	}
	var ready, sample []time.Duration
	first := firstSamples(rec)
	for i := range rec.Pods {
		p := &rec.Pods[i]
		// Only pods created in the period whose creation is known: one
		// the source places at its first sample tells nothing of delays.
		k, sampled := first[p.Name]
		if p.Created.Before(rec.Start) || (sampled && !p.Created.Before(rec.Instant(k).Add(-rec.Step))) {
			continue
		}
		for _, c := range p.Ready {
			if c.Ready {
				ready = append(ready, c.At.Sub(p.Created))
				break
			}
		}
		if sampled {
			sample = append(sample, rec.Instant(k).Sub(p.Created))
		}
	}
	median := func(ds []time.Duration, def time.Duration) time.Duration {
		if len(ds) == 0 {
			return def
		}
		slices.Sort(ds)
		return max(ds[len(ds)/2], 0)
	}
	if opts.PodStartup <= 0 {
		opts.PodStartup = median(ready, DefaultPodStartup)
	}
	if opts.SampleDelay <= 0 {
		opts.SampleDelay = median(sample, max(opts.PodStartup, 2*rec.Step))
	}
	return opts
}

// firstSamples returns, per pod, the first instant with a resource or Pods
// metric sample.
func firstSamples(rec *recording.Recording) map[string]int {
	out := map[string]int{}
	for i := range rec.Metrics {
		for pod, byC := range rec.Metrics[i].PerPod {
			for _, s := range byC {
				for j, v := range s.Values {
					if !math.IsNaN(v) {
						if k, ok := out[pod]; !ok || s.First+j < k {
							out[pod] = s.First + j
						}
						break
					}
				}
			}
		}
	}
	return out
}

// actualRescales lists the changes of the real replica count in the
// counted part of the recording.
func actualRescales(rec *recording.Recording, first int) []explain.ProjectedRescale {
	out := []explain.ProjectedRescale{}
	start := rec.Instant(first)
	var prev int32
	have := false
	for _, c := range rec.Replicas.Changes {
		if c.At.After(rec.End()) {
			break
		}
		if have && c.Replicas != prev && !c.At.Before(start) && !c.External {
			out = append(out, explain.ProjectedRescale{Time: c.At, Offset: offset(c.At.Sub(start)), From: prev, To: c.Replicas})
		}
		prev, have = c.Replicas, true
	}
	return out
}
