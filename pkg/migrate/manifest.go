// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// ManifestFile is a local manifest file, or standard input.
type ManifestFile struct {
	Path string
	Data []byte
	Mode fs.FileMode
	// Stdin is set for the manifest read from standard input (-f -): its
	// edit is printed, never written.
	Stdin bool
}

// StdinPath names standard input in reports and diffs.
const StdinPath = "<stdin>"

// ReadManifests reads the files, and the *.yaml and *.yml files of the
// directories (of their subdirectories too with recursive), in a stable
// order. "-" reads stdin, once.
func ReadManifests(paths []string, recursive bool, stdin io.Reader) ([]ManifestFile, error) {
	var out []ManifestFile
	read := func(p string) error {
		info, err := os.Stat(p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out = append(out, ManifestFile{Path: p, Data: data, Mode: info.Mode().Perm()})
		return nil
	}
	stdinRead := false
	for _, p := range paths {
		if p == "-" {
			if stdinRead {
				return nil, errors.New(`-f -: standard input given more than once`)
			}
			stdinRead = true
			if stdin == nil {
				return nil, errors.New("-f -: no standard input to read from")
			}
			data, err := io.ReadAll(stdin)
			if err != nil {
				return nil, fmt.Errorf("-f -: %w", err)
			}
			out = append(out, ManifestFile{Path: StdinPath, Data: data, Stdin: true})
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("-f %s: %w", p, err)
		}
		if !info.IsDir() {
			if err := read(p); err != nil {
				return nil, fmt.Errorf("-f %s: %w", p, err)
			}
			continue
		}
		var files []string
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if q != p && !recursive {
					return filepath.SkipDir
				}
				return nil
			}
			if ext := strings.ToLower(filepath.Ext(q)); ext == ".yaml" || ext == ".yml" {
				files = append(files, q)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("-f %s: %w", p, err)
		}
		sort.Strings(files)
		for _, f := range files {
			if err := read(f); err != nil {
				return nil, fmt.Errorf("-f %s: %w", f, err)
			}
		}
	}
	return out, nil
}

// ManifestTarget says which object to look for in manifests.
type ManifestTarget struct {
	Group, Kind, Namespace, Name string
	// Path is the replica count's field.
	Path []string
	// ScaledByHPA says whether an HPA scales the object (group, kind,
	// namespace, name); known is false when migrate did not look there.
	ScaledByHPA func(group, kind, namespace, name string) (scaled, known bool)
}

// FileEdit is the new content of one manifest file.
type FileEdit struct {
	Path   string
	Mode   fs.FileMode
	Before []byte
	After  []byte
	// Diff is the unified diff from Before to After.
	Diff string
	// Stdin is set for the manifest read from standard input.
	Stdin bool
}

// listItems returns the items sequence of a List document (kind: List, or
// any kind ending in List, holding items), or nil for any other document.
func listItems(doc *yaml.Node) *yaml.Node {
	if !strings.HasSuffix(identify(doc).kind, "List") {
		return nil
	}
	_, _, items := lookup(doc, []string{"items"})
	if items == nil || items.Kind != yaml.SequenceNode {
		return nil
	}
	return items
}

// objectAt is where an object sits in a file: its document, and its index
// in the document's items when the document is a List (-1 otherwise).
type objectAt struct{ doc, item int }

// objectsOf lists the objects of document di: the document itself, or the
// items of a List.
func objectsOf(di int, doc *yaml.Node) ([]*yaml.Node, []objectAt) {
	items := listItems(doc)
	if items == nil {
		return []*yaml.Node{doc}, []objectAt{{doc: di, item: -1}}
	}
	var objs []*yaml.Node
	var at []objectAt
	for i, it := range items.Content {
		if it.Kind == yaml.MappingNode {
			objs = append(objs, it)
			at = append(at, objectAt{doc: di, item: i})
		}
	}
	return objs, at
}

