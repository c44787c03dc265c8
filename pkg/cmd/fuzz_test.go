// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd_test

import (
	"strings"
	"testing"
)

// fuzzFlags are the whatif flags that take a value, and the settings flags
// whatif shares with explain.
var fuzzFlags = []string{
	"--cpu", "--memory", "--metric", "--object", "--external", "--target",
	"--min", "--max", "--replicas", "--scale-up-tolerance", "--scale-down-tolerance",
	"--for", "--pod-startup", "--load-model", "--sync-period", "--tolerance",
	"--cpu-initialization-period", "--initial-readiness-delay", "--downscale-stabilization",
	"--feature-gates", "--controller-version", "--now", "-o",
}

// FuzzWhatifFlags runs `kubectl hpa whatif` on an example snapshot with two
// flags of the fuzzer's choosing, through the same entry point as the
// binary. The property: exit 0 with output, or exit 1 with one "error: ..."
// line (and the usage hint); never an internal error (a recovered panic).
func FuzzWhatifFlags(f *testing.F) {
	seeds := []struct {
		flag  uint8
		value string
	}{
		{0, "200m"},
		{0, "+50%"},
		{0, "80%"},
		{0, "80%req"},
		{0, "app=90%"},
		{1, "512Mi"},
		{1, "-20%"},
		{2, "rps=100"},
		{3, "hits=+10%"},
		{4, "queue=400"},
		{4, "queue{q=a}=7"},
		{5, "cpu=70%"},
		{5, "cpu=250m"},
		{6, "2"},
		{7, "10"},
		{7, "2147483647"},
		{8, "100000000"},
		{8, "100000"},
		{8, "3"},
		{9, "0.05"},
		{10, "0.2"},
		{11, "auto"},
		{11, "30m"},
		{11, "1000000h"},
		{12, "90s"},
		{12, "-1s"},
		{13, "constant-per-pod"},
		{14, "1ns"},
		{14, "15s"},
		{15, "0.1"},
		{16, "5m"},
		{17, "30s"},
		{18, "1h"},
		{19, "HPAScaleToZero=true"},
		{20, "1.32"},
		{21, "2026-01-01T00:05:00Z"},
		{22, "json"},
	}
	for i, s := range seeds {
		next := seeds[(i+7)%len(seeds)]
		f.Add(s.flag, s.value, next.flag, next.value)
	}
	f.Fuzz(func(t *testing.T, flag1 uint8, value1 string, flag2 uint8, value2 string) {
		args := whatifArgs(
			fuzzFlags[int(flag1)%len(fuzzFlags)]+"="+value1,
			fuzzFlags[int(flag2)%len(fuzzFlags)]+"="+value2,
		)
		code, out, stderr := mainArgs(args...)
		switch code {
		case 0:
			if out == "" {
				t.Fatalf("%q: exit 0 without output", args)
			}
		case 1:
			if strings.Contains(stderr, "internal error") {
				t.Fatalf("%q: %s", args, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if !strings.HasPrefix(lines[0], "error: ") || len(lines) > 2 || (len(lines) == 2 && !strings.HasPrefix(lines[1], "See '")) {
				t.Fatalf("%q: the error is not one line (and a hint):\n%s", args, stderr)
			}
		default:
			t.Fatalf("%q: exit %d", args, code)
		}
	})
}
