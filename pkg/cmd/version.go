// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/internal/textblock"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/version"
)

// VersionOptions are the options of the version command.
type VersionOptions struct {
	genericiooptions.IOStreams
	Output OutputFlags

	printer render.Printer
}

// NewCmdVersion returns the version command. runF, when set, replaces Run
// (for tests).
func NewCmdVersion(streams genericiooptions.IOStreams, runF func(*VersionOptions) error) *cobra.Command {
	o := &VersionOptions{IOStreams: streams}
	c := &cobra.Command{
		Use:   "version",
		Short: "Print the version of kubectl hpa",
		Args:  cobra.NoArgs,
		Example: textblock.Dedent(`
			# Print the version
			kubectl hpa version

			# Print it as JSON
			kubectl hpa version -o json`),
		RunE: func(c *cobra.Command, _ []string) error {
			var err error
			if o.printer, err = o.Output.ToPrinter(c, o.Out); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return o.Run()
		},
	}
	o.Output.AddFlags(c, false)
	return c
}

// Run prints the version.
func (o *VersionOptions) Run() error { return o.printer.Print(o.Out, render.Version(version.Get())) }
