// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

// pagedCluster is the many-HPA cluster of TestManyListsOnce (two namespaces,
// three HPAs each, a pod per HPA, and a stray pod of a namespace without
// HPAs), its pods also served in protobuf, whole or in pages, by an HTTP
// server whose answers page can change.
func pagedCluster(t *testing.T, page func(w http.ResponseWriter, r *http.Request, body []byte) bool) (*cluster, *Clients, *podServer) {
	t.Helper()
	var objs []runtime.Object
	var pods []corev1.Pod
	var pms []metricsv1beta1.PodMetrics
	for _, ns := range []string{"a", "b"} {
		for i := range 3 {
			name := fmt.Sprintf("app%d", i)
			p := podObj(ns, name+"-pod", name)
			p.Annotations = map[string]string{"dropped": "yes"}
			p.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate}}
			objs = append(objs, hpaObj(ns, name, name, cpu50), p, deploymentObj(ns, name, 2))
			pods = append(pods, *p)
			pms = append(pms, podMetric(ns, name+"-pod", name, "250m"))
		}
	}
	other := podObj("c", "stray", "stray")
	objs = append(objs, other)
	pods = append(pods, *other)
	cl := newCluster(objs, map[string]string{}, pms)
	srv := &podServer{t: t, pods: pods, page: page, podMetrics: pms}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	c := cl.clients()
	kube, err := NewClients(&rest.Config{Host: hs.URL})
	if err != nil {
		t.Fatal(err)
	}
	c.PodREST, c.MetricsREST = kube.PodREST, kube.MetricsREST
	return cl, c, srv
}

// podServer answers pod lists as the API server does in protobuf, all the
// pods at once or, with a limit, a page with a continue token, unless page
// answers first; and PodMetrics
// lists, whole, in protobuf unless metrics answers first.
type podServer struct {
	t          *testing.T
	pods       []corev1.Pod
	page       func(w http.ResponseWriter, r *http.Request, body []byte) bool
	podMetrics []metricsv1beta1.PodMetrics
	metrics    func(w http.ResponseWriter) bool
	mu         sync.Mutex
	requests   []string // of pods
	metricsReq []string
}

func (s *podServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if strings.HasPrefix(r.URL.Path, "/apis/metrics.k8s.io/") {
		s.metricsReq = append(s.metricsReq, r.URL.RequestURI())
		s.mu.Unlock()
		if s.metrics != nil && s.metrics(w) {
			return
		}
		w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
		_, _ = w.Write(encodeMetricsProtobuf(s.t, &metricsv1beta1.PodMetricsList{Items: s.podMetrics}))
		return
	}
	s.requests = append(s.requests, r.URL.RequestURI())
	s.mu.Unlock()
	from, _ := strconv.Atoi(r.URL.Query().Get("continue"))
	to := len(s.pods)
	if limit, _ := strconv.Atoi(r.URL.Query().Get("limit")); limit > 0 {
		to = min(from+limit, len(s.pods))
	}
	list := &corev1.PodList{Items: s.pods[from:to]}
	if to < len(s.pods) {
		list.Continue = strconv.Itoa(to)
	}
	body := encodeProtobuf(s.t, list)
	if s.page != nil && s.page(w, r, body) {
		return
	}
	w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
	_, _ = w.Write(body)
}

// encodeProtobuf encodes a core/v1 object as the API server does in
// protobuf.
func encodeProtobuf(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	return encodeProtobufWith(t, scheme.Codecs, corev1.SchemeGroupVersion, obj)
}

