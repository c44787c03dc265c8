// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/load"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// scaledObjectPrefixes are the forms of a ScaledObject argument:
// scaledobject/NAME, so/NAME, ...
var scaledObjectPrefixes = []string{"scaledobject/", "scaledobjects/", "so/", "scaledobject.keda.sh/", "scaledobjects.keda.sh/"}

// ScaledObjectName returns NAME of an argument naming a ScaledObject
// (scaledobject/NAME, so/NAME, scaledobject.keda.sh/NAME), and false for
// any other argument (an HPA's name).
func ScaledObjectName(arg string) (string, bool) {
	lower := strings.ToLower(arg)
	for _, p := range scaledObjectPrefixes {
		if strings.HasPrefix(lower, p) {
			return arg[len(p):], true
		}
	}
	return "", false
}

// checkObjectName refuses an argument of a kind explain does not read
// (deployment/web): only HPAs and ScaledObjects are explained.
func checkObjectName(arg string) error {
	if name, ok := ScaledObjectName(arg); ok {
		if name == "" || strings.Contains(name, "/") {
			return fmt.Errorf("%q: want scaledobject/NAME", arg)
		}
		return nil
	}
	if i := strings.IndexByte(arg, '/'); i >= 0 {
		kind := strings.ToLower(arg[:i])
		switch kind {
		case "hpa", "horizontalpodautoscaler", "horizontalpodautoscalers", "horizontalpodautoscaler.autoscaling":
			return nil
		}
		return fmt.Errorf("%q: explain reads HorizontalPodAutoscalers (NAME or hpa/NAME) and KEDA ScaledObjects (scaledobject/NAME or so/NAME), not %s", arg, arg[:i])
	}
	return nil
}

// hpaName strips an hpa/ prefix.
func plainHPAName(arg string) string {
	if i := strings.IndexByte(arg, '/'); i >= 0 {
		return arg[i+1:]
	}
	return arg
}

// kedaSnapshot is KEDA's part of a snapshot: the ScaledObject, the
// release replayed, and the values of trigger metrics that KEDA's HPA does
// not read (the triggers behind a scalingModifiers formula), as one run
// read them.
type kedaSnapshot struct {
	so            *keda.ScaledObject
	version       keda.Version
	versionSource string
	external      []externalmetricsv1beta1.ExternalMetricValue
	apiErrors     map[string]string
	// metricsServer is who serves external.metrics.k8s.io (nil: not read).
	metricsServer *explain.KEDAMetricsServer
}

// foreignMetricsServer reports whether a live read found that another
// server than KEDA's serves external.metrics.k8s.io: the HPA then reads
// nothing KEDA answers, and what it reads is not the triggers' values.
func (ks *kedaSnapshot) foreignMetricsServer() bool {
	return ks.metricsServer != nil && !ks.metricsServer.KEDA
}

// kedaVersion decides the KEDA release replayed: --keda-version, else the
// detected releases in order (KEDA's operator, the HPA's labels, a
// snapshot's Controller document), else the newest (assumed). A detected
// release outside the replayed range is replaced with the nearest one,
// with a warning.
func kedaVersion(flag string, detected ...[2]string) (keda.Version, string, []string, error) {
	var in SettingsInput
	option := in.flag(&in.KEDAVersion)
	if flag != "" {
		v, err := keda.ParseVersion(flag)
		if err != nil {
			return keda.Version{}, "", nil, fmt.Errorf("%s: %w", option, err)
		}
		if err := v.Check(); err != nil {
			return keda.Version{}, "", nil, fmt.Errorf("%s: %w", option, err)
		}
		return v, option, nil, nil
	}
	var warnings []string
	for _, d := range detected {
		if d[0] == "" {
			continue
		}
		v, err := keda.ParseVersion(d[0])
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("KEDA version %q (%s) is not a KEDA release: ignored", d[0], d[1]))
			continue
		}
		if err := v.Check(); err != nil {
			near := keda.MaxMinor
			if v.Minor < keda.MinMinor {
				near = keda.MinMinor
			}
			nv := keda.Version{Minor: near, Patch: -1}.Proven()
			warnings = append(warnings, fmt.Sprintf("%s (%s); replaying %s instead (%s to choose)", err, d[1], nv, option))
			return nv, d[1] + ", replaced with the nearest release replayed", warnings, nil
		}
		return v, d[1], warnings, nil
	}
	return keda.Newest(), "the newest KEDA release replayed (assumed: its operator was not found; " + option + " to say)", warnings, nil
}

