// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/internal/enginetest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
)

// TestStatusEqualIsSemantic holds the engine's status comparison to
// equality.Semantic.DeepEqual, the controller's: on pairs of statuses the
// engine computes from random snapshots, and on each of them against a copy
// with one field changed (or changed only in form: a quantity written
// another way, a time in another zone, an empty list for a nil one).
func TestStatusEqualIsSemantic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var statuses []autoscalingv2.HorizontalPodAutoscalerStatus
	for len(statuses) < 400 {
		data := make([]byte, 16+rng.IntN(200))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		snap, set := enginetest.Snapshot(data)
		d, err := engine.Evaluate(snap, set)
		if err != nil {
			t.Fatal(err)
		}
		statuses = append(statuses, d.Status, snap.HPA.Status)
	}
	// The random snapshots rarely get every metric type to compute:
	// statuses with one of each, in every value form, are added.
	for i := range 200 {
		q := func() *resource.Quantity {
			v := resource.NewMilliQuantity(int64(rng.IntN(100000)), resource.DecimalSI)
			return v
		}
		u := int32(rng.IntN(200))
		cur := []autoscalingv2.MetricValueStatus{{AverageValue: q()}, {Value: q()}, {AverageUtilization: &u, AverageValue: q()}}[i%3]
		ms := []autoscalingv2.MetricStatus{
			{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricStatus{Name: "cpu", Current: cur}},
			{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricStatus{Name: "cpu", Container: "app", Current: cur}},
			{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricStatus{Metric: autoscalingv2.MetricIdentifier{Name: "rps"}, Current: cur}},
			{Type: autoscalingv2.ObjectMetricSourceType, Object: &autoscalingv2.ObjectMetricStatus{Metric: autoscalingv2.MetricIdentifier{Name: "hits"}, Current: cur, DescribedObject: autoscalingv2.CrossVersionObjectReference{Kind: "Service", Name: "web"}}},
			{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricStatus{Metric: autoscalingv2.MetricIdentifier{Name: "queue", Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"q": "a"}}}, Current: cur}},
		}
		st := autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: int32(i % 5), DesiredReplicas: int32(i % 7), CurrentMetrics: ms[i%5 : i%5+1+rng.IntN(5-i%5)]}
		statuses = append(statuses, *st.DeepCopy())
	}
	check := func(what string, a, b *autoscalingv2.HorizontalPodAutoscalerStatus) {
		t.Helper()
		if got, want := engine.StatusEqual(a, b), equality.Semantic.DeepEqual(a, b); got != want {
			t.Fatalf("%s: statusEqual = %v, Semantic.DeepEqual = %v\n%+v\n%+v", what, got, want, a, b)
		}
	}
	for i := range statuses {
		a := &statuses[i]
		check(fmt.Sprintf("pair %d", i), a, &statuses[rng.IntN(len(statuses))])
		for m := range 13 {
			b := a.DeepCopy()
			mutate(b, m, rng)
			check(fmt.Sprintf("status %d, mutation %d", i, m), a, b)
		}
	}
}

// mutate changes one field of st, or only its form.
func mutate(st *autoscalingv2.HorizontalPodAutoscalerStatus, m int, rng *rand.Rand) {
	switch m {
	case 0:
		st.DesiredReplicas++
	case 1:
		st.CurrentReplicas = int32(rng.IntN(3))
	case 2:
		g := int64(rng.IntN(3))
		st.ObservedGeneration = &g
	case 3:
		if st.LastScaleTime == nil {
			st.LastScaleTime = &metav1.Time{Time: time.Unix(1, 0)}
		} else {
			st.LastScaleTime = &metav1.Time{Time: st.LastScaleTime.In(time.FixedZone("x", 3600))}
		}
	case 4:
		if len(st.Conditions) > 0 {
			st.Conditions[rng.IntN(len(st.Conditions))].Reason += "x"
		}
	case 5:
		if len(st.Conditions) > 0 {
			c := &st.Conditions[rng.IntN(len(st.Conditions))]
			c.LastTransitionTime = metav1.Time{Time: c.LastTransitionTime.Add(time.Duration(rng.IntN(2)))}
		}
	case 6:
		if st.Conditions == nil {
			st.Conditions = []autoscalingv2.HorizontalPodAutoscalerCondition{}
		} else if len(st.Conditions) > 0 {
			st.Conditions = st.Conditions[1:]
		}
	case 7:
		if st.CurrentMetrics == nil {
			st.CurrentMetrics = []autoscalingv2.MetricStatus{}
		} else if len(st.CurrentMetrics) > 0 {
			st.CurrentMetrics = st.CurrentMetrics[:len(st.CurrentMetrics)-1]
		}
	case 8, 9, 10:
		for i := range st.CurrentMetrics {
			cur := currentOf(&st.CurrentMetrics[i])
			if cur == nil {
				continue
			}
			switch {
			case m == 8 && cur.AverageValue != nil:
				// The same value, written another way.
				q := *resource.NewMilliQuantity(cur.AverageValue.MilliValue(), resource.DecimalSI)
				cur.AverageValue = &q
			case m == 9 && cur.Value != nil:
				q := cur.Value.DeepCopy()
				q.Add(*resource.NewMilliQuantity(int64(rng.IntN(2)), resource.DecimalSI))
				cur.Value = &q
			case m == 9 && cur.AverageValue != nil:
				q := cur.AverageValue.DeepCopy()
				q.Add(*resource.NewMilliQuantity(1, resource.DecimalSI))
				cur.AverageValue = &q
			case m == 10 && cur.AverageUtilization != nil:
				u := *cur.AverageUtilization + int32(rng.IntN(2))
				cur.AverageUtilization = &u
			}
		}
	case 12:
		// Another metric of the same type: a name, a container, an object.
		if len(st.CurrentMetrics) > 0 {
			switch ms := &st.CurrentMetrics[rng.IntN(len(st.CurrentMetrics))]; {
			case ms.Resource != nil:
				ms.Resource.Name = "memory"
			case ms.ContainerResource != nil:
				ms.ContainerResource.Container += "x"
			case ms.Pods != nil:
				ms.Pods.Metric.Name += "x"
			case ms.Object != nil:
				ms.Object.DescribedObject.Name += "x"
			case ms.External != nil:
				ms.External.Metric.Name += "x"
			}
		}
	default:
		for i := range st.CurrentMetrics {
			if e := st.CurrentMetrics[i].External; e != nil {
				e.Metric.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"q": fmt.Sprint(rng.IntN(2))}}
			}
		}
	}
}

func currentOf(s *autoscalingv2.MetricStatus) *autoscalingv2.MetricValueStatus {
	switch {
	case s.Resource != nil:
		return &s.Resource.Current
	case s.ContainerResource != nil:
		return &s.ContainerResource.Current
	case s.Pods != nil:
		return &s.Pods.Current
	case s.Object != nil:
		return &s.Object.Current
	case s.External != nil:
		return &s.External.Current
	}
	return nil
}
