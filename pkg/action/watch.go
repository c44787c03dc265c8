// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"fmt"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/history"
)

// WatchConfig is a watch of one HPA (Name) or of many (the namespace of
// Source, all namespaces, or a label selector).
type WatchConfig struct {
	Source        Source
	Name          string
	AllNamespaces bool
	Selector      string
	Settings      SettingsOverrides
	// History, when set, keeps the observed history on disk and starts
	// from what an earlier watch recorded.
	History *history.Store
	// Clock and NewTicker are the time sources (tests inject fakes); nil
	// means the real ones.
	Clock     func() time.Time
	NewTicker func(time.Duration) (<-chan time.Time, func())
	Evaluate  EvaluateFunc
}

// WatchUpdate is one replay of every watched HPA.
type WatchUpdate struct {
	// At is the instant of the replay.
	At time.Time
	// Sync is true for the replays at the controller's sync period, whose
	// recommendations are recorded; false for a replay because an input
	// changed between two syncs (shown, not recorded).
	Sync bool
	// Decisions has one replay per watched HPA, in namespace and name order.
	Decisions []*explain.Decision
	Settings  engine.Settings
	// Warnings are new since the last update.
	Warnings []string
}

// tracker is what the watch knows of one HPA's controller history.
type tracker struct {
	key     history.Key
	record  *history.Record
	started time.Time
	// lastScale is the status.lastScaleTime last seen.
	lastScale time.Time
}

// Watch keeps the watched HPAs' inputs current and replays a sync of each
// at the controller's sync period, and whenever an input changes, until ctx
// ends. Each sync's recommendation, and every rescale the controller made
// (seen in the HPA's status), go into the controller history the next
// replay starts from; once the watch has covered an HPA's longest window,
// that history is observed, not assumed. update is called with every
// replay. Watch returns nil when ctx ends.
func Watch(ctx context.Context, cfg WatchConfig, update func(*WatchUpdate) error) error {
	src := cfg.Source
	if cfg.Name != "" {
		if err := CheckName("HorizontalPodAutoscaler", cfg.Name); err != nil {
			return err
		}
	}
	clients, err := src.Clients.Gather()
	if err != nil {
		return err
	}
	ns := ""
	if !cfg.AllNamespaces {
		if ns, err = src.liveNamespace(); err != nil {
			return err
		}
	}
	clock := cfg.Clock
	if clock == nil {
		clock = time.Now
	}
	newTicker := cfg.NewTicker
	if newTicker == nil {
		newTicker = func(d time.Duration) (<-chan time.Time, func()) {
			t := time.NewTicker(d)
			return t.C, t.Stop
		}
	}
	eval := cfg.Evaluate
	if eval == nil {
		eval = engine.Evaluate
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := gather.NewWatch(clients, gather.ManyOptions{Namespace: ns, LabelSelector: cfg.Selector}, cfg.Name)
	if err := w.Start(ctx); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return clusterError(err, " (is the cluster reachable?)")
	}
	defer w.Shutdown()

	first, err := w.Scope(ctx, clock().UTC())
	if err != nil {
		return err
	}
	if cfg.Name != "" && len(first.HPAs) == 0 {
		return fmt.Errorf("horizontalpodautoscaler %q not found in namespace %q", cfg.Name, ns)
	}
	ctl := Detect(ctx, clients, first.HPAs)
	set, err := ResolveSettings(ctl, cfg.Settings)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	fresh := func(ws []string) []string {
		var out []string
		for _, s := range ws {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		return out
	}
	trackers := map[string]*tracker{}
	cluster := src.Clients.ClusterID()

	replay := func(sync bool) error {
		now := clock().UTC()
		scope, err := w.Scope(ctx, now)
		if err != nil {
			return err
		}
		u := &WatchUpdate{At: now, Sync: sync, Settings: set, Warnings: fresh(ctl.Warnings)}
		ctl.Warnings = nil
		u.Warnings = append(u.Warnings, fresh(scope.Warnings())...)
		for kind, err := range w.Errors() {
			u.Warnings = append(u.Warnings, fresh([]string{fmt.Sprintf("the watch of %s failed: %s (retrying)", kind, shortErr(err))})...)
		}
		err = scope.Each(ctx, func(r *gather.Result) error {
			u.Warnings = append(u.Warnings, fresh(r.Warnings)...)
			h := r.Snapshot.HPA
			key := h.Namespace + "/" + h.Name + "/" + string(h.UID)
			t := trackers[key]
			if t == nil {
				t = newTracker(cluster, h, r.Snapshot.State, now, cfg.History)
				trackers[key] = t
			}
			t.observe(h)
			r.Snapshot.State = t.state(now, engine.HistoryWindow(h, set), r.Snapshot.State)
			cfg.Settings.assume(r.Snapshot)
			d, err := eval(r.Snapshot, set)
			if err != nil {
				return fmt.Errorf("replay HPA %q: %w", h.Namespace+"/"+h.Name, err)
			}
			if sync {
				t.record.Until = now
				for _, rec := range d.StateAfter.Recommendations {
					// This sync's recommendation; at the first sync of a
					// watch without history, also the current count a fresh
					// controller starts from.
					if rec.Timestamp.Equal(now) || (len(t.record.Recommendations) == 0 && !rec.Timestamp.After(now)) {
						t.record.Recommendations = append(t.record.Recommendations, rec)
					}
				}
				t.record.SyncPeriod = set.SyncPeriod
				t.record.Prune(now, engine.HistoryWindow(h, set))
				if cfg.History != nil {
					if err := cfg.History.Save(t.key, t.record); err != nil {
						u.Warnings = append(u.Warnings, fresh([]string{err.Error()})...)
					}
				}
			}
			u.Decisions = append(u.Decisions, d)
			return nil
		})
		if err != nil {
			return err
		}
		return update(u)
	}

	if err := replay(true); err != nil {
		return err
	}
	ticks, stop := newTicker(set.SyncPeriod)
	defer stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ticks:
			if err := replay(true); err != nil {
				return ignoreCanceled(ctx, err)
			}
		case <-w.Changed():
			if err := replay(false); err != nil {
				return ignoreCanceled(ctx, err)
			}
		}
	}
}