// hpaKEDAVersion is the release KEDA stamped on the HPA it wrote
// (app.kubernetes.io/version, when app.kubernetes.io/managed-by is
// keda-operator).
func hpaKEDAVersion(hpa *autoscalingv2.HorizontalPodAutoscaler) [2]string {
	if hpa == nil || hpa.Labels["app.kubernetes.io/managed-by"] != "keda-operator" {
		return [2]string{}
	}
	v := hpa.Labels["app.kubernetes.io/version"]
	return [2]string{v, fmt.Sprintf("the label app.kubernetes.io/version KEDA wrote on HPA %s/%s", hpa.Namespace, hpa.Name)}
}

// kedaDetector finds the KEDA release of a cluster once per run.
type kedaDetector struct {
	version, source string
	warning         string
}

// detectKEDA reads KEDA's operator (a list of Deployments by label).
func detectKEDA(ctx context.Context, c *gather.Clients) kedaDetector {
	v, src, err := gather.KEDAOperator(ctx, c)
	if err != nil {
		return kedaDetector{warning: fmt.Sprintf("could not look for KEDA's operator (%s): its release is taken from the HPA's labels, else assumed", shortErr(err))}
	}
	return kedaDetector{version: v, source: src}
}

// readKEDA reads, for the HPA of snap that a ScaledObject owns, that
// ScaledObject (so, when the caller has it already), the KEDA release and
// the trigger metrics the HPA does not read. It returns nil, with a
// warning, when the ScaledObject cannot be read.
func readKEDA(ctx context.Context, c *gather.Clients, snap *engine.Snapshot, so *keda.ScaledObject, flag string) (*kedaSnapshot, []string) {
	var warnings []string
	if so == nil {
		owner := keda.Owner(snap.HPA)
		var err error
		if so, err = gather.ScaledObject(ctx, c, snap.HPA.Namespace, owner); err != nil {
			return nil, []string{fmt.Sprintf("HPA %s/%s belongs to KEDA's ScaledObject %s, which could not be read (%s): KEDA's part is not explained", snap.HPA.Namespace, snap.HPA.Name, owner, shortErr(err))}
		}
	}
	det := detectKEDA(ctx, c)
	if det.warning != "" {
		warnings = append(warnings, det.warning)
	}
	v, src, ws, err := kedaVersion(flag, [2]string{det.version, det.source}, hpaKEDAVersion(snap.HPA))
	if err != nil {
		return nil, []string{err.Error()}
	}
	warnings = append(warnings, ws...)
	ks := &kedaSnapshot{so: so, version: v, versionSource: src, apiErrors: map[string]string{}}
	if ms, err := gather.ExternalMetricsServer(ctx, c); err == nil {
		ks.metricsServer = ms
	}
	// The triggers a formula combines are not metrics of the HPA: read
	// them as the HPA would.
	if names := keda.MetricsBesideHPA(so, ks.version, snap.HPA, time.LoadLocation); len(names) > 0 {
		r := gather.ExternalValues(ctx, c, so.Namespace, so.Name, names)
		ks.external = r.Values
		for n, e := range r.Errors {
			ks.apiErrors["external:"+n] = e
		}
	}
	return ks, warnings
}

