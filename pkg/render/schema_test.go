// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/internal/schematest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// schemaFixtures are the fixtures of TestWrite that are documents the
// engine could produce (not the zero decision).
func schemaFixtures() []*explain.Decision {
	return []*explain.Decision{scaleUpUnready(), scaleDownStabilized(), multiMetricMissing(), scaledToZero(), failedGetScale()}
}

// The list document, written item by item, matches the list schema, empty
// or not, in JSON and YAML.
func TestListWriterSchema(t *testing.T) {
	for _, ds := range [][]*explain.Decision{nil, schemaFixtures()} {
		for _, f := range []Format{FormatJSON, FormatYAML} {
			var b bytes.Buffer
			lw := NewListWriter(&b, f, true, Options{})
			for _, d := range ds {
				if err := lw.Add(d); err != nil {
					t.Fatal(err)
				}
			}
			if err := lw.Close(); err != nil {
				t.Fatal(err)
			}
			var err error
			if f == FormatJSON {
				err = schematest.Validate(schema.List, b.Bytes())
			} else {
				err = schematest.ValidateYAML(schema.List, b.Bytes())
			}
			if err != nil {
				t.Errorf("%d items as %s: %v\n%s", len(ds), f, err, b.String())
			}
		}
	}
}

// Every document of the watch stream matches the watch schema, in JSON and
// YAML.
func TestWatchEncoderSchema(t *testing.T) {
	var b bytes.Buffer
	e := NewWatchEncoder(&b, FormatJSON)
	for range 2 {
		if err := e.Update(schemaFixtures()); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := schematest.ValidateStream(schema.Watch, b.Bytes()); err != nil || n != 10 {
		t.Errorf("%d documents: %v", n, err)
	}
	b.Reset()
	e = NewWatchEncoder(&b, FormatYAML)
	if err := e.Update(schemaFixtures()); err != nil {
		t.Fatal(err)
	}
	docs := strings.Split(strings.TrimPrefix(b.String(), "---\n"), "\n---\n")
	for i, doc := range docs {
		if err := schematest.ValidateYAML(schema.Watch, []byte(doc)); err != nil {
			t.Errorf("YAML document %d: %v", i, err)
		}
	}
	if len(docs) != 5 {
		t.Errorf("%d YAML documents, want 5", len(docs))
	}
}

// A whatif document, with and without a projection, matches the whatif
// schema.
func TestWhatIfSchema(t *testing.T) {
	before, after := scaleDownStabilized(), scaleUpUnready()
	proposal := int32(5)
	for _, p := range []*explain.Projection{nil, {
		Start: fixedNow, SyncPeriod: "15s", Duration: "30s", Settled: true, LoadModel: explain.LoadConstantTotal, PodStartup: "30s",
		Steps: []explain.ProjectionStep{{
			Time: fixedNow, Offset: "0s", Replicas: 4, Desired: 5, ReadyPods: 4,
			Metrics:        []explain.ProjectedMetric{{Name: cpuName, Value: "75% (375m)", Proposal: &proposal}},
			Recommendation: &proposal, Stabilized: &proposal,
			DecidedBy: explain.DecidedBy{Kind: explain.DecidedByMetric, Replicas: 5},
			Outcome:   explain.OutcomeRescale, Reason: "cpu above target",
		}},
		Rescales:      []explain.ProjectedRescale{{Time: fixedNow, Offset: "0s", From: 4, To: 5, Reason: "cpu above target"}},
		FinalReplicas: 5,
	}} {
		w := &explain.WhatIf{APIVersion: explain.APIVersion, Kind: explain.KindWhatIf, Changes: []string{"cpu: 200m per pod"}, Before: before, After: after, Projection: p}
		for _, f := range []Format{FormatJSON, FormatYAML} {
			var b bytes.Buffer
			if err := WriteWhatIf(&b, f, w, Options{}); err != nil {
				t.Fatal(err)
			}
			var err error
			if f == FormatJSON {
				err = schematest.Validate(schema.WhatIf, b.Bytes())
			} else {
				err = schematest.ValidateYAML(schema.WhatIf, b.Bytes())
			}
			if err != nil {
				t.Errorf("projection %v, %s: %v", p != nil, f, err)
			}
		}
	}
}
