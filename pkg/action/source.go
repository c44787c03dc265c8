// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/history"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/load"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// EvaluateFunc replays one sync; engine.Evaluate is the real one (tests
// inject others).
type EvaluateFunc func(*engine.Snapshot, engine.Settings) (*explain.Decision, error)

// ParseNow returns the instant of a replay in UTC: now, an RFC 3339 time
// (--now), or clock's time when it is empty (nil clock: time.Now).
func ParseNow(now string, clock func() time.Time) (time.Time, error) {
	if now == "" {
		if clock == nil {
			clock = time.Now
		}
		return clock().UTC(), nil
	}
	t, err := time.Parse(time.RFC3339Nano, now)
	if err != nil {
		var in SourceInput
		return time.Time{}, fmt.Errorf("%s: %q is not an RFC 3339 time (like 2026-01-01T12:00:00Z or 2026-01-01T12:00:00.5+01:00)", in.flag(&in.Now), now)
	}
	return t.UTC(), nil
}

// Source says where the objects of a run come from: files, or the cluster.
type Source struct {
	// Files are -f: files, directories, or "-" for In. Empty means the
	// cluster of Clients.
	Files []string
	In    io.Reader
	// Clients reach the cluster (live runs).
	Clients *Factory
	// Namespace is -n; "" means the kubeconfig context's (live) or the
	// input's (files).
	Namespace string
	// Now is the instant of the replayed sync.
	Now time.Time
	// History, when set, is where watches keep the controller history
	// they observed; a live read uses what is still inside the HPA's window.
	History *history.Store
	// parsed, when set, is Files read and parsed once for the HPAs of a
	// fleet (tune without a NAME over files).
	parsed *load.Parsed
}

// Live reports whether the objects come from the cluster.
func (s Source) Live() bool { return len(s.Files) == 0 }

// snapshot is one HPA's inputs and the settings of its replay.
type snapshot struct {
	snap     *engine.Snapshot
	settings engine.Settings
	warnings []string
	// events are the HPA's events (live reads).
	events []corev1.Event
	// keda is the KEDA side, for an HPA a ScaledObject owns.
	keda *kedaSnapshot
	// syncFrom says where the settings' sync period came from: the
	// command line, the controller's flags, or the default assumed; a
	// replay over recorded load may then infer it from the HPA's events
	// (readRecording).
	syncFrom recording.Origin
}

// syncOrigin says where the sync period of settings resolved from c and o
// came from: the command line, the controller (its flags, or a snapshot's
// Controller document), or kube-controller-manager's default taken on
// trust.
func syncOrigin(c *Controller, o SettingsOverrides) recording.Origin {
	var in SettingsInput
	switch {
	case o.SyncPeriod != nil:
		return recording.Origin{Source: recording.OriginFlag, Detail: SettingsRows.Named(&in, &in.SyncPeriod).Flag(), Confidence: 1}
	case c != nil && (c.SyncPeriod != nil || c.FlagsRead):
		return recording.Origin{Source: recording.OriginRead, Detail: c.FlagsSource, Confidence: 1}
	}
	return recording.Origin{Source: recording.OriginAssumed, Detail: "kube-controller-manager's default", Confidence: 1}
}

// syncPeriodAssumed says whether the sync period is the default taken on
// trust.
func (s *snapshot) syncPeriodAssumed() bool { return s.syncFrom.Source == recording.OriginAssumed }

// hpaControllerComponent is the source component of the events the HPA
// controller records.
const hpaControllerComponent = "horizontal-pod-autoscaler"

// lastControllerEvent is when the HPA controller last recorded one of evs
// (zero: none). Events of another source are skipped; events that name no
// source are counted, as only the controller writes events about an HPA.
func lastControllerEvent(evs []corev1.Event) time.Time {
	var last time.Time
	for i := range evs {
		e := &evs[i]
		if src := e.Source.Component + e.ReportingController; src != "" &&
			e.Source.Component != hpaControllerComponent && e.ReportingController != hpaControllerComponent {
			continue
		}
		for _, t := range []time.Time{e.FirstTimestamp.Time, e.LastTimestamp.Time, e.EventTime.Time} {
			if t.After(last) {
				last = t
			}
		}
		if e.Series != nil && e.Series.LastObservedTime.After(last) {
			last = e.Series.LastObservedTime.Time
		}
	}
	return last
}

// read loads HPA name and its inputs, from the files or the cluster, and
// resolves the controller settings: what the cluster (live) or the input's
// Controller document (files) says, then the overrides. It only reads.
func (s Source) read(ctx context.Context, name string, o SettingsOverrides) (*snapshot, error) {
	return s.readWith(ctx, name, o, nil)
}

