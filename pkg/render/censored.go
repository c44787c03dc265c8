// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// censoredLine is the one line a backtest or a tune prints when the
// recorded demand was censored somewhere in the period; "" otherwise.
func censoredLine(c *explain.Censored, period time.Duration) string {
	if c == nil || len(c.Stretches) == 0 {
		return ""
	}
	d, err := time.ParseDuration(c.Duration)
	if err != nil {
		return ""
	}
	n := len(c.Stretches) + c.MoreStretches
	return clean(fmt.Sprintf("Censored: %s of %s (%s), %s: pods at their CPU limit or throttled (%s); the time above the bound is a lower bound there",
		shortDuration(d), shortDuration(period), pctWords(c.Fraction), plural(n, "stretch", "stretches"), c.Source))
}
