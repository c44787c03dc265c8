// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"
)

// The control endpoint (plain HTTP, meant for loopback only):
//
//	POST|DELETE /write-metrics/namespaces/{ns}/{resource}/{name}/{metric}   object in a namespace (pods, services, deployments.apps, ...)
//	POST|DELETE /write-metrics/namespaces/{ns}/metrics/{metric}             the Namespace object {ns}
//	POST|DELETE /write-metrics/{resource}/{name}/{metric}                   root-scoped object (namespaces/{name}/{metric}, nodes/...)
//	POST        /write-external-metrics/namespaces/{ns}/{metric}?labels=k=v,k2=v2
//	DELETE      /write-external-metrics/namespaces/{ns}/{metric}[?labels=k=v]  without labels: every series of the metric
//	GET         /values                                                     every stored value, as JSON
//	GET         /healthz
//
// POST bodies are a quantity, as a JSON string ("300", "1.5", "250m") or a bare number.
// Custom metric writes also accept ?labels=, the series labels a metricSelector is matched against.

func newControlHandler(s *store) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /values", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(s.dump())
	})
	mux.HandleFunc("POST /write-metrics/{path...}", func(w http.ResponseWriter, r *http.Request) {
		t, err := parseObjectPath(r.PathValue("path"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		q, err := readQuantity(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		lbls, err := parseLabels(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		k := s.setObject(t.resource, t.namespace, t.name, t.metric, q, lbls)
		klog.V(2).InfoS("custom metric written", "resource", k.Resource.String(), "namespace", k.Namespace,
			"name", k.Name, "metric", k.Metric, "labels", lbls.String(), "value", q.String())
		fmt.Fprintf(w, "%s %s/%s %s = %s\n", k.Resource.String(), k.Namespace, k.Name, k.Metric, q.String())
	})
	mux.HandleFunc("DELETE /write-metrics/{path...}", func(w http.ResponseWriter, r *http.Request) {
		t, err := parseObjectPath(r.PathValue("path"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if !s.deleteObject(t.resource, t.namespace, t.name, t.metric) {
			http.Error(w, "no such value", http.StatusNotFound)
			return
		}
		_, _ = io.WriteString(w, "deleted\n")
	})
	mux.HandleFunc("POST /write-external-metrics/namespaces/{ns}/{metric}", func(w http.ResponseWriter, r *http.Request) {
		q, err := readQuantity(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		lbls, err := parseLabels(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		ns, metric := r.PathValue("ns"), r.PathValue("metric")
		s.setExternal(ns, metric, q, lbls)
		klog.V(2).InfoS("external metric written", "namespace", ns, "metric", metric, "labels", lbls.String(), "value", q.String())
		fmt.Fprintf(w, "external %s/%s{%s} = %s\n", ns, metric, lbls.String(), q.String())
	})
	mux.HandleFunc("DELETE /write-external-metrics/namespaces/{ns}/{metric}", func(w http.ResponseWriter, r *http.Request) {
		lbls, err := parseLabels(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_, exact := r.URL.Query()["labels"]
		n := s.deleteExternal(r.PathValue("ns"), r.PathValue("metric"), lbls, !exact)
		if n == 0 {
			http.Error(w, "no such series", http.StatusNotFound)
			return
		}
		fmt.Fprintf(w, "deleted %d series\n", n)
	})
	return mux
}

type objectTarget struct {
	resource  schema.GroupResource
	namespace string
	name      string
	metric    string
}

func parseObjectPath(p string) (objectTarget, error) {
	seg := strings.Split(strings.Trim(p, "/"), "/")
	for _, s := range seg {
		if s == "" {
			return objectTarget{}, fmt.Errorf("empty path segment in %q", p)
		}
	}
	switch {
	case len(seg) == 5 && seg[0] == "namespaces":
		return objectTarget{resource: schema.ParseGroupResource(seg[2]), namespace: seg[1], name: seg[3], metric: seg[4]}, nil
	case len(seg) == 4 && seg[0] == "namespaces" && seg[2] == "metrics":
		return objectTarget{resource: schema.GroupResource{Resource: "namespaces"}, name: seg[1], metric: seg[3]}, nil
	case len(seg) == 3:
		return objectTarget{resource: schema.ParseGroupResource(seg[0]), name: seg[1], metric: seg[2]}, nil
	}
	return objectTarget{}, fmt.Errorf("path %q: want namespaces/{ns}/{resource}/{name}/{metric}, namespaces/{ns}/metrics/{metric} or {resource}/{name}/{metric}", p)
}

func readQuantity(r *http.Request) (resource.Quantity, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 4096))
	if err != nil {
		return resource.Quantity{}, err
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return resource.Quantity{}, fmt.Errorf("empty body: want a quantity such as \"300\"")
	}
	var q resource.Quantity
	if err := q.UnmarshalJSON(body); err != nil {
		return resource.Quantity{}, fmt.Errorf("body %q is not a quantity: %v", body, err)
	}
	return q, nil
}

func parseLabels(r *http.Request) (labels.Set, error) {
	raw := r.URL.Query().Get("labels")
	if raw == "" {
		return labels.Set{}, nil
	}
	m, err := labels.ConvertSelectorToLabelsMap(raw)
	if err != nil {
		return nil, fmt.Errorf("labels %q: %v", raw, err)
	}
	return m, nil
}
