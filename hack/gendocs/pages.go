// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/cmd"
)

// Markdown pages embed the output of explain runs on offline snapshots
// (docs/troubleshooting.md, docs/settings.md). A marker comment names the run,
// and the fenced block that follows it holds the output:
//
//	<!-- explain: web -n shop -f docs/examples/x.yaml --now 2026-01-01T00:00:00Z | show: Summary, Step 2 -->
//	```text
//	$ kubectl hpa explain web -n shop -f docs/examples/x.yaml --now 2026-01-01T00:00:00Z
//	...
//	```
//
// The arguments are those of "kubectl hpa explain" (split on spaces, no
// quoting); they must read files (-f) and fix the time (--now), so that the
// output depends only on the repository. The optional "show:" list keeps only
// the sections of the text view whose first line starts with one of the
// given prefixes ("Name" is the header block, "Step 2", "Conditions", ...);
// "[...]" marks what was left out. RefreshExplainBlocks rewrites the blocks;
// paths are relative to the working directory, the repository root.

// explainMarker matches a marker comment on a line of its own. A marker
// names the command: explain, or whatif (whose before/after view and
// projection are embedded the same way).
var explainMarker = regexp.MustCompile(`^<!-- (explain|whatif): (.+?) -->$`)

// ExplainBlockMarker and WhatifBlockMarker start every marker; pages
// without one are left alone.
const (
	ExplainBlockMarker = "<!-- explain: "
	WhatifBlockMarker  = "<!-- whatif: "
)

// isMarker reports whether a line starts a marker.
func isMarker(l string) bool {
	return strings.HasPrefix(l, ExplainBlockMarker) || strings.HasPrefix(l, WhatifBlockMarker)
}

// elided stands for the sections of the output a block leaves out.
const elided = "[...]"

// ExplainBlock is one marker of a page.
type ExplainBlock struct {
	// Line is the marker's line number (1-based).
	Line int
	// Command is "explain" or "whatif".
	Command string
	// Args are the command's arguments.
	Args []string
	// Show lists the section prefixes to keep; empty keeps everything.
	Show []string
}

// Files returns the -f arguments of the block.
func (b ExplainBlock) Files() []string {
	var out []string
	for i := 0; i < len(b.Args); i++ {
		a := b.Args[i]
		switch {
		case (a == "-f" || a == "--filename") && i+1 < len(b.Args):
			i++
			out = append(out, b.Args[i])
		case strings.HasPrefix(a, "--filename="):
			out = append(out, strings.TrimPrefix(a, "--filename="))
		case strings.HasPrefix(a, "-f="):
			out = append(out, strings.TrimPrefix(a, "-f="))
		}
	}
	return out
}

func parseExplainMarker(line int, command, body string) (ExplainBlock, error) {
	b := ExplainBlock{Line: line, Command: command}
	cmdPart, showPart, hasShow := strings.Cut(body, "|")
	if strings.ContainsAny(cmdPart, `"'\$`) {
		return b, fmt.Errorf("line %d: quoting and variables are not supported in explain markers", line)
	}
	b.Args = strings.Fields(cmdPart)
	if hasShow {
		key, list, ok := strings.Cut(strings.TrimSpace(showPart), ":")
		if !ok || strings.TrimSpace(key) != "show" {
			return b, fmt.Errorf("line %d: expected '| show: SECTION, ...' after the arguments, got %q", line, showPart)
		}
		for _, s := range strings.Split(list, ",") {
			if s = strings.TrimSpace(s); s != "" {
				b.Show = append(b.Show, s)
			}
		}
	}
	if len(b.Files()) == 0 {
		return b, fmt.Errorf("line %d: an explain marker must read its objects from files (-f)", line)
	}
	hasNow := false
	for _, a := range b.Args {
		if a == "--now" || strings.HasPrefix(a, "--now=") {
			hasNow = true
		}
	}
	if !hasNow {
		return b, fmt.Errorf("line %d: an explain marker must set --now, or its output would change with the clock", line)
	}
	return b, nil
}

// markerAt parses the marker line l (line number line).
func markerAt(line int, l string) (ExplainBlock, error) {
	m := explainMarker.FindStringSubmatch(strings.TrimRight(l, " \r"))
	if m == nil {
		return ExplainBlock{}, fmt.Errorf("line %d: an explain marker must be one line ending with -->", line)
	}
	return parseExplainMarker(line, m[1], m[2])
}

