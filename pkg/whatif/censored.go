// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// MaxCensoredStretches is how many censored stretches a summary lists (the
// longest); the rest are counted.
const MaxCensoredStretches = 20

// censoredSummary sums up where the recorded demand of the counted period
// (from instant first on) was censored; nil when the recording neither
// holds limits or throttling nor says its source looked for them (a
// recording made by hand, as older sources made them).
func censoredSummary(rec *recording.Recording, c *recording.Censoring, first int) *explain.Censored {
	if rec.LimitsFrom == "" && rec.ThrottlingFrom == "" && !c.Known() {
		return nil
	}
	out := &explain.Censored{Duration: "0s", Source: censoredSource(rec, c), Stretches: []explain.CensoredStretch{}}
	if c == nil {
		return out
	}
	// An instant stands for the step after it, the last one for nothing:
	// the same reckoning as the curves' summaries.
	end := func(to int) time.Time {
		if to >= rec.Len-1 {
			return rec.End()
		}
		return rec.Instant(to + 1)
	}
	var total time.Duration
	all := make([]explain.CensoredStretch, 0, len(c.Stretches))
	for _, s := range c.Stretches {
		from := max(s.From, first)
		if from > s.To {
			continue
		}
		st := explain.CensoredStretch{Start: rec.Instant(from), End: end(s.To), Pods: s.Pods}
		d := st.End.Sub(st.Start)
		st.Duration = d.String()
		total += d
		all = append(all, st)
	}
	if len(all) > MaxCensoredStretches {
		// Keep the longest, in time order.
		byLength := slices.Clone(all)
		slices.SortStableFunc(byLength, func(a, b explain.CensoredStretch) int {
			return cmp.Compare(b.End.Sub(b.Start), a.End.Sub(a.Start))
		})
		keep := byLength[:MaxCensoredStretches]
		slices.SortFunc(keep, func(a, b explain.CensoredStretch) int { return a.Start.Compare(b.Start) })
		out.MoreStretches = len(all) - MaxCensoredStretches
		all = keep
	}
	out.Stretches = all
	out.Duration = total.String()
	if period := rec.End().Sub(rec.Instant(first)); period > 0 {
		out.Fraction = math.Round(float64(total)/float64(period)*1000) / 1000
	}
	return out
}

// censoredSource says what told where the demand was censored.
func censoredSource(rec *recording.Recording, c *recording.Censoring) string {
	var parts []string
	if c != nil && c.Limits {
		parts = append(parts, "limits from "+orWord(rec.LimitsFrom, "the recording"))
	}
	if c != nil && c.Throttling {
		parts = append(parts, "throttling from "+orWord(rec.ThrottlingFrom, "the recording"))
	}
	if len(parts) == 0 {
		return "not known: no limits and no throttling series"
	}
	return strings.Join(parts, ", ")
}

// CensoredNote is the note of a backtest or a tune with censored
// stretches: what is a lower bound there. "" when there is none.
func CensoredNote(c *explain.Censored) string {
	if c == nil || len(c.Stretches) == 0 {
		return ""
	}
	n := len(c.Stretches) + c.MoreStretches
	return fmt.Sprintf("censored demand: for %s (%.1f%% of the period, %d %s) ready pods ran at their CPU limit or were throttled (%s), so the real load may have been higher than recorded: "+
		"there the time above the bound and beyond the tolerance, and a replay's pod-hours, are lower bounds",
		c.Duration, c.Fraction*100, n, map[bool]string{true: "stretch", false: "stretches"}[n == 1], c.Source)
}

// markCensored marks metric i's time above its bound as a lower bound
// when the period had censored stretches.
func (s *pathTally) markCensored(bt *explain.BoundTime, i int) {
	if s.censored == nil || len(s.censored.Stretches) == 0 {
		return
	}
	bt.LowerBound, bt.CensoredTime = true, s.overCensored[i].String()
}
