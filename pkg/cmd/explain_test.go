// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/version"
)

var fixedNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// runExplainFlags parses args with the explain command and returns the
// completed options without running anything.
func runExplainFlags(t *testing.T, args ...string) (*ExplainOptions, error) {
	t.Helper()
	streams, _, _, _ := genericiooptions.NewTestIOStreams()
	var got *ExplainOptions
	c := NewCmdExplain(streams, nil, func(o *ExplainOptions) error {
		got = o
		return nil
	})
	c.SetArgs(args)
	c.SetOut(&bytes.Buffer{})
	c.SetErr(&bytes.Buffer{})
	c.SilenceErrors = true
	c.SilenceUsage = true
	err := c.Execute()
	return got, err
}

func TestExplain_flags(t *testing.T) {
	o, err := runExplainFlags(t, "web", "-n", "shop", "-f", "a.yaml", "-f", "b.yaml,c.yaml", "-o", "json",
		"--now", "2026-01-01T01:00:00.25+01:00", "--tolerance", "0.05", "--cpu-initialization-period", "2m",
		"--initial-readiness-delay", "10s", "--downscale-stabilization", "1m", "--sync-period", "30s",
		"--feature-gates", "HPAScaleToZero=true, PodLevelResources=false", "--controller-version", "v1.36.3")
	if err != nil {
		t.Fatal(err)
	}
	src := o.SourceConfig()
	if o.Name != "web" || o.Namespace() != "shop" || src.Namespace != "shop" || strings.Join(src.Files, " ") != "a.yaml b.yaml c.yaml" || o.Format() != render.FormatJSON {
		t.Errorf("options = %+v, source = %+v", o, src)
	}
	if want := fixedNow.Add(250 * time.Millisecond); !src.Now.Equal(want) || src.Now.Location() != time.UTC {
		t.Errorf("now = %v, want %v in UTC", src.Now, want)
	}
	ptrTo := func(d time.Duration) *time.Duration { return &d }
	tol := 0.05
	v := profile.MustParse("v1.36.3")
	want := action.SettingsOverrides{
		Tolerance: &tol, CPUInitializationPeriod: ptrTo(2 * time.Minute), InitialReadinessDelay: ptrTo(10 * time.Second),
		DownscaleStabilization: ptrTo(time.Minute), SyncPeriod: ptrTo(30 * time.Second),
		FeatureGates:      map[profile.Gate]bool{profile.HPAScaleToZero: true, profile.PodLevelResources: false},
		ControllerVersion: &v,
	}
	if got := o.Overrides(); !reflect.DeepEqual(got, want) {
		t.Errorf("overrides = %+v\nwant        %+v", got, want)
	}
}

func TestExplain_defaults(t *testing.T) {
	o, err := runExplainFlags(t, "web", "-f", "-")
	if err != nil {
		t.Fatal(err)
	}
	// Nothing given: every setting comes from the controller or the defaults.
	if got := o.Overrides(); !reflect.DeepEqual(got, action.SettingsOverrides{}) || o.Format() != render.FormatText || o.Namespace() != "" {
		t.Errorf("overrides %+v format %q namespace %q", got, o.Format(), o.Namespace())
	}
	if time.Since(o.SourceConfig().Now) > time.Minute {
		t.Errorf("now = %v, want about the current time", o.SourceConfig().Now)
	}
}

func TestExplain_flagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-f", "a.yaml"}, "the name of the HorizontalPodAutoscaler is required"},
		{[]string{"a", "b", "-f", "a.yaml"}, "at most one HorizontalPodAutoscaler name is expected, got 2: [a b]"},
		{[]string{"web", "-f", "a.yaml", "--now", "yesterday"}, `--now: "yesterday" is not an RFC 3339 time`},
		{[]string{"web", "-f", "a.yaml", "--now", "2026-01-01 00:00:00"}, `is not an RFC 3339 time`},
		{[]string{"web", "-f", "a.yaml", "-o", "wide"}, `unknown output format "wide" (want one of: text, json, yaml)`},
		{[]string{"web", "-f", "a.yaml", "--controller-version", "1.37", "--feature-gates", "HPAScaleToZero=true,Foo=true"}, `unknown feature gate "Foo" (gates of v1.37: HPAConfigurableTolerance, HPAScaleToZero, PodLevelResources, HPAGeneration, HPAOptimizedSelectorStore, StaleControllerConsistencyHPA)`},
		{[]string{"web", "-f", "a.yaml", "--feature-gates", "HPAScaleToZero=maybe"}, `the value must be true or false`},
		{[]string{"web", "-f", "a.yaml", "--feature-gates", "HPAScaleToZero"}, `"HPAScaleToZero" is not Name=true|false`},
		{[]string{"web", "-f", "a.yaml", "--controller-version", "v1.37.2", "--feature-gates", "HPAConfigurableTolerance=false"}, `feature gate HPAConfigurableTolerance is GA and locked to true in v1.37`},
		{[]string{"web", "-f", "a.yaml", "--controller-version", "1.32", "--feature-gates", "HPAGeneration=true"}, `feature gate HPAGeneration does not exist in v1.32`},
		{[]string{"web", "-f", "a.yaml", "--controller-version", "1.28"}, `controller version v1.28 is not supported: kubectl-hpa replays the HPA controller of v1.29 to v1.37`},
		{[]string{"web", "-f", "a.yaml", "--controller-version", "latest"}, `--controller-version: "latest" is not a Kubernetes version`},
		{[]string{"web", "-f", "a.yaml", "--tolerance", "-0.1"}, "--tolerance must not be negative"},
		{[]string{"web", "-f", "a.yaml", "--initial-readiness-delay", "-1s"}, "--initial-readiness-delay must not be negative"},
		{[]string{"web", "-f", "a.yaml", "--sync-period", "0s"}, "--sync-period must be positive"},
		{[]string{"web", "-f", "a.yaml", "--tolerance", "lots"}, `invalid argument "lots" for "--tolerance"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, err := runExplainFlags(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want %q", err, tc.want)
			}
			var fe *FlagError
			if !errors.As(err, &fe) && !strings.Contains(tc.want, "invalid argument") {
				t.Errorf("error %v is not a FlagError", err)
			}
		})
	}
}

const fixture = `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
status: {replicas: 3}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: other, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: gone}
  maxReplicas: 10
