// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/fleet"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/options"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/tune"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// The declaration of the options of the actions' inputs: one row per
// option gives its flag (pkg/cmd) and its MCP argument (pkg/mcpserver),
// and the errors of the inputs name an option through its row (Named).
// Help is the flag's text; Desc, when the MCP argument words it
// differently, the argument's. The rows are declared here, beside the
// inputs, so that this package's messages can name them; the options of
// the Prometheus client are pkg/prom's (prom.Rows).
//
// A group is a table of rows (options.Rows, named ...Rows) per part of an
// input, in the order the tools list their arguments; a command binds the groups of its modes, a tool those
// of its own.

// Why the flags that are no MCP argument are not.
const (
	onlyHidden   = "a hidden flag, for tests and upstream's replays"
	onlyFiles    = "reads or writes files on the user's machine"
	onlyTerminal = "follows the cluster on a terminal until stopped"
	onlyExit     = "sets the command's exit status"
)

// SettingsRows are the kube-controller-manager settings of a replay.
var SettingsRows = func() options.Rows[SettingsInput] {
	d := engine.DefaultSettings()
	return options.Rows[SettingsInput]{
		{
			Name: "tolerance", Help: "Controller tolerance (--horizontal-pod-autoscaler-tolerance), 0 to 100",
			Desc:  fmt.Sprintf("Controller tolerance (--horizontal-pod-autoscaler-tolerance), 0 to 100; default %v or the controller's", d.Tolerance),
			Field: func(in *SettingsInput) options.Value { return options.Float64(&in.Tolerance, d.Tolerance) },
		},
		{
			Name: "cpu-initialization-period", Help: "CPU initialization period (--horizontal-pod-autoscaler-cpu-initialization-period), at most 24h",
			Desc: "The controller's CPU initialization period, a duration like 5m",
			Field: func(in *SettingsInput) options.Value {
				return options.Duration(&in.CPUInitializationPeriod, d.CPUInitializationPeriod)
			},
		},
		{
			Name: "initial-readiness-delay", Help: "Initial readiness delay (--horizontal-pod-autoscaler-initial-readiness-delay), at most 24h",
			Desc: "The controller's initial readiness delay, a duration like 30s",
			Field: func(in *SettingsInput) options.Value {
				return options.Duration(&in.InitialReadinessDelay, d.InitialReadinessDelay)
			},
		},
		{
			Name: "downscale-stabilization", Help: "Downscale stabilization window (--horizontal-pod-autoscaler-downscale-stabilization), at most 24h",
			Desc: "The controller's downscale stabilization window, a duration like 5m",
			Field: func(in *SettingsInput) options.Value {
				return options.Duration(&in.DownscaleStabilization, d.DownscaleStabilization)
			},
		},
		{
			Name: "sync-period", Help: "Controller sync period (--horizontal-pod-autoscaler-sync-period), at most 1h",
			Desc:  "The controller's sync period, a duration like 15s (it paces projections and backtests)",
			Field: func(in *SettingsInput) options.Value { return options.Duration(&in.SyncPeriod, d.SyncPeriod) },
		},
		{
			Name: "feature-gates", Help: "Feature gates as Name=true|false,... on top of the controller version's defaults (see docs/versions.md)",
			Desc:  "Feature gates as Name=true|false,... on top of the controller version's defaults",
			Field: func(in *SettingsInput) options.Value { return options.String(&in.FeatureGates) },
		},
		{
			Name: "controller-version", Help: "Kubernetes version of the kube-controller-manager to replay, like 1.32 or v1.32.13 (default: detected from the cluster, else " + profile.NewestVersion + ")",
			Desc:  "Kubernetes version of the kube-controller-manager to replay, like 1.32; default: detected from the cluster",
			Field: func(in *SettingsInput) options.Value { return options.String(&in.ControllerVersion) },
		},
		{
			Name: "keda-version", Help: "KEDA release to replay for HPAs a ScaledObject owns, like 2.21 or v2.20.2 (default: detected from KEDA's operator, else " + keda.NewestVersion + ")",
			Desc:  "KEDA release to replay for HPAs a ScaledObject owns, like 2.21; default: detected from KEDA's operator",
			Field: func(in *SettingsInput) options.Value { return options.String(&in.KEDAVersion) },
		},
		{
			Name: "assume-scale-update-error", Help: "Assume the controller's scale update fails with this error", Hidden: true,
			Field: func(in *SettingsInput) options.Value { return options.String(&in.AssumeScaleUpdateError) },
		},
		{
			Name: "skip-validation", Help: "Replay -f input that the API server would refuse (upstream's unit-test objects)", Hidden: true,
			Field: func(in *SettingsInput) options.Value { return options.Bool(&in.SkipValidation) },
		},
	}
}()

