// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/internal/gcpace"
	"github.com/kubectl-hpa/kubectl-hpa/internal/textblock"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// ExplainOptions are the options of the explain command.
type ExplainOptions struct {
	genericiooptions.IOStreams

	// Name is the HPA's name (the positional argument). Without it, or
	// with -A or -l, explain prints one summary line per HPA.
	Name string
	// Input is explain's declared options (action.ExplainRows).
	Input    action.ExplainInput
	Source   action.SourceInput
	Settings action.SettingsInput
	Output   OutputFlags

	// ConfigFlags are kubectl's connection flags; Clients builds the
	// clients from them (tests inject fakes).
	ConfigFlags *genericclioptions.ConfigFlags
	Clients     *action.Factory
	// HPANames lists HPA names for shell completion (tests inject fakes).
	HPANames HPANamesFunc
	// Evaluate replays the sync; nil means engine.Evaluate (tests inject).
	Evaluate action.EvaluateFunc

	// Resolved by Complete.
	args      []string
	namespace string
	source    action.Source
	overrides action.SettingsOverrides
	printer   render.Printer
	at        *action.ExplainAtConfig
	gate      *action.Gate
	contexts  *action.Contexts
}

// NewExplainOptions returns the options with every default set.
func NewExplainOptions(streams genericiooptions.IOStreams) *ExplainOptions {
	return &ExplainOptions{IOStreams: streams, HPANames: defaultHPANames}
}

