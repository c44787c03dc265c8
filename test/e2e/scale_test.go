// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
)

// TestScaleFromWorkloads: a many-HPA read derives the scale of the built-in
// workloads from their lists (engine.TargetOf*) instead of getting each
// scale subresource. Here the API server's own scale subresource and the
// derived scale are compared field by field (spec.replicas, status.replicas,
// the selector string) for every built-in kind, with replicas set, left to
// the default, and at zero; with a matchExpressions selector; and for a
// ReplicationController with and without an explicit selector.
func TestScaleFromWorkloads(t *testing.T) {
	// Beside the other top-level tests once TestAgreement (which takes an
	// APIService away for a while) is done: its namespaces are its own.
	t.Parallel()
	s := newScenario(t, "scale-from-workloads")
	ctx, ns := s.ctx, s.ns
	labels := func(name string) map[string]string { return map[string]string{"app": name, "tier": "web"} }
	tmpl := func(name string) corev1.PodTemplateSpec {
		return corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: labels(name), Annotations: map[string]string{annCPU: cpuIdle}},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{app()}},
		}
	}
	selector := func(name string, expressions bool) *metav1.LabelSelector {
		if !expressions {
			return &metav1.LabelSelector{MatchLabels: labels(name)}
		}
		return &metav1.LabelSelector{
			MatchLabels: map[string]string{"app": name},
			MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"web", "api"}},
				{Key: "canary", Operator: metav1.LabelSelectorOpDoesNotExist},
			},
		}
	}
	apps, core := env.kube.AppsV1(), env.kube.CoreV1()

	// Each case creates its object and returns how to read the derived
	// target (from a fresh read of the object, as a list gives it) and the
	// scale subresource.
	type pair struct {
		derived func() (engine.Target, string, error) // the target, the object's resourceVersion
		scale   func() (*autoscalingv1.Scale, error)
	}
	cases := map[string]func(name string) pair{}
	for _, c := range []struct {
		suffix      string
		replicas    *int32
		expressions bool
	}{{"three", ptr[int32](3), false}, {"default", nil, false}, {"zero", ptr[int32](0), false}, {"expr", ptr[int32](2), true}} {
		cases["deployment-"+c.suffix] = func(name string) pair {
			if _, err := apps.Deployments(ns).Create(ctx, &appsv1.Deployment{
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec:       appsv1.DeploymentSpec{Replicas: c.replicas, Selector: selector(name, c.expressions), Template: tmpl(name)},
			}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			return pair{func() (engine.Target, string, error) {
				o, err := apps.Deployments(ns).Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					return engine.Target{}, "", err
				}
				return engine.TargetOfDeployment(o), o.ResourceVersion, nil
			}, func() (*autoscalingv1.Scale, error) {
				return apps.Deployments(ns).GetScale(ctx, name, metav1.GetOptions{})
			}}
		}
		cases["statefulset-"+c.suffix] = func(name string) pair {
			if _, err := apps.StatefulSets(ns).Create(ctx, &appsv1.StatefulSet{
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec:       appsv1.StatefulSetSpec{Replicas: c.replicas, Selector: selector(name, c.expressions), Template: tmpl(name)},
			}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			return pair{func() (engine.Target, string, error) {
				o, err := apps.StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					return engine.Target{}, "", err
				}
				return engine.TargetOfStatefulSet(o), o.ResourceVersion, nil
			}, func() (*autoscalingv1.Scale, error) {
				return apps.StatefulSets(ns).GetScale(ctx, name, metav1.GetOptions{})
			}}
		}
		cases["replicaset-"+c.suffix] = func(name string) pair {
			if _, err := apps.ReplicaSets(ns).Create(ctx, &appsv1.ReplicaSet{
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec:       appsv1.ReplicaSetSpec{Replicas: c.replicas, Selector: selector(name, c.expressions), Template: tmpl(name)},
			}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			return pair{func() (engine.Target, string, error) {
				o, err := apps.ReplicaSets(ns).Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					return engine.Target{}, "", err
				}
				return engine.TargetOfReplicaSet(o), o.ResourceVersion, nil
			}, func() (*autoscalingv1.Scale, error) {
				return apps.ReplicaSets(ns).GetScale(ctx, name, metav1.GetOptions{})
			}}
		}
	}
	for _, explicit := range []bool{true, false} {
		suffix := "implicit-selector"
		if explicit {
			suffix = "explicit-selector"
		}
		cases["rc-"+suffix] = func(name string) pair {
			tp := tmpl(name)
			rc := &corev1.ReplicationController{
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec:       corev1.ReplicationControllerSpec{Replicas: ptr[int32](2), Template: &tp},
			}
			if explicit {
				rc.Spec.Selector = map[string]string{"app": name}
			}
			if _, err := core.ReplicationControllers(ns).Create(ctx, rc, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			return pair{func() (engine.Target, string, error) {
				o, err := core.ReplicationControllers(ns).Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					return engine.Target{}, "", err
				}
				return engine.TargetOfReplicationController(o), o.ResourceVersion, nil
			}, func() (*autoscalingv1.Scale, error) {
				return core.ReplicationControllers(ns).GetScale(ctx, name, metav1.GetOptions{})
			}}
		}
	}

	pairs := map[string]pair{}
	for name, mk := range cases {
		pairs[name] = mk(name)
	}
	for name, p := range pairs {
		// Compare once the controllers have reported the replicas (status
		// replicas equal to spec), and from reads between which the object
		// did not change.
		s.poll(name+": the derived scale equals the scale subresource", 3*time.Minute, func() error {
			before, rv, err := p.derived()
			if err != nil {
				return err
			}
			sc, err := p.scale()
			if err != nil {
				return err
			}
			after, rv2, err := p.derived()
			if err != nil {
				return err
			}
			if rv != rv2 || before != after {
				return fmt.Errorf("the object changed between the reads")
			}
			if before.StatusReplicas != before.SpecReplicas {
				return fmt.Errorf("status.replicas %d, spec.replicas %d: not settled", before.StatusReplicas, before.SpecReplicas)
			}
			if before.GetError != "" {
				return fmt.Errorf("derived: %s", before.GetError)
			}
			if before.SpecReplicas != sc.Spec.Replicas || before.StatusReplicas != sc.Status.Replicas || before.Selector != sc.Status.Selector {
				t.Errorf("%s: derived spec.replicas %d, status.replicas %d, selector %q; the scale subresource says %d, %d, %q",
					name, before.SpecReplicas, before.StatusReplicas, before.Selector, sc.Spec.Replicas, sc.Status.Replicas, sc.Status.Selector)
			}
			return nil
		})
		t.Logf("%s: equal", name)
	}
}
