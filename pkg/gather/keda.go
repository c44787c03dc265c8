// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
)

// ScaledObjectsResource is KEDA's ScaledObject resource.
var ScaledObjectsResource = schema.GroupVersionResource{Group: "keda.sh", Version: "v1alpha1", Resource: "scaledobjects"}

// OwnerScaledObject returns the name of the ScaledObject that owns hpa,
// "" when none does.
func OwnerScaledObject(hpa *autoscalingv2.HorizontalPodAutoscaler) string { return keda.Owner(hpa) }

// errNoDynamic is returned by the KEDA reads of clients without a dynamic
// client (test fakes that do not set one).
var errNoDynamic = fmt.Errorf("no client for %s", ScaledObjectsResource.GroupResource())

// ScaledObject reads one ScaledObject (GET).
func ScaledObject(ctx context.Context, c *Clients, namespace, name string) (*keda.ScaledObject, error) {
	if c.Dynamic == nil {
		return nil, errNoDynamic
	}
	u, err := c.Dynamic.Resource(ScaledObjectsResource).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("get scaledobject %q in namespace %q: %w", name, namespace, err)
	}
	return decodeScaledObject(u)
}

// ScaledObjects lists the ScaledObjects of a namespace ("" for every
// namespace), sorted by namespace and name. Without KEDA's CRD in the
// cluster the list is empty and ok is false.
func ScaledObjects(ctx context.Context, c *Clients, namespace string) (sos []*keda.ScaledObject, ok bool, err error) {
	if c.Dynamic == nil {
		return nil, false, nil
	}
	list, err := c.Dynamic.Resource(ScaledObjectsResource).Namespace(namespace).List(ctx, metav1.ListOptions{})
	switch {
	case apierrors.IsNotFound(err) || meta.IsNoMatchError(err):
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	for i := range list.Items {
		so, err := decodeScaledObject(&list.Items[i])
		if err != nil {
			return nil, true, err
		}
		sos = append(sos, so)
	}
	sort.Slice(sos, func(i, j int) bool {
		if sos[i].Namespace != sos[j].Namespace {
			return sos[i].Namespace < sos[j].Namespace
		}
		return sos[i].Name < sos[j].Name
	})
	return sos, true, nil
}

// decodeScaledObject turns what the dynamic client read into a
// ScaledObject, as keda.Decode reads kubectl's output.
func decodeScaledObject(u *unstructured.Unstructured) (*keda.ScaledObject, error) {
	data, err := json.Marshal(u.Object)
	if err != nil {
		return nil, fmt.Errorf("ScaledObject %s/%s: %w", u.GetNamespace(), u.GetName(), err)
	}
	return keda.Decode(data)
}

// KEDAOperator finds KEDA's operator: a Deployment labelled as KEDA's Helm
// chart and manifests label it (app.kubernetes.io/name=keda-operator, or
// app=keda-operator), in any namespace. It returns the version its labels
// or its image name and where that came from; "" when no operator is
// readable (err says why when a list failed).
func KEDAOperator(ctx context.Context, c *Clients) (version, source string, err error) {
	for _, sel := range []string{"app.kubernetes.io/name=keda-operator", "app=keda-operator"} {
		list, err := c.Kube.AppsV1().Deployments("").List(ctx, metav1.ListOptions{LabelSelector: sel})
		if err != nil {
			return "", "", err
		}
		for _, d := range list.Items {
			where := fmt.Sprintf("Deployment %s/%s", d.Namespace, d.Name)
			if v := d.Labels["app.kubernetes.io/version"]; v != "" {
				return v, fmt.Sprintf("the label app.kubernetes.io/version of KEDA's operator (%s)", where), nil
			}
			for _, ct := range d.Spec.Template.Spec.Containers {
				if tag := imageTag(ct.Image); tag != "" && strings.Contains(ct.Image, "keda") {
					return tag, fmt.Sprintf("the image of KEDA's operator (%s: %s)", where, ct.Image), nil
				}
			}
		}
	}
	return "", "", nil
}

// externalMetricsAPIService is the APIService that routes
// external.metrics.k8s.io/v1beta1.
var (
	apiServicesResource       = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
	externalMetricsAPIService = "v1beta1.external.metrics.k8s.io"
)

// ExternalMetricsServer reads who serves v1beta1.external.metrics.k8s.io
// (one GET of its APIService): only one server can, so when it is not
// KEDA's metrics server, the HPAs KEDA writes read their External metrics
// from another adapter, or from nobody when the APIService does not exist
// (Missing). nil with an error when the APIService cannot be read (RBAC,
// or no dynamic client).
func ExternalMetricsServer(ctx context.Context, c *Clients) (*explain.KEDAMetricsServer, error) {
	if c.Dynamic == nil {
		return nil, errNoDynamic
	}
	u, err := c.Dynamic.Resource(apiServicesResource).Get(ctx, externalMetricsAPIService, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return &explain.KEDAMetricsServer{Missing: true}, nil
	}
	if err != nil {
		return nil, err
	}
	out := &explain.KEDAMetricsServer{}
	ns, _, _ := unstructured.NestedString(u.Object, "spec", "service", "namespace")
	name, _, _ := unstructured.NestedString(u.Object, "spec", "service", "name")
	if name != "" {
		out.Service = ns + "/" + name
		out.KEDA = strings.Contains(strings.ToLower(out.Service), "keda")
	}
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == "Available" {
			out.Available, _ = m["status"].(string)
		}
	}
	return out, nil
}

// imageTag is the tag of an image reference ("" without one).
func imageTag(image string) string {
	if at := strings.IndexByte(image, '@'); at >= 0 {
		image = image[:at]
	}
	i := strings.LastIndexByte(image, ':')
	if i < 0 || strings.Contains(image[i:], "/") {
		return ""
	}
	return image[i+1:]
}

// ExternalReads are External metric values read for the triggers of a
// ScaledObject: per metric name, the items KEDA's metrics server answered,
// or its error.
type ExternalReads struct {
	Values []externalmetricsv1beta1.ExternalMetricValue
	Errors map[string]string
}

// ExternalValues reads, as the HPA would, each External metric of names
// with KEDA's selector (scaledobject.keda.sh/name=NAME), concurrently.
// Through KEDA's metrics server each read is one request KEDA answers like
// the HPA's (with a fallback configured, a failing trigger counts one more
// failure).
func ExternalValues(ctx context.Context, c *Clients, namespace, scaledObject string, names []string) ExternalReads {
	out := ExternalReads{Errors: map[string]string{}}
	sel := labels.SelectorFromSet(labels.Set{keda.LabelScaledObjectName: scaledObject})
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	for _, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ctx.Err() != nil {
				return
			}
			list, err := c.External.NamespacedMetrics(namespace).List(n, sel)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				out.Errors[n] = err.Error()
				return
			}
			labelAnswers(list.Items, &metav1.LabelSelector{MatchLabels: map[string]string{keda.LabelScaledObjectName: scaledObject}})
			out.Values = append(out.Values, list.Items...)
		}()
	}
	wg.Wait()
	sort.SliceStable(out.Values, func(i, j int) bool { return out.Values[i].MetricName < out.Values[j].MetricName })
	return out
}

// TargetScale reads the scale subresource of a workload, as the HPA
// controller would for an HPA with this scaleTargetRef.
func TargetScale(ctx context.Context, c *Clients, namespace string, ref autoscalingv2.CrossVersionObjectReference) engine.Target {
	hpa := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace},
		Spec:       autoscalingv2.HorizontalPodAutoscalerSpec{ScaleTargetRef: ref},
	}
	return readScale(ctx, c, hpa)
}
