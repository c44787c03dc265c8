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
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/pager"
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
	// Parallel bounds the concurrent per-HPA queries (default 8).
	Parallel int
	// Progress, if set, is called after each HPA is gathered.
	Progress func(done, total int)
}

// Scope is everything a many-HPA gather reads once and shares between the
// HPAs: the HPAs themselves, and for the whole scope (one namespace or the
// cluster) the pods, PodMetrics, HPA events, ReplicaSets and the workloads
// the HPAs scale, each listed page by page and reduced, as pages arrive, to
// the fields a replay uses. The number of requests grows with the pages of
// these lists, not with the number of HPAs.
type Scope struct {
	c    *Clients
	opts ManyOptions

	// HPAs are sorted by namespace and name.
	HPAs []*autoscalingv2.HorizontalPodAutoscaler

	board       *podBoard                               // the pods, by namespace, reduced, as they are read
	podMetrics  map[string][]*metricsv1beta1.PodMetrics // into the list's items
	metricsErr  error
	events      map[string][]corev1.Event // by namespace/name of the HPA
	eventsErr   error
	replicaSets map[string][]appsv1.ReplicaSet
	targets     map[string]engine.Target // by namespace/name of the HPA
	warnings    []string
}

// List reads the HPAs of the scope and everything they share.
func List(ctx context.Context, c *Clients, opts ManyOptions) (*Scope, error) {
	s := &Scope{c: c, opts: opts}
	// The PodMetrics are asked for before the HPAs are listed: metrics-server
	// assembles its one whole answer meanwhile, and a slow one (busy, or
	// held to a small CPU limit) delays the replays less. At 20,000 pods,
	// with metrics-server at the lowest CPU priority and asked for with the
	// other lists, it was the last answer, 0.3-0.6 s in. When no HPA of the
	// scope has a resource metric it is cancelled and its answer dropped.
	early := s.fetchPodMetricsEarly(ctx)
	defer early.drop()
	if err := s.listHPAs(ctx); err != nil {
		return nil, err
	}
	if len(s.HPAs) == 0 {
		return s, nil
	}
	kinds := map[string]bool{}
	resource := false
	for _, h := range s.HPAs {
		ref := h.Spec.ScaleTargetRef
		gv, _ := schema.ParseGroupVersion(ref.APIVersion)
		kinds[gv.Group+"/"+ref.Kind] = true
		for _, m := range h.Spec.Metrics {
			if m.Type == autoscalingv2.ResourceMetricSourceType || m.Type == autoscalingv2.ContainerResourceMetricSourceType {
				resource = true
			}
		}
	}
	var wg sync.WaitGroup
	run := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	var workloads workloadLists
	// The pods are read in the background: Each replays a namespace's HPAs
	// as soon as its pods are in (podBoard).
	s.board = newPodBoard(s.namespaces())
	go func() { s.board.finish(s.listPods(ctx)) }()
	run(func() { s.eventsErr = s.listEvents(ctx) })
	if resource {
		run(func() { s.metricsErr = s.filePodMetrics(early.wait()) })
	}
	// ReplicaSets are listed for the owner chains of Deployments (foreign
	// pods) and as targets.
	run(func() { workloads.rsErr = s.listReplicaSets(ctx, &workloads) })
	if kinds["apps/Deployment"] {
		run(func() { workloads.deployErr = s.listDeployments(ctx, &workloads) })
	}
	if kinds["apps/StatefulSet"] {
		run(func() { workloads.stsErr = s.listStatefulSets(ctx, &workloads) })
	}
	if kinds["/ReplicationController"] {
		run(func() { workloads.rcErr = s.listReplicationControllers(ctx, &workloads) })
	}
	wg.Wait()
	s.resolveTargets(ctx, &workloads)
	return s, nil
}

// Warnings are what the scope could not read; the replays go on without it.
func (s *Scope) Warnings() []string { return s.warnings }

