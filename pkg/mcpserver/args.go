// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package mcpserver

import (
	"fmt"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
)

// The tools' arguments are named as kubectl's and the plugin's flags; an
// argument left out keeps the flag's default. Their input schemas are
// inferred from these types (a field without omitempty is required) and
// the jsonschema tags are their descriptions.

// connArgs say which cluster and namespace, as kubectl's flags.
type connArgs struct {
	Namespace string `json:"namespace,omitempty" jsonschema:"The namespace (kubectl's -n); default: the kubeconfig context's, or the server's -n"`
	Context   string `json:"context,omitempty" jsonschema:"The kubeconfig context to use (kubectl's --context); default: the server's --context, else the current context"`
}

// settingsArgs are the kube-controller-manager settings of a replay
// (action.SettingsInput): by default, what the cluster shows.
type settingsArgs struct {
	Tolerance               *float64 `json:"tolerance,omitempty" jsonschema:"Controller tolerance (--horizontal-pod-autoscaler-tolerance), 0 to 100; default 0.1 or the controller's"`
	CPUInitializationPeriod string   `json:"cpu-initialization-period,omitempty" jsonschema:"The controller's CPU initialization period, a duration like 5m"`
	InitialReadinessDelay   string   `json:"initial-readiness-delay,omitempty" jsonschema:"The controller's initial readiness delay, a duration like 30s"`
	DownscaleStabilization  string   `json:"downscale-stabilization,omitempty" jsonschema:"The controller's downscale stabilization window, a duration like 5m"`
	SyncPeriod              string   `json:"sync-period,omitempty" jsonschema:"The controller's sync period, a duration like 15s (it paces projections and backtests)"`
	FeatureGates            string   `json:"feature-gates,omitempty" jsonschema:"Feature gates as Name=true|false,... on top of the controller version's defaults"`
	ControllerVersion       string   `json:"controller-version,omitempty" jsonschema:"Kubernetes version of the kube-controller-manager to replay, like 1.32; default: detected from the cluster"`
}

// recordedArgs say where recorded load is (action.RecordedInput).
type recordedArgs struct {
	Prometheus         string   `json:"prometheus,omitempty" jsonschema:"Where the recorded load is: a URL (http://prometheus:9090) or NAMESPACE/SERVICE:PORT through the API server's service proxy; default: the server's --prometheus or $KUBECTL_HPA_PROMETHEUS"`
	Query              []string `json:"query,omitempty" jsonschema:"PromQL of an HPA metric that is not a container counter, each NAME=PROMQL"`
	MetricsResolution  string   `json:"metrics-resolution,omitempty" jsonschema:"Resolution of the resource metrics the controller read (metrics-server's --metric-resolution), a duration; default 15s"`
	NoKubeStateMetrics bool     `json:"no-kube-state-metrics,omitempty" jsonschema:"Find the pods by their usage series even where kube-state-metrics is recorded"`
}

// hpaChangeArgs are whatif's changes of the HPA itself, the ones a
// backtest also takes.
type hpaChangeArgs struct {
	Target             []string `json:"target,omitempty" jsonschema:"A metric's target: cpu=70% (utilization), cpu=250m (average value), NAME=VALUE"`
	Min                *int32   `json:"min,omitempty" jsonschema:"The HPA's minReplicas"`
	Max                *int32   `json:"max,omitempty" jsonschema:"The HPA's maxReplicas"`
	ScaleUpTolerance   string   `json:"scale-up-tolerance,omitempty" jsonschema:"Tolerance of the HPA's scale-up rules, like 0.05"`
	ScaleDownTolerance string   `json:"scale-down-tolerance,omitempty" jsonschema:"Tolerance of the HPA's scale-down rules, like 0.2"`
	Behavior           string   `json:"behavior,omitempty" jsonschema:"Path of a file, on the server's machine, holding a spec.behavior stanza (YAML or JSON) to use instead of the HPA's"`
	LoadModel          string   `json:"load-model,omitempty" jsonschema:"What stays constant when the pods change: constant-total (the total load, the default) or constant-per-pod"`
	PodStartup         string   `json:"pod-startup,omitempty" jsonschema:"How long a new pod takes to become ready and report samples, a duration; default 30s in a projection, measured in a backtest"`
	NoHistory          bool     `json:"no-history,omitempty" jsonschema:"Ignore the controller history that explain --watch recorded"`
}

type explainArgs struct {
	Name string `json:"name" jsonschema:"The HorizontalPodAutoscaler's name"`
	connArgs
	At string `json:"at,omitempty" jsonschema:"Explain the sync of a past instant instead (14:02 UTC today, an RFC 3339 time, or a duration ago like 2h), over the load recorded in prometheus"`
	recordedArgs
	NoHistory bool `json:"no-history,omitempty" jsonschema:"Ignore the controller history that explain --watch recorded"`
	settingsArgs
}

