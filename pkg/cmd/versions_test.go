// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The same offline snapshot, replayed as different controller versions,
// gives each version's answer where they differ. The snapshot sits at a
// utilization ratio of exactly 55/50 = 1.1: controllers of v1.32 and older
// test |1 − ratio| ≤ 0.1, which is false in float64, and scale 4 → 5; v1.33
// and newer test 0.9 ≤ ratio ≤ 1.1 and keep 4.
func TestControllerVersionDecidesOffline(t *testing.T) {
	file := filepath.Join(examplesDir, "troubleshooting", "tolerance-boundary.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	base := []string{"explain", "orders", "-n", "shop", "-f", "-", "--now", "2026-03-14T12:05:00Z"}
	cases := []struct {
		flag         string // --controller-version; empty: none
		wantVersion  string
		wantSource   string
		wantDesired  int32
		wantTest     string
		wantRescale  bool
		wantToleText string // in the plain view
	}{
		{"1.29", "v1.29", "--controller-version", 5, "absolute", true, "|1 − 1.1| = 0.10000000000000009 ≤ 0.1? no"},
		{"v1.32", "v1.32", "--controller-version", 5, "absolute", true, "|1 − 1.1| = 0.10000000000000009 ≤ 0.1? no"},
		{"1.32.13", "v1.32.13", "--controller-version", 5, "absolute", true, "|1 − 1.1| = 0.10000000000000009 ≤ 0.1? no"},
		{"1.33", "v1.33", "--controller-version", 4, "interval", false, "0.90 ≤ 1.10 ≤ 1.10? yes"},
		{"1.36", "v1.36", "--controller-version", 4, "interval", false, "0.90 ≤ 1.10 ≤ 1.10? yes"},
		{"", "v1.37.2", "(assumed)", 4, "interval", false, "0.90 ≤ 1.10 ≤ 1.10? yes"},
	}
	for _, tc := range cases {
		t.Run("v"+strings.TrimPrefix(tc.flag, "v"), func(t *testing.T) {
			args := append([]string(nil), base...)
			if tc.flag != "" {
				args = append(args, "--controller-version", tc.flag)
			}
			out, stderr, err := runRoot(t, string(data), append(args, "-o", "json")...)
			if err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			var got struct {
				DesiredReplicas int32 `json:"desiredReplicas"`
				Rescale         bool  `json:"rescale"`
				Settings        struct {
					ControllerVersion       string `json:"controllerVersion"`
					ControllerVersionSource string `json:"controllerVersionSource"`
				} `json:"settings"`
				Metrics []struct {
					Tolerance struct {
						Test   string `json:"test"`
						Within bool   `json:"within"`
					} `json:"tolerance"`
				} `json:"metrics"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if got.DesiredReplicas != tc.wantDesired || got.Rescale != tc.wantRescale {
				t.Errorf("desiredReplicas %d rescale %t, want %d %t", got.DesiredReplicas, got.Rescale, tc.wantDesired, tc.wantRescale)
			}
			if got.Settings.ControllerVersion != tc.wantVersion || !strings.Contains(got.Settings.ControllerVersionSource, tc.wantSource) {
				t.Errorf("settings name %s (%s), want %s (%s)", got.Settings.ControllerVersion, got.Settings.ControllerVersionSource, tc.wantVersion, tc.wantSource)
			}
			if len(got.Metrics) != 1 || got.Metrics[0].Tolerance.Test != tc.wantTest {
				t.Errorf("metrics = %+v, want one with the %s tolerance test", got.Metrics, tc.wantTest)
			}
			plain, stderr, err := runRoot(t, string(data), append(args, "--no-pods")...)
			if err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			if !strings.Contains(plain, "Tolerance:         "+tc.wantToleText) {
				t.Errorf("the plain view does not show the tolerance test %q:\n%s", tc.wantToleText, plain)
			}
			if !strings.Contains(plain, "Controller version:         "+tc.wantVersion+" ") {
				t.Errorf("the plain view does not name the version %s:\n%s", tc.wantVersion, plain)
			}
		})
	}
}
