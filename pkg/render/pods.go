// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// MaxPodRows is how many pods the text views list per metric in PodsAuto
// mode before they summarize the rest.
const MaxPodRows = 20

// podClasses is the order the pod classes are counted in.
var podClasses = []string{explain.PodReady, explain.PodUnready, explain.PodMissing, explain.PodIgnored, explain.PodSuperfluous}

// visiblePods splits the entries into the rows to list and the rest. In
// PodsAuto mode a long list keeps the pods that are not ready first, since
// they are the ones that change the arithmetic, and fills up with ready
// pods; the rows keep the engine's order.
func visiblePods(entries []explain.PodEntry, mode PodsMode) (shown, hidden []explain.PodEntry) {
	switch mode {
	case PodsNone:
		return nil, entries
	case PodsAll:
		return entries, nil
	default:
		if len(entries) <= MaxPodRows {
			return entries, nil
		}
	}
	keep := make([]bool, len(entries))
	n := 0
	for _, readyPass := range []bool{false, true} {
		for i, e := range entries {
			if n == MaxPodRows {
				break
			}
			if (e.Class == explain.PodReady) == readyPass {
				keep[i] = true
				n++
			}
		}
	}
	for i, e := range entries {
		if keep[i] {
			shown = append(shown, e)
		} else {
			hidden = append(hidden, e)
		}
	}
	return shown, hidden
}

// classCounts says "4 ready, 2 missing" for the entries.
func classCounts(entries []explain.PodEntry) string {
	count := map[string]int{}
	for _, e := range entries {
		count[e.Class]++
	}
	var parts []string
	for _, c := range podClasses {
		if count[c] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[c], c))
			delete(count, c)
		}
	}
	for _, e := range entries {
		if count[e.Class] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[e.Class], orUnknown(e.Class)))
			delete(count, e.Class)
		}
	}
	return strings.Join(parts, ", ")
}

// hiddenPodsLine summarizes the rows visiblePods left out in PodsAuto mode.
func hiddenPodsLine(hidden []explain.PodEntry) string {
	return fmt.Sprintf("… and %d more (%s); use --pods to list all", len(hidden), classCounts(hidden))
}
