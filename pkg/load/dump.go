// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"fmt"
	"io"
	"time"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
)

// Dump writes a snapshot in the offline format, as a multi-document YAML
// stream that Load reads back into the same snapshot: the HPA, a Scale for
// its target, the pods, what the metrics APIs returned, the controller state
// and the API errors. Other HPAs (for the ambiguous-selector check) are
// written as minimal HPA + Scale pairs carrying only their selectors. With
// set, a Controller document records the controller settings the replay
// used, so that replaying the file uses them too. The header names no
// command line that replays the file (DumpKEDA's replay does).
func Dump(w io.Writer, snap *engine.Snapshot, set *engine.Settings) error {
	return DumpKEDA(w, snap, set, nil, nil)
}

// KEDADump is what a snapshot of an HPA a ScaledObject owns adds: the
// ScaledObject, and the KEDA release replayed with where it came from.
type KEDADump struct {
	ScaledObject  *keda.ScaledObject
	Version       string
	VersionSource string
}

// ReplayFlags are the options of the command line that replays a dump,
// which its header comment shows (pkg/action gives them; nil leaves the
// line out).
type ReplayFlags struct {
	// Files reads the file ("-f"); Now sets the instant ("--now").
	Files, Now string
}

// DumpKEDA is Dump with, when k is set, the ScaledObject and the KEDA
// release (in the Controller document), so that replaying the file
// explains KEDA's part too, and with replay the command line that replays
// it.
func DumpKEDA(w io.Writer, snap *engine.Snapshot, set *engine.Settings, k *KEDADump, replay *ReplayFlags) error {
	if snap == nil || snap.HPA == nil {
		return fmt.Errorf("nothing to dump: the snapshot has no HPA")
	}
	hpa := snap.HPA
	ns, name := hpa.Namespace, hpa.Name
	fmt.Fprintf(w, "# kubectl-hpa snapshot of HorizontalPodAutoscaler %s/%s, taken at %s.\n", ns, name, snap.Now.UTC().Format(time.RFC3339Nano))
	if replay != nil {
		fmt.Fprintf(w, "# Replay it: kubectl hpa explain %s -n %s %s FILE %s %s\n", name, ns, replay.Files, replay.Now, snap.Now.UTC().Format(time.RFC3339Nano))
	}

	var docs []any
	h := hpa.DeepCopy()
	h.APIVersion, h.Kind = "autoscaling/v2", "HorizontalPodAutoscaler"
	h.ManagedFields = nil
	docs = append(docs, h)

	errs := map[string]string{}
	for k, v := range snap.APIErrors {
		errs[k] = v
	}
	t := snap.Target
	if t.GetError != "" {
		errs["scale"] = t.GetError
	} else {
		docs = append(docs, scaleDoc(ns, t.Name, t.SpecReplicas, t.StatusReplicas, t.Selector))
	}
	for i := range snap.Pods {
		p := snap.Pods[i].DeepCopy()
		p.APIVersion, p.Kind = "v1", "Pod"
		p.ManagedFields = nil
		docs = append(docs, p)
	}
	for i := range snap.PodMetrics {
		m := snap.PodMetrics[i].DeepCopy()
		m.APIVersion, m.Kind = "metrics.k8s.io/v1beta1", "PodMetrics"
		docs = append(docs, m)
	}
	for i := range snap.CustomMetrics {
		m := snap.CustomMetrics[i].DeepCopy()
		m.APIVersion, m.Kind = "custom.metrics.k8s.io/v1beta2", "MetricValue"
		docs = append(docs, m)
	}
	for i := range snap.ExternalMetrics {
		m := snap.ExternalMetrics[i].DeepCopy()
		m.APIVersion, m.Kind = "external.metrics.k8s.io/v1beta1", "ExternalMetricValue"
		docs = append(docs, m)
	}
	for i, o := range snap.OtherHPAs {
		target := fmt.Sprintf("kubectl-hpa-other-target-%d", i)
		docs = append(docs,
			&autoscalingv2.HorizontalPodAutoscaler{
				TypeMeta:   metav1.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
				ObjectMeta: metav1.ObjectMeta{Name: o.Name, Namespace: o.Namespace, Annotations: map[string]string{"kubectl-hpa.io/stub": "only the selector of this HPA's target was recorded"}},
				Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
					ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "v1", Kind: "ReplicationController", Name: target},
					MaxReplicas:    1,
				},
			},
			scaleDoc(o.Namespace, target, 1, 1, o.Selector))
	}
	docs = append(docs, stateDoc(ns, name, snap.State))
	if k != nil && k.ScaledObject != nil {
		so := k.ScaledObject.DeepCopy()
		so.APIVersion, so.Kind = keda.GroupVersion, keda.KindScaledObject
		so.ManagedFields = nil
		docs = append(docs, so)
	}
	if set != nil {
		d := ControllerDocumentOf(*set)
		if k != nil {
			d.KEDAVersion, d.KEDAVersionSource = k.Version, k.VersionSource
		}
		docs = append(docs, d)
	}
	if len(errs) > 0 {
		docs = append(docs, map[string]any{
			"apiVersion": explain.APIVersion, "kind": explain.KindAPIErrors,
			"metadata": map[string]string{"name": name, "namespace": ns},
			"errors":   errs,
		})
	}
	for _, d := range docs {
		b, err := yaml.Marshal(d)
		if err != nil {
			return fmt.Errorf("encode the snapshot: %w", err)
		}
		if _, err := fmt.Fprintf(w, "---\n%s", b); err != nil {
			return err
		}
	}
	return nil
}

