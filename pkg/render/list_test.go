// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// ShortReason words the step DecidedBy names.
func TestShortReason(t *testing.T) {
	held := time.Date(2026, 1, 1, 14, 5, 30, 0, time.UTC)
	ready := func(missing int) *explain.PodAccounting { return &explain.PodAccounting{Listed: 5, Missing: missing} }
	errMsg := "boom"
	for _, c := range []struct {
		name string
		d    explain.Decision
		want string
	}{
		{"disabled", explain.Decision{Outcome: explain.OutcomeScalingDisabled, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByDisabled}}, "target at 0 replicas: autoscaling disabled"},
		{"above max", explain.Decision{Outcome: explain.OutcomeAboveMax, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByMaxReplicas, Replicas: 10}}, "replicas above maxReplicas"},
		{"max", explain.Decision{Outcome: explain.OutcomeRescale, Rescale: true, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByMaxReplicas, Reason: explain.ReasonTooManyReplicas, Replicas: 30}}, "limited to 30 by maxReplicas"},
		{"policy", explain.Decision{Outcome: explain.OutcomeRescale, Rescale: true, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByScaleUpRateLimit, Replicas: 10, Policy: &explain.PolicyLimit{Type: "Pods", Value: 4, PeriodSeconds: 60}}}, "limited to 10 by scale-up policy Pods 4/60s"},
		{"legacy limit", explain.Decision{Outcome: explain.OutcomeRescale, Rescale: true, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByScaleUpRateLimit, Replicas: 8}}, "limited to 8 by scale-up rate limit"},
		{"held", explain.Decision{Outcome: explain.OutcomeNoChange, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByScaleDownStabilization, Replicas: 5, HeldUntil: &held}}, "held by scale-down stabilization until 14:05:30"},
		{"from zero", explain.Decision{Outcome: explain.OutcomeRescale, Rescale: true, DesiredReplicas: 1, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByScaleFromZero, Replicas: 1}}, "raised to minReplicas 1 from zero"},
		{"missing", explain.Decision{Outcome: explain.OutcomeMetricsFailed, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByFailure, MetricIndex: intp(0)}, Metrics: []explain.MetricResult{{Error: &errMsg, Pods: ready(2)}}}, "metric missing on 2/5 pods"},
		{"failed", explain.Decision{Outcome: explain.OutcomeMetricsFailed, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByFailure, Reason: explain.ReasonFailedGetExternal, MetricIndex: intp(0)}, Metrics: []explain.MetricResult{{Error: &errMsg, ErrorReason: explain.ReasonFailedGetExternal}}}, "metric failed: FailedGetExternalMetric"},
		{"scaling", explain.Decision{Outcome: explain.OutcomeRescale, Rescale: true, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByMetric, MetricIndex: intp(0)}, Metrics: []explain.MetricResult{{Winner: true, Name: "pods metric qps"}}}, "scaling on qps"},
		{"within", explain.Decision{Outcome: explain.OutcomeNoChange, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByTolerance, MetricIndex: intp(0)}, Metrics: []explain.MetricResult{{Winner: true, Tolerance: &explain.ToleranceCheck{Within: true}}}}, "within tolerance"},
		{"at target", explain.Decision{Outcome: explain.OutcomeNoChange, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByMetric}}, "at target"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ShortReason(&c.d); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func listDecisions() []*explain.Decision {
	return []*explain.Decision{
		{HPA: explain.ObjectRef{Namespace: "a", Name: "web"}, Target: explain.TargetInfo{Kind: "Deployment", Name: "web"}, CurrentReplicas: 3, DesiredReplicas: 5, Rescale: true, Outcome: explain.OutcomeRescale, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByMetric}, Agreement: explain.Agreement{Checked: true, Agrees: true}},
		{HPA: explain.ObjectRef{Namespace: "b", Name: "api"}, Target: explain.TargetInfo{Kind: "StatefulSet", Name: "api"}, CurrentReplicas: 2, DesiredReplicas: 2, Outcome: explain.OutcomeScalingDisabled, DecidedBy: explain.DecidedBy{Kind: explain.DecidedByDisabled}, Agreement: explain.Agreement{Checked: true, Differences: []explain.Difference{{Field: "desiredReplicas"}}}},
	}
}