// RecordedRows say where recorded load is and how to read it (whatif
// --since, explain --at).
var RecordedRows = append(options.Embed(prom.Rows, func(r *RecordedInput) *prom.Config { return &r.Prometheus }),
	options.Rows[RecordedInput]{
		{
			Name: prom.FlagQuery, Help: "PromQL of an HPA metric that is not a container counter: NAME=PROMQL (repeatable; Pods metrics: one series per pod, with a pod label)",
			Desc:  "PromQL of an HPA metric that is not a container counter, each NAME=PROMQL",
			Field: func(r *RecordedInput) options.Value { return options.Strings(&r.Queries) },
		},
		{
			Name: "metrics-resolution",
			Help: fmt.Sprintf("Resolution of the resource metrics the controller read (metrics-server's --metric-resolution): the window of each sample; default: read off the PodMetrics metrics-server serves, else %s", DefaultMetricsResolution),
			Desc: fmt.Sprintf("Resolution of the resource metrics the controller read (metrics-server's --metric-resolution), a duration; default: read off the PodMetrics metrics-server serves, else %s", DefaultMetricsResolution),
			Field: func(r *RecordedInput) options.Value {
				return options.Duration(&r.MetricsResolution, 0)
			},
		},
		{
			Name: "no-kube-state-metrics", Help: "Find the pods by their usage series even where kube-state-metrics is recorded",
			Field: func(r *RecordedInput) options.Value { return options.Bool(&r.NoKubeStateMetrics) },
		},
	}...)

// ExplainManyRows select many HPAs (explain -A|-l, hpa_explain_many).
var ExplainManyRows = options.Rows[ExplainInput]{
	{
		Name: "all-namespaces", Shorthand: "A", Help: "Explain the HPAs of every namespace, one line each",
		Desc:  "Explain the HPAs of every namespace (kubectl's -A)",
		Field: func(in *ExplainInput) options.Value { return options.Bool(&in.AllNamespaces) },
	},
	{
		Name: "selector", Shorthand: "l", Help: "Explain the HPAs matching this label selector, one line each",
		Desc:  "Only the HPAs matching this label selector (kubectl's -l)",
		Field: func(in *ExplainInput) options.Value { return options.String(&in.Selector) },
	},
}

// ExplainOneRows are explain's of one HPA (hpa_explain): --at over
// recorded load, and the history.
var ExplainOneRows = concat(options.Rows[ExplainInput]{
	{
		Name: "at", Help: "Explain the sync of a past instant (14:02 UTC today, an RFC 3339 time, or a duration ago), replayed over the load recorded in --prometheus",
		Desc:  "Explain the sync of a past instant instead (14:02 UTC today, an RFC 3339 time, or a duration ago like 2h), over the load recorded in prometheus",
		Field: func(in *ExplainInput) options.Value { return options.String(&in.At) },
	},
}, options.Embed(RecordedRows, func(in *ExplainInput) *RecordedInput { return &in.Recorded }),
	options.Embed(HistoryRows, func(in *ExplainInput) *HistoryInput { return &in.HistoryInput }))

