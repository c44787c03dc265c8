// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package load reads offline input (YAML or JSON files holding objects as
// `kubectl get -o yaml` prints them, plus the kubectl-hpa.io
// ControllerState and APIErrors documents) into an engine.Snapshot for one
// HorizontalPodAutoscaler. docs/snapshot-format.md describes the format.
package load

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/validation"
)

// DefaultNamespace is the namespace used when neither the options nor the
// input settle it, as kubectl does without a context namespace.
const DefaultNamespace = "default"

// Options select the HorizontalPodAutoscaler to load.
type Options struct {
	// Name of the HPA.
	Name string
	// Namespace of the HPA (-n). When empty: the namespace of the only HPA
	// named Name in the input, or "default" when there are several.
	Namespace string
}

// Result is the loaded snapshot and what the loader noticed on the way.
type Result struct {
	// Snapshot is ready for the engine except for Now, which the caller sets.
	Snapshot *engine.Snapshot
	// Namespace is the namespace the HPA was looked up in.
	Namespace string
	// Warnings are non-fatal findings, one line each.
	Warnings []string
	// Controller is the input's Controller document, if any.
	Controller *ControllerDocument
	// ScaledObject is the KEDA ScaledObject of the input that owns the HPA
	// (by its ownerReferences, or the HPA name KEDA gives it), if any.
	ScaledObject *keda.ScaledObject

	// inv is everything read, for Validate.
	inv *inventory
}

// Load parses the sources and builds the snapshot of the HPA named in opts.
// Errors are one line and name the file, document and field where possible.
func Load(sources []Source, opts Options) (*Result, error) {
	if opts.Name == "" {
		return nil, errors.New("the name of the HorizontalPodAutoscaler is required")
	}
	inv, err := parse(sources)
	if err != nil {
		return nil, err
	}
	return inv.build(sources, opts)
}

// Parsed is an input parsed once, for the snapshots of many of its HPAs
// (tune without a NAME over files): each Load builds one as Load would,
// without reading the documents again. Its Loads may be called at once.
type Parsed struct {
	sources []Source
	inv     *inventory
	// mu makes the builds of one input take turns (tune's fleet tunes
	// HPAs at once).
	mu sync.Mutex
}

// Parse reads every document of the sources.
func Parse(sources []Source) (*Parsed, error) {
	inv, err := parse(sources)
	if err != nil {
		return nil, err
	}
	inv.shared = true
	return &Parsed{sources: sources, inv: inv}, nil
}

// Load builds the snapshot of the HPA named in opts, as the package's Load
// does.
func (p *Parsed) Load(opts Options) (*Result, error) {
	if opts.Name == "" {
		return nil, errors.New("the name of the HorizontalPodAutoscaler is required")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inv.build(p.sources, opts)
}

// HPAs are the input's HorizontalPodAutoscalers, as kubectl get -f lists
// a file's objects: each in its document's namespace (DefaultNamespace for
// a document without one), or, with ns, those of namespace ns (a document
// without a namespace counts as in it, as kubectl apply -n takes it). Each
// is a copy, its namespace set.
func (p *Parsed) HPAs(ns string) []autoscalingv2.HorizontalPodAutoscaler {
	var out []autoscalingv2.HorizontalPodAutoscaler
	for _, e := range p.inv.hpas {
		in := e.namespace
		switch {
		case in == "" && ns != "":
			in = ns
		case in == "":
			in = DefaultNamespace
		}
		if ns != "" && in != ns {
			continue
		}
		h := e.hpa.DeepCopy()
		h.Namespace = in
		out = append(out, *h)
	}
	return out
}

// parse reads every document of the sources.
func parse(sources []Source) (*inventory, error) {
	inv := &inventory{}
	for _, src := range sources {
		docs, err := splitDocuments(src)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if err := inv.addDocument(d.loc, d.json, "", ""); err != nil {
				return nil, err
			}
		}
	}
	return inv, nil
}

