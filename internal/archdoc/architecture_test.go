// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package archdoc

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the repository, relative to this package.
const repoRoot = "../.."

// architecturePage is the page the tests hold to the code, from the root.
const architecturePage = "docs/architecture.md"

// modulePrefix starts the import path of every package of ours.
const modulePrefix = "github.com/kubectl-hpa/kubectl-hpa/"

// maxFileLines is the most lines a non-test file of pkg/ has unless the
// "File size" paragraph names it.
const maxFileLines = 800

// faces are the packages that face the user; no package under internal/
// imports one.
var faces = []string{"pkg/cmd", "pkg/mcpserver", "pkg/cli"}

// page returns docs/architecture.md.
func page(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, architecturePage))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// ourImports runs go list on the patterns, from the repository root, and
// returns each package's imports of this module (not its tests'), as the
// page writes paths ("pkg/engine", "internal/retry"), sorted.
func ourImports(t *testing.T, patterns ...string) map[string][]string {
	t.Helper()
	args := append([]string{"list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = repoRoot
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	got := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		pkg := strings.TrimPrefix(fields[0], modulePrefix)
		imports := []string{}
		for _, imp := range fields[1:] {
			if rel, ok := strings.CutPrefix(imp, modulePrefix); ok {
				imports = append(imports, rel)
			}
		}
		slices.Sort(imports)
		got[pkg] = imports
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

// section returns the text of the page's "## title" section, up to the
// next heading of that level.
func section(t *testing.T, text, title string) string {
	t.Helper()
	_, rest, ok := strings.Cut(text, "\n## "+title+"\n")
	if !ok {
		t.Fatalf("%s has no section %q", architecturePage, "## "+title)
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// parenthesized matches a remark in parentheses with none inside it; the
// cells' remarks are removed innermost first.
var parenthesized = regexp.MustCompile(`\([^()]*\)`)

// importName is one package as a cell names it: "engine" for pkg/engine,
// "render/report", "internal/retry".
var importName = regexp.MustCompile(`^[a-z][a-z0-9]*(/[a-z][a-z0-9]*)*$`)

// layeringTable reads the "Layering rules" table: each package its first
// cell names (in backticks, one or more) with the imports of ours its
// second cell lists. That cell lists names separated by commas or
// semicolons, remarks in parentheses aside; "none" lists nothing; a name
// is a package of pkg/ without the prefix, or a path under internal/.
func layeringTable(t *testing.T) map[string][]string {
	t.Helper()
	rows := map[string][]string{}
	for _, line := range strings.Split(section(t, page(t), "Layering rules"), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, " | ")
		if len(cells) < 2 {
			t.Fatalf("%s: a row of the layering table has no imports cell: %s", architecturePage, line)
		}
		cell := cells[1]
		for {
			next := parenthesized.ReplaceAllString(cell, "")
			if next == cell {
				break
			}
			cell = next
		}
		cell = strings.ReplaceAll(cell, "`", "")
		imports := []string{}
		for _, name := range strings.FieldsFunc(cell, func(r rune) bool { return r == ',' || r == ';' }) {
			name = strings.TrimSpace(name)
			switch {
			case name == "none":
				continue
			case !importName.MatchString(name):
				t.Errorf("%s: the imports cell of %s holds %q, which names no package (write names like engine, render/report, internal/retry; remarks go in parentheses)", architecturePage, cells[0], name)
				continue
			case strings.HasPrefix(name, "internal/"):
				imports = append(imports, name)
			default:
				imports = append(imports, "pkg/"+name)
			}
		}
		slices.Sort(imports)
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(strings.TrimPrefix(cells[0], "| "), -1) {
			if _, dup := rows[m[1]]; dup {
				t.Errorf("%s: the layering table has two rows for %s", architecturePage, m[1])
			}
			rows[m[1]] = imports
		}
	}
	if len(rows) == 0 {
		t.Fatalf("%s: the layering table has no rows", architecturePage)
	}
	return rows
}

// words lists names for a message: "a, b and c".
func words(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// short writes a package as the table's imports cell does.
func short(pkgs []string) []string {
	out := make([]string, len(pkgs))
	for i, p := range pkgs {
		out[i] = strings.TrimPrefix(p, "pkg/")
	}
	return out
}

// Every package of pkg/ has a row in the layering table, and the row's
// imports of ours are the package's, no more and no fewer.
func TestLayeringTableIsTheImports(t *testing.T) {
	table := layeringTable(t)
	actual := ourImports(t, "./pkg/...")
	for _, pkg := range slices.Sorted(maps.Keys(actual)) {
		have := actual[pkg]
		said, ok := table[pkg]
		if !ok {
			t.Errorf("%s: the layering table has no row for %s; add one whose imports cell is %q", architecturePage, pkg, orNone(short(have)))
			continue
		}
		var add, remove []string
		for _, p := range have {
			if !slices.Contains(said, p) {
				add = append(add, p)
			}
		}
		for _, p := range said {
			if !slices.Contains(have, p) {
				remove = append(remove, p)
			}
		}
		var fix []string
		if len(add) > 0 {
			fix = append(fix, fmt.Sprintf("add %s (imported today)", words(short(add))))
		}
		if len(remove) > 0 {
			fix = append(fix, fmt.Sprintf("remove %s (not imported)", words(short(remove))))
		}
		if len(fix) > 0 {
			t.Errorf("%s: the layering table's imports of %s are stale: %s; go list says %q", architecturePage, pkg, strings.Join(fix, ", "), orNone(short(have)))
		}
	}
	for _, pkg := range slices.Sorted(maps.Keys(table)) {
		if _, ok := actual[pkg]; !ok {
			t.Errorf("%s: the layering table has a row for %s, which is no package of pkg/ (go list ./pkg/...): remove it or fix its name", architecturePage, pkg)
		}
	}
}

// orNone is the imports cell of a package importing pkgs.
func orNone(pkgs []string) string {
	if len(pkgs) == 0 {
		return "none"
	}
	return strings.Join(pkgs, ", ")
}

// No package under internal/ imports a face: a generator that needs the
// commands lives under hack/ (hack/gendocs), so the arrows between library
// packages all run down. Tests may (internal/schematest's run the
// commands).
func TestInternalImportsNoFace(t *testing.T) {
	for pkg, imports := range ourImports(t, "./internal/...") {
		for _, imp := range imports {
			if slices.Contains(faces, imp) {
				t.Errorf("%s imports %s, a face: only faces, mains and hack/ may (move the code that needs it under hack/, as hack/gendocs)", pkg, imp)
			}
		}
	}
	if !strings.Contains(section(t, page(t), "Layering rules"), "Nothing under `internal/` imports a face") {
		t.Errorf("%s: the layering rules do not state that nothing under internal/ imports a face", architecturePage)
	}
}

// lineCount counts the lines of a file as wc -l does.
func lineCount(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(data, []byte("\n"))
}

// fileSizeParagraph returns the paragraph of the layering rules that
// starts "File size:".
func fileSizeParagraph(t *testing.T) string {
	t.Helper()
	sec := section(t, page(t), "Layering rules")
	_, rest, ok := strings.Cut(sec, "\nFile size:")
	if !ok {
		t.Fatalf("%s: the layering rules have no paragraph starting \"File size:\"", architecturePage)
	}
	if i := strings.Index(rest, "\n\n"); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// A non-test file of pkg/ over 800 lines is named (by its path, in
// backticks) in the "File size" paragraph, which says why it is kept
// whole; and every file of pkg/ the paragraph names exists.
func TestLongFilesAreExplained(t *testing.T) {
	para := fileSizeParagraph(t)
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`(pkg/[^`]+\\.go)`").FindAllStringSubmatch(para, -1) {
		named[m[1]] = true
	}
	for _, p := range slices.Sorted(maps.Keys(named)) {
		if _, err := os.Stat(filepath.Join(repoRoot, p)); err != nil {
			t.Errorf("%s: the \"File size\" paragraph names %s, which does not exist (%v)", architecturePage, p, err)
		}
	}
	root := filepath.Join(repoRoot, "pkg")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(repoRoot, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if n := lineCount(t, path); n > maxFileLines && !named[rel] {
			t.Errorf("%s has %d lines, over %d: split it along its seams, or say in %s's \"File size\" paragraph (naming `%s`) why it is kept whole", rel, n, maxFileLines, architecturePage, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
