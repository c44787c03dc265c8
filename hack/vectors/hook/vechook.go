// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build ignore

// This file is not part of kubectl-hpa's build ("ignore" also keeps go mod tidy
// from adding what it imports to our go.mod). hack/vectors/generate.sh copies
// it, with the build constraint rewritten to vectorhook, into a scratch copy of upstream's pkg/controller/podautoscaler package
// (package podautoscaler) and builds the package's tests with -tags vectorhook.
// hack/vectors/instrument inserts calls to the vec* functions below at the
// entry of the code under test and of the tests' own helpers. Nothing here
// changes what the code under test or the tests do: the hooks only read.
//
// A vector is written, one JSON object per line, to $VECTOR_OUT/<level>.jsonl.
// Inputs come from what the code under test reads (its fake clients, listers
// and in-memory state); expectations only from the tests' own expected values.

package podautoscaler

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	autoscalingclient "k8s.io/client-go/kubernetes/typed/autoscaling/v2"
	scaleclient "k8s.io/client-go/scale"
	"k8s.io/client-go/tools/record"
	"k8s.io/component-base/featuregate"
	resourceclient "k8s.io/metrics/pkg/client/clientset/versioned/typed/metrics/v1beta1"
	customclient "k8s.io/metrics/pkg/client/custom_metrics"
	externalclient "k8s.io/metrics/pkg/client/external_metrics"
)

// vecNow is every vector's "now".
var vecNow = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

// vecGates are the gates kubectl-hpa's profile knows; each one the running
// upstream knows is recorded with its value.
var vecGates = []string{"HPAContainerMetrics", "HPAConfigurableTolerance", "HPAScaleToZero", "PodLevelResources", "HPAGeneration", "HPAOptimizedSelectorStore", "StaleControllerConsistencyHPA"}

var vecMu sync.Mutex

// vecTest is the test that is running (the package's tests are sequential).
var vecTest *testing.T

func vecGatesNow() map[string]bool {
	all := utilfeature.DefaultMutableFeatureGate.GetAll()
	out := map[string]bool{}
	for _, g := range vecGates {
		if _, ok := all[featuregate.Feature(g)]; ok {
			out[g] = utilfeature.DefaultFeatureGate.Enabled(featuregate.Feature(g))
		}
	}
	return out
}

// vecEmit appends one vector to $VECTOR_OUT/<level>.jsonl.
func vecEmit(level string, v map[string]any) {
	dir := os.Getenv("VECTOR_OUT")
	if dir == "" {
		return
	}
	v["level"] = level
	v["now"] = vecNow.Format(time.RFC3339)
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("vector hook: %v", err))
	}
	f, err := os.OpenFile(filepath.Join(dir, level+".jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if _, err := f.Write(append(b, '\n')); err != nil {
		panic(err)
	}
}

// vecSource names the running test the way the vectors do.
func vecSource(file string, t *testing.T) string {
	return file + " " + t.Name()
}

