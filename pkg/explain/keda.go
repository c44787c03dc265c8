// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

import (
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
)

// KindKEDA is the kind of a document that holds only the KEDA part.
const KindKEDA = "KEDAExplanation"

// KEDAExplanation is the document explain prints for a ScaledObject
// whose HPA there is nothing to replay of: KEDA deleted it (the object is
// paused) or never wrote it (its controller rejects the object). Every
// other explanation of a ScaledObject is an Explanation of its HPA, with
// the same KEDA part in its keda block.
type KEDAExplanation struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// KEDA is the poll replayed; its replicas are what the workload keeps.
	KEDA *KEDA `json:"keda"`
}

// KEDAReason is the one stable word that says what decided KEDA's part of
// the replicas at one poll of its operator.
type KEDAReason string

// KEDA reasons, from the strongest to the weakest (the first that applies
// names the poll).
const (
	// KEDAReasonPaused: the paused or paused-replicas annotation stops KEDA
	// (its HPA is deleted), or paused-scale-in/out blocks the step KEDA would
	// take at this poll.
	KEDAReasonPaused KEDAReason = "Paused"
	// KEDAReasonError: KEDA cannot decide (its controller rejects the
	// object, a scaler cannot be built, the activation target does not
	// parse), or a trigger fails and no fallback value replaces it.
	KEDAReasonError KEDAReason = "Error"
	// KEDAReasonFallback: at least one metric failed more than
	// fallback.failureThreshold times: KEDA answers a made-up value so that
	// the HPA computes fallback.replicas, and counts the trigger as active.
	KEDAReasonFallback KEDAReason = "Fallback"
	// KEDAReasonCooldown: the triggers are inactive and KEDA would scale to
	// zero (or idle), but the cooldown has not run out.
	KEDAReasonCooldown KEDAReason = "Cooldown"
	// KEDAReasonActive: at least one trigger is active (or activation is
	// forced): KEDA keeps the workload out of zero and the HPA decides.
	KEDAReasonActive KEDAReason = "Active"
	// KEDAReasonInactive: no trigger is active: KEDA scaled to zero (or
	// idle) at this poll, or the workload is already there, or
	// minReplicaCount ≥ 1 leaves the replicas to the HPA.
	KEDAReasonInactive KEDAReason = "Inactive"
)

