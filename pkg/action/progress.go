// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
)

// PrintWarnings prints each warning on its own line, as kubectl does
// ("Warning: ...").
func PrintWarnings(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintf(w, "Warning: %s\n", s)
	}
}

// RecordedProgress is the progress of a recorded-load read on errOut: a
// bar once the read has run for a second when errOut is a terminal (tty),
// nothing otherwise (nil).
func RecordedProgress(errOut io.Writer, tty bool) func(prom.Progress) {
	if !tty {
		return nil
	}
	return ProgressAfter(errOut, time.Second)
}

// ProgressAfter draws a progress bar on w once a read has run for delay,
// and clears it when the read is complete.
func ProgressAfter(w io.Writer, delay time.Duration) func(prom.Progress) {
	var mu sync.Mutex
	bar := &prom.ProgressBar{W: w}
	began := time.Now()
	return func(p prom.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(began) < delay {
			return
		}
		if p.Fraction() >= 1 {
			bar.Clear()
			return
		}
		bar.Draw(p)
	}
}

// ManyProgress is the progress of ExplainMany on errOut: "gathering N/M
// HPAs" redrawn in place from five HPAs on, and erased at the end, when
// errOut is a terminal (tty); nothing otherwise.
func ManyProgress(errOut io.Writer, tty bool) func(done, total int) {
	if !tty {
		return func(int, int) {}
	}
	return func(done, total int) {
		if total >= 5 {
			fmt.Fprintf(errOut, "\rgathering %d/%d HPAs", done, total)
			if done == total {
				fmt.Fprint(errOut, "\r\033[K")
			}
		}
	}
}
