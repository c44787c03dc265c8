// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"bytes"
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// WhatifOptions are the options of the whatif command. The objects, the
// time and the controller settings are read as explain reads them, through
// the same flag groups; the overrides, the projection and the backtest are
// the flags of Input, which action.WhatIfInput.Plan checks.
type WhatifOptions struct {
	genericiooptions.IOStreams

	// Name is the HPA's name (the positional argument).
	Name string

	Source   SourceFlags
	Settings SettingsFlags
	Output   OutputFlags
	Input    action.WhatIfInput
	// NoHistory is --no-history: ignore the history watches recorded.
	NoHistory bool

	// ConfigFlags are kubectl's connection flags; Clients builds the
	// clients from them (tests inject fakes).
	ConfigFlags *genericclioptions.ConfigFlags
	Clients     *action.Factory
	// HPANames lists HPA names for shell completion (tests inject fakes).
	HPANames HPANamesFunc
	// Evaluate replays the sync; nil means engine.Evaluate.
	Evaluate action.EvaluateFunc

	format render.Format
	plan   *action.WhatIfPlan
}

// NewCmdWhatif returns the whatif command. runF, when set, replaces Run after
// Complete and Validate (for tests).
func NewCmdWhatif(streams genericiooptions.IOStreams, cf *genericclioptions.ConfigFlags, runF func(*WhatifOptions) error) *cobra.Command {
	o := &WhatifOptions{
		IOStreams: streams, Settings: NewSettingsFlags(), Output: OutputFlags{Output: string(render.FormatText)},
		Input: action.DefaultWhatIfInput(), HPANames: defaultHPANames,
	}
	o.ConfigFlags = cf
	c := &cobra.Command{
		Use:   "whatif NAME [-n NAMESPACE] [-f FILE...] [overrides] [--for DURATION] [-o text|json|yaml]",
		Short: "Replay the HPA controller's decision under changed conditions, and project it over time",
		Long: dedent(`
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
		Example: dedent(`
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
	fs := c.Flags()
	in := &o.Input
	addOverrideFlags(fs, in)
	fs.BoolVar(&o.NoHistory, "no-history", false, "Ignore the controller history that watches recorded (explain --watch)")
	fs.StringVar(&in.Since, "since", "", "Backtest from this past instant (a duration ago like 24h, an RFC 3339 time, or 14:02 UTC) over the load recorded in --prometheus")
	fs.StringVar(&in.Until, "until", "", "End of the backtest (as --since; default: now)")
	fs.DurationVar(&in.SampleDelay, "sample-delay", 0, "In a backtest, how long after its creation a pod has a metric sample (default: measured on the recorded pods)")
	addRecordedFlags(fs, &in.Recorded)
	o.Source.AddFlags(fs)
	o.Output.AddFlags(fs)
	o.Source.AddVerbosityFlag(fs)
	o.Settings.AddFlags(fs)
	if cf == nil {
		o.ConfigFlags = genericclioptions.NewConfigFlags(true)
		o.ConfigFlags.AddFlags(fs)
	}
	c.ValidArgsFunction = func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 || len(o.Source.Filenames) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return completeNames(c, o.ConfigFlags, o.HPANames, toComplete)
	}
	registerOutputCompletion(c)
	_ = c.RegisterFlagCompletionFunc("load-model", cobra.FixedCompletions([]string{explain.LoadConstantTotal, explain.LoadConstantPerPod}, cobra.ShellCompDirectiveNoFileComp))
	return c
}

func addOverrideFlags(fs *pflag.FlagSet, in *action.WhatIfInput) {
	fs.StringVar(&in.CPU, "cpu", "", "CPU usage of every running pod: a quantity (200m), a relative change (+50%), a share of the request (80%), or CONTAINER=VALUE")
	fs.StringVar(&in.Memory, "memory", "", "Memory usage of every running pod, as for --cpu (512Mi, -20%, 75%)")
	fs.StringArrayVar(&in.Metrics, "metric", nil, "Value of a Pods metric on every running pod: NAME=VALUE or NAME=+N% (repeatable)")
	fs.StringArrayVar(&in.Objects, "object", nil, "Value of an Object metric: NAME=VALUE (repeatable)")
	fs.StringArrayVar(&in.Externals, "external", nil, "Value of an External metric: NAME=VALUE (the sum of its series) or NAME{LABEL=V,...}=VALUE (repeatable)")
	fs.StringArrayVar(&in.Targets, "target", nil, "A metric's target: cpu=70% (utilization), cpu=250m (average value), NAME=VALUE (repeatable)")
	fs.Int32Var(&in.Min, "min", -1, "The HPA's minReplicas (0 to 2147483647, as the API)")
	fs.Int32Var(&in.Max, "max", -1, "The HPA's maxReplicas (1 to 2147483647, as the API)")
	fs.StringVar(&in.ScaleUpTolerance, "scale-up-tolerance", "", "Tolerance of the HPA's scale-up rules, like 0.05 (adds the default behavior if the HPA has none)")
	fs.StringVar(&in.ScaleDownTolerance, "scale-down-tolerance", "", "Tolerance of the HPA's scale-down rules, like 0.2 (adds the default behavior if the HPA has none)")
	fs.StringVar(&in.BehaviorFile, "behavior", "", "File holding a spec.behavior stanza (YAML or JSON, with or without the 'behavior:' key) to use instead of the HPA's")
	fs.Int32Var(&in.Replicas, "replicas", -1, fmt.Sprintf("Run this many pods (see --load-model for their usage); up to 2147483647, of which at most %d pods are simulated: a count outside [minReplicas, maxReplicas] needs none beyond maxReplicas", whatif.MaxPods))
	fs.BoolVar(&in.AllReady, "all-ready", false, "Make every pod of the target Running and Ready")
	fs.StringVar(&in.LoadModel, "load-model", in.LoadModel, "What stays constant when the pods change: constant-total (the total load, shared by the pods) or constant-per-pod")
	fs.Var(newDurationOrAuto(&in.For), "for", fmt.Sprintf("Project the syncs over this long (like 30m, at most %s and %d syncs), or 'auto': until the replicas settle (at most 1h)", action.MaxFor, whatif.DefaultMaxSteps))
	fs.DurationVar(&in.PodStartup, "pod-startup", in.PodStartup, fmt.Sprintf("In a projection, how long a new pod takes to become ready and report samples (at most %s)", action.MaxPodStartup))
	fs.StringVar(&in.TraceFile, "trace", "", "In a projection, a CSV load trace (time,cpu | time,cpu/pod | ..., see docs/whatif.md); implies --for")
	fs.StringArrayVar(&in.Triggers, "trigger", nil, "For a ScaledObject: what a trigger reads, NAME=VALUE or NAME=error[:MESSAGE] (NAME: its name, metric name or index; repeatable); --min/--max set minReplicaCount/maxReplicaCount")
	fs.StringArrayVar(&in.Activations, "activation", nil, "For a ScaledObject: a trigger's activation threshold, NAME=VALUE (repeatable)")
	fs.DurationVar(&in.Cooldown, "cooldown", 0, "For a ScaledObject: its cooldownPeriod (whole seconds, like 30s)")
	fs.DurationVar(&in.PollingInterval, "polling-interval", 0, "For a ScaledObject: its pollingInterval (whole seconds)")
	fs.Int32Var(&in.Idle, "idle", 0, "For a ScaledObject: its idleReplicaCount (-1 removes it)")
	fs.Int32Var(&in.FallbackReplicas, "fallback-replicas", 0, "For a ScaledObject: fallback.replicas (adds a static fallback when it has none)")
	fs.Int32Var(&in.FailureThreshold, "failure-threshold", 0, "For a ScaledObject: fallback.failureThreshold")
}

// durationOrAuto is a flag value: a duration, or "auto".
type durationOrAuto struct{ s *string }

func newDurationOrAuto(s *string) *durationOrAuto { return &durationOrAuto{s: s} }

func (d *durationOrAuto) String() string { return *d.s }
func (d *durationOrAuto) Type() string   { return "duration" }
func (d *durationOrAuto) Set(v string) error {
	if err := action.CheckFor(v); err != nil {
		return err
	}
	*d.s = v
	return nil
}

// Complete resolves the source, the settings and the format as explain
// does, then plans the whatif (action.WhatIfInput.Plan).
func (o *WhatifOptions) Complete(c *cobra.Command, args []string) error {
	o.Name = args[0]
	o.Input.Given = changedFlags(c)
	if o.ConfigFlags == nil {
		o.ConfigFlags = genericclioptions.NewConfigFlags(true)
	}
	namespace := ""
	if ns := o.ConfigFlags.Namespace; ns != nil {
		namespace = *ns
	}
	if o.Clients == nil {
		o.Clients = action.NewFactory(o.ConfigFlags)
	}
	source, err := o.Source.ToSource(c, o.In, o.Clients, namespace)
	if err != nil {
		return err
	}
	if source.Live() {
		source.History = action.HistoryStore(o.NoHistory)
	}
	settings, err := o.Settings.ToOverrides(c)
	if err != nil {
		return flagErrorf(c, "%w", err)
	}
	if o.format, err = o.Output.Format(c); err != nil {
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
	return nil
}

// Validate checks the option values (Complete's plan did).
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
	o.Source.reportCalls(o.ErrOut, o.Clients, "")
	var buf bytes.Buffer
	if err := render.WriteWhatIf(&buf, o.format, res.WhatIf, o.Output.Display.RenderOptions(o.Out)); err != nil {
		return err
	}
	_, err = o.Out.Write(buf.Bytes())
	return err
}
