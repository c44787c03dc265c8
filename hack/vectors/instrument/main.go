// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Command instrument inserts the vector hooks (hack/vectors/hook) into a
// scratch copy of upstream's pkg/controller/podautoscaler package. It finds
// the functions by name with go/parser, so the same rules apply to every
// controller version whose drivers have these names; it fails when a rule
// matches nothing it must match, and prints what it inserted.
//
//	go run ./hack/vectors/instrument DIR
//
// Rules (each inserts one statement at the start of the function body):
//
//   - every method Get*Replicas of *ReplicaCalculator:
//     vecCalcEnter(recv, "Name", map[string]any{"param": param, ...})
//   - (*HorizontalController).reconcileAutoscaler:
//     defer vecReconcileEnter(recv, hpaParam, keyParam)()
//   - (*testCase).setupController: vecSetupController(t, recv)
//   - newHorizontalSetup (v1.37+, the table tests that call reconcileAutoscaler
//     directly): vecHorizontalSetup(t, scenario)
//   - the calculator tests' assertion helpers (assertResourceReplicas,
//     assertMetricReplicas; v1.37+): vecCalcExpect(t, map[string]any{"wantX": wantX, ...})
//   - (*replicaCalcTestCase).runTest (v1.36 and older): vecCalcCase(t, recv) after
//     the calculator call, through a deferred call at the start.
//   - the table loops of the pure-function tests, by test name (see tables below).
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

type insertion struct {
	offset int
	text   string
	what   string
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: instrument DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "instrument:", err)
		os.Exit(1)
	}
}

var getReplicas = regexp.MustCompile(`^Get[A-Za-z]*Replicas$`)

func run(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	found := map[string]int{}
	for _, path := range files {
		if strings.HasSuffix(path, "vechook.go") {
			continue
		}
		n, err := instrumentFile(path, found)
		if err != nil {
			return err
		}
		_ = n
	}
	names := make([]string, 0, len(found))
	for k := range found {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Printf("instrumented %-28s %d\n", k, found[k])
	}
	for _, must := range []string{"calculator", "reconcileAutoscaler", "setupController"} {
		if found[must] == 0 {
			return fmt.Errorf("no %s found to instrument", must)
		}
	}
	if found["calcExpect"] == 0 && found["calcCase"] == 0 {
		return fmt.Errorf("no calculator test driver found (assert helpers or replicaCalcTestCase.runTest)")
	}
	return nil
}

func recvType(fd *ast.FuncDecl) (recv, typ string) {
	if fd.Recv == nil || len(fd.Recv.List) != 1 {
		return "", ""
	}
	f := fd.Recv.List[0]
	if len(f.Names) == 1 {
		recv = f.Names[0].Name
	}
	if st, ok := f.Type.(*ast.StarExpr); ok {
		if id, ok := st.X.(*ast.Ident); ok {
			typ = id.Name
		}
	}
	return recv, typ
}

// params lists the parameter names that are not a context.Context.
func params(fd *ast.FuncDecl) []string {
	var out []string
	for _, f := range fd.Type.Params.List {
		if sel, ok := f.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Context" {
			continue
		}
		for _, n := range f.Names {
			out = append(out, n.Name)
		}
	}
	return out
}

func argMap(names []string, keep func(string) bool) string {
	var parts []string
	for _, n := range names {
		if n == "_" || !keep(n) {
			continue
		}
		parts = append(parts, fmt.Sprintf("%q: %s", n, n))
	}
	return "map[string]any{" + strings.Join(parts, ", ") + "}"
}

func tParam(fd *ast.FuncDecl) string {
	for _, f := range fd.Type.Params.List {
		if st, ok := f.Type.(*ast.StarExpr); ok {
			if sel, ok := st.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "T" {
				if len(f.Names) == 1 {
					return f.Names[0].Name
				}
			}
		}
	}
	return ""
}

func instrumentFile(path string, found map[string]int) (int, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return 0, err
	}
	var ins []insertion
	at := func(fd *ast.FuncDecl, text, what string) {
		ins = append(ins, insertion{offset: fset.Position(fd.Body.Lbrace).Offset + 1, text: "\n\t" + text + "\n", what: what})
		found[what]++
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		recv, typ := recvType(fd)
		name := fd.Name.Name
		switch {
		case typ == "ReplicaCalculator" && getReplicas.MatchString(name):
			at(fd, fmt.Sprintf("vecCalcEnter(%s, %q, %s)", recv, name, argMap(params(fd), func(string) bool { return true })), "calculator")
		case typ == "HorizontalController" && name == "reconcileAutoscaler":
			p := params(fd)
			if len(p) < 2 {
				return 0, fmt.Errorf("%s: reconcileAutoscaler has parameters %v", path, p)
			}
			at(fd, fmt.Sprintf("defer vecReconcileEnter(%s, %s, %s)()", recv, p[0], p[1]), "reconcileAutoscaler")
		case typ == "" && name == "newHorizontalSetup":
			p := params(fd)
			if len(p) < 2 {
				return 0, fmt.Errorf("%s: newHorizontalSetup has parameters %v", path, p)
			}
			at(fd, fmt.Sprintf("vecHorizontalSetup(%s, %s)", tParam(fd), p[1]), "horizontalSetup")
		case typ == "testCase" && name == "setupController":
			at(fd, fmt.Sprintf("vecSetupController(%s, %s)", tParam(fd), recv), "setupController")
		case typ == "" && (name == "assertResourceReplicas" || name == "assertMetricReplicas"):
			at(fd, fmt.Sprintf("vecCalcExpect(%s, %s)", tParam(fd), argMap(params(fd), func(n string) bool { return strings.HasPrefix(n, "want") })), "calcExpect")
		case typ == "replicaCalcTestCase" && name == "runTest":
			at(fd, fmt.Sprintf("defer vecCalcCase(%s, %s)", tParam(fd), recv), "calcCase")
		case typ == "" && strings.HasPrefix(name, "Test") && tParam(fd) != "":
			at(fd, fmt.Sprintf("vecRunTest(%s, %q)", tParam(fd), filepath.Base(path)), "tests")
			if rule, ok := tables[name]; ok {
				n, err := instrumentTable(fset, fd, rule, &ins)
				if err != nil {
					return 0, fmt.Errorf("%s: %s: %w", path, name, err)
				}
				found["table "+name] += n
			}
		}
	}
	if len(ins) == 0 {
		return 0, nil
	}
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].offset > ins[j].offset })
	out := src
	for _, in := range ins {
		out = append(out[:in.offset:in.offset], append([]byte(in.text), out[in.offset:]...)...)
	}
	return len(ins), os.WriteFile(path, out, 0o644)
}

// tables names, per pure-function test, the hook called at the start of the
// body of each t.Run closure (or range loop) with the loop variable.
var tables = map[string]string{}

// instrumentTable inserts hook(t, tc) at the start of every closure passed to
// t.Run inside fd whose enclosing range loop has a value variable.
func instrumentTable(fset *token.FileSet, fd *ast.FuncDecl, hook string, ins *[]insertion) (int, error) {
	n := 0
	ast.Inspect(fd.Body, func(node ast.Node) bool {
		rs, ok := node.(*ast.RangeStmt)
		if !ok {
			return true
		}
		val, ok := rs.Value.(*ast.Ident)
		if !ok {
			return true
		}
		*ins = append(*ins, insertion{offset: fset.Position(rs.Body.Lbrace).Offset + 1, text: fmt.Sprintf("\n\t%s(t, %s)\n", hook, val.Name)})
		n++
		return false
	})
	if n == 0 {
		return 0, fmt.Errorf("no range loop")
	}
	return n, nil
}
