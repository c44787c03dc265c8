// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// TestTuneCensoredLine: a tune over a week with censored stretches prints
// one line on them under its figures; without stretches (or without the
// object) it prints none.
func TestTuneCensoredLine(t *testing.T) {
	start := time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC)
	base := func(c *explain.Censored) *explain.Tune {
		return &explain.Tune{
			APIVersion: explain.APIVersion, Kind: explain.KindTune, HPA: "shop/web", Start: start, End: start.Add(7 * 24 * time.Hour),
			SyncPeriod: "15s", LoadModel: explain.LoadConstantTotal, CostUnit: "pod-hours", Current: -1, Recommended: -1, Censored: c,
		}
	}
	write := func(tu *explain.Tune) string {
		var b bytes.Buffer
		if err := writeTune(&b, tu); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	censored := &explain.Censored{
		Duration: "14m0s", Fraction: 0.001, Source: "limits from kube-state-metrics, throttling from cAdvisor",
		Stretches: []explain.CensoredStretch{
			{Start: start.Add(time.Hour), End: start.Add(time.Hour + 10*time.Minute), Duration: "10m0s", Pods: 3},
			{Start: start.Add(5 * time.Hour), End: start.Add(5*time.Hour + 4*time.Minute), Duration: "4m0s", Pods: 1},
		},
		MoreStretches: 1,
	}
	want := "  Censored: 14m of 168h (0.1%), 3 stretches: pods at their CPU limit or throttled (limits from kube-state-metrics, throttling from cAdvisor); the time above the bound is a lower bound there\n"
	if got := write(base(censored)); !strings.Contains(got, want) {
		t.Errorf("tune text lacks\n%s\ngot:\n%s", want, got)
	}
	for _, c := range []*explain.Censored{nil, {Duration: "0s", Source: "not known: no limits and no throttling series", Stretches: []explain.CensoredStretch{}}} {
		if got := write(base(c)); strings.Contains(got, "Censored") {
			t.Errorf("a line without censored stretches:\n%s", got)
		}
	}
}
