// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"context"
	"errors"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	kubefake "k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	core "k8s.io/client-go/testing"
	metricsfake "k8s.io/metrics/pkg/client/clientset/versioned/fake"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
)

// manyProblemsCluster has two HPAs in shop: a, whose Deployment cannot be
// read (unable-to-scale), and b, whose pods (none) report no metrics
// (metric-failed, scaling-inactive).
func manyProblemsCluster() *gather.Clients {
	var objs []apiruntime.Object
	for _, name := range []string{"a", "b"} {
		minR := int32(1)
		h := &autoscalingv2.HorizontalPodAutoscaler{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", UID: types.UID("uid-" + name)},
			Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
				ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: name},
				MinReplicas:    &minR, MaxReplicas: 10,
				Metrics: []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
					Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &minR},
				}}},
			},
		}
		engine.DefaultHPA(h)
		objs = append(objs, h)
	}
	two := int32(2)
	objs = append(objs, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "shop"},
		Spec:       appsv1.DeploymentSpec{Replicas: &two, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "b"}}},
		Status:     appsv1.DeploymentStatus{Replicas: 2},
	})
	scales := &scalefake.FakeScaleClient{}
	scales.AddReactor("get", "deployments", func(a core.Action) (bool, apiruntime.Object, error) {
		name := a.(core.GetAction).GetName()
		if name == "a" {
			return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: "apps", Resource: "deployments"}, name)
		}
		return true, &autoscalingv1.Scale{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop"},
			Spec:       autoscalingv1.ScaleSpec{Replicas: 2},
			Status:     autoscalingv1.ScaleStatus{Replicas: 2, Selector: "app=" + name},
		}, nil
	})
	mapper := meta.NewDefaultRESTMapper([]schema.GroupVersion{{Group: "apps", Version: "v1"}})
	mapper.Add(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, meta.RESTScopeNamespace)
	return &gather.Clients{Kube: kubefake.NewClientset(objs...), Metrics: metricsfake.NewSimpleClientset(), Scales: scales, Mapper: mapper}
}

// explain -A --exit-code fails on the worst HPA, and names every HPA with
// a problem of --fail-on.
func TestExplainManyExitCode(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--exit-code"}, "problems found in 2 of 2 HPAs: shop/a: unable-to-scale; shop/b: metric-failed, scaling-inactive"},
		{[]string{"--fail-on", "unable-to-scale"}, "problems found in 1 of 2 HPAs: shop/a: unable-to-scale"},
		{[]string{"--fail-on", "-unable-to-scale", "-o", "json"}, "problems found in 1 of 2 HPAs: shop/b: metric-failed, scaling-inactive"},
		{[]string{"--fail-on", "limited"}, ""},
		{nil, ""},
	} {
		t.Run(tc.want, func(t *testing.T) {
			streams, _, out, _ := genericiooptions.NewTestIOStreams()
			c := NewCmdExplain(streams, nil, func(o *ExplainOptions) error {
				o.Clients.GatherClients = manyProblemsCluster()
				return o.Run(context.Background())
			})
			c.SetArgs(append([]string{"-A", "--controller-version", "1.37"}, tc.args...))
			c.SilenceErrors, c.SilenceUsage = true, true
			err := c.Execute()
			var pe *action.ProblemsError
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.want != "" && (!errors.As(err, &pe) || err.Error() != tc.want):
				t.Errorf("error %v, want a *action.ProblemsError %q", err, tc.want)
			}
			if out.Len() == 0 {
				t.Error("no output: the list is printed whatever the verdict")
			}
		})
	}
}
