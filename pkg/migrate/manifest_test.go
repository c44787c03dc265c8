// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
)

// webTarget is Deployment shop/web; an HPA also scales Deployment
// shop/worker.
func webTarget() ManifestTarget {
	return ManifestTarget{
		Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web", Path: []string{"spec", "replicas"},
		ScaledByHPA: func(group, kind, namespace, name string) (bool, bool) {
			if namespace != "shop" {
				return false, false
			}
			return group == "apps" && kind == "Deployment" && (name == "web" || name == "worker"), true
		},
	}
}

func readManifest(t *testing.T, name string) ManifestFile {
	t.Helper()
	p := filepath.Join("testdata", "manifests", name)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return ManifestFile{Path: filepath.ToSlash(p), Data: b, Mode: 0o644}
}

// TestEditManifests prints, for each input file, the changes found and the
// diff (golden files under testdata/TestEditManifests), and checks that
// editing the result again changes nothing.
func TestEditManifests(t *testing.T) {
	for _, name := range []string{"app.yaml", "flow.yaml", "template.yaml", "already.yaml", "list.yaml"} {
		t.Run(strings.TrimSuffix(name, ".yaml"), func(t *testing.T) {
			f := readManifest(t, name)
			edits, changes, warnings := EditManifests([]ManifestFile{f}, webTarget())
			var b strings.Builder
			for _, c := range changes {
				fmt.Fprintf(&b, "%s:%d %s %s replicas=%s: %s\n", c.File, c.Line, c.Object, c.Action, c.Replicas, c.Note)
			}
			for _, w := range warnings {
				fmt.Fprintf(&b, "warning: %s\n", w)
			}
			for _, e := range edits {
				b.WriteString(e.Diff)
			}
			testutil.AssertGolden(t, []byte(b.String()), *update)

			// Idempotent: the edited files have nothing left to remove.
			for _, e := range edits {
				again, changes, _ := EditManifests([]ManifestFile{{Path: e.Path, Data: e.After}}, webTarget())
				if len(again) != 0 {
					t.Errorf("a second edit of %s changes it again:\n%s", e.Path, again[0].Diff)
				}
				for _, c := range changes {
					if c.Action == ManifestRemove {
						t.Errorf("a second edit still finds the field: %+v", c)
					}
				}
			}
		})
	}
}

func TestEditManifests_keepsEveryOtherByte(t *testing.T) {
	f := readManifest(t, "app.yaml")
	edits, _, _ := EditManifests([]ManifestFile{f}, webTarget())
	if len(edits) != 1 {
		t.Fatalf("edits = %d", len(edits))
	}
	removed := "  # Three replicas for the launch.\n  # (Raised from two.)\n  replicas: 3 # see capacity plan\n"
	if want := strings.Replace(string(f.Data), removed, "", 1); string(edits[0].After) != want {
		t.Errorf("after:\n%s", edits[0].After)
	}
}

// Windows line endings stay (the file is built here: Git may normalize
// line endings of files in testdata).
func TestEditManifests_crlf(t *testing.T) {
	data := "apiVersion: apps/v1\r\nkind: Deployment\r\nmetadata:\r\n  name: web\r\nspec:\r\n  replicas: 3\r\n  selector:\r\n    matchLabels: {app: web}\r\n"
	f := ManifestFile{Path: "crlf.yaml", Data: []byte(data)}
	edits, changes, _ := EditManifests([]ManifestFile{f}, webTarget())
	if len(edits) != 1 || !strings.Contains(changes[0].Note, "no namespace") {
		t.Fatalf("edits %d, changes %+v", len(edits), changes)
	}
	if want := strings.Replace(string(f.Data), "  replicas: 3\r\n", "", 1); string(edits[0].After) != want {
		t.Errorf("after = %q", edits[0].After)
	}
}

func TestEditManifests_customPath(t *testing.T) {
	data := "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 4\n  replicas: 9  # not the scale field\n"
	mt := ManifestTarget{Group: "example.com", Kind: "Widget", Namespace: "shop", Name: "w", Path: []string{"spec", "size"}}
	edits, _, _ := EditManifests([]ManifestFile{{Path: "w.yaml", Data: []byte(data)}}, mt)
	if len(edits) != 1 || string(edits[0].After) != strings.Replace(data, "  size: 4\n", "", 1) {
		t.Fatalf("edits = %+v", edits)
	}
}

