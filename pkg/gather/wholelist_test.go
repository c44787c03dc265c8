// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

// appsCluster: in namespace a, Deployment web with its ReplicaSet web-1 and
// that ReplicaSet's pod, plus a pod with web's labels owned by another
// ReplicaSet (foreign to web), and StatefulSet db with its pod; in b,
// ReplicaSet solo with its pod; in c, a ReplicaSet without an HPA. An HPA
// scales each of web, db and solo. The apps/v1 lists are also served whole
// in protobuf by an HTTP server, unless answer answers first.
func appsCluster(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, body []byte) bool) (*cluster, *Clients, *appsServer) {
	t.Helper()
	owned := func(p *metav1.ObjectMeta, kind, name string) {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: name, UID: types.UID("uid-" + name), Controller: ptr(true)}}
	}
	web := deploymentObj("a", "web", 2)
	web1 := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "web-1", Labels: map[string]string{"app": "web"}},
		Spec:       appsv1.ReplicaSetSpec{Replicas: ptr(int32(1)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		Status:     appsv1.ReplicaSetStatus{Replicas: 1},
	}
	owned(&web1.ObjectMeta, "Deployment", "web")
	other := web1.DeepCopy()
	other.Name, other.OwnerReferences = "other-1", nil
	db := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "db"},
		Spec:       appsv1.StatefulSetSpec{Replicas: ptr(int32(3)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}},
		Status:     appsv1.StatefulSetStatus{Replicas: 3},
	}
	solo := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "b", Name: "solo"},
		Spec:       appsv1.ReplicaSetSpec{Replicas: ptr(int32(4)), Selector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"solo"}}}}},
		Status:     appsv1.ReplicaSetStatus{Replicas: 4},
	}
	stray := solo.DeepCopy()
	stray.Namespace, stray.Name = "c", "stray"
	webPod, foreign, dbPod, soloPod := podObj("a", "web-1-x", "web"), podObj("a", "other-1-y", "web"), podObj("a", "db-0", "db"), podObj("b", "solo-z", "solo")
	owned(&webPod.ObjectMeta, "ReplicaSet", "web-1")
	owned(&foreign.ObjectMeta, "ReplicaSet", "other-1")
	owned(&dbPod.ObjectMeta, "StatefulSet", "db")
	owned(&soloPod.ObjectMeta, "ReplicaSet", "solo")
	hpa := func(ns, name, kind string) *autoscalingv2.HorizontalPodAutoscaler {
		h := hpaObj(ns, name, name, cpu50)
		h.Spec.ScaleTargetRef.Kind = kind
		return h
	}
	objs := []runtime.Object{
		web, web1, other, db, solo, stray, webPod, foreign, dbPod, soloPod,
		hpa("a", "web", "Deployment"), hpa("a", "db", "StatefulSet"), hpa("b", "solo", "ReplicaSet"),
	}
	var pms []metricsv1beta1.PodMetrics
	for _, p := range []string{"a/web-1-x", "a/other-1-y", "a/db-0", "b/solo-z"} {
		ns, name, _ := strings.Cut(p, "/")
		pms = append(pms, podMetric(ns, name, "x", "250m"))
	}
	cl := newCluster(objs, map[string]string{}, pms)
	srv := &appsServer{t: t, answer: answer, lists: map[string]runtime.Object{
		"deployments":  &appsv1.DeploymentList{Items: []appsv1.Deployment{*web}},
		"replicasets":  &appsv1.ReplicaSetList{Items: []appsv1.ReplicaSet{*web1, *other, *solo, *stray}},
		"statefulsets": &appsv1.StatefulSetList{Items: []appsv1.StatefulSet{*db}},
	}}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	kube, err := NewClients(&rest.Config{Host: hs.URL})
	if err != nil {
		t.Fatal(err)
	}
	c := cl.clients()
	c.AppsREST = kube.AppsREST
	return cl, c, srv
}

// appsServer answers the apps/v1 lists whole, in protobuf, as the API server
// does, unless answer answers first.
type appsServer struct {
	t        *testing.T
	lists    map[string]runtime.Object
	answer   func(w http.ResponseWriter, r *http.Request, body []byte) bool
	mu       sync.Mutex
	requests []string
}

func (s *appsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.URL.RequestURI())
	s.mu.Unlock()
	list, ok := s.lists[strings.TrimPrefix(r.URL.Path, "/apis/apps/v1/")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	body := encodeProtobufWith(s.t, scheme.Codecs, appsv1.SchemeGroupVersion, list)
	if s.answer != nil && s.answer(w, r, body) {
		return
	}
	w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
	_, _ = w.Write(body)
}

