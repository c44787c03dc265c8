// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/cmd"
)

// GenerateDocs writes one Markdown page per command into dir, named after
// the command path as users type it (kubectl_hpa_explain.md), without the
// generation date so that regenerating gives the same files.
func GenerateDocs(dir string, streams genericiooptions.IOStreams) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	root := cmd.NewCmdRoot(streams)
	root.InitDefaultCompletionCmd()
	root.DisableAutoGenTag = true
	// The default depends on the machine; document it the way users read it.
	if f := root.PersistentFlags().Lookup("cache-dir"); f != nil {
		f.DefValue = "$HOME/.kube/cache"
	}
	var walk func(c *cobra.Command) error
	walk = func(c *cobra.Command) error {
		c.DisableAutoGenTag = true
		for _, sub := range c.Commands() {
			if err := walk(sub); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return err
	}
	name := func(s string) string { return strings.ReplaceAll(s, " ", "_") + ".md" }
	link := func(s string) string { return strings.ToLower(strings.TrimSuffix(s, ".md")) + ".md" }
	return doc.GenMarkdownTreeCustom(root, dir, func(string) string { return "" }, func(s string) string {
		return link(filepath.Base(name(strings.TrimSuffix(s, ".md"))))
	})
}