func (s *Scope) listOptions() metav1.ListOptions {
	return metav1.ListOptions{Limit: s.pageSize()}
}

// sharedPageSize is the page size of the shared lists (HPAs, events,
// ReplicaSets, workloads). client-go decodes a page whole before its items
// are reduced, so a page bounds that transient memory (a few MB at 2,000
// objects); the pages of one list come one after another, so fewer of them
// shorten the read (events: 5 pages of 500 took 0.3-0.5 s of the 0.4-0.75 s
// before the first replay at 1,000 HPAs).
const sharedPageSize = 2000

func (s *Scope) pageSize() int64 {
	if s.opts.PageSize > 0 {
		return s.opts.PageSize
	}
	return sharedPageSize
}

// each lists page by page (client-go's pager: a list whose continue token
// expires is read again whole) and hands each item to fn.
func (s *Scope) each(ctx context.Context, list func(context.Context, metav1.ListOptions) (runtime.Object, error), opts metav1.ListOptions, fn func(runtime.Object) error) error {
	p := pager.New(list)
	p.PageSize = s.pageSize()
	return p.EachListItem(ctx, opts, fn)
}

func (s *Scope) listHPAs(ctx context.Context) error {
	api := s.c.Kube.AutoscalingV2().HorizontalPodAutoscalers(s.opts.Namespace)
	opts := s.listOptions()
	opts.LabelSelector = s.opts.LabelSelector
	err := s.each(ctx, func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return api.List(ctx, o) }, opts,
		func(obj runtime.Object) error {
			h := obj.(*autoscalingv2.HorizontalPodAutoscaler)
			h.ManagedFields = nil
			s.HPAs = append(s.HPAs, h)
			return nil
		})
	if err != nil {
		where := fmt.Sprintf("namespace %q", s.opts.Namespace)
		if s.opts.Namespace == "" {
			where = "all namespaces"
		}
		return fmt.Errorf("list horizontalpodautoscalers in %s: %w", where, err)
	}
	sort.Slice(s.HPAs, func(i, j int) bool {
		if s.HPAs[i].Namespace != s.HPAs[j].Namespace {
			return s.HPAs[i].Namespace < s.HPAs[j].Namespace
		}
		return s.HPAs[i].Name < s.HPAs[j].Name
	})
	return nil
}

// namespaces are the namespaces of the HPAs: pods and the like of other
// namespaces are dropped as they arrive.
func (s *Scope) namespaces() map[string]bool {
	out := map[string]bool{}
	for _, h := range s.HPAs {
		out[h.Namespace] = true
	}
	return out
}

func (s *Scope) listPods(ctx context.Context) error {
	if s.c.PodREST != nil {
		// The pages' pods come reduced (decodeReducedPod).
		if done, err := s.readPodPages(ctx, s.board.add); done {
			return err
		}
		s.board.restart()
	}
	// Clients without PodREST (fakes), or a server that did not answer
	// with protobuf pages: client-go's paged list, from scratch.
	api := s.c.Kube.CoreV1().Pods(s.opts.Namespace)
	return s.each(ctx, func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return api.List(ctx, o) }, s.listOptions(),
		func(obj runtime.Object) error {
			// A reduced copy: the item is part of its page, which is not kept.
			p := ReducePod(obj.(*corev1.Pod))
			s.board.add(&p)
			return nil
		})
}

// podPageSize is the page size of the pod read; 0, the default, reads all
// the scope's pods in one request. The API server answers a list without a
// limit from its watch cache (a consistent read, since ConsistentListFromCache:
// beta and on from Kubernetes v1.31, GA in v1.34). The second and later
// pages of a paginated list come from etcd before v1.34; from v1.34
// (ListFromCacheSnapshot) they come from the cache only while it holds a
// snapshot of the pods at the first page's resource version, and it drops
// those at each etcd compaction (every 5 minutes) unless a pod changed
// since. On a quiet cluster every later page is then read from etcd and
// decoded again (at 20,000 pods, a median 0.73 s of API server CPU per run
// against 0.66 s in one request; docs/performance.md). The client holds one
// encoded pod at a time either way (readPodList). Tests set
// ManyOptions.PageSize to read pages.
const podPageSize = 0

