// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Command assemble turns the lines the vector hooks recorded
// (RAWDIR/<level>.jsonl) into the vector files of one release
// (OUTDIR/<file>.json): one JSON array per level, fields in the schema's
// order, an id per vector made from its test name (kebab case, sub-tests
// joined by "--", a -2, -3 … suffix when a name repeats). Numbers are copied
// as written (int64 targets do not survive a float64 round trip).
//
//	go run ./hack/vectors/assemble RAWDIR OUTDIR
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// vector holds the fields in the order the README's schema lists them.
type vector struct {
	ID               string          `json:"id"`
	Source           string          `json:"source"`
	Level            json.RawMessage `json:"level"`
	Step             json.RawMessage `json:"step,omitempty"`
	Now              json.RawMessage `json:"now"`
	FeatureGates     json.RawMessage `json:"featureGates,omitempty"`
	EmulationVersion json.RawMessage `json:"emulationVersion,omitempty"`
	Controller       json.RawMessage `json:"controller,omitempty"`
	Calculator       json.RawMessage `json:"calculator,omitempty"`
	Input            json.RawMessage `json:"input,omitempty"`
	HPA              json.RawMessage `json:"hpa,omitempty"`
	Target           json.RawMessage `json:"target,omitempty"`
	Pods             json.RawMessage `json:"pods,omitempty"`
	PodMetrics       json.RawMessage `json:"podMetrics,omitempty"`
	CustomMetrics    json.RawMessage `json:"customMetrics,omitempty"`
	ExternalMetrics  json.RawMessage `json:"externalMetrics,omitempty"`
	MetricErrors     json.RawMessage `json:"metricErrors,omitempty"`
	State            json.RawMessage `json:"state,omitempty"`
	Expect           json.RawMessage `json:"expect"`
	Notes            json.RawMessage `json:"notes,omitempty"`
}

var files = []struct{ level, file string }{
	{"calculator", "replica_calculator.json"},
	{"reconcile", "reconcile.json"},
	{"normalize", "normalize.json"},
	{"groupPods", "group_pods.json"},
	{"requests", "requests.json"},
	{"quantity", "quantity.json"},
	{"utilization", "utilization.json"},
	{"metricsClient", "metrics_client.json"},
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: assemble RAWDIR OUTDIR")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "assemble:", err)
		os.Exit(1)
	}
}

func run(raw, out string) error {
	for _, f := range files {
		in, err := os.ReadFile(filepath.Join(raw, f.level+".jsonl"))
		if os.IsNotExist(err) {
			if err := os.Remove(filepath.Join(out, f.file)); err != nil && !os.IsNotExist(err) {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		var vs []vector
		sc := bufio.NewScanner(bytes.NewReader(in))
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			var v vector
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				return fmt.Errorf("%s: %w", f.level, err)
			}
			v.ID = kebab(testName(v.Source))
			vs = append(vs, v)
		}
		if err := sc.Err(); err != nil {
			return err
		}
		numberRepeats(vs)
		b, err := json.MarshalIndent(vs, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, f.file), append(b, '\n'), 0o644); err != nil {
			return err
		}
		fmt.Printf("%-26s %4d\n", f.file, len(vs))
	}
	return nil
}

// numberRepeats gives the vectors that share a name (a test without sub-test
// names that runs several cases, e.g. over a map, in random order) the
// suffixes -2, -3 … in an order of their content, not of the run: their HPA
// spec first, then their expectations, then the whole vector. The group keeps
// the places its members had in the file.
func numberRepeats(vs []vector) {
	at := map[string][]int{}
	var order []string
	for i, v := range vs {
		if _, ok := at[v.ID]; !ok {
			order = append(order, v.ID)
		}
		at[v.ID] = append(at[v.ID], i)
	}
	for _, id := range order {
		idx := at[id]
		if len(idx) < 2 {
			continue
		}
		group := make([]vector, len(idx))
		for k, i := range idx {
			group[k] = vs[i]
		}
		sort.SliceStable(group, func(a, b int) bool { return contentKey(group[a]) < contentKey(group[b]) })
		for k, i := range idx {
			vs[i] = group[k]
			if k > 0 {
				vs[i].ID = fmt.Sprintf("%s-%d", id, k+1)
			}
		}
	}
}

func contentKey(v vector) string {
	var spec struct {
		Spec json.RawMessage `json:"spec"`
	}
	_ = json.Unmarshal(v.HPA, &spec)
	whole, _ := json.Marshal(v)
	return string(spec.Spec) + "\x00" + string(v.Calculator) + string(v.Input) + "\x00" + string(v.Expect) + "\x00" + string(whole)
}

// testName is the part of "file TestName/sub" after the file.
func testName(source string) string {
	if _, name, ok := strings.Cut(source, " "); ok {
		return name
	}
	return source
}

var (
	lowerUpper = regexp.MustCompile(`([a-z0-9])([A-Z])`)
	upperWord  = regexp.MustCompile(`([A-Z])([A-Z][a-z])`)
	nonWord    = regexp.MustCompile(`[^A-Za-z0-9/]+`)
)

// kebab: TestScaleUpCM/scale_up → scale-up-cm--scale-up.
func kebab(name string) string {
	name = strings.TrimPrefix(name, "Test")
	name = lowerUpper.ReplaceAllString(name, "$1-$2")
	name = upperWord.ReplaceAllString(name, "$1-$2")
	name = nonWord.ReplaceAllString(name, "-")
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = strings.Trim(p, "-")
	}
	return strings.ToLower(strings.Join(parts, "--"))
}
