// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package gather reads from a cluster everything the HPA controller reads
// for one HPA, exactly as the controller asks for it (same selectors, same
// metric selectors, same scale subresource), and returns an engine.Snapshot.
// It only ever issues GET and LIST requests.
package gather

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/scale"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	metricsclient "k8s.io/metrics/pkg/client/clientset/versioned"
	customclient "k8s.io/metrics/pkg/client/custom_metrics"
	externalclient "k8s.io/metrics/pkg/client/external_metrics"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Clients are the API clients gather needs; tests inject fakes.
type Clients struct {
	Kube     kubernetes.Interface
	Scales   scale.ScalesGetter
	Mapper   meta.RESTMapper
	Metrics  metricsclient.Interface
	Custom   customclient.CustomMetricsClient
	External externalclient.ExternalMetricsClient
	// Dynamic reads KEDA's ScaledObjects (keda.go); nil in fakes that
	// have none, which then see no KEDA.
	Dynamic dynamic.Interface
	// Calls counts the HTTP requests made through these clients, if set.
	Calls *CallCounter
	// PodREST is the core/v1 REST client (protobuf) a many-HPA read reads
	// its pods with, in one request (pages in tests), decoded as they
	// arrive straight into what the replay keeps (podproto.go). NewClients
	// sets it; without it (fakes) the pods are listed with Kube.
	PodREST rest.Interface
	// AppsREST is the apps/v1 REST client (protobuf) a many-HPA read lists
	// the ReplicaSets, Deployments and StatefulSets with, each in one
	// request decoded as it arrives (listWhole). NewClients sets it; without
	// it (fakes) they are listed with Kube, page by page.
	AppsREST rest.Interface
	// MetricsREST is the metrics.k8s.io/v1beta1 REST client (protobuf) a
	// many-HPA read reads the PodMetrics with, decoded as they arrive
	// (metricsproto.go). NewClients sets it; without it (fakes) they are
	// listed with Metrics.
	MetricsREST rest.Interface
}

// Result is a gathered snapshot plus what the user should know about how it
// was obtained.
type Result struct {
	Snapshot *engine.Snapshot
	// Events are the HPA's Kubernetes Events, oldest first.
	Events []corev1.Event
	// Warnings are inputs that could not be read; the replay goes on
	// without them, as the controller would.
	Warnings []string
}

// Options tune a gather.
type Options struct {
	// Now is the instant recorded in the snapshot.
	Now time.Time
	// PageSize is the page size of lists: tests set it small to read
	// pages. By default one HPA's pods come in one request, and so do a
	// many-HPA read's pods, ReplicaSets, Deployments and StatefulSets; its
	// other shared lists come in pages of 2,000.
	PageSize int64
}

// Snapshot reads one HPA and everything its sync reads.
func Snapshot(ctx context.Context, c *Clients, namespace, name string, opts Options) (*Result, error) {
	hpa, err := c.Kube.AutoscalingV2().HorizontalPodAutoscalers(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("get horizontalpodautoscaler %q in namespace %q: %w", name, namespace, err)
	}
	res := &Result{Snapshot: &engine.Snapshot{HPA: hpa, Now: opts.Now, APIErrors: map[string]string{}}}
	snap := res.Snapshot
	snap.Target = readScale(ctx, c, hpa)

	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	warn := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		res.Warnings = append(res.Warnings, fmt.Sprintf(format, args...))
	}
	apiErr := func(key string, err error) {
		mu.Lock()
		defer mu.Unlock()
		snap.APIErrors[key] = err.Error()
	}
	goRun := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}

	goRun(func() {
		evs, err := hpaEvents(ctx, c, hpa)
		if err != nil {
			warn("could not read the HPA's events (%v): rescale history is not inferred from them", shortErr(err))
			return
		}
		res.Events = evs
	})
	goRun(func() {
		others, err := otherHPAs(ctx, c, hpa)
		if err != nil {
			warn("could not list the other HPAs of namespace %q (%v): the ambiguous-selector check sees only this one", namespace, shortErr(err))
			return
		}
		snap.OtherHPAs = others
	})

	sel, selErr := labels.Parse(snap.Target.Selector)
	if snap.Target.GetError == "" && snap.Target.Selector != "" && selErr == nil {
		goRun(func() {
			pods, err := listPods(ctx, c, namespace, sel, opts.PageSize)
			if err != nil {
				warn("could not list the pods of selector %q: %v", snap.Target.Selector, shortErr(err))
				return
			}
			snap.Pods = pods
		})
		resourceQueued := false
		for _, m := range hpa.Spec.Metrics {
			switch m.Type {
			case autoscalingv2.ResourceMetricSourceType, autoscalingv2.ContainerResourceMetricSourceType:
				if resourceQueued {
					continue
				}
				resourceQueued = true
				snap.PodMetrics = []metricsv1beta1.PodMetrics{}
				goRun(func() {
					list, err := c.Metrics.MetricsV1beta1().PodMetricses(namespace).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
					if err != nil {
						apiErr("resource", err)
						return
					}
					mu.Lock()
					snap.PodMetrics = list.Items
					mu.Unlock()
				})
			case autoscalingv2.PodsMetricSourceType, autoscalingv2.ObjectMetricSourceType, autoscalingv2.ExternalMetricSourceType:
				// Read by metricReads below.
			}
		}
	}
	var reads customReads
	goRun(func() {
		reads = metricReads(c, hpa, sel, snap.Target.GetError == "" && snap.Target.Selector != "" && selErr == nil)
	})
	var replicaSets []appsv1.ReplicaSet
	if needsReplicaSets(snap.Target) {
		goRun(func() {
			rs, err := listReplicaSets(ctx, c, namespace)
			if err != nil {
				warn("could not list the ReplicaSets of namespace %q (%v): pods owned by other workloads are not pointed out", namespace, shortErr(err))
				return
			}
			replicaSets = rs
		})
	}
	wg.Wait()
	snap.ForeignPods = foreignPods(snap.Target, snap.Pods, replicaSets)
	snap.CustomMetrics, snap.ExternalMetrics = reads.custom, reads.external
	for k, v := range reads.errs {
		snap.APIErrors[k] = v
	}
	if len(snap.APIErrors) == 0 {
		snap.APIErrors = nil
	}
	snap.State = inferState(hpa, res.Events)
	sort.Strings(res.Warnings)
	return res, nil
}

