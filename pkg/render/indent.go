// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import "encoding/json"

// marshalIndent is json.MarshalIndent, byte for byte, with a faster second
// pass. encoding/json indents by running its validating scanner over the
// compact encoding it has just produced, a state function per byte; at
// 1,000 explanations (8 MB) that pass was 8% of explain -A's CPU. The
// compact encoding is valid by construction, so appendIndented only needs to
// tell strings from structure. TestIndentMatchesEncodingJSON and
// FuzzIndent hold it to json.Indent.
func marshalIndent(v any, prefix, indent string) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	// Indenting about triples the compact encoding of an explanation.
	return appendIndented(make([]byte, 0, 3*len(b)), b, prefix, indent), nil
}

// appendIndented appends src, a compact JSON encoding (json.Marshal's: no
// whitespace outside strings), to dst as json.Indent would: each element of
// a non-empty object or array on its own line, after prefix and one indent
// per level of nesting; empty ones stay "{}" and "[]"; ": " after keys.
func appendIndented(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	open := false // an object or array was just opened
	newline := func() {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			newline()
		}
		switch c {
		case '"':
			// A string, through its closing quote; escapes are copied as
			// they are.
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				return append(dst, src[i:]...)
			}
			dst = append(dst, src[i:j+1]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			open = true
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				newline()
			}
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			// Numbers, true, false, null: copied up to the next
			// structural byte.
			j := i + 1
			for j < len(src) && !isStructural(src[j]) {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j - 1
		}
	}
	return dst
}

func isStructural(c byte) bool {
	switch c {
	case '{', '}', '[', ']', ',', ':', '"':
		return true
	}
	return false
}
