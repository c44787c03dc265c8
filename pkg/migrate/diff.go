// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"bytes"
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines around each change.
const diffContext = 3

// maxDiffCells bounds the longest-common-subsequence table; beyond it the
// changed middle is shown as removed, then added.
const maxDiffCells = 4_000_000

type opKind byte

const (
	opEqual  opKind = ' '
	opDelete opKind = '-'
	opInsert opKind = '+'
)

type diffOp struct {
	kind opKind
	// a and b are the line indexes in the old and new text (the one that
	// does not apply is the position the line sits at).
	a, b int
	text string
}

// UnifiedDiff returns the unified diff from a to b (the format of diff -u
// and git diff), with the file names aName and bName; "" when they are
// equal.
func UnifiedDiff(aName, bName string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	al, aEOL := splitLines(string(a))
	bl, bEOL := splitLines(string(b))
	ops := diffLines(al, bl)

	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	for i := 0; i < len(ops); {
		// Find the next change.
		for i < len(ops) && ops[i].kind == opEqual {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(i-diffContext, 0)
		// Extend the hunk while the changes are close enough to share
		// context.
		end := i
		for end < len(ops) {
			if ops[end].kind != opEqual {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == opEqual {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				end = min(end+diffContext, len(ops))
				break
			}
			end = run
		}
		writeHunk(&out, ops[start:end], len(al), len(bl), aEOL, bEOL)
		i = end
	}
	return out.String()
}

func writeHunk(out *strings.Builder, ops []diffOp, aLen, bLen int, aEOL, bEOL bool) {
	aStart, bStart := ops[0].a, ops[0].b
	var aCount, bCount int
	for _, op := range ops {
		switch op.kind {
		case opEqual:
			aCount++
			bCount++
		case opDelete:
			aCount++
		case opInsert:
			bCount++
		}
	}
	// An empty side is numbered after the line that precedes it.
	aFrom, bFrom := aStart+1, bStart+1
	if aCount == 0 {
		aFrom = aStart
	}
	if bCount == 0 {
		bFrom = bStart
	}
	fmt.Fprintf(out, "@@ -%d,%d +%d,%d @@\n", aFrom, aCount, bFrom, bCount)
	for _, op := range ops {
		out.WriteByte(byte(op.kind))
		out.WriteString(op.text)
		out.WriteByte('\n')
		last := (op.kind != opInsert && op.a == aLen-1 && !aEOL) || (op.kind != opDelete && op.b == bLen-1 && !bEOL)
		if last {
			out.WriteString("\\ No newline at end of file\n")
		}
	}
}

// splitLines splits s into lines and says whether it ends with a newline.
func splitLines(s string) ([]string, bool) {
	if s == "" {
		return nil, true
	}
	eol := strings.HasSuffix(s, "\n")
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n"), eol
}

// diffLines is a line diff: common prefix and suffix first, then a longest
// common subsequence of what is left.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]diffOp, 0, len(a)+len(b))
	for i := 0; i < pre; i++ {
		ops = append(ops, diffOp{opEqual, i, i, a[i]})
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	ops = append(ops, lcsOps(am, bm, pre)...)
	for i := 0; i < suf; i++ {
		ai, bi := len(a)-suf+i, len(b)-suf+i
		ops = append(ops, diffOp{opEqual, ai, bi, a[ai]})
	}
	return ops
}

// lcsOps diffs the middle parts, whose first line is line off of both texts.
func lcsOps(a, b []string, off int) []diffOp {
	n, m := len(a), len(b)
	var ops []diffOp
	if n*m > maxDiffCells || n == 0 || m == 0 {
		for i := range a {
			ops = append(ops, diffOp{opDelete, off + i, off, a[i]})
		}
		for j := range b {
			ops = append(ops, diffOp{opInsert, off + n, off + j, b[j]})
		}
		return ops
	}
	// l[i][j] is the length of the longest common subsequence of a[i:] and b[j:].
	l := make([][]int32, n+1)
	for i := range l {
		l[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{opEqual, off + i, off + j, a[i]})
			i++
			j++
		case j < m && (i == n || l[i][j+1] > l[i+1][j]):
			ops = append(ops, diffOp{opInsert, off + i, off + j, b[j]})
			j++
		default:
			ops = append(ops, diffOp{opDelete, off + i, off + j, a[i]})
			i++
		}
	}
	return ops
}
