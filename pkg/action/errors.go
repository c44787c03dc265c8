// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// UsageError is a mistake in the arguments of a run (a flag's value, a
// tool's argument), as opposed to a failure of the run: the command line
// adds a pointer to the command's help.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }

func (e *UsageError) Unwrap() error { return e.Err }

// usageErrorf returns a *UsageError with the formatted message.
func usageErrorf(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// ErrorLine is an error as every face of the plugin shows it, in one line:
// "error: " and the message (pkg/cli prints it, the MCP server returns it
// as the tool's error).
func ErrorLine(err error) string {
	return "error: " + OneLine(strings.TrimSpace(err.Error()))
}

// OneLine escapes the control characters of a message, as Go quotes them
// (\n, \t, \x1b): a flag value or a file name holding a newline would
// otherwise split a one-line error, and one holding an escape sequence
// would reach the terminal.
func OneLine(msg string) string {
	if strings.IndexFunc(msg, unicode.IsControl) < 0 {
		return msg
	}
	var b strings.Builder
	for _, r := range msg {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
