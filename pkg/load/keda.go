// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
)

// soEntry is one ScaledObject of the input.
type soEntry struct {
	from      origin
	namespace string
	so        *keda.ScaledObject
}

// addScaledObject files a keda.sh/v1alpha1 ScaledObject; what the API
// server would refuse of it is refused here, in one line naming the file,
// the object and the field.
func (inv *inventory) addScaledObject(from origin, gv schema.GroupVersion, raw []byte) error {
	if gv.Version != "v1alpha1" {
		return unsupportedVersion(from, keda.GroupVersion)
	}
	so, err := keda.Decode(raw)
	if err != nil {
		return fmt.Errorf("%s: %s", from.loc, oneLine(err.Error()))
	}
	if err := keda.Validate(so); err != nil {
		return fmt.Errorf("%s: %s", from.loc, oneLine(err.Error()))
	}
	inv.sos = append(inv.sos, soEntry{from: from, namespace: so.Namespace, so: so})
	return nil
}

// ownerOf finds the ScaledObject of the input that owns hpa: the one its
// ownerReferences name, else one whose HPA name is hpa's.
func (inv *inventory) ownerOf(hpa *autoscalingv2.HorizontalPodAutoscaler, nsOf func(string) string) (*keda.ScaledObject, error) {
	owner := keda.Owner(hpa)
	var found *soEntry
	for i := range inv.sos {
		e := &inv.sos[i]
		if nsOf(e.namespace) != hpa.Namespace {
			continue
		}
		if owner != "" && e.so.Name != owner || owner == "" && keda.HPAName(e.so) != hpa.Name {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("%s: the ScaledObject of HPA %q is already given at %s", e.from, hpa.Namespace+"/"+hpa.Name, found.from.loc)
		}
		found = e
	}
	if found == nil {
		return nil, nil
	}
	so := found.so.DeepCopy()
	so.Namespace = hpa.Namespace
	return so, nil
}

// KEDAResult is a ScaledObject loaded from files with what its
// explanation needs: KEDA's HPA when the input holds it, else the
// workload's scale.
type KEDAResult struct {
	ScaledObject *keda.ScaledObject
	// HPA is the load of KEDA's HPA (its ScaledObject set), nil when the
	// input has none: KEDA deleted it (paused) or never wrote it.
	HPA *Result
	// Target is the scale of the workload, read from the input when HPA
	// is nil.
	Target    engine.Target
	Namespace string
	Warnings  []string
	// Controller is the input's Controller document, if any.
	Controller *ControllerDocument
}

// ScaledObject parses the sources and loads the ScaledObject named
// opts.Name, with its HPA (status.hpaName, else the name KEDA gives it)
// when the input holds one, else the scale of its workload.
func ScaledObject(sources []Source, opts Options) (*KEDAResult, error) {
	if opts.Name == "" {
		return nil, errors.New("the name of the ScaledObject is required")
	}
	inv, err := parse(sources)
	if err != nil {
		return nil, err
	}
	ns := opts.Namespace
	if ns == "" {
		var found []string
		for _, e := range inv.sos {
			if e.so.Name == opts.Name && !slices.Contains(found, e.namespace) {
				found = append(found, e.namespace)
			}
		}
		ns = DefaultNamespace
		if len(found) == 1 && found[0] != "" {
			ns = found[0]
		}
	}
	nsOf := func(given string) string {
		if given == "" {
			return ns
		}
		return given
	}
	var chosen *soEntry
	var elsewhere []string
	for i := range inv.sos {
		e := &inv.sos[i]
		if e.so.Name != opts.Name {
			continue
		}
		if nsOf(e.namespace) != ns {
			elsewhere = append(elsewhere, fmt.Sprintf("%q", e.namespace))
			continue
		}
		if chosen != nil {
			return nil, fmt.Errorf("scaledobject %q in namespace %q is given twice (%s and %s)", opts.Name, ns, chosen.from.loc, e.from.loc)
		}
		chosen = e
	}
	if chosen == nil {
		files := make([]string, 0, len(sources))
		for _, s := range sources {
			files = append(files, s.Name)
		}
		msg := fmt.Sprintf("scaledobject %q not found in namespace %q (files: %s)", opts.Name, ns, strings.Join(files, ", "))
		if len(elsewhere) > 0 {
			msg += fmt.Sprintf("; it exists in namespace %s: pass -n", strings.Join(elsewhere, ", "))
		}
		return nil, errors.New(msg)
	}
	so := chosen.so.DeepCopy()
	so.Namespace = ns
	out := &KEDAResult{ScaledObject: so, Namespace: ns, Controller: inv.ctl}
	hpaName := keda.HPAName(so)
	for _, e := range inv.hpas {
		if e.hpa.Name == hpaName && nsOf(e.namespace) == ns {
			if out.HPA, err = inv.build(sources, Options{Name: hpaName, Namespace: ns}); err != nil {
				return nil, err
			}
			out.HPA.ScaledObject = so
			out.Warnings = out.HPA.Warnings
			return out, nil
		}
	}
	// No HPA: the workload's replicas come from its scale or the object.
	ref := so.Spec.ScaleTargetRef
	apiVersion, kind := ref.APIVersion, ref.Kind
	if apiVersion == "" {
		apiVersion = "apps/v1"
	}
	if kind == "" {
		kind = "Deployment"
	}
	if err := inv.checkUnknown(); err != nil {
		return nil, err
	}
	t, err := inv.resolveTarget(apiVersion, kind, ref.Name, ns, nsOf)
	if err != nil {
		return nil, fmt.Errorf("scale target %s/%s of ScaledObject %q not found in the input (its HPA %s is not there either): %w", kind, ref.Name, ns+"/"+so.Name, hpaName, err)
	}
	out.Target = t
	out.Warnings = inv.warnings
	return out, nil
}
