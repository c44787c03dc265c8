// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"strings"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/version"
	fakediscovery "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

func fakeClients(server string, objs ...runtime.Object) *gather.Clients {
	kube := fake.NewClientset(objs...)
	kube.Discovery().(*fakediscovery.FakeDiscovery).FakedServerVersion = &version.Info{GitVersion: server}
	return &gather.Clients{Kube: kube}
}

func kcmPod(image string, args ...string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "kube-controller-manager-cp1", Namespace: "kube-system", Labels: map[string]string{"component": "kube-controller-manager"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "kube-controller-manager", Image: image,
			Command: append([]string{"kube-controller-manager"}, args...),
		}}},
	}
}

// hpaWithStatus is an HPA whose status a controller wrote.
func hpaWithStatus(name string, generation int64, observed *int64, conds ...autoscalingv2.HorizontalPodAutoscalerConditionType) *autoscalingv2.HorizontalPodAutoscaler {
	h := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", Generation: generation}}
	h.Status.ObservedGeneration = observed
	h.Status.Conditions = []autoscalingv2.HorizontalPodAutoscalerCondition{{Type: autoscalingv2.AbleToScale, Status: corev1.ConditionTrue}}
	for _, c := range conds {
		h.Status.Conditions = append(h.Status.Conditions, autoscalingv2.HorizontalPodAutoscalerCondition{Type: c, Status: corev1.ConditionFalse})
	}
	return h
}

func TestDetect(t *testing.T) {
	ctx := context.Background()
	gen := int64(3)
	for _, c := range []struct {
		name          string
		clients       *gather.Clients
		hpas          []*autoscalingv2.HorizontalPodAutoscaler
		version       string
		versionSource string
		gates         string
		flagsSource   string
		warning       string
	}{
		{
			name: "managed control plane: the API server's version", clients: fakeClients("v1.33.5-eks-4096722"),
			version: "v1.33.5", versionSource: "the API server's version (v1.33.5-eks-4096722)",
			flagsSource: "kube-controller-manager defaults (no kube-controller-manager pod in kube-system",
		},
		{
			name: "the controller's image wins over the API server",
			clients: fakeClients("v1.37.2", kcmPod("registry.k8s.io/kube-controller-manager:v1.36.3",
				"--horizontal-pod-autoscaler-tolerance=0.2", "--feature-gates=HPAScaleToZero=true,SomethingElse=false")),
			version: "v1.36.3", versionSource: "the image of kube-controller-manager pod kube-system/kube-controller-manager-cp1 (registry.k8s.io/kube-controller-manager:v1.36.3); the API server is v1.37.2",
			gates: "HPAScaleToZero=true,SomethingElse=false", flagsSource: "the flags of kube-controller-manager pod kube-system/kube-controller-manager-cp1",
		},
		{
			name:    "a v1.37 API server whose HPAs lack observedGeneration: the controller lags a minor",
			clients: fakeClients("v1.37.2"), hpas: []*autoscalingv2.HorizontalPodAutoscaler{hpaWithStatus("web", 2, nil)},
			version: "v1.36", versionSource: "the API server's version (v1.37.2), one minor behind it: HPA shop/web has a controller-written status without observedGeneration",
			flagsSource: "kube-controller-manager defaults (no",
		},
		{
			name:    "observedGeneration present: the API server's version stands",
			clients: fakeClients("v1.37.2"), hpas: []*autoscalingv2.HorizontalPodAutoscaler{hpaWithStatus("web", 3, &gen), hpaWithStatus("api", 2, nil)},
			version: "v1.37.2", versionSource: "the API server's version (v1.37.2)",
		},
		{
			name:    "a v1.36 controller writing ScaledToZero runs with HPAScaleToZero",
			clients: fakeClients("v1.36.3"), hpas: []*autoscalingv2.HorizontalPodAutoscaler{hpaWithStatus("web", 2, nil, autoscalingv2.ScaledToZero)},
			version: "v1.36.3", versionSource: "the API server's version (v1.36.3)", gates: "HPAScaleToZero=true",
		},
		{
			name:    "observedGeneration on a v1.36 server is reported",
			clients: fakeClients("v1.36.3"), hpas: []*autoscalingv2.HorizontalPodAutoscaler{hpaWithStatus("web", 3, &gen)},
			version: "v1.36.3", warning: "HPA shop/web carries status.observedGeneration, which only a v1.37+ controller writes",
		},
		{
			name: "an unparsable server version", clients: fakeClients("v0.0.0-master+$Format:%H$"),
			warning: `the API server's version "v0.0.0-master+$Format:%H$" is not a Kubernetes version`,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Detect(ctx, c.clients, c.hpas)
			v := ""
			if got.Version != nil {
				v = got.Version.String()
			}
			if v != c.version {
				t.Errorf("version %q, want %q", v, c.version)
			}
			if !strings.HasPrefix(got.VersionSource, c.versionSource) {
				t.Errorf("version source %q\n want it to start with %q", got.VersionSource, c.versionSource)
			}
			if g := profile.FormatGates(got.Gates); g != c.gates {
				t.Errorf("gates %q, want %q", g, c.gates)
			}
			if !strings.HasPrefix(got.FlagsSource, c.flagsSource) {
				t.Errorf("flags source %q, want it to start with %q", got.FlagsSource, c.flagsSource)
			}
			if c.warning != "" && !strings.Contains(strings.Join(got.Warnings, "\n"), c.warning) {
				t.Errorf("warnings %q lack %q", got.Warnings, c.warning)
			}
		})
	}
}

func TestImageVersion(t *testing.T) {
	for image, want := range map[string]string{
		"registry.k8s.io/kube-controller-manager:v1.32.13":            "v1.32.13",
		"localhost:5000/kcm:v1.30.1":                                  "v1.30.1",
		"registry.k8s.io/kube-controller-manager:v1.31.2@sha256:abcd": "v1.31.2",
		"registry.k8s.io/kube-controller-manager@sha256:abcd":         "",
		"localhost:5000/kcm":                                          "",
		"kcm:latest":                                                  "",
	} {
		got := ""
		if v := imageVersion(image); v != nil {
			got = v.String()
		}
		if got != want {
			t.Errorf("%s: %q, want %q", image, got, want)
		}
	}
}
