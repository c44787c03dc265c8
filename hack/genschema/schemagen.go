// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// DocsFile and SchemaDir are where Write writes, relative to the repository
// root.
const (
	DocsFile  = "pkg/schema/docs_generated.go"
	SchemaDir = "docs/schema"
)

// modulePath is this module: only its string types get enumerations.
const modulePath = "github.com/kubectl-hpa/kubectl-hpa"

// Extract reads the docs of every type schema.Types lists from the source
// of its package, found with `go list` (run in the working directory,
// inside the module).
func Extract() (*schema.Docs, error) {
	ts, err := schema.Types()
	if err != nil {
		return nil, err
	}
	byPkg := map[string][]reflect.Type{}
	var pkgs []string
	for _, t := range ts {
		if _, ok := byPkg[t.PkgPath()]; !ok {
			pkgs = append(pkgs, t.PkgPath())
		}
		byPkg[t.PkgPath()] = append(byPkg[t.PkgPath()], t)
	}
	dirs, err := packageDirs(pkgs)
	if err != nil {
		return nil, err
	}
	docs := &schema.Docs{Types: map[string]string{}, Fields: map[string]string{}, Enums: map[string][]string{}}
	for _, p := range pkgs {
		if err := readPackage(docs, p, dirs[p], byPkg[p]); err != nil {
			return nil, err
		}
	}
	return docs, nil
}

// packageDirs finds the source directory of each package.
func packageDirs(pkgs []string) (map[string]string, error) {
	cmd := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}"}, pkgs...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	dirs := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if p, d, ok := strings.Cut(l, "\t"); ok {
			dirs[p] = d
		}
	}
	for _, p := range pkgs {
		if dirs[p] == "" {
			return nil, fmt.Errorf("go list found no directory for package %s", p)
		}
	}
	return dirs, nil
}

// readPackage parses the package's non-test files and records the docs of
// the wanted types.
func readPackage(docs *schema.Docs, pkg, dir string, wanted []reflect.Type) error {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" || strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		files = append(files, f)
	}
	specs := map[string]*ast.TypeSpec{}
	specDoc := map[string]*ast.CommentGroup{}
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				specs[ts.Name.Name] = ts
				specDoc[ts.Name.Name] = ts.Doc
				if ts.Doc == nil && len(gd.Specs) == 1 {
					specDoc[ts.Name.Name] = gd.Doc
				}
			}
		}
	}
	for _, t := range wanted {
		ts, ok := specs[t.Name()]
		if !ok {
			return fmt.Errorf("package %s: no declaration of type %s in %s", pkg, t.Name(), dir)
		}
		key := schema.DefName(t)
		if d := text(specDoc[t.Name()]); d != "" {
			docs.Types[key] = d
		}
		if st, ok := ts.Type.(*ast.StructType); ok {
			readFields(docs, fset, key, st)
		}
		if t.Kind() == reflect.String && strings.HasPrefix(pkg, modulePath+"/") {
			if values, ok := enumValues(files, t.Name()); ok {
				docs.Enums[key] = values
			}
		}
	}
	return nil
}

// readFields records the doc comment of each field of a struct (or its
// line comment). A field without either, right below a field whose comment
// names it ("MetricIndex and Metric name the winning metric"), shares
// that comment.
func readFields(docs *schema.Docs, fset *token.FileSet, typeKey string, st *ast.StructType) {
	var prev *ast.Field
	var prevDoc string
	for _, f := range st.Fields.List {
		d := text(f.Doc)
		if d == "" {
			d = text(f.Comment)
		}
		if d == "" && prev != nil && prevDoc != "" && fset.Position(f.Pos()).Line == fset.Position(prev.End()).Line+1 {
			for _, n := range f.Names {
				if mentions(prevDoc, n.Name) {
					d = prevDoc
				}
			}
		}
		for _, n := range f.Names {
			if d != "" && n.IsExported() {
				docs.Fields[typeKey+"."+n.Name] = d
			}
		}
		if len(f.Names) == 0 && d != "" { // an embedded field
			docs.Fields[typeKey+"."+embeddedName(f.Type)] = d
		}
		prev, prevDoc = f, d
	}
}

