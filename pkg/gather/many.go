// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"
	"fmt"
	"sort"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
)

// ManyOptions select the HPAs of a many-HPA gather.
type ManyOptions struct {
	Options
	// Namespace is the namespace to read; "" reads every namespace.
	Namespace string
	// LabelSelector filters the HPAs (-l).
	LabelSelector string
	// Parallel bounds the concurrent per-HPA reads (default 8).
	Parallel int
	// Progress, if set, is called after each HPA is gathered.
	Progress func(done, total int)
}

// namespaceData is what is listed once per namespace and shared by its HPAs.
type namespaceData struct {
	pods          []corev1.Pod
	podsErr       error
	podMetrics    []metricsv1beta1.PodMetrics
	podMetricsErr error
	events        []corev1.Event
	eventsErr     error
	replicaSets   []appsv1.ReplicaSet
	targets       map[string]engine.Target // by HPA name
}

// Many reads every selected HPA and what their syncs read, with a constant
// number of list requests per namespace (HPAs once; pods, PodMetrics and
// Events once per namespace). Per HPA it still GETs the scale subresource and
// queries its custom and external metrics, as the controller does.
func Many(ctx context.Context, c *Clients, opts ManyOptions) ([]*Result, error) {
	list, err := c.Kube.AutoscalingV2().HorizontalPodAutoscalers(opts.Namespace).List(ctx, metav1.ListOptions{LabelSelector: opts.LabelSelector})
	if err != nil {
		where := fmt.Sprintf("namespace %q", opts.Namespace)
		if opts.Namespace == "" {
			where = "all namespaces"
		}
		return nil, fmt.Errorf("list horizontalpodautoscalers in %s: %w", where, err)
	}
	hpas := list.Items
	sort.Slice(hpas, func(i, j int) bool {
		if hpas[i].Namespace != hpas[j].Namespace {
			return hpas[i].Namespace < hpas[j].Namespace
		}
		return hpas[i].Name < hpas[j].Name
	})
	byNS := map[string][]*autoscalingv2.HorizontalPodAutoscaler{}
	for i := range hpas {
		byNS[hpas[i].Namespace] = append(byNS[hpas[i].Namespace], &hpas[i])
	}
	parallel := opts.Parallel
	if parallel <= 0 {
		parallel = 8
	}
	sem := make(chan struct{}, parallel)

	// Per namespace: the shared lists, and every HPA's scale.
	data := map[string]*namespaceData{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for ns, items := range byNS {
		d := &namespaceData{targets: map[string]engine.Target{}}
		data[ns] = d
		wg.Add(4)
		go func() {
			defer wg.Done()
			d.pods, d.podsErr = listPods(ctx, c, ns, labels.Everything(), opts.PageSize)
		}()
		go func() {
			defer wg.Done()
			d.replicaSets, _ = listReplicaSets(ctx, c, ns) // only for pointing out foreign pods
		}()
		go func() {
			defer wg.Done()
			if !anyResourceMetric(items) {
				return
			}
			l, err := c.Metrics.MetricsV1beta1().PodMetricses(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				d.podMetricsErr = err
				return
			}
			d.podMetrics = l.Items
		}()
		go func() {
			defer wg.Done()
			l, err := c.Kube.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.kind=HorizontalPodAutoscaler"})
			if err != nil {
				d.eventsErr = err
				return
			}
			d.events = l.Items
		}()
		for _, h := range items {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				t := readScale(ctx, c, h)
				mu.Lock()
				d.targets[h.Name] = t
				mu.Unlock()
			}()
		}
	}
	wg.Wait()

	results := make([]*Result, len(hpas))
	done := 0
	for i := range hpas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			h := &hpas[i]
			results[i] = fromNamespaceData(c, h, data[h.Namespace], opts.Options)
			mu.Lock()
			done++
			if opts.Progress != nil {
				opts.Progress(done, len(hpas))
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return results, nil
}

func anyResourceMetric(items []*autoscalingv2.HorizontalPodAutoscaler) bool {
	for _, h := range items {
		for _, m := range h.Spec.Metrics {
			if m.Type == autoscalingv2.ResourceMetricSourceType || m.Type == autoscalingv2.ContainerResourceMetricSourceType {
				return true
			}
		}
	}
	return false
}

// fromNamespaceData builds one HPA's snapshot from the namespace's shared
// lists, querying only its own custom and external metrics.
func fromNamespaceData(c *Clients, hpa *autoscalingv2.HorizontalPodAutoscaler, d *namespaceData, opts Options) *Result {
	res := &Result{Snapshot: &engine.Snapshot{HPA: hpa, Now: opts.Now, APIErrors: map[string]string{}}}
	snap := res.Snapshot
	snap.Target = d.targets[hpa.Name]
	for name, t := range d.targets {
		if name != hpa.Name && t.GetError == "" && t.Selector != "" {
			snap.OtherHPAs = append(snap.OtherHPAs, engine.HPASelector{Namespace: hpa.Namespace, Name: name, Selector: t.Selector})
		}
	}
	sort.Slice(snap.OtherHPAs, func(i, j int) bool { return snap.OtherHPAs[i].Name < snap.OtherHPAs[j].Name })
	if d.eventsErr != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("could not read the events of namespace %q (%v): rescale history is not inferred from them", hpa.Namespace, shortErr(d.eventsErr)))
	}
	for _, e := range d.events {
		if e.InvolvedObject.Name == hpa.Name {
			res.Events = append(res.Events, e)
		}
	}
	sort.SliceStable(res.Events, func(i, j int) bool { return eventTime(res.Events[i]).Before(eventTime(res.Events[j])) })

	sel, selErr := labels.Parse(snap.Target.Selector)
	usable := snap.Target.GetError == "" && snap.Target.Selector != "" && selErr == nil
	if usable {
		if d.podsErr != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("could not list the pods of namespace %q: %v", hpa.Namespace, shortErr(d.podsErr)))
		}
		for i := range d.pods {
			if sel.Matches(labels.Set(d.pods[i].Labels)) {
				snap.Pods = append(snap.Pods, d.pods[i])
			}
		}
	}
	snap.ForeignPods = foreignPods(snap.Target, snap.Pods, d.replicaSets)
	metrics := metricReads(c, hpa, sel, usable)
	if usable && anyResourceMetric([]*autoscalingv2.HorizontalPodAutoscaler{hpa}) {
		if d.podMetricsErr != nil {
			snap.APIErrors["resource"] = d.podMetricsErr.Error()
		} else {
			snap.PodMetrics = []metricsv1beta1.PodMetrics{}
			for i := range d.podMetrics {
				if sel.Matches(labels.Set(d.podMetrics[i].Labels)) {
					snap.PodMetrics = append(snap.PodMetrics, d.podMetrics[i])
				}
			}
		}
	}
	snap.CustomMetrics, snap.ExternalMetrics = metrics.custom, metrics.external
	for k, v := range metrics.errs {
		snap.APIErrors[k] = v
	}
	if len(snap.APIErrors) == 0 {
		snap.APIErrors = nil
	}
	snap.State = inferState(hpa, res.Events)
	return res
}