// build resolves namespaces and assembles the snapshot.
func (inv *inventory) build(sources []Source, opts Options) (*Result, error) {
	// The build's own warnings follow the parse's and are taken back when
	// it ends: a parsed input may be built again, for another HPA.
	parsed := len(inv.warnings)
	defer func() { inv.warnings = inv.warnings[:parsed:parsed] }()
	ns := inv.resolveNamespace(opts)
	if err := inv.checkUnknown(); err != nil {
		return nil, err
	}
	nsOf := func(given string) string {
		if given == "" {
			return ns
		}
		return given
	}

	var chosen *hpaEntry
	for i := range inv.hpas {
		e := &inv.hpas[i]
		if e.hpa.Name != opts.Name || nsOf(e.namespace) != ns {
			continue
		}
		if chosen != nil {
			return nil, fmt.Errorf("horizontalpodautoscaler %q in namespace %q is given twice (%s and %s)", opts.Name, ns, chosen.from.loc, e.from.loc)
		}
		chosen = e
	}
	if chosen == nil {
		return nil, inv.notFound(sources, opts.Name, ns)
	}

	hpa := chosen.hpa.DeepCopy()
	hpa.Namespace = ns
	engine.DefaultHPA(hpa)
	snap := &engine.Snapshot{HPA: hpa}
	res := &Result{Snapshot: snap, Namespace: ns}

	apiErrors, err := inv.apiErrorsFor(opts.Name, ns, nsOf)
	if err != nil {
		return nil, err
	}
	if msg, ok := apiErrors[APIErrorScale]; ok {
		ref := hpa.Spec.ScaleTargetRef
		snap.Target = engine.Target{APIVersion: ref.APIVersion, Kind: ref.Kind, Name: ref.Name, GetError: msg}
		delete(apiErrors, APIErrorScale)
	} else {
		snap.Target, err = inv.resolveTarget(hpa.Spec.ScaleTargetRef.APIVersion, hpa.Spec.ScaleTargetRef.Kind, hpa.Spec.ScaleTargetRef.Name, ns, nsOf)
		if errs := validation.ScaleTargetRef(hpa.Spec.ScaleTargetRef); err != nil && len(errs) > 0 {
			// The API server would have refused the HPA: say so rather
			// than ask for a target it can never have.
			return nil, chosen.from.errorf("%s", errs[0].Error())
		}
		if err != nil {
			ref := hpa.Spec.ScaleTargetRef
			return nil, fmt.Errorf("scale target %s/%s of HPA %q not found in the input: %w", ref.Kind, ref.Name, ns+"/"+hpa.Name, err)
		}
	}
	if len(apiErrors) > 0 {
		snap.APIErrors = apiErrors
	}

	snap.Pods, snap.PodMetrics, snap.CustomMetrics = inv.namespaced(ns, nsOf)
	snap.ExternalMetrics = append(snap.ExternalMetrics, inv.external...)

	for _, e := range inv.hpas {
		if nsOf(e.namespace) != ns || e.hpa.Name == opts.Name {
			continue
		}
		ref := e.hpa.Spec.ScaleTargetRef
		t, err := inv.resolveTarget(ref.APIVersion, ref.Kind, ref.Name, ns, nsOf)
		switch {
		case err != nil:
			inv.warnings = append(inv.warnings, fmt.Sprintf(
				"HPA %q: scale target %s/%s is not in the input; it is left out of the ambiguous-selector check", ns+"/"+e.hpa.Name, ref.Kind, ref.Name))
		case t.Selector == "":
			// An HPA whose target has no selector never registers one.
		default:
			snap.OtherHPAs = append(snap.OtherHPAs, engine.HPASelector{Namespace: ns, Name: e.hpa.Name, Selector: t.Selector})
		}
	}

	snap.State, err = inv.stateFor(opts.Name, ns, nsOf)
	if err != nil {
		return nil, err
	}
	if res.ScaledObject, err = inv.ownerOf(hpa, nsOf); err != nil {
		return nil, err
	}
	res.Warnings = slices.Clone(inv.warnings)
	res.Controller = inv.ctl
	res.inv = inv
	return res, nil
}