// readWith is read, with the ScaledObject that owns the HPA when the
// caller has read it already.
func (s Source) readWith(ctx context.Context, name string, o SettingsOverrides, so *keda.ScaledObject) (*snapshot, error) {
	if !s.Live() {
		return s.readFiles(name, o)
	}
	if err := CheckName("HorizontalPodAutoscaler", name); err != nil {
		return nil, err
	}
	clients, err := s.Clients.Gather()
	if err != nil {
		return nil, err
	}
	ns, err := s.liveNamespace()
	if err != nil {
		return nil, err
	}
	res, err := gather.Snapshot(ctx, clients, ns, name, gather.Options{Now: s.Now})
	if err != nil {
		return nil, clusterError(err, " (is the cluster reachable? to explain saved objects instead, pass them with -f)")
	}
	ctl := Detect(ctx, clients, []*autoscalingv2.HorizontalPodAutoscaler{res.Snapshot.HPA})
	set, err := ResolveSettings(ctl, o)
	if err != nil {
		return nil, err
	}
	out := &snapshot{
		snap: res.Snapshot, settings: set, warnings: append(res.Warnings, ctl.Warnings...), events: res.Events,
		syncFrom: syncOrigin(ctl, o),
	}
	out.snap.LastControllerEvent = lastControllerEvent(res.Events)
	o.assume(out.snap)
	if s.History != nil {
		h := res.Snapshot.HPA
		key := history.Key{Cluster: s.Clients.ClusterID(), Namespace: h.Namespace, Name: h.Name, UID: string(h.UID)}
		rec, err := s.History.Load(key)
		if err != nil {
			out.warnings = append(out.warnings, err.Error())
		} else if rec != nil {
			var opt ExplainInput
			if st, ok := rec.State(s.Now, engine.HistoryWindow(h, set), "kubectl hpa explain "+opt.flag(&opt.Watch)); ok {
				out.snap.State = st
			}
		}
	}
	if keda.Owner(res.Snapshot.HPA) != "" {
		var ws []string
		out.keda, ws = readKEDA(ctx, clients, res.Snapshot, so, o.KEDAVersion)
		out.warnings = append(out.warnings, ws...)
	}
	return out, nil
}

func (s Source) readFiles(name string, o SettingsOverrides) (*snapshot, error) {
	var res *load.Result
	var err error
	if s.parsed != nil {
		res, err = s.parsed.Load(load.Options{Name: name, Namespace: s.Namespace})
	} else {
		var sources []load.Source
		if sources, err = load.ReadFiles(s.Files, s.In); err != nil {
			return nil, err
		}
		res, err = load.Load(sources, load.Options{Name: name, Namespace: s.Namespace})
	}
	if err != nil {
		return nil, err
	}
	return s.fromLoad(res, o)
}

// fromLoad resolves the settings of a snapshot loaded from files and
// checks its objects.
func (s Source) fromLoad(res *load.Result, o SettingsOverrides) (*snapshot, error) {
	ctl, err := controllerOf(res.Controller)
	if err != nil {
		return nil, err
	}
	set, err := ResolveSettings(ctl, o)
	if err != nil {
		return nil, err
	}
	// Objects the API server would refuse are refused here, with the
	// version-dependent rules of the controller the run replays.
	if !o.SkipValidation {
		if err := res.Validate(set.Profile); err != nil {
			return nil, err
		}
	}
	snap := res.Snapshot
	snap.Now = s.Now
	o.assume(snap)
	out := &snapshot{snap: snap, settings: set, warnings: res.Warnings, syncFrom: syncOrigin(ctl, o)}
	in, ws, err := kedaFromFiles(res.ScaledObject, res.Controller, snap.HPA, o.KEDAVersion)
	if err != nil {
		return nil, err
	}
	out.keda, out.warnings = in, append(out.warnings, ws...)
	return out, nil
}

// controllerOf reads a snapshot's Controller document (nil: none given).
func controllerOf(d *load.ControllerDocument) (*Controller, error) {
	if d == nil {
		return nil, nil
	}
	c := &Controller{Tolerance: d.Tolerance}
	if d.Version != "" {
		v, err := profile.Parse(d.Version)
		if err != nil {
			return nil, fmt.Errorf("the Controller document: version: %w", err)
		}
		c.Version = &v
		c.VersionSource = "the snapshot's Controller document"
		if d.VersionSource != "" {
			c.VersionSource += " (" + d.VersionSource + ")"
		}
	}
	if len(d.FeatureGates) > 0 {
		c.Gates = map[profile.Gate]bool{}
		for k, v := range d.FeatureGates {
			c.Gates[profile.Gate(k)] = v
		}
		c.GatesSource = "the snapshot's Controller document"
	}
	if v := d.CPUInitializationPeriod; v != nil {
		c.CPUInitializationPeriod = &v.Duration
	}
	if v := d.InitialReadinessDelay; v != nil {
		c.InitialReadinessDelay = &v.Duration
	}
	if v := d.DownscaleStabilization; v != nil {
		c.DownscaleStabilization = &v.Duration
	}
	if v := d.SyncPeriod; v != nil {
		c.SyncPeriod = &v.Duration
	}
	if c.Tolerance != nil || c.CPUInitializationPeriod != nil || c.InitialReadinessDelay != nil || c.DownscaleStabilization != nil || c.SyncPeriod != nil {
		c.FlagsSource = "the snapshot's Controller document"
		if d.Source != "" {
			c.FlagsSource += " (" + d.Source + ")"
		}
	}
	return c, nil
}

// clusterError adds a hint to an error that is not an answer of the API
// server (the cluster could not be reached at all), and to a refusal the
// file that lists what the reads need.
func clusterError(err error, hint string) error {
	var status apierrors.APIStatus
	if apierrors.IsForbidden(err) {
		return fmt.Errorf("%w%s", err, RBACHint)
	}
	if errors.As(err, &status) {
		return err
	}
	return fmt.Errorf("%w%s", err, hint)
}

// RBACHint follows a read the API server refused (403): the message names
// the verb and the resource, the hint where the whole list is.
const RBACHint = " (docs/rbac.yaml lists the permissions of these reads)"

// RBACMigrateHint is migrate's RBACHint.
const RBACMigrateHint = " (docs/rbac-migrate.yaml lists the permissions migrate needs)"
