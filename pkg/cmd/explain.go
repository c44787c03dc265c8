// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// ExplainOptions are the options of the explain command.
type ExplainOptions struct {
	genericiooptions.IOStreams

	// Name is the HPA's name (the positional argument).
	Name string
	// AllNamespaces (-A) and Selector (-l) select many HPAs; with either, or
	// without a NAME, explain prints one summary line per HPA.
	AllNamespaces bool
	Selector      string
	// Dump is --dump: a file to write the gathered snapshot to, in the
	// offline format, so that explain -f reproduces the explanation.
	Dump string
	// Watch is --watch: replay the HPA at every sync and as its inputs
	// change, recording the controller's history.
	Watch bool
	// NoHistory is --no-history: ignore the history watches recorded.
	NoHistory bool
	// At is --at (explain the sync of a past instant over recorded load)
	// and the recorded-load flags.
	At action.ExplainAtInput
	// ExitCode is --exit-code: exit 2 when an HPA has a problem of FailOn
	// (--fail-on, which implies it; see action.ParseFailOn).
	ExitCode bool
	FailOn   string

	Source   SourceFlags
	Settings SettingsFlags
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
	format    render.Format
	at        *action.ExplainAtConfig
	gate      *action.Gate
}

// NewExplainOptions returns the options with every default set.
func NewExplainOptions(streams genericiooptions.IOStreams) *ExplainOptions {
	return &ExplainOptions{
		IOStreams: streams,
		Settings:  NewSettingsFlags(),
		Output:    OutputFlags{Output: string(render.FormatText)},
		HPANames:  defaultHPANames,
	}
}