// podBuffer is how many decoded pods a pod read keeps ahead of the board
// when it is read in one request; a page is buffered whole.
const podBuffer = 1024

func (s *Scope) podPageSize() int64 {
	if s.opts.PageSize > 0 {
		return s.opts.PageSize
	}
	return podPageSize
}

// readPodPages reads the scope's pods page by page in protobuf, decoding
// each page's body as it arrives into reduced pods (readPodList), so that
// neither a page nor a full pod is ever held. A page's continue token comes
// before its pods: the next page is asked for as soon as it is known, so
// that the API server encodes the two at once. done is false when the pods
// must be read another way, from scratch: the server refused a page (an
// expired continue token, say) or answered something else than a protobuf
// PodList, or a page broke off.
func (s *Scope) readPodPages(ctx context.Context, add func(*corev1.Pod)) (done bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	page := s.fetchPodPage(ctx, "")
	for {
		// The pods are taken while waiting for the token: a page whose
		// metadata came after its pods must not wait on a full channel.
		var next *podPage
		conts, pods := page.cont, page.pods
		for pods != nil || conts != nil {
			select {
			case cont, ok := <-conts:
				conts = nil
				if ok && cont != "" {
					next = s.fetchPodPage(ctx, cont)
				}
			case p, ok := <-pods:
				if !ok {
					pods = nil
					continue
				}
				add(p)
			}
		}
		if ctx.Err() != nil {
			return true, ctx.Err()
		}
		if page.err != nil {
			return false, nil
		}
		if next == nil {
			return true, nil
		}
		page = next
	}
}

// podPage is one page of a pod read, being read: its continue token (sent
// once known; the channel is closed without it if the page fails first),
// its pods as they are decoded, and its error once pods is closed.
type podPage struct {
	cont chan string
	pods chan *corev1.Pod
	err  error
}

// fetchPodPage starts reading the page at continue token cont. Its pods
// channel holds a whole page, so that a page read ahead does not wait for
// the one before it (podBuffer pods when the pods come in one answer).
func (s *Scope) fetchPodPage(ctx context.Context, cont string) *podPage {
	p := &podPage{cont: make(chan string, 1), pods: make(chan *corev1.Pod, max(s.podPageSize(), podBuffer))}
	go func() {
		defer close(p.pods)
		sent := false
		defer func() {
			if !sent {
				close(p.cont)
			}
		}()
		body, err := s.c.PodREST.Get().Namespace(s.opts.Namespace).Resource("pods").
			VersionedParams(&metav1.ListOptions{Limit: s.podPageSize(), Continue: cont}, scheme.ParameterCodec).Stream(ctx)
		if err != nil {
			p.err = err
			return
		}
		defer body.Close()
		_, p.err = readPodList(body, func(c string) {
			if !sent {
				p.cont <- c
				sent = true
			}
		}, func(pod *corev1.Pod) {
			select {
			case p.pods <- pod:
			case <-ctx.Done():
			}
		})
	}()
	return p
}

// earlyPodMetrics is a PodMetrics list asked for before it is known to be
// needed.
type earlyPodMetrics struct {
	cancel context.CancelFunc
	done   chan struct{}
	items  []*metricsv1beta1.PodMetrics
	err    error
}

func (s *Scope) fetchPodMetricsEarly(ctx context.Context) *earlyPodMetrics {
	ctx, cancel := context.WithCancel(ctx)
	e := &earlyPodMetrics{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(e.done)
		e.items, e.err = s.fetchPodMetrics(ctx)
	}()
	return e
}

// wait returns the answer.
func (e *earlyPodMetrics) wait() ([]*metricsv1beta1.PodMetrics, error) {
	<-e.done
	return e.items, e.err
}

