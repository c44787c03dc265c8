// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	custommetricsv1beta1 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta1"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
)

// Group of the kubectl-hpa.io documents.
const stateGroup = "kubectl-hpa.io"

// builtinGroups are the API groups of Kubernetes itself (and of the metrics
// APIs). Objects of these groups whose kinds the loader does not use are
// skipped; any other group is an error.
var builtinGroups = map[string]bool{
	"":                             true,
	"admission.k8s.io":             true,
	"admissionregistration.k8s.io": true,
	"apidiscovery.k8s.io":          true,
	"apiextensions.k8s.io":         true,
	"apiregistration.k8s.io":       true,
	"apps":                         true,
	"authentication.k8s.io":        true,
	"authorization.k8s.io":         true,
	"autoscaling":                  true,
	"batch":                        true,
	"certificates.k8s.io":          true,
	"coordination.k8s.io":          true,
	"custom.metrics.k8s.io":        true,
	"discovery.k8s.io":             true,
	"events.k8s.io":                true,
	"extensions":                   true,
	"external.metrics.k8s.io":      true,
	"flowcontrol.apiserver.k8s.io": true,
	"imagepolicy.k8s.io":           true,
	"internal.apiserver.k8s.io":    true,
	"metrics.k8s.io":               true,
	"networking.k8s.io":            true,
	"node.k8s.io":                  true,
	"policy":                       true,
	"rbac.authorization.k8s.io":    true,
	"resource.k8s.io":              true,
	"scheduling.k8s.io":            true,
	"storage.k8s.io":               true,
	"storagemigration.k8s.io":      true,
}

// header is the part of every object the loader reads before knowing its
// type.
type header struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
	Items []json.RawMessage `json:"items"`
}

// origin says where an object came from and what it is, for messages.
type origin struct {
	loc        location
	apiVersion string
	kind       string
	name       string
}

func (o origin) String() string {
	s := o.loc.String() + ": " + o.apiVersion + " " + o.kind
	if o.name != "" {
		s += fmt.Sprintf(" %q", o.name)
	}
	return s
}

func (o origin) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: %s", o, fmt.Sprintf(format, args...))
}

type hpaEntry struct {
	from      origin
	namespace string
	hpa       *autoscalingv2.HorizontalPodAutoscaler
	// paths map field paths back to the API version written.
	paths hpaPaths
}

type scaleEntry struct {
	from      origin
	namespace string
	scale     *autoscalingv1.Scale
}

// workload is a Deployment, StatefulSet, ReplicaSet or ReplicationController
// reduced to what its scale subresource would report.
type workload struct {
	from           origin
	group, kind    string
	name           string
	namespace      string
	specReplicas   int32
	statusReplicas int32
	selector       string
}

type podEntry struct {
	from      origin
	namespace string
	pod       corev1.Pod
}

type podMetricsEntry struct {
	from      origin
	namespace string
	pm        metricsv1beta1.PodMetrics
}

type customEntry struct {
	from origin
	mv   custommetricsv1beta2.MetricValue
}

type stateEntry struct {
	from      origin
	namespace string
	doc       *ControllerStateDocument
}

type apiErrorsEntry struct {
	from      origin
	namespace string
	doc       *APIErrorsDocument
}

// inventory is everything read from the input, before namespace resolution.
type inventory struct {
	hpas      []hpaEntry
	scales    []scaleEntry
	workloads []workload
	pods      []podEntry
	podMets   []podMetricsEntry
	custom    []customEntry
	external  []externalmetricsv1beta1.ExternalMetricValue
	extFrom   []origin // where each of external came from
	states    []stateEntry
	apiErrs   []apiErrorsEntry
	sos       []soEntry
	ctl       *ControllerDocument
	ctlFrom   origin
	unknown   []origin
	warnings  []string
	// shared says the inventory is built from more than once (Parsed):
	// each build copies what it takes.
	shared bool
}

