// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// TestOracleVersion checks that the oracle is the controller version the
// engine replays: the k8s.io/kubernetes and k8s.io/api it was built with, and
// that every gate the profile knows at that minor exists upstream with the
// same default (and every HPA gate upstream has is in the profile).
func TestOracleVersion(t *testing.T) {
	info := oracle().info
	want := upstreamVersion.String()
	if got := info.Modules["k8s.io/kubernetes"]; got != want {
		t.Errorf("oracle built with k8s.io/kubernetes %s, want %s", got, want)
	}
	staging := "v0." + strings.TrimPrefix(want, "v1.")
	for _, m := range []string{"k8s.io/api", "k8s.io/apimachinery", "k8s.io/client-go", "k8s.io/metrics", "k8s.io/component-base"} {
		if got := info.Modules[m]; got != staging {
			t.Errorf("oracle built with %s %s, want %s", m, got, staging)
		}
	}
	t.Logf("oracle %s, API epoch %s", info.Modules["k8s.io/kubernetes"], info.Epoch)
	inProfile := map[string]bool{}
	for _, g := range profile.GatesAt(upstreamVersion.Minor) {
		inProfile[string(g.Name)] = true
		def, ok := info.Gates[string(g.Name)]
		switch {
		case !ok:
			t.Errorf("profile gate %s does not exist in %s", g.Name, want)
		case def != g.Stage.Default:
			t.Errorf("profile gate %s defaults to %t, %s to %t", g.Name, g.Stage.Default, want, def)
		}
	}
	for name := range info.Gates {
		if strings.HasPrefix(name, "HPA") && !inProfile[name] {
			t.Errorf("%s has gate %s, the profile of %s does not", want, name, upstreamVersion.MinorString())
		}
	}
}

// boundaryCase is a CPU Utilization case whose usage ratio is exactly
// 1 + tolerance (55% of a 50% target, ...) at the default tolerance 0.1:
// inside the tolerance from v1.33 (no scale), outside it before (scale up).
func boundaryCase(i int, util, target int32, pods int) *Case {
	now := refTime
	snap := &engine.Snapshot{
		Now:       now.Add(engineEpsilon),
		State:     engine.ControllerState{RecommendationsInitialized: false, Provenance: "assumed"},
		Target:    engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: genTarget, Selector: "app=web", SpecReplicas: int32(pods), StatusReplicas: int32(pods)},
		APIErrors: map[string]string{},
		HPA: &autoscalingv2.HorizontalPodAutoscaler{
			TypeMeta:   metav1.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
			ObjectMeta: metav1.ObjectMeta{Name: genHPAName, Namespace: genNamespace},
			Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
				ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: genTarget},
				MinReplicas:    i32p(1),
				MaxReplicas:    math.MaxInt32,
				Metrics: []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
					Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &target},
				}}},
			},
		},
	}
	for p := 0; p < pods; p++ {
		name := fmt.Sprintf("web-%d", p)
		snap.Pods = append(snap.Pods, corev1.Pod{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: genNamespace, Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c0", Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")},
			}}}},
			Status: corev1.PodStatus{
				Phase:      corev1.PodRunning,
				StartTime:  mtp(now.Add(-time.Hour)),
				Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: mt(now.Add(-time.Hour))}},
			},
		})
		snap.PodMetrics = append(snap.PodMetrics, metricsv1beta1.PodMetrics{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: genNamespace, Labels: map[string]string{"app": "web"}},
			Timestamp:  mt(now.Add(-10 * time.Second)),
			Window:     metav1.Duration{Duration: 30 * time.Second},
			Containers: []metricsv1beta1.ContainerMetrics{{Name: "c0", Usage: corev1.ResourceList{
				corev1.ResourceCPU: *resource.NewMilliQuantity(int64(util)*10, resource.DecimalSI),
			}}},
		})
	}
	set := upstreamSettings()
	set.Tolerance = 0.1
	return &Case{Seed: uint64(i), Label: fmt.Sprintf("boundary %d%% of %d%% x%d", util, target, pods), Settings: set, Snapshot: snap}
}

// TestVersionMismatchDetected is the mutation check of the version matrix:
// on cases whose usage ratio is exactly 1.1 at tolerance 0.1 the engine must
// agree with the oracle when it replays the oracle's version, and disagree
// when it replays a version of the other tolerance rule (v1.36 against a
// v1.29-v1.32 oracle, v1.32 against a v1.33+ oracle). A harness that fed
// every version the same controller, or ignored the profile, would fail.
func TestVersionMismatchDetected(t *testing.T) {
	other := profile.MustParse("v1.36.3")
	if upstreamVersion.Minor >= 33 {
		other = profile.MustParse("v1.32.13")
	}
	pairs := [][2]int32{{55, 50}, {66, 60}, {88, 80}, {110, 100}, {11, 10}, {33, 30}}
	agree, differ, n := 0, 0, 0
	for i, p := range pairs {
		for _, pods := range []int{1, 3, 4, 10} {
			n++
			c := boundaryCase(i, p[0], p[1], pods)
			up := runUpstreamStable(c)
			if up.Err != nil {
				t.Fatalf("%s: upstream error %s", c.Label, *up.Err)
			}
			dec, err := runEngine(c)
			if d := compare(c, up, dec, err); len(d) == 0 {
				agree++
			} else {
				t.Errorf("%s: engine replaying %s disagrees with the oracle: %v", c.Label, upstreamVersion, d)
			}
			mutated := *c
			mutated.Settings.Profile = profile.Default(other)
			dec, err = runEngine(&mutated)
			if d := compare(&mutated, up, dec, err); len(d) > 0 {
				differ++
			} else {
				t.Errorf("%s: engine replaying %s agrees with the %s oracle (replicas %d): the matrix could not tell the versions apart", c.Label, other, upstreamVersion, up.Replicas)
			}
		}
	}
	t.Logf("%d boundary cases: engine as %s agrees on %d; engine as %s disagrees on %d", n, upstreamVersion, agree, other, differ)
}