// ExplainCLIRows are explain's flags that no tool takes.
var ExplainCLIRows = options.Rows[ExplainInput]{
	{
		Name: "dump", CLIOnly: onlyFiles, Help: "Also write the snapshot the replay used to this file, in the offline format (replay it anywhere with -f)",
		Field: func(in *ExplainInput) options.Value { return options.String(&in.Dump) },
	},
	{
		Name: "watch", Shorthand: "w", CLIOnly: onlyTerminal, Help: "Keep replaying: at every controller sync and when an input changes, recording the controller's history (Ctrl-C stops)",
		Field: func(in *ExplainInput) options.Value { return options.Bool(&in.Watch) },
	},
	{
		Name: "exit-code", CLIOnly: onlyExit, Help: "Exit with status 2 when an explained HPA has a problem: a failed metric, scaling inactive, unable to scale, a replay that disagrees with the controller, or a stale status (the controller not syncing the HPA; see docs/exit-codes.md)",
		Field: func(in *ExplainInput) options.Value { return options.Bool(&in.ExitCode) },
	},
	{
		Name: "fail-on", CLIOnly: onlyExit, Help: "The problems --exit-code fails on: a list (metric-failed,limited,...) or changes to the default (+limited,-disagrees); implies --exit-code",
		Field: func(in *ExplainInput) options.Value { return options.String(&in.FailOn) },
	},
}

// ExplainRows are all of explain's.
var ExplainRows = concat(ExplainManyRows, ExplainOneRows, ExplainCLIRows,
	options.Embed(ContextsRows, func(in *ExplainInput) *ContextsInput { return &in.Contexts }))

// WhatIfLoadRows change the load: the usage, the metric values, the
// pods. A backtest reads the load from what was recorded and refuses
// them, and the projection's (WhatIfProjectionRows).
var WhatIfLoadRows = options.Rows[WhatIfInput]{
	{
		Name: "cpu", Help: "CPU usage of every running pod: a quantity (200m), a relative change (+50%), a share of the request (80%), or CONTAINER=VALUE",
		Field: func(in *WhatIfInput) options.Value { return options.String(&in.CPU) },
	},
	{
		Name: "memory", Help: "Memory usage of every running pod, as for --cpu (512Mi, -20%, 75%)",
		Desc:  "Memory usage of every running pod, as for cpu (512Mi, -20%, 75%)",
		Field: func(in *WhatIfInput) options.Value { return options.String(&in.Memory) },
	},
	{
		Name: "metric", Help: "Value of a Pods metric on every running pod: NAME=VALUE or NAME=+N% (repeatable)",
		Desc:  "Values of Pods metrics on every running pod, each NAME=VALUE or NAME=+N%",
		Field: func(in *WhatIfInput) options.Value { return options.Strings(&in.Metrics) },
	},
	{
		Name: "object", Help: "Value of an Object metric: NAME=VALUE (repeatable)", Desc: "Values of Object metrics, each NAME=VALUE",
		Field: func(in *WhatIfInput) options.Value { return options.Strings(&in.Objects) },
	},
	{
		Name: "external", Help: "Value of an External metric: NAME=VALUE (the sum of its series) or NAME{LABEL=V,...}=VALUE (repeatable)",
		Desc:  "Values of External metrics, each NAME=VALUE (the sum of its series) or NAME{LABEL=V,...}=VALUE",
		Field: func(in *WhatIfInput) options.Value { return options.Strings(&in.Externals) },
	},
	{
		Name: "replicas", Help: fmt.Sprintf("Run this many pods (see --load-model for their usage); up to 2147483647, of which at most %d pods are simulated: a count outside [minReplicas, maxReplicas] needs none beyond maxReplicas", whatif.MaxPods),
		Desc:  "Run this many pods (see load-model for their usage)",
		Field: func(in *WhatIfInput) options.Value { return options.Int32(&in.Replicas, "-1") },
	},
	{
		Name: "all-ready", Help: "Make every pod of the target Running and Ready",
		Field: func(in *WhatIfInput) options.Value { return options.Bool(&in.AllReady) },
	},
}

