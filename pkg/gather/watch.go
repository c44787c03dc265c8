// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
)

// Watch keeps the inputs of the HPAs of a scope current: informers on the
// HPAs, their pods, their events, the ReplicaSets and the built-in workloads
// they scale. An informer whose watch breaks reconnects by itself, and
// relists when its resourceVersion is too old. Metrics are not watched: each
// Scope call queries them, as the controller does at each sync. Objects are
// reduced to what a replay reads as they arrive.
type Watch struct {
	c    *Clients
	opts ManyOptions
	// name, when set, watches that one HPA.
	name string

	factories []informers.SharedInformerFactory
	hpas      cache.SharedIndexInformer
	pods      cache.SharedIndexInformer
	events    cache.SharedIndexInformer
	rss       cache.SharedIndexInformer
	deploys   cache.SharedIndexInformer
	sets      cache.SharedIndexInformer
	rcs       cache.SharedIndexInformer

	changed chan struct{}
	mu      sync.Mutex
	errs    map[string]error // the last watch error of each informer
}

// NewWatch prepares a watch of the HPAs of opts (one namespace, or all with
// opts.Namespace ""), or of the one HPA name in opts.Namespace.
func NewWatch(c *Clients, opts ManyOptions, name string) *Watch {
	w := &Watch{c: c, opts: opts, name: name, changed: make(chan struct{}, 1), errs: map[string]error{}}
	ns := informers.WithNamespace(opts.Namespace)
	newFactory := func(opt ...informers.SharedInformerOption) informers.SharedInformerFactory {
		f := informers.NewSharedInformerFactoryWithOptions(c.Kube, 0, append([]informers.SharedInformerOption{ns}, opt...)...)
		w.factories = append(w.factories, f)
		return f
	}
	hpaTweak := func(o *metav1.ListOptions) { o.LabelSelector = opts.LabelSelector }
	if name != "" {
		hpaTweak = func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("metadata.name", name).String()
		}
	}
	w.hpas = newFactory(informers.WithTweakListOptions(hpaTweak), informers.WithTransform(stripManaged)).Autoscaling().V2().HorizontalPodAutoscalers().Informer()
	eventSel := fields.OneTermEqualSelector("involvedObject.kind", "HorizontalPodAutoscaler")
	if name != "" {
		eventSel = fields.AndSelectors(eventSel, fields.OneTermEqualSelector("involvedObject.name", name))
	}
	w.events = newFactory(informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.FieldSelector = eventSel.String() }),
		informers.WithTransform(reduceObject)).Core().V1().Events().Informer()
	shared := newFactory(informers.WithTransform(reduceObject))
	w.pods = shared.Core().V1().Pods().Informer()
	w.rss = shared.Apps().V1().ReplicaSets().Informer()
	w.deploys = shared.Apps().V1().Deployments().Informer()
	w.sets = shared.Apps().V1().StatefulSets().Informer()
	w.rcs = shared.Core().V1().ReplicationControllers().Informer()
	for kind, inf := range w.informers() {
		_ = inf.SetWatchErrorHandlerWithContext(func(_ context.Context, _ *cache.Reflector, err error) {
			w.mu.Lock()
			w.errs[kind] = err
			w.mu.Unlock()
		})
		_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(any) { w.signal() },
			UpdateFunc: func(_, _ any) { w.signal() },
			DeleteFunc: func(any) { w.signal() },
		})
	}
	return w
}

func (w *Watch) informers() map[string]cache.SharedIndexInformer {
	return map[string]cache.SharedIndexInformer{
		"horizontalpodautoscalers": w.hpas, "events": w.events, "pods": w.pods, "replicasets.apps": w.rss,
		"deployments.apps": w.deploys, "statefulsets.apps": w.sets, "replicationcontrollers": w.rcs,
	}
}