// drop cancels the request if it is still out and waits for it to end.
func (e *earlyPodMetrics) drop() {
	e.cancel()
	<-e.done
}

// fetchPodMetrics reads the scope's PodMetrics, reduced (reducePodMetrics).
// metrics.k8s.io answers a list whole; it has no pages. With MetricsREST the
// protobuf answer is decoded as it arrives; an answer in another encoding,
// or one that fails or breaks off, is asked for again with client-go, whose
// error is the one reported.
func (s *Scope) fetchPodMetrics(ctx context.Context) ([]*metricsv1beta1.PodMetrics, error) {
	if s.c.MetricsREST != nil {
		if items, err := s.readPodMetrics(ctx); err == nil || ctx.Err() != nil {
			return items, err
		}
	}
	l, err := s.c.Metrics.MetricsV1beta1().PodMetricses(s.opts.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	items := make([]*metricsv1beta1.PodMetrics, len(l.Items))
	for i := range l.Items {
		pm := reducePodMetrics(&l.Items[i])
		items[i] = &pm
	}
	return items, nil
}

func (s *Scope) readPodMetrics(ctx context.Context) ([]*metricsv1beta1.PodMetrics, error) {
	body, err := s.c.MetricsREST.Get().Namespace(s.opts.Namespace).Resource("pods").Stream(ctx)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	var items []*metricsv1beta1.PodMetrics
	err = readPodMetricsList(body, func(pm *metricsv1beta1.PodMetrics) { items = append(items, pm) })
	return items, err
}

func (s *Scope) listPodMetrics(ctx context.Context) error {
	return s.filePodMetrics(s.fetchPodMetrics(ctx))
}

// filePodMetrics keeps the PodMetrics of the scope's namespaces, by namespace.
func (s *Scope) filePodMetrics(items []*metricsv1beta1.PodMetrics, err error) error {
	if err != nil {
		return err
	}
	keep := s.namespaces()
	s.podMetrics = map[string][]*metricsv1beta1.PodMetrics{}
	for _, pm := range items {
		if keep[pm.Namespace] {
			s.podMetrics[pm.Namespace] = append(s.podMetrics[pm.Namespace], pm)
		}
	}
	return nil
}

func (s *Scope) listEvents(ctx context.Context) error {
	api := s.c.Kube.CoreV1().Events(s.opts.Namespace)
	opts := s.listOptions()
	opts.FieldSelector = "involvedObject.kind=HorizontalPodAutoscaler"
	hpas := map[string]bool{}
	for _, h := range s.HPAs {
		hpas[h.Namespace+"/"+h.Name] = true
	}
	s.events = map[string][]corev1.Event{}
	return s.each(ctx, func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return api.List(ctx, o) }, opts,
		func(obj runtime.Object) error {
			e := obj.(*corev1.Event)
			key := e.InvolvedObject.Namespace + "/" + e.InvolvedObject.Name
			if e.InvolvedObject.Namespace == "" {
				key = e.Namespace + "/" + e.InvolvedObject.Name
			}
			if hpas[key] {
				s.events[key] = append(s.events[key], ReduceEvent(e))
			}
			return nil
		})
}

// workloadLists are the listed workloads, by namespace/name, and the errors
// of their lists.
type workloadLists struct {
	mu                              sync.Mutex
	targets                         map[string]engine.Target // by group/kind/namespace/name
	rsErr, deployErr, stsErr, rcErr error
}

func (w *workloadLists) add(group, kind, ns string, t engine.Target) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.targets == nil {
		w.targets = map[string]engine.Target{}
	}
	w.targets[group+"/"+kind+"/"+ns+"/"+t.Name] = t
}

