// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package cmd holds the cobra commands of kubectl-hpa: the only package that
// binds flags. Each command binds the options declared beside pkg/action's
// inputs (pkg/options rows, through addOptions) and its own printing flags
// (-o, parsed once into a render.Printer, and the text view's), completes
// them into one action's config, validates it, calls the action and prints
// its result through the printer.
//
// Below it, option names appear only in those declarations, through which
// the lower packages' messages name an option.
package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/internal/textblock"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
)

// DisplayName is how the plugin is invoked through kubectl.
const DisplayName = "kubectl hpa"

// NewCmdRoot returns the root command with every subcommand.
func NewCmdRoot(streams genericiooptions.IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "kubectl-hpa",
		Short: "Explain the decisions of the HorizontalPodAutoscaler controller",
		Long: textblock.Dedent(`
			kubectl hpa replays the Kubernetes HorizontalPodAutoscaler controller of your cluster's version on the
			objects it reads and explains every step of its decision: which pods and metric
			samples counted, the ratio and the tolerance test, the fill-in of missing and
			unready pods, the stabilization window, the scaling policies and the bounds.`),
		Annotations: map[string]string{
			cobra.CommandDisplayNameAnnotation: DisplayName,
		},
		SilenceUsage:  true,
		SilenceErrors: true,
		// Without a subcommand, print the help.
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &FlagError{Err: err, CommandPath: c.CommandPath()}
	})

	cf := genericclioptions.NewConfigFlags(true)
	cf.AddFlags(root.PersistentFlags())
	// kubectl's 0 waits forever; ours bounds each request but the watches
	// (action.DefaultRequestTimeout).
	if f := root.PersistentFlags().Lookup("request-timeout"); f != nil {
		f.Usage = "The length of time to wait before giving up on a single server request, e.g. 1s, 2m, 3h. 0 (the default) bounds every request but --watch's watches at " + action.DefaultRequestTimeout.String() + "."
	}
	root.AddCommand(
		NewCmdExplain(streams, cf, nil),
		NewCmdWhatif(streams, cf, nil),
		NewCmdTune(streams, cf, nil),
		NewCmdMigrate(streams, cf, nil),
		NewCmdVersion(streams, nil),
		NewCmdSchema(streams),
		NewCmdMCP(streams, cf),
	)
	return root
}
