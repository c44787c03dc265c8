// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// TuneFleetResult is tune's result without a NAME: the ranked table of
// every HPA tuned, its totals and its notes (text), or the document.
func TuneFleetResult(f *explain.TuneFleet) Result {
	return Document(f, func(w io.Writer) error { return writeFleet(w, f) })
}

// TuneFleetCommands is tune's result without a NAME with --emit command:
// the kubectl patch command of each recommendation, in the table's order.
func TuneFleetCommands(f *explain.TuneFleet) Result {
	return resultFunc(func(w io.Writer, _ Format, _ Options) error {
		var b strings.Builder
		for _, it := range f.Items {
			if it.Status == explain.FleetRecommended && it.Command != "" {
				b.WriteString(it.Command)
				b.WriteByte('\n')
			}
		}
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// writeFleet writes the fleet's table: one line per HPA, ranked by
// saving, then the totals, the HPAs without a recommendation and why, and
// the notes.
func writeFleet(w io.Writer, f *explain.TuneFleet) error {
	var b strings.Builder
	line := func(s string) { b.WriteString(clean(s)); b.WriteByte('\n') }
	shard := ""
	if sh := f.Shard; sh != nil {
		shard = fmt.Sprintf(" (shard %d of %d)", sh.Index, sh.Count)
	}
	hpas, unread := 0, 0
	for _, it := range f.Items {
		if it.HPA == (explain.ObjectRef{}) {
			unread++
		} else {
			hpas++
		}
	}
	what := plural(hpas, "HPA", "HPAs")
	if unread > 0 {
		what += " (" + plural(unread, "context", "contexts") + " could not be read)"
	}
	line(fmt.Sprintf("Tune of %s%s, %s → %s (%s), ranked by saving", what, shard, formatTime(f.Start), formatTime(f.End), shortDuration(f.End.Sub(f.Start))))
	line("")
	// A CONTEXT column only where the HPAs come from more than one.
	contexts := map[string]bool{}
	for _, it := range f.Items {
		contexts[it.Context] = true
	}
	many := len(contexts) > 1
	tb := &table{}
	head := []string{"NAMESPACE", "NAME", "COST", "RECOMMENDED", "SAVING", "ABOVE BOUND", "RESCALES/H", "REPLAY HELD", "CHANGES"}
	if many {
		head = append([]string{"CONTEXT"}, head...)
	}
	tb.row(head...)
	for _, it := range f.Items {
		row := []string{orDash(it.HPA.Namespace), orDash(it.HPA.Name), "-", "-", "-", "-", "-", "-", string(it.Status)}
		if a := it.AsIs; a != nil {
			row[2] = num(a.Cost) + " " + unitWord(it.CostUnit)
			row[5] = pctWords(a.Risk)
			row[6] = num(a.RescalesPerHour)
		}
		if r := it.Recommended; r != nil {
			row[3] = num(r.Cost)
			row[4] = num(it.Saving) + " (" + pctWords(it.SavingFraction) + ")"
			row[5] += " → " + pctWords(r.Risk)
			row[6] += " → " + num(r.RescalesPerHour)
			row[8] = strings.Join(it.Changes, "; ")
		}
		if fd := it.Fidelity; fd != nil {
			row[7] = pctWords(fd.Equal) + ", " + strconv.Itoa(fd.Matched) + "/" + strconv.Itoa(fd.Rescales)
		}
		if many {
			row = append([]string{orDash(it.Context)}, row...)
		}
		tb.row(row...)
	}
	if many {
		tb.alignRight(3, 4, 5, 7)
	} else {
		tb.alignRight(2, 3, 4, 6)
	}
	for _, l := range tb.lines() {
		line(l)
	}
	if len(f.Items) == 0 {
		line("(no HPA selected)")
	}
	line("")
	for _, t := range f.Totals {
		line(fmt.Sprintf("Total (%s, %s): %s as they are, %s with %s, %s saved over the period",
			t.CostUnit, plural(t.HPAs, "HPA", "HPAs"), num(t.AsIs), num(t.WithRecommendations), plural(t.Recommended, "recommendation", "recommendations"), num(t.Saving)))
	}
	var why []string
	for _, it := range f.Items {
		switch {
		case it.Status == explain.FleetRecommended || it.Reason == "":
		case it.HPA == (explain.ObjectRef{}):
			// A context whose HPAs could not be listed: its reason names
			// it.
			why = append(why, fmt.Sprintf("  (%s) %s", it.Status, it.Reason))
		case many:
			why = append(why, fmt.Sprintf("  %s %s/%s (%s): %s", it.Context, it.HPA.Namespace, it.HPA.Name, it.Status, it.Reason))
		default:
			why = append(why, fmt.Sprintf("  %s/%s (%s): %s", it.HPA.Namespace, it.HPA.Name, it.Status, it.Reason))
		}
	}
	if len(why) > 0 {
		line("")
		line("Without a recommendation")
		for _, s := range why {
			line(s)
		}
	}
	line("")
	line(fmt.Sprintf("REPLAY HELD: the share of the period the as-is replay held the recorded replica count, and the recorded rescales it made (a recommendation stands from %s); tune NAME -n NAMESPACE shows one HPA's search", pctWords(f.MinFidelity)))
	for _, n := range f.Notes {
		line("  - " + n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// unitWord is a cost unit in a table cell.
func unitWord(unit string) string {
	switch unit {
	case "core-hours":
		return "core-h"
	case "pod-hours":
		return "pod-h"
	}
	return unit
}

// FleetFiles is tune's result with --emit patches: the files written,
// one a line, then how a kustomization takes each context's Component.
func FleetFiles(files []string, dir string) Result {
	return resultFunc(func(w io.Writer, _ Format, _ Options) error {
		var b strings.Builder
		var comps []string
		for _, f := range files {
			b.WriteString(f)
			b.WriteByte('\n')
			if strings.HasSuffix(f, "kustomization.yaml") {
				comps = append(comps, strings.TrimSuffix(strings.TrimSuffix(f, "kustomization.yaml"), "/"))
			}
		}
		if len(files) == 0 {
			b.WriteString("# no recommendation: nothing written under " + dir + "\n")
		}
		for _, c := range comps {
			b.WriteString("# a kustomization of these HPAs takes them with: components: [" + c + "]\n")
		}
		_, err := io.WriteString(w, b.String())
		return err
	})
}