type explainManyArgs struct {
	connArgs
	AllNamespaces bool   `json:"all-namespaces,omitempty" jsonschema:"Explain the HPAs of every namespace (kubectl's -A)"`
	Selector      string `json:"selector,omitempty" jsonschema:"Only the HPAs matching this label selector (kubectl's -l)"`
	Limit         int    `json:"limit,omitempty" jsonschema:"The most summaries of a page (default 20, at most 100)"`
	Cursor        string `json:"cursor,omitempty" jsonschema:"The nextCursor of the page before, for the next page"`
	settingsArgs
}

type whatifArgs struct {
	Name string `json:"name" jsonschema:"The HorizontalPodAutoscaler's name, or scaledobject/NAME for the HPA of a KEDA ScaledObject"`
	connArgs
	CPU      string   `json:"cpu,omitempty" jsonschema:"CPU usage of every running pod: a quantity (200m), a relative change (+50%), a share of the request (80%), or CONTAINER=VALUE"`
	Memory   string   `json:"memory,omitempty" jsonschema:"Memory usage of every running pod, as for cpu (512Mi, -20%, 75%)"`
	Metric   []string `json:"metric,omitempty" jsonschema:"Values of Pods metrics on every running pod, each NAME=VALUE or NAME=+N%"`
	Object   []string `json:"object,omitempty" jsonschema:"Values of Object metrics, each NAME=VALUE"`
	External []string `json:"external,omitempty" jsonschema:"Values of External metrics, each NAME=VALUE (the sum of its series) or NAME{LABEL=V,...}=VALUE"`
	Replicas *int32   `json:"replicas,omitempty" jsonschema:"Run this many pods (see load-model for their usage)"`
	AllReady bool     `json:"all-ready,omitempty" jsonschema:"Make every pod of the target Running and Ready"`
	hpaChangeArgs
	For   string `json:"for,omitempty" jsonschema:"Project the syncs after the changes over this long (a duration like 30m, at most 7 days) or auto: until the replicas settle"`
	Trace string `json:"trace,omitempty" jsonschema:"Path of a CSV load trace on the server's machine (time,cpu | time,cpu/pod | ...) to project instead of constant load; implies for"`
	kedaArgs
	settingsArgs
}

// kedaArgs are whatif's changes of the KEDA ScaledObject that owns the
// HPA (min and max then set its minReplicaCount and maxReplicaCount).
type kedaArgs struct {
	Trigger          []string `json:"trigger,omitempty" jsonschema:"For a ScaledObject: what a trigger reads, each NAME=VALUE or NAME=error[:MESSAGE] (NAME: its name, metric name or index)"`
	Activation       []string `json:"activation,omitempty" jsonschema:"For a ScaledObject: a trigger's activation threshold, each NAME=VALUE"`
	Cooldown         string   `json:"cooldown,omitempty" jsonschema:"For a ScaledObject: its cooldownPeriod, a duration in whole seconds like 30s"`
	PollingInterval  string   `json:"polling-interval,omitempty" jsonschema:"For a ScaledObject: its pollingInterval, a duration in whole seconds"`
	Idle             *int32   `json:"idle,omitempty" jsonschema:"For a ScaledObject: its idleReplicaCount (-1 removes it)"`
	FallbackReplicas *int32   `json:"fallback-replicas,omitempty" jsonschema:"For a ScaledObject: fallback.replicas (adds a static fallback when it has none)"`
	FailureThreshold *int32   `json:"failure-threshold,omitempty" jsonschema:"For a ScaledObject: fallback.failureThreshold"`
}

type backtestArgs struct {
	Name string `json:"name" jsonschema:"The HorizontalPodAutoscaler's name"`
	connArgs
	Since       string `json:"since" jsonschema:"Start of the period: a duration ago (2h), an RFC 3339 time, or a UTC time of day (14:02)"`
	Until       string `json:"until,omitempty" jsonschema:"End of the period, as since; default: now"`
	SampleDelay string `json:"sample-delay,omitempty" jsonschema:"How long after its creation a pod has a metric sample, a duration; default: measured on the recorded pods"`
	hpaChangeArgs
	recordedArgs
	settingsArgs
}

type migrateArgs struct {
	Name string `json:"name" jsonschema:"The workload whose replica count to hand over, as TYPE/NAME (deployment/web, statefulset/db, widgets.example.com/w)"`
	connArgs
}

type migrateApplyArgs struct {
	migrateArgs
	DryRun string `json:"dry-run,omitempty" jsonschema:"server: the API server checks every write and persists none; none (the default) carries the plan out"`
}

// flagDuration parses a duration argument as pflag parses the flag, with
// its error.
func flagDuration(flag, v string, def time.Duration) (time.Duration, error) {
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, &action.UsageError{Err: fmt.Errorf("invalid argument %q for %q flag: %w", v, "--"+flag, err)}
	}
	return d, nil
}