// resolveNamespace picks the namespace the HPA is looked up in.
func (inv *inventory) resolveNamespace(opts Options) string {
	if opts.Namespace != "" {
		return opts.Namespace
	}
	var found []string
	for _, e := range inv.hpas {
		if e.hpa.Name == opts.Name && !slices.Contains(found, e.namespace) {
			found = append(found, e.namespace)
		}
	}
	if len(found) == 1 && found[0] != "" {
		return found[0]
	}
	return DefaultNamespace
}

func (inv *inventory) notFound(sources []Source, name, ns string) error {
	files := make([]string, 0, len(sources))
	for _, s := range sources {
		files = append(files, s.Name)
	}
	msg := fmt.Sprintf("horizontalpodautoscaler %q not found in namespace %q (files: %s)", name, ns, strings.Join(files, ", "))
	var elsewhere []string
	for _, e := range inv.hpas {
		if e.hpa.Name == name && e.namespace != "" && e.namespace != ns && !slices.Contains(elsewhere, e.namespace) {
			elsewhere = append(elsewhere, e.namespace)
		}
	}
	if len(elsewhere) > 0 {
		slices.Sort(elsewhere)
		msg += fmt.Sprintf("; it exists in namespace %s: pass -n", quoteJoin(elsewhere))
	}
	return errors.New(msg)
}

func quoteJoin(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// checkUnknown fails on the first object of an unknown group, unless it is
// the scale target of an HPA in the input (a custom resource, whose scale
// then has to come from a Scale object).
func (inv *inventory) checkUnknown() error {
	for _, u := range inv.unknown {
		if inv.isScaleTarget(u) {
			continue
		}
		return fmt.Errorf("%s: unknown kind %q of apiVersion %q", u.loc, u.kind, u.apiVersion)
	}
	return nil
}

func (inv *inventory) isScaleTarget(o origin) bool {
	gv, _ := schema.ParseGroupVersion(o.apiVersion)
	for _, e := range inv.hpas {
		ref := e.hpa.Spec.ScaleTargetRef
		refGV, err := schema.ParseGroupVersion(ref.APIVersion)
		if err == nil && refGV.Group == gv.Group && ref.Kind == o.kind && ref.Name == o.name {
			return true
		}
	}
	return false
}

// resolveTarget finds what the scale subresource of the reference would
// return: an autoscaling/v1 Scale with its name, else a workload of that
// group, kind and name.
func (inv *inventory) resolveTarget(apiVersion, kind, name, ns string, nsOf func(string) string) (engine.Target, error) {
	t := engine.Target{APIVersion: apiVersion, Kind: kind, Name: name}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		// The controller fails the same way before any GET.
		t.GetError = err.Error()
		return t, nil
	}
	var scale *scaleEntry
	for i := range inv.scales {
		s := &inv.scales[i]
		if s.scale.Name == name && nsOf(s.namespace) == ns {
			scale = s
		}
	}
	if scale != nil {
		t.SpecReplicas = scale.scale.Spec.Replicas
		t.StatusReplicas = scale.scale.Status.Replicas
		t.Selector = scale.scale.Status.Selector
		return t, nil
	}
	var w *workload
	for i := range inv.workloads {
		c := &inv.workloads[i]
		if c.group == gv.Group && c.kind == kind && c.name == name && nsOf(c.namespace) == ns {
			w = c
		}
	}
	if w != nil {
		t.SpecReplicas = w.specReplicas
		t.StatusReplicas = w.statusReplicas
		t.Selector = w.selector
		return t, nil
	}
	switch gv.Group + "/" + kind {
	case "apps/Deployment", "apps/StatefulSet", "apps/ReplicaSet", "/ReplicationController":
		return t, fmt.Errorf("add the %s or an autoscaling/v1 Scale named %q", kind, name)
	}
	for _, u := range inv.unknown {
		ugv, _ := schema.ParseGroupVersion(u.apiVersion)
		if ugv.Group == gv.Group && u.kind == kind && u.name == name {
			return t, fmt.Errorf("the scale of a custom resource cannot be derived from the object: add an autoscaling/v1 Scale named %q", name)
		}
	}
	return t, fmt.Errorf("add an autoscaling/v1 Scale named %q", name)
}