// KEDA is the KEDA part of an explanation: one poll of KEDA's operator for
// one ScaledObject at Now, replayed from the object, the workload's current
// replicas and its triggers' values. Its json tags are part of the -o
// json|yaml contract.
type KEDA struct {
	// KEDAVersion is the KEDA release whose rules were replayed ("v2.21.0",
	// or "v2.21" when only the minor is known).
	KEDAVersion string `json:"kedaVersion"`
	// KEDAVersionSource says where the release came from (--keda-version,
	// KEDA's operator, the HPA's labels, a snapshot, or assumed).
	KEDAVersionSource string `json:"kedaVersionSource,omitempty"`
	// ScaledObject names the object; Generation is its metadata.generation.
	ScaledObject ObjectRef `json:"scaledObject"`
	Generation   int64     `json:"generation,omitempty"`
	// Target is spec.scaleTargetRef with KEDA's defaults (apps/v1
	// Deployment).
	Target KEDATarget `json:"target"`
	// HPAName is the HPA KEDA owns for this object (keda-hpa-NAME unless
	// advanced.horizontalPodAutoscalerConfig.name); empty when the object is
	// paused, because KEDA then deletes it.
	HPAName string `json:"hpaName,omitempty"`
	// Now is the instant of the poll replayed.
	Now time.Time `json:"now"`

	// Active is KEDA's activation decision at this poll: any trigger active,
	// the formula above activationTarget, cpu/memory-only triggers, or the
	// force-activation annotation.
	Active bool `json:"active"`
	// Reason is the stable word for what decided this poll.
	Reason KEDAReason `json:"reason"`
	// Summary is one sentence saying what KEDA does at this poll.
	Summary string `json:"summary"`

	// CurrentReplicas is the workload's spec.replicas before the poll.
	CurrentReplicas int32 `json:"currentReplicas"`
	// KEDAScaleTo is the replica count KEDA itself writes to the workload at
	// this poll (a jump, past the HPA's behavior); absent when KEDA writes
	// nothing and leaves the replicas to the HPA.
	KEDAScaleTo *int32 `json:"kedaScaleTo,omitempty"`
	// ReplicasAfterKEDA is spec.replicas once KEDA has acted: KEDAScaleTo
	// when it writes, the paused count when paused-replicas applies, else
	// CurrentReplicas.
	ReplicasAfterKEDA int32 `json:"replicasAfterKEDA"`
	// HPAActs is false when KEDA's HPA does not act on the workload: the
	// object is paused (KEDA deleted its HPA). The HPA's own rules decide
	// whether it acts at zero replicas.
	HPAActs bool `json:"hpaActs"`
	// Replicas is what the workload will have once KEDA and then the HPA
	// act on the current inputs: when HPAActs, the HPA's desired replicas
	// computed from ReplicasAfterKEDA if its next sync rescales (a sync that
	// cannot compute a count, or does not act at zero, leaves
	// ReplicasAfterKEDA), else ReplicasAfterKEDA. Absent until
	// the caller combines KEDA's part with an HPA replay (keda.Combine).
	Replicas *int32 `json:"replicas,omitempty"`

	// LastActiveTime is status.lastActiveTime before the poll;
	// LastActiveTimeAfter is the value KEDA leaves (Now when it refreshed
	// it at this poll).
	LastActiveTime      *time.Time `json:"lastActiveTime,omitempty"`
	LastActiveTimeAfter *time.Time `json:"lastActiveTimeAfter,omitempty"`
	// ScaleToZeroAt is set while a cooldown runs: KEDA scales to zero (or
	// idle) at its first poll strictly after this instant, provided the
	// triggers stay inactive. ScaleToZeroBy adds one pollingInterval: the
	// latest such poll.
	ScaleToZeroAt *time.Time `json:"scaleToZeroAt,omitempty"`
	ScaleToZeroBy *time.Time `json:"scaleToZeroBy,omitempty"`

	// Polling is how often KEDA polls and whether it matters.
	Polling KEDAPolling `json:"polling"`
	// Cooldown is the cooldown that governs the step to zero (or idle).
	Cooldown KEDACooldown `json:"cooldown"`
	// Bounds are the replica counts of the object and of the HPA KEDA
	// writes.
	Bounds KEDABounds `json:"bounds"`

	// Triggers has one entry per spec.triggers entry, in spec order.
	Triggers []KEDATrigger `json:"triggers"`
	// ScalingModifiers is the composite formula, when the object uses one.
	ScalingModifiers *KEDAScalingModifiers `json:"scalingModifiers,omitempty"`
	// Fallback is the fallback state, when spec.fallback is set.
	Fallback *KEDAFallback `json:"fallback,omitempty"`
	// Pause is what the pause and force-activation annotations say.
	Pause KEDAPause `json:"pause"`
	// HPAMetrics are the External metric values KEDA's metrics server
	// answers when the HPA asks next (raw values rounded to milli-units, a
	// fallback value, or an error): the inputs of the HPA's replay.
	HPAMetrics []KEDAMetricValue `json:"hpaMetrics,omitempty"`

	// ExternalMetricsServer is who serves v1beta1.external.metrics.k8s.io,
	// when a live read could tell: while another adapter serves it, the HPA
	// never reads hpaMetrics (its External metrics are usually <unknown>),
	// and the HPA's part of Replicas is replayed from what it does read.
	ExternalMetricsServer *KEDAMetricsServer `json:"externalMetricsServer,omitempty"`

	// Conditions are the ScaledObject conditions KEDA writes at this poll
	// (Ready, Active, Fallback, Paused, and HPAActive when the HPA is known),
	// in that order.
	Conditions []KEDACondition `json:"conditions"`
	// Events are the Events KEDA's operator emits at this poll, in order
	// (KEDAScaleTargetActivated, KEDAScaleTargetDeactivated, their Failed
	// forms, ScaledObjectFallbackActivated/Deactivated).
	Events []Event `json:"events,omitempty"`
	// Steps narrate the poll in order, each with its numbers.
	Steps []KEDAStep `json:"steps"`
	// Assumptions lists every input that was not observed.
	Assumptions []string `json:"assumptions,omitempty"`
}