// listApps reads an apps/v1 list whole (listWhole) when the clients can,
// else page by page with client-go (list), and returns what take makes of
// the items it keeps (ok). What a whole read took before it failed is
// dropped, so the pages never add an item twice.
func listApps[T any, PT interface {
	protoItem[T]
	runtime.Object
}, R any](ctx context.Context, s *Scope, resource, listKind string, list func(context.Context, metav1.ListOptions) (runtime.Object, error), take func(PT) (R, bool)) ([]R, error) {
	var got []R
	add := func(o PT) {
		if r, ok := take(o); ok {
			got = append(got, r)
		}
	}
	if s.c.AppsREST != nil {
		err := listWhole[T, PT](ctx, s.c.AppsREST, s.opts.Namespace, resource, "apps/v1", listKind, add)
		if err == nil {
			return got, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		got = nil
	}
	err := s.each(ctx, list, s.listOptions(), func(obj runtime.Object) error {
		o, ok := obj.(PT)
		if !ok {
			return fmt.Errorf("list %s: got a %T", resource, obj)
		}
		add(o)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return got, nil
}

func (s *Scope) listReplicaSets(ctx context.Context, w *workloadLists) error {
	keep := s.namespaces()
	// What the replays read of a ReplicaSet: its name and owners (the pods'
	// controller chain) and its scale.
	type rs struct {
		r appsv1.ReplicaSet
		t engine.Target
	}
	api := s.c.Kube.AppsV1().ReplicaSets(s.opts.Namespace)
	got, err := listApps(ctx, s, "replicasets", "ReplicaSetList",
		func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return api.List(ctx, o) },
		func(r *appsv1.ReplicaSet) (rs, bool) {
			return rs{appsv1.ReplicaSet{
				ObjectMeta: metav1.ObjectMeta{Name: r.Name, Namespace: r.Namespace, OwnerReferences: r.OwnerReferences},
			}, engine.TargetOfReplicaSet(r)}, keep[r.Namespace]
		})
	if err != nil {
		return err
	}
	s.replicaSets = map[string][]appsv1.ReplicaSet{}
	for _, r := range got {
		w.add("apps", "ReplicaSet", r.r.Namespace, r.t)
		s.replicaSets[r.r.Namespace] = append(s.replicaSets[r.r.Namespace], r.r)
	}
	return nil
}

func (s *Scope) listDeployments(ctx context.Context, w *workloadLists) error {
	api := s.c.Kube.AppsV1().Deployments(s.opts.Namespace)
	return listScaled(ctx, s, w, "deployments", "DeploymentList", "Deployment", engine.TargetOfDeployment,
		func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return api.List(ctx, o) })
}

func (s *Scope) listStatefulSets(ctx context.Context, w *workloadLists) error {
	api := s.c.Kube.AppsV1().StatefulSets(s.opts.Namespace)
	return listScaled(ctx, s, w, "statefulsets", "StatefulSetList", "StatefulSet", engine.TargetOfStatefulSet,
		func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return api.List(ctx, o) })
}

// listScaled files the scale (target) of every listed apps/v1 workload of
// kind (listApps).
func listScaled[T any, PT interface {
	protoItem[T]
	runtime.Object
	GetNamespace() string
}](ctx context.Context, s *Scope, w *workloadLists, resource, listKind, kind string, target func(PT) engine.Target, list func(context.Context, metav1.ListOptions) (runtime.Object, error)) error {
	// The scales only: a listed object is not kept.
	type nsTarget struct {
		ns string
		t  engine.Target
	}
	got, err := listApps(ctx, s, resource, listKind, list, func(o PT) (nsTarget, bool) {
		return nsTarget{o.GetNamespace(), target(o)}, true
	})
	if err != nil {
		return err
	}
	for _, t := range got {
		w.add("apps", kind, t.ns, t.t)
	}
	return nil
}

func (s *Scope) listReplicationControllers(ctx context.Context, w *workloadLists) error {
	api := s.c.Kube.CoreV1().ReplicationControllers(s.opts.Namespace)
	return s.each(ctx, func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return api.List(ctx, o) }, s.listOptions(),
		func(obj runtime.Object) error {
			rc := obj.(*corev1.ReplicationController)
			w.add("", "ReplicationController", rc.Namespace, engine.TargetOfReplicationController(rc))
			return nil
		})
}