// appsView is what the replays got from the workload lists: each one's
// target scale and the pods found foreign to it; and the ReplicaSets kept,
// by namespace.
func appsView(t *testing.T, c *Clients) map[string]string {
	t.Helper()
	scope, err := List(context.Background(), c, ManyOptions{Options: Options{Now: now}})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	if err := scope.Each(context.Background(), func(r *Result) error {
		out[r.Snapshot.HPA.Namespace+"/"+r.Snapshot.HPA.Name] = fmt.Sprintf("%+v foreign %v", r.Snapshot.Target, r.Snapshot.ForeignPods)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for ns, rss := range scope.replicaSets {
		var names []string
		for _, r := range rss {
			owners := ""
			for _, o := range r.OwnerReferences {
				owners += fmt.Sprintf(" owned by %s/%s (%s, controller %t)", o.Kind, o.Name, o.UID, o.Controller != nil && *o.Controller)
			}
			names = append(names, r.Name+owners)
		}
		sort.Strings(names)
		out["ReplicaSets of "+ns] = strings.Join(names, ", ")
	}
	return out
}

// fakeAppsLists counts the apps/v1 lists made through the fake client.
func fakeAppsLists(cl *cluster) int {
	n := 0
	for _, a := range cl.kube.Actions() {
		if a.GetVerb() == "list" && a.GetResource().Group == "apps" {
			n++
		}
	}
	return n
}

// With AppsREST, the ReplicaSets, Deployments and StatefulSets are each
// listed in one request without a limit, decoded as they arrive; the
// replays get what client-go's paged lists give them.
func TestManyListsAppsWhole(t *testing.T) {
	cl0, c0, _ := appsCluster(t, nil)
	c0.AppsREST = nil
	want := appsView(t, c0)
	if n := fakeAppsLists(cl0); n != 3 {
		t.Fatalf("without AppsREST: %d client-go apps lists, want 3", n)
	}
	if len(want) != 5 || !strings.Contains(want["a/web"], "other-1-y") || strings.Contains(want["a/web"], "web-1-x") {
		t.Fatalf("the fixture does not give what the test needs: %v", want)
	}

	cl, c, srv := appsCluster(t, nil)
	got := appsView(t, c)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("whole lists:\n%v\nclient-go pages:\n%v", got, want)
	}
	if n := fakeAppsLists(cl); n != 0 {
		t.Errorf("%d client-go apps lists, want 0", n)
	}
	wantReq := []string{"/apis/apps/v1/deployments", "/apis/apps/v1/replicasets", "/apis/apps/v1/statefulsets"}
	reqs := append([]string(nil), srv.requests...)
	sort.Strings(reqs)
	if fmt.Sprint(reqs) != fmt.Sprint(wantReq) {
		t.Errorf("requests %v, want %v", reqs, wantReq)
	}
}

// A whole list that is refused, comes in JSON, breaks off, is not the list
// asked for or comes with a continue token is listed again with client-go's
// pages, from scratch: the replays get the same, nothing twice.
func TestManyAppsListsFallBack(t *testing.T) {
	_, c0, _ := appsCluster(t, nil)
	c0.AppsREST = nil
	want := appsView(t, c0)
	cases := map[string]func(w http.ResponseWriter, r *http.Request, body []byte) bool{
		"unavailable": func(w http.ResponseWriter, _ *http.Request, _ []byte) bool {
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		},
		"JSON": func(w http.ResponseWriter, _ *http.Request, _ []byte) bool {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"kind":"ReplicaSetList","apiVersion":"apps/v1","metadata":{},"items":[]}`)
			return true
		},
		"cut short": func(w http.ResponseWriter, _ *http.Request, body []byte) bool {
			w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
			_, _ = w.Write(body[:len(body)-3])
			return true
		},
		"another kind": func(w http.ResponseWriter, _ *http.Request, _ []byte) bool {
			w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
			_, _ = w.Write(encodeProtobufWith(t, scheme.Codecs, appsv1.SchemeGroupVersion, &appsv1.DaemonSetList{Items: []appsv1.DaemonSet{{ObjectMeta: metav1.ObjectMeta{Name: "x"}}}}))
			return true
		},
		"paged": func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
			var list runtime.Object
			switch {
			case strings.HasSuffix(r.URL.Path, "/replicasets"):
				list = &appsv1.ReplicaSetList{ListMeta: metav1.ListMeta{Continue: "more"}, Items: []appsv1.ReplicaSet{{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "web-1"}}}}
			case strings.HasSuffix(r.URL.Path, "/deployments"):
				list = &appsv1.DeploymentList{ListMeta: metav1.ListMeta{Continue: "more"}}
			default:
				list = &appsv1.StatefulSetList{ListMeta: metav1.ListMeta{Continue: "more"}}
			}
			w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
			_, _ = w.Write(encodeProtobufWith(t, scheme.Codecs, appsv1.SchemeGroupVersion, list))
			return true
		},
	}
	for name, answer := range cases {
		t.Run(name, func(t *testing.T) {
			cl, c, _ := appsCluster(t, answer)
			if got := appsView(t, c); !reflect.DeepEqual(got, want) {
				t.Errorf("after the fallback:\n%v\nwant:\n%v", got, want)
			}
			if n := fakeAppsLists(cl); n != 3 {
				t.Errorf("%d client-go apps lists, want 3 (one each)", n)
			}
		})
	}
}

// A cancelled whole list ends with the context's error, without a
// fallback.
func TestListWholeCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cl, c, _ := appsCluster(t, func(_ http.ResponseWriter, r *http.Request, _ []byte) bool {
		// No answer until the client has gone: an answer written at once
		// could be read whole before the client sees the cancel.
		cancel()
		select {
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
			t.Error("the request was not cancelled")
		}
		return true
	})
	s := &Scope{c: c}
	var w workloadLists
	if err := s.listReplicaSets(ctx, &w); err == nil {
		t.Error("listReplicaSets: no error after the cancel")
	}
	if n := fakeAppsLists(cl); n != 0 {
		t.Errorf("%d client-go apps lists after the cancel", n)
	}
}