func (w *Watch) signal() {
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// Changed is signalled (coalesced) whenever a watched object changes.
func (w *Watch) Changed() <-chan struct{} { return w.changed }

// Start runs the informers until ctx ends and waits until the HPAs, the
// pods and the events are listed. A workload list that keeps failing
// (forbidden, say) does not hold it up: Scope falls back to scale GETs.
func (w *Watch) Start(ctx context.Context) error {
	for _, f := range w.factories {
		f.Start(ctx.Done())
	}
	if !cache.WaitForCacheSync(ctx.Done(), w.hpas.HasSynced, w.pods.HasSynced, w.events.HasSynced) {
		if err := w.err("horizontalpodautoscalers"); err != nil {
			return fmt.Errorf("watch horizontalpodautoscalers: %w", err)
		}
		return errors.New("the watch stopped before the HPAs were listed")
	}
	// Give the workload lists a moment; they are needed only for targets.
	wait, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cache.WaitForCacheSync(wait.Done(), w.rss.HasSynced, w.deploys.HasSynced, w.sets.HasSynced, w.rcs.HasSynced)
	return nil
}

// Shutdown stops the informers' goroutines (after ctx ended).
func (w *Watch) Shutdown() {
	for _, f := range w.factories {
		f.Shutdown()
	}
}

func (w *Watch) err(kind string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.errs[kind]
}

// Errors returns the last error of each watch that failed, by resource.
func (w *Watch) Errors() map[string]error {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]error, len(w.errs))
	for k, v := range w.errs {
		out[k] = v
	}
	return out
}

// Scope builds, from the informers' caches, the scope a replay of every
// watched HPA reads now, querying the metrics APIs (and the scales the
// caches cannot answer) as the controller does at a sync.
func (w *Watch) Scope(ctx context.Context, now time.Time) (*Scope, error) {
	s := &Scope{c: w.c, opts: w.opts}
	s.opts.Now = now
	for _, o := range w.hpas.GetStore().List() {
		s.HPAs = append(s.HPAs, o.(*autoscalingv2.HorizontalPodAutoscaler).DeepCopy())
	}
	sort.Slice(s.HPAs, func(i, j int) bool {
		if s.HPAs[i].Namespace != s.HPAs[j].Namespace {
			return s.HPAs[i].Namespace < s.HPAs[j].Namespace
		}
		return s.HPAs[i].Name < s.HPAs[j].Name
	})
	if len(s.HPAs) == 0 {
		return s, nil
	}
	keep := s.namespaces()
	pods := map[string][]*corev1.Pod{}
	for _, o := range w.pods.GetStore().List() {
		p := o.(*corev1.Pod)
		if keep[p.Namespace] {
			pods[p.Namespace] = append(pods[p.Namespace], p.DeepCopy())
		}
	}
	for ns := range pods {
		sort.Slice(pods[ns], func(i, j int) bool { return pods[ns][i].Name < pods[ns][j].Name })
	}
	s.board = donePodBoard(pods, w.err("pods"))
	hpas := map[string]bool{}
	for _, h := range s.HPAs {
		hpas[h.Namespace+"/"+h.Name] = true
	}
	s.events = map[string][]corev1.Event{}
	for _, o := range w.events.GetStore().List() {
		e := o.(*corev1.Event)
		key := e.InvolvedObject.Namespace + "/" + e.InvolvedObject.Name
		if e.InvolvedObject.Namespace == "" {
			key = e.Namespace + "/" + e.InvolvedObject.Name
		}
		if hpas[key] {
			s.events[key] = append(s.events[key], *e.DeepCopy())
		}
	}
	s.eventsErr = w.err("events")
	var lists workloadLists
	s.replicaSets = map[string][]appsv1.ReplicaSet{}
	for _, o := range w.rss.GetStore().List() {
		r := o.(*appsv1.ReplicaSet)
		lists.add("apps", "ReplicaSet", r.Namespace, engine.TargetOfReplicaSet(r))
		s.replicaSets[r.Namespace] = append(s.replicaSets[r.Namespace], *r.DeepCopy())
	}
	for _, o := range w.deploys.GetStore().List() {
		d := o.(*appsv1.Deployment)
		lists.add("apps", "Deployment", d.Namespace, engine.TargetOfDeployment(d))
	}
	for _, o := range w.sets.GetStore().List() {
		st := o.(*appsv1.StatefulSet)
		lists.add("apps", "StatefulSet", st.Namespace, engine.TargetOfStatefulSet(st))
	}
	for _, o := range w.rcs.GetStore().List() {
		rc := o.(*corev1.ReplicationController)
		lists.add("", "ReplicationController", rc.Namespace, engine.TargetOfReplicationController(rc))
	}
	synced := func(inf cache.SharedIndexInformer, kind string) error {
		if inf.HasSynced() {
			return nil
		}
		if err := w.err(kind); err != nil {
			return err
		}
		return errors.New("not listed yet")
	}
	lists.rsErr = synced(w.rss, "replicasets.apps")
	lists.deployErr = synced(w.deploys, "deployments.apps")
	lists.stsErr = synced(w.sets, "statefulsets.apps")
	lists.rcErr = synced(w.rcs, "replicationcontrollers")
	s.resolveTargets(ctx, &lists)
	for _, h := range s.HPAs {
		if anyResourceMetric(h) {
			s.metricsErr = s.listPodMetrics(ctx)
			break
		}
	}
	return s, nil
}