// WhatIfHPARows change the HPA itself; a backtest takes them too.
var WhatIfHPARows = options.Rows[WhatIfInput]{
	{
		Name: "target", Help: "A metric's target: cpu=70% (utilization), cpu=250m (average value), NAME=VALUE (repeatable)",
		Desc:  "A metric's target: cpu=70% (utilization), cpu=250m (average value), NAME=VALUE",
		Field: func(in *WhatIfInput) options.Value { return options.Strings(&in.Targets) },
	},
	{
		Name: "min", Help: "The HPA's minReplicas (0 to 2147483647, as the API)", Desc: "The HPA's minReplicas",
		Field: func(in *WhatIfInput) options.Value { return options.Int32(&in.Min, "-1") },
	},
	{
		Name: "max", Help: "The HPA's maxReplicas (1 to 2147483647, as the API)", Desc: "The HPA's maxReplicas",
		Field: func(in *WhatIfInput) options.Value { return options.Int32(&in.Max, "-1") },
	},
	{
		Name: "scale-up-tolerance", Help: "Tolerance of the HPA's scale-up rules, like 0.05 (adds the default behavior if the HPA has none)",
		Desc:  "Tolerance of the HPA's scale-up rules, like 0.05",
		Field: func(in *WhatIfInput) options.Value { return options.String(&in.ScaleUpTolerance) },
	},
	{
		Name: "scale-down-tolerance", Help: "Tolerance of the HPA's scale-down rules, like 0.2 (adds the default behavior if the HPA has none)",
		Desc:  "Tolerance of the HPA's scale-down rules, like 0.2",
		Field: func(in *WhatIfInput) options.Value { return options.String(&in.ScaleDownTolerance) },
	},
	{
		Name: "behavior", Help: "File holding a spec.behavior stanza (YAML or JSON, with or without the 'behavior:' key) to use instead of the HPA's",
		Desc:  "Path of a file, on the server's machine, holding a spec.behavior stanza (YAML or JSON) to use instead of the HPA's",
		Field: func(in *WhatIfInput) options.Value { return options.String(&in.BehaviorFile) },
	},
}

// WhatIfProjectionRows project the syncs after the changes.
var WhatIfProjectionRows = options.Rows[WhatIfInput]{
	{
		Name: "for", Help: fmt.Sprintf("Project the syncs over this long (like 30m, at most %s and %d syncs), or 'auto': until the replicas settle (at most 1h)", MaxFor, whatif.DefaultMaxSteps),
		Desc:  "Project the syncs after the changes over this long (a duration like 30m, at most 7 days) or auto: until the replicas settle",
		Field: func(in *WhatIfInput) options.Value { return options.Checked(&in.For, "duration", CheckFor) },
	},
	{
		Name: "trace", Help: "In a projection, a CSV load trace (time,cpu | time,cpu/pod | ..., see docs/whatif.md); implies --for",
		Desc:  "Path of a CSV load trace on the server's machine (time,cpu | time,cpu/pod | ...) to project instead of constant load; implies for",
		Field: func(in *WhatIfInput) options.Value { return options.String(&in.TraceFile) },
	},
}