// NewCmdExplain returns the explain command. runF, when set, replaces Run
// after Complete and Validate (for tests).
func NewCmdExplain(streams genericiooptions.IOStreams, cf *genericclioptions.ConfigFlags, runF func(*ExplainOptions) error) *cobra.Command {
	o := NewExplainOptions(streams)
	o.ConfigFlags = cf
	c := &cobra.Command{
		Use:   "explain [NAME] [-n NAMESPACE | -A] [-l SELECTOR] [-f FILE...] [-o text|json|yaml]",
		Short: "Explain the HPA controller's decision for a HorizontalPodAutoscaler",
		Long: dedent(`
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
		Example: dedent(`
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
	fs := c.Flags()
	o.Source.AddVerbosityFlag(fs)
	fs.BoolVarP(&o.AllNamespaces, "all-namespaces", "A", o.AllNamespaces, "Explain the HPAs of every namespace, one line each")
	fs.StringVarP(&o.Selector, "selector", "l", o.Selector, "Explain the HPAs matching this label selector, one line each")
	fs.StringVar(&o.Dump, "dump", o.Dump, "Also write the snapshot the replay used to this file, in the offline format (replay it anywhere with -f)")
	fs.BoolVarP(&o.Watch, "watch", "w", o.Watch, "Keep replaying: at every controller sync and when an input changes, recording the controller's history (Ctrl-C stops)")
	fs.BoolVar(&o.NoHistory, "no-history", o.NoHistory, "Ignore the controller history that earlier watches recorded (and record none)")
	fs.StringVar(&o.At.At, "at", "", "Explain the sync of a past instant (14:02 UTC today, an RFC 3339 time, or a duration ago), replayed over the load recorded in --prometheus")
	addRecordedFlags(fs, &o.At.Recorded)
	fs.BoolVar(&o.ExitCode, "exit-code", o.ExitCode, "Exit with status 2 when an explained HPA has a problem: a failed metric, scaling inactive, unable to scale, or a replay that disagrees with the controller (see docs/exit-codes.md)")
	fs.StringVar(&o.FailOn, "fail-on", o.FailOn, "The problems --exit-code fails on: a list (metric-failed,limited,...) or changes to the default (+limited,-disagrees); implies --exit-code")
	o.Source.AddFlags(fs)
	o.Output.AddFlags(fs)
	o.Settings.AddFlags(fs)
	if cf == nil {
		// Standalone (tests): the command carries kubectl's connection flags
		// itself instead of inheriting them from the root.
		o.ConfigFlags = genericclioptions.NewConfigFlags(true)
		o.ConfigFlags.AddFlags(fs)
	}
	c.ValidArgsFunction = o.completeHPANames
	registerOutputCompletion(c)
	return c
}

// Complete resolves the positional argument, the namespace, the source, the
// settings given and the output format.
func (o *ExplainOptions) Complete(c *cobra.Command, args []string) error {
	o.args = args
	if len(args) == 1 {
		o.Name = args[0]
	}
	if o.ConfigFlags == nil {
		o.ConfigFlags = genericclioptions.NewConfigFlags(true)
	}
	if ns := o.ConfigFlags.Namespace; ns != nil {
		o.namespace = *ns
	}
	if o.Clients == nil {
		o.Clients = action.NewFactory(o.ConfigFlags)
	}
	var err error
	if o.source, err = o.Source.ToSource(c, o.In, o.Clients, o.namespace); err != nil {
		return err
	}
	if o.source.Live() {
		o.source.History = action.HistoryStore(o.NoHistory)
	}
	if o.overrides, err = o.Settings.ToOverrides(c); err != nil {
		return flagErrorf(c, "%w", err)
	}
	if o.ExitCode || c.Flags().Changed("fail-on") {
		failOn, err := action.ParseFailOn(o.FailOn)
		if err != nil {
			return flagErrorf(c, "%w", err)
		}
		o.gate = action.NewGate(failOn)
	}
	if o.format, err = o.Output.Format(c); err != nil {
		return err
	}
	o.At.Given = changedFlags(c)
	if o.at, err = o.At.Config(o.source, o.Name, o.overrides); err != nil {
		return usageError(c, err)
	}
	if o.at != nil {
		o.at.Load.Progress = recordedProgress(o.ErrOut)
	}
	return nil
}

// Validate checks the option values.
func (o *ExplainOptions) Validate() error {
	return action.ExplainModes{
		Args: o.args, Name: o.Name, AllNamespaces: o.AllNamespaces, Selector: o.Selector, Files: len(o.Source.Filenames) > 0,
		Dump: o.Dump != "", Watch: o.Watch, Now: o.Source.Now != "", At: o.at != nil, Gate: o.gate != nil,
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
func (o *ExplainOptions) Format() render.Format { return o.format }

// Run explains one HPA, or many without a NAME. Warnings go to ErrOut, the
// result to Out.
func (o *ExplainOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.Watch {
		return o.runWatch(ctx)
	}
	if o.Name == "" {
		return o.runMany(ctx)
	}
	res, err := action.ExplainOne(ctx, action.ExplainConfig{
		Source: o.source, Name: o.Name, Settings: o.overrides, Dump: o.Dump, Evaluate: o.Evaluate,
	}, o.at)
	if err != nil {
		return err
	}
	render.Warnings(o.ErrOut, res.Warnings)
	for _, n := range res.Notes {
		fmt.Fprintln(o.ErrOut, n)
	}
	o.Source.reportCalls(o.ErrOut, o.Clients, "")
	if err := render.WriteExplanation(o.Out, o.format, res.Decision, res.KEDA, o.Output.Display.RenderOptions(o.Out)); err != nil {
		return err
	}
	o.gate.Check(res.Decision)
	return o.gate.Err()
}

// runMany explains every selected HPA, one summary line each.
func (o *ExplainOptions) runMany(ctx context.Context) error {
	defer collectAtLimit()()
	// Rows (or JSON items) stream out as each HPA is replayed; each is
	// encoded with its replay, in parallel.
	lw := render.NewListWriter(o.Out, o.format, o.AllNamespaces, o.Output.Display.RenderOptions(o.Out))
	res, err := action.ExplainMany(ctx, action.ManyConfig{
		Source: o.source, AllNamespaces: o.AllNamespaces, Selector: o.Selector, Settings: o.overrides,
		Progress: manyProgress(o.ErrOut), Evaluate: o.Evaluate, OnKEDA: lw.ShowKEDA,
	}, func(d *explain.Decision) (render.ListItem, error) {
		o.gate.Check(d)
		return lw.Encode(d)
	}, lw.Write)
	if err != nil {
		return err
	}
	render.Warnings(o.ErrOut, res.Warnings)
	if none := res.NoneFound(o.AllNamespaces); none != "" && o.format == render.FormatText {
		fmt.Fprintln(o.ErrOut, none)
		return nil
	}
	o.Source.reportCalls(o.ErrOut, o.Clients, fmt.Sprintf(" for %d HPAs", res.Count))
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