// addDocument files one JSON value (an object, a list or an array). The
// defaults apply to items of typed lists, which often omit apiVersion and
// kind.
func (inv *inventory) addDocument(loc location, raw []byte, defAPIVersion, defKind string) error {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(trimmed, &items); err != nil {
			return fmt.Errorf("%s: %s", loc, oneLine(err.Error()))
		}
		for i, it := range items {
			if err := inv.addDocument(loc.withItem(i+1), it, defAPIVersion, defKind); err != nil {
				return err
			}
		}
		return nil
	}
	if len(trimmed) == 0 || trimmed[0] != '{' {
		var v any
		_ = json.Unmarshal(trimmed, &v)
		return fmt.Errorf("%s: not a Kubernetes object (got %s)", loc, jsonKind(v))
	}
	var h header
	if _, err := decodeInto(trimmed, &h); err != nil {
		return fmt.Errorf("%s: %w", loc, err)
	}
	if h.APIVersion == "" {
		h.APIVersion = defAPIVersion
	}
	if h.Kind == "" {
		h.Kind = defKind
	}
	switch {
	case h.APIVersion == "" && h.Kind == "":
		return fmt.Errorf("%s: object has no apiVersion and no kind", loc)
	case h.APIVersion == "":
		return fmt.Errorf("%s: %s %q has no apiVersion", loc, h.Kind, h.Metadata.Name)
	case h.Kind == "":
		return fmt.Errorf("%s: %s object %q has no kind", loc, h.APIVersion, h.Metadata.Name)
	}
	gv, err := schema.ParseGroupVersion(h.APIVersion)
	if err != nil {
		return fmt.Errorf("%s: invalid apiVersion %q of kind %q", loc, h.APIVersion, h.Kind)
	}
	if h.Kind == "List" || strings.HasSuffix(h.Kind, "List") {
		itemVersion, itemKind := "", ""
		if h.Kind != "List" {
			itemVersion, itemKind = h.APIVersion, strings.TrimSuffix(h.Kind, "List")
		}
		for i, it := range h.Items {
			if err := inv.addDocument(loc.withItem(i+1), it, itemVersion, itemKind); err != nil {
				return err
			}
		}
		return nil
	}
	from := origin{loc: loc, apiVersion: h.APIVersion, kind: h.Kind, name: h.Metadata.Name}
	return inv.addObject(from, gv, trimmed)
}

// strictness says what unknown or duplicate fields mean for a kind.
type strictness int

const (
	strictIgnore strictness = iota
	strictWarn
	strictFail
)

func decodeAs[T any](inv *inventory, from origin, raw []byte, mode strictness) (*T, error) {
	out := new(T)
	strict, err := decodeInto(raw, out)
	if err != nil {
		return nil, from.errorf("%s", err.Error())
	}
	for _, s := range strict {
		switch mode {
		case strictFail:
			return nil, from.errorf("%s", oneLine(s.Error()))
		case strictWarn:
			inv.warnings = append(inv.warnings, fmt.Sprintf("%s: %s (ignored)", from, oneLine(s.Error())))
		default:
		}
	}
	return out, nil
}

func unsupportedVersion(from origin, want string) error {
	return from.errorf("unsupported apiVersion for kind %s (use %s)", from.kind, want)
}

