// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/fleet"
)

// shardDocs writes the documents of a run's two shards, and returns their
// files and the run's document in one process.
func shardDocs(t *testing.T) ([]string, *explain.TuneFleet) {
	t.Helper()
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	var items []explain.FleetItem
	for i, name := range []string{"web", "cart", "search", "worker", "api"} {
		items = append(items, explain.FleetItem{
			HPA: explain.ObjectRef{Namespace: "shop", Name: name}, CostUnit: "core-hours", Status: explain.FleetRecommended,
			AsIs: &explain.FleetFigures{Cost: 10}, Recommended: &explain.FleetFigures{Cost: 10 - float64(i)}, Saving: float64(i),
			Command: "kubectl patch hpa " + name + " -n shop --type merge -p '{}'", Patch: `{"spec":{"minReplicas":1}}`, Changes: []string{"min-replicas 2 → 1"},
		})
	}
	items = append(items, fleet.Failed(explain.ObjectRef{Namespace: "shop", Name: "legacy"}, os.ErrNotExist))
	whole := fleet.Document(items, start, start.Add(7*24*time.Hour), fleet.DefaultMinFidelity, []string{"a note"})
	dir := t.TempDir()
	var files []string
	for s := range 2 {
		sh := explain.FleetShard{Index: s, Count: 2}
		var mine []explain.FleetItem
		for _, it := range items {
			if fleet.InShard(sh, "", it.HPA.Namespace, it.HPA.Name) {
				mine = append(mine, it)
			}
		}
		d := fleet.Document(mine, whole.Start, whole.End, whole.MinFidelity, whole.Notes)
		d.Shard = &sh
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, "shard-"+string(rune('0'+s))+".json")
		if err := os.WriteFile(f, b, 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files, whole
}

// tune --merge prints the run's document and table from its shards'
// documents, reads no cluster, and exits 1 when an HPA failed (after the
// table); what cannot be merged is a one-line error.
func TestTuneMerge(t *testing.T) {
	files, whole := shardDocs(t)
	code, out, stderr := mainArgs("tune", "--merge", files[1], "--merge", files[0], "-o", "json", "--kubeconfig", "/nonexistent")
	want, _ := json.MarshalIndent(whole, "", "  ")
	if code != 1 || strings.TrimSpace(out) != string(want) || stderr != "error: 1 of 6 HPAs could not be tuned (their lines say why)\n" {
		t.Errorf("tune --merge -o json: exit %d, stderr %q, stdout:\n%s\nwant\n%s", code, stderr, out, want)
	}
	code, out, _ = mainArgs("tune", "--merge", files[0], "--merge", files[1])
	if code != 1 || !strings.HasPrefix(out, "Tune of 6 HPAs, 2026-11-24") || !strings.Contains(out, "Total (core-hours, 5 HPAs): 50 as they are, 40 with 5 recommendations") {
		t.Errorf("tune --merge: exit %d:\n%s", code, out)
	}
	code, out, _ = mainArgs("tune", "--merge", files[0], "--merge", files[1], "--emit", "command")
	if code != 1 || strings.Count(out, "kubectl patch hpa") != 5 || !strings.HasPrefix(out, "kubectl patch hpa api ") {
		t.Errorf("tune --merge --emit command: exit %d:\n%s", code, out)
	}
	tuned := filepath.Join(t.TempDir(), "tuned")
	code, out, stderr = mainArgs("tune", "--merge", files[0], "--merge", files[1], "--emit", "patches", "--out", tuned)
	if code != 1 || strings.Count(out, ".yaml\n") != 6 || !strings.Contains(out, "components: ["+filepath.Join(tuned, "in-cluster")+"]") {
		t.Errorf("tune --merge --emit patches: exit %d, stderr %q:\n%s", code, stderr, out)
	}
	if b, err := os.ReadFile(filepath.Join(tuned, "in-cluster", "shop", "web.yaml")); err != nil || !strings.Contains(string(b), "minReplicas: 1") {
		t.Errorf("web's patch: %v\n%s", err, b)
	}
	page := filepath.Join(t.TempDir(), "fleet.html")
	code, _, stderr = mainArgs("tune", "--merge", files[0], "--merge", files[1], "--report", page)
	if b, err := os.ReadFile(page); code != 1 || err != nil || !strings.Contains(string(b), "<h1>Tune of 6 HPAs, ranked by saving</h1>") {
		t.Errorf("tune --merge --report: exit %d, stderr %q, %v", code, stderr, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"kind":"Tune","bogus":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--merge", files[0]}, 1, "error: --merge: shards 1 of 2 are missing: a merge needs every shard's document\n"},
		{[]string{"--merge", files[0], "--merge", files[0]}, 1, "error: --merge: shard 0/2 is given twice\n"},
		{[]string{"--merge", files[0], "--out", "x"}, 1, "--emit patches and --out DIR go together"},
		{[]string{"--since", "1h", "--emit", "patches", "--prometheus", "http://127.0.0.1:1"}, 1, "--emit patches and --out DIR go together"},
		{[]string{"web", "--since", "1h", "--emit", "patches", "--out", "x"}, 1, "give them without a NAME"},
		{[]string{"--merge", bad}, 1, "error: --merge " + bad + `: not a fleet document (what --shard I/N -o json prints): error unmarshaling JSON: while decoding JSON: json: unknown field "bogus"` + "\n"},
		{[]string{"web", "--merge", files[0]}, 1, "--merge joins the documents of a tune of many HPAs: give no NAME"},
		{[]string{"web", "--shard", "0/2", "--since", "1h"}, 1, "give them without a NAME"},
		{[]string{"--shard", "2/2", "--since", "1h", "--prometheus", "http://127.0.0.1:1"}, 1, `--shard "2/2": want INDEX/COUNT`},
		{[]string{"--shard", "/2", "--since", "1h", "--prometheus", "http://127.0.0.1:1"}, 1, "--shard /2 takes its index from JOB_COMPLETION_INDEX, which is not set"},
	} {
		code, _, stderr := mainArgs(append([]string{"tune"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 2 {
			t.Errorf("tune %s: exit %d, stderr %q; want %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
	}
}

// tune without a NAME over files tunes every HPA of the files as tune NAME
// -f does (here each fails, with no Prometheus to read: the row's reason is
// tune NAME's error, HPA for HPA), lists an HPA given twice once, takes -n
// and -l, and exits 1 after its table.
func TestTuneManyFiles(t *testing.T) {
	dir := filepath.Join("..", "..", "docs", "examples", "troubleshooting")
	period := []string{"--prometheus", "http://127.0.0.1:1", "--since", "2025-12-31T23:00:00Z", "--until", "2026-01-01T00:00:00Z", "--kubeconfig", "/nonexistent"}
	code, out, stderr := mainArgs(append([]string{"tune", "-f", dir, "-o", "json"}, period...)...)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (every HPA failed): %s", code, stderr)
	}
	var doc explain.TuneFleet
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	namespaces := map[string]bool{}
	for _, it := range doc.Items {
		key := it.HPA.Namespace + "/" + it.HPA.Name
		if seen[key] {
			t.Errorf("%s listed twice", key)
		}
		seen[key], namespaces[it.HPA.Namespace] = true, true
		if it.Status != explain.FleetFailed {
			t.Errorf("%s: %s, want failed", key, it.Status)
			continue
		}
		one, _, oneErr := mainArgs(append([]string{"tune", it.HPA.Name, "-n", it.HPA.Namespace, "-f", dir}, period...)...)
		if one != 1 || !strings.Contains(oneErr, it.Reason) {
			t.Errorf("%s: the fleet's reason %q is not tune NAME's error (exit %d): %s", key, it.Reason, one, oneErr)
		}
	}
	if len(doc.Items) < 10 || len(namespaces) < 3 || !seen["shop/web"] {
		t.Errorf("%d HPAs in %d namespaces, want every HPA of the examples (shop/web among them)", len(doc.Items), len(namespaces))
	}
	code, out, stderr = mainArgs(append([]string{"tune", "-f", dir, "-n", "shop", "-l", "nothing=here", "-o", "json"}, period...)...)
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 || len(doc.Items) != 0 {
		t.Errorf("-n shop -l nothing=here: exit %d, %d rows (%v), want 0 and none: %s", code, len(doc.Items), err, stderr)
	}
	code, out, _ = mainArgs(append([]string{"tune", "-f", dir, "-n", "jobs", "-o", "json"}, period...)...)
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 || len(doc.Items) != 1 || doc.Items[0].HPA.Name != "worker" {
		t.Errorf("-n jobs: exit %d, rows %+v (%v), want jobs/worker alone", code, doc.Items, err)
	}
}
