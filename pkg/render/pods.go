// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import "github.com/kubectl-hpa/kubectl-hpa/pkg/explain"

// MaxPodRows is how many pods the text views list per metric in PodsAuto
// mode before they summarize the rest.
const MaxPodRows = 20

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