// EditManifests removes the replica count from every object of files that
// describes the target (an object is a document, or an item of a List
// document), and lists the other objects that set a replica count. Only the lines of the field (and the comment lines right
// above it) are removed; every other byte of the file stays as it was.
// Files that are not YAML (a template, say) are skipped with a warning.
func EditManifests(files []ManifestFile, mt ManifestTarget) ([]FileEdit, []ManifestChange, []string) {
	var (
		edits    []FileEdit
		changes  []ManifestChange
		warnings []string
	)
	for _, f := range files {
		docs, err := decodeDocs(f.Data)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: not YAML (%v); skipped (a template is edited by hand)", f.Path, err))
			continue
		}
		var remove []int // 1-based lines to remove
		var removedDocs []objectAt
		var objects []*yaml.Node
		var where []objectAt
		for di, doc := range docs {
			objs, at := objectsOf(di, doc)
			objects, where = append(objects, objs...), append(where, at...)
		}
		for oi, doc := range objects {
			id := identify(doc)
			if id.kind == "" {
				continue
			}
			isTarget := id.kind == mt.Kind && groupOf(id.apiVersion) == groupOrCore(mt.Group) && id.name == mt.Name &&
				(id.namespace == "" || id.namespace == mt.Namespace)
			path := []string{"spec", "replicas"}
			if isTarget {
				path = mt.Path
			}
			parent, key, val := lookup(doc, path)
			if key == nil {
				continue
			}
			c := ManifestChange{File: f.Path, Line: key.Line, Object: id.String(), Replicas: val.Value}
			if !isTarget {
				c.Action = ManifestFlag
				c.Note = flagNote(id, mt)
				changes = append(changes, c)
				continue
			}
			lines, why := fieldLines(f.Data, parent, key, val)
			if why != "" {
				c.Action, c.Note = ManifestSkip, why+": remove "+strings.Join(path, ".")+" by hand"
				changes = append(changes, c)
				continue
			}
			c.Action = ManifestRemove
			if id.namespace == "" {
				c.Note = fmt.Sprintf("the manifest names no namespace: taken to be the one it is applied to (%s)", mt.Namespace)
			}
			changes = append(changes, c)
			remove = append(remove, lines...)
			removedDocs = append(removedDocs, where[oi])
		}
		if len(remove) == 0 {
			continue
		}
		after := removeLines(f.Data, remove)
		if err := checkEdit(f.Data, after, removedDocs, mt.Path); err != nil {
			for i := range changes {
				if changes[i].File == f.Path && changes[i].Action == ManifestRemove {
					changes[i].Action = ManifestSkip
					changes[i].Note = fmt.Sprintf("not edited: %v; remove %s by hand", err, strings.Join(mt.Path, "."))
				}
			}
			continue
		}
		edits = append(edits, FileEdit{
			Path: f.Path, Mode: f.Mode, Before: f.Data, After: after, Stdin: f.Stdin,
			Diff: UnifiedDiff("a/"+filepath.ToSlash(f.Path), "b/"+filepath.ToSlash(f.Path), f.Data, after),
		})
	}
	return edits, changes, warnings
}

// WriteEdits saves the edited files, keeping their permissions. The edit of
// standard input is not a file: it is skipped (the caller prints it).
func WriteEdits(edits []FileEdit) error {
	for _, e := range edits {
		if e.Stdin {
			continue
		}
		mode := e.Mode
		if mode == 0 {
			mode = 0o644
		}
		if err := os.WriteFile(e.Path, e.After, mode); err != nil {
			return fmt.Errorf("write %s: %w", e.Path, err)
		}
	}
	return nil
}

func groupOrCore(g string) string {
	if g == "" {
		return `""`
	}
	return g
}

func flagNote(id docID, mt ManifestTarget) string {
	ns := id.namespace
	if ns == "" {
		ns = mt.Namespace
	}
	migrate := fmt.Sprintf("kubectl hpa migrate %s/%s -n %s", strings.ToLower(id.kind), id.name, ns)
	if mt.ScaledByHPA != nil {
		scaled, known := mt.ScaledByHPA(groupOf(id.apiVersion), id.kind, ns, id.name)
		switch {
		case scaled:
			return "not the target of this run, but an HPA scales it too: migrate it as well (" + migrate + ")"
		case known:
			return fmt.Sprintf("not the target of this run; no HPA in namespace %s scales it, so the replica count there is fine", ns)
		}
	}
	return fmt.Sprintf("not the target of this run; namespace %s was not inspected: if an HPA scales it, run %s", ns, migrate)
}

// docID is what a manifest says it is.
type docID struct {
	apiVersion, kind, namespace, name string
}

func (d docID) String() string {
	ns := d.namespace
	if ns == "" {
		ns = "(no namespace)"
	}
	return d.kind + " " + ns + "/" + d.name
}

