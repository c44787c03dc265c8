// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/cli"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

const (
	whatifExample = "../../docs/examples/cpu-scale-up-unready.yaml"
	whatifNow     = "2026-01-01T00:00:00Z"
)

// updating reads the -update flag, which the package's internal tests
// define.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// mainArgs runs the plugin as its binary would, returning the exit code,
// stdout and stderr.
func mainArgs(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := cli.Main(args, genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	return code, out.String(), errOut.String()
}

func whatifArgs(extra ...string) []string {
	return append([]string{"whatif", "web", "-n", "shop", "-f", whatifExample, "--now", whatifNow, "--color", "never"}, extra...)
}

// The "before" of whatif is exactly what explain prints for the same input.
func TestWhatifBeforeIsExplain(t *testing.T) {
	code, out, stderr := mainArgs(whatifArgs("--cpu=200m", "-o", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var w explain.WhatIf
	if err := json.Unmarshal([]byte(out), &w); err != nil {
		t.Fatal(err)
	}
	code, exp, stderr := mainArgs("explain", "web", "-n", "shop", "-f", whatifExample, "--now", whatifNow, "-o", "json")
	if code != 0 {
		t.Fatalf("explain exit %d: %s", code, stderr)
	}
	var d explain.Decision
	if err := json.Unmarshal([]byte(exp), &d); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&d, w.Before); diff != "" {
		t.Errorf("whatif's before differs from explain (-explain +before):\n%s", diff)
	}
	if w.Kind != explain.KindWhatIf || w.After == nil || w.Projection != nil {
		t.Errorf("kind %q, after %v, projection %v: want a WhatIf with after and no projection", w.Kind, w.After != nil, w.Projection != nil)
	}
	if w.After.Metrics[0].Value.String() != "200m" {
		t.Errorf("after: cpu value %s, want 200m", w.After.Metrics[0].Value)
	}
}

// Golden files for the text views.
func TestWhatifText(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"cpu", []string{"--cpu=200m"}},
		{"target-and-max", []string{"--target", "cpu=80%", "--max", "7"}},
		{"projection", []string{"--cpu=+20%", "--for", "8m"}},
		{"projection-styled", []string{"--cpu=+20%", "--for", "8m", "--color", "always"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := mainArgs(whatifArgs(tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			testutil.AssertGolden(t, []byte(out), updating())
		})
	}
}

func TestWhatifTrace(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "load.csv")
	if err := os.WriteFile(trace, []byte("time,cpu\n0s,3\n2m,1500m\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := mainArgs(whatifArgs("--trace", trace, "--for", "5m", "-o", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var w explain.WhatIf
	if err := json.Unmarshal([]byte(out), &w); err != nil {
		t.Fatal(err)
	}
	if w.Projection == nil || w.Projection.Trace != trace || len(w.Projection.Steps) != 21 {
		t.Fatalf("projection %+v, want 21 syncs (5m at 15s) driven by the trace", w.Projection)
	}
	if w.Projection.Duration != "5m0s" {
		t.Errorf("duration %s, want 5m0s", w.Projection.Duration)
	}
}

// Bad overrides: one line naming the flag, exit 1.
func TestWhatifErrors(t *testing.T) {
	behavior := filepath.Join(t.TempDir(), "b.yaml")
	if err := os.WriteFile(behavior, []byte("scaleUp:\n  policies:\n  - type: Pods\n    value: 0\n    periodSeconds: 15\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"nothing to change", nil, "no change given"},
		{"unknown metric", []string{"--metric", "rps=10"}, `--metric rps=10: the HPA shop/web has no Pods metric named "rps"`},
		{"unknown target", []string{"--target", "rps=10"}, `no metric named "rps"`},
		{"negative usage", []string{"--cpu=-5"}, `--cpu: "-5" is negative`},
		{"negative max", []string{"--max", "-2"}, "--max -2: spec.maxReplicas: Invalid value: -2: must be greater than or equal to 1"},
		{"bad relative", []string{"--memory=+abc%"}, "is not a relative change"},
		{"bad for", []string{"--cpu=1", "--for", "soon"}, `"soon" is not a duration`},
		{"bad load model", []string{"--cpu=1", "--load-model", "random"}, "--load-model must be"},
		{"bad behavior", []string{"--behavior", behavior}, "scaleUp.policies[0]: value must be positive"},
		{"missing trace", []string{"--trace", "/nonexistent/load.csv"}, "--trace: open /nonexistent/load.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := mainArgs(whatifArgs(tc.args...)...)
			if code != 1 {
				t.Errorf("exit %d, want 1 (stdout %q)", code, out)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q, want it to contain %q", stderr, tc.want)
			}
			if lines := strings.Count(strings.TrimRight(stderr, "\n"), "\n"); lines > 1 {
				t.Errorf("stderr has %d lines, want the error (and at most a hint):\n%s", lines+1, stderr)
			}
		})
	}
}
