// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"errors"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/tune"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

func TestReportOptionsChecks(t *testing.T) {
	src := Source{Now: time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)}
	in := DefaultTuneInput()
	in.Since = "1h"
	in.Recorded.Prometheus.Endpoint = "http://prometheus:9090"
	in.ReportCandidates = []string{"3"}
	_, err := in.Config(src, "web", SettingsOverrides{})
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--report-candidate goes with --report") {
		t.Errorf("--report-candidate without --report: %v", err)
	}
	in.Report.File = "r.html"
	for _, bad := range []string{"x", "-1", "300"} {
		in.ReportCandidates = []string{bad}
		if _, err := in.Config(src, "web", SettingsOverrides{}); !errors.As(err, &ue) || !strings.Contains(err.Error(), "want a candidate's index, 0 to 299") {
			t.Errorf("--report-candidate %s: %v", bad, err)
		}
	}
	in.ReportCandidates = []string{"3", " 7", "3"}
	cfg, err := in.Config(src, "web", SettingsOverrides{})
	if err != nil || !cfg.Report || len(cfg.ReportCandidates) != 2 || cfg.ReportCandidates[1] != 7 {
		t.Errorf("--report r.html --report-candidate 3,7,3: %+v, %v", cfg, err)
	}

	w := DefaultWhatIfInput()
	w.CPU = "200m"
	w.Report.File = "r.html"
	if _, err := w.Plan(src, "web", SettingsOverrides{}); !errors.As(err, &ue) || !strings.Contains(err.Error(), "--report goes with --since") {
		t.Errorf("whatif --report without --since: %v", err)
	}
	w.CPU, w.Since = "", "1h"
	w.Recorded.Prometheus.Endpoint = "http://prometheus:9090"
	p, err := w.Plan(src, "web", SettingsOverrides{})
	if err != nil || p.Backtest == nil || !p.Backtest.Report {
		t.Errorf("whatif --since 1h --report r.html: %+v, %v", p, err)
	}
}

// A picked candidate's curve comes from the search's own replay; a pick
// beyond the candidates, of a failed one or of one whose curve was not
// kept is a warning, and the report goes on without it.
func TestTuneReportPicks(t *testing.T) {
	start := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	curve := []explain.ReplicaPoint{{Time: start, Replicas: 3}, {Time: start.Add(time.Minute), Replicas: 5}}
	var replays candidateReplays
	res := &tune.Result{Candidates: []tune.Candidate{
		{Figures: tune.Figures{Ref: replays.keep(&explain.BacktestPath{Replicas: curve}, explain.TuneFigures{})}},
		{Err: "invalid"},
		{Figures: tune.Figures{Ref: -1}},
	}}
	rec := &recording.Recording{Start: start, Step: time.Minute, Len: 2, Pods: []recording.Pod{{Name: "web-1", Created: start}}}
	in := &snapshot{snap: &engine.Snapshot{HPA: &autoscalingv2.HorizontalPodAutoscaler{}}, settings: engine.DefaultSettings()}
	bt := &explain.Backtest{Start: start}
	r, warnings := tuneReport(TuneConfig{Report: true, ReportCandidates: []int{2, 0, 1, 9}}, in, rec, whatif.BacktestOptions{Start: start}, res, &replays, bt, []string{"earlier"})
	if len(r.Picked) != 1 || r.Picked[0].Index != 0 || len(r.Picked[0].Replicas) != 2 || r.Picked[0].Replicas[1].Replicas != 5 {
		t.Errorf("picked %+v, want candidate 0's curve alone", r.Picked)
	}
	want := []string{
		"earlier",
		"--report-candidate 2: the search kept no curve of that candidate; the report leaves it out",
		"--report-candidate 1: that candidate could not be replayed (invalid); the report leaves it out",
		"--report-candidate 9: only 3 candidates were replayed (0 to 2); the report leaves it out",
	}
	if strings.Join(warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(want, "\n"))
	}
}