// resolveTargets gives every HPA the scale of its target: from the listed
// workload for the built-in kinds (a missing one gets the NotFound error the
// scale GET would give), else from a scale GET, as the controller makes it
// (custom resources, or a workload list that failed).
func (s *Scope) resolveTargets(ctx context.Context, w *workloadLists) {
	listErr := map[string]error{
		"apps/ReplicaSet": w.rsErr, "apps/Deployment": w.deployErr,
		"apps/StatefulSet": w.stsErr, "/ReplicationController": w.rcErr,
	}
	resources := map[string]schema.GroupResource{
		"apps/ReplicaSet": {Group: "apps", Resource: "replicasets"}, "apps/Deployment": {Group: "apps", Resource: "deployments"},
		"apps/StatefulSet": {Group: "apps", Resource: "statefulsets"}, "/ReplicationController": {Resource: "replicationcontrollers"},
	}
	s.targets = make(map[string]engine.Target, len(s.HPAs))
	var get []*autoscalingv2.HorizontalPodAutoscaler
	warned := map[string]bool{}
	for _, h := range s.HPAs {
		ref := h.Spec.ScaleTargetRef
		gv, err := schema.ParseGroupVersion(ref.APIVersion)
		gk := gv.Group + "/" + ref.Kind
		gr, builtin := resources[gk]
		switch {
		case err != nil || !builtin:
			get = append(get, h)
			continue
		case listErr[gk] != nil:
			if !warned[gk] {
				warned[gk] = true
				s.warnings = append(s.warnings, fmt.Sprintf("could not list %s (%s): reading the scale of each HPA's target instead", gr.String(), shortErr(listErr[gk])))
			}
			get = append(get, h)
			continue
		}
		t, ok := w.targets[gk+"/"+h.Namespace+"/"+ref.Name]
		if !ok {
			t.GetError = apierrors.NewNotFound(gr, ref.Name).Error()
		}
		t.APIVersion, t.Kind, t.Name = ref.APIVersion, ref.Kind, ref.Name
		s.targets[h.Namespace+"/"+h.Name] = t
	}
	if len(get) == 0 {
		return
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, s.parallel())
	for _, h := range get {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			t := readScale(ctx, s.c, h)
			mu.Lock()
			s.targets[h.Namespace+"/"+h.Name] = t
			mu.Unlock()
		}()
	}
	wg.Wait()
}

func (s *Scope) parallel() int {
	if s.opts.Parallel > 0 {
		return s.opts.Parallel
	}
	return 8
}

// Each builds the snapshot of every HPA, in namespace and name order, and
// calls emit with it. Each HPA's own custom and external metric queries run
// ahead, a few at a time; snapshots are handed over in order and not kept.
func (s *Scope) Each(ctx context.Context, emit func(*Result) error) error {
	return EachWith(ctx, s, func(*Result) (struct{}, error) { return struct{}{}, nil },
		func(r *Result, _ struct{}, _ error) error { return emit(r) })
}