func embeddedName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return embeddedName(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.Ident:
		return x.Name
	}
	return ""
}

// mentions reports whether doc has name as a word.
func mentions(doc, name string) bool {
	for _, w := range strings.FieldsFunc(doc, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		if w == name {
			return true
		}
	}
	return false
}

// enumValues returns the values of the constants of type name declared in
// the files, when each is a string literal (otherwise the values are not
// known for sure, and there is no enumeration).
func enumValues(files []*ast.File, name string) ([]string, bool) {
	var values []string
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			typed := false // the previous spec's type is name (implicit repetition)
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if vs.Type == nil && len(vs.Values) == 0 {
					if typed {
						return nil, false
					}
					continue
				}
				id, _ := vs.Type.(*ast.Ident)
				typed = id != nil && id.Name == name
				if !typed {
					if mentionsType(vs.Values, name) {
						return nil, false
					}
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						return nil, false
					}
					s, err := strconv.Unquote(lit.Value)
					if err != nil {
						return nil, false
					}
					values = append(values, s)
				}
			}
		}
	}
	return values, len(values) > 0
}

// mentionsType reports whether an expression names the type (a conversion
// such as Outcome("x") makes a constant of it without saying so in the
// spec's type).
func mentionsType(exprs []ast.Expr, name string) bool {
	found := false
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == name {
				found = true
			}
			return !found
		})
	}
	return found
}

// text is a comment as a description: paragraphs of joined lines, without
// Kubernetes' +marker lines and the Go directives.
func text(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	var paras []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, l := range strings.Split(cg.Text(), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
			flush()
		case strings.HasPrefix(l, "+"), strings.HasPrefix(l, "TODO"), l == "---":
		default:
			cur = append(cur, l)
		}
	}
	flush()
	return strings.Join(paras, "\n\n")
}

// DocsSource is the Go source of DocsFile for docs.
func DocsSource(docs *schema.Docs) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Copyright 2026 The kubectl-hpa Authors.\n// SPDX-License-Identifier: Apache-2.0\n\n")
	b.WriteString("// Code generated by hack/genschema from the Go doc comments. DO NOT EDIT.\n\npackage schema\n\n")
	b.WriteString("var generatedDocs = Docs{\n")
	writeMap := func(name string, m map[string]string) {
		fmt.Fprintf(&b, "%s: map[string]string{\n", name)
		for _, k := range sortedKeys(m) {
			fmt.Fprintf(&b, "%s: %s,\n", strconv.Quote(k), strconv.Quote(m[k]))
		}
		b.WriteString("},\n")
	}
	writeMap("Types", docs.Types)
	writeMap("Fields", docs.Fields)
	b.WriteString("Enums: map[string][]string{\n")
	for _, k := range sortedKeys(docs.Enums) {
		q := make([]string, len(docs.Enums[k]))
		for i, v := range docs.Enums[k] {
			q[i] = strconv.Quote(v)
		}
		fmt.Fprintf(&b, "%s: {%s},\n", strconv.Quote(k), strings.Join(q, ", "))
	}
	b.WriteString("},\n}\n")
	return format.Source(b.Bytes())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Schemas returns docs/schema's files, by name, as the schemas read with
// docs.
func Schemas(docs *schema.Docs) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, k := range schema.Kinds() {
		b, err := schema.Generate(k, schema.Options{Docs: docs})
		if err != nil {
			return nil, err
		}
		out[string(k)+".json"] = b
	}
	return out, nil
}

// Write regenerates DocsFile and SchemaDir under root, the repository, and
// returns the files it changed.
func Write(root string) ([]string, error) {
	docs, err := Extract()
	if err != nil {
		return nil, err
	}
	src, err := DocsSource(docs)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{DocsFile: src}
	schemas, err := Schemas(docs)
	if err != nil {
		return nil, err
	}
	for name, b := range schemas {
		files[filepath.Join(SchemaDir, name)] = b
	}
	if err := os.MkdirAll(filepath.Join(root, SchemaDir), 0o755); err != nil {
		return nil, err
	}
	var changed []string
	for _, name := range sortedKeys(files) {
		p := filepath.Join(root, name)
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, files[name]) {
			continue
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return nil, err
		}
		changed = append(changed, name)
	}
	return changed, nil
}
