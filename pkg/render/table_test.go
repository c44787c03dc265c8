// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"strings"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Cells are measured by display width: styles take no room, a wide rune
// takes two cells; the last cell is never padded.
func TestTable_displayWidth(t *testing.T) {
	tb := &table{}
	tb.alignRight(1)
	tb.row("NAME", "USAGE", "NOTE")
	tb.row("\x1b[1mweb\x1b[0m", "5m", "")
	tb.row("日本", "120m", "x")
	got := strings.Join(tb.lines(), "\n")
	want := "NAME  USAGE  NOTE\n" +
		"\x1b[1mweb\x1b[0m      5m\n" +
		"日本   120m  x"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if r := tb.room(40, 2, 3); r != 40-2-(4+2)-(5+2) {
		t.Errorf("room %d", r)
	}
}

// Every bounding step has one name, whichever view prints it.
func TestLimiterWords(t *testing.T) {
	for _, c := range []struct {
		db   explain.DecidedBy
		want string
	}{
		{explain.DecidedBy{Kind: explain.DecidedByMaxReplicas}, "maxReplicas"},
		{explain.DecidedBy{Kind: explain.DecidedByMinReplicas}, "minReplicas"},
		{explain.DecidedBy{Kind: explain.DecidedByScaleUpRateLimit}, "scale-up rate limit"},
		{explain.DecidedBy{Kind: explain.DecidedByScaleDownRateLimit, Policy: &explain.PolicyLimit{Type: "Percent", Value: 10, PeriodSeconds: 60}}, "scale-down policy Percent 10%/60s"},
		{explain.DecidedBy{Kind: explain.DecidedByScaleUpStabilization}, "scale-up stabilization"},
		{explain.DecidedBy{Kind: explain.DecidedByScaleDownStabilization}, "scale-down stabilization"},
		{explain.DecidedBy{Kind: explain.DecidedByScaleFromZero}, "scale-from-zero floor"},
		{explain.DecidedBy{Kind: explain.DecidedByMetric}, ""},
		{explain.DecidedBy{Kind: explain.DecidedByFailure}, ""},
	} {
		if got := limiterWords(&c.db); got != c.want {
			t.Errorf("%s: %q, want %q", c.db.Kind, got, c.want)
		}
	}
}