// ParseExplainBlocks returns the markers of a page.
func ParseExplainBlocks(page []byte) ([]ExplainBlock, error) {
	var out []ExplainBlock
	for i, l := range strings.Split(string(page), "\n") {
		if !isMarker(l) {
			continue
		}
		b, err := markerAt(i+1, l)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// RunExplainBlock runs the block's explain command in-process, without color,
// and returns the text to put in its fenced block: the command line, any
// warnings, then the (selected) output.
func RunExplainBlock(b ExplainBlock) (string, error) {
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	args := append([]string{b.Command}, b.Args...)
	hasColor := false
	for _, a := range b.Args {
		if a == "--color" || strings.HasPrefix(a, "--color=") {
			hasColor = true
		}
	}
	if !hasColor {
		args = append(args, "--color=never")
	}
	root := cmd.NewCmdRoot(streams)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		return "", fmt.Errorf("line %d: kubectl hpa %s: %w", b.Line, strings.Join(b.Args, " "), err)
	}
	text, err := selectSections(out.String(), b.Show)
	if err != nil {
		return "", fmt.Errorf("line %d: %w", b.Line, err)
	}
	var s strings.Builder
	s.WriteString("$ " + cmd.DisplayName + " " + b.Command + " " + strings.Join(b.Args, " ") + "\n")
	s.WriteString(errOut.String())
	s.WriteString(text)
	return s.String(), nil
}

// sections splits the text view into its sections: a section starts with a
// line at column 0 that follows a blank line (or starts the output).
func sections(text string) [][]string {
	var out [][]string
	var cur []string
	prevBlank := true
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if prevBlank && l != "" && l[0] != ' ' && len(cur) > 0 {
			out = append(out, trimBlank(cur))
			cur = nil
		}
		cur = append(cur, l)
		prevBlank = l == ""
	}
	if len(cur) > 0 {
		out = append(out, trimBlank(cur))
	}
	return out
}

func trimBlank(ls []string) []string {
	for len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// selectSections keeps the sections whose first line starts with one of the
// prefixes (all of them when there is none), in output order, and marks
// every gap with "[...]". A prefix that matches no section is an error.
func selectSections(text string, show []string) (string, error) {
	if len(show) == 0 {
		return text, nil
	}
	secs := sections(text)
	keep := make([]bool, len(secs))
	for _, p := range show {
		found := false
		for i, s := range secs {
			if strings.HasPrefix(s[0], p) {
				keep[i], found = true, true
			}
		}
		if !found {
			return "", fmt.Errorf("show: no section of the output starts with %q", p)
		}
	}
	var parts []string
	gap := false
	for i, s := range secs {
		if !keep[i] {
			gap = true
			continue
		}
		if gap {
			parts = append(parts, elided)
			gap = false
		}
		parts = append(parts, strings.Join(s, "\n"))
	}
	if gap {
		parts = append(parts, elided)
	}
	return strings.Join(parts, "\n\n") + "\n", nil
}

// RefreshExplainBlocks returns the page with the fenced block after every
// marker replaced by the output of the marker's command; a marker without a
// block gets one.
func RefreshExplainBlocks(page []byte) ([]byte, error) {
	lines := strings.Split(string(page), "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		out = append(out, l)
		if !isMarker(l) {
			continue
		}
		b, err := markerAt(i+1, l)
		if err != nil {
			return nil, err
		}
		text, err := RunExplainBlock(b)
		if err != nil {
			return nil, err
		}
		if strings.Contains(text, "```") {
			return nil, fmt.Errorf("line %d: the output contains a code fence", i+1)
		}
		// Skip the existing block, if any.
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "```") {
			j := i + 2
			for j < len(lines) && lines[j] != "```" {
				j++
			}
			if j == len(lines) {
				return nil, fmt.Errorf("line %d: the code block after the explain marker is not closed", i+1)
			}
			i = j
		}
		out = append(out, "```text")
		out = append(out, strings.Split(strings.TrimRight(text, "\n"), "\n")...)
		out = append(out, "```")
	}
	return []byte(strings.Join(out, "\n")), nil
}

// ExplainPages lists the Markdown files directly in dir that hold explain
// markers.
func ExplainPages(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if bytes.Contains(data, []byte("\n"+ExplainBlockMarker)) || bytes.Contains(data, []byte("\n"+WhatifBlockMarker)) {
			out = append(out, f)
		}
	}
	return out, nil
}

// RefreshExplainPages rewrites the explain blocks of every page of dir that
// has markers, and returns the pages it changed. Run it from the repository
// root: the markers' paths are relative to it.
func RefreshExplainPages(dir string) ([]string, error) {
	pages, err := ExplainPages(dir)
	if err != nil {
		return nil, err
	}
	var changed []string
	var errs []error
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		got, err := RefreshExplainBlocks(data)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, err))
			continue
		}
		if bytes.Equal(got, data) {
			continue
		}
		if err := os.WriteFile(p, got, 0o644); err != nil {
			return nil, err
		}
		changed = append(changed, p)
	}
	return changed, errors.Join(errs...)
}
