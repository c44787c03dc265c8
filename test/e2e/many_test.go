// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/diff"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
)

// TestManyReadAgrees: a many-HPA read of a namespace, against the real API
// server, gives every HPA exactly the pods a plain list of its selector
// gives, reduced (ReducePod): read in protobuf pages of two pods, so that
// the continue tokens, the page read ahead and the replays of a namespace
// while the later pods still come all meet the real server; and explain
// without a NAME (the pods in one request, the default) prints, for every
// HPA, what explain NAME prints.
func TestManyReadAgrees(t *testing.T) {
	// Beside the other top-level tests once TestAgreement (which takes an
	// APIService away for a while) is done: its namespaces are its own.
	t.Parallel()
	s := newScenario(t, "many-read")
	apps := map[string]int32{"alpha": 3, "beta": 2, "gamma": 1, "no-hpa": 2}
	for name, n := range apps {
		s.deploy(name, n, map[string]string{annCPU: cpuIdle})
		if name != "no-hpa" {
			s.createHPA(hpaFor(name, 1, 10, nil, cpuUtilization(50)))
		}
	}
	for name, n := range apps {
		s.waitPods(name, int(n))
	}

	c, err := gather.NewClients(env.cfg)
	if err != nil {
		t.Fatal(err)
	}
	scope, err := gather.List(s.ctx, c, gather.ManyOptions{Options: gather.Options{Now: time.Now(), PageSize: 2}, Namespace: s.ns})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	if err := scope.Each(s.ctx, func(r *gather.Result) error {
		seen++
		name := r.Snapshot.HPA.Name
		pods, err := s.pods(name)
		if err != nil {
			return err
		}
		var want []corev1.Pod
		for i := range pods {
			want = append(want, gather.ReducePod(&pods[i]))
		}
		got := r.Snapshot.Pods
		if !reflect.DeepEqual(podNames(got), podNames(want)) {
			t.Errorf("HPA %s: pods %v, want %v", name, podNames(got), podNames(want))
			return nil
		}
		for i := range want {
			// The pods were listed twice; only their status may have moved.
			if !reflect.DeepEqual(got[i].Spec, want[i].Spec) || !reflect.DeepEqual(got[i].ObjectMeta, want[i].ObjectMeta) {
				t.Errorf("HPA %s, pod %s: the paged protobuf read differs from the list (-list +read):\n%s", name, want[i].Name, diff.Diff(want[i], got[i]))
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if seen != 3 {
		t.Errorf("%d HPAs replayed, want 3", seen)
	}

	// explain without a NAME against explain NAME, through the binary.
	bin, err := pluginBinary()
	if err != nil {
		t.Fatal(err)
	}
	run := binary(bin)
	many := run([]string{"explain", "-n", s.ns, "-o", "json", "--kubeconfig", env.kubeconfig, "--sync-period", syncPeriod.String()})
	if many.code != 0 {
		t.Fatalf("explain -n %s: exit %d\n%s", s.ns, many.code, many.stderr)
	}
	var list struct {
		Items []explain.Decision `json:"items"`
	}
	if err := json.Unmarshal(many.stdout, &list); err != nil {
		t.Fatalf("explain -n %s -o json: %v", s.ns, err)
	}
	if len(list.Items) != 3 {
		t.Fatalf("%d explanations, want 3", len(list.Items))
	}
	for _, d := range list.Items {
		one := s.replay(d.HPA.Name, run, env.kubeconfig)
		if got, want := summary(&d), summary(one.D); got != want {
			t.Errorf("HPA %s: explain -n: %s; explain NAME: %s", d.HPA.Name, got, want)
		}
	}
}

func podNames(pods []corev1.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

// summary is what two replays of a steady HPA agree on: the decision and
// each metric's pods by class.
func summary(d *explain.Decision) string {
	out := fmt.Sprintf("desired %d, current %d", d.DesiredReplicas, d.CurrentReplicas)
	for _, m := range d.Metrics {
		if m.Pods == nil {
			out += fmt.Sprintf("; %s: no pods", m.Name)
			continue
		}
		out += fmt.Sprintf("; %s: listed %d ready %d unready %d missing %d ignored %d", m.Name, m.Pods.Listed, m.Pods.Ready, m.Pods.Unready, m.Pods.Missing, m.Pods.Ignored)
		for _, e := range m.Pods.Entries {
			out += " " + e.Name + "=" + e.Class
		}
	}
	return out
}