`

// runRoot executes the root command with args and returns stdout, stderr
// and the error.
func runRoot(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	streams, in, out, errOut := genericiooptions.NewTestIOStreams()
	in.WriteString(stdin)
	root := NewCmdRoot(streams)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errOut.String(), err
}

// stubbed replaces the evaluator of the explain command.
func stubbed(t *testing.T, stdin string, eval action.EvaluateFunc, args ...string) (string, string, error) {
	t.Helper()
	streams, in, out, errOut := genericiooptions.NewTestIOStreams()
	in.WriteString(stdin)
	c := NewCmdExplain(streams, nil, func(o *ExplainOptions) error {
		o.Evaluate = eval
		return o.Run(context.Background())
	})
	c.SetArgs(args)
	c.SilenceErrors = true
	c.SilenceUsage = true
	err := c.Execute()
	return out.String(), errOut.String(), err
}

func TestExplain_runWithStubbedEngine(t *testing.T) {
	var seen *engine.Snapshot
	var seenSettings engine.Settings
	eval := func(s *engine.Snapshot, set engine.Settings) (*explain.Decision, error) {
		seen, seenSettings = s, set
		return &explain.Decision{
			APIVersion: explain.APIVersion, Kind: explain.KindExplanation,
			HPA: explain.ObjectRef{Namespace: s.HPA.Namespace, Name: s.HPA.Name}, Now: s.Now,
			CurrentReplicas: s.Target.SpecReplicas, DesiredReplicas: 4, Outcome: explain.OutcomeRescale,
		}, nil
	}
	out, errOut, err := stubbed(t, fixture, eval, "web", "-f", "-", "--now", "2026-01-01T00:00:00Z", "-o", "json", "--tolerance", "0.2")
	if err != nil {
		t.Fatal(err)
	}
	if !seen.Now.Equal(fixedNow) || seen.Target.Selector != "app=web" || seen.HPA.Namespace != "shop" || seenSettings.Tolerance != 0.2 {
		t.Errorf("snapshot now=%v target=%+v ns=%q tolerance=%v", seen.Now, seen.Target, seen.HPA.Namespace, seenSettings.Tolerance)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	if got["desiredReplicas"] != float64(4) || got["currentReplicas"] != float64(3) || got["kind"] != "Explanation" {
		t.Errorf("decision = %v", got)
	}
	if !strings.Contains(errOut, `Warning: HPA "shop/other": scale target Deployment/gone is not in the input`) {
		t.Errorf("stderr = %q, want the warning", errOut)
	}

	_, _, err = stubbed(t, fixture, func(*engine.Snapshot, engine.Settings) (*explain.Decision, error) {
		return nil, errors.New("boom")
	}, "web", "-f", "-")
	if err == nil || err.Error() != `replay HPA "shop/web": boom` {
		t.Errorf("engine error = %v", err)
	}
}

func TestExplain_loadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, resources: {requests: {cpu: lots}}}]}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", "api", "-f", "-"}, `horizontalpodautoscaler "api" not found in namespace "shop" (files: <stdin>)`},
		{[]string{"explain", "web", "-f", bad}, `bad.yaml:1 (document 1): v1 Pod "p": spec.containers[0].resources.requests.cpu: invalid quantity "lots"`},
		{[]string{"explain", "web", "-f", filepath.Join(dir, "missing.yaml")}, `missing.yaml: no such file or directory`},
	} {
		stdin := fixture
		if tc.args[1] == "api" {
			stdin = strings.ReplaceAll(fixture, "name: other", "name: x")
			tc.args = append(tc.args, "-n", "shop")
		}
		_, _, err := runRoot(t, stdin, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error = %v, want %q", tc.args, err, tc.want)
		}
	}
}

// The bundled examples replay through the real engine.
func TestExplain_examples(t *testing.T) {
	for _, tc := range []struct {
		file, name, now string
		desired         float64
		outcome         string
		text            []string
	}{
		{"cpu-scale-up-unready.yaml", "web", "2026-01-01T00:00:00Z", 8, "Rescale", []string{"2 unready", "Unready pods counted as:  0", "Desired replicas:  8 (scale 6 → 8)"}},
		{"scale-down-stabilized.yaml", "catalog", "2026-03-02T10:15:00Z", 8, "NoChange", []string{"ScaleDownStabilized", "Held until:", "2026-03-02T10:17:45Z"}},
		{"multi-metric-missing.yaml", "checkout", "2026-03-02T14:30:00Z", 6, "FailedComputeMetricsReplicas", []string{"2 missing", "FailedGetExternalMetric", "invalid metrics (1 invalid out of 3)"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("..", "..", "docs", "examples", tc.file)
			out, errOut, err := runRoot(t, "", "explain", tc.name, "-n", "shop", "-f", path, "--now", tc.now, "-o", "json")
			if err != nil || errOut != "" {
				t.Fatalf("err=%v stderr=%q", err, errOut)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if got["desiredReplicas"] != tc.desired || got["outcome"] != tc.outcome {
				t.Errorf("desiredReplicas=%v outcome=%v, want %v %v", got["desiredReplicas"], got["outcome"], tc.desired, tc.outcome)
			}
			text, _, err := runRoot(t, "", "explain", tc.name, "-f", path, "--now", tc.now)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.text {
				if !strings.Contains(text, s) {
					t.Errorf("text output lacks %q", s)
				}
			}
		})
	}
}

func TestVersion(t *testing.T) {
	out, _, err := runRoot(t, "", "version")
	if err != nil || !strings.HasPrefix(out, "Version:    dev\nCommit:     unknown\n") {
		t.Errorf("version: %v\n%s", err, out)
	}
	out, _, err = runRoot(t, "", "version", "-o", "json")
	var info version.Info
	if err != nil || json.Unmarshal([]byte(out), &info) != nil || info.Version != "dev" || info.GoVersion == "" {
		t.Errorf("version -o json: %v\n%s", err, out)
	}
	out, _, err = runRoot(t, "", "version", "-o", "yaml")
	if err != nil || !strings.Contains(out, "version: dev\n") {
		t.Errorf("version -o yaml: %v\n%s", err, out)
	}
	if _, _, err := runRoot(t, "", "version", "-o", "wide"); err == nil {
		t.Error("version -o wide succeeded")
	}
}

func TestRoot(t *testing.T) {
	root := NewCmdRoot(genericiooptions.NewTestIOStreamsDiscard())
	if root.Annotations[cobra.CommandDisplayNameAnnotation] != DisplayName || !root.SilenceErrors || !root.SilenceUsage {
		t.Error("root must carry the display name and silence cobra's own error printing")
	}
	out, _, err := runRoot(t, "", "explain", "--help")
	if err != nil || !strings.Contains(out, "kubectl hpa explain [NAME] [-n NAMESPACE | -A]") {
		t.Errorf("help: %v\n%s", err, out)
	}
	_, _, err = runRoot(t, "", "explain", "web", "--bogus")
	var fe *FlagError
	if !errors.As(err, &fe) || fe.CommandPath != "kubectl hpa explain" {
		t.Errorf("unknown flag error = %#v", err)
	}
}

// kubectlFlags are the connection flags cli-runtime adds, as kubectl has them.
var kubectlFlags = func() map[string]bool {
	fs := pflag.NewFlagSet("kubectl", pflag.ContinueOnError)
	genericclioptions.NewConfigFlags(true).AddFlags(fs)
	out := map[string]bool{}
	fs.VisitAll(func(f *pflag.Flag) { out[f.Name] = true })
	return out
}()

// TestHelpConventions walks the command tree and checks the help text
// rules of the style guide.
func TestHelpConventions(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		if s := c.Short; s == "" || strings.ToUpper(s[:1]) != s[:1] || strings.HasSuffix(s, ".") {
			t.Errorf("%s: Short %q must start with a capital and have no final period", c.CommandPath(), s)
		}
		lines := strings.Split(c.Example, "\n")
		for i, l := range lines {
			l = strings.TrimSpace(l)
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			if strings.HasPrefix(l, "$") {
				t.Errorf("%s: example line %q starts with $", c.CommandPath(), l)
			}
			if i == 0 || !strings.HasPrefix(strings.TrimSpace(lines[i-1]), "# ") {
				t.Errorf("%s: example line %q is not preceded by a # comment", c.CommandPath(), l)
			}
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if kubectlFlags[f.Name] {
				return // kubectl's own connection flags keep kubectl's wording
			}
			u := f.Usage
			if u == "" || strings.ToUpper(u[:1]) != u[:1] || strings.HasSuffix(u, ".") {
				t.Errorf("%s --%s: usage %q must start with a capital and have no final period", c.CommandPath(), f.Name, u)
			}
			if f.Name != strings.ToLower(f.Name) {
				t.Errorf("%s --%s: flags are lower-case", c.CommandPath(), f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewCmdRoot(genericiooptions.NewTestIOStreamsDiscard()))
}
