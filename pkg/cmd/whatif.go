// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"bytes"
	"context"
	"io"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/internal/textblock"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render/report"
)

// WhatifOptions are the options of the whatif command. The objects, the
// time and the controller settings are read as explain reads them, through
// the same options; the overrides, the projection and the backtest are
// Input's (action.WhatIfRows), which action.WhatIfInput.Plan checks.
type WhatifOptions struct {
	genericiooptions.IOStreams

	// Name is the HPA's name (the positional argument).
	Name string

	Input    action.WhatIfInput
	Source   action.SourceInput
	Settings action.SettingsInput
	Output   OutputFlags

	// ConfigFlags are kubectl's connection flags; Clients builds the
	// clients from them (tests inject fakes).
	ConfigFlags *genericclioptions.ConfigFlags
	Clients     *action.Factory
	// HPANames lists HPA names for shell completion (tests inject fakes).
	HPANames HPANamesFunc
	// Evaluate replays the sync; nil means engine.Evaluate.
	Evaluate action.EvaluateFunc

	printer render.Printer
	plan    *action.WhatIfPlan
}

// NewCmdWhatif returns the whatif command. runF, when set, replaces Run after
// Complete and Validate (for tests).
func NewCmdWhatif(streams genericiooptions.IOStreams, cf *genericclioptions.ConfigFlags, runF func(*WhatifOptions) error) *cobra.Command {
	o := &WhatifOptions{IOStreams: streams, Input: action.DefaultWhatIfInput(), HPANames: defaultHPANames}
	c := &cobra.Command{
		Use:   "whatif NAME [-n NAMESPACE] [-f FILE...] [overrides] [--for DURATION] [-o text|json|yaml]",
		Short: "Replay the HPA controller's decision under changed conditions, and project it over time",
		Long: textblock.Dedent(`
			Whatif replays one sync of the HorizontalPodAutoscaler controller twice: on the
			objects as they are, and on the same objects with the changes you give: other
			usage per pod, other metric values, another target, other bounds or behavior, a
			different number of pods. It prints both decisions side by side and marks the
			steps that changed. Both replays are the same arithmetic as explain's.

			Usage overrides apply to every running pod of the target. --cpu and --memory take
			a quantity per pod (200m, 512Mi; split over a pod's containers in proportion to
			their requests), a relative change (+50%, -20%) or a share of the request (80%,
			also written 80%req); CONTAINER=VALUE changes one container. Pods that had no
			sample get one, except with a relative change. --metric, --object and --external
			set metric values; --external NAME=VALUE sets the sum of the series the HPA's
			selector matches (shared in proportion to their values), NAME{LABEL=V,...}=VALUE
			sets the matching series only. --replicas N runs N pods: the oldest ready pods
			stay, copies of the oldest ready pod are added, and with the default load model
			the total usage is spread evenly over the N pods.

			With --for, whatif also projects successive syncs, one per --sync-period, from the
			changed state: the recommendations and scale events carry over exactly as in the
			controller, so stabilization windows and scaling policies shape the path. New pods
			become ready after --pod-startup and then report samples. --load-model says what
			stays constant: the total load, shared by the pods that report (constant-total,
			the default), or each pod's value (constant-per-pod). --trace replays a CSV load
			trace instead; see docs/whatif.md.`),
		Example: textblock.Dedent(`
			# What would the HPA web do if each pod used 200m CPU?
			kubectl hpa whatif web --cpu=200m

			# CPU usage 50% higher, and the target raised to 70%
			kubectl hpa whatif web --cpu=+50% --target cpu=70%

			# Each pod at 90% of its CPU request, then follow the next 30 minutes
			kubectl hpa whatif web --cpu=90% --for 30m

			# Queue length jumps to 400: how fast do the replicas follow, with a new behavior?
			kubectl hpa whatif worker --external queue_length=400 --behavior fast-up.yaml --for auto

			# Replay a load trace through the controller for an hour, as JSON
			kubectl hpa whatif web --trace load.csv --for 1h -o json

			# Offline, on saved objects
			kubectl hpa whatif web -f web-snapshot.yaml --now 2026-01-01T00:00:00Z --replicas 10

			# Backtest: the last day replayed over the load Prometheus recorded, as the HPA is
			# and with a 30 s scale-down window, against what really happened
			kubectl hpa whatif web --since 24h --prometheus monitoring/prometheus-k8s:9090 --behavior fast-down.yaml`),
		Args: cobra.ExactArgs(1),
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
	addOptions(c, action.WhatIfRows.Bind(&o.Input), action.SourceRows.Bind(&o.Source), action.SettingsRows.Bind(&o.Settings))
	o.Output.AddFlags(c, true)
	o.ConfigFlags = addConfigFlags(c.Flags(), cf)
	c.ValidArgsFunction = func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 || len(o.Source.Files) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return completeNames(c, o.ConfigFlags, o.HPANames, toComplete)
	}
	return c
}

// Complete resolves the source, the settings and the output as explain
// does, then plans the whatif (action.WhatIfInput.Plan).
func (o *WhatifOptions) Complete(c *cobra.Command, args []string) error {
	o.Name = args[0]
	if o.Clients == nil {
		o.Clients = action.NewFactory(o.ConfigFlags)
	}
	source, err := o.Source.Source(o.In, o.Clients, namespaceOf(o.ConfigFlags), nil)
	if err != nil {
		return flagErrorf(c, "%w", err)
	}
	if source.Live() {
		source.History = action.HistoryStore(o.Input.NoHistory)
	}
	settings, err := o.Settings.Overrides()
	if err != nil {
		return flagErrorf(c, "%w", err)
	}
	if o.printer, err = o.Output.ToPrinter(c, o.Out); err != nil {
		return err
	}
	if o.plan, err = o.Input.Plan(source, o.Name, settings); err != nil {
		return usageError(c, err)
	}
	if o.plan.WhatIf != nil {
		o.plan.WhatIf.Evaluate = o.Evaluate
	} else {
		o.plan.Backtest.Load.Progress = recordedProgress(o.ErrOut)
	}
	return action.CheckReportDir(o.Input.Report.File)
}

// Validate checks the option values (Complete's plan did: a plan is
// checked where it is made, for the MCP tools too).
func (o *WhatifOptions) Validate() error { return nil }

// Run reads the objects, applies the overrides, replays both and renders
// them.
func (o *WhatifOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	res, err := o.plan.Run(ctx)
	if err != nil {
		return err
	}
	render.Warnings(o.ErrOut, res.Warnings)
	reportCalls(o.ErrOut, o.Source, o.Clients, "")
	var buf bytes.Buffer
	if err := o.printer.Print(&buf, render.WhatIfResult(res.WhatIf)); err != nil {
		return err
	}
	if _, err = o.Out.Write(buf.Bytes()); err != nil {
		return err
	}
	if f := o.Input.Report.File; f != "" && res.WhatIf.Backtest != nil {
		r := report.Backtest{HPA: res.WhatIf.HPAName(), Backtest: res.WhatIf.Backtest, Loads: res.Loads}
		return action.WriteReport(f, func(w io.Writer) error { return report.WriteBacktest(w, r) })
	}
	return nil
}