func encodeProtobufWith(t *testing.T, codecs serializer.CodecFactory, gv schema.GroupVersion, obj runtime.Object) []byte {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok {
		t.Fatal("no protobuf serializer")
	}
	var buf bytes.Buffer
	if err := codecs.EncoderForVersion(info.Serializer, gv).Encode(obj, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// replayAll runs a many-HPA read with c, in pages of pageSize pods (0: the
// default), and hands each result to fn; it returns how many there were.
func replayAll(t *testing.T, c *Clients, pageSize int64, fn func(*Result)) int {
	t.Helper()
	scope, err := List(context.Background(), c, ManyOptions{Options: Options{Now: now, PageSize: pageSize}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := scope.Each(context.Background(), func(r *Result) error {
		n++
		fn(r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// countPods runs a many-HPA read (pageSize as replayAll's) and returns the
// number of pods each HPA got, and the pod lists made through the fake
// client.
func countPods(t *testing.T, cl *cluster, c *Clients, pageSize int64) (perHPA map[string]int, fakeLists int) {
	t.Helper()
	perHPA = map[string]int{}
	replayAll(t, c, pageSize, func(r *Result) {
		perHPA[r.Snapshot.HPA.Namespace+"/"+r.Snapshot.HPA.Name] = len(r.Snapshot.Pods)
		for _, p := range r.Snapshot.Pods {
			if len(p.ManagedFields) != 0 || len(p.Annotations) != 0 {
				t.Errorf("pod %s not reduced", p.Name)
			}
		}
	})
	for _, a := range cl.kube.Actions() {
		if a.GetResource().Resource == "pods" && a.GetNamespace() == "" && a.GetVerb() == "list" {
			fakeLists++
		}
	}
	return perHPA, fakeLists
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

// With PodREST, the pods are read in protobuf, by default in one request
// without a limit (the API server answers it from its watch cache; see
// podPageSize), in pages following the continue tokens when a page size is
// set, and decoded reduced; client-go's list is not used.
func TestManyReadsPodPages(t *testing.T) {
	for _, tc := range []struct {
		pageSize int64
		want     []string
	}{
		{0, []string{"/api/v1/pods"}},
		{2, []string{
			"/api/v1/pods?limit=2",
			"/api/v1/pods?continue=2&limit=2",
			"/api/v1/pods?continue=4&limit=2",
			"/api/v1/pods?continue=6&limit=2",
		}},
	} {
		t.Run(fmt.Sprintf("page size %d", tc.pageSize), func(t *testing.T) {
			cl, c, srv := pagedCluster(t, nil)
			perHPA, fakeLists := countPods(t, cl, c, tc.pageSize)
			wantOnePodEach(t, perHPA)
			if fakeLists != 0 {
				t.Errorf("%d client-go pod lists, want 0", fakeLists)
			}
			if fmt.Sprint(srv.requests) != fmt.Sprint(tc.want) {
				t.Errorf("requests %v, want %v", srv.requests, tc.want)
			}
		})
	}
}

// Where a page is refused or is not a whole protobuf PodList, the pods are
// read again from scratch with client-go's paged list: every HPA gets its
// pod once, none twice from the pages read before.
func TestManyPodPagesFallBack(t *testing.T) {
	// The third page of two pods, or the one answer without a limit.
	second := func(r *http.Request) bool {
		return r.URL.Query().Get("continue") == "4" || r.URL.Query().Get("limit") == ""
	}
	cases := map[string]func(w http.ResponseWriter, r *http.Request, body []byte) bool{
		"JSON": func(w http.ResponseWriter, _ *http.Request, _ []byte) bool {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]}`)
			return true
		},
		"continue token expired": func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
			if !second(r) {
				return false
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusGone)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}`)
			return true
		},
		"page cut short": func(w http.ResponseWriter, r *http.Request, body []byte) bool {
			if !second(r) {
				return false
			}
			w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
			_, _ = w.Write(body[:len(body)-5])
			return true
		},
		"not a pod list": func(w http.ResponseWriter, _ *http.Request, _ []byte) bool {
			w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
			_, _ = w.Write(encodeProtobuf(t, &corev1.ConfigMapList{Items: []corev1.ConfigMap{{ObjectMeta: metav1.ObjectMeta{Name: "x"}}}}))
			return true
		},
		"forbidden": func(w http.ResponseWriter, _ *http.Request, _ []byte) bool {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403}`)
			return true
		},
	}
	for name, page := range cases {
		for _, pageSize := range []int64{0, 2} {
			t.Run(fmt.Sprintf("%s, page size %d", name, pageSize), func(t *testing.T) {
				cl, c, _ := pagedCluster(t, page)
				perHPA, fakeLists := countPods(t, cl, c, pageSize)
				wantOnePodEach(t, perHPA)
				if fakeLists != 1 {
					t.Errorf("%d client-go pod lists, want 1", fakeLists)
				}
			})
		}
	}
}

// A cancelled read ends with the context's error, without a fallback.
func TestReadPodPagesCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cl, c, _ := pagedCluster(t, func(http.ResponseWriter, *http.Request, []byte) bool {
		cancel()
		return false
	})
	s := &Scope{c: c}
	done, err := s.readPodPages(ctx, func(*corev1.Pod) {})
	if !done || err == nil {
		t.Errorf("done %t err %v, want done with the context's error", done, err)
	}
	if n := len(cl.kube.Actions()); n != 0 {
		t.Errorf("%d client-go requests after the cancel", n)
	}
}

// The replays of a namespace's HPAs are handed over while the pods of the
// namespaces after it are still being read: in pages of two, the third
// page waits until namespace a's three HPAs are out; in one answer, the
// answer stops in the middle of namespace b's second pod until then.
func TestManyReplaysWhileReading(t *testing.T) {
	for _, pageSize := range []int64{0, 2} {
		t.Run(fmt.Sprintf("page size %d", pageSize), func(t *testing.T) {
			emitted := make(chan struct{})
			wait := func() {
				select {
				case <-emitted:
				case <-time.After(20 * time.Second):
					t.Error("namespace a's HPAs were not handed over before the rest of the pods came")
				}
			}
			_, c, _ := pagedCluster(t, func(w http.ResponseWriter, r *http.Request, body []byte) bool {
				switch {
				case r.URL.Query().Get("continue") == "4":
					wait()
				case r.URL.Query().Get("limit") == "":
					// The second "app1-pod" is b's, after b/app0 (which
					// completes namespace a).
					first := bytes.Index(body, []byte("app1-pod"))
					cut := first + 1 + bytes.Index(body[first+1:], []byte("app1-pod"))
					if first < 0 || cut <= first {
						t.Error("namespace b's second pod not found in the answer")
						return false
					}
					w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
					_, _ = w.Write(body[:cut])
					w.(http.Flusher).Flush()
					wait()
					_, _ = w.Write(body[cut:])
					return true
				}
				return false
			})
			n := 0
			replayAll(t, c, pageSize, func(r *Result) {
				n++
				if len(r.Snapshot.Pods) != 1 {
					t.Errorf("%s: %d pods", r.Snapshot.HPA.Name, len(r.Snapshot.Pods))
				}
				if n == 3 {
					close(emitted)
				}
			})
		})
	}
}

// Pods that come out of namespace order make the read fail, rather than
// replays that may miss pods.
func TestManyPodsOutOfOrder(t *testing.T) {
	_, c, srv := pagedCluster(t, nil)
	// b's pods first, then a's, then b's again.
	srv.pods = append([]corev1.Pod{srv.pods[3]}, append(srv.pods[:3:3], srv.pods[4:]...)...)
	scope, err := List(context.Background(), c, ManyOptions{Options: Options{Now: now}})
	if err != nil {
		t.Fatal(err)
	}
	err = scope.Each(context.Background(), func(*Result) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "out of namespace order") {
		t.Errorf("Each: %v, want the order error", err)
	}
}

// The next page is asked for as soon as a page's continue token is read,
// before its pods: the first page stops after its metadata until the
// second is requested.
func TestManyAsksForTheNextPageEarly(t *testing.T) {
	second := make(chan struct{})
	var once sync.Once
	cl, c, _ := pagedCluster(t, func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		switch r.URL.Query().Get("continue") {
		case "2":
			once.Do(func() { close(second) })
		case "":
			// The envelope, the list's metadata (continue "2") and the
			// start of the first pod; then the rest once page two is asked.
			head := 60
			if !bytes.Contains(body[:head], []byte{0x1a, 0x01, '2'}) {
				t.Errorf("the first %d bytes do not hold the continue token", head)
			}
			w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
			_, _ = w.Write(body[:head])
			w.(http.Flusher).Flush()
			select {
			case <-second:
			case <-time.After(20 * time.Second):
				t.Error("page two was not asked for while page one was read")
			}
			_, _ = w.Write(body[head:])
			return true
		}
		return false
	})
	perHPA, fakeLists := countPods(t, cl, c, 2)
	wantOnePodEach(t, perHPA)
	if fakeLists != 0 {
		t.Errorf("%d client-go pod lists, want 0", fakeLists)
	}
}

// A page whose metadata comes after its pods, with more pods than the
// page size asked for, is read whole: the reader takes pods while it waits
// for the continue token.
func TestManyPageMetadataAfterPods(t *testing.T) {
	cl, c, srv := pagedCluster(t, nil)
	srv.page = func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
		var raw []byte
		from, to := 0, 5 // five pods in the first page, then the last two
		if r.URL.Query().Get("continue") != "" {
			from, to = 5, len(srv.pods)
		}
		for i := from; i < to; i++ {
			b, err := srv.pods[i].Marshal()
			if err != nil {
				t.Error(err)
			}
			raw = protowire.AppendTag(raw, 2, protowire.BytesType)
			raw = protowire.AppendBytes(raw, b)
		}
		meta := metav1.ListMeta{}
		if to < len(srv.pods) {
			meta.Continue = "5"
		}
		mb, _ := meta.Marshal()
		raw = protowire.AppendTag(raw, 1, protowire.BytesType)
		raw = protowire.AppendBytes(raw, mb)
		tm, _ := (&runtime.TypeMeta{APIVersion: "v1", Kind: "PodList"}).Marshal()
		body := append([]byte{}, protobufMagic...)
		body = protowire.AppendTag(body, 1, protowire.BytesType)
		body = protowire.AppendBytes(body, tm)
		body = protowire.AppendTag(body, 2, protowire.BytesType)
		body = protowire.AppendBytes(body, raw)
		w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
		_, _ = w.Write(body)
		return true
	}
	scope, err := List(context.Background(), c, ManyOptions{Options: Options{Now: now, PageSize: 2}})
	if err != nil {
		t.Fatal(err)
	}
	perHPA := map[string]int{}
	done := make(chan error, 1)
	go func() {
		done <- scope.Each(context.Background(), func(r *Result) error {
			perHPA[r.Snapshot.HPA.Namespace+"/"+r.Snapshot.HPA.Name] = len(r.Snapshot.Pods)
			return nil
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the read is stuck")
	}
	wantOnePodEach(t, perHPA)
	for _, a := range cl.kube.Actions() {
		if a.GetResource().Resource == "pods" {
			t.Errorf("client-go %s of pods: the protobuf pages were not read", a.GetVerb())
		}
	}
}

// With MetricsREST, the PodMetrics are read in protobuf and decoded as they
// arrive, reduced; an answer in JSON, a failure or a cut body is asked for
// again with client-go. Either way every HPA gets its pod's metrics.
func TestManyReadsPodMetricsStream(t *testing.T) {
	cases := map[string]struct {
		answer   func(w http.ResponseWriter) bool
		fallback bool
	}{
		"protobuf": {nil, false},
		"JSON": {func(w http.ResponseWriter) bool {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"kind":"PodMetricsList","apiVersion":"metrics.k8s.io/v1beta1","metadata":{},"items":[]}`)
			return true
		}, true},
		"unavailable": {func(w http.ResponseWriter) bool {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"ServiceUnavailable","code":503}`)
			return true
		}, true},
		"cut short": {func(w http.ResponseWriter) bool {
			body := encodeMetricsProtobuf(t, &metricsv1beta1.PodMetricsList{Items: []metricsv1beta1.PodMetrics{podMetric("a", "app0-pod", "app0", "1")}})
			w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
			_, _ = w.Write(body[:len(body)-7])
			return true
		}, true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cl, c, srv := pagedCluster(t, nil)
			srv.metrics = tc.answer
			n := replayAll(t, c, 0, func(r *Result) {
				s := r.Snapshot
				if len(s.PodMetrics) != 1 || s.PodMetrics[0].Name != s.HPA.Name+"-pod" || s.PodMetrics[0].Containers[0].Usage.Cpu().MilliValue() != 250 {
					t.Errorf("%s: PodMetrics %+v, API errors %v", s.HPA.Name, s.PodMetrics, s.APIErrors)
				}
				if len(s.PodMetrics) == 1 && (s.PodMetrics[0].Annotations != nil || s.PodMetrics[0].ManagedFields != nil) {
					t.Errorf("%s: PodMetrics not reduced", s.HPA.Name)
				}
			})
			if n != 6 {
				t.Fatalf("%d HPAs", n)
			}
			fakeLists := 0
			for _, a := range cl.metrics.Actions() {
				if a.GetVerb() == "list" {
					fakeLists++
				}
			}
			if want := map[bool]int{false: 0, true: 1}[tc.fallback]; fakeLists != want {
				t.Errorf("%d client-go PodMetrics lists, want %d", fakeLists, want)
			}
			if fmt.Sprint(srv.metricsReq) != "[/apis/metrics.k8s.io/v1beta1/pods]" {
				t.Errorf("metrics requests %v", srv.metricsReq)
			}
		})
	}
}
