// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

func TestParseFailOn(t *testing.T) {
	def := explain.DefaultProblems()
	for _, tc := range []struct {
		spec string
		want []explain.Problem
		err  string
	}{
		{"", def, ""},
		{"+limited", append(slices.Clone(def), explain.ProblemLimited), ""},
		{"+limited,-disagrees", []explain.Problem{explain.ProblemMetricFailed, explain.ProblemScalingInactive, explain.ProblemUnableToScale, explain.ProblemStaleStatus, explain.ProblemLimited}, ""},
		{"limited,scaling-disabled", []explain.Problem{explain.ProblemLimited, explain.ProblemScalingDisabled}, ""},
		{" metric-failed , rate-limited ", []explain.Problem{explain.ProblemMetricFailed, explain.ProblemRateLimited}, ""},
		{"all", explain.AllProblems(), ""},
		{"+all,-disagrees", []explain.Problem{
			explain.ProblemMetricFailed, explain.ProblemScalingInactive, explain.ProblemUnableToScale,
			explain.ProblemStaleStatus, explain.ProblemLimited, explain.ProblemRateLimited, explain.ProblemScalingDisabled,
		}, ""},
		{"-all", nil, ""},
		{"limited,+disagrees", nil, "either a list of problems or changes"},
		{"+bogus", nil, `unknown problem "bogus"`},
		{"limited,,disagrees", nil, "an empty name"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := ParseFailOn(tc.spec)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Problems(), tc.want) {
				t.Errorf("%q, want %q", got.Problems(), tc.want)
			}
		})
	}
}

func decision(ns, name string, ps ...explain.Problem) *explain.Decision {
	d := &explain.Decision{HPA: explain.ObjectRef{Namespace: ns, Name: name}}
	for _, p := range ps {
		switch p {
		case explain.ProblemDisagrees:
			d.Agreement.Checked = true
		case explain.ProblemLimited:
			d.Conditions = append(d.Conditions, explain.Condition{Type: "ScalingLimited", Status: "True", Reason: explain.ReasonTooManyReplicas})
		case explain.ProblemUnableToScale:
			d.Conditions = append(d.Conditions, explain.Condition{Type: "AbleToScale", Status: "False", Reason: explain.ReasonFailedGetScale})
		default:
			panic(p)
		}
	}
	return d
}

// The gate keeps the problems of its set, from decisions shown from many
// goroutines, and names the HPAs in order.
func TestGate(t *testing.T) {
	var nilGate *Gate
	nilGate.Check(decision("a", "b", explain.ProblemDisagrees))
	if err := nilGate.Err(); err != nil {
		t.Errorf("a nil gate failed: %v", err)
	}

	failOn, _ := ParseFailOn("") // not limited
	g := NewGate(failOn)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			switch {
			case i == 7:
				g.Check(decision("shop", "web", explain.ProblemDisagrees, explain.ProblemLimited))
			case i == 3:
				g.Check(decision("jobs", "worker", explain.ProblemUnableToScale))
			case i%2 == 0:
				g.Check(decision("shop", fmt.Sprint("limited-", i), explain.ProblemLimited))
			default:
				g.Check(decision("shop", fmt.Sprint("ok-", i)))
			}
		})
	}
	wg.Wait()
	err := g.Err()
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("Err() = %v, want a *ProblemsError", err)
	}
	want := "problems found in 2 of 20 HPAs: jobs/worker: unable-to-scale; shop/web: disagrees"
	if err.Error() != want {
		t.Errorf("message %q\nwant       %q", err, want)
	}

	g = NewGate(failOn)
	g.Check(decision("shop", "web", explain.ProblemLimited))
	if err := g.Err(); err != nil {
		t.Errorf("a problem outside the set failed the gate: %v", err)
	}
	g.Check(decision("shop", "api", explain.ProblemDisagrees))
	if err := g.Err(); err == nil || err.Error() != "problems found in 1 of 2 HPAs: shop/api: disagrees" {
		t.Errorf("Err() = %v", err)
	}

	one := NewGate(failOn)
	one.Check(decision("shop", "web", explain.ProblemDisagrees))
	if err := one.Err(); err == nil || err.Error() != "problems found: shop/web: disagrees" {
		t.Errorf("one HPA: %v", err)
	}

	many := NewGate(failOn)
	for i := range 8 {
		many.Check(decision("ns", fmt.Sprint("h", i), explain.ProblemDisagrees))
	}
	if err := many.Err(); err == nil || !strings.HasSuffix(err.Error(), "ns/h4: disagrees; and 3 more") {
		t.Errorf("eight HPAs: %v", err)
	}
}