// KEDATarget is the workload a ScaledObject scales.
type KEDATarget struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
}

// KEDAPolling is spec.pollingInterval and what it governs.
type KEDAPolling struct {
	// IntervalSeconds is spec.pollingInterval (default 30).
	IntervalSeconds int32 `json:"intervalSeconds"`
	// Relevant is false when KEDA's own loop cannot move the workload
	// (minReplicaCount ≥ 1, no idleReplicaCount, no useCachedMetrics): the
	// HPA then does all the scaling and the interval changes nothing.
	Relevant bool `json:"relevant"`
	// Source says where this poll's trigger values come from: "poll" (KEDA
	// queries each trigger) or "hpaObservation" (v2.21+: when polling is not
	// relevant and the HPA's ScalingActive is True, KEDA reuses what the HPA's
	// last metric request observed).
	Source string `json:"source"`
}

// Observation sources of a poll.
const (
	KEDASourcePoll           = "poll"
	KEDASourceHPAObservation = "hpaObservation"
)

// KEDACooldown is the cooldown of the step to zero (or idle). It never
// applies above that: the HPA's behavior governs every other scale-in.
type KEDACooldown struct {
	// PeriodSeconds is spec.cooldownPeriod (default 300), counted from
	// status.lastActiveTime.
	PeriodSeconds int32 `json:"periodSeconds"`
	// InitialPeriodSeconds is spec.initialCooldownPeriod (default 0),
	// counted from metadata.creationTimestamp while the object was never
	// active (no lastActiveTime).
	InitialPeriodSeconds int32 `json:"initialPeriodSeconds"`
	// CountsFrom is "lastActiveTime" or "creationTimestamp": which of the
	// two periods applies now; Since is that instant and Until = Since +
	// the period.
	CountsFrom string     `json:"countsFrom"`
	Since      *time.Time `json:"since,omitempty"`
	Until      *time.Time `json:"until,omitempty"`
	// Applies is true when this poll reached the step to zero (or idle),
	// the only step a cooldown governs; Running is true when it held that
	// step (Now is not strictly after Until).
	Applies bool `json:"applies"`
	Running bool `json:"running"`
}

// Cooldown origins.
const (
	KEDACooldownFromLastActive = "lastActiveTime"
	KEDACooldownFromCreation   = "creationTimestamp"
)

// KEDABounds are the replica counts of a ScaledObject and of its HPA.
type KEDABounds struct {
	// MinReplicaCount is spec.minReplicaCount (default 0).
	MinReplicaCount int32 `json:"minReplicaCount"`
	// MaxReplicaCount is spec.maxReplicaCount (default 100).
	MaxReplicaCount int32 `json:"maxReplicaCount"`
	// IdleReplicaCount is spec.idleReplicaCount (absent: no idle mode).
	IdleReplicaCount *int32 `json:"idleReplicaCount,omitempty"`
	// HPAMinReplicas is the HPA's minReplicas: minReplicaCount, or 1 when
	// that is 0. HPAMaxReplicas is the HPA's maxReplicas.
	HPAMinReplicas int32 `json:"hpaMinReplicas"`
	HPAMaxReplicas int32 `json:"hpaMaxReplicas"`
	// ActivationReplicas is what KEDA scales to from zero (or idle):
	// minReplicaCount, or 1 when that is 0. DeactivationReplicas is what it
	// scales to after the cooldown: idleReplicaCount when set, else
	// minReplicaCount.
	ActivationReplicas   int32 `json:"activationReplicas"`
	DeactivationReplicas int32 `json:"deactivationReplicas"`
}