func TestWriteList(t *testing.T) {
	ds := listDecisions()
	var b bytes.Buffer
	if err := WriteList(&b, FormatText, ds, true); err != nil {
		t.Fatal(err)
	}
	want := "NAMESPACE  NAME  REFERENCE        REPLICAS  DECIDED BY                                  AGREEMENT\n" +
		"a          web   Deployment/web   3 → 5     scaling                                     agrees\n" +
		"b          api   StatefulSet/api  2         target at 0 replicas: autoscaling disabled  differs (desiredReplicas)\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteList(&b, FormatJSON, ds, false); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Kind  string             `json:"kind"`
		Items []explain.Decision `json:"items"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc.Kind != KindExplanationList || len(doc.Items) != 2 || !strings.Contains(b.String(), `"apiVersion": "kubectl-hpa.io/v1alpha1"`) {
		t.Fatalf("json list: %v %+v", err, doc)
	}
}

// The streamed list is the document Encode writes for the whole list, with
// its fields in the order apiVersion, kind, items.
func TestListWriter_encodings(t *testing.T) {
	type list struct {
		APIVersion string              `json:"apiVersion"`
		Kind       string              `json:"kind"`
		Items      []*explain.Decision `json:"items"`
	}
	for _, n := range []int{0, 1, 3} {
		ds := []*explain.Decision{scaleUpUnready(), multiMetricMissing(), scaleDownStabilized()}[:n]
		whole := list{APIVersion: explain.APIVersion, Kind: KindExplanationList, Items: append([]*explain.Decision{}, ds...)}
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
			want, err := Marshal(f, whole)
			if err != nil {
				t.Fatal(err)
			}
			if f == FormatJSON {
				if diff := cmp.Diff(string(want), b.String()); diff != "" {
					t.Errorf("%d items, json: streamed differs from Encode (-encode +streamed):\n%s", n, diff)
				}
				continue
			}
			var got, exp any
			if err := yaml.Unmarshal(b.Bytes(), &got); err != nil {
				t.Fatalf("%d items: streamed YAML does not parse: %v\n%s", n, err, b.String())
			}
			if err := yaml.Unmarshal(want, &exp); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(exp, got); diff != "" {
				t.Errorf("%d items, yaml: streamed differs from Encode (-encode +streamed):\n%s", n, diff)
			}
			if !strings.HasPrefix(b.String(), "apiVersion: "+explain.APIVersion+"\nkind: "+KindExplanationList+"\nitems:") {
				t.Errorf("yaml list starts %.80q", b.String())
			}
		}
	}
}

// Text rows are written as they are added, in fixed columns; a cell wider
// than its column pushes the rest of its own row only.
func TestListWriter_text(t *testing.T) {
	var b bytes.Buffer
	lw := NewListWriter(&b, FormatText, false, Options{})
	header := "NAME                      REFERENCE                         REPLICAS  DECIDED BY                                    AGREEMENT\n"
	ds := listDecisions()
	if err := lw.Add(ds[0]); err != nil {
		t.Fatal(err)
	}
	first := header + "web                       Deployment/web                    3 → 5     scaling                                       agrees\n"
	if b.String() != first {
		t.Fatalf("after one Add:\n%s\nwant\n%s", b.String(), first)
	}
	long := *ds[1]
	long.HPA.Name = "a-name-longer-than-its-column"
	if err := lw.Add(&long); err != nil {
		t.Fatal(err)
	}
	if err := lw.Close(); err != nil {
		t.Fatal(err)
	}
	want := first + "a-name-longer-than-its-column  StatefulSet/api                   2         target at 0 replicas: autoscaling disabled    differs (desiredReplicas)\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	if err := lw.Add(ds[0]); !errors.Is(err, errClosed) {
		t.Errorf("Add after Close: %v", err)
	}

	b.Reset()
	if err := NewListWriter(&b, FormatText, true, Options{}).Close(); err != nil {
		t.Fatal(err)
	}
	if want := "NAMESPACE         " + header; b.String() != want {
		t.Errorf("empty list:\n%q\nwant\n%q", b.String(), want)
	}
}

// Decisions encoded concurrently (Encode), then written in order (Write),
// give the bytes of adding them one by one, in every format.
func TestListWriter_encodeConcurrently(t *testing.T) {
	ds := []*explain.Decision{scaleUpUnready(), multiMetricMissing(), scaleDownStabilized(), scaledToZero(), failedGetScale(), manyPods()}
	for _, f := range []Format{FormatJSON, FormatYAML, FormatText} {
		var want, got bytes.Buffer
		seq := NewListWriter(&want, f, true, Options{})
		for _, d := range ds {
			if err := seq.Add(d); err != nil {
				t.Fatal(err)
			}
		}
		if err := seq.Close(); err != nil {
			t.Fatal(err)
		}
		lw := NewListWriter(&got, f, true, Options{})
		items := make([]ListItem, len(ds))
		errs := make([]error, len(ds))
		var wg sync.WaitGroup
		for i, d := range ds {
			wg.Go(func() { items[i], errs[i] = lw.Encode(d) })
		}
		wg.Wait()
		for i := range items {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			if err := lw.Write(items[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := lw.Close(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), got.String()); diff != "" {
			t.Errorf("%s (-added +encoded concurrently):\n%s", f, diff)
		}
	}
}
