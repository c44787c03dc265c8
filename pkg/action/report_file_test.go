// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The report replaces the file whole, leaves no temporary file, and a
// failure is one line naming the flag and the file.
func TestWriteReport(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.html")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteReport(path, func(w io.Writer) error { _, err := io.WriteString(w, "<html>new</html>\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "<html>new</html>\n" {
		t.Errorf("the file holds %q", b)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}

	// A view that fails writes nothing: the old report stays.
	err := WriteReport(path, func(w io.Writer) error { _, _ = io.WriteString(w, "half"); return errors.New("boom") })
	if err == nil || err.Error() != "--report "+path+": boom" {
		t.Errorf("a failing view: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "<html>new</html>\n" {
		t.Errorf("after a failed write the file holds %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files, want the report alone", len(entries))
	}

	missing := filepath.Join(dir, "no", "r.html")
	err = WriteReport(missing, func(io.Writer) error { return nil })
	if err == nil || err.Error() != "--report "+missing+": no such file or directory" || strings.Contains(err.Error(), "\n") {
		t.Errorf("a missing directory: %v", err)
	}
	if err := CheckReportDir(missing); err == nil || err.Error() != "--report "+missing+": no such file or directory" {
		t.Errorf("checkReportDir of a missing directory: %v", err)
	}
	if err := CheckReportDir(filepath.Join(path, "x.html")); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("checkReportDir under a file: %v", err)
	}
	if err := CheckReportDir(path); err != nil {
		t.Errorf("checkReportDir of a writable place: %v", err)
	}
}
