// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/version"
)

// VersionOptions are the options of the version command.
type VersionOptions struct {
	genericiooptions.IOStreams
	Output string

	format render.Format
}

// NewVersionOptions returns the defaults.
func NewVersionOptions(streams genericiooptions.IOStreams) *VersionOptions {
	return &VersionOptions{IOStreams: streams, Output: string(render.FormatText)}
}

// NewCmdVersion returns the version command. runF, when set, replaces Run
// (for tests).
func NewCmdVersion(streams genericiooptions.IOStreams, runF func(*VersionOptions) error) *cobra.Command {
	o := NewVersionOptions(streams)
	c := &cobra.Command{
		Use:   "version",
		Short: "Print the version of kubectl hpa",
		Args:  cobra.NoArgs,
		Example: dedent(`
			# Print the version
			kubectl hpa version

			# Print it as JSON
			kubectl hpa version -o json`),
		RunE: func(c *cobra.Command, _ []string) error {
			f, err := render.ParseFormat(o.Output)
			if err != nil {
				return flagErrorf(c, "%w", err)
			}
			o.format = f
			if runF != nil {
				return runF(o)
			}
			return o.Run()
		},
	}
	c.Flags().StringVarP(&o.Output, "output", "o", o.Output, formatHelp())
	return c
}

// Run prints the version.
func (o *VersionOptions) Run() error {
	info := version.Get()
	if o.format != render.FormatText {
		return render.Encode(o.Out, o.format, info)
	}
	_, err := fmt.Fprintf(o.Out, "Version:    %s\nCommit:     %s\nDate:       %s\nGo version: %s\nPlatform:   %s\n",
		info.Version, info.Commit, info.Date, info.GoVersion, info.Platform)
	return err
}