// kedaFromFiles is the KEDA side of a snapshot read from files: the
// ScaledObject of the input that owns the HPA, and the release of the
// Controller document (or --keda-version, or assumed).
func kedaFromFiles(so *keda.ScaledObject, ctl *load.ControllerDocument, hpa *autoscalingv2.HorizontalPodAutoscaler, flag string) (*kedaSnapshot, []string, error) {
	if so == nil {
		return nil, nil, nil
	}
	doc := [2]string{}
	if ctl != nil && ctl.KEDAVersion != "" {
		doc = [2]string{ctl.KEDAVersion, "the snapshot's Controller document"}
		if ctl.KEDAVersionSource != "" {
			doc[1] += " (" + ctl.KEDAVersionSource + ")"
		}
	}
	v, src, ws, err := kedaVersion(flag, doc, hpaKEDAVersion(hpa))
	if err != nil {
		return nil, nil, err
	}
	return &kedaSnapshot{so: so, version: v, versionSource: src, apiErrors: map[string]string{}}, ws, nil
}

// kedaReplay is one replay of KEDA's part.
type kedaReplay struct {
	ks  *kedaSnapshot
	now time.Time
	// target is the workload's scale, pods its pods (for the ready count).
	target engine.Target
	pods   []corev1.Pod
	// hpa is the snapshot of KEDA's HPA (nil: there is none to replay);
	// set and eval replay its syncs.
	hpa  *engine.Snapshot
	set  engine.Settings
	eval EvaluateFunc
	// overrides are trigger results that replace what was read (whatif).
	overrides map[int]keda.TriggerResult
}

// triggers returns what each trigger's scaler returned: the overrides,
// else what KEDA's metrics server answered; with the notes on values that
// are not the trigger's own.
func (r *kedaReplay) triggers() ([]keda.TriggerResult, []string, error) {
	metrics, err := keda.TriggerMetrics(r.ks.so, r.ks.version, time.LoadLocation)
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	results := make([]keda.TriggerResult, len(metrics))
	foreign := r.ks.foreignMetricsServer()
	for _, m := range metrics {
		if o, ok := r.overrides[m.Index]; ok {
			results[m.Index] = o
			continue
		}
		switch keda.TriggerValueSource(r.ks.so, m, foreign) {
		case keda.ValueNone:
		case keda.ValueFromStatus:
			notes = append(notes, explain.KEDAValueNotRead(m.MetricName, r.ks.metricsServer))
		case keda.ValueFromMetricsServer:
			res, note := r.read(m.MetricName)
			results[m.Index] = res
			if note != "" {
				notes = append(notes, note)
			}
		}
	}
	return results, notes, nil
}

// run replays KEDA's poll and combines it with the HPA's next sync.
func (r *kedaReplay) run() (*explain.KEDA, error) {
	ks := r.ks
	so := ks.so
	results, assumptions, err := r.triggers()
	if err != nil {
		return nil, err
	}
	kin := keda.Input{
		ScaledObject:    so,
		Now:             r.now,
		CurrentReplicas: r.target.SpecReplicas,
		ReadyReplicas:   r.readyReplicas(),
		Triggers:        results,
		LoadLocation:    time.LoadLocation,
		Version:         ks.version,
	}
	if r.hpa != nil {
		kin.HPA = r.hpa.HPA
		for _, c := range r.hpa.HPA.Status.Conditions {
			if c.Type == autoscalingv2.ScalingActive {
				kin.HPACondition = &keda.HPACondition{Status: string(c.Status), Reason: c.Reason, Message: c.Message}
			}
		}
	}
	if so.UsesModifiers() {
		if res, _ := r.read(keda.CompositeMetricName); res.Value != nil {
			kin.Composite = res.Value
		}
	}
	k, err := keda.Evaluate(kin)
	if err != nil {
		return nil, err
	}
	k.KEDAVersionSource = ks.versionSource
	k.Assumptions = append(k.Assumptions, assumptions...)
	k.ExternalMetricsServer = ks.metricsServer
	if ks.foreignMetricsServer() {
		k.NoteForeignMetricsServer(ks.metricsServer)
	}
	if !k.HPAActs {
		_, err := keda.Combine(k, nil)
		return k, err
	}
	if r.hpa == nil {
		k.NoteHPAMissing(keda.HPAName(so))
		return k, nil
	}
	var after *explain.Decision
	if _, err := keda.Combine(k, func(replicas int32) (int32, error) {
		d, err := r.hpaFrom(replicas, k)
		if err != nil {
			return 0, err
		}
		after = d
		return replicasAfterSync(replicas, d), nil
	}); err != nil {
		return nil, fmt.Errorf("replay HPA %s/%s after KEDA's poll: %w", r.hpa.HPA.Namespace, r.hpa.HPA.Name, err)
	}
	k.Steps = append(k.Steps, explain.KEDAHPAStep(k.ReplicasAfterKEDA, replicasAfterSync(k.ReplicasAfterKEDA, after), after))
	return k, nil
}

