// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/internal/textblock"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/migrate"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// MigrateOptions are the options of the migrate command.
type MigrateOptions struct {
	genericiooptions.IOStreams

	// ConfigFlags are kubectl's connection flags.
	ConfigFlags *genericclioptions.ConfigFlags
	// Type and Name come from the TYPE/NAME argument.
	Type, Name string
	// Namespace is resolved by Complete from -n; "" means the kubeconfig
	// context's.
	Namespace string
	// Input is migrate's declared options (action.MigrateRows).
	Input  action.MigrateInput
	Output OutputFlags
	// Clients builds the clients from ConfigFlags (tests inject fakes).
	Clients *action.Factory

	printer render.Printer
	cfg     action.MigrateConfig
	args    []string
}

// NewMigrateOptions returns the options with every default set.
func NewMigrateOptions(streams genericiooptions.IOStreams) *MigrateOptions {
	return &MigrateOptions{IOStreams: streams, Input: action.MigrateInput{DryRun: "none"}}
}

// NewCmdMigrate returns the migrate command. runF, when set, replaces Run
// after Complete and Validate (for tests).
func NewCmdMigrate(streams genericiooptions.IOStreams, cf *genericclioptions.ConfigFlags, runF func(*MigrateOptions) error) *cobra.Command {
	o := NewMigrateOptions(streams)
	o.ConfigFlags = cf
	c := &cobra.Command{
		Use:   "migrate TYPE/NAME [-n NAMESPACE] [-f MANIFEST...] [--apply] [--dry-run=server] [--write] [-o text|json|yaml]",
		Short: "Hand a workload's replica count over to its HorizontalPodAutoscaler without dropping pods",
		Long: textblock.Dedent(`
			Migrate hands spec.replicas of a Deployment, StatefulSet, ReplicaSet, or of a
			custom resource with a scale subresource (the field its CRD names in
			specReplicasPath), over to the HorizontalPodAutoscaler that scales it, so that
			removing the field from the applied configuration never resets the replica count.

			It finds the HPA that targets the object (it refuses when there is none, or more
			than one), and who manages the field: the last-applied-configuration annotation of
			kubectl client-side apply, the managedFields entries that own it (server-side
			appliers, updaters, the HPA controller's scale subresource entry), and the marks of
			Helm, Argo CD, Flux and Pulumi.

			By default it only reads and prints the plan: numbered steps, each with its exact
			request and field manager, the live replica count after it (never lower than
			now), and what is left to do outside the cluster. With --apply it carries the plan
			out, each write guarded by a resourceVersion precondition, and reads the object back
			to verify it: for client-side apply it rewrites the annotation without the field;
			for server-side apply it applies the field at its live value as the field manager
			kubectl-hpa-migrate, then removes it from the other appliers' managedFields entries.
			With --dry-run=server the API server checks every write and persists none. Running
			it again once done changes nothing.

			With -f it also removes the field from the object's manifests in local YAML files
			(several documents per file, and the items of kind: List documents; comments,
			order and formatting are kept) and prints the diff; --write saves the files.
			Other manifests in those files that set a replica count are pointed out. With
			-f - the manifest is read from standard input and printed, edited, to standard
			output, so that migrate works as a filter; the report then goes to standard
			error.`),
		Example: textblock.Dedent(`
			# Show who manages the replica count of deployment web and the plan
			kubectl hpa migrate deployment/web -n shop

			# Carry the plan out
			kubectl hpa migrate deployment/web -n shop --apply

			# Have the API server check the writes without persisting them
			kubectl hpa migrate deployment/web -n shop --dry-run=server

			# Also remove spec.replicas from the manifests in deploy/ and save them
			kubectl hpa migrate statefulset/db -n shop -f deploy/ --write

			# Edit a manifest on its way through a pipe (the report goes to stderr)
			kustomize build overlays/prod | kubectl hpa migrate deployment/web -n shop -f - > web.yaml

			# The plan as JSON
			kubectl hpa migrate widgets.example.com/w -n shop -o json`),
		RunE: func(c *cobra.Command, args []string) error {
			if err := o.Complete(c, args); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return &FlagError{Err: err, CommandPath: c.CommandPath()}
			}
			if runF != nil {
				return runF(o)
			}
			return o.Run(c.Context())
		},
	}
	addOptions(c, action.MigrateRows.Bind(&o.Input))
	o.Output.AddFlags(c, false)
	o.ConfigFlags = addConfigFlags(c.Flags(), cf)
	// TYPE/NAME: the workloads the namespace's HPAs scale.
	c.ValidArgsFunction = func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return completeNames(c, o.ConfigFlags, defaultHPATargets, toComplete)
	}
	return c
}

// Complete resolves the argument, the namespace, the output and the mode
// (action.MigrateInput).
func (o *MigrateOptions) Complete(c *cobra.Command, args []string) error {
	o.args = args
	if ns := namespaceOf(o.ConfigFlags); ns != "" {
		o.Namespace = ns
	}
	if len(args) == 1 {
		in := o.Input
		in.Target, in.Namespace, in.Stdin = args[0], o.Namespace, o.In
		var err error
		if o.cfg, err = in.Config(); err != nil {
			return usageError(c, err)
		}
		o.Type, o.Name = o.cfg.Type, o.cfg.Name
	}
	if o.Clients == nil {
		o.Clients = action.NewFactory(o.ConfigFlags)
		o.Clients.Hint = action.MigrateHint
	}
	var err error
	o.printer, err = o.Output.ToPrinter(c, o.Out)
	return err
}

// Validate checks the option values.
func (o *MigrateOptions) Validate() error {
	if len(o.args) != 1 {
		return fmt.Errorf("migrate takes exactly one TYPE/NAME (like deployment/web), got %d arguments", len(o.args))
	}
	return nil
}

// Execute says whether Run carries the plan out (with --apply or
// --dry-run=server).
func (o *MigrateOptions) Execute() bool { return o.cfg.Execute }

// ServerDryRun says whether the writes are sent with dryRun=All.
func (o *MigrateOptions) ServerDryRun() bool { return o.cfg.DryRun }

// Format returns the output format resolved by Complete.
func (o *MigrateOptions) Format() render.Format { return o.printer.Format }

// Run inspects the target, plans, carries the plan out when asked, edits
// the manifests and prints the report.
func (o *MigrateOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	cfg := o.cfg
	cfg.Clients = o.Clients
	res, err := action.Migrate(ctx, cfg)
	if err != nil {
		return err
	}
	for _, p := range res.Written {
		fmt.Fprintf(o.ErrOut, "Wrote %s\n", p)
	}
	render.Warnings(o.ErrOut, res.Warnings)
	// With -f -, standard output carries the manifest, and the report goes
	// to standard error.
	report := o.Out
	if res.StdinManifest != nil {
		report = o.ErrOut
	}
	err = o.printer.Print(report, render.Document(res.Report, func(w io.Writer) error { return migrate.WriteText(w, res.Report, action.MigrateOptionName) }))
	if err == nil && res.StdinManifest != nil {
		_, err = o.Out.Write(res.StdinManifest)
	}
	if err != nil {
		return err
	}
	return res.Failed
}
