// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// StdinName is how standard input is named in messages.
const StdinName = "<stdin>"

// Source is one named input: a file, or standard input.
type Source struct {
	// Name is the file name used in messages.
	Name string
	Data []byte
}

// ReadFiles reads the inputs named by paths. "-" reads stdin (at most
// once); a directory contributes its *.yaml, *.yml and *.json files, in
// name order, without recursing.
func ReadFiles(paths []string, stdin io.Reader) ([]Source, error) {
	var out []Source
	stdinRead := false
	for _, p := range paths {
		if p == "-" {
			if stdinRead {
				return nil, errors.New(`"-" (stdin) given more than once`)
			}
			stdinRead = true
			if stdin == nil {
				return nil, errors.New("no standard input to read from")
			}
			data, err := io.ReadAll(stdin)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", StdinName, err)
			}
			out = append(out, Source{Name: StdinName, Data: data})
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, unwrapPathError(err))
		}
		if !st.IsDir() {
			data, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", p, unwrapPathError(err))
			}
			out = append(out, Source{Name: p, Data: data})
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, fmt.Errorf("read directory %s: %w", p, unwrapPathError(err))
		}
		found := 0
		for _, e := range entries {
			switch strings.ToLower(filepath.Ext(e.Name())) {
			case ".yaml", ".yml", ".json":
			default:
				continue
			}
			if e.IsDir() {
				continue
			}
			name := filepath.Join(p, e.Name())
			data, err := os.ReadFile(name)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", name, unwrapPathError(err))
			}
			out = append(out, Source{Name: name, Data: data})
			found++
		}
		if found == 0 {
			return nil, fmt.Errorf("directory %s holds no .yaml, .yml or .json files", p)
		}
	}
	return out, nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// location points at one object in the input.
type location struct {
	file string
	line int // 1-based line where the document starts; 0 when unknown
	doc  int // 1-based index among the non-empty documents of the file
	item []int
}

func (l location) String() string {
	var b strings.Builder
	b.WriteString(l.file)
	if l.line > 0 {
		b.WriteString(":" + strconv.Itoa(l.line))
	}
	b.WriteString(" (document " + strconv.Itoa(l.doc))
	for _, i := range l.item {
		b.WriteString(", item " + strconv.Itoa(i))
	}
	b.WriteString(")")
	return b.String()
}

func (l location) withItem(i int) location {
	out := l
	out.item = append(slices.Clone(l.item), i)
	return out
}

// document is one top-level document converted to JSON.
type document struct {
	loc  location
	json []byte
}

// splitDocuments turns one source into JSON documents. JSON input may hold
// several concatenated values (a top-level array counts as a list of
// objects); YAML input is split on "---" lines. Empty documents are
// skipped and do not count.
func splitDocuments(src Source) ([]document, error) {
	trimmed := bytes.TrimLeftFunc(src.Data, unicode.IsSpace)
	if len(trimmed) == 0 {
		return nil, nil
	}
	if utilyaml.IsJSONBuffer(trimmed) || trimmed[0] == '[' {
		return splitJSON(src)
	}
	return splitYAML(src)
}

func splitJSON(src Source) ([]document, error) {
	dec := json.NewDecoder(bytes.NewReader(src.Data))
	var docs []document
	for {
		start := int(dec.InputOffset())
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return nil, fmt.Errorf("%s:%d: invalid JSON: %s", src.Name, lineAt(src.Data, int(se.Offset)), se.Error())
			}
			return nil, fmt.Errorf("%s: invalid JSON: %s", src.Name, err.Error())
		}
		// Skip the whitespace before the value to report its own line.
		for start < len(src.Data) && unicode.IsSpace(rune(src.Data[start])) {
			start++
		}
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			continue
		}
		docs = append(docs, document{
			loc:  location{file: src.Name, line: lineAt(src.Data, start), doc: len(docs) + 1},
			json: raw,
		})
	}
}

func lineAt(data []byte, offset int) int {
	offset = min(offset, len(data))
	return bytes.Count(data[:offset], []byte("\n")) + 1
}

var yamlLineRE = regexp.MustCompile(`\bline (\d+): (.*)$`)

func splitYAML(src Source) ([]document, error) {
	var docs []document
	var cur []byte
	startLine := 1
	flush := func(nextStart int) error {
		defer func() { cur = cur[:0]; startLine = nextStart }()
		if len(bytes.TrimSpace(cur)) == 0 {
			return nil
		}
		js, err := yaml.YAMLToJSONStrict(cur)
		if err != nil {
			return yamlError(src.Name, startLine, err)
		}
		if bytes.Equal(bytes.TrimSpace(js), []byte("null")) {
			return nil // only comments
		}
		docs = append(docs, document{
			loc:  location{file: src.Name, line: firstContentLine(cur, startLine), doc: len(docs) + 1},
			json: js,
		})
		return nil
	}
	lines := bytes.SplitAfter(src.Data, []byte("\n"))
	for i, line := range lines {
		if isSeparator(line) {
			if err := flush(i + 2); err != nil {
				return nil, err
			}
			continue
		}
		cur = append(cur, line...)
	}
	if err := flush(len(lines) + 1); err != nil {
		return nil, err
	}
	return docs, nil
}

// isSeparator reports whether line is a YAML document separator: "---"
// followed by nothing but white space.
func isSeparator(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("---"))
	return ok && len(bytes.TrimSpace(rest)) == 0
}

// firstContentLine skips blank and comment lines so a document's line
// points at its first key.
func firstContentLine(doc []byte, start int) int {
	for i, l := range bytes.Split(doc, []byte("\n")) {
		t := bytes.TrimSpace(l)
		if len(t) > 0 && t[0] != '#' {
			return start + i
		}
	}
	return start
}

func yamlError(file string, startLine int, err error) error {
	msg := oneLine(err.Error())
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return fmt.Errorf("%s:%d: invalid YAML: %s", file, startLine+n-1, m[2])
	}
	msg = strings.TrimPrefix(msg, "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	return fmt.Errorf("%s:%d: invalid YAML: %s", file, startLine, msg)
}

// oneLine folds a multi-line message into one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