// KEDATrigger is one spec.triggers entry at this poll.
type KEDATrigger struct {
	Index int `json:"index"`
	// Name is the trigger's name (the formula's variable); Type its scaler.
	Name string `json:"name,omitempty"`
	Type string `json:"type"`
	// Replayed is true for the scalers whose parameters kubectl-hpa parses
	// (metrics-api, kubernetes-workload, kubernetes-resource, cron, cpu,
	// memory); for the others the metric name comes from
	// status.externalMetricNames and the activity from the given result or
	// status.triggersActivity.
	Replayed bool `json:"replayed"`
	// MetricName is the External metric KEDA's HPA reads for this trigger
	// (s<index>-…); empty for cpu and memory, which become Resource or
	// ContainerResource metrics of the HPA.
	MetricName string `json:"metricName,omitempty"`
	// MetricType is the HPA target type (AverageValue, Value, Utilization);
	// Target the target quantity, TargetUtilization the percentage.
	MetricType        string             `json:"metricType,omitempty"`
	Target            *resource.Quantity `json:"target,omitempty"`
	TargetUtilization *int32             `json:"targetUtilization,omitempty"`

	// Value is the raw value the scaler read (metrics-api: the number at
	// valueLocation; kubernetes-workload: the matching pods; cron:
	// desiredReplicas inside the window, else 0).
	Value *float64 `json:"value,omitempty"`
	// ActivationParameter names the metadata parameter of the threshold
	// (activationTargetValue, activationValue); ActivationThreshold is its
	// value. The trigger is active when Value > ActivationThreshold (strict).
	ActivationParameter string   `json:"activationParameter,omitempty"`
	ActivationThreshold *float64 `json:"activationThreshold,omitempty"`
	// Active is the trigger's activity as KEDA counts it at this poll (a
	// fallback counts as active; cpu and memory never count).
	Active bool `json:"active"`
	// ActivitySource says how Active was decided: "threshold", "schedule"
	// (cron), "resource" (cpu/memory: never counted), "fallback", "given"
	// (the caller's result for a scaler not replayed), "status"
	// (status.triggersActivity, when nothing was given), "error".
	ActivitySource string `json:"activitySource"`
	// Error is the scaler's error (query or parameters); a trigger in error
	// is never active.
	Error string `json:"error,omitempty"`
	// Schedule is the cron window, for cron triggers.
	Schedule *KEDACronWindow `json:"schedule,omitempty"`
}

// Activity sources of a trigger.
const (
	KEDAActivityThreshold = "threshold"
	KEDAActivitySchedule  = "schedule"
	KEDAActivityResource  = "resource"
	KEDAActivityFallback  = "fallback"
	KEDAActivityGiven     = "given"
	KEDAActivityStatus    = "status"
	KEDAActivityError     = "error"
)

// KEDACronWindow is a cron trigger's window as KEDA computes it: active
// when the next end comes no later than the next start (both strictly
// after Now, in Timezone), that is inside [start, end).
type KEDACronWindow struct {
	Start           string    `json:"start"`
	End             string    `json:"end"`
	Timezone        string    `json:"timezone"`
	DesiredReplicas int64     `json:"desiredReplicas"`
	NextStart       time.Time `json:"nextStart"`
	NextEnd         time.Time `json:"nextEnd"`
}