var rfc3339RE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$`)

// vecJSON turns an API object into generic JSON with every timestamp moved
// from the real clock (base) to vecNow, rounded to the second, and the empty
// creationTimestamp dropped.
func vecJSON(obj any, base time.Time) any {
	b, err := json.Marshal(obj)
	if err != nil {
		panic(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return vecShift(out, base)
}

func vecShift(x any, base time.Time) any {
	switch x := x.(type) {
	case map[string]any:
		for k, val := range x {
			if val == nil && (k == "creationTimestamp") {
				delete(x, k)
				continue
			}
			x[k] = vecShift(val, base)
		}
		if m, ok := x["metadata"].(map[string]any); ok && len(m) == 0 {
			delete(x, "metadata")
		}
		return x
	case []any:
		for i := range x {
			x[i] = vecShift(x[i], base)
		}
		return x
	case string:
		if rfc3339RE.MatchString(x) {
			if ts, err := time.Parse(time.RFC3339Nano, x); err == nil {
				if ts.Year() <= 1 {
					// The zero time, or vecZeroMarker standing for it.
					return vecNow.Add(-time.Hour).Format(time.RFC3339)
				}
				return vecTime(ts, base)
			}
		}
		return x
	default:
		return x
	}
}

// vecTime moves a real-clock time to the vector clock; zero means now-1h.
func vecTime(ts, base time.Time) string {
	if ts.IsZero() {
		return vecNow.Add(-time.Hour).Format(time.RFC3339)
	}
	d := ts.Sub(base).Round(time.Second)
	return vecNow.Add(d).Format(time.RFC3339)
}

// fixZero replaces zero timestamps (which marshal to null) by a marker the
// shift turns into now-1h.
var vecZeroMarker = time.Date(1, 1, 2, 0, 0, 0, 0, time.UTC)

func vecFixPod(p v1.Pod) v1.Pod {
	p = *p.DeepCopy()
	if p.Status.StartTime != nil && p.Status.StartTime.IsZero() {
		p.Status.StartTime = &metav1.Time{Time: vecZeroMarker}
	}
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].LastTransitionTime.IsZero() {
			p.Status.Conditions[i].LastTransitionTime = metav1.Time{Time: vecZeroMarker}
		}
	}
	return p
}

func vecObj(obj any, base time.Time) any {
	return vecJSON(obj, base)
}

func vecTimeOrZero(ts, base time.Time) string {
	if ts.Equal(vecZeroMarker) || ts.IsZero() {
		return vecNow.Add(-time.Hour).Format(time.RFC3339)
	}
	return vecTime(ts, base)
}

// field reads a (possibly unexported) field by name.
func vecField(v reflect.Value, name string) (reflect.Value, bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	f := v.FieldByName(name)
	if !f.IsValid() {
		return reflect.Value{}, false
	}
	if !f.CanInterface() {
		if f.CanAddr() {
			f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
		} else {
			c := reflect.New(v.Type()).Elem()
			c.Set(v)
			f = c.FieldByName(name)
			f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
		}
	}
	return f, true
}

func vecFieldAny(x any, name string) (any, bool) {
	f, ok := vecField(reflect.ValueOf(x), name)
	if !ok {
		return nil, false
	}
	return f.Interface(), true
}

// vecRaw returns the raw clients behind the controller's REST metrics client.
func vecRaw(mc any) (resourceclient.PodMetricsesGetter, customclient.CustomMetricsClient, externalclient.ExternalMetricsClient) {
	var r resourceclient.PodMetricsesGetter
	var c customclient.CustomMetricsClient
	var e externalclient.ExternalMetricsClient
	v := reflect.ValueOf(mc)
	for _, emb := range []string{"resourceMetricsClient", "customMetricsClient", "externalMetricsClient"} {
		inner, ok := vecField(v, emb)
		if !ok {
			continue
		}
		cl, ok := vecField(inner, "client")
		if !ok || (cl.Kind() == reflect.Interface && cl.IsNil()) {
			continue
		}
		switch emb {
		case "resourceMetricsClient":
			r, _ = cl.Interface().(resourceclient.PodMetricsesGetter)
		case "customMetricsClient":
			c, _ = cl.Interface().(customclient.CustomMetricsClient)
		case "externalMetricsClient":
			e, _ = cl.Interface().(externalclient.ExternalMetricsClient)
		}
	}
	return r, c, e
}

// vecMetrics is what the metrics APIs answer for one metric spec.
type vecMetrics struct {
	podMetrics      []any
	customMetrics   []any
	externalMetrics []any
	errors          map[string]string
	seenPodMetrics  bool
	seenCustom      map[string]bool
	// objectAdapted: an Object metric answer was recorded for the object
	// asked for (see object).
	objectAdapted bool
}

func newVecMetrics() *vecMetrics {
	return &vecMetrics{errors: map[string]string{}, seenCustom: map[string]bool{}}
}

func (m *vecMetrics) resource(ctx context.Context, r resourceclient.PodMetricsesGetter, ns string, sel labels.Selector, base time.Time) {
	if m.seenPodMetrics || r == nil {
		return
	}
	m.seenPodMetrics = true
	list, err := r.PodMetricses(ns).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		m.errors["resource"] = err.Error()
		return
	}
	for _, pm := range list.Items {
		pm.APIVersion, pm.Kind = "metrics.k8s.io/v1beta1", "PodMetrics"
		if pm.Timestamp.IsZero() {
			pm.Timestamp = metav1.Time{Time: vecZeroMarker}
		}
		m.podMetrics = append(m.podMetrics, vecObj(pm, base))
	}
}

func (m *vecMetrics) pods(c customclient.CustomMetricsClient, ns, name string, sel, msel labels.Selector, base time.Time) {
	key := "pods:" + name
	if m.seenCustom[key] || c == nil {
		return
	}
	m.seenCustom[key] = true
	list, err := c.NamespacedMetrics(ns).GetForObjects(schema.GroupKind{Kind: "Pod"}, sel, name, msel)
	if err != nil {
		m.errors[key] = err.Error()
		return
	}
	for _, mv := range list.Items {
		m.custom(mv, base)
	}
}

func (m *vecMetrics) custom(mv any, base time.Time) {
	j := vecObj(mv, base).(map[string]any)
	j["apiVersion"], j["kind"] = "custom.metrics.k8s.io/v1beta2", "MetricValue"
	if j["timestamp"] == nil {
		j["timestamp"] = vecNow.Add(-time.Hour).Format(time.RFC3339)
	}
	m.customMetrics = append(m.customMetrics, j)
}

func (m *vecMetrics) object(c customclient.CustomMetricsClient, ns, name string, ref autoscalingv2.CrossVersionObjectReference, msel labels.Selector, base time.Time) {
	key := "object:" + name
	if m.seenCustom[key+"/"+ref.Kind+"/"+ref.Name] || c == nil {
		return
	}
	m.seenCustom[key+"/"+ref.Kind+"/"+ref.Name] = true
	gvk := schema.FromAPIVersionAndKind(ref.APIVersion, ref.Kind)
	var err error
	var mv any
	if gvk.Kind == "Namespace" && gvk.Group == "" {
		mv, err = c.RootScopedMetrics().GetForObject(gvk.GroupKind(), ns, name, msel)
	} else {
		mv, err = c.NamespacedMetrics(ns).GetForObject(gvk.GroupKind(), ref.Name, name, msel)
	}
	if err != nil {
		m.errors[key] = err.Error()
		return
	}
	m.custom(mv, base)
	// The v1.37 table tests' fake (AddGetCustomMetricsReactor) answers a get
	// for any object with its first pod item, whose describedObject names that
	// pod; the real API (and the older tests' fake) names the object asked
	// for. The value is recorded as the answer for the object asked for.
	j := m.customMetrics[len(m.customMetrics)-1].(map[string]any)
	wantName := ref.Name
	if gvk.Kind == "Namespace" && gvk.Group == "" {
		wantName = ns
	}
	if d, ok := j["describedObject"].(map[string]any); !ok || d["kind"] != ref.Kind || d["name"] != wantName {
		j["describedObject"] = map[string]any{"kind": ref.Kind, "apiVersion": ref.APIVersion, "name": wantName}
		m.objectAdapted = true
	}
}

func (m *vecMetrics) external(e externalclient.ExternalMetricsClient, ns, name string, sel *metav1.LabelSelector, base time.Time) {
	key := "external:" + name
	if m.seenCustom[key] || e == nil {
		return
	}
	m.seenCustom[key] = true
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return
	}
	list, err := e.NamespacedMetrics(ns).List(name, s)
	if err != nil {
		m.errors[key] = err.Error()
		return
	}
	for _, ev := range list.Items {
		j := vecObj(ev, base).(map[string]any)
		j["apiVersion"], j["kind"] = "external.metrics.k8s.io/v1beta1", "ExternalMetricValue"
		if j["timestamp"] == nil {
			j["timestamp"] = vecNow.Add(-time.Hour).Format(time.RFC3339)
		}
		m.externalMetrics = append(m.externalMetrics, j)
	}
}

func (m *vecMetrics) into(v map[string]any) {
	if len(m.podMetrics) > 0 {
		v["podMetrics"] = m.podMetrics
	}
	if len(m.customMetrics) > 0 {
		v["customMetrics"] = m.customMetrics
	}
	if len(m.externalMetrics) > 0 {
		v["externalMetrics"] = m.externalMetrics
	}
	if len(m.errors) > 0 {
		v["metricErrors"] = m.errors
	}
}

func vecPods(lister interface {
	List(labels.Selector) ([]*v1.Pod, error)
}, base time.Time,
) []any {
	pods, err := lister.List(labels.Everything())
	if err != nil {
		panic(err)
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Namespace+"/"+pods[i].Name < pods[j].Namespace+"/"+pods[j].Name })
	out := []any{}
	for _, p := range pods {
		q := vecFixPod(*p)
		q.APIVersion, q.Kind = "v1", "Pod"
		q.ResourceVersion = ""
		out = append(out, vecObj(q, base))
	}
	return out
}

func vecDuration(d time.Duration) string {
	if d%time.Minute == 0 && d != 0 {
		return fmt.Sprintf("%dm", int64(d/time.Minute))
	}
	return fmt.Sprintf("%ds", int64(d/time.Second))
}

// vecTolerances reads a Tolerances value (v1.33+) or a float64 (older).
func vecTolerances(x any) (down, up float64) {
	if f, ok := x.(float64); ok {
		return f, f
	}
	d, _ := vecFieldAny(x, "scaleDown")
	u, _ := vecFieldAny(x, "scaleUp")
	return d.(float64), u.(float64)
}

func vecQuantityOfFloat(f float64) *resource.Quantity {
	q := resource.MustParse(strconv.FormatFloat(f, 'f', -1, 64))
	return &q
}

// ---- calculator level ----

type vecCalcCall struct {
	fn     string
	vector map[string]any
	test   *testing.T
}

var vecLastCalc *vecCalcCall

// vecCalcEnter is inserted at the entry of every ReplicaCalculator
// Get*Replicas method; args maps parameter names to values.
func vecCalcEnter(c *ReplicaCalculator, fn string, args map[string]any) {
	if os.Getenv("VECTOR_OUT") == "" || vecInReconcileTest() || !vecInCalculatorTest() {
		return
	}
	base := time.Now()
	ctx := context.Background()
	r, cm, em := vecRaw(c.metricsClient)
	ns, _ := args["namespace"].(string)
	sel, _ := args["selector"].(labels.Selector)
	if sel == nil {
		sel, _ = args["podSelector"].(labels.Selector)
	}
	if sel == nil {
		// The per-pod calls take no pod selector; the fixtures' pods carry this one.
		sel = labels.SelectorFromSet(labels.Set{"name": "test-pod"})
	}
	var current int32
	for _, k := range []string{"currentReplicas", "statusReplicas"} {
		if x, ok := args[k].(int32); ok {
			current = x
		}
	}
	var tolArg any
	if x, ok := args["tolerances"]; ok {
		tolArg = x
	} else {
		tolArg = args["tolerance"]
	}
	if tolArg == nil {
		// v1.32 and older: one tolerance, a field of the calculator.
		tolArg, _ = vecFieldAny(c, "tolerance")
	}
	down, up := vecTolerances(tolArg)
	calc := map[string]any{"function": fn, "currentReplicas": current, "tolerances": map[string]float64{"scaleDown": down, "scaleUp": up}}
	m := newVecMetrics()
	var spec autoscalingv2.MetricSpec
	metricName, _ := args["metricName"].(string)
	var msel *metav1.LabelSelector
	if ls, ok := args["metricSelector"].(*metav1.LabelSelector); ok {
		msel = ls
	} else if s, ok := args["metricSelector"].(labels.Selector); ok && s != nil && !s.Empty() {
		ls, err := metav1.ParseToLabelSelector(s.String())
		if err == nil {
			msel = ls
		}
	}
	targetMilli := func(keys ...string) int64 {
		for _, k := range keys {
			if x, ok := args[k].(int64); ok {
				return x
			}
		}
		panic("vector hook: no target in " + fn)
	}
	objectRef := func() autoscalingv2.CrossVersionObjectReference {
		ref := args["objectRef"]
		b, _ := json.Marshal(ref)
		var out autoscalingv2.CrossVersionObjectReference
		_ = json.Unmarshal(b, &out)
		return out
	}
	switch fn {
	case "GetResourceReplicas", "GetRawResourceReplicas":
		res := args["resource"].(v1.ResourceName)
		container, _ := args["container"].(string)
		calc["resource"], calc["container"] = string(res), container
		target := autoscalingv2.MetricTarget{}
		if fn == "GetResourceReplicas" {
			u := args["targetUtilization"].(int32)
			calc["targetUtilization"] = u
			target.Type, target.AverageUtilization = autoscalingv2.UtilizationMetricType, &u
		} else {
			t := targetMilli("targetUsage")
			calc["targetMilli"] = t
			target.Type, target.AverageValue = autoscalingv2.AverageValueMetricType, resource.NewMilliQuantity(t, resource.DecimalSI)
		}
		if container != "" {
			spec = autoscalingv2.MetricSpec{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricSource{Name: res, Container: container, Target: target}}
		} else {
			spec = autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{Name: res, Target: target}}
		}
		m.resource(ctx, r, ns, sel, base)
	case "GetMetricReplicas":
		t := targetMilli("targetUsage", "targetUtilization")
		calc["metricName"], calc["targetMilli"] = metricName, t
		spec = autoscalingv2.MetricSpec{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: metricName, Selector: msel},
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: resource.NewMilliQuantity(t, resource.DecimalSI)},
		}}
		ms, _ := args["metricSelector"].(labels.Selector)
		if ms == nil {
			ms = labels.Everything()
		}
		m.pods(cm, ns, metricName, sel, ms, base)
	case "GetObjectMetricReplicas", "GetObjectPerPodMetricReplicas":
		t := targetMilli("targetUsage", "targetAverageUsage", "targetUtilization", "targetAverageUtilization")
		calc["metricName"], calc["targetMilli"] = metricName, t
		ref := objectRef()
		target := autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: resource.NewMilliQuantity(t, resource.DecimalSI)}
		if fn == "GetObjectPerPodMetricReplicas" {
			target = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: resource.NewMilliQuantity(t, resource.DecimalSI)}
		}
		spec = autoscalingv2.MetricSpec{Type: autoscalingv2.ObjectMetricSourceType, Object: &autoscalingv2.ObjectMetricSource{
			DescribedObject: ref, Metric: autoscalingv2.MetricIdentifier{Name: metricName, Selector: msel}, Target: target,
		}}
		ms, _ := args["metricSelector"].(labels.Selector)
		if ms == nil {
			ms = labels.Everything()
		}
		m.object(cm, ns, metricName, ref, ms, base)
	case "GetExternalMetricReplicas", "GetExternalPerPodMetricReplicas":
		t := targetMilli("targetUsage", "targetUsagePerPod", "targetUtilization", "targetUtilizationPerPod")
		calc["metricName"], calc["targetMilli"] = metricName, t
		target := autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: resource.NewMilliQuantity(t, resource.DecimalSI)}
		if fn == "GetExternalPerPodMetricReplicas" {
			target = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: resource.NewMilliQuantity(t, resource.DecimalSI)}
		}
		spec = autoscalingv2.MetricSpec{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
			Metric: autoscalingv2.MetricIdentifier{Name: metricName, Selector: msel}, Target: target,
		}}
		m.external(em, ns, metricName, msel, base)
	default:
		panic("vector hook: unknown calculator " + fn)
	}
	one := int32(1)
	hpa := &autoscalingv2.HorizontalPodAutoscaler{
		TypeMeta:   metav1.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: metav1.ObjectMeta{Name: "test-hpa", Namespace: ns},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "test-deployment"},
			MinReplicas:    &one, MaxReplicas: math.MaxInt32, Metrics: []autoscalingv2.MetricSpec{spec},
		},
	}
	notes := "Synthesised HPA/target: the upstream test calls the ReplicaCalculator directly; minReplicas/maxReplicas are irrelevant at this level. Zero-valued timestamps in the upstream fixture (pod startTime, Ready lastTransitionTime, metric timestamp) are encoded as now-1h."
	hpaJSON := vecObj(hpa, base).(map[string]any)
	if down != defaultTestingTolerance || up != defaultTestingTolerance {
		// Written as JSON: the tolerance field exists in the API from v1.33 only.
		hpaJSON["spec"].(map[string]any)["behavior"] = map[string]any{
			"scaleUp":   map[string]any{"tolerance": vecQuantityOfFloat(up).String()},
			"scaleDown": map[string]any{"tolerance": vecQuantityOfFloat(down).String()},
		}
		notes += " Per-direction tolerances are given exactly in calculator.tolerances; hpa.spec.behavior carries the same values as quantities."
	}
	v := map[string]any{
		"featureGates": vecGatesNow(),
		"controller": map[string]any{
			"tolerance":               defaultTestingTolerance,
			"cpuInitializationPeriod": vecDuration(c.cpuInitializationPeriod),
			"initialReadinessDelay":   vecDuration(c.delayOfInitialReadinessStatus),
		},
		"calculator": calc,
		"hpa":        hpaJSON,
		"target": map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment", "name": "test-deployment",
			"selector": sel.String(), "specReplicas": current, "statusReplicas": current,
		},
		"pods":  vecPods(c.podLister, base),
		"notes": notes,
	}
	m.into(v)
	vecMu.Lock()
	vecLastCalc = &vecCalcCall{fn: fn, vector: v, test: vecTest}
	vecMu.Unlock()
	vecBase = base
}

var vecBase time.Time

// vecCalcExpect is inserted in the tests' assertion helpers; want holds the
// helper's want* parameters (or the test case's expected* fields).
func vecCalcExpect(t *testing.T, want map[string]any) {
	vecMu.Lock()
	call := vecLastCalc
	vecLastCalc = nil
	vecMu.Unlock()
	if call == nil {
		t.Logf("vector hook: expectation without a calculator call in %s", t.Name())
		return
	}
	exp := map[string]any{}
	if e, ok := want["wantErr"].(error); ok && e != nil {
		exp["error"] = e.Error()
	} else if b, ok := want["expectedError"].(error); ok && b != nil {
		exp["error"] = b.Error()
	} else {
		exp["metricReplicas"] = want["wantReplicas"]
		if x, ok := want["wantUtilization"]; ok {
			exp["utilization"] = x
		}
		if x, ok := want["wantRawValue"]; ok {
			exp["rawValueMilli"] = x
		}
		if x, ok := want["wantUsage"]; ok {
			exp["usageMilli"] = x
		}
		if ts, ok := want["wantTimestamp"].(time.Time); ok {
			if ts.IsZero() && (call.fn == "GetObjectMetricReplicas" || call.fn == "GetExternalMetricReplicas") {
				exp["timestamp"] = time.Time{}.Format(time.RFC3339)
			} else {
				exp["timestamp"] = vecTimeOrZero(ts, vecBase)
			}
		}
	}
	call.vector["expect"] = exp
	call.vector["source"] = vecSource("replica_calculator_test.go", t)
	t.Cleanup(func() {
		if !t.Failed() {
			vecEmit("calculator", call.vector)
		}
	})
}

// vecCalcCase is deferred at the entry of (*replicaCalcTestCase).runTest
// (v1.36 and older): the expectations are the test case's expected* fields.
func vecCalcCase(t *testing.T, tc any) {
	want := map[string]any{}
	if e, ok := vecFieldAny(tc, "expectedError"); ok {
		if err, ok := e.(error); ok && err != nil {
			want["wantErr"] = err
		}
	}
	want["wantReplicas"], _ = vecFieldAny(tc, "expectedReplicas")
	if ts, ok := vecFieldAny(tc, "timestamp"); ok {
		want["wantTimestamp"] = ts
	}
	if r, ok := vecFieldAny(tc, "resource"); ok && !reflect.ValueOf(r).IsNil() {
		want["wantUtilization"], _ = vecFieldAny(r, "expectedUtilization")
		want["wantRawValue"], _ = vecFieldAny(r, "expectedValue")
	} else if m, ok := vecFieldAny(tc, "metric"); ok && !reflect.ValueOf(m).IsNil() {
		want["wantUsage"], _ = vecFieldAny(m, "expectedUsage")
	}
	vecCalcExpect(t, want)
}

// ---- reconcile level ----

type vecReconcileCase struct {
	t        *testing.T
	tc       any
	vector   map[string]any
	updates  []string
	inFirst  bool
	done     bool
	scale    map[string]any
	scaleErr string
	// firstDone is closed when the first reconcile has returned and its
	// inputs are recorded (the test may end before that).
	firstDone chan struct{}
	// direct: a v1.37+ table test that calls reconcileAutoscaler itself
	// (through newHorizontalSetup) and asserts inline; its expectations are
	// the outputs of that reconcile (statusWrites, events, updates), written
	// only if the test passed.
	direct       bool
	statusWrites []*autoscalingv2.HorizontalPodAutoscaler
	events       []any
}

var vecCase *vecReconcileCase

// vecInCalculatorTest: only replica_calculator_test.go's tests give
// calculator vectors (most are named TestReplicaCalc…, not all: e.g.
// TestPlainMetricReplicaCalcMissingMetricsNoChangeEq, and from v1.34
// TestExternalPerPodMetric*Overflow).
func vecInCalculatorTest() bool {
	vecMu.Lock()
	defer vecMu.Unlock()
	return vecTest != nil && vecTestFile == "replica_calculator_test.go"
}

// vecInReconcileTest: calculator calls made by a reconcile are not
// calculator vectors.
func vecInReconcileTest() bool {
	vecMu.Lock()
	defer vecMu.Unlock()
	return vecCase != nil
}

// vecSetupController is inserted at the entry of (*testCase).setupController.
func vecSetupController(t *testing.T, tc any) {
	if os.Getenv("VECTOR_OUT") == "" {
		return
	}
	c := &vecReconcileCase{t: t, tc: tc}
	vecMu.Lock()
	vecCase = c
	vecMu.Unlock()
	t.Cleanup(func() { vecFinishReconcile(c) })
}

// vecHorizontalSetup is inserted at the entry of newHorizontalSetup (v1.37+):
// the table tests that call it run one reconcileAutoscaler each, directly.
func vecHorizontalSetup(t *testing.T, scenario any) {
	if os.Getenv("VECTOR_OUT") == "" {
		return
	}
	c := &vecReconcileCase{t: t, tc: scenario, direct: true}
	vecMu.Lock()
	vecCase = c
	vecMu.Unlock()
	t.Cleanup(func() { vecFinishReconcile(c) })
}

// vecHPAs records the status writes of the first reconcile (direct cases).
type vecHPAs struct {
	autoscalingclient.HorizontalPodAutoscalersGetter
	c *vecReconcileCase
}

type vecHPAIface struct {
	autoscalingclient.HorizontalPodAutoscalerInterface
	c *vecReconcileCase
}

func (h vecHPAs) HorizontalPodAutoscalers(ns string) autoscalingclient.HorizontalPodAutoscalerInterface {
	return vecHPAIface{h.HorizontalPodAutoscalersGetter.HorizontalPodAutoscalers(ns), h.c}
}

func (h vecHPAIface) UpdateStatus(ctx context.Context, hpa *autoscalingv2.HorizontalPodAutoscaler, opts metav1.UpdateOptions) (*autoscalingv2.HorizontalPodAutoscaler, error) {
	vecMu.Lock()
	if h.c.inFirst {
		h.c.statusWrites = append(h.c.statusWrites, hpa.DeepCopy())
	}
	vecMu.Unlock()
	return h.HorizontalPodAutoscalerInterface.UpdateStatus(ctx, hpa, opts)
}

// vecRecorder records the events the first reconcile emits (direct cases);
// the broadcaster delivers them asynchronously, the calls are synchronous.
type vecRecorder struct {
	record.EventRecorder
	c *vecReconcileCase
}

func (r vecRecorder) add(eventtype, reason, message string) {
	vecMu.Lock()
	defer vecMu.Unlock()
	if r.c.inFirst {
		r.c.events = append(r.c.events, map[string]any{"type": eventtype, "reason": reason, "message": message})
	}
}

func (r vecRecorder) Event(obj runtime.Object, eventtype, reason, message string) {
	r.add(eventtype, reason, message)
	r.EventRecorder.Event(obj, eventtype, reason, message)
}

func (r vecRecorder) Eventf(obj runtime.Object, eventtype, reason, messageFmt string, args ...any) {
	r.add(eventtype, reason, fmt.Sprintf(messageFmt, args...))
	r.EventRecorder.Eventf(obj, eventtype, reason, messageFmt, args...)
}

func (r vecRecorder) AnnotatedEventf(obj runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...any) {
	r.add(eventtype, reason, fmt.Sprintf(messageFmt, args...))
	r.EventRecorder.AnnotatedEventf(obj, annotations, eventtype, reason, messageFmt, args...)
}

// vecScales records what the scale subresource answers in the first reconcile.
type vecScales struct {
	scaleclient.ScalesGetter
	c *vecReconcileCase
}

type vecScaleIface struct {
	scaleclient.ScaleInterface
	c *vecReconcileCase
}

func (s vecScales) Scales(ns string) scaleclient.ScaleInterface {
	return vecScaleIface{s.ScalesGetter.Scales(ns), s.c}
}

func (s vecScaleIface) Get(ctx context.Context, gr schema.GroupResource, name string, opts metav1.GetOptions) (*autoscalingv1.Scale, error) {
	sc, err := s.ScaleInterface.Get(ctx, gr, name, opts)
	vecMu.Lock()
	defer vecMu.Unlock()
	if s.c.inFirst && s.c.scale == nil && s.c.scaleErr == "" {
		if err != nil {
			s.c.scaleErr = err.Error()
		} else {
			s.c.scale = map[string]any{"specReplicas": sc.Spec.Replicas, "statusReplicas": sc.Status.Replicas, "selector": sc.Status.Selector}
		}
	}
	return sc, err
}

func (s vecScaleIface) Update(ctx context.Context, gr schema.GroupResource, sc *autoscalingv1.Scale, opts metav1.UpdateOptions) (*autoscalingv1.Scale, error) {
	out, err := s.ScaleInterface.Update(ctx, gr, sc, opts)
	vecMu.Lock()
	defer vecMu.Unlock()
	if s.c.inFirst {
		switch {
		case err == nil:
			s.c.updates = append(s.c.updates, "ok")
		case strings.Contains(strings.ToLower(err.Error()), "conflict") || vecIsConflict(err):
			s.c.updates = append(s.c.updates, "conflict")
		default:
			s.c.updates = append(s.c.updates, "error:"+err.Error())
		}
	}
	return out, err
}

func (s vecScaleIface) Patch(ctx context.Context, gvr schema.GroupVersionResource, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions) (*autoscalingv1.Scale, error) {
	return s.ScaleInterface.Patch(ctx, gvr, name, pt, data, opts)
}

func vecIsConflict(err error) bool {
	type statusErr interface{ Status() metav1.Status }
	if se, ok := err.(statusErr); ok {
		return se.Status().Reason == metav1.StatusReasonConflict
	}
	return false
}

// vecOwner is the test case each controller was first seen in.
var vecOwner = map[*HorizontalController]*vecReconcileCase{}

// vecReconcileEnter is inserted (deferred) at the entry of
// reconcileAutoscaler; only the first reconcile of a test case is recorded.
func vecReconcileEnter(a *HorizontalController, hpa *autoscalingv2.HorizontalPodAutoscaler, key string) func() {
	vecMu.Lock()
	c := vecCase
	if owner, ok := vecOwner[a]; !ok {
		vecOwner[a] = c
	} else if owner != c {
		// A worker of an earlier test's controller, still running: not this
		// test case's reconcile.
		c = nil
	}
	if c == nil || c.vector != nil || c.done {
		vecMu.Unlock()
		return func() {}
	}
	c.inFirst = true
	c.vector = map[string]any{}
	c.firstDone = make(chan struct{})
	vecMu.Unlock()
	base := time.Now()
	if _, ok := a.scaleNamespacer.(vecScales); !ok {
		a.scaleNamespacer = vecScales{a.scaleNamespacer, c}
	}
	if c.direct {
		if _, ok := a.hpaNamespacer.(vecHPAs); !ok {
			a.hpaNamespacer = vecHPAs{a.hpaNamespacer, c}
		}
		if _, ok := a.eventRecorder.(vecRecorder); !ok {
			a.eventRecorder = vecRecorder{a.eventRecorder, c}
		}
	}
	h := hpa.DeepCopy()
	h.APIVersion, h.Kind = "autoscaling/v2", "HorizontalPodAutoscaler"
	h.ResourceVersion = ""
	v := c.vector
	v["hpa"] = vecObj(h, base)
	gates := vecGatesNow()
	if on, ok := vecFieldAny(a, "containerResourceMetricsEnabled"); ok {
		// v1.29 and older: the controller does not read the HPAContainerMetrics
		// gate; its constructor takes the value (kube-controller-manager passes
		// the gate's) and the tests pass their own.
		gates["HPAContainerMetrics"] = on.(bool)
	}
	v["featureGates"] = gates
	if ev := vecEmulation(); ev != "" {
		v["emulationVersion"] = ev
	}
	tol, ok := vecFieldAny(a, "tolerance")
	if !ok {
		// v1.32 and older keep the tolerance in the calculator.
		tol, _ = vecFieldAny(a.replicaCalc, "tolerance")
	}
	v["controller"] = map[string]any{
		"tolerance":                 tol,
		"cpuInitializationPeriod":   vecDuration(a.replicaCalc.cpuInitializationPeriod),
		"initialReadinessDelay":     vecDuration(a.replicaCalc.delayOfInitialReadinessStatus),
		"downscaleStabilization":    vecDuration(a.downscaleStabilisationWindow),
		"legacyScaleUpLimitFactor":  scaleUpLimitFactor,
		"legacyScaleUpLimitMinimum": scaleUpLimitMinimum,
	}
	state := map[string]any{}
	if recs, ok := a.recommendations[key]; ok && recs != nil {
		state["recommendationsInitialized"] = true
		out := []any{}
		for _, r := range recs {
			rv := reflect.ValueOf(r)
			n, _ := vecField(rv, "recommendation")
			ts, _ := vecField(rv, "timestamp")
			out = append(out, map[string]any{"replicas": n.Interface(), "timestamp": vecTimeOrZero(ts.Interface().(time.Time), base)})
		}
		state["recommendations"] = out
	} else {
		state["recommendationsInitialized"] = false
	}
	for name, m := range map[string]map[string][]timestampedScaleEvent{"scaleUpEvents": a.scaleUpEvents, "scaleDownEvents": a.scaleDownEvents} {
		if evs := m[key]; len(evs) > 0 {
			out := []any{}
			for _, e := range evs {
				rv := reflect.ValueOf(e)
				n, _ := vecField(rv, "replicaChange")
				ts, _ := vecField(rv, "timestamp")
				od, _ := vecField(rv, "outdated")
				out = append(out, map[string]any{"replicaChange": n.Interface(), "timestamp": vecTimeOrZero(ts.Interface().(time.Time), base), "outdated": od.Interface()})
			}
			state[name] = out
		}
	}
	if sels, ok := vecFieldAny(c.tc, "hpaSelectors"); ok {
		rv := reflect.ValueOf(sels)
		var others []map[string]any
		type keySel struct {
			key reflect.Value
			sel labels.Selector
		}
		var pairs []keySel
		switch {
		case rv.Kind() == reflect.Map:
			// v1.30+: map[selectors.Key]labels.Selector.
			for _, k := range rv.MapKeys() {
				pairs = append(pairs, keySel{k, rv.MapIndex(k).Interface().(labels.Selector)})
			}
		case rv.Kind() == reflect.Pointer && !rv.IsNil():
			// v1.29 and older: *selectors.BiMultimap, whose selecting objects
			// are map[Key]*selectingObject{key, selector, …}.
			if so, ok := vecField(rv, "selectingObjects"); ok && so.Kind() == reflect.Map {
				for _, k := range so.MapKeys() {
					s, ok := vecField(so.MapIndex(k), "selector")
					if !ok {
						panic("vector hook: BiMultimap selecting object without selector")
					}
					pairs = append(pairs, keySel{k, s.Interface().(labels.Selector)})
				}
			} else {
				panic("vector hook: hpaSelectors of unknown shape " + rv.Type().String())
			}
		}
		for _, ks := range pairs {
			kn, _ := vecField(ks.key, "Name")
			kns, _ := vecField(ks.key, "Namespace")
			sel := ks.sel
			if kn.String() == h.Name && kns.String() == h.Namespace {
				continue
			}
			others = append(others, map[string]any{"namespace": kns.String(), "name": kn.String(), "selector": sel.String()})
		}
		if len(others) > 0 {
			sort.Slice(others, func(i, j int) bool { return others[i]["name"].(string) < others[j]["name"].(string) })
			state["otherHPAs"] = others
		}
	}
	v["state"] = state
	return func() {
		base2 := base
		// Inputs the reconcile read: pods and the metrics of every spec.
		v["pods"] = vecPods(a.podLister, base2)
		vecMu.Lock()
		scale, scaleErr := c.scale, c.scaleErr
		vecMu.Unlock()
		ref := h.Spec.ScaleTargetRef
		target := map[string]any{"apiVersion": ref.APIVersion, "kind": ref.Kind, "name": ref.Name}
		m := newVecMetrics()
		if scaleErr != "" {
			target["getError"] = scaleErr
			target["specReplicas"], target["statusReplicas"] = h.Status.CurrentReplicas, h.Status.CurrentReplicas
		} else if scale != nil {
			for k, x := range scale {
				target[k] = x
			}
			sel, err := labels.Parse(scale["selector"].(string))
			if err == nil && scale["selector"].(string) != "" {
				r, cm, em := vecRaw(a.replicaCalc.metricsClient)
				ctx := context.Background()
				for _, ms := range h.Spec.Metrics {
					switch {
					case ms.Resource != nil || ms.ContainerResource != nil:
						m.resource(ctx, r, h.Namespace, sel, base2)
					case ms.Pods != nil:
						msel := labels.Everything()
						if ms.Pods.Metric.Selector != nil {
							msel, _ = metav1.LabelSelectorAsSelector(ms.Pods.Metric.Selector)
						}
						m.pods(cm, h.Namespace, ms.Pods.Metric.Name, sel, msel, base2)
					case ms.Object != nil:
						msel := labels.Everything()
						if ms.Object.Metric.Selector != nil {
							msel, _ = metav1.LabelSelectorAsSelector(ms.Object.Metric.Selector)
						}
						m.object(cm, h.Namespace, ms.Object.Metric.Name, ms.Object.DescribedObject, msel, base2)
					case ms.External != nil:
						m.external(em, h.Namespace, ms.External.Metric.Name, ms.External.Metric.Selector, base2)
					}
				}
			}
		}
		vecMu.Lock()
		if len(c.updates) > 0 {
			target["updateResults"] = c.updates
		}
		c.inFirst = false
		vecMu.Unlock()
		v["target"] = target
		m.into(v)
		if m.objectAdapted {
			v["objectAdapted"] = true
		}
		close(c.firstDone)
	}
}

func vecI32(tc any, name string) (int32, bool) {
	x, ok := vecFieldAny(tc, name)
	if !ok {
		return 0, false
	}
	n, ok := x.(int32)
	return n, ok
}

func vecBool(tc any, name string) bool {
	x, _ := vecFieldAny(tc, name)
	b, _ := x.(bool)
	return b
}

// vecFinishReconcile writes the vector of a classic testCase once the test
// has run (the update reactor fills the default expected conditions).
func vecFinishReconcile(c *vecReconcileCase) {
	vecMu.Lock()
	c.done = true
	if vecCase == c {
		vecCase = nil
	}
	v := c.vector
	first := c.firstDone
	vecMu.Unlock()
	if v == nil || c.t.Failed() || c.t.Skipped() {
		return
	}
	select {
	case <-first:
	case <-time.After(10 * time.Second):
		panic("vector hook: the first reconcile of " + c.t.Name() + " did not return")
	}
	if c.direct {
		vecFinishDirect(c, v)
		return
	}
	tc := c.tc
	exp := map[string]any{}
	want, _ := vecI32(tc, "expectedDesiredReplicas")
	spec, _ := vecI32(tc, "specReplicas")
	exp["desiredReplicas"] = want
	if conds, ok := vecFieldAny(tc, "expectedConditions"); ok {
		if cs, ok := conds.([]autoscalingv2.HorizontalPodAutoscalerCondition); ok && cs != nil {
			out := []any{}
			for _, cnd := range cs {
				out = append(out, map[string]any{"type": string(cnd.Type), "status": string(cnd.Status), "reason": cnd.Reason})
			}
			exp["conditions"] = out
		}
	}
	exp["scaleUpdated"] = spec != want
	if vecBool(tc, "verifyCPUCurrent") {
		if u, ok := vecI32(tc, "CPUCurrent"); ok {
			exp["utilization"] = u
		}
	}
	if vecBool(tc, "verifyEvents") {
		evs := []any{}
		if spec != want {
			evs = append(evs, map[string]any{"type": "Normal", "reason": "SuccessfulRescale", "message": fmt.Sprintf("New size: %d; reason: cpu resource utilization (percentage of request) above target", want)})
		}
		exp["events"] = evs
	}
	notes := ""
	if strings.HasPrefix(c.t.Name(), "TestAvoidUnnecessaryUpdates") {
		// The test replaces the update reactors by ones that fail on any
		// write: it asserts only that nothing is written.
		exp = map[string]any{"scaleUpdated": false, "statusUpdated": false}
		notes = " HPA already carries the status the controller would compute; no status write is expected."
	}
	v["expect"] = exp
	v["source"] = vecSource("horizontal_test.go", c.t)
	v["notes"] = "Expectations apply to the first reconcile of this HPA. Zero-valued timestamps in the upstream fixture are encoded as now-1h. Upstream horizontal_test.go sets the package variable scaleUpLimitFactor=8 (production: 2); it only matters on the legacy (behavior==nil) path." + notes
	vecEmit("reconcile", v)
}

// vecFinishDirect writes the vector of a direct case (vecHorizontalSetup):
// the expectations are what the reconcile wrote and emitted. The test asserts
// part of these outputs inline (desired replicas in the scale and status
// writes, whether the scale was updated, the conditions where the case lists
// them, …); it passed, so every output recorded here is upstream's own on
// these inputs and agrees with every assertion the case made.
func vecFinishDirect(c *vecReconcileCase, v map[string]any) {
	vecMu.Lock()
	writes := c.statusWrites
	events := c.events
	updates := c.updates
	vecMu.Unlock()
	exp := map[string]any{}
	if len(writes) > 1 {
		panic(fmt.Sprintf("vector hook: %d status writes in one reconcile of %s", len(writes), c.t.Name()))
	}
	if len(writes) == 1 {
		st := writes[0].Status
		exp["desiredReplicas"] = st.DesiredReplicas
		conds := []any{}
		for _, cnd := range st.Conditions {
			conds = append(conds, map[string]any{"type": string(cnd.Type), "status": string(cnd.Status), "reason": cnd.Reason})
		}
		exp["conditions"] = conds
		for _, m := range st.CurrentMetrics {
			if m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == v1.ResourceCPU && m.Resource.Current.AverageUtilization != nil {
				exp["utilization"] = *m.Resource.Current.AverageUtilization
			}
		}
		exp["statusUpdated"] = true
	} else {
		// The computed status equals the HPA's: the controller skipped the write.
		exp["statusUpdated"] = false
	}
	scaled := false
	for _, u := range updates {
		if u == "ok" {
			scaled = true
		}
	}
	exp["scaleUpdated"] = scaled
	if events == nil {
		events = []any{}
	}
	exp["events"] = events
	v["expect"] = exp
	v["source"] = vecSource("horizontal_test.go", c.t)
	adapted := ""
	if v["objectAdapted"] == true {
		adapted = " The test's fake custom metrics API answers a get for any object with its first pod item; that value is recorded as the answer for the object the spec names."
	}
	delete(v, "objectAdapted")
	if ev, ok := v["emulationVersion"].(string); ok {
		adapted += fmt.Sprintf(" The test sets the feature gates' emulation version to %s (to turn off a gate locked at this release); featureGates are the gates known at %s.", ev, ev)
	}
	v["notes"] = "Expectations are the outputs of this reconcile (the status write, the scale update, the events), recorded from upstream's controller in a run where the test passed; the test asserts part of them inline. Zero-valued timestamps in the upstream fixture are encoded as now-1h. Upstream horizontal_test.go sets the package variable scaleUpLimitFactor=8 (production: 2); it only matters on the legacy (behavior==nil) path." + adapted
	vecEmit("reconcile", v)
}

// vecEmulation is the feature gates' emulation version ("1.36") when a test
// set it below the release under test ($VECTOR_VERSION), else "". Releases
// before v1.31 have no emulation version.
func vecEmulation() string {
	m := reflect.ValueOf(utilfeature.DefaultMutableFeatureGate).MethodByName("EmulationVersion")
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		return ""
	}
	out := m.Call(nil)[0]
	if out.Kind() == reflect.Pointer && out.IsNil() {
		return ""
	}
	str, ok := out.Interface().(fmt.Stringer)
	if !ok {
		return ""
	}
	parts := strings.SplitN(str.String(), ".", 3)
	if len(parts) < 2 {
		return ""
	}
	ev := parts[0] + "." + parts[1]
	rel := strings.SplitN(strings.TrimPrefix(os.Getenv("VECTOR_VERSION"), "v"), ".", 3)
	if len(rel) < 2 || ev == rel[0]+"."+rel[1] {
		return ""
	}
	return ev
}

// vecTestFile is the file of the running test.
var vecTestFile string

// vecRunTest is inserted at the entry of every Test function: it names the
// running test (and its file) for hooks that have no *testing.T.
func vecRunTest(t *testing.T, file string) {
	vecMu.Lock()
	vecTest, vecTestFile = t, file
	vecMu.Unlock()
}
