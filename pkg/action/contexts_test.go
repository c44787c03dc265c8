// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
)

// manyClusters is a kubeconfig of three contexts: eu and us hold HPAs,
// down cannot list them.
func manyClusters(t *testing.T) map[string]*Factory {
	t.Helper()
	hpa := func(ns, name string) runtime.Object {
		return &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	}
	down := fake.NewClientset()
	down.PrependReactor("list", "horizontalpodautoscalers", func(core.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("dial tcp 10.0.0.9:443: connect: connection refused")
	})
	downClients := fakeClients("v1.36.3")
	downClients.Kube = down
	eu := newFakeWatchCluster(t, 500)
	if _, err := eu.kube.AutoscalingV2().HorizontalPodAutoscalers("shop").Create(context.Background(), hpa("shop", "api").(*autoscalingv2.HorizontalPodAutoscaler), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return map[string]*Factory{
		"eu":   {GatherClients: eu.clients()},
		"us":   {GatherClients: newFakeWatchCluster(t, 500).clients()},
		"down": {GatherClients: downClients},
	}
}

func TestContextsList(t *testing.T) {
	f := &Factory{ContextFactories: manyClusters(t)}
	for _, c := range []struct {
		name string
		in   ContextsInput
		want string
		err  string
	}{
		{name: "none given", in: ContextsInput{}, want: "<nil>"},
		{name: "all", in: ContextsInput{All: true}, want: "down,eu,us"},
		{name: "named", in: ContextsInput{Names: []string{"us", "eu", "us"}}, want: "eu,us"},
		{name: "include of all", in: ContextsInput{Include: "^(eu|us)$"}, want: "eu,us"},
		{name: "exclude of named", in: ContextsInput{Names: []string{"eu", "down"}, Exclude: "down"}, want: "eu"},
		{name: "unknown", in: ContextsInput{Names: []string{"asia"}}, err: `--contexts: the kubeconfig has no context "asia" (it has "down", "eu", "us")`},
		{name: "none left", in: ContextsInput{All: true, Exclude: "."}, err: "no kubeconfig context is left to read"},
		{name: "bad expression", in: ContextsInput{Include: "("}, err: `--include-contexts "(": error parsing regexp`},
		{name: "both", in: ContextsInput{All: true, Names: []string{"eu"}}, err: "--contexts and --all-contexts contradict each other"},
		{name: "parallel", in: ContextsInput{All: true, Parallel: -1}, err: "--parallel must be at least 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cs, err := c.in.Check()
			var names []string
			if err == nil && cs != nil {
				names, err = cs.List(f)
			}
			switch {
			case c.err != "":
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("error %v, want %q", err, c.err)
				}
			case err != nil:
				t.Errorf("error %v", err)
			case cs == nil && c.want != "<nil>", cs != nil && strings.Join(names, ",") != c.want:
				t.Errorf("contexts %q, want %s", names, c.want)
			}
		})
	}
}

// A tune of many contexts: every context's HPAs are a row named by their
// context, and a context whose HPAs cannot be listed is one row saying
// why; the others go on.
func TestTuneManyContexts(t *testing.T) {
	f := &Factory{ContextFactories: manyClusters(t)}
	cs, err := ContextsInput{All: true, Parallel: 2, Timeout: time.Minute}.Check()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	var progress []string
	doc, err := TuneMany(context.Background(), TuneManyConfig{
		Tune: TuneConfig{
			Source: Source{Clients: f, Now: now}, Since: now.Add(-time.Hour), Until: now,
			// eu's own Prometheus (refusing), none for the others.
			Load: RecordedLoad{Prometheus: prom.Config{Endpoints: []string{"eu=http://127.0.0.1:1"}}},
		},
		AllNamespaces: true, Contexts: cs,
		Progress: func(done, total int, hpa string) {
			if hpa == "" {
				progress = append(progress, strings.Repeat("x", done)+"/"+strings.Repeat("x", total))
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]explain.FleetItem{}
	for _, it := range doc.Items {
		got[it.Context+"/"+it.HPA.Namespace+"/"+it.HPA.Name] = it
		if it.Status != explain.FleetFailed {
			t.Errorf("%s/%s: %s, want failed (no Prometheus)", it.Context, it.HPA.Name, it.Status)
		}
	}
	for _, k := range []string{"eu/shop/web", "eu/shop/api", "us/shop/web", "down//"} {
		if _, ok := got[k]; !ok {
			t.Errorf("no row %s in %v", k, doc.Items)
		}
	}
	if len(doc.Items) != 4 {
		t.Errorf("%d rows, want 4", len(doc.Items))
	}
	if r := got["eu/shop/web"].Reason; !strings.Contains(r, "127.0.0.1:1") {
		t.Errorf("eu's HPA does not read eu's Prometheus: %q", r)
	}
	if r := got["us/shop/web"].Reason; !strings.Contains(r, "no Prometheus endpoint") {
		t.Errorf("us's HPA: %q, want no Prometheus endpoint", r)
	}
	if r := got["down//"].Reason; !strings.HasPrefix(r, "context down: ") || !strings.Contains(r, "connection refused") {
		t.Errorf("the unreachable context's reason: %q", r)
	}
	if strings.Join(progress, " ") != "xxxx/xxxx" {
		t.Errorf("last progress %q, want 4 of 4", progress)
	}
}
