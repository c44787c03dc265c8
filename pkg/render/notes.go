// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"
	"time"
)

// Warnings writes each warning on a line of its own, as kubectl does
// ("Warning: ...").
func Warnings(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintf(w, "Warning: %s\n", s)
	}
}

// APICalls writes the number of API requests of a run, with suffix, at
// verbosity 1 (-v), and each request too from verbosity 2; nothing below.
func APICalls(w io.Writer, verbosity int, calls []string, suffix string) {
	if verbosity <= 0 {
		return
	}
	fmt.Fprintf(w, "API calls: %d%s\n", len(calls), suffix)
	if verbosity > 1 {
		for _, c := range calls {
			fmt.Fprintf(w, "  %s\n", c)
		}
	}
}

// GatherProgress returns the progress of a many-HPA read on a terminal
// w: "gathering N/M HPAs" redrawn in place from five HPAs on, erased at
// the end.
func GatherProgress(w io.Writer) func(done, total int) {
	return func(done, total int) {
		if total >= 5 {
			fmt.Fprintf(w, "\rgathering %d/%d HPAs", done, total)
			if done == total {
				fmt.Fprint(w, "\r\033[K")
			}
		}
	}
}

// FleetProgress shows on w (a terminal) which HPA of how many a tune of
// many is at, and the time left at the pace so far (now is the clock).
// The last call, with done == total, clears the line.
func FleetProgress(w io.Writer, now func() time.Time) func(done, total int, hpa string) {
	start := now()
	return func(done, total int, hpa string) {
		if done >= total {
			fmt.Fprint(w, "\r\033[K")
			return
		}
		left := "the time left is known after the first"
		if done > 0 {
			per := now().Sub(start) / time.Duration(done)
			left = "about " + shortDuration((per * time.Duration(total-done)).Round(time.Second)) + " left"
		}
		fmt.Fprintf(w, "\r\033[Ktuning %d/%d HPAs (%s): %s", done+1, total, left, hpa)
	}
}