func TestWriteEdits(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "app.yaml")
	src := readManifest(t, "app.yaml")
	if err := os.WriteFile(p, src.Data, 0o600); err != nil {
		t.Fatal(err)
	}
	files, err := ReadManifests([]string{dir}, false, nil)
	if err != nil || len(files) != 1 || files[0].Mode != 0o600 {
		t.Fatalf("files = %+v, %v", files, err)
	}
	edits, _, _ := EditManifests(files, webTarget())
	if err := WriteEdits(edits); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if !bytes.Equal(got, edits[0].After) {
		t.Errorf("written = %s", got)
	}
	if info, _ := os.Stat(p); info.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v", info.Mode())
	}
	if _, err := ReadManifests([]string{"-"}, false, nil); err == nil {
		t.Error("stdin accepted")
	}
}

func TestUnifiedDiff(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nb\nc\n", "a\nc\n", "--- x\n+++ y\n@@ -1,3 +1,2 @@\n a\n-b\n c\n"},
		{"a\n", "a\nb\n", "--- x\n+++ y\n@@ -1,1 +1,2 @@\n a\n+b\n"},
		{"a\nb", "a\nc", "--- x\n+++ y\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		// Two changes far apart make two hunks.
		{
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
			"2\n3\n4\n5\n6\n7\n8\n9\n",
			"--- x\n+++ y\n@@ -1,4 +1,3 @@\n-1\n 2\n 3\n 4\n@@ -7,4 +6,3 @@\n 7\n 8\n 9\n-10\n",
		},
		{"", "a\n", "--- x\n+++ y\n@@ -0,0 +1,1 @@\n+a\n"},
	}
	for _, tc := range tests {
		if got := UnifiedDiff("x", "y", []byte(tc.a), []byte(tc.b)); got != tc.want {
			t.Errorf("UnifiedDiff(%q, %q) =\n%s\nwant\n%s", tc.a, tc.b, got, tc.want)
		}
	}
}

// The items of a List are edited like documents; the other items, the
// comments and the second document stay as they were.
func TestEditManifests_list(t *testing.T) {
	f := readManifest(t, "list.yaml")
	edits, changes, _ := EditManifests([]ManifestFile{f}, webTarget())
	if len(edits) != 1 {
		t.Fatalf("edits = %d, changes %+v", len(edits), changes)
	}
	want := strings.Replace(string(f.Data), "    # Launch size.\n    replicas: 3 # see capacity plan\n", "", 1)
	want = strings.Replace(want, "    replicas: 4\n", "", 1)
	if string(edits[0].After) != want {
		t.Errorf("after:\n%s", edits[0].After)
	}
	var removed int
	for _, c := range changes {
		if c.Action == ManifestRemove {
			removed++
		}
	}
	if removed != 2 {
		t.Errorf("removed %d fields, want 2 (the web items of both Lists): %+v", removed, changes)
	}
}

// "-" reads standard input once; its edit is marked and never written.
func TestReadManifests_stdin(t *testing.T) {
	src := readManifest(t, "app.yaml")
	files, err := ReadManifests([]string{"-"}, false, bytes.NewReader(src.Data))
	if err != nil || len(files) != 1 || !files[0].Stdin || files[0].Path != StdinPath || !bytes.Equal(files[0].Data, src.Data) {
		t.Fatalf("files = %+v, %v", files, err)
	}
	if _, err := ReadManifests([]string{"-", "-"}, false, bytes.NewReader(nil)); err == nil || !strings.Contains(err.Error(), "more than once") {
		t.Errorf("stdin twice: %v", err)
	}
	if _, err := ReadManifests([]string{"-"}, false, nil); err == nil {
		t.Error("no stdin: no error")
	}
	edits, _, _ := EditManifests(files, webTarget())
	if len(edits) != 1 || !edits[0].Stdin {
		t.Fatalf("edits = %+v", edits)
	}
	if err := WriteEdits(edits); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(StdinPath); !os.IsNotExist(err) {
		t.Errorf("WriteEdits wrote a file for stdin: %v", err)
	}
}
