// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package textblock shapes blocks of text written in the code.
package textblock

import "strings"

// Dedent trims the common leading tabs of a raw string literal: the
// commands' help texts, written indented with the code.
func Dedent(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	prefix := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, "\t"))
		if prefix < 0 || n < prefix {
			prefix = n
		}
	}
	for i, l := range lines {
		if len(l) >= prefix && prefix > 0 {
			lines[i] = l[prefix:]
		}
	}
	return strings.Join(lines, "\n")
}
