// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package textblock

import "testing"

func TestDedent(t *testing.T) {
	for in, want := range map[string]string{
		"\n\t\tone\n\t\t\ttwo\n\n\t\tthree\n": "one\n\ttwo\n\nthree",
		"flat":                                "flat",
		"\n\tA\n\tB\n":                        "A\nB",
	} {
		if got := Dedent(in); got != want {
			t.Errorf("Dedent(%q) = %q, want %q", in, got, want)
		}
	}
}
