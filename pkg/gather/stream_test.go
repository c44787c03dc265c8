// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/watch"
	core "k8s.io/client-go/testing"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

// streamCluster is the many-HPA cluster of TestManyListsOnce, with a pod
// watch that behaves as stream says.
func streamCluster(t *testing.T, stream func(pods []runtime.Object, opts metav1.ListOptions) (watch.Interface, error)) (*cluster, []runtime.Object) {
	t.Helper()
	var objs, pods []runtime.Object
	var pms []metricsv1beta1.PodMetrics
	for _, ns := range []string{"a", "b"} {
		for i := range 3 {
			name := fmt.Sprintf("app%d", i)
			p := podObj(ns, name+"-pod", name)
			objs = append(objs, hpaObj(ns, name, name, cpu50), p, deploymentObj(ns, name, 2))
			pods = append(pods, p)
			pms = append(pms, podMetric(ns, name+"-pod", name, "250m"))
		}
	}
	// A pod of a namespace without HPAs is dropped as it arrives.
	other := podObj("c", "stray", "stray")
	objs = append(objs, other)
	pods = append(pods, other)
	cl := newCluster(objs, map[string]string{}, pms)
	cl.kube.PrependWatchReactor("pods", func(a core.Action) (bool, watch.Interface, error) {
		opts := a.(core.WatchActionImpl).ListOptions
		w, err := stream(pods, opts)
		return true, w, err
	})
	return cl, pods
}

// fed returns a watcher that has already received events and then closes
// if closeAfter is set.
func fed(events []watch.Event, closeAfter bool) watch.Interface {
	w := watch.NewFakeWithChanSize(len(events)+1, false)
	for _, e := range events {
		w.Action(e.Type, e.Object)
	}
	if closeAfter {
		w.Stop()
	}
	return w
}

func endBookmark() *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "42", Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}}
}

func added(pods []runtime.Object) []watch.Event {
	var out []watch.Event
	for _, p := range pods {
		out = append(out, watch.Event{Type: watch.Added, Object: p.DeepCopyObject()})
	}
	return out
}

// countPods runs a many-HPA read and returns the number of pods each HPA
// got, and the pod requests made.
func countPods(t *testing.T, cl *cluster) (perHPA map[string]int, lists, watches int) {
	t.Helper()
	c := cl.clients()
	c.WatchList = true
	scope, err := List(context.Background(), c, ManyOptions{Options: Options{Now: now}})
	if err != nil {
		t.Fatal(err)
	}
	perHPA = map[string]int{}
	if err := scope.Each(context.Background(), func(r *Result) error {
		perHPA[r.Snapshot.HPA.Namespace+"/"+r.Snapshot.HPA.Name] = len(r.Snapshot.Pods)
		for _, p := range r.Snapshot.Pods {
			if len(p.ManagedFields) != 0 {
				t.Errorf("pod %s not reduced", p.Name)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, a := range cl.kube.Actions() {
		if a.GetResource().Resource == "pods" && a.GetNamespace() == "" {
			switch a.GetVerb() {
			case "list":
				lists++
			case "watch":
				watches++
			}
		}
	}
	return perHPA, lists, watches
}

func wantOnePodEach(t *testing.T, perHPA map[string]int) {
	t.Helper()
	if len(perHPA) != 6 {
		t.Fatalf("%d HPAs: %v", len(perHPA), perHPA)
	}
	for k, n := range perHPA {
		if n != 1 {
			t.Errorf("%s: %d pods, want 1 (no duplicates, none lost)", k, n)
		}
	}
}

// With WatchList, the pods of the scope come in one streamed watch that
// asks for the initial state, and no pod list is made.
func TestManyStreamsPods(t *testing.T) {
	var seen metav1.ListOptions
	cl, _ := streamCluster(t, func(pods []runtime.Object, opts metav1.ListOptions) (watch.Interface, error) {
		seen = opts
		// A bookmark without the end annotation is only progress.
		ev := append(added(pods[:2]), watch.Event{Type: watch.Bookmark, Object: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "41"}}})
		ev = append(ev, added(pods[2:])...)
		return fed(append(ev, watch.Event{Type: watch.Bookmark, Object: endBookmark()}), false), nil
	})
	perHPA, lists, watches := countPods(t, cl)
	wantOnePodEach(t, perHPA)
	if lists != 0 || watches != 1 {
		t.Errorf("%d pod lists and %d watches, want 0 and 1", lists, watches)
	}
	if seen.SendInitialEvents == nil || !*seen.SendInitialEvents || seen.ResourceVersionMatch != metav1.ResourceVersionMatchNotOlderThan ||
		!seen.AllowWatchBookmarks || seen.ResourceVersion != "" || seen.TimeoutSeconds == nil {
		t.Errorf("watch options %+v: want sendInitialEvents, NotOlderThan, bookmarks, no resourceVersion, a timeout", seen)
	}
}

// Where the stream does not deliver the whole state, the pods are read
// again with the paged list, from scratch.
func TestManyStreamFallsBack(t *testing.T) {
	cases := map[string]func(pods []runtime.Object, opts metav1.ListOptions) (watch.Interface, error){
		// v1.33 and older servers without the WatchList gate refuse the request.
		"refused": func([]runtime.Object, metav1.ListOptions) (watch.Interface, error) {
			return nil, apierrors.NewInvalid(schema.GroupKind{Kind: "ListOptions"}, "", field.ErrorList{
				field.Forbidden(field.NewPath("sendInitialEvents"), "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"),
			})
		},
		"closed before the end": func(pods []runtime.Object, _ metav1.ListOptions) (watch.Interface, error) {
			return fed(added(pods[:3]), true), nil
		},
		"error event": func(pods []runtime.Object, _ metav1.ListOptions) (watch.Interface, error) {
			ev := append(added(pods[:3]), watch.Event{Type: watch.Error, Object: &metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired}})
			return fed(ev, false), nil
		},
		"a change before the end": func(pods []runtime.Object, _ metav1.ListOptions) (watch.Interface, error) {
			ev := append(added(pods), watch.Event{Type: watch.Modified, Object: pods[0].DeepCopyObject()})
			return fed(ev, false), nil
		},
		"not a pod": func(pods []runtime.Object, _ metav1.ListOptions) (watch.Interface, error) {
			ev := append(added(pods[:1]), watch.Event{Type: watch.Added, Object: &corev1.Event{}})
			return fed(ev, false), nil
		},
	}
	for name, stream := range cases {
		t.Run(name, func(t *testing.T) {
			cl, _ := streamCluster(t, stream)
			perHPA, lists, watches := countPods(t, cl)
			wantOnePodEach(t, perHPA)
			if lists != 1 || watches != 1 {
				t.Errorf("%d pod lists and %d watches, want 1 and 1", lists, watches)
			}
		})
	}
}

// A cancelled read ends the stream with the context's error, without a
// fallback list.
func TestStreamInitialCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	w := watch.NewFake()
	defer w.Stop()
	go func() {
		w.Add(&corev1.Pod{})
		cancel()
	}()
	n := 0
	done, err := streamInitial(ctx, func(context.Context, metav1.ListOptions) (watch.Interface, error) { return w, nil },
		func(runtime.Object) bool { n++; return true })
	if !done || err == nil {
		t.Errorf("done %t err %v, want done with the context's error", done, err)
	}
}
