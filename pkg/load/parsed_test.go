// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// An input parsed once builds each of its HPAs' snapshots as Load builds
// it from the files, in any order and again, with only its own warnings.
func TestParsedLoadsAsLoad(t *testing.T) {
	lost := strings.ReplaceAll(strings.ReplaceAll(hpaWeb, "name: web}", "name: lost}"), "name: web,", "name: lost,")
	dev := strings.ReplaceAll(docs(hpaWeb, deployWeb, podWeb1, pmWeb1), "shop", "dev")
	noNS := strings.ReplaceAll(strings.ReplaceAll(docs(hpaWeb, deployWeb), ", namespace: shop", ""), "web", "api")
	in := []Source{
		src("shop.yaml", docs(strings.Replace(hpaWeb, "maxReplicas: 10", "maxReplicas: 10\n  behaviour: {}", 1), deployWeb, podWeb1, podWeb1, pmWeb1, lost)),
		src("dev.yaml", dev),
		src("nons.yaml", noNS),
	}
	p, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	names := func(hs []autoscalingv2.HorizontalPodAutoscaler) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.Namespace+"/"+h.Name)
		}
		return out
	}
	if got, want := names(p.HPAs("")), []string{"shop/web", "shop/lost", "dev/web", "default/api"}; !slices.Equal(got, want) {
		t.Errorf("every HPA: %v, want %v", got, want)
	}
	if got, want := names(p.HPAs("shop")), []string{"shop/web", "shop/lost", "shop/api"}; !slices.Equal(got, want) {
		t.Errorf("-n shop: %v, want %v (a document without a namespace is in it)", got, want)
	}
	order := []Options{{Name: "web", Namespace: "shop"}, {Name: "web", Namespace: "dev"}, {Name: "lost", Namespace: "shop"}, {Name: "api"}, {Name: "web", Namespace: "shop"}}
	for _, o := range order {
		want, werr := Load(in, o)
		got, gerr := p.Load(o)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("%+v: error %v, Load's %v", o, gerr, werr)
		}
		if werr != nil {
			continue
		}
		gv, wv := got.Validate(profile.NewestDefault()), want.Validate(profile.NewestDefault())
		if (gv == nil) != (wv == nil) {
			t.Errorf("%+v: validation %v, Load's %v", o, gv, wv)
		}
		got.inv, want.inv = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: parsed once\n%+v\nLoad\n%+v", o, got, want)
		}
	}
	// What one build takes is its own: a change to a snapshot's pod is
	// not in the next build's.
	a, err := p.Load(Options{Name: "web", Namespace: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	a.Snapshot.Pods[0].Labels["app"] = "changed"
	a.Snapshot.PodMetrics[0].Containers[0].Name = "changed"
	b, err := p.Load(Options{Name: "web", Namespace: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Snapshot.Pods[0].Labels["app"] != "web" || b.Snapshot.PodMetrics[0].Containers[0].Name != "app" {
		t.Errorf("a build's change reached the next: %v, %v", b.Snapshot.Pods[0].Labels, b.Snapshot.PodMetrics[0].Containers[0].Name)
	}
	if missing, err := p.Load(Options{Name: "nope"}); err == nil || !strings.Contains(err.Error(), `"nope" not found`) {
		t.Errorf("an HPA not in the input: %v, %v", missing, err)
	}
}