// KEDAScalingModifiers is advanced.scalingModifiers at this poll.
type KEDAScalingModifiers struct {
	// Formula is the expression as written; Evaluated the expression KEDA
	// compiles (wrapped in float(…)).
	Formula   string `json:"formula"`
	Evaluated string `json:"evaluated,omitempty"`
	// Target and ActivationTarget are the strings of the spec; MetricType
	// the composite metric's target type (default AverageValue).
	Target           string `json:"target"`
	ActivationTarget string `json:"activationTarget,omitempty"`
	MetricType       string `json:"metricType"`
	// Inputs are the formula's variables: trigger name → value (null when
	// a scalingModifiers fallback turned a failing trigger into nil).
	Inputs map[string]*float64 `json:"inputs,omitempty"`
	// Value is the composite-metric value (milli-units, as KEDA stores it);
	// absent when the formula failed.
	Value *float64 `json:"value,omitempty"`
	// Active is Value > ActivationTarget (default 0).
	Active bool `json:"active"`
	// Error is the formula's compile or run error.
	Error string `json:"error,omitempty"`
}

// KEDAFallback is spec.fallback and the failure counts behind it.
type KEDAFallback struct {
	FailureThreshold int32  `json:"failureThreshold"`
	Replicas         int32  `json:"replicas"`
	Behavior         string `json:"behavior"`
	// Valid is false when KEDA ignores the fallback (a negative count, or a
	// scalingModifiers target that is not a positive integer).
	Valid bool `json:"valid"`
	// Active is true when at least one metric is past the threshold.
	Active bool `json:"active"`
	// Metrics are the failure counts per External metric (status.health):
	// before this poll and after it.
	Metrics []KEDAMetricHealth `json:"metrics,omitempty"`
}

// KEDAMetricHealth is one status.health entry.
type KEDAMetricHealth struct {
	MetricName     string `json:"metricName"`
	FailuresBefore int32  `json:"failuresBefore"`
	FailuresAfter  int32  `json:"failuresAfter"`
	// Status is Happy or Failing after the poll.
	Status string `json:"status"`
	// FallbackActive: FailuresAfter > failureThreshold.
	FallbackActive bool `json:"fallbackActive"`
}

// KEDAPause is what the pause annotations say, parsed as KEDA parses them.
type KEDAPause struct {
	// Paused: autoscaling.keda.sh/paused is true (any value that is not a
	// boolean counts as true) or paused-replicas is present (any value).
	Paused bool `json:"paused"`
	// PausedReplicas is the paused-replicas count KEDA sets the workload to;
	// PausedReplicasError is set when the value is not an int32 (KEDA then
	// stays paused without scaling and reports the error).
	PausedReplicas      *int32 `json:"pausedReplicas,omitempty"`
	PausedReplicasError string `json:"pausedReplicasError,omitempty"`
	// ScaleIn and ScaleOut are paused-scale-in and paused-scale-out: the
	// HPA's scaleDown/scaleUp selectPolicy becomes Disabled and KEDA skips
	// its own step to zero (scale-in) or from zero (scale-out).
	ScaleIn  bool `json:"scaleIn"`
	ScaleOut bool `json:"scaleOut"`
	// ForceActivation is autoscaling.keda.sh/force-activation.
	ForceActivation bool `json:"forceActivation"`
	// Annotations are the raw values of the annotations above that are set.
	Annotations map[string]string `json:"annotations,omitempty"`
}

// KEDAMetricValue is what KEDA's metrics server answers for one External
// metric of its HPA.
type KEDAMetricValue struct {
	MetricName string `json:"metricName"`
	// Value is the answer (absent on error).
	Value *resource.Quantity `json:"value,omitempty"`
	// Fallback is true when Value is a fallback value (target ×
	// replicas, divided by the ready pods for Value targets).
	Fallback bool `json:"fallback"`
	// Error is the error the HPA gets instead of a value.
	Error string `json:"error,omitempty"`
}