// overrides checks the settings as the settings flags are checked.
func (a settingsArgs) overrides() (action.SettingsOverrides, error) {
	in := action.DefaultSettingsInput()
	in.Given = map[string]bool{}
	if a.Tolerance != nil {
		in.Tolerance, in.Given["tolerance"] = *a.Tolerance, true
	}
	for _, d := range []struct {
		flag, v string
		out     *time.Duration
	}{
		{"cpu-initialization-period", a.CPUInitializationPeriod, &in.CPUInitializationPeriod},
		{"initial-readiness-delay", a.InitialReadinessDelay, &in.InitialReadinessDelay},
		{"downscale-stabilization", a.DownscaleStabilization, &in.DownscaleStabilization},
		{"sync-period", a.SyncPeriod, &in.SyncPeriod},
	} {
		if d.v == "" {
			continue
		}
		v, err := flagDuration(d.flag, d.v, 0)
		if err != nil {
			return action.SettingsOverrides{}, err
		}
		*d.out, in.Given[d.flag] = v, true
	}
	in.FeatureGates, in.ControllerVersion = a.FeatureGates, a.ControllerVersion
	return in.Overrides()
}

// recordedInput returns the recorded-load flags of the arguments, over the
// server's defaults, and the names of those given.
func (a recordedArgs) recordedInput(defaults action.RecordedInput) (action.RecordedInput, map[string]bool, error) {
	in, given := defaults, map[string]bool{}
	if a.Prometheus != "" {
		in.Prometheus.Endpoint, given["prometheus"] = a.Prometheus, true
	}
	if len(a.Query) > 0 {
		in.Queries, given["query"] = a.Query, true
	}
	if a.MetricsResolution != "" {
		d, err := flagDuration("metrics-resolution", a.MetricsResolution, 0)
		if err != nil {
			return in, nil, err
		}
		in.MetricsResolution, given["metrics-resolution"] = d, true
	}
	if a.NoKubeStateMetrics {
		in.NoKubeStateMetrics, given["no-kube-state-metrics"] = true, true
	}
	return in, given, nil
}

// whatIfInput returns the changes of the HPA as whatif's flags, over their
// defaults.
func (a hpaChangeArgs) whatIfInput() (action.WhatIfInput, error) {
	in := action.DefaultWhatIfInput()
	in.Given = map[string]bool{}
	in.Targets = a.Target
	for _, b := range []struct {
		flag string
		v    *int32
		out  *int32
	}{{"min", a.Min, &in.Min}, {"max", a.Max, &in.Max}} {
		if b.v != nil {
			*b.out, in.Given[b.flag] = *b.v, true
		}
	}
	in.ScaleUpTolerance, in.ScaleDownTolerance, in.BehaviorFile = a.ScaleUpTolerance, a.ScaleDownTolerance, a.Behavior
	if a.LoadModel != "" {
		in.LoadModel = a.LoadModel
	}
	if a.PodStartup != "" {
		d, err := flagDuration("pod-startup", a.PodStartup, 0)
		if err != nil {
			return in, err
		}
		in.PodStartup, in.Given["pod-startup"] = d, true
	}
	return in, nil
}

// input returns whatif's flags.
func (a whatifArgs) input() (action.WhatIfInput, error) {
	in, err := a.whatIfInput()
	if err != nil {
		return in, err
	}
	in.CPU, in.Memory, in.Metrics, in.Objects, in.Externals = a.CPU, a.Memory, a.Metric, a.Object, a.External
	if a.Replicas != nil {
		in.Replicas, in.Given["replicas"] = *a.Replicas, true
	}
	in.AllReady, in.For, in.TraceFile = a.AllReady, a.For, a.Trace
	err = a.set(&in)
	return in, err
}

// set puts the ScaledObject's changes into whatif's flags.
func (a kedaArgs) set(in *action.WhatIfInput) error {
	in.Triggers, in.Activations = a.Trigger, a.Activation
	for _, b := range []struct {
		flag string
		v    *int32
		out  *int32
	}{{"idle", a.Idle, &in.Idle}, {"fallback-replicas", a.FallbackReplicas, &in.FallbackReplicas}, {"failure-threshold", a.FailureThreshold, &in.FailureThreshold}} {
		if b.v != nil {
			*b.out, in.Given[b.flag] = *b.v, true
		}
	}
	for _, d := range []struct {
		flag, v string
		out     *time.Duration
	}{{"cooldown", a.Cooldown, &in.Cooldown}, {"polling-interval", a.PollingInterval, &in.PollingInterval}} {
		if d.v == "" {
			continue
		}
		v, err := flagDuration(d.flag, d.v, 0)
		if err != nil {
			return err
		}
		*d.out, in.Given[d.flag] = v, true
	}
	return nil
}

// input returns whatif --since's flags.
func (a backtestArgs) input(recorded action.RecordedInput) (action.WhatIfInput, error) {
	in, err := a.whatIfInput()
	if err != nil {
		return in, err
	}
	in.Since, in.Until = a.Since, a.Until
	if in.SampleDelay, err = flagDuration("sample-delay", a.SampleDelay, 0); err != nil {
		return in, err
	}
	var given map[string]bool
	if in.Recorded, given, err = a.recordedInput(recorded); err != nil {
		return in, err
	}
	for k := range given {
		in.Given[k] = true
	}
	return in, nil
}
