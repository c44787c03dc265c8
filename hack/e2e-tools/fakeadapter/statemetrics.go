// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// The state metrics: kube-state-metrics cannot be built from the Go module
// proxy, so the local cluster has none. The backtest's main source in real
// clusters is what it exports of workloads and pods; this endpoint exports
// the same series, under the same names and labels, for the namespaces that
// ask for it (label stateMetricsLabel=true), so that the local Prometheus
// records them and the e2e suite exercises that path against a real
// Prometheus. Each scrape lists the objects afresh.
const stateMetricsLabel = "kubectl-hpa.io/state-metrics"

var (
	gvrNamespaces  = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	gvrPods        = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	gvrDeployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	gvrReplicaSets = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}
)

// stateMetricsHandler serves the series in Prometheus's text format.
func stateMetricsHandler(client dynamic.Interface) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 4*time.Second)
		defer cancel()
		var b strings.Builder
		if err := writeStateMetrics(ctx, client, &b); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		_, _ = io.WriteString(w, b.String())
	}
}

// series collects the samples of one metric family.
type series struct {
	help, typ string
	lines     []string
}

func writeStateMetrics(ctx context.Context, client dynamic.Interface, w io.Writer) error {
	nsList, err := client.Resource(gvrNamespaces).List(ctx, metav1.ListOptions{LabelSelector: stateMetricsLabel + "=true"})
	if err != nil {
		return fmt.Errorf("list namespaces: %w", err)
	}
	fams := map[string]*series{}
	add := func(name, help, typ string, value float64, labels ...string) {
		f := fams[name]
		if f == nil {
			f = &series{help: help, typ: typ}
			fams[name] = f
		}
		var l []string
		for i := 0; i+1 < len(labels); i += 2 {
			l = append(l, fmt.Sprintf("%s=%q", labels[i], labels[i+1]))
		}
		f.lines = append(f.lines, fmt.Sprintf("%s{%s} %s", name, strings.Join(l, ","), strconv.FormatFloat(value, 'g', -1, 64)))
	}
	for _, item := range nsList.Items {
		ns := item.GetName()
		var deps []appsv1.Deployment
		var rss []appsv1.ReplicaSet
		var pods []corev1.Pod
		for _, l := range []struct {
			gvr schema.GroupVersionResource
			out any
		}{{gvrDeployments, &deps}, {gvrReplicaSets, &rss}, {gvrPods, &pods}} {
			if err := listInto(ctx, client, l.gvr, ns, l.out); err != nil {
				return err
			}
		}
		for _, d := range deps {
			if d.Spec.Replicas != nil {
				add("kube_deployment_spec_replicas", "Number of desired pods for a deployment.", "gauge", float64(*d.Spec.Replicas),
					"namespace", ns, "deployment", d.Name)
			}
		}
		for _, rs := range rss {
			for _, o := range rs.OwnerReferences {
				add("kube_replicaset_owner", "Information about the ReplicaSet's owner.", "gauge", 1,
					"namespace", ns, "replicaset", rs.Name, "owner_kind", o.Kind, "owner_name", o.Name, "owner_is_controller", strconv.FormatBool(o.Controller != nil && *o.Controller))
			}
			if rs.Spec.Replicas != nil {
				add("kube_replicaset_spec_replicas", "Number of desired pods for a ReplicaSet.", "gauge", float64(*rs.Spec.Replicas),
					"namespace", ns, "replicaset", rs.Name)
			}
		}
		for _, p := range pods {
			id := []string{"namespace", ns, "pod", p.Name, "uid", string(p.UID)}
			for _, o := range p.OwnerReferences {
				add("kube_pod_owner", "Information about the Pod's owner.", "gauge", 1,
					append(id, "owner_kind", o.Kind, "owner_name", o.Name, "owner_is_controller", strconv.FormatBool(o.Controller != nil && *o.Controller))...)
			}
			for _, ph := range []corev1.PodPhase{corev1.PodPending, corev1.PodSucceeded, corev1.PodFailed, corev1.PodUnknown, corev1.PodRunning} {
				add("kube_pod_status_phase", "The pods current phase.", "gauge", boolValue(p.Status.Phase == ph), append(id, "phase", string(ph))...)
			}
			ready := "unknown"
			var readySince time.Time
			for _, c := range p.Status.Conditions {
				if c.Type == corev1.PodReady {
					ready = strings.ToLower(string(c.Status))
					readySince = c.LastTransitionTime.Time
				}
			}
			if ready == "true" && !readySince.IsZero() {
				add("kube_pod_status_ready_time", "Readiness achieved time in unix timestamp for a pod.", "gauge", float64(readySince.Unix()), id...)
			}
			for _, c := range []string{"true", "false", "unknown"} {
				add("kube_pod_status_ready", "Describes whether the pod is ready to serve requests.", "gauge", boolValue(ready == c), append(id, "condition", c)...)
			}
			add("kube_pod_created", "Unix creation timestamp", "gauge", float64(p.CreationTimestamp.Unix()), id...)
			if p.Status.StartTime != nil {
				add("kube_pod_start_time", "Start time in unix timestamp for a pod.", "gauge", float64(p.Status.StartTime.Unix()), id...)
			}
			if p.DeletionTimestamp != nil {
				add("kube_pod_deletion_timestamp", "Unix deletion timestamp", "gauge", float64(p.DeletionTimestamp.Unix()), id...)
			}
			for _, c := range p.Spec.Containers {
				if q, ok := c.Resources.Requests[corev1.ResourceCPU]; ok {
					add("kube_pod_container_resource_requests", "The number of requested request resource by a container.", "gauge", float64(q.MilliValue())/1000,
						append(id, "container", c.Name, "node", p.Spec.NodeName, "resource", "cpu", "unit", "core")...)
				}
				if q, ok := c.Resources.Requests[corev1.ResourceMemory]; ok {
					add("kube_pod_container_resource_requests", "The number of requested request resource by a container.", "gauge", float64(q.Value()),
						append(id, "container", c.Name, "node", p.Spec.NodeName, "resource", "memory", "unit", "byte")...)
				}
			}
		}
	}
	names := make([]string, 0, len(fams))
	for n := range fams {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f := fams[n]
		if _, err := fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s\n", n, f.help, n, f.typ, strings.Join(f.lines, "\n")); err != nil {
			return err
		}
	}
	return nil
}

// listInto lists a resource of a namespace into a typed slice.
func listInto(ctx context.Context, client dynamic.Interface, gvr schema.GroupVersionResource, ns string, out any) error {
	l, err := client.Resource(gvr).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("list %s in %s: %w", gvr.Resource, ns, err)
	}
	for _, item := range l.Items {
		var err error
		switch o := out.(type) {
		case *[]appsv1.Deployment:
			var d appsv1.Deployment
			err = runtime.DefaultUnstructuredConverter.FromUnstructured(item.Object, &d)
			*o = append(*o, d)
		case *[]appsv1.ReplicaSet:
			var rs appsv1.ReplicaSet
			err = runtime.DefaultUnstructuredConverter.FromUnstructured(item.Object, &rs)
			*o = append(*o, rs)
		case *[]corev1.Pod:
			var p corev1.Pod
			err = runtime.DefaultUnstructuredConverter.FromUnstructured(item.Object, &p)
			*o = append(*o, p)
		}
		if err != nil {
			return fmt.Errorf("decode %s %s/%s: %w", gvr.Resource, ns, item.GetName(), err)
		}
	}
	return nil
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
