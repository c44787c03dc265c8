// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/load"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ and the captures under docs/screenshots/")

// TestMain keeps the color variables of the developer's shell out of the
// tests: with CLICOLOR_FORCE set, every text output would be styled.
func TestMain(m *testing.M) {
	for _, k := range []string{"NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "COLORTERM"} {
		_ = os.Unsetenv(k)
	}
	os.Exit(m.Run())
}

// examplesDir holds the example snapshots, relative to this package.
var examplesDir = filepath.Join("..", "..", "docs", "examples")

// replayLine is the "Replay it:" command in an example's header comment.
var replayLine = regexp.MustCompile(`(?m)^#\s+kubectl hpa explain (\S+) -n (\S+) -f \S+ --now (\S+)\s*$`)

// example loads one snapshot of docs/examples and replays it at the --now
// of its header comment with the default controller settings.
func example(t *testing.T, file string) *explain.Decision {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(examplesDir, file))
	if err != nil {
		t.Fatal(err)
	}
	m := replayLine.FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s: no '# kubectl hpa explain NAME -n NS -f FILE --now TIME' line in the header", file)
	}
	now, err := time.Parse(time.RFC3339Nano, string(m[3]))
	if err != nil {
		t.Fatal(err)
	}
	// Named as in the repository, so that notes quoting the file read the
	// same wherever the test runs.
	src := load.Source{Name: "docs/examples/" + file, Data: data}
	res, err := load.Load([]load.Source{src}, load.Options{Name: string(m[1]), Namespace: string(m[2])})
	if err != nil {
		t.Fatal(err)
	}
	res.Snapshot.Now = now
	d, err := engine.Evaluate(res.Snapshot, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func exampleFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in %s: %v", examplesDir, err)
	}
	for i, f := range files {
		files[i] = filepath.Base(f)
	}
	return files
}

// styledOptions are the options of the styled goldens: forced 256 colors,
// width 100.
var styledOptions = render.Options{Color: true, Palette: render.Palette256, Width: 100, Pods: render.PodsAuto}

// TestExamples renders every view of every example snapshot.
func TestExamples(t *testing.T) {
	views := []struct {
		name   string
		format render.Format
		opts   render.Options
	}{
		{"styled", render.FormatText, styledOptions},
		{"styled-no-pods", render.FormatText, withPods(styledOptions, render.PodsNone)},
		{"plain", render.FormatText, render.Options{}},
		{"plain-no-pods", render.FormatText, render.Options{Pods: render.PodsNone}},
		{"json", render.FormatJSON, render.Options{}},
		{"yaml", render.FormatYAML, render.Options{}},
	}
	for _, file := range exampleFiles(t) {
		name := strings.TrimSuffix(file, ".yaml")
		d := example(t, file)
		for _, v := range views {
			t.Run(name+"/"+v.name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := render.Write(&buf, v.format, d, v.opts); err != nil {
					t.Fatal(err)
				}
				testutil.AssertGolden(t, buf.Bytes(), *update)
			})
		}
	}
}

func withPods(o render.Options, p render.PodsMode) render.Options {
	o.Pods = p
	return o
}

// The flags reach the renderer: explain --color=always --no-pods prints the
// styled, pod-less golden (stdout is not a terminal: width 100).
func TestExamples_throughTheCommand(t *testing.T) {
	t.Setenv("TERM", "xterm-256color")
	files := exampleFiles(t)
	t.Chdir(filepath.Join("..", ".."))
	for _, file := range files {
		name := strings.TrimSuffix(file, ".yaml")
		data, err := os.ReadFile(filepath.Join("docs", "examples", file))
		if err != nil {
			t.Fatal(err)
		}
		m := replayLine.FindSubmatch(data)
		want, err := os.ReadFile(filepath.Join("pkg", "cmd", "testdata", "TestExamples", name, "styled-no-pods.golden"))
		if err != nil {
			t.Fatal(err)
		}
		// Read from the repository's root, the snapshot has the name the
		// goldens give it (a name of another length would wrap otherwise).
		out, _, err := runRoot(t, "", "explain", string(m[1]), "-n", string(m[2]), "-f", "docs/examples/"+file, "--now", string(m[3]), "--color=always", "--no-pods")
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("%s: explain --color=always --no-pods differs from its golden:\n%s", file, testutil.LineDiff(string(want), out))
		}
		plain, _, err := runRoot(t, string(data), "explain", string(m[1]), "-n", string(m[2]), "-f", "-", "--now", string(m[3]))
		if err != nil || strings.Contains(plain, "\x1b[") {
			t.Errorf("%s: explain to a pipe must print the plain view (err %v)", file, err)
		}
	}
}

var ansiSGR = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestScreenshots keeps docs/screenshots in step with the styled goldens:
// <example>.ansi is the styled view as a terminal receives it, and
// <example>.txt the same without escape sequences, for reading anywhere.
func TestScreenshots(t *testing.T) {
	dir := filepath.Join("..", "..", "docs", "screenshots")
	for _, file := range exampleFiles(t) {
		name := strings.TrimSuffix(file, ".yaml")
		var buf bytes.Buffer
		if err := render.Write(&buf, render.FormatText, example(t, file), styledOptions); err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{
			name + ".ansi": buf.Bytes(),
			name + ".txt":  ansiSGR.ReplaceAll(buf.Bytes(), nil),
		}
		for f, got := range files {
			path := filepath.Join(dir, f)
			if *update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o600); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./pkg/cmd -update to create it)", err)
			}
			if !bytes.Equal(want, got) {
				t.Errorf("%s is out of date (run go test ./pkg/cmd -update):\n%s", path, testutil.LineDiff(string(want), string(got)))
			}
		}
	}
}