// NewCmdExplain returns the explain command. runF, when set, replaces Run
// after Complete and Validate (for tests).
func NewCmdExplain(streams genericiooptions.IOStreams, cf *genericclioptions.ConfigFlags, runF func(*ExplainOptions) error) *cobra.Command {
	o := NewExplainOptions(streams)
	o.ConfigFlags = cf
	c := &cobra.Command{
		Use:   "explain [NAME] [-n NAMESPACE | -A] [-l SELECTOR] [-f FILE...] [-o text|json|yaml]",
		Short: "Explain the HPA controller's decision for a HorizontalPodAutoscaler",
		Long: textblock.Dedent(`
			Explain replays one sync of the HorizontalPodAutoscaler controller for the HPA NAME
			and shows every step: the selector check, each metric's pods, usage, ratio,
			tolerance test and fill-in, the combined recommendation, the stabilization window,
			the scaling policies and the bounds, then the conditions, events and status the
			controller would write, and whether that agrees with the status the controller
			last wrote.

			It replays the controller of the version the cluster runs (v1.29 to v1.37),
			detected from the API server and, where readable, the kube-controller-manager
			pod; --controller-version names another. docs/versions.md lists what differs
			between versions.

			By default it reads the cluster of the current kubeconfig context, with only GET
			and LIST requests (docs/rbac.yaml lists them). Without a NAME, or with -l or -A,
			it prints one line per HPA: current and desired replicas, the step that decided,
			and the agreement with the controller.

			With -f it reads the objects from files instead ("-" reads stdin), as
			'kubectl get -o yaml' prints them, or as --dump writes them: the HPA, the
			target's Scale or its workload, the pods, what the metrics APIs returned, and
			optionally the controller's in-memory history as a ControllerState document and
			its version and settings as a Controller document.
			docs/snapshot-format.md describes the input.`),
		Example: textblock.Dedent(`
			# Explain the HPA web of namespace shop in the current cluster
			kubectl hpa explain web -n shop

			# One line per HPA in every namespace
			kubectl hpa explain -A

			# Save what the replay used, for a bug report
			kubectl hpa explain web -n shop --dump web-snapshot.yaml

			# Replay it elsewhere, at the instant it was taken
			kubectl hpa explain web -n shop -f web-snapshot.yaml --now 2026-01-01T00:00:00Z

			# The same objects as a v1.32 controller decides them
			kubectl hpa explain web -n shop -f web-snapshot.yaml --controller-version 1.32

			# Replay saved objects as JSON, with a controller tolerance of 5%
			cat hpa.yaml pods.yaml metrics.yaml | kubectl hpa explain web -f - --tolerance 0.05 -o json

			# Why did it not scale up at 14:02 (UTC)? The sync then, over the load Prometheus recorded
			kubectl hpa explain web -n shop --at 14:02 --prometheus monitoring/prometheus-k8s:9090`),
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
	addOptions(c, action.ExplainRows.Bind(&o.Input), action.SourceRows.Bind(&o.Source), action.SettingsRows.Bind(&o.Settings))
	o.Output.AddFlags(c, true)
	o.ConfigFlags = addConfigFlags(c.Flags(), cf)
	c.ValidArgsFunction = o.completeHPANames
	return c
}

// Complete resolves the positional argument, the namespace, the source,
// the settings given, the output and --at.
func (o *ExplainOptions) Complete(c *cobra.Command, args []string) error {
	o.args = args
	if len(args) == 1 {
		o.Name = args[0]
	}
	o.namespace = namespaceOf(o.ConfigFlags)
	if o.Clients == nil {
		o.Clients = action.NewFactory(o.ConfigFlags)
	}
	var err error
	if o.source, err = o.Source.Source(o.In, o.Clients, o.namespace, nil); err != nil {
		return flagErrorf(c, "%w", err)
	}
	if o.source.Live() {
		o.source.History = action.HistoryStore(o.Input.NoHistory)
	}
	if o.overrides, err = o.Settings.Overrides(); err != nil {
		return flagErrorf(c, "%w", err)
	}
	if o.gate, err = o.Input.Gate(); err != nil {
		return flagErrorf(c, "%w", err)
	}
	if o.printer, err = o.Output.ToPrinter(c, o.Out); err != nil {
		return err
	}
	if o.at, err = o.Input.AtConfig(o.source, o.Name, o.overrides); err != nil {
		return usageError(c, err)
	}
	if o.at != nil {
		o.at.Load.Progress = recordedProgress(o.ErrOut)
	}
	if o.contexts, err = o.Input.Contexts.Check(); err != nil {
		return usageError(c, err)
	}
	return nil
}

// Validate checks that the arguments and options go together, as
// kubectl's Validate does.
func (o *ExplainOptions) Validate() error {
	in := o.Input
	return action.ExplainModes{
		Args: o.args, Name: o.Name, AllNamespaces: in.AllNamespaces, Selector: in.Selector, Files: len(o.Source.Files) > 0,
		Dump: in.Dump != "", Watch: in.Watch, Now: o.Source.Now != "", At: o.at != nil, Gate: o.gate != nil,
		Contexts: in.Contexts.Given(),
	}.Check()
}

// Namespace returns the namespace resolved by Complete ("" means the
// kubeconfig context's, or the input's with -f).
func (o *ExplainOptions) Namespace() string { return o.namespace }

// SourceConfig returns the source resolved by Complete.
func (o *ExplainOptions) SourceConfig() action.Source { return o.source }

// Overrides returns the settings given on the command line.
func (o *ExplainOptions) Overrides() action.SettingsOverrides { return o.overrides }

// Format returns the output format resolved by Complete.
func (o *ExplainOptions) Format() render.Format { return o.printer.Format }

// Run explains one HPA, or many without a NAME. Warnings go to ErrOut, the
// result to Out.
func (o *ExplainOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.Input.Watch {
		return o.runWatch(ctx)
	}
	if o.Name == "" {
		return o.runMany(ctx)
	}
	res, err := action.ExplainOne(ctx, action.ExplainConfig{
		Source: o.source, Name: o.Name, Settings: o.overrides, Dump: o.Input.Dump, Evaluate: o.Evaluate,
	}, o.at)
	if err != nil {
		return err
	}
	render.Warnings(o.ErrOut, res.Warnings)
	for _, n := range res.Notes {
		fmt.Fprintln(o.ErrOut, n)
	}
	reportCalls(o.ErrOut, o.Source, o.Clients, "")
	if err := o.printer.Print(o.Out, render.Explanation(res.Decision, res.KEDA)); err != nil {
		return err
	}
	o.gate.Check(res.Decision)
	return o.gate.Err()
}

// runMany explains every selected HPA, one summary line each.
func (o *ExplainOptions) runMany(ctx context.Context) error {
	defer gcpace.CollectAtLimit()()
	// Rows (or JSON items) stream out as each HPA is replayed; each is
	// encoded with its replay, in parallel.
	all := o.Input.AllNamespaces
	lw := render.NewListWriter(o.Out, o.printer.Format, all, o.printer.Options)
	if o.contexts != nil {
		return o.runContexts(ctx, lw)
	}
	res, err := action.ExplainMany(ctx, action.ManyConfig{
		Source: o.source, AllNamespaces: all, Selector: o.Input.Selector, Settings: o.overrides,
		Progress: manyProgress(o.ErrOut), Evaluate: o.Evaluate, OnKEDA: lw.ShowKEDA,
	}, func(d *explain.Decision) (render.ListItem, error) {
		o.gate.Check(d)
		return lw.Encode(d)
	}, lw.Write)
	if err != nil {
		return err
	}
	render.Warnings(o.ErrOut, res.Warnings)
	if none := res.NoneFound(all); none != "" && o.printer.Format == render.FormatText {
		fmt.Fprintln(o.ErrOut, none)
		return nil
	}
	reportCalls(o.ErrOut, o.Source, o.Clients, fmt.Sprintf(" for %d HPAs", res.Count))
	for _, k := range res.KEDA {
		if err := lw.WriteKEDA(k); err != nil {
			return err
		}
	}
	if err := lw.Close(); err != nil {
		return err
	}
	return o.gate.Err()
}

// runContexts explains the selected HPAs of each context, a CONTEXT
// column in front. The contexts are read at once (up to --parallel), their
// rows written in the contexts' name order once each is read; a context
// that cannot be read is an error line, the others go on, and the run
// exits 1 after the list.
func (o *ExplainOptions) runContexts(ctx context.Context, lw *render.ListWriter) error {
	lw.ShowContext()
	runs, err := action.ExplainContexts(ctx, action.ManyConfig{
		Source: o.source, AllNamespaces: o.Input.AllNamespaces, Selector: o.Input.Selector, Settings: o.overrides,
		Evaluate: o.Evaluate, Contexts: o.contexts,
	}, func(d *explain.Decision) (render.ListItem, error) {
		o.gate.Check(d)
		return lw.Encode(d)
	})
	if err != nil {
		return err
	}
	var failed []string
	count := 0
	for _, r := range runs {
		if r.Err != nil {
			failed = append(failed, r.Context)
			fmt.Fprintf(o.ErrOut, "error: context %s: %v\n", r.Context, r.Err)
			continue
		}
		for _, w := range r.Result.Warnings {
			render.Warnings(o.ErrOut, []string{"context " + r.Context + ": " + w})
		}
		count += r.Result.Count
		for _, it := range r.Items {
			if err := lw.Write(it); err != nil {
				return err
			}
		}
		for _, k := range r.Result.KEDA {
			if err := lw.WriteKEDA(k); err != nil {
				return err
			}
		}
	}
	reportCalls(o.ErrOut, o.Source, o.Clients, fmt.Sprintf(" for %d HPAs", count))
	if err := lw.Close(); err != nil {
		return err
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d contexts could not be read: %s", len(failed), len(runs), strings.Join(failed, ", "))
	}
	return o.gate.Err()
}