func decodeDocs(data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		docs = append(docs, &n)
	}
}

// root returns the top mapping of a document node.
func root(doc *yaml.Node) *yaml.Node {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	return n
}

func identify(doc *yaml.Node) docID {
	r := root(doc)
	if r == nil {
		return docID{}
	}
	scalar := func(path ...string) string {
		_, _, v := lookup(doc, path)
		if v == nil || v.Kind != yaml.ScalarNode {
			return ""
		}
		return v.Value
	}
	return docID{apiVersion: scalar("apiVersion"), kind: scalar("kind"), namespace: scalar("metadata", "namespace"), name: scalar("metadata", "name")}
}

// lookup finds path in the document: the mapping that holds the last key,
// the key node and the value node.
func lookup(doc *yaml.Node, path []string) (parent, key, val *yaml.Node) {
	cur := root(doc)
	for i, seg := range path {
		if cur == nil || cur.Kind != yaml.MappingNode {
			return nil, nil, nil
		}
		var next *yaml.Node
		for j := 0; j+1 < len(cur.Content); j += 2 {
			if cur.Content[j].Value == seg {
				if i == len(path)-1 {
					return cur, cur.Content[j], cur.Content[j+1]
				}
				next = cur.Content[j+1]
				break
			}
		}
		cur = next
	}
	return nil, nil, nil
}

// fieldLines returns the lines to remove for the key/value pair: its own
// line and the comment lines right above it. It gives a reason instead when
// removing lines would not remove exactly the field.
func fieldLines(data []byte, parent, key, val *yaml.Node) ([]int, string) {
	switch {
	case parent.Style&yaml.FlowStyle != 0:
		return nil, "it is in a flow-style mapping ({...}, or JSON)"
	case val.Kind != yaml.ScalarNode || val.Line != key.Line:
		return nil, "its value does not sit on the key's line"
	case val.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return nil, "its value is a block scalar"
	case len(parent.Content) == 2:
		return nil, "it is the only field of its mapping, which would be left empty"
	}
	lines := strings.Split(string(data), "\n")
	if key.Line > len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[key.Line-1]), key.Value) {
		return nil, "it does not start its line"
	}
	out := []int{key.Line}
	if key.HeadComment != "" {
		n := strings.Count(key.HeadComment, "\n") + 1
		for l := key.Line - 1; l >= 1 && n > 0; l-- {
			if !strings.HasPrefix(strings.TrimSpace(lines[l-1]), "#") {
				break
			}
			out = append(out, l)
			n--
		}
	}
	return out, ""
}

// removeLines drops the 1-based lines of data.
func removeLines(data []byte, remove []int) []byte {
	drop := map[int]bool{}
	for _, l := range remove {
		drop[l] = true
	}
	lines := strings.SplitAfter(string(data), "\n")
	var b strings.Builder
	for i, l := range lines {
		if !drop[i+1] {
			b.WriteString(l)
		}
	}
	return []byte(b.String())
}

// checkEdit decodes both texts and checks that they differ by exactly the
// field in the documents edited.
func checkEdit(before, after []byte, objects []objectAt, path []string) error {
	decode := func(data []byte) ([]any, error) {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		var out []any
		for {
			var v any
			err := dec.Decode(&v)
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
	}
	want, err := decode(before)
	if err != nil {
		return err
	}
	got, err := decode(after)
	if err != nil {
		return fmt.Errorf("the edited file would not parse: %w", err)
	}
	for _, at := range objects {
		if at.doc >= len(want) {
			return errors.New("document " + strconv.Itoa(at.doc) + " is missing")
		}
		m, _ := want[at.doc].(map[string]any)
		if at.item >= 0 {
			items, _ := m["items"].([]any)
			if at.item >= len(items) {
				return errors.New("item " + strconv.Itoa(at.item) + " of document " + strconv.Itoa(at.doc) + " is missing")
			}
			m, _ = items[at.item].(map[string]any)
		}
		for i, seg := range path {
			if m == nil {
				break
			}
			if i == len(path)-1 {
				delete(m, seg)
				break
			}
			m, _ = m[seg].(map[string]any)
		}
	}
	if !reflect.DeepEqual(want, got) {
		return errors.New("removing the lines would change more than the field")
	}
	return nil
}
