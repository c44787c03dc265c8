// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// fuzzSeedFiles are the example snapshots of docs/examples: real inputs of
// `-f`, in YAML and (converted) JSON.
func fuzzSeedFiles(f *testing.F) [][]byte {
	f.Helper()
	var out [][]byte
	for _, pattern := range []string{"../../docs/examples/*.yaml", "../../docs/examples/*/*.yaml"} {
		paths, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, data)
		}
	}
	if len(out) == 0 {
		f.Fatal("no seed files under docs/examples")
	}
	return out
}

// FuzzLoad feeds documents through the path `-f -` takes: ReadFiles on
// standard input, then Load. Whatever the bytes, the loader returns either a
// snapshot or a one-line error, and never panics.
func FuzzLoad(f *testing.F) {
	for _, data := range fuzzSeedFiles(f) {
		f.Add(data, "web")
		// The first document of a multi-document file, as JSON.
		first, _, _ := bytes.Cut(data, []byte("\n---"))
		if j, err := yaml.YAMLToJSON(first); err == nil {
			f.Add(j, "web")
		}
	}
	f.Add([]byte(`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web"},"spec":{"maxReplicas":3,"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"}}}]}`), "web")
	f.Add([]byte("a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c]\n"), "web")
	f.Add([]byte("---\n---\n"), "web")
	f.Add([]byte("apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\n  annotations:\n    autoscaling.alpha.kubernetes.io/metrics: '[{\"type\":\"Resource\"}]'\nspec:\n  maxReplicas: 2\n"), "web")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		sources, err := ReadFiles([]string{"-"}, bytes.NewReader(data))
		if err != nil {
			checkOneLine(t, err)
			return
		}
		res, err := Load(sources, Options{Name: name})
		if err != nil {
			checkOneLine(t, err)
			return
		}
		if res == nil || res.Snapshot == nil || res.Snapshot.HPA == nil {
			t.Fatalf("Load returned no error and no snapshot")
		}
		if res.Snapshot.HPA.Name != name {
			t.Fatalf("Load(%q) returned HPA %q", name, res.Snapshot.HPA.Name)
		}
		for _, w := range res.Warnings {
			if strings.Contains(w, "\n") {
				t.Fatalf("warning spans several lines: %q", w)
			}
		}
	})
}

func checkOneLine(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
		t.Fatalf("error is not one line: %q", msg)
	}
}