// WhatIfKEDARows change the KEDA ScaledObject that owns the HPA.
var WhatIfKEDARows = options.Rows[WhatIfInput]{
	{
		Name: "trigger", Help: "For a ScaledObject: what a trigger reads, NAME=VALUE or NAME=error[:MESSAGE] (NAME: its name, metric name or index; repeatable); --min/--max set minReplicaCount/maxReplicaCount",
		Desc:  "For a ScaledObject: what a trigger reads, each NAME=VALUE or NAME=error[:MESSAGE] (NAME: its name, metric name or index)",
		Field: func(in *WhatIfInput) options.Value { return options.Strings(&in.Triggers) },
	},
	{
		Name: "activation", Help: "For a ScaledObject: a trigger's activation threshold, NAME=VALUE (repeatable)",
		Desc:  "For a ScaledObject: a trigger's activation threshold, each NAME=VALUE",
		Field: func(in *WhatIfInput) options.Value { return options.Strings(&in.Activations) },
	},
	{
		Name: "cooldown", Help: "For a ScaledObject: its cooldownPeriod (whole seconds, like 30s)",
		Desc:  "For a ScaledObject: its cooldownPeriod, a duration in whole seconds like 30s",
		Field: func(in *WhatIfInput) options.Value { return options.Duration(&in.Cooldown, 0) },
	},
	{
		Name: "polling-interval", Help: "For a ScaledObject: its pollingInterval (whole seconds)",
		Desc:  "For a ScaledObject: its pollingInterval, a duration in whole seconds",
		Field: func(in *WhatIfInput) options.Value { return options.Duration(&in.PollingInterval, 0) },
	},
	{
		Name: "idle", Help: "For a ScaledObject: its idleReplicaCount (-1 removes it)",
		Field: func(in *WhatIfInput) options.Value { return options.Int32(&in.Idle, "0") },
	},
	{
		Name: "fallback-replicas", Help: "For a ScaledObject: fallback.replicas (adds a static fallback when it has none)",
		Field: func(in *WhatIfInput) options.Value { return options.Int32(&in.FallbackReplicas, "0") },
	},
	{
		Name: "failure-threshold", Help: "For a ScaledObject: fallback.failureThreshold",
		Field: func(in *WhatIfInput) options.Value { return options.Int32(&in.FailureThreshold, "0") },
	},
}

// PeriodRows are a past period over recorded load: whatif --since's
// backtest and tune's search (one row each, both inputs embed them).
var PeriodRows = options.Rows[PeriodInput]{
	{
		Name: "since", Help: "Start of the period over the load recorded in --prometheus: a duration ago (24h, 7d), an RFC 3339 time, or a UTC time of day (14:02); whatif backtests it, tune searches over it",
		Desc:  "Start of the period: a duration ago (24h), an RFC 3339 time, or a UTC time of day (14:02)",
		Field: func(in *PeriodInput) options.Value { return options.String(&in.Since) },
	},
	{
		Name: "until", Help: "End of the period (as --since; default: now)", Desc: "End of the period, as since; default: now",
		Field: func(in *PeriodInput) options.Value { return options.String(&in.Until) },
	},
}

// ReplayRows say how the pods a replay adds start and how the load
// spreads over them: whatif's projections and backtests, tune's
// candidates.
var ReplayRows = options.Rows[ReplayInput]{
	{
		Name: "load-model", Help: "What stays constant when a replay runs another number of pods than the real ones: constant-total (the load, shared by the ready pods; the default) or constant-per-pod",
		Desc:  "constant-total (the load shared by the ready pods; the default) or constant-per-pod",
		Enum:  []string{explain.LoadConstantTotal, explain.LoadConstantPerPod},
		Field: func(in *ReplayInput) options.Value { return options.String(&in.LoadModel) },
	},
	{
		Name: "pod-startup", Help: fmt.Sprintf("How long a pod the replay adds takes to become ready (at most %s; default: 30s in a projection, measured on the recorded pods over recorded load)", MaxPodStartup),
		Desc:  "How long a pod the replay adds takes to become ready, a duration; default 30s in a projection, measured on the recorded pods over recorded load",
		Field: func(in *ReplayInput) options.Value { return options.Duration(&in.PodStartup, 0) },
	},
	{
		Name: "sample-delay", Help: "Over recorded load, how long after its creation a pod has a metric sample (default: measured on the recorded pods)",
		Desc:  "How long after its creation a pod has a metric sample, a duration; default: measured on the recorded pods",
		Field: func(in *ReplayInput) options.Value { return options.PlainDuration(&in.SampleDelay) },
	},
}

// HistoryRows say whether a run uses the controller history watches
// recorded: explain's and whatif's.
var HistoryRows = options.Rows[HistoryInput]{
	{
		Name: "no-history", Help: "Ignore the controller history that watches recorded (explain --watch; explain --watch itself then records none)",
		Desc:  "Ignore the controller history that explain --watch recorded",
		Field: func(in *HistoryInput) options.Value { return options.Bool(&in.NoHistory) },
	},
}

