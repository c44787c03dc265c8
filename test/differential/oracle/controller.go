// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build oracle

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/go-logr/logr"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// runReconcileStable runs the syncs again (up to four times) when they were
// too slow for the clock convention or a sync may have read a stale HPA.
func runReconcileStable(c *wireCase, wantEvents []int) (runResult, error) {
	run, err := runController(c, wantEvents)
	run.Tries = 1
	for i := 0; err == nil && (time.Duration(run.Elapsed) > maxElapsed || run.Stale) && i < 4; i++ {
		run, err = runController(c, wantEvents)
		run.Tries = i + 2
	}
	return run, err
}

// resyncPeriod is the controller's resync: short, the harness paces the
// syncs through the scale GETs.
const resyncPeriod = time.Millisecond

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// runController runs upstream's HorizontalController (NewHorizontalController
// + Run) on fake clients for len(wantEvents) consecutive syncs of the HPA.
// wantEvents[i] is how many events the engine predicts for sync i; events are
// delivered asynchronously and the oracle waits for them. The controller is
// fresh, so its in-memory state matches a controller that has not seen the
// HPA before at the first sync and then evolves on its own.
//
// Sync boundaries are the scale GETs: every sync starts with one. The GET
// that starts sync i+1 is held until sync i's events are collected; the GET
// of the sync after the last one fails, after Run has been cancelled.
func runController(c *wireCase, wantEvents []int) (runResult, error) {
	nsyncs := len(wantEvents)
	start := time.Now()
	delta := start.Sub(c.Ref)

	hpa := c.HPA.DeepCopy()
	for i := range hpa.Status.Conditions {
		hpa.Status.Conditions[i].LastTransitionTime.Time = shiftTime(hpa.Status.Conditions[i].LastTransitionTime.Time, delta)
	}
	objs := []runtime.Object{hpa}
	for _, p := range shiftPods(c.Pods, delta) {
		objs = append(objs, p)
	}
	kube := fake.NewSimpleClientset(objs...)
	var hpaStore cache.Store

	var (
		mu       sync.Mutex
		run      = runResult{Syncs: make([]syncResult, nsyncs+1)}
		gets     int // scale GETs so far = index+1 of the sync in progress
		events   []event
		byName   = map[string]event{}
		lastSt   *autoscalingv2.HorizontalPodAutoscalerStatus
		boundary = make([]chan struct{}, nsyncs+1) // boundary[i] closes when sync i has finished
		release  = make([]chan struct{}, nsyncs+1)
	)
	for i := range boundary {
		boundary[i], release[i] = make(chan struct{}), make(chan struct{})
	}
	var boundaryOnce sync.Map
	closeBoundary := func(i int) {
		if _, loaded := boundaryOnce.LoadOrStore(i, true); !loaded {
			close(boundary[i])
		}
	}
	// Run gets its own context, cancelled before the extra sync is
	// released; the event broadcaster keeps running on bctx until the
	// events are collected.
	bctx, bcancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	defer bcancel()
	rctx, rcancel := context.WithCancel(bctx)
	defer rcancel()

	kube.PrependReactor("create", "events", func(action core.Action) (bool, runtime.Object, error) {
		ev := action.(core.CreateAction).GetObject().(*corev1.Event)
		mu.Lock()
		e := event{Type: ev.Type, Reason: ev.Reason, Message: ev.Message}
		events = append(events, e)
		byName[ev.Name] = e
		mu.Unlock()
		return true, ev, nil
	})
	kube.PrependReactor("patch", "events", func(action core.Action) (bool, runtime.Object, error) {
		// The correlator patches a repeated event (same reason and message).
		mu.Lock()
		events = append(events, byName[action.(core.PatchAction).GetName()])
		mu.Unlock()
		return true, &corev1.Event{}, nil
	})
	kube.PrependReactor("update", "horizontalpodautoscalers", func(action core.Action) (bool, runtime.Object, error) {
		if action.GetSubresource() != "status" {
			return false, nil, nil
		}
		obj := action.(core.UpdateAction).GetObject().(*autoscalingv2.HorizontalPodAutoscaler)
		mu.Lock()
		if i := gets - 1; i >= 0 && i < nsyncs {
			st := obj.Status.DeepCopy()
			b, err := json.Marshal(st)
			if err != nil {
				panic(err)
			}
			run.Syncs[i].Status = b
			var cm any
			if len(st.CurrentMetrics) > 0 {
				cm = st.CurrentMetrics
			}
			if run.Syncs[i].CurrentMetrics, err = json.Marshal(cm); err != nil {
				panic(err)
			}
			lastSt = st
		}
		mu.Unlock()
		// Store the write ourselves and return only once the controller's
		// informer shows it: the next sync then cannot read a stale HPA.
		gvr := autoscalingv2.SchemeGroupVersion.WithResource("horizontalpodautoscalers")
		if err := kube.Tracker().Update(gvr, obj, obj.Namespace); err != nil {
			return true, nil, err
		}
		want := jsonString(obj.Status)
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Microsecond) {
			mu.Lock()
			store := hpaStore
			mu.Unlock()
			if store == nil {
				break
			}
			if cur, ok, _ := store.GetByKey(obj.Namespace + "/" + obj.Name); ok && jsonString(cur.(*autoscalingv2.HorizontalPodAutoscaler).Status) == want {
				break
			}
		}
		return true, obj, nil
	})

	replicas := c.SpecReplicas
	scaleClient := &scalefake.FakeScaleClient{}
	scaleClient.AddReactor("get", "deployments", func(action core.Action) (bool, runtime.Object, error) {
		mu.Lock()
		gets++
		n := gets
		// The sync that is starting read the HPA from the informer just
		// before; it must have seen the previous sync's status write.
		if n > 1 && lastSt != nil && hpaStore != nil {
			if obj, ok, _ := hpaStore.GetByKey(hpa.Namespace + "/" + hpa.Name); !ok || jsonString(obj.(*autoscalingv2.HorizontalPodAutoscaler).Status) != jsonString(*lastSt) {
				run.Stale = true
			}
		}
		r := replicas
		mu.Unlock()
		if n > nsyncs+1 {
			return true, nil, fmt.Errorf("differential oracle: only %d syncs", nsyncs)
		}
		if n > 1 {
			closeBoundary(n - 2)
			<-release[n-2]
		}
		if n > nsyncs {
			return true, nil, fmt.Errorf("differential oracle: only %d syncs", nsyncs)
		}
		return true, &autoscalingv1.Scale{
			ObjectMeta: metav1.ObjectMeta{Name: c.TargetName, Namespace: hpa.Namespace},
			Spec:       autoscalingv1.ScaleSpec{Replicas: r},
			Status:     autoscalingv1.ScaleStatus{Replicas: c.StatusReplicas, Selector: c.Selector},
		}, nil
	})
	scaleClient.AddReactor("update", "deployments", func(action core.Action) (bool, runtime.Object, error) {
		obj := action.(core.UpdateAction).GetObject().(*autoscalingv1.Scale)
		mu.Lock()
		if i := gets - 1; i >= 0 && i < nsyncs {
			run.Syncs[i].ScaleUpdated = true
			run.Syncs[i].ScaledTo = obj.Spec.Replicas
		}
		replicas = obj.Spec.Replicas
		mu.Unlock()
		return true, obj, nil
	})

	mc := upstreamMetricsClient(c, delta)

	factory := informers.NewSharedInformerFactory(kube, 0)
	// kube-controller-manager passes the HPAContainerMetrics gate to v1.29's
	// constructor; later versions read their gates themselves.
	containerMetrics := true
	if _, ok := utilfeature.DefaultMutableFeatureGate.GetAll()[featureName("HPAContainerMetrics")]; ok {
		containerMetrics = utilfeature.DefaultFeatureGate.Enabled(featureName("HPAContainerMetrics"))
	}
	ctrl := newController(bctx, kube, scaleClient, mc, factory, c, containerMetrics)
	factory.Start(bctx.Done())
	// Run waits for the caches by polling every 100ms; get them synced first
	// so that its first check passes.
	hpaInf, podInf := factory.Autoscaling().V2().HorizontalPodAutoscalers().Informer(), factory.Core().V1().Pods().Informer()
	mu.Lock()
	hpaStore = hpaInf.GetStore()
	mu.Unlock()
	for deadline := time.Now().Add(10 * time.Second); !hpaInf.HasSynced() || !podInf.HasSynced(); {
		if time.Now().After(deadline) {
			return run, fmt.Errorf("seed %d: informers did not sync", c.Seed)
		}
		time.Sleep(50 * time.Microsecond)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ctrl.Run(rctx, 1)
		for i := range boundary {
			closeBoundary(i)
		}
	}()
	var err error
	collected := 0
	for i := 0; i < nsyncs; i++ {
		select {
		case <-boundary[i]:
		case <-time.After(20 * time.Second):
			err = fmt.Errorf("seed %d: sync %d did not finish within 20s", c.Seed, i+1)
		}
		// Events reach the fake API asynchronously: wait for as many as
		// the engine predicts (or a while), then a little longer.
		for deadline := time.Now().Add(200 * time.Millisecond); time.Now().Before(deadline); {
			mu.Lock()
			n := len(events)
			mu.Unlock()
			if n >= collected+wantEvents[i] {
				break
			}
			time.Sleep(100 * time.Microsecond)
		}
		time.Sleep(2 * time.Millisecond)
		mu.Lock()
		run.Syncs[i].Events = append([]event{}, events[collected:]...)
		collected = len(events)
		mu.Unlock()
		if i == nsyncs-1 {
			run.Elapsed = int64(time.Since(start))
			rcancel()
		}
		close(release[i])
		if err != nil {
			break
		}
	}
	for i := range release {
		select {
		case <-release[i]:
		default:
			close(release[i])
		}
	}
	rcancel()
	wg.Wait()
	bcancel()
	factory.Shutdown()
	mu.Lock()
	defer mu.Unlock()
	run.Syncs = run.Syncs[:nsyncs]
	return run, err
}