// read returns what KEDA's metrics server answered for a trigger's metric
// (the HPA's reads, then KEDA's own), and a note when the value read is a
// fallback value rather than the trigger's.
func (r *kedaReplay) read(metric string) (keda.TriggerResult, string) {
	errs := map[string]string{}
	var items []externalmetricsv1beta1.ExternalMetricValue
	if r.hpa != nil {
		for k, v := range r.hpa.APIErrors {
			errs[k] = v
		}
		items = append(items, r.hpa.ExternalMetrics...)
	}
	for k, v := range r.ks.apiErrors {
		errs[k] = v
	}
	items = append(items, r.ks.external...)
	if e, ok := errs["external:"+metric]; ok {
		return keda.TriggerResult{Error: e}, ""
	}
	sel := labels.SelectorFromSet(labels.Set{keda.LabelScaledObjectName: r.ks.so.Name})
	var sum float64
	found := false
	for _, it := range items {
		if it.MetricName != metric || len(it.MetricLabels) > 0 && !sel.Matches(labels.Set(it.MetricLabels)) {
			continue
		}
		sum += it.Value.AsApproximateFloat64()
		found = true
	}
	if !found {
		return keda.TriggerResult{}, ""
	}
	// During a fallback KEDA answers the fallback value, not the trigger's:
	// the trigger itself is failing.
	if n, ok := keda.FallbackAnswered(r.ks.so, metric); ok {
		return keda.TriggerResult{Error: explain.KEDAFallbackFailing(n)}, explain.KEDAFallbackAnswered(metric, sum, n)
	}
	return keda.TriggerResult{Value: &sum}, ""
}

// hpaFrom replays the HPA's next sync after KEDA's poll: the workload at
// replicas, the External metrics as KEDA's metrics server answers them.
func (r *kedaReplay) hpaFrom(replicas int32, k *explain.KEDA) (*explain.Decision, error) {
	s := r.hpa.DeepCopy()
	s.Target.SpecReplicas = replicas
	if !r.ks.foreignMetricsServer() {
		whatif.SetKEDAMetrics(s, k, r.ks.so.Name, r.now)
	}
	eval := r.eval
	if eval == nil {
		eval = engine.Evaluate
	}
	return eval(s, r.set)
}

// replicasAfterSync is the workload's replicas once the HPA's sync from
// replicas is done: its desired replicas when it rescales, else replicas.
// A sync that fails to compute a count (or does not act at zero) writes
// nothing, whatever status.desiredReplicas holds from before.
func replicasAfterSync(replicas int32, d *explain.Decision) int32 {
	if d.Rescale {
		return d.DesiredReplicas
	}
	return replicas
}

// readyReplicas is KEDA's ready count of the target's pods (nil when no
// pods were read: a ScaledObject explained without its HPA).
func (r *kedaReplay) readyReplicas() *int32 {
	if r.pods == nil {
		return nil
	}
	return keda.ReadyReplicas(r.target.Selector, r.pods)
}

