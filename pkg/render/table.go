// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// table aligns cells in columns, as every view prints them: columns are
// separated by two spaces, each one as wide as its widest cell, and the
// last cell of a row is never padded. Widths are display widths, so a cell
// may carry ANSI styles or wide runes. Rows may have fewer cells than
// others; lines carry no trailing spaces.
type table struct {
	rows  [][]string
	right []bool
}

// columnGap separates the columns of a table.
const columnGap = 2

// row adds a row of cells.
func (t *table) row(cells ...string) { t.rows = append(t.rows, cells) }

// alignRight right-aligns the given columns (numbers).
func (t *table) alignRight(cols ...int) {
	for _, c := range cols {
		for len(t.right) <= c {
			t.right = append(t.right, false)
		}
		t.right[c] = true
	}
}

// widths returns the display width of each column but the last of each
// row, which is never padded.
func (t *table) widths() []int {
	var w []int
	for _, r := range t.rows {
		for i, c := range r[:max(len(r)-1, 0)] {
			if i == len(w) {
				w = append(w, 0)
			}
			w[i] = max(w[i], ansi.StringWidth(c))
		}
	}
	return w
}

// room returns the display cells left for the last column of a row of
// cols columns, on a line of width cells that starts with indent cells.
func (t *table) room(width, indent, cols int) int {
	w := t.widths()
	used := indent
	for i := 0; i < cols-1 && i < len(w); i++ {
		used += w[i] + columnGap
	}
	return width - used
}

// lines returns the aligned rows.
func (t *table) lines() []string {
	w := t.widths()
	out := make([]string, 0, len(t.rows))
	for _, r := range t.rows {
		out = append(out, alignRow(r, w, t.right))
	}
	return out
}

// alignRow pads each cell of r but the last to its column's width; a cell
// wider than its column pushes the rest of its row to the right.
func alignRow(r []string, widths []int, right []bool) string {
	var b strings.Builder
	for i, c := range r {
		if i == len(r)-1 {
			if i < len(right) && right[i] && i < len(widths) {
				b.WriteString(strings.Repeat(" ", max(widths[i]-ansi.StringWidth(c), 0)))
			}
			b.WriteString(c)
			break
		}
		gap := strings.Repeat(" ", max(widths[i]-ansi.StringWidth(c), 0))
		if i < len(right) && right[i] {
			b.WriteString(gap + c)
		} else {
			b.WriteString(c + gap)
		}
		b.WriteString(strings.Repeat(" ", columnGap))
	}
	return strings.TrimRight(b.String(), " ")
}

// underline returns a row of dashes as wide as the header's cells.
func underline(header []string) []string {
	out := make([]string, len(header))
	for i, h := range header {
		out[i] = strings.Repeat("-", ansi.StringWidth(h))
	}
	return out
}
