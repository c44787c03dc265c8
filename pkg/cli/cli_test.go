// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/cmd"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	streams, in, out, errOut := genericiooptions.NewTestIOStreams()
	in.WriteString(stdin)
	code = Main(args, streams)
	return code, out.String(), errOut.String()
}

func TestMain_errors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stdin  string
		args   []string
		stderr string
	}{
		{"not YAML", "\tthis: [is not", []string{"explain", "web", "-f", "-"}, "error: <stdin>:1: invalid YAML: found character that cannot start any token\n"},
		{
			"unknown kind", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n",
			[]string{"explain", "web", "-f", "-"},
			"error: <stdin>:1 (document 1): unknown kind \"Widget\" of apiVersion \"example.com/v1\"\n",
		},
		{
			"HPA missing", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n",
			[]string{"explain", "web", "-f", "-"},
			"error: horizontalpodautoscaler \"web\" not found in namespace \"default\" (files: <stdin>)\n",
		},
		{
			"live mode without a kubeconfig", "",
			[]string{"explain", "web", "--kubeconfig", "/nonexistent/kubeconfig"},
			"error: load the kubeconfig: stat /nonexistent/kubeconfig: no such file or directory (to explain saved objects instead, pass them with -f)\n",
		},
		{"unknown flag", "", []string{"explain", "web", "--bogus"}, "error: unknown flag: --bogus\nSee 'kubectl hpa explain --help' for usage.\n"},
		{"unknown command", "", []string{"explian"}, "error: unknown command \"explian\" for \"kubectl hpa\"\n\nDid you mean this?\n\texplain\n"},
		{
			// Found by FuzzWhatifFlags: a value with a newline split the error.
			"control characters in a value", "",
			[]string{"explain", "web", "-f", "-", "--feature-gates", "A=1\nB\x1b[31m"},
			"error: --feature-gates: A=1\\nB\\x1b[31m: the value must be true or false\nSee 'kubectl hpa explain --help' for usage.\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(t, tc.stdin, tc.args...)
			if code != ExitError || out != "" {
				t.Errorf("code=%d stdout=%q", code, out)
			}
			if errOut != tc.stderr {
				t.Errorf("stderr:\n got %q\nwant %q", errOut, tc.stderr)
			}
			if strings.Count(errOut, "error:") != 1 {
				t.Errorf("the error must be printed once: %q", errOut)
			}
		})
	}
}

func TestMain_ok(t *testing.T) {
	code, out, errOut := run(t, "", "version")
	if code != ExitOK || !strings.Contains(out, "Version:") || errOut != "" {
		t.Errorf("code=%d stdout=%q stderr=%q", code, out, errOut)
	}
	code, out, _ = run(t, "")
	if code != ExitOK || !strings.Contains(out, "kubectl hpa [command]") {
		t.Errorf("no arguments: code=%d, want the help\n%s", code, out)
	}
}

func TestMain_recoversPanics(t *testing.T) {
	saved := newRoot
	t.Cleanup(func() { newRoot = saved })
	newRoot = func(streams genericiooptions.IOStreams) *cobra.Command {
		root := cmd.NewCmdRoot(streams)
		root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error { panic("index out of range") }})
		return root
	}
	code, _, errOut := run(t, "", "boom")
	if code != ExitError || errOut != "error: internal error: index out of range (please report this bug)\n" {
		t.Errorf("code=%d stderr=%q", code, errOut)
	}
	if strings.Contains(errOut, "goroutine") {
		t.Error("a stack trace was printed")
	}
}

// explain --exit-code's verdict exits 2, with its one line and no "error:";
// wrapped, it is still the verdict, printed alone.
func TestMain_problems(t *testing.T) {
	saved := newRoot
	t.Cleanup(func() { newRoot = saved })
	problems := &action.ProblemsError{HPAs: []action.HPAProblems{{HPA: "shop/web", Problems: []explain.Problem{explain.ProblemDisagrees}}}, Checked: 1}
	newRoot = func(streams genericiooptions.IOStreams) *cobra.Command {
		root := cmd.NewCmdRoot(streams)
		root.AddCommand(&cobra.Command{Use: "gate", RunE: func(*cobra.Command, []string) error { return fmt.Errorf("wrapped: %w", problems) }})
		return root
	}
	code, _, errOut := run(t, "", "gate")
	if code != ExitProblems || errOut != "problems found: shop/web: disagrees\n" {
		t.Errorf("code=%d stderr=%q", code, errOut)
	}
}