// attachKEDA replays KEDA's part of an HPA's explanation and puts it in d.
func attachKEDA(ks *kedaSnapshot, snap *engine.Snapshot, set engine.Settings, eval EvaluateFunc, d *explain.Decision) error {
	if ks == nil || d == nil {
		return nil
	}
	r := &kedaReplay{ks: ks, now: snap.Now, target: snap.Target, pods: snap.Pods, hpa: snap, set: set, eval: eval}
	k, err := r.run()
	if err != nil {
		return err
	}
	d.SetKEDA(k)
	return nil
}

// kedaOnly explains a ScaledObject whose HPA there is nothing to replay of
// (paused: KEDA deleted it; or KEDA never wrote it).
func kedaOnly(ks *kedaSnapshot, now time.Time, target engine.Target) (*explain.KEDA, error) {
	r := &kedaReplay{ks: ks, now: now, target: target}
	return r.run()
}

// explainScaledObject explains a ScaledObject: its HPA's explanation with
// the KEDA part when the HPA exists, else the KEDA part alone.
func explainScaledObject(ctx context.Context, cfg ExplainConfig, name string) (*ExplainResult, error) {
	src := cfg.Source
	if !src.Live() {
		return explainScaledObjectFiles(cfg, name)
	}
	if err := CheckName("ScaledObject", name); err != nil {
		return nil, err
	}
	clients, err := src.Clients.Gather()
	if err != nil {
		return nil, err
	}
	ns, err := src.liveNamespace()
	if err != nil {
		return nil, err
	}
	so, err := gather.ScaledObject(ctx, clients, ns, name)
	if err != nil {
		return nil, clusterError(err, " (is KEDA installed? to explain saved objects instead, pass them with -f)")
	}
	hpaName := keda.HPAName(so)
	if !keda.Pause(so).Paused {
		in, err := src.readWith(ctx, hpaName, cfg.Settings, so)
		if err == nil {
			return explainSnapshot(cfg, in)
		}
		if !apierrors.IsNotFound(err) {
			return nil, err
		}
	}
	// No HPA to replay: the workload's scale is all KEDA reads.
	det := detectKEDA(ctx, clients)
	v, vsrc, warnings, err := kedaVersion(cfg.Settings.KEDAVersion, [2]string{det.version, det.source})
	if err != nil {
		return nil, err
	}
	if det.warning != "" {
		warnings = append(warnings, det.warning)
	}
	ks := &kedaSnapshot{so: so, version: v, versionSource: vsrc, apiErrors: map[string]string{}}
	target := gather.TargetScale(ctx, clients, ns, keda.ScaleTargetRef(so))
	if target.GetError != "" {
		return nil, fmt.Errorf("ScaledObject %s: read the scale of %s/%s: %s", so.Ref(), target.Kind, target.Name, target.GetError)
	}
	k, err := kedaOnly(ks, src.Now, target)
	if err != nil {
		return nil, err
	}
	return &ExplainResult{KEDA: k, Warnings: warnings}, nil
}

// explainScaledObjectFiles is explainScaledObject over -f files.
func explainScaledObjectFiles(cfg ExplainConfig, name string) (*ExplainResult, error) {
	src := cfg.Source
	sources, err := load.ReadFiles(src.Files, src.In)
	if err != nil {
		return nil, err
	}
	res, err := load.ScaledObject(sources, load.Options{Name: name, Namespace: src.Namespace})
	if err != nil {
		return nil, err
	}
	if res.HPA != nil {
		in, err := src.fromLoad(res.HPA, cfg.Settings)
		if err != nil {
			return nil, err
		}
		return explainSnapshot(cfg, in)
	}
	ks, warnings, err := kedaFromFiles(res.ScaledObject, res.Controller, nil, cfg.Settings.KEDAVersion)
	if err != nil {
		return nil, err
	}
	k, err := kedaOnly(ks, src.Now, res.Target)
	if err != nil {
		return nil, err
	}
	return &ExplainResult{KEDA: k, Warnings: append(res.Warnings, warnings...)}, nil
}