// addObject decodes one object by its group, version and kind.
func (inv *inventory) addObject(from origin, gv schema.GroupVersion, raw []byte) error {
	switch gv.Group + "/" + from.kind {
	case "autoscaling/HorizontalPodAutoscaler":
		return inv.addHPA(from, gv, raw)
	case "autoscaling/Scale":
		if gv.Version != "v1" {
			return unsupportedVersion(from, "autoscaling/v1")
		}
		s, err := decodeAs[autoscalingv1.Scale](inv, from, raw, strictIgnore)
		if err != nil {
			return err
		}
		inv.scales = append(inv.scales, scaleEntry{from: from, namespace: s.Namespace, scale: s})
	case "apps/Deployment", "apps/StatefulSet", "apps/ReplicaSet":
		if gv.Version != "v1" {
			return unsupportedVersion(from, "apps/v1")
		}
		return inv.addAppsWorkload(from, raw)
	case "/ReplicationController":
		rc, err := decodeAs[corev1.ReplicationController](inv, from, raw, strictIgnore)
		if err != nil {
			return err
		}
		sel := rc.Spec.Selector
		if len(sel) == 0 && rc.Spec.Template != nil {
			// The API server defaults an empty selector to the template labels.
			sel = rc.Spec.Template.Labels
		}
		inv.workloads = append(inv.workloads, workload{
			from: from, group: "", kind: from.kind, name: rc.Name, namespace: rc.Namespace,
			specReplicas: replicasOrOne(rc.Spec.Replicas), statusReplicas: rc.Status.Replicas,
			selector: labels.SelectorFromSet(sel).String(),
		})
	case "/Pod":
		p, err := decodeAs[corev1.Pod](inv, from, raw, strictIgnore)
		if err != nil {
			return err
		}
		inv.pods = append(inv.pods, podEntry{from: from, namespace: p.Namespace, pod: *p})
	case "metrics.k8s.io/PodMetrics":
		if gv.Version != "v1beta1" {
			return unsupportedVersion(from, "metrics.k8s.io/v1beta1")
		}
		pm, err := decodeAs[metricsv1beta1.PodMetrics](inv, from, raw, strictIgnore)
		if err != nil {
			return err
		}
		inv.podMets = append(inv.podMets, podMetricsEntry{from: from, namespace: pm.Namespace, pm: *pm})
	case "custom.metrics.k8s.io/MetricValue":
		switch gv.Version {
		case "v1beta2":
			mv, err := decodeAs[custommetricsv1beta2.MetricValue](inv, from, raw, strictIgnore)
			if err != nil {
				return err
			}
			inv.custom = append(inv.custom, customEntry{from: from, mv: *mv})
		case "v1beta1":
			mv, err := decodeAs[custommetricsv1beta1.MetricValue](inv, from, raw, strictIgnore)
			if err != nil {
				return err
			}
			inv.custom = append(inv.custom, customEntry{from: from, mv: convertCustomV1beta1(mv)})
		default:
			return unsupportedVersion(from, "custom.metrics.k8s.io/v1beta2 or v1beta1")
		}
	case "external.metrics.k8s.io/ExternalMetricValue":
		if gv.Version != "v1beta1" {
			return unsupportedVersion(from, "external.metrics.k8s.io/v1beta1")
		}
		ev, err := decodeAs[externalmetricsv1beta1.ExternalMetricValue](inv, from, raw, strictIgnore)
		if err != nil {
			return err
		}
		inv.external = append(inv.external, *ev)
		inv.extFrom = append(inv.extFrom, from)
	case keda.Group + "/" + keda.KindScaledObject:
		return inv.addScaledObject(from, gv, raw)
	case stateGroup + "/" + explain.KindControllerState:
		if from.apiVersion != explain.APIVersion {
			return unsupportedVersion(from, explain.APIVersion)
		}
		d, err := decodeAs[ControllerStateDocument](inv, from, raw, strictFail)
		if err != nil {
			return err
		}
		if d.Metadata.Name == "" {
			return from.errorf("%s", errNoName)
		}
		inv.states = append(inv.states, stateEntry{from: from, namespace: d.Metadata.Namespace, doc: d})
	case stateGroup + "/" + explain.KindController:
		if from.apiVersion != explain.APIVersion {
			return unsupportedVersion(from, explain.APIVersion)
		}
		d, err := decodeAs[ControllerDocument](inv, from, raw, strictFail)
		if err != nil {
			return err
		}
		if inv.ctl != nil {
			return from.errorf("a Controller document is already given at %s", inv.ctlFrom.loc)
		}
		if err := d.check(); err != nil {
			return from.errorf("%s", err)
		}
		inv.ctl, inv.ctlFrom = d, from
	case stateGroup + "/" + explain.KindAPIErrors:
		if from.apiVersion != explain.APIVersion {
			return unsupportedVersion(from, explain.APIVersion)
		}
		d, err := decodeAs[APIErrorsDocument](inv, from, raw, strictFail)
		if err != nil {
			return err
		}
		if d.Metadata.Name == "" {
			return from.errorf("%s", errNoName)
		}
		for k := range d.Errors {
			if err := validateAPIErrorKey(k); err != nil {
				return from.errorf("%s", err)
			}
		}
		inv.apiErrs = append(inv.apiErrs, apiErrorsEntry{from: from, namespace: d.Metadata.Namespace, doc: d})
	default:
		if !builtinGroups[gv.Group] {
			inv.unknown = append(inv.unknown, from)
		}
	}
	return nil
}

