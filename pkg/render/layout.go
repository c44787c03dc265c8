// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// pad fills s with spaces up to width display cells.
func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(width-ansi.StringWidth(s), 0))
}

// clean replaces control characters, so that text from the cluster cannot
// move the cursor or change colors: line breaks and tabs become spaces, the
// others U+FFFD.
func clean(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t' || r == '\r':
			return ' '
		case unicode.IsControl(r):
			return unicode.ReplacementChar
		default:
			return r
		}
	}, s)
}

// wrap breaks plain text into lines of at most width cells, at spaces when
// it can.
func wrap(s string, width int) []string {
	return wrapFirst(s, width, width)
}

// wrapFirst is wrap with a different width for the first line.
func wrapFirst(s string, first, rest int) []string {
	first, rest = max(first, 1), max(rest, 1)
	var lines []string
	var cur strings.Builder
	curW := 0
	limit := first
	flush := func() {
		lines = append(lines, cur.String())
		cur.Reset()
		curW = 0
		limit = rest
	}
	for _, word := range strings.Fields(s) {
		ww := ansi.StringWidth(word)
		if curW > 0 && curW+1+ww <= limit {
			cur.WriteByte(' ')
			cur.WriteString(word)
			curW += 1 + ww
			continue
		}
		if curW > 0 {
			flush()
		}
		for ww > limit {
			head, tail := cut(word, limit)
			cur.WriteString(head)
			flush()
			word, ww = tail, ansi.StringWidth(tail)
		}
		cur.WriteString(word)
		curW = ww
	}
	if curW > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// cut splits s after width cells.
func cut(s string, width int) (string, string) {
	w := 0
	for i, r := range s {
		rw := ansi.StringWidth(string(r))
		if w+rw > width {
			return s[:i], s[i:]
		}
		w += rw
	}
	return s, ""
}

// truncate shortens s to width cells, ending it with "…" when cut.
func truncate(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	if width < 1 {
		return ""
	}
	head, _ := cut(s, width-1)
	return head + "…"
}

// elideCommon shortens two long values that share a beginning, such as
// two JSON documents, so that what differs shows: the common prefix, cut
// at a punctuation mark, becomes "…". Each value is then truncated to
// width.
func elideCommon(a, b string, width int) (string, string) {
	if ansi.StringWidth(a) <= width && ansi.StringWidth(b) <= width {
		return a, b
	}
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	if i := strings.LastIndexAny(a[:n], ",{[;( "); i > 0 {
		a, b = "…"+a[i+1:], "…"+b[i+1:]
	}
	return truncate(a, width), truncate(b, width)
}