func ignoreCanceled(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// newTracker starts the history of one HPA: from what an earlier watch
// recorded, if anything of it is still inside the window, else from the
// state gather inferred (a fresh controller, rescales from events).
func newTracker(cluster string, h *autoscalingv2.HorizontalPodAutoscaler, inferred engine.ControllerState, now time.Time, store *history.Store) *tracker {
	t := &tracker{key: history.Key{Cluster: cluster, Namespace: h.Namespace, Name: h.Name, UID: string(h.UID)}, started: now}
	if store != nil {
		if r, err := store.Load(t.key); err == nil && r != nil && now.Sub(r.Until) < history.MaxAge {
			t.record, t.started = r, r.Since
		}
	}
	if t.record == nil {
		t.record = &history.Record{Since: now, Until: now}
		t.record.ScaleUpEvents = append(t.record.ScaleUpEvents, inferred.ScaleUpEvents...)
		t.record.ScaleDownEvents = append(t.record.ScaleDownEvents, inferred.ScaleDownEvents...)
	}
	if h.Status.LastScaleTime != nil {
		t.lastScale = h.Status.LastScaleTime.Time
	}
	return t
}

// observe records a rescale the controller made since the last look: its
// status then carries a newer lastScaleTime, with the replica count before
// (currentReplicas) and after (desiredReplicas) the rescale.
func (t *tracker) observe(h *autoscalingv2.HorizontalPodAutoscaler) {
	ls := h.Status.LastScaleTime
	if ls == nil || !ls.After(t.lastScale) {
		return
	}
	t.lastScale = ls.Time
	t.record.AddScaleEvent(ls.Time, h.Status.CurrentReplicas, h.Status.DesiredReplicas)
}

// state is the controller history the next replay starts from: what the
// watch recorded, observed once it covers the whole window, else on top of
// the assumed start.
func (t *tracker) state(now time.Time, window time.Duration, inferred engine.ControllerState) engine.ControllerState {
	st := engine.ControllerState{
		ScaleUpEvents:   append([]explain.ScaleEvent(nil), t.record.ScaleUpEvents...),
		ScaleDownEvents: append([]explain.ScaleEvent(nil), t.record.ScaleDownEvents...),
	}
	covered := now.Sub(t.started)
	if len(t.record.Recommendations) > 0 {
		st.RecommendationsInitialized = true
		st.Recommendations = append([]explain.TimestampedRecommendation(nil), t.record.Recommendations...)
	}
	if covered >= window && st.RecommendationsInitialized {
		st.Provenance = explain.Observed
		st.Notes = []string{fmt.Sprintf("watched since %s, the whole %s window: the controller's history is observed (to within one sync period of its phase)", t.started.Format(time.RFC3339), window)}
		return st
	}
	// Before the window is covered, the watch's start stands in for what
	// happened before it, as a fresh controller would hold it.
	st.Provenance = explain.Inferred
	if !st.RecommendationsInitialized {
		st.Provenance = inferred.Provenance
	}
	st.Notes = []string{fmt.Sprintf("watched for %s of the %s window: the history before %s is assumed", covered.Round(time.Second), window, t.started.Format(time.RFC3339))}
	return st
}