// EachWith is Each with work done on each snapshot ahead, in parallel (the
// replay, for one): emit gets each HPA's snapshot and what work made of it,
// in namespace and name order, with work's error if it failed.
func EachWith[T any](ctx context.Context, s *Scope, work func(*Result) (T, error), emit func(*Result, T, error) error) error {
	type done struct {
		r   *Result
		v   T
		err error
	}
	n := len(s.HPAs)
	results := make([]chan done, n)
	for i := range results {
		results[i] = make(chan done, 1)
	}
	sem := make(chan struct{}, s.parallel())
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		for i, h := range s.HPAs {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			go func() {
				r := s.snapshot(h)
				v, err := work(r)
				results[i] <- done{r, v, err}
			}()
		}
	}()
	for i := range results {
		var d done
		select {
		case d = <-results[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		<-sem
		if s.opts.Progress != nil {
			s.opts.Progress(i+1, n)
		}
		if err := s.outOfOrder(); err != nil {
			return err
		}
		if err := emit(d.r, d.v, d.err); err != nil {
			return err
		}
	}
	if s.board != nil {
		// The rest of the pods (of namespaces without HPAs) are read to the
		// end, for the order check.
		_, _ = s.board.wait("\xff")
	}
	return s.outOfOrder()
}

// outOfOrder is the board's order error: a replay may have missed pods.
func (s *Scope) outOfOrder() error {
	if s.board == nil {
		return nil
	}
	return s.board.order()
}

// snapshot builds one HPA's snapshot from the shared lists, querying only
// its own custom and external metrics.
func (s *Scope) snapshot(hpa *autoscalingv2.HorizontalPodAutoscaler) *Result {
	key := hpa.Namespace + "/" + hpa.Name
	res := &Result{Snapshot: &engine.Snapshot{HPA: hpa, Now: s.opts.Now, APIErrors: map[string]string{}}}
	snap := res.Snapshot
	snap.Target = s.targets[key]
	// s.HPAs are in namespace order: the namespace's HPAs are a run.
	from := sort.Search(len(s.HPAs), func(i int) bool { return s.HPAs[i].Namespace >= hpa.Namespace })
	for _, o := range s.HPAs[from:] {
		if o.Namespace != hpa.Namespace {
			break
		}
		if o.Name == hpa.Name {
			continue
		}
		if t := s.targets[o.Namespace+"/"+o.Name]; t.GetError == "" && t.Selector != "" {
			snap.OtherHPAs = append(snap.OtherHPAs, engine.HPASelector{Namespace: o.Namespace, Name: o.Name, Selector: t.Selector})
		}
	}
	if s.eventsErr != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("could not read the HPA events (%v): rescale history is not inferred from them", shortErr(s.eventsErr)))
	}
	res.Events = append(res.Events, s.events[key]...)
	sort.SliceStable(res.Events, func(i, j int) bool { return eventTime(res.Events[i]).Before(eventTime(res.Events[j])) })

	sel, selErr := labels.Parse(snap.Target.Selector)
	usable := snap.Target.GetError == "" && snap.Target.Selector != "" && selErr == nil
	if usable {
		pods, err := s.board.wait(hpa.Namespace)
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("could not list the pods: %v", shortErr(err)))
		}
		// Matched first, then copied once into a slice of the right size:
		// a replay's pods are values, and at 20,000 pods the copies add up.
		var matched []*corev1.Pod
		for _, p := range pods {
			if sel.Matches(labels.Set(p.Labels)) {
				matched = append(matched, p)
			}
		}
		if len(matched) > 0 {
			snap.Pods = make([]corev1.Pod, len(matched))
			for i, p := range matched {
				snap.Pods[i] = *p
			}
		}
	}
	snap.ForeignPods = foreignPods(snap.Target, snap.Pods, s.replicaSets[hpa.Namespace])
	metrics := metricReads(s.c, hpa, sel, usable)
	if usable && anyResourceMetric(hpa) {
		if s.metricsErr != nil {
			snap.APIErrors["resource"] = s.metricsErr.Error()
		} else {
			// Matched first, then copied once, as the pods are.
			var matched []*metricsv1beta1.PodMetrics
			for _, pm := range s.podMetrics[hpa.Namespace] {
				if sel.Matches(labels.Set(pm.Labels)) {
					matched = append(matched, pm)
				}
			}
			snap.PodMetrics = make([]metricsv1beta1.PodMetrics, len(matched))
			for i, pm := range matched {
				snap.PodMetrics[i] = *pm
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

func anyResourceMetric(h *autoscalingv2.HorizontalPodAutoscaler) bool {
	for _, m := range h.Spec.Metrics {
		if m.Type == autoscalingv2.ResourceMetricSourceType || m.Type == autoscalingv2.ContainerResourceMetricSourceType {
			return true
		}
	}
	return false
}
