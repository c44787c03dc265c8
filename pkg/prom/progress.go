// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// ProgressBar draws a Read's progress on one terminal line, redrawn in
// place with a carriage return. The command decides whether to show it
// (a terminal, a read that takes over a second); it writes to the
// io.Writer given (the error stream), never to stdout.
type ProgressBar struct {
	W io.Writer
	// Width is the bar's width in cells (0: 30).
	Width int
	drawn int
}

// Draw redraws the line for p: "[=====>    ]  45% cpu usage (12 requests)".
func (b *ProgressBar) Draw(p Progress) {
	width := b.Width
	if width <= 0 {
		width = 30
	}
	f := p.Fraction()
	full := int(f * float64(width))
	bar := strings.Repeat("=", full)
	if full < width {
		bar += ">" + strings.Repeat(" ", width-full-1)
	}
	what := p.What
	if what == "" {
		what = "recorded load"
	}
	line := fmt.Sprintf("[%s] %3.0f%% %s (%d requests)", bar, 100*f, what, p.Requests)
	pad := ""
	n := len([]rune(line))
	if n < b.drawn {
		pad = strings.Repeat(" ", b.drawn-n)
	}
	b.drawn = max(n, b.drawn)
	_, _ = fmt.Fprintf(b.W, "\r%s%s", line, pad)
}

// Clear erases the line, leaving the cursor at its start.
func (b *ProgressBar) Clear() {
	if b.drawn == 0 {
		return
	}
	_, _ = fmt.Fprintf(b.W, "\r%s\r", strings.Repeat(" ", b.drawn))
	b.drawn = 0
}

// ProgressAfter returns a Read's progress callback that draws a
// ProgressBar on w once the read has run for delay (a quick read shows
// nothing), and clears it when the read is complete.
func ProgressAfter(w io.Writer, delay time.Duration) func(Progress) {
	var mu sync.Mutex
	bar := &ProgressBar{W: w}
	began := time.Now()
	return func(p Progress) {
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