// kedaMany is what a many-HPA explain knows of KEDA: the ScaledObjects of
// the scope and the release.
type kedaMany struct {
	sos      map[string]*keda.ScaledObject
	det      kedaDetector
	flag     string
	warnings []string
	// metricsServer is who serves external.metrics.k8s.io (nil: not read).
	metricsServer *explain.KEDAMetricsServer
}

// startKEDAMany lists the ScaledObjects of namespace ns ("" every one) and
// looks for KEDA's operator, in the background.
func startKEDAMany(ctx context.Context, c *gather.Clients, ns, flag string) func() *kedaMany {
	ch := make(chan *kedaMany, 1)
	go func() {
		out := &kedaMany{sos: map[string]*keda.ScaledObject{}, flag: flag}
		sos, ok, err := gather.ScaledObjects(ctx, c, ns)
		switch {
		case err != nil:
			out.warnings = append(out.warnings, fmt.Sprintf("could not list KEDA's ScaledObjects (%s): the KEDA column is empty", shortErr(err)))
		case ok && len(sos) > 0:
			for _, so := range sos {
				out.sos[so.Namespace+"/"+so.Name] = so
			}
			out.det = detectKEDA(ctx, c)
			if out.det.warning != "" {
				out.warnings = append(out.warnings, out.det.warning)
			}
			if ms, err := gather.ExternalMetricsServer(ctx, c); err == nil {
				out.metricsServer = ms
			}
		}
		ch <- out
	}()
	return func() *kedaMany { return <-ch }
}

// attach replays the KEDA part of a decision of the many-HPA explain, from
// what the HPA's read holds (no further reads).
func (m *kedaMany) attach(snap *engine.Snapshot, set engine.Settings, eval EvaluateFunc, d *explain.Decision) []string {
	if m == nil || len(m.sos) == 0 {
		return nil
	}
	owner := keda.Owner(snap.HPA)
	so := m.sos[snap.HPA.Namespace+"/"+owner]
	if owner == "" || so == nil {
		return nil
	}
	v, src, ws, err := kedaVersion(m.flag, [2]string{m.det.version, m.det.source}, hpaKEDAVersion(snap.HPA))
	if err != nil {
		return []string{err.Error()}
	}
	ks := &kedaSnapshot{so: so, version: v, versionSource: src, apiErrors: map[string]string{}, metricsServer: m.metricsServer}
	if err := attachKEDA(ks, snap, set, eval, d); err != nil {
		ws = append(ws, fmt.Sprintf("ScaledObject %s: KEDA's part is not explained: %v", so.Ref(), err))
	}
	return ws
}

// pausedWithoutHPA lists the paused ScaledObjects of the scope, whose HPA
// KEDA deleted, explained from their status alone (their workloads'
// replicas are read).
func (m *kedaMany) pausedWithoutHPA(ctx context.Context, c *gather.Clients, now time.Time, hpas map[string]bool) []*explain.KEDA {
	if m == nil {
		return nil
	}
	var out []*explain.KEDA
	for _, key := range slices.Sorted(maps.Keys(m.sos)) {
		so := m.sos[key]
		if !keda.Pause(so).Paused || hpas[so.Namespace+"/"+keda.HPAName(so)] {
			continue
		}
		v, src, ws, err := kedaVersion(m.flag, [2]string{m.det.version, m.det.source})
		if err != nil {
			m.warnings = append(m.warnings, err.Error())
			continue
		}
		m.warnings = append(m.warnings, ws...)
		target := gather.TargetScale(ctx, c, so.Namespace, keda.ScaleTargetRef(so))
		if target.GetError != "" {
			m.warnings = append(m.warnings, fmt.Sprintf("ScaledObject %s: could not read the scale of %s/%s: %s", so.Ref(), target.Kind, target.Name, target.GetError))
			continue
		}
		k, err := kedaOnly(&kedaSnapshot{so: so, version: v, versionSource: src, apiErrors: map[string]string{}}, now, target)
		if err != nil {
			m.warnings = append(m.warnings, fmt.Sprintf("ScaledObject %s: %v", so.Ref(), err))
			continue
		}
		out = append(out, k)
	}
	return out
}
