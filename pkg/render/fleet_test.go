// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/internal/schematest"
	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// fleetFixture is a hand-made fleet: two recommendations in two cost
// units, an HPA whose own setting is the cheapest, one whose replay
// strayed, and one that could not be tuned.
func fleetFixture() *explain.TuneFleet {
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	return &explain.TuneFleet{
		APIVersion: explain.APIVersion, Kind: explain.KindTuneFleet, Start: start, End: start.Add(7 * 24 * time.Hour), MinFidelity: 0.9,
		Items: []explain.FleetItem{
			{
				HPA: explain.ObjectRef{Namespace: "shop", Name: "web"}, CostUnit: "core-hours", Status: explain.FleetRecommended,
				AsIs: &explain.FleetFigures{Cost: 120.5, Risk: 0.031, RescalesPerHour: 4.2}, Recommended: &explain.FleetFigures{Cost: 88.25, Risk: 0.029, RescalesPerHour: 3.1},
				Saving: 32.25, SavingFraction: 0.268, Changes: []string{"target of cpu 50% → 65%", "down-window 5m0s → 1m0s"},
				Command:  `kubectl patch hpa web -n shop --type merge -p '{"spec":{}}'`,
				Fidelity: &explain.Fidelity{Source: "kube-state-metrics", Equal: 0.973, Rescales: 210, Matched: 204},
			},
			{
				HPA: explain.ObjectRef{Namespace: "batch", Name: "worker"}, CostUnit: "pod-hours", Status: explain.FleetRecommended,
				AsIs: &explain.FleetFigures{Cost: 40, Risk: 0, RescalesPerHour: 1}, Recommended: &explain.FleetFigures{Cost: 31, Risk: 0, RescalesPerHour: 1.5},
				Saving: 9, SavingFraction: 0.225, Changes: []string{"min-replicas 4 → 2"}, Command: "kubectl patch hpa worker -n batch --type merge -p '{}'",
				Fidelity: &explain.Fidelity{Source: "events", Equal: 0.991, Rescales: 12, Matched: 12},
			},
			{
				HPA: explain.ObjectRef{Namespace: "shop", Name: "cart"}, CostUnit: "core-hours", Status: explain.FleetNoChange,
				AsIs:     &explain.FleetFigures{Cost: 10, Risk: 0.05, RescalesPerHour: 0.5},
				Reason:   "the HPA's own setting is the cheapest within the bound",
				Fidelity: &explain.Fidelity{Source: "kube-state-metrics", Equal: 1, Rescales: 3, Matched: 3},
			},
			{
				HPA: explain.ObjectRef{Namespace: "shop", Name: "search"}, CostUnit: "core-hours", Status: explain.FleetUntrusted,
				AsIs:     &explain.FleetFigures{Cost: 55, Risk: 0.2, RescalesPerHour: 9},
				Reason:   "the as-is replay held the recorded replica count (pods) 61.0% of the period, below 90.0%, and made 20 of its 64 rescales: its figures are not to be trusted",
				Fidelity: &explain.Fidelity{Source: "pods", Equal: 0.61, Rescales: 64, Matched: 20},
			},
			{HPA: explain.ObjectRef{Namespace: "shop", Name: "legacy"}, Status: explain.FleetFailed, Reason: "HPA shop/legacy: metric 2 (queue): no query reads it (--query queue=PROMQL)"},
		},
		Totals: []explain.FleetTotal{
			{CostUnit: "core-hours", HPAs: 3, Recommended: 1, AsIs: 185.5, WithRecommendations: 153.25, Saving: 32.25},
			{CostUnit: "pod-hours", HPAs: 1, Recommended: 1, AsIs: 40, WithRecommendations: 31, Saving: 9},
		},
		Notes: []string{"each HPA tuned as tune NAME tunes it"},
	}
}

func TestFleetText(t *testing.T) {
	var b bytes.Buffer
	if err := writeFleet(&b, fleetFixture()); err != nil {
		t.Fatal(err)
	}
	testutil.AssertGolden(t, b.Bytes(), *update)
	out := b.String()
	// Each HPA without a recommendation says why, once.
	for _, who := range []string{"shop/cart (no-change)", "shop/search (untrusted)", "shop/legacy (failed)"} {
		if strings.Count(out, who) != 1 {
			t.Errorf("the text says %q %d times:\n%s", who, strings.Count(out, who), out)
		}
	}
}

func TestFleetCommands(t *testing.T) {
	var b bytes.Buffer
	if err := TuneFleetCommands(fleetFixture()).write(&b, FormatText, Options{}); err != nil {
		t.Fatal(err)
	}
	want := "kubectl patch hpa web -n shop --type merge -p '{\"spec\":{}}'\nkubectl patch hpa worker -n batch --type merge -p '{}'\n"
	if b.String() != want {
		t.Errorf("commands:\n%s\nwant\n%s", b.String(), want)
	}
}

// The fleet document, full or empty, matches the fleet schema in JSON and
// YAML.
func TestFleetSchema(t *testing.T) {
	empty := &explain.TuneFleet{APIVersion: explain.APIVersion, Kind: explain.KindTuneFleet, Items: []explain.FleetItem{}, Totals: []explain.FleetTotal{}, Notes: []string{}}
	for _, doc := range []*explain.TuneFleet{fleetFixture(), empty} {
		for _, f := range []Format{FormatJSON, FormatYAML} {
			var b bytes.Buffer
			if err := TuneFleetResult(doc).write(&b, f, Options{}); err != nil {
				t.Fatal(err)
			}
			var err error
			if f == FormatJSON {
				err = schematest.Validate(schema.Fleet, b.Bytes())
			} else {
				err = schematest.ValidateYAML(schema.Fleet, b.Bytes())
			}
			if err != nil {
				t.Errorf("%d items as %s: %v\n%s", len(doc.Items), f, err, b.String())
			}
		}
	}
}