// ControllerDocumentOf records the settings of a replay as a Controller
// document.
func ControllerDocumentOf(set engine.Settings) *ControllerDocument {
	d := &ControllerDocument{
		TypeMeta:                metav1.TypeMeta{APIVersion: explain.APIVersion, Kind: explain.KindController},
		Metadata:                DocumentMeta{Name: "kube-controller-manager"},
		Version:                 set.Profile.Version.String(),
		VersionSource:           set.VersionSource,
		FeatureGates:            map[string]bool{},
		Tolerance:               &set.Tolerance,
		CPUInitializationPeriod: &metav1.Duration{Duration: set.CPUInitializationPeriod},
		InitialReadinessDelay:   &metav1.Duration{Duration: set.InitialReadinessDelay},
		DownscaleStabilization:  &metav1.Duration{Duration: set.DownscaleStabilization},
		SyncPeriod:              &metav1.Duration{Duration: set.SyncPeriod},
		Source:                  set.Source,
	}
	for g, v := range set.Profile.Gates {
		d.FeatureGates[string(g)] = v
	}
	return d
}

func scaleDoc(ns, name string, spec, status int32, selector string) *autoscalingv1.Scale {
	return &autoscalingv1.Scale{
		TypeMeta:   metav1.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       autoscalingv1.ScaleSpec{Replicas: spec},
		Status:     autoscalingv1.ScaleStatus{Replicas: status, Selector: selector},
	}
}

func stateDoc(ns, name string, st engine.ControllerState) *ControllerStateDocument {
	init := st.RecommendationsInitialized
	d := &ControllerStateDocument{
		TypeMeta:                   metav1.TypeMeta{APIVersion: explain.APIVersion, Kind: explain.KindControllerState},
		Metadata:                   DocumentMeta{Name: name, Namespace: ns},
		RecommendationsInitialized: &init,
		Provenance:                 st.Provenance,
		Notes:                      st.Notes,
	}
	for _, r := range st.Recommendations {
		v := r.Replicas
		d.Recommendations = append(d.Recommendations, StateRecommendation{Timestamp: metav1.Time{Time: r.Timestamp}, Replicas: &v})
	}
	conv := func(evs []engine.ScaleEvent) []StateScaleEvent {
		var out []StateScaleEvent
		for _, e := range evs {
			v := e.ReplicaChange
			out = append(out, StateScaleEvent{Timestamp: metav1.Time{Time: e.Timestamp}, ReplicaChange: &v, Outdated: e.Outdated})
		}
		return out
	}
	d.ScaleUpEvents, d.ScaleDownEvents = conv(st.ScaleUpEvents), conv(st.ScaleDownEvents)
	return d
}
