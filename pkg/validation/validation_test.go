// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package validation

import (
	"strings"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// The parity of HPA with the API server is proven in test/differential
// (TestValidationParity); these tests pin what depends on the profile and
// what the API server does not check.

func TestOptionsFor(t *testing.T) {
	for _, tc := range []struct {
		version  string
		gates    map[profile.Gate]bool
		min      int32
		checkTol bool
	}{
		{"v1.32.0", nil, 1, false},
		{"v1.33.0", nil, 1, false},
		{"v1.33.0", map[profile.Gate]bool{profile.HPAConfigurableTolerance: true}, 1, true},
		{"v1.36.3", nil, 1, true},
		{"v1.36.3", map[profile.Gate]bool{profile.HPAScaleToZero: true}, 0, true},
		{"v1.37.2", nil, 0, true},
		{"v1.37.2", map[profile.Gate]bool{profile.HPAScaleToZero: false}, 1, true},
	} {
		p, err := profile.New(profile.MustParse(tc.version), tc.gates)
		if err != nil {
			t.Fatal(err)
		}
		if got := OptionsFor(p); got.MinReplicasLowerBound != tc.min || got.CheckTolerance != tc.checkTol {
			t.Errorf("%s %v: %+v, want min %d, tolerance checked %t", tc.version, tc.gates, got, tc.min, tc.checkTol)
		}
	}
}

func TestWarnings(t *testing.T) {
	q := resource.MustParse("300m")
	util := int32(60)
	hpa := &autoscalingv2.HorizontalPodAutoscaler{Spec: autoscalingv2.HorizontalPodAutoscalerSpec{Metrics: []autoscalingv2.MetricSpec{
		{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
			Name:   corev1.ResourceCPU,
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageValue: &q},
		}},
		{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricSource{
			Name: corev1.ResourceCPU, Container: "app",
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageUtilization: &util},
		}},
		{Type: autoscalingv2.ObjectMetricSourceType, Object: &autoscalingv2.ObjectMetricSource{
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, AverageValue: &q},
		}},
		{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
			Name:   corev1.ResourceCPU,
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &util},
		}},
	}}}
	w := Warnings(hpa)
	want := []string{
		"spec.metrics[0].resource.target: type Utilization without averageUtilization: the controller uses averageValue 300m",
		"spec.metrics[1].containerResource.target: type AverageValue without averageValue: the controller uses averageUtilization 60%",
		"spec.metrics[2].object.target: type Value has no matching field",
	}
	if len(w) != len(want) {
		t.Fatalf("warnings = %q, want %d", w, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(w[i], want[i]) {
			t.Errorf("warning %d = %q, want it to start with %q", i, w[i], want[i])
		}
	}
}

func TestPodMetrics(t *testing.T) {
	ts := metav1.Now()
	pm := &metricsv1beta1.PodMetrics{Timestamp: ts, Window: metav1.Duration{Duration: 15e9}, Containers: []metricsv1beta1.ContainerMetrics{
		{Name: "app", Usage: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}},
		{Name: "native-sidecar", Usage: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1m")}},
	}}
	if errs := PodMetrics(pm); len(errs) > 0 {
		t.Errorf("a sample with a sidecar container: %v", errs)
	}
	pm.Containers[1].Usage[corev1.ResourceMemory] = resource.MustParse("-1Mi")
	if errs := PodMetrics(pm); len(errs) != 1 || errs[0].Error() != `containers[1].usage[memory]: Invalid value: "-1Mi": must be greater than or equal to 0` {
		t.Errorf("negative usage: %v", errs)
	}
}
