// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// TuneResult is tune's result: the document for -o json|yaml, the report
// below for text.
func TuneResult(t *explain.Tune) Result {
	return Document(t, func(w io.Writer) error { return writeTune(w, t) })
}

// TunePatch is tune's result with --emit patch: the recommendation's merge
// patch alone, for kubectl patch --type merge -p.
func TunePatch(t *explain.Tune) Result {
	return resultFunc(func(w io.Writer, _ Format, _ Options) error {
		if t.Recommendation == nil {
			return fmt.Errorf("no recommendation for HPA %s: %s", t.HPA, lastNote(t))
		}
		_, err := fmt.Fprintln(w, t.Recommendation.Patch)
		return err
	})
}

// TuneCommand is tune's result with --emit command: the kubectl command
// that applies the recommendation.
func TuneCommand(t *explain.Tune) Result {
	return resultFunc(func(w io.Writer, _ Format, _ Options) error {
		if t.Recommendation == nil {
			return fmt.Errorf("no recommendation for HPA %s: %s", t.HPA, lastNote(t))
		}
		_, err := fmt.Fprintln(w, t.Recommendation.Command)
		return err
	})
}

func lastNote(t *explain.Tune) string {
	if len(t.Notes) == 0 {
		return "no candidate kept within the bound"
	}
	return t.Notes[len(t.Notes)-1]
}

// writeTune writes the text report of a tune: the period, the reference
// against the recommendation, the change and how to apply it, the
// frontier, and the notes.
func writeTune(w io.Writer, t *explain.Tune) error {
	var b strings.Builder
	line := func(s string) { b.WriteString(clean(s)); b.WriteByte('\n') }
	line(fmt.Sprintf("Tune: HPA %s, %s → %s (%s), a sync every %s", t.HPA, formatTime(t.Start), formatTime(t.End), shortDuration(t.End.Sub(t.Start)), t.SyncPeriod))
	line(fmt.Sprintf("  recorded load: %s; load model %s; cost in %s", orUnknown(t.Source), t.LoadModel, t.CostUnit))
	var bounds []string
	for _, bd := range t.Bounds {
		bounds = append(bounds, bd.Metric+" above "+bd.Bound)
	}
	line("  risk: the share of the period with " + orUnknown(strings.Join(bounds, ", or ")))
	line(fmt.Sprintf("  %s of the grid's %s settings replayed exactly, each over the whole period", strconv.Itoa(t.Replayed), strconv.Itoa(t.GridSize)))
	line("")
	tb := &table{}
	tb.row("", "cost ("+t.CostUnit+")", "pod-hours", "above bound", "rescales/h", "longest lag")
	tb.row("actual", "", num(t.Actual.PodHours), "", num(t.Actual.RescalesPerHour), "")
	if c := t.Actual.CoreHours; c != nil && t.CostUnit == "core-hours" {
		tb.rows[len(tb.rows)-1][1] = num(*c)
	}
	tb.row("as-is (replayed)", num(t.Reference.Cost), num(t.Reference.PodHours), pctWords(t.Reference.Risk), num(t.Reference.RescalesPerHour), orDash(t.Reference.LongestLag))
	var rec *explain.TuneCandidate
	if t.Recommended >= 0 && t.Recommended < len(t.Candidates) {
		rec = &t.Candidates[t.Recommended]
		if f := rec.Figures; f != nil {
			tb.row("recommended", num(f.Cost), num(f.PodHours), pctWords(f.Risk), num(f.RescalesPerHour), orDash(f.LongestLag))
		}
	}
	tb.alignRight(1, 2, 3, 4)
	for _, l := range tb.lines() {
		line("  " + l)
	}
	if l := censoredLine(t.Censored, t.End.Sub(t.Start)); l != "" {
		line("  " + l)
	}
	line("")
	if r := t.Recommendation; r != nil && rec != nil {
		if len(r.Changes) == 0 {
			line("Recommendation: keep the HPA as it is (no candidate within the bound costs less)")
		} else {
			line(fmt.Sprintf("Recommendation: %s cheaper (%s %s less), at most %s of the period above the bound (as-is: %s)",
				pctWords(r.SavingFraction), num(r.Saving), t.CostUnit, pctWords(rec.Figures.Risk), pctWords(t.Reference.Risk)))
			for _, c := range r.Changes {
				line("  - " + c)
			}
			line("  apply it: " + r.Command)
		}
	} else {
		line(fmt.Sprintf("No recommendation: no candidate kept the time above the bound within %s of the period", pctWords(t.RiskBound)))
	}
	line("")
	line("Frontier (no other candidate is cheaper without more time above the bound); * recommended, = the HPA's own;")
	line("  candidates with the same figures share a row, with every value they differ in")
	ft := &table{}
	head := []string{"", "cost", "above bound", "rescales/h"}
	for _, ax := range t.Space {
		head = append(head, ax.Name)
	}
	ft.row(head...)
	shown := 0
	for _, g := range frontierRows(t) {
		shown++
		c := &t.Candidates[g[0]]
		mark := " "
		for _, i := range g {
			switch {
			case i == t.Recommended:
				mark = "*"
			case i == t.Current && mark == " ":
				mark = "="
			}
		}
		row := []string{mark, num(c.Figures.Cost), pctWords(c.Figures.Risk), num(c.Figures.RescalesPerHour)}
		for ax := range c.Values {
			var vals []string
			for _, i := range g {
				if v := t.Candidates[i].Values[ax]; !slices.Contains(vals, v) {
					vals = append(vals, v)
				}
			}
			row = append(row, strings.Join(vals, ", "))
		}
		ft.row(row...)
	}
	ft.alignRight(1, 2, 3)
	for _, l := range ft.lines() {
		line("  " + l)
	}
	if shown == 0 {
		line("  (none)")
	}
	failed := 0
	for _, c := range t.Candidates {
		if c.Error != "" {
			failed++
		}
	}
	if failed > 0 {
		line(fmt.Sprintf("  (%d %s not be replayed; -o json lists why)", failed, map[bool]string{true: "candidate could", false: "candidates could"}[failed == 1]))
	}
	if len(t.Notes) > 0 {
		line("")
		line("Notes")
		for _, n := range t.Notes {
			line("  - " + n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// frontierRows groups the frontier's candidates, in their order, so that
// candidates with the same cost, time above the bound and rescales share a
// row: they differ only in settings the recording never exercised.
func frontierRows(t *explain.Tune) [][]int {
	type figures struct{ cost, risk, churn float64 }
	var rows [][]int
	at := map[figures]int{}
	for i := range t.Candidates {
		c := &t.Candidates[i]
		if !c.Frontier || c.Figures == nil {
			continue
		}
		k := figures{c.Figures.Cost, c.Figures.Risk, c.Figures.RescalesPerHour}
		if r, ok := at[k]; ok {
			rows[r] = append(rows[r], i)
			continue
		}
		at[k] = len(rows)
		rows = append(rows, []int{i})
	}
	return rows
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func pctWords(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" }