// stripManaged drops the managed fields of an object as it arrives.
func stripManaged(obj any) (any, error) {
	if m, ok := obj.(metav1.Object); ok {
		m.SetManagedFields(nil)
	}
	return obj, nil
}

// reduceObject keeps of the watched objects what a replay reads.
func reduceObject(obj any) (any, error) {
	switch o := obj.(type) {
	case *corev1.Pod:
		p := ReducePod(o)
		p.ResourceVersion = o.ResourceVersion
		return &p, nil
	case *corev1.Event:
		e := ReduceEvent(o)
		e.ResourceVersion = o.ResourceVersion
		return &e, nil
	case *appsv1.ReplicaSet:
		return &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: o.Name, Namespace: o.Namespace, ResourceVersion: o.ResourceVersion, OwnerReferences: o.OwnerReferences},
			Spec:       appsv1.ReplicaSetSpec{Replicas: o.Spec.Replicas, Selector: o.Spec.Selector},
			Status:     appsv1.ReplicaSetStatus{Replicas: o.Status.Replicas},
		}, nil
	case *appsv1.Deployment:
		return &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: o.Name, Namespace: o.Namespace, ResourceVersion: o.ResourceVersion},
			Spec:       appsv1.DeploymentSpec{Replicas: o.Spec.Replicas, Selector: o.Spec.Selector},
			Status:     appsv1.DeploymentStatus{Replicas: o.Status.Replicas},
		}, nil
	case *appsv1.StatefulSet:
		return &appsv1.StatefulSet{
			ObjectMeta: metav1.ObjectMeta{Name: o.Name, Namespace: o.Namespace, ResourceVersion: o.ResourceVersion},
			Spec:       appsv1.StatefulSetSpec{Replicas: o.Spec.Replicas, Selector: o.Spec.Selector},
			Status:     appsv1.StatefulSetStatus{Replicas: o.Status.Replicas},
		}, nil
	case *corev1.ReplicationController:
		out := &corev1.ReplicationController{
			ObjectMeta: metav1.ObjectMeta{Name: o.Name, Namespace: o.Namespace, ResourceVersion: o.ResourceVersion},
			Spec:       corev1.ReplicationControllerSpec{Replicas: o.Spec.Replicas, Selector: o.Spec.Selector},
			Status:     corev1.ReplicationControllerStatus{Replicas: o.Status.Replicas},
		}
		if o.Spec.Template != nil {
			out.Spec.Template = &corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: o.Spec.Template.Labels}}
		}
		return out, nil
	}
	return stripManaged(obj)
}