// BacktestPeriodRows are a backtest's period (whatif --since, hpa_backtest).
var BacktestPeriodRows = options.Embed(PeriodRows, func(in *WhatIfInput) *PeriodInput { return &in.PeriodInput })

// BacktestRecordedRows are the recorded load of a backtest.
var BacktestRecordedRows = options.Embed(RecordedRows, func(in *WhatIfInput) *RecordedInput { return &in.Recorded })

// ReportRows write the HTML report of a tune or a backtest: one row,
// which both inputs embed. No tool takes it: an MCP tool writing files on
// the server's disk is not wanted, and the tool's result holds the figures.
var ReportRows = options.Rows[ReportInput]{
	{
		Name: "report", CLIOnly: onlyFiles,
		Help:  "Also write a self-contained HTML report to this file: charts of the load and the replicas over the period (tune's also cost against risk, and the candidates)",
		Field: func(in *ReportInput) options.Value { return options.String(&in.File) },
	},
}

// BacktestReportRows are the report of a backtest.
var BacktestReportRows = options.Embed(ReportRows, func(in *WhatIfInput) *ReportInput { return &in.Report })

// WhatIfRows are all of whatif's.
var WhatIfRows = concat(WhatIfLoadRows, WhatIfHPARows, WhatIfReplayRows, WhatIfProjectionRows, WhatIfKEDARows, BacktestPeriodRows, BacktestRecordedRows, BacktestReportRows)

// WhatIfReplayRows are whatif's ReplayRows and HistoryRows; a
// projection (hpa_whatif) takes ProjectionReplayRows of them, a
// backtest (hpa_backtest) BacktestReplayRows.
var WhatIfReplayRows = concat(BacktestReplayRows, options.Embed(HistoryRows, func(in *WhatIfInput) *HistoryInput { return &in.HistoryInput }))

// BacktestReplayRows are the replay's options a backtest takes, and
// ProjectionReplayRows those a projection takes (no recorded pods to
// measure: the load model, the pod startup and the history).
var (
	BacktestReplayRows   = options.Embed(ReplayRows, func(in *WhatIfInput) *ReplayInput { return &in.ReplayInput })
	ProjectionReplayRows = concat(BacktestReplayRows.Only("load-model", "pod-startup"),
		options.Embed(HistoryRows, func(in *WhatIfInput) *HistoryInput { return &in.HistoryInput }))
)

// TuneRows are tune's own options (hpa_tune's arguments); the recorded
// load's are RecordedRows'.
var TuneRows = concat(options.Embed(PeriodRows, func(in *TuneInput) *PeriodInput { return &in.PeriodInput }), options.Rows[TuneInput]{
	{
		Name: "vary", Help: "Dimensions to vary, comma-separated: " + tuneDimensions + " (default: all but " + tuneNotVaried + "; tolerances where the controller honours them)",
		Desc:  "Dimensions to vary: " + tuneDimensions + "; default all but " + tuneNotVaried,
		Field: func(in *TuneInput) options.Value { return options.CommaStrings(&in.Vary) },
	},
	{
		Name: "set", Help: "A dimension's values instead of the default grid, DIM=V1,V2,... (repeatable; target:N for metric N; policies as 4/15s+100%/15s, 10%/60s:min, disabled)",
		Desc:  "A dimension's values instead of the default grid, each DIM=V1,V2,... (target:N for metric N; policies as 4/15s+100%/15s, 10%/60s:min, disabled)",
		Field: func(in *TuneInput) options.Value { return options.Strings(&in.Set) },
	},
	{
		Name: "budget", Help: fmt.Sprintf("The most candidates to replay, each over the whole period (at most %d)", MaxTuneBudget),
		Field: func(in *TuneInput) options.Value { return options.Int(&in.Budget) },
	},
	{
		Name: "slo", Help: "A metric's service bound, METRIC=BOUND: a percent of the request for a utilization target (cpu=90%), else a value per pod (queue=40) (repeatable; default: 90% of the request, or 1.5 times the target)",
		Desc:  "Service bounds, each METRIC=BOUND: a percent of the request for a utilization target (cpu=90%), else a value per pod (queue=40); default 90% of the request, or 1.5 times the target",
		Field: func(in *TuneInput) options.Value { return options.Strings(&in.SLO) },
	},
	{
		Name: "max-risk", Help: "Recommend the cheapest setting whose time above the bound is at most this share of the period (like 5% or 0.05; default: the HPA's own, as replayed)",
		Desc:  "The recommendation's bound on its time above the service bound, a share of the period like 5% or 0.05; default: the HPA's own",
		Field: func(in *TuneInput) options.Value { return options.String(&in.MaxRisk) },
	},
	{
		Name: "emit", Help: "Print only the recommendation: patch (the merge patch for kubectl patch --type merge -p) or command (the kubectl patch command); without a NAME, command (one per recommendation) or patches (files under --out)",
		Enum: []string{EmitPatch, EmitCommand, EmitPatches}, CLIOnly: "shapes the command's output; the tool's result holds both",
		Field: func(in *TuneInput) options.Value { return options.String(&in.Emit) },
	},
}, options.Embed(ReplayRows, func(in *TuneInput) *ReplayInput { return &in.ReplayInput }),
	options.Embed(RecordedRows, func(in *TuneInput) *RecordedInput { return &in.Recorded }),
	options.Embed(ReportRows, func(in *TuneInput) *ReportInput { return &in.Report }), options.Rows[TuneInput]{
		{
			Name: "report-candidate", CLIOnly: onlyFiles,
			Help:  "Candidates the --report draws besides the recommendation: their indices in -o json's candidates (the report's table shows them), comma-separated",
			Field: func(in *TuneInput) options.Value { return options.CommaStrings(&in.ReportCandidates) },
		},
	})

