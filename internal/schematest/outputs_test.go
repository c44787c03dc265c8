// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package schematest_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/internal/schematest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/cli"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// repoRoot is the repository, relative to this package.
const repoRoot = "../.."

// notOutputs are the goldens that hold no document a command prints, with
// why.
var notOutputs = map[string]string{
	// A zero explain.Decision (no apiVersion, kind or outcome): it checks
	// that the renderers survive one; the engine never returns it.
	"pkg/render/testdata/TestWrite/empty/json.golden": "zero decision",
	"pkg/render/testdata/TestWrite/empty/yaml.golden": "zero decision",
}

// Every JSON and YAML golden of the repository's tests (the -o json|yaml
// outputs of explain, of the views and of migrate) matches the schema its
// kind names.
func TestGoldens(t *testing.T) {
	var jsonFiles, yamlFiles int
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			// The differential module has its own goldens (none are
			// outputs); hidden directories hold no test data; _output
			// holds build products, among them the release check's copy of
			// an older tree, whose goldens are that tree's.
			if rel == "test/differential" || rel == "_output" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		isJSON, isYAML := strings.HasSuffix(rel, "json.golden"), strings.HasSuffix(rel, "yaml.golden")
		if !isJSON && !isYAML {
			return nil
		}
		if _, skip := notOutputs[rel]; skip {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		t.Run(rel, func(t *testing.T) {
			if isYAML {
				yamlFiles++
				j, err := yaml.YAMLToJSON(data)
				if err != nil {
					t.Fatal(err)
				}
				data = j
			} else {
				jsonFiles++
			}
			schematest.CheckAny(t, data)
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// render's TestWrite (5 scenarios), cmd's TestExamples (3) and
	// migrate's TestPlan (10) at the time of writing: a walk that finds
	// far fewer has lost its way.
	if jsonFiles < 15 || yamlFiles < 7 {
		t.Errorf("found %d JSON and %d YAML goldens, want at least 15 and 7", jsonFiles, yamlFiles)
	}
}

// replayLine is the "Replay it:" command in the header of an example.
var replayLine = regexp.MustCompile(`(?m)^#\s+kubectl hpa explain (\S+) -n (\S+) -f (\S+) --now (\S+)\s*$`)

// run runs the plugin as its binary would.
func run(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := cli.Main(args, genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}); code != 0 {
		t.Fatalf("kubectl hpa %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
	}
	return out.Bytes()
}

// The outputs of explain and whatif on every snapshot of docs/examples,
// and of version, match their schemas.
func TestExampleOutputs(t *testing.T) {
	t.Chdir(repoRoot) // the examples name their files from the root
	var examples []string
	for _, pattern := range []string{"docs/examples/*.yaml", "docs/examples/*/*.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		examples = append(examples, m...)
	}
	replayed := 0
	for _, file := range examples {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m := replayLine.FindStringSubmatch(string(data))
		if m == nil {
			continue // not a snapshot (a behavior stanza)
		}
		replayed++
		base := []string{"-n", m[2], "-f", m[3], "--now", m[4]}
		t.Run(file, func(t *testing.T) {
			explain := append([]string{"explain", m[1]}, base...)
			schematest.Check(t, schema.Explanation, run(t, append(explain, "-o", "json")...))
			if err := schematest.ValidateYAML(schema.Explanation, run(t, append(explain, "-o", "yaml")...)); err != nil {
				t.Errorf("-o yaml: %v", err)
			}
			whatif := append([]string{"whatif", m[1]}, base...)
			schematest.Check(t, schema.WhatIf, run(t, append(whatif, "--all-ready", "--for", "3m", "-o", "json")...))
		})
	}
	if replayed < 15 {
		t.Errorf("replayed %d examples, want at least 15", replayed)
	}
	schematest.Check(t, schema.WhatIf, run(t, "whatif", "web", "-n", "shop", "-f", "docs/examples/cpu-scale-up-unready.yaml",
		"--now", "2026-01-01T00:00:00Z", "--behavior", "docs/examples/whatif/slow-up.yaml", "--cpu=+50%", "--for", "auto", "-o", "json"))
	schematest.Check(t, schema.Version, run(t, "version", "-o", "json"))
}

// The schema command prints what docs/schema holds.
func TestSchemaCommand(t *testing.T) {
	for _, k := range schema.Kinds() {
		want, err := os.ReadFile(filepath.Join(repoRoot, "docs", "schema", string(k)+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if got := run(t, "schema", string(k)); !bytes.Equal(got, want) {
			t.Errorf("kubectl hpa schema %s differs from docs/schema/%s.json (make docs)", k, k)
		}
	}
}
