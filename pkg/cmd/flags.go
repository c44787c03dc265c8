// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// FlagError is a usage mistake: cli.Main prints it with a pointer to the
// command's help.
type FlagError struct {
	Err         error
	CommandPath string
}

func (e *FlagError) Error() string { return e.Err.Error() }

func (e *FlagError) Unwrap() error { return e.Err }

func flagErrorf(c *cobra.Command, format string, args ...any) error {
	path := ""
	if c != nil {
		path = c.CommandPath()
	}
	return &FlagError{Err: fmt.Errorf(format, args...), CommandPath: path}
}

// formatHelp is the description of -o.
func formatHelp() string {
	return "Output format: one of " + strings.Join(render.Formats(), ", ")
}

// dedent trims the common leading tabs of a raw string literal.
func dedent(s string) string {
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