// KEDAMetricsServer is the APIService v1beta1.external.metrics.k8s.io as
// read from the cluster.
type KEDAMetricsServer struct {
	// Missing is true when the APIService does not exist: no server
	// serves External metrics, KEDA's included.
	Missing bool `json:"missing,omitempty"`
	// Service is NAMESPACE/NAME of the Service behind the APIService, empty
	// when the API server serves the group itself (no Service).
	Service string `json:"service,omitempty"`
	// KEDA is true when that Service is KEDA's metrics server (its
	// namespace or name contains "keda", as KEDA's manifests and chart
	// name it: keda/keda-operator-metrics-apiserver).
	KEDA bool `json:"keda"`
	// Available is the APIService's Available condition ("True", "False",
	// "Unknown"; empty when it has none).
	Available string `json:"available,omitempty"`
}

// KEDACondition is one ScaledObject condition KEDA writes.
type KEDACondition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// KEDAStepKind names one kind of step of a KEDA poll.
type KEDAStepKind string

// Step kinds.
const (
	// KEDAStepConfig: a check of the object by KEDA's controller or webhook.
	KEDAStepConfig KEDAStepKind = "config"
	// KEDAStepPause: a pause annotation.
	KEDAStepPause KEDAStepKind = "pause"
	// KEDAStepTrigger: one trigger's value against its threshold.
	KEDAStepTrigger KEDAStepKind = "trigger"
	// KEDAStepFallback: a failure count against the threshold.
	KEDAStepFallback KEDAStepKind = "fallback"
	// KEDAStepFormula: the scalingModifiers formula and its activation.
	KEDAStepFormula KEDAStepKind = "formula"
	// KEDAStepActivation: the object's activation decision.
	KEDAStepActivation KEDAStepKind = "activation"
	// KEDAStepScaleFromZero: the jump from zero (or idle) to
	// minReplicaCount, or 1.
	KEDAStepScaleFromZero KEDAStepKind = "scaleFromZero"
	// KEDAStepCooldown: the cooldown before the step to zero.
	KEDAStepCooldown KEDAStepKind = "cooldown"
	// KEDAStepScaleToZero: the jump to zero (or idle) after the cooldown.
	KEDAStepScaleToZero KEDAStepKind = "scaleToZero"
	// KEDAStepMinReplicas: inactive below minReplicaCount without idle
	// mode: KEDA sets minReplicaCount at once.
	KEDAStepMinReplicas KEDAStepKind = "minReplicas"
	// KEDAStepLastActive: status.lastActiveTime refreshed (or not).
	KEDAStepLastActive KEDAStepKind = "lastActiveTime"
	// KEDAStepHPA: KEDA leaves the replicas to the HPA.
	KEDAStepHPA KEDAStepKind = "hpa"
	// KEDAStepError: a trigger error and what KEDA does about it.
	KEDAStepError KEDAStepKind = "error"
)

// KEDAStep is one step of a KEDA poll, with its operands. Text words it in
// one line; views may word the operands themselves.
type KEDAStep struct {
	Kind KEDAStepKind `json:"kind"`
	// Trigger is the trigger's index, Metric its External metric name (or
	// composite-metric), when the step is about one.
	Trigger *int   `json:"trigger,omitempty"`
	Metric  string `json:"metric,omitempty"`
	// Value, Operator and Threshold are a comparison: Value Operator
	// Threshold (">" or "≤" for activation, strict as KEDA's).
	Value     *float64 `json:"value,omitempty"`
	Operator  string   `json:"operator,omitempty"`
	Threshold *float64 `json:"threshold,omitempty"`
	// From and To are replica counts of a step that writes them.
	From *int32 `json:"from,omitempty"`
	To   *int32 `json:"to,omitempty"`
	// At is the instant the step is about (end of a cooldown, a refreshed
	// lastActiveTime).
	At *time.Time `json:"at,omitempty"`
	// Seconds is the period of the step (cooldown, pollingInterval).
	Seconds *int32 `json:"seconds,omitempty"`
	// Text is the step in one line with its numbers.
	Text string `json:"text"`
}