// namespaced returns the pods, pod metrics and custom metric values of the
// namespace. Later objects with the same name replace earlier ones.
func (inv *inventory) namespaced(ns string, nsOf func(string) string) ([]corev1.Pod, []metricsv1beta1.PodMetrics, []custommetricsv1beta2.MetricValue) {
	var pods []corev1.Pod
	podIdx := map[string]int{}
	podFrom := map[string]origin{}
	for _, e := range inv.pods {
		if nsOf(e.namespace) != ns {
			continue
		}
		p := e.pod
		if inv.shared {
			// Built again for another HPA: nothing of one snapshot is
			// another's.
			p = *e.pod.DeepCopy()
		}
		p.Namespace = ns
		if i, dup := podIdx[p.Name]; dup {
			inv.warnings = append(inv.warnings, fmt.Sprintf("pod %q is given twice (%s and %s): using the later one", p.Name, podFrom[p.Name].loc, e.from.loc))
			pods[i] = p
		} else {
			podIdx[p.Name] = len(pods)
			pods = append(pods, p)
		}
		podFrom[p.Name] = e.from
	}

	var pms []metricsv1beta1.PodMetrics
	pmIdx := map[string]int{}
	pmFrom := map[string]origin{}
	for _, e := range inv.podMets {
		if nsOf(e.namespace) != ns {
			continue
		}
		pm := e.pm
		if inv.shared {
			pm = *e.pm.DeepCopy()
		}
		pm.Namespace = ns
		if i, dup := pmIdx[pm.Name]; dup {
			inv.warnings = append(inv.warnings, fmt.Sprintf("PodMetrics %q is given twice (%s and %s): using the later one", pm.Name, pmFrom[pm.Name].loc, e.from.loc))
			pms[i] = pm
		} else {
			pmIdx[pm.Name] = len(pms)
			pms = append(pms, pm)
		}
		pmFrom[pm.Name] = e.from
	}

	var custom []custommetricsv1beta2.MetricValue
	for _, e := range inv.custom {
		mv := e.mv
		obj := &mv.DescribedObject
		if obj.Kind == "Namespace" && strings.TrimPrefix(obj.APIVersion, "/") == "v1" || obj.Kind == "Namespace" && obj.APIVersion == "" {
			// Namespace metrics are root-scoped and describe the namespace itself.
			if obj.Name != "" && obj.Name != ns {
				continue
			}
		} else {
			if nsOf(obj.Namespace) != ns {
				continue
			}
			obj.Namespace = ns
		}
		custom = append(custom, mv)
	}
	return pods, pms, custom
}

// apiErrorsFor merges the APIErrors documents of the HPA.
func (inv *inventory) apiErrorsFor(name, ns string, nsOf func(string) string) (map[string]string, error) {
	out := map[string]string{}
	seen := map[string]origin{}
	for _, e := range inv.apiErrs {
		if e.doc.Metadata.Name != name || nsOf(e.namespace) != ns {
			continue
		}
		for k, v := range e.doc.Errors {
			if prev, dup := seen[k]; dup {
				return nil, fmt.Errorf("%s: errors[%q] is already given at %s", e.from, k, prev.loc)
			}
			seen[k] = e.from
			out[k] = v
		}
	}
	return out, nil
}

// stateFor returns the ControllerState of the HPA, or the assumed state of
// a fresh controller.
func (inv *inventory) stateFor(name, ns string, nsOf func(string) string) (engine.ControllerState, error) {
	var found *stateEntry
	for i := range inv.states {
		e := &inv.states[i]
		if e.doc.Metadata.Name != name || nsOf(e.namespace) != ns {
			continue
		}
		if found != nil {
			return engine.ControllerState{}, fmt.Errorf("%s: a ControllerState for this HPA is already given at %s", e.from, found.from.loc)
		}
		found = e
	}
	if found == nil {
		return assumedState(), nil
	}
	st, err := found.doc.toControllerState(found.from.loc.String())
	if err != nil {
		return st, found.from.errorf("%s", err)
	}
	return st, nil
}
