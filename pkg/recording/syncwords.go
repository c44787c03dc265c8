// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package recording

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The line of plain words that says an estimate (SyncEstimate.Detail).

// syncDetail says the estimate in a line.
func syncDetail(est SyncEstimate, best, alt *syncFit, times []SyncTime, o SyncEstimateOptions) string {
	var b strings.Builder
	if est.Outliers > 0 {
		fmt.Fprintf(&b, "%d of %d", best.times, est.Events)
	} else {
		fmt.Fprintf(&b, "%d", est.Events)
	}
	fmt.Fprintf(&b, " event times over %s fit a %s grid", est.Span.Round(time.Second), seconds(best.step, 3))
	switch {
	case o.Known > 0:
		fmt.Fprintf(&b, " of the known %s period", o.Known)
	case est.Step != est.Period:
		fmt.Fprintf(&b, " (a %s period)", est.Period)
	}
	fmt.Fprintf(&b, " within %s (%s)", seconds(best.widest, 1), precisionWords(times, best))
	fmt.Fprintf(&b, "; %s", chanceWords(best.logChance))
	if est.Outliers > 0 {
		fmt.Fprintf(&b, "; %d off it (a restart of the controller, or another's events)", est.Outliers)
	}
	if alt != nil {
		fmt.Fprintf(&b, "; they fit a %s grid too, not taken: ", seconds(alt.step, 3))
		if unpacedGaps(alt, best, o.Paced) == 0 {
			b.WriteString("the HPA's policies space its rescales so")
		} else {
			b.WriteString("too few times to rule out chance")
		}
	}
	if grid := 1 - math.Exp(best.logChance); est.Confidence < grid-1e-6 {
		// Other periods the times fit took their share.
		fmt.Fprintf(&b, "; confidence in the %s period %.2f", est.Period, est.Confidence)
	}
	return b.String()
}

// seconds writes d seconds with at most the given decimals ("5.021s",
// "15s").
func seconds(d float64, decimals int) string {
	s := strconv.FormatFloat(d, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s + "s"
}

// precisionWords says how precise the times on f's grid are.
func precisionWords(times []SyncTime, f *syncFit) string {
	precise, coarse := 0, 0
	for i, t := range times {
		if !f.on[i] {
			continue
		}
		if t.Precision == 0 {
			precise++
		} else {
			coarse++
		}
	}
	switch {
	case coarse == 0:
		return "precise times"
	case precise == 0:
		return "whole-second times"
	}
	return fmt.Sprintf("%d precise times, %d whole-second", precise, coarse)
}

// chanceWords says how likely a fit this good is by accident.
func chanceWords(logChance float64) string {
	l10 := logChance / math.Ln10
	switch {
	case l10 <= -3:
		return fmt.Sprintf("chance fit below 1 in 10^%d", int(math.Floor(-l10)))
	case l10 > math.Log10(0.5):
		return "could well be chance"
	}
	return fmt.Sprintf("chance fit about 1 in %d", int(math.Round(math.Pow(10, -l10))))
}