var errBadSelector = errors.New("bad metric selector")

// customReads is what the custom and external metrics APIs answered for one
// HPA's metrics, and the errors they gave, by APIErrors key.
type customReads struct {
	custom   []custommetricsv1beta2.MetricValue
	external []externalmetricsv1beta1.ExternalMetricValue
	errs     map[string]string
}

// metricReads queries the custom and external metrics of an HPA exactly as
// the controller does: Pods metrics for the pod selector (only when it is
// usable), Object metrics for the described object, External metrics with
// the metric selector. The queries run concurrently.
func metricReads(c *Clients, hpa *autoscalingv2.HorizontalPodAutoscaler, sel labels.Selector, podsUsable bool) customReads {
	out := customReads{errs: map[string]string{}}
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	fail := func(key string, err error) {
		mu.Lock()
		out.errs[key] = err.Error()
		mu.Unlock()
	}
	for _, m := range hpa.Spec.Metrics {
		switch {
		case m.Type == autoscalingv2.PodsMetricSourceType && m.Pods != nil && podsUsable:
			p := m.Pods
			wg.Add(1)
			go func() {
				defer wg.Done()
				ms, err := metav1.LabelSelectorAsSelector(p.Metric.Selector)
				if err != nil {
					return // the engine reports the bad selector
				}
				list, err := c.Custom.NamespacedMetrics(hpa.Namespace).GetForObjects(schema.GroupKind{Kind: "Pod"}, sel, p.Metric.Name, ms)
				if err != nil {
					fail("pods:"+p.Metric.Name, err)
					return
				}
				mu.Lock()
				out.custom = append(out.custom, podsOnly(list.Items)...)
				mu.Unlock()
			}()
		case m.Type == autoscalingv2.ObjectMetricSourceType && m.Object != nil:
			o := m.Object
			wg.Add(1)
			go func() {
				defer wg.Done()
				mv, err := objectMetric(c, hpa.Namespace, o)
				if err != nil {
					if !errors.Is(err, errBadSelector) {
						fail("object:"+o.Metric.Name, err)
					}
					return
				}
				mu.Lock()
				out.custom = append(out.custom, *mv)
				mu.Unlock()
			}()
		case m.Type == autoscalingv2.ExternalMetricSourceType && m.External != nil:
			e := m.External
			wg.Add(1)
			go func() {
				defer wg.Done()
				ms, err := metav1.LabelSelectorAsSelector(e.Metric.Selector)
				if err != nil {
					return
				}
				list, err := c.External.NamespacedMetrics(hpa.Namespace).List(e.Metric.Name, ms)
				if err != nil {
					fail("external:"+e.Metric.Name, err)
					return
				}
				labelAnswers(list.Items, e.Metric.Selector)
				mu.Lock()
				out.external = append(out.external, list.Items...)
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	return out
}

// labelAnswers gives the items an adapter answered without labels (KEDA's
// metrics server answers none) the labels of the selector they were asked
// for, so that the snapshot, which matches items to metrics by their
// labels, keeps them for this metric. Only equality requirements can be
// carried over; items already labelled are left as they are.
func labelAnswers(items []externalmetricsv1beta1.ExternalMetricValue, sel *metav1.LabelSelector) {
	if sel == nil {
		return
	}
	set := map[string]string{}
	for k, v := range sel.MatchLabels {
		set[k] = v
	}
	for _, r := range sel.MatchExpressions {
		if r.Operator != metav1.LabelSelectorOpIn || len(r.Values) != 1 {
			return
		}
		set[r.Key] = r.Values[0]
	}
	if len(set) == 0 {
		return
	}
	for i := range items {
		if len(items[i].MetricLabels) == 0 {
			items[i].MetricLabels = maps.Clone(set)
		}
	}
}

func objectMetric(c *Clients, namespace string, o *autoscalingv2.ObjectMetricSource) (*custommetricsv1beta2.MetricValue, error) {
	ms, err := metav1.LabelSelectorAsSelector(o.Metric.Selector)
	if err != nil {
		return nil, errBadSelector
	}
	gvk := schema.FromAPIVersionAndKind(o.DescribedObject.APIVersion, o.DescribedObject.Kind)
	if gvk.Kind == "Namespace" && gvk.Group == "" {
		// As the controller: a Namespace object is always the HPA's own.
		return c.Custom.RootScopedMetrics().GetForObject(gvk.GroupKind(), namespace, o.Metric.Name, ms)
	}
	mv, err := c.Custom.NamespacedMetrics(namespace).GetForObject(gvk.GroupKind(), o.DescribedObject.Name, o.Metric.Name, ms)
	if err != nil {
		return nil, err
	}
	if mv.DescribedObject.Namespace == "" {
		mv.DescribedObject.Namespace = namespace
	}
	return mv, nil
}

// podsOnly keeps the items describing pods (the API answered a query on kind
// Pod; an adapter that returns other kinds would confuse the snapshot).
func podsOnly(items []custommetricsv1beta2.MetricValue) []custommetricsv1beta2.MetricValue {
	out := items[:0:0]
	for _, it := range items {
		if it.DescribedObject.Kind == "" {
			it.DescribedObject.Kind = "Pod"
		}
		out = append(out, it)
	}
	return out
}

// readScale resolves the scale subresource like the controller: every REST
// mapping of the group and kind is tried until one GET succeeds.
func readScale(ctx context.Context, c *Clients, hpa *autoscalingv2.HorizontalPodAutoscaler) engine.Target {
	ref := hpa.Spec.ScaleTargetRef
	t := engine.Target{APIVersion: ref.APIVersion, Kind: ref.Kind, Name: ref.Name}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		t.GetError = err.Error()
		return t
	}
	mappings, err := c.Mapper.RESTMappings(schema.GroupKind{Group: gv.Group, Kind: ref.Kind})
	if err != nil {
		t.GetError = err.Error()
		return t
	}
	var firstErr error
	for _, m := range mappings {
		s, err := c.Scales.Scales(hpa.Namespace).Get(ctx, m.Resource.GroupResource(), ref.Name, metav1.GetOptions{})
		if err == nil {
			t.SpecReplicas = s.Spec.Replicas
			t.StatusReplicas = s.Status.Replicas
			t.Selector = s.Status.Selector
			return t
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("no REST mapping for %s", ref.Kind)
	}
	t.GetError = firstErr.Error()
	return t
}

// listPods lists the pods of the selector: in one request, or page by page
// when a page size is set.
func listPods(ctx context.Context, c *Clients, namespace string, sel labels.Selector, pageSize int64) ([]corev1.Pod, error) {
	// All the target's pods are kept, so pages would bound nothing here;
	// one request is answered from the API server's watch cache (see
	// podPageSize). Tests set a page size.
	var out []corev1.Pod
	opts := metav1.ListOptions{LabelSelector: sel.String(), Limit: max(pageSize, 0)}
	for {
		list, err := c.Kube.CoreV1().Pods(namespace).List(ctx, opts)
		if err != nil {
			return nil, err
		}
		out = append(out, list.Items...)
		if list.Continue == "" {
			return out, nil
		}
		opts.Continue = list.Continue
	}
}

func hpaEvents(ctx context.Context, c *Clients, hpa *autoscalingv2.HorizontalPodAutoscaler) ([]corev1.Event, error) {
	list, err := c.Kube.CoreV1().Events(hpa.Namespace).List(ctx, metav1.ListOptions{
		FieldSelector: "involvedObject.kind=HorizontalPodAutoscaler,involvedObject.name=" + hpa.Name,
	})
	if err != nil {
		return nil, err
	}
	evs := list.Items
	sort.SliceStable(evs, func(i, j int) bool { return eventTime(evs[i]).Before(eventTime(evs[j])) })
	return evs, nil
}

func eventTime(e corev1.Event) time.Time {
	switch {
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	case !e.EventTime.IsZero():
		return e.EventTime.Time
	}
	return e.FirstTimestamp.Time
}

// otherHPAs lists the namespace's other HPAs with the selectors of their
// targets, for the ambiguous-selector check.
func otherHPAs(ctx context.Context, c *Clients, hpa *autoscalingv2.HorizontalPodAutoscaler) ([]engine.HPASelector, error) {
	list, err := c.Kube.AutoscalingV2().HorizontalPodAutoscalers(hpa.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []engine.HPASelector
	for i := range list.Items {
		o := &list.Items[i]
		if o.Name == hpa.Name {
			continue
		}
		t := readScale(ctx, c, o)
		if t.GetError != "" || t.Selector == "" {
			continue
		}
		out = append(out, engine.HPASelector{Namespace: o.Namespace, Name: o.Name, Selector: t.Selector})
	}
	return out, nil
}

func shortErr(err error) string {
	if apierrors.IsForbidden(err) {
		return "forbidden"
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i > 0 {
		s = s[:i]
	}
	return s
}

// inferState rebuilds what it can of the controller's memory.
//
// Recommendations are invisible: we assume a controller whose history begins
// now with the current replica count (what a restarted controller holds).
// Scale events (used by the behavior rate limits) are rebuilt from the
// SuccessfulRescale events ("New size: N") and the status: consecutive events
// give the change between their sizes; the newest one's previous size is the
// status' currentReplicas when the status was written by that rescale.
func inferState(hpa *autoscalingv2.HorizontalPodAutoscaler, events []corev1.Event) engine.ControllerState {
	st := engine.ControllerState{
		Provenance: explain.Assumed,
		Notes: []string{
			"the controller's recommendation history is not visible: assuming it holds only the current replica count (as after a controller restart); a scale-down may in reality be held by higher recent recommendations",
		},
	}
	if hpa.Spec.Behavior == nil {
		return st
	}
	type rescale struct {
		at      time.Time
		size    int32
		merged  bool
		hasPrev bool
		prev    int32
	}
	var chain []rescale
	for _, e := range events {
		if e.Reason != explain.ReasonSuccessfulRescale {
			continue
		}
		var size int32
		if _, err := fmt.Sscanf(e.Message, "New size: %d;", &size); err != nil {
			continue
		}
		chain = append(chain, rescale{at: eventTime(e), size: size, merged: e.Count > 1})
	}
	if len(chain) == 0 {
		return st
	}
	for i := 1; i < len(chain); i++ {
		chain[i].prev, chain[i].hasPrev = chain[i-1].size, true
	}
	last := &chain[len(chain)-1]
	s := hpa.Status
	if s.LastScaleTime != nil && s.DesiredReplicas == last.size && s.CurrentReplicas != s.DesiredReplicas &&
		absDuration(s.LastScaleTime.Sub(last.at)) <= 2*time.Second {
		last.prev, last.hasPrev = s.CurrentReplicas, true
	}
	rebuilt, merged := 0, false
	for _, r := range chain {
		merged = merged || r.merged
		if !r.hasPrev || r.prev == r.size {
			continue
		}
		ev := engine.ScaleEvent{Timestamp: r.at}
		if r.size > r.prev {
			ev.ReplicaChange = r.size - r.prev
			st.ScaleUpEvents = append(st.ScaleUpEvents, ev)
		} else {
			ev.ReplicaChange = r.prev - r.size
			st.ScaleDownEvents = append(st.ScaleDownEvents, ev)
		}
		rebuilt++
	}
	if rebuilt > 0 {
		st.Provenance = explain.Inferred
		st.Notes = append(st.Notes, fmt.Sprintf("%d scale event(s) for the rate limits rebuilt from %d SuccessfulRescale event(s) and the HPA status (event timestamps have a one-second resolution)", rebuilt, len(chain)))
	}
	if rebuilt < len(chain) {
		st.Notes = append(st.Notes, fmt.Sprintf("%d SuccessfulRescale event(s) could not be turned into scale events (the size before them is not recorded)", len(chain)-rebuilt))
	}
	if merged {
		st.Notes = append(st.Notes, "some SuccessfulRescale events were merged by the event recorder (count > 1): the earlier occurrences are not visible")
	}
	return st
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