// shardCLIOnly says why the shards' options are no argument of a tool.
const shardCLIOnly = "shards are processes (an Indexed Job's pods) whose files a merge reads: a tool call tunes in one"

// TuneManyRows select the HPAs tune tunes without a NAME, and say when
// one's recommendation stands.
var TuneManyRows = append(options.Rows[TuneInput]{
	{
		Name: "all-namespaces", Shorthand: "A", Help: "Without a NAME: tune the HPAs of every namespace, ranked by what each recommendation saves",
		Desc:  "Tune the HPAs of every namespace (kubectl's -A)",
		Field: func(in *TuneInput) options.Value { return options.Bool(&in.AllNamespaces) },
	},
	{
		Name: "selector", Shorthand: "l", Help: "Without a NAME: tune the HPAs matching this label selector",
		Desc:  "Only the HPAs matching this label selector (kubectl's -l)",
		Field: func(in *TuneInput) options.Value { return options.String(&in.Selector) },
	},
	{
		Name: "min-fidelity", Help: fmt.Sprintf("Without a NAME: the share of the period an HPA's as-is replay must hold its recorded replica count for its recommendation to stand (like 90%% or 0.9; default %.0f%%)", fleet.DefaultMinFidelity*100),
		Desc:  "The share of the period an HPA's as-is replay must hold its recorded replica count for its recommendation to stand, like 90% or 0.9",
		Field: func(in *TuneInput) options.Value { return options.String(&in.MinFidelity) },
	},
	{
		Name: "shard", Help: "Without a NAME: tune only shard INDEX/COUNT of the HPAs, a stable share by a hash of context, namespace and name; /COUNT takes INDEX from JOB_COMPLETION_INDEX (an Indexed Job's pod); --merge joins the shards' -o json",
		CLIOnly: shardCLIOnly,
		Field:   func(in *TuneInput) options.Value { return options.String(&in.Shard) },
	},
	{
		Name: "out", Help: "With --emit patches: the directory to write each recommendation's patch (CONTEXT/NAMESPACE/NAME.yaml) and a kustomize Component per context (CONTEXT/kustomization.yaml) into",
		CLIOnly: "files on the command's machine; the tool's result holds each patch",
		Field:   func(in *TuneInput) options.Value { return options.String(&in.Out) },
	},
	{
		Name: "merge", Help: "Merge the -o json|yaml documents of every shard of one run (tune -A --shard I/N) into that run's table or document, reading no cluster; - reads standard input",
		CLIOnly: shardCLIOnly,
		Field:   func(in *TuneInput) options.Value { return options.Strings(&in.Merge) },
	},
}, options.Embed(ContextsRows, func(in *TuneInput) *ContextsInput { return &in.Contexts })...)