func (inv *inventory) addHPA(from origin, gv schema.GroupVersion, raw []byte) error {
	switch gv.Version {
	case "v2":
		h, err := decodeAs[autoscalingv2.HorizontalPodAutoscaler](inv, from, raw, strictWarn)
		if err != nil {
			return err
		}
		inv.hpas = append(inv.hpas, hpaEntry{from: from, namespace: h.Namespace, hpa: h})
	case "v1":
		h1, err := decodeAs[autoscalingv1.HorizontalPodAutoscaler](inv, from, raw, strictWarn)
		if err != nil {
			return err
		}
		h, err := convertHPAv1(h1)
		if err != nil {
			return from.errorf("%s", err)
		}
		if _, ok := h1.Annotations[AnnotationMetrics]; ok && h1.Spec.TargetCPUUtilizationPercentage != nil {
			inv.warnings = append(inv.warnings, fmt.Sprintf(
				"%s: converted from autoscaling/v1: the cpu metric is placed last, which may differ from the autoscaling/v2 order (get it with 'kubectl get hpa.v2.autoscaling')", from))
		}
		paths := hpaPaths{version: "v1", cpuMetric: -1, annotationMetrics: len(h.Spec.Metrics)}
		if h1.Spec.TargetCPUUtilizationPercentage != nil {
			paths.cpuMetric = len(h.Spec.Metrics) - 1
			paths.annotationMetrics--
		}
		_, paths.behaviorAnnotation = h1.Annotations[AnnotationBehavior]
		inv.hpas = append(inv.hpas, hpaEntry{from: from, namespace: h.Namespace, hpa: h, paths: paths})
	case "v2beta2":
		h, err := decodeAs[autoscalingv2.HorizontalPodAutoscaler](inv, from, raw, strictWarn)
		if err != nil {
			return err
		}
		for _, w := range convertHPAv2beta2(h) {
			inv.warnings = append(inv.warnings, fmt.Sprintf("%s: %s", from, w))
		}
		inv.hpas = append(inv.hpas, hpaEntry{from: from, namespace: h.Namespace, hpa: h, paths: hpaPaths{version: "v2beta2", cpuMetric: -1}})
	case "v2beta1":
		hb, err := decodeAs[hpaV2beta1](inv, from, raw, strictWarn)
		if err != nil {
			return err
		}
		h, warnings := convertHPAv2beta1(hb)
		for _, w := range warnings {
			inv.warnings = append(inv.warnings, fmt.Sprintf("%s: %s", from, w))
		}
		_, behavior := hb.Annotations[AnnotationBehavior]
		inv.hpas = append(inv.hpas, hpaEntry{from: from, namespace: h.Namespace, hpa: h, paths: hpaPaths{version: "v2beta1", cpuMetric: -1, behaviorAnnotation: behavior}})
	default:
		return unsupportedVersion(from, "autoscaling/v2, v1, v2beta2 or v2beta1")
	}
	return nil
}

func (inv *inventory) addAppsWorkload(from origin, raw []byte) error {
	var (
		meta    metav1.ObjectMeta
		spec    *int32
		status  int32
		sel     *metav1.LabelSelector
		selPath = "spec.selector"
	)
	switch from.kind {
	case "Deployment":
		d, err := decodeAs[appsv1.Deployment](inv, from, raw, strictIgnore)
		if err != nil {
			return err
		}
		meta, spec, status, sel = d.ObjectMeta, d.Spec.Replicas, d.Status.Replicas, d.Spec.Selector
	case "StatefulSet":
		s, err := decodeAs[appsv1.StatefulSet](inv, from, raw, strictIgnore)
		if err != nil {
			return err
		}
		meta, spec, status, sel = s.ObjectMeta, s.Spec.Replicas, s.Status.Replicas, s.Spec.Selector
	default:
		r, err := decodeAs[appsv1.ReplicaSet](inv, from, raw, strictIgnore)
		if err != nil {
			return err
		}
		meta, spec, status, sel = r.ObjectMeta, r.Spec.Replicas, r.Status.Replicas, r.Spec.Selector
	}
	selector := ""
	if sel != nil {
		s, err := metav1.LabelSelectorAsSelector(sel)
		if err != nil {
			return from.errorf("%s: %s", selPath, oneLine(err.Error()))
		}
		selector = s.String()
	}
	inv.workloads = append(inv.workloads, workload{
		from: from, group: "apps", kind: from.kind, name: meta.Name, namespace: meta.Namespace,
		specReplicas: replicasOrOne(spec), statusReplicas: status, selector: selector,
	})
	return nil
}

func replicasOrOne(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}
