// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/tune"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// ReportInput is where the HTML report of a tune or a backtest goes
// (ReportRows).
type ReportInput struct {
	File string
}

// TuneReport is what the HTML report of a tune draws beyond the tune
// document: the recorded load, and the curves of the candidates the user
// picked. The document keeps only the frontier's, the current setting's
// and the recommendation's curves.
type TuneReport struct {
	Loads  []explain.LoadCurve
	Picked []PickedCurve
}

// PickedCurve is a picked candidate's replica curve, by its index in the
// tune's candidates.
type PickedCurve struct {
	Index    int
	Replicas []explain.ReplicaPoint
}

// tuneReport gathers the report's data from the search, which still holds
// every candidate's replay: a picked candidate needs no second replay. A
// pick that names no replayed candidate is a warning, not an error: the
// search behind it took long, and the report is still worth writing.
func tuneReport(cfg TuneConfig, in *snapshot, rec *recording.Recording, opts whatif.BacktestOptions, res *tune.Result, replays *candidateReplays, bt *explain.Backtest, warnings []string) (*TuneReport, []string) {
	r := &TuneReport{}
	loads, err := whatif.LoadCurves(in.snap, rec, in.settings, opts, &bt.AsIs.Summary)
	if err != nil {
		warnings = append(warnings, fmt.Sprintf("the report draws no load: %v", err))
	}
	r.Loads = loads
	flag := tuneFlag(func(in *TuneInput) any { return &in.ReportCandidates })
	for _, i := range cfg.ReportCandidates {
		if i >= len(res.Candidates) {
			warnings = append(warnings, fmt.Sprintf("%s %d: only %d candidates were replayed (0 to %d); the report leaves it out", flag, i, len(res.Candidates), len(res.Candidates)-1))
			continue
		}
		c := &res.Candidates[i]
		path, _, ok := replays.get(c)
		switch {
		case c.Err != "":
			warnings = append(warnings, fmt.Sprintf("%s %d: that candidate could not be replayed (%s); the report leaves it out", flag, i, c.Err))
			continue
		case !ok:
			warnings = append(warnings, fmt.Sprintf("%s %d: the search kept no curve of that candidate; the report leaves it out", flag, i))
			continue
		}
		r.Picked = append(r.Picked, PickedCurve{Index: i, Replicas: path.Replicas})
	}
	return r, warnings
}
