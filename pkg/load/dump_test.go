// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/load"
)

var nowFlag = regexp.MustCompile(`--now[ =](\S+)`)

// Every bundled example survives Load → Dump → Load with the same decision.
func TestDumpRoundTrip(t *testing.T) {
	files, err := filepath.Glob("../../docs/examples/*.yaml")
	if err != nil || len(files) < 3 {
		t.Fatalf("examples: %v %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m := nowFlag.FindSubmatch(raw)
			if m == nil {
				t.Fatalf("%s: no --now in the header", f)
			}
			now, err := time.Parse(time.RFC3339Nano, string(m[1]))
			if err != nil {
				t.Fatal(err)
			}
			first := loadOne(t, []load.Source{{Name: f, Data: raw}})
			first.Now = now
			var dumped bytes.Buffer
			if err := load.DumpKEDA(&dumped, first, nil, nil, &load.ReplayFlags{Files: "-f", Now: "--now"}); err != nil {
				t.Fatal(err)
			}
			second := loadOne(t, []load.Source{{Name: "dump.yaml", Data: dumped.Bytes()}})
			second.Now = now
			a, b := decide(t, first), decide(t, second)
			if a != b {
				t.Fatalf("decision changed after the round trip\nbefore: %s\nafter:  %s\ndump:\n%s", a, b, dumped.String())
			}
		})
	}
}

func loadOne(t *testing.T, src []load.Source) *engine.Snapshot {
	t.Helper()
	res, err := load.Load(src, load.Options{Name: exampleHPA(t, src[0].Data)})
	if err != nil {
		t.Fatalf("%s: %v", src[0].Name, err)
	}
	return res.Snapshot
}

var hpaName = regexp.MustCompile(`kubectl hpa explain (\S+)`)

func exampleHPA(t *testing.T, raw []byte) string {
	t.Helper()
	m := hpaName.FindSubmatch(raw)
	if m == nil {
		t.Fatal("no 'kubectl hpa explain NAME' line in the header")
	}
	return string(m[1])
}

func decide(t *testing.T, s *engine.Snapshot) string {
	t.Helper()
	d, err := engine.Evaluate(s, engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	// Notes say where the state came from (a file, a dump); that differs by
	// design. Every number, condition and event must not.
	d.StateBefore.Notes, d.StateAfter.Notes, d.Assumptions = nil, nil, nil
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
