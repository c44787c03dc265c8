// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/internal/reportfixture"
	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
)

// TestTuneText is the golden of tune's text view, over the report's
// hand-made tune with one more frontier candidate whose figures equal the
// recommendation's: the two share a row, which lists both values of the
// setting they differ in and keeps the recommendation's mark.
func TestTuneText(t *testing.T) {
	tu := reportfixture.Tune().Tune
	if tu.Recommended < 0 {
		t.Fatal("the fixture recommends nothing")
	}
	twin := tu.Candidates[tu.Recommended]
	twin.Values = append([]string(nil), twin.Values...)
	twin.Values[len(twin.Values)-1] = "tie"
	tu.Candidates = append(tu.Candidates, twin)
	var b bytes.Buffer
	if err := writeTune(&b, tu); err != nil {
		t.Fatal(err)
	}
	testutil.AssertGolden(t, b.Bytes(), *update)
	rows := 0
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "  *") {
			rows++
			if !strings.Contains(l, ", tie") {
				t.Errorf("the recommendation's row does not list its twin's value: %q", l)
			}
		}
	}
	if rows != 1 {
		t.Errorf("%d rows marked as the recommendation, want 1:\n%s", rows, b.String())
	}
}