// tuneDimensions are tune's dimensions as --vary's help lists them, and
// tuneNotVaried those it leaves out unless told: tune.Dimensions and
// tune.DefaultVary say them once.
var tuneDimensions, tuneNotVaried = func() (string, string) {
	var all, out []string
	for _, d := range tune.Dimensions {
		all = append(all, string(d))
		if !slices.Contains(tune.DefaultVary, d) {
			out = append(out, string(d))
		}
	}
	return strings.Join(all, ", "), strings.Join(out, ", ")
}()

// TuneSourceRows are the rows of SourceRows tune takes: -f and -v. Not
// --now, the instant of a replayed sync: tune replays the period from
// --since to --until, and its relative times count back from the clock.
var TuneSourceRows = SourceRows.Only("filename", "v")

// MigrateRows are migrate's flags; hpa_migrate_apply takes dry-run.
var MigrateRows = options.Rows[MigrateInput]{
	{
		Name: "apply", Help: "Carry the plan out (without it, migrate only reads and prints the plan)",
		CLIOnly: "the MCP server offers it as its own tool, hpa_migrate_apply, only with --allow-writes",
		Field:   func(in *MigrateInput) options.Value { return options.Bool(&in.Apply) },
	},
	{
		Name: "dry-run", NoOpt: "server", Help: `With "server", send every write with dryRun=All: the API server checks it and persists nothing; "client" only prints the plan`,
		Desc:          "server: the API server checks every write and persists none; none (the default) carries the plan out",
		Enum:          []string{"none", "client", "server"},
		CLIOnlyValues: map[string]string{"client": "it only prints the plan, which is hpa_migrate_plan's result"},
		Field:         func(in *MigrateInput) options.Value { return options.String(&in.DryRun) },
	},
	{
		Name: "filename", Shorthand: "f", CLIOnly: onlyFiles, Help: "Manifest files or directories to remove the field from (the diff is printed; --write saves it); - reads standard input and prints the edited manifest to standard output",
		Field: func(in *MigrateInput) options.Value { return options.CommaStrings(&in.Filenames) },
	},
	{
		Name: "recursive", Shorthand: "R", CLIOnly: onlyFiles, Help: "Walk the directories given with -f recursively",
		Field: func(in *MigrateInput) options.Value { return options.Bool(&in.Recursive) },
	},
	{
		Name: "write", CLIOnly: onlyFiles, Help: "Save the edited manifests given with -f",
		Field: func(in *MigrateInput) options.Value { return options.Bool(&in.Write) },
	},
}

// SourceRows say where the objects come from and when the sync
// happens: explain's and whatif's -f and --now, and -v for the live reads.
var SourceRows = options.Rows[SourceInput]{
	{
		Name: "filename", Shorthand: "f", CLIOnly: onlyFiles, Help: "Files, directories or - (stdin) holding the objects, in YAML or JSON",
		Field: func(in *SourceInput) options.Value { return options.CommaStrings(&in.Files) },
	},
	{
		Name: "now", CLIOnly: "a tool replays the cluster now", Help: "Instant of the replayed sync, in RFC 3339 with optional fractional seconds (default: the current time)",
		Field: func(in *SourceInput) options.Value { return options.String(&in.Now) },
	},
	{
		Name: "v", Shorthand: "v", CLIOnly: "prints to the terminal", Help: "Verbosity: 1 counts the API calls, 2 lists them (higher values act as 2)",
		Field: func(in *SourceInput) options.Value { return options.Int(&in.Verbosity) },
	},
}

func concat[T any](groups ...options.Rows[T]) options.Rows[T] {
	var out options.Rows[T]
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}
