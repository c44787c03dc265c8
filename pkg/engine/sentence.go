// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import "strconv"

// sentence builds the text of a step, a message or a summary from its
// pieces in order, as fmt would print them but without fmt's work on each
// argument (about half the time of Sprintf). The caller gives it room on
// its stack, so the text costs a single allocation:
//
//	var room [160]byte
//	msg := sentence(room[:0]).str("keep ").int(n).str(" replicas").String()
//
// reads as fmt.Sprintf("keep %d replicas", n). str is %s, int is %d, g4 is
// %.4g; a longer text than its room grows onto the heap.
type sentence []byte

// str appends text (%s).
func (b sentence) str(s string) sentence { return append(b, s...) }

// int appends an integer in decimal (%d).
func (b sentence) int(v int64) sentence { return strconv.AppendInt(b, v, 10) }

// g4 appends a float as %.4g prints it: strconv's 'g' format with 4
// significant digits is what fmt uses for it, NaN and ±Inf included.
func (b sentence) g4(v float64) sentence { return strconv.AppendFloat(b, v, 'g', 4, 64) }

// String returns the text.
func (b sentence) String() string { return string(b) }
