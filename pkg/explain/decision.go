// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package explain

import (
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"
)

// APIVersion and kinds of the documents this project reads and writes.
const (
	APIVersion          = "kubectl-hpa.io/v1alpha1"
	KindExplanation     = "Explanation"
	KindControllerState = "ControllerState"
	KindAPIErrors       = "APIErrors"
	KindController      = "Controller"
)

// Provenance says where a piece of controller state came from.
type Provenance string

// Provenance values.
const (
	// Observed state was given exactly (a ControllerState document, a test).
	Observed Provenance = "observed"
	// Inferred state was rebuilt from what the API shows (events, lastScaleTime).
	Inferred Provenance = "inferred"
	// Assumed state is a stated assumption (for example a fresh controller).
	Assumed Provenance = "assumed"
)

// TimestampedRecommendation is one stored replica recommendation.
type TimestampedRecommendation struct {
	Timestamp time.Time `json:"timestamp"`
	Replicas  int32     `json:"replicas"`
}

// ScaleEvent is one stored rescale, used by the behavior rate limits.
type ScaleEvent struct {
	Timestamp     time.Time `json:"timestamp"`
	ReplicaChange int32     `json:"replicaChange"`
	Outdated      bool      `json:"outdated"`
}

// ControllerState is the controller's in-memory history for one HPA.
type ControllerState struct {
	// RecommendationsInitialized is false when the controller has no history
	// at all for this HPA (first sync after a restart or after creation).
	RecommendationsInitialized bool                        `json:"recommendationsInitialized"`
	Recommendations            []TimestampedRecommendation `json:"recommendations"`
	ScaleUpEvents              []ScaleEvent                `json:"scaleUpEvents"`
	ScaleDownEvents            []ScaleEvent                `json:"scaleDownEvents"`
	// Provenance of this state, and free-text notes on how it was obtained.
	Provenance Provenance `json:"provenance,omitempty"`
	Notes      []string   `json:"notes,omitempty"`
}

// DeepCopy returns a copy that shares no slices with s.
func (s ControllerState) DeepCopy() ControllerState {
	out := s
	out.Recommendations = append([]TimestampedRecommendation(nil), s.Recommendations...)
	out.ScaleUpEvents = append([]ScaleEvent(nil), s.ScaleUpEvents...)
	out.ScaleDownEvents = append([]ScaleEvent(nil), s.ScaleDownEvents...)
	out.Notes = append([]string(nil), s.Notes...)
	return out
}

// Decision is one replayed sync of one HPA.
type Decision struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`

	// Context is the kubeconfig context of the cluster read, in a read
	// of many contexts (absent otherwise).
	Context string     `json:"context,omitempty"`
	HPA     ObjectRef  `json:"hpa"`
	Target  TargetInfo `json:"target"`
	Now     time.Time  `json:"now"`

	Settings SettingsInfo `json:"settings"`

	// CurrentReplicas is scale.spec.replicas.
	CurrentReplicas int32 `json:"currentReplicas"`
	// DesiredReplicas is what the controller writes to status.desiredReplicas
	// this sync.
	DesiredReplicas int32 `json:"desiredReplicas"`
	// Rescale is true when the controller would update the scale.
	Rescale bool `json:"rescale"`
	// RescaleReason is the reason text of the SuccessfulRescale event.
	RescaleReason string `json:"rescaleReason,omitempty"`

	// Outcome names the path the sync took (see Outcome constants).
	Outcome Outcome `json:"outcome"`
	// DecidedBy is the step that decided the desired replicas, with its
	// operands; views put it into words.
	DecidedBy DecidedBy `json:"decidedBy"`
	// Summary is one sentence saying what decided the outcome.
	Summary string `json:"summary"`

	// Selector is the result of selector validation, when it ran.
	Selector *SelectorCheck `json:"selector,omitempty"`
	// Metrics has one entry per spec.metrics entry, in spec order.
	Metrics []MetricResult `json:"metrics"`
	// Recommendation combines the metrics (max proposal, invalid-metric rule).
	Recommendation *Recommendation `json:"recommendation,omitempty"`
	// Normalization is stabilization, rate limits and bounds.
	Normalization *Normalization `json:"normalization,omitempty"`

	// Conditions are status.conditions after this sync.
	Conditions []Condition `json:"conditions"`
	// Events are the Events the controller emits this sync, in order.
	Events []Event `json:"events"`
	// CurrentMetrics is status.currentMetrics after this sync.
	CurrentMetrics []autoscalingv2.MetricStatus `json:"currentMetrics"`
	// Status is the full status the controller computes this sync.
	Status autoscalingv2.HorizontalPodAutoscalerStatus `json:"status"`
	// StatusChanged is false when the computed status equals the one the HPA
	// already has, so the controller writes nothing.
	StatusChanged bool `json:"statusChanged"`

	// Agreement compares this replay with the status the controller last
	// wrote.
	Agreement Agreement `json:"agreement"`

	// StateBefore is the controller state the replay started from;
	// StateAfter is the state the controller keeps after this sync.
	StateBefore ControllerState `json:"stateBefore"`
	StateAfter  ControllerState `json:"stateAfter"`

	// Assumptions lists every input that was not observed.
	Assumptions []string `json:"assumptions,omitempty"`

	// KEDA is the part of KEDA's operator, for an HPA a ScaledObject owns:
	// one poll replayed at Now, and what the workload will have once KEDA
	// and then this HPA act (docs/keda.md).
	KEDA *KEDA `json:"keda,omitempty"`
}

// Outcome names the path a sync took.
type Outcome string

// Outcomes, in the order the controller checks them.
const (
	OutcomeFailedGetScale    Outcome = "FailedGetScale"
	OutcomeScalingDisabled   Outcome = "ScalingDisabled"
	OutcomeAboveMax          Outcome = "AboveMaxReplicas"
	OutcomeBelowMin          Outcome = "BelowMinReplicas"
	OutcomeInvalidSelector   Outcome = "InvalidSelector"
	OutcomeMetricsFailed     Outcome = "FailedComputeMetricsReplicas"
	OutcomeRescale           Outcome = "Rescale"
	OutcomeNoChange          Outcome = "NoChange"
	OutcomeFailedUpdateScale Outcome = "FailedUpdateScale"
)

// DecisionKind names the step that decided a sync's desired replicas.
type DecisionKind string

// The steps that can decide.
const (
	// DecidedByMetric: the winning metric's proposal.
	DecidedByMetric DecisionKind = "metric"
	// DecidedByTolerance: the winning metric is within the tolerance, so
	// the replicas stay.
	DecidedByTolerance DecisionKind = "tolerance"
	// DecidedByScaleUpStabilization and DecidedByScaleDownStabilization: a
	// stabilization window held the value.
	DecidedByScaleUpStabilization   DecisionKind = "scaleUpStabilization"
	DecidedByScaleDownStabilization DecisionKind = "scaleDownStabilization"
	// DecidedByScaleUpRateLimit and DecidedByScaleDownRateLimit: a scaling
	// policy (or the legacy scale-up limit) capped the change.
	DecidedByScaleUpRateLimit   DecisionKind = "scaleUpRateLimit"
	DecidedByScaleDownRateLimit DecisionKind = "scaleDownRateLimit"
	// DecidedByMinReplicas and DecidedByMaxReplicas: a bound.
	DecidedByMinReplicas DecisionKind = "minReplicas"
	DecidedByMaxReplicas DecisionKind = "maxReplicas"
	// DecidedByScaleFromZero: the scale-from-zero floor raised the value
	// to minReplicas.
	DecidedByScaleFromZero DecisionKind = "scaleFromZero"
	// DecidedByFailure: the sync failed (scale, selector, metrics, update).
	DecidedByFailure DecisionKind = "failure"
	// DecidedByDisabled: the target is at zero replicas and autoscaling is
	// disabled.
	DecidedByDisabled DecisionKind = "disabled"
)

// DecidedBy is the step that decided a sync's desired replicas, with the
// operands of its formula. The engine fills it; every view words it.
type DecidedBy struct {
	Kind DecisionKind `json:"kind"`
	// Reason is the controller's reason for the step: a condition reason
	// (ScaleUpLimit, TooManyReplicas, ScaleDownStabilized, ...) or, for a
	// failure, the outcome or the failing metric's reason.
	Reason string `json:"reason,omitempty"`
	// Replicas is the value the step produced (the desired replicas).
	Replicas int32 `json:"replicas"`
	// Proposal is the metrics' combined proposal before normalization,
	// when it was computed.
	Proposal *int32 `json:"proposal,omitempty"`
	// MetricIndex and Metric name the winning metric (metric, tolerance)
	// or the first failing one (failure).
	MetricIndex *int   `json:"metricIndex,omitempty"`
	Metric      string `json:"metric,omitempty"`
	// Ratio and Base are the operands of the winning metric's proposal,
	// ceil(Ratio × Base), when it scaled.
	Ratio *float64 `json:"ratio,omitempty"`
	Base  *int32   `json:"base,omitempty"`
	// Bound is the limit that capped the value (rate limit, min, max).
	Bound *int32 `json:"bound,omitempty"`
	// Policy is the selected scaling policy of a rate limit (nil for the
	// legacy scale-up limit).
	Policy *PolicyLimit `json:"policy,omitempty"`
	// WindowSeconds and HeldUntil describe a stabilization hold: its window
	// and when the recommendation holding it leaves the window.
	WindowSeconds *int32     `json:"windowSeconds,omitempty"`
	HeldUntil     *time.Time `json:"heldUntil,omitempty"`
}

// ObjectRef names a namespaced object.
type ObjectRef struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

// TargetInfo is the scale target as the controller saw it.
type TargetInfo struct {
	APIVersion     string `json:"apiVersion"`
	Kind           string `json:"kind"`
	Name           string `json:"name"`
	SpecReplicas   int32  `json:"specReplicas"`
	StatusReplicas int32  `json:"statusReplicas"`
	Selector       string `json:"selector"`
	GetError       string `json:"getError,omitempty"`
	MinReplicas    int32  `json:"minReplicas"`
	MaxReplicas    int32  `json:"maxReplicas"`
}

// SettingsInfo echoes the controller settings the replay used.
type SettingsInfo struct {
	Tolerance               float64         `json:"tolerance"`
	CPUInitializationPeriod string          `json:"cpuInitializationPeriod"`
	InitialReadinessDelay   string          `json:"initialReadinessDelay"`
	DownscaleStabilization  string          `json:"downscaleStabilization"`
	SyncPeriod              string          `json:"syncPeriod"`
	FeatureGates            map[string]bool `json:"featureGates"`
	// Source says where the settings came from.
	Source string `json:"source,omitempty"`
	// ControllerVersion is the kube-controller-manager version replayed
	// ("v1.37.2", or "v1.32" when only the minor is known), and
	// ControllerVersionSource where it came from.
	ControllerVersion       string `json:"controllerVersion"`
	ControllerVersionSource string `json:"controllerVersionSource,omitempty"`
}

// SelectorCheck is the outcome of selector validation (§4 of the spec).
type SelectorCheck struct {
	Selector string `json:"selector"`
	Valid    bool   `json:"valid"`
	// Error is the validation failure, if any.
	Error string `json:"error,omitempty"`
	// ConflictingHPAs lists other HPAs (namespace/name) whose selectors match
	// some of this HPA's pods.
	ConflictingHPAs []string `json:"conflictingHPAs,omitempty"`
	// PodsSelected counts the pods the selector matches.
	PodsSelected int `json:"podsSelected"`
	// ForeignPods lists the selected pods the target does not own, with
	// their owners: the selector also matches another workload's pods.
	ForeignPods []string `json:"foreignPods,omitempty"`
}

// Condition is one status condition after the sync.
type Condition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	// LastTransitionTime is when the status value last changed.
	LastTransitionTime time.Time `json:"lastTransitionTime"`
}

// Event is one Kubernetes Event the controller emits.
type Event struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// MetricResult is the replay of one spec.metrics entry.
type MetricResult struct {
	Index int `json:"index"`
	// Type is the metric source type (Resource, ContainerResource, Pods,
	// Object, External, or whatever the spec said).
	Type string `json:"type"`
	// Name is the controller's display name of the metric, as it appears in
	// condition and event messages.
	Name string `json:"name"`
	// Source identifies the metric in structured form.
	Source MetricSource `json:"source"`
	// Target describes the target ("80%", "500m", "100 (value)").
	TargetType        string             `json:"targetType,omitempty"`
	TargetUtilization *int32             `json:"targetUtilization,omitempty"`
	TargetValue       *resource.Quantity `json:"targetValue,omitempty"`
	// Calculation names the upstream calculator that ran.
	Calculation string `json:"calculation,omitempty"`
	// Unit says how the metric's values read: MetricUnitBytes (memory:
	// binary units), MetricUnitCores (cpu: millicores), or MetricUnitNone.
	Unit MetricUnit `json:"unit,omitempty"`

	// ProposedReplicas is this metric's replica proposal; null when invalid.
	ProposedReplicas *int32 `json:"proposedReplicas"`
	// Utilization is the average utilization percentage (null unless a
	// utilization target).
	Utilization *int32 `json:"utilization"`
	// Value is the quantity written to status (averageValue or value).
	Value *resource.Quantity `json:"value"`
	// Error is the error message when the metric is invalid.
	Error *string `json:"error"`
	// ErrorReason is the condition/event reason for the failure.
	ErrorReason string `json:"errorReason,omitempty"`

	// Used is false when a short-circuit decided the outcome and this
	// proposal did not matter.
	Used bool `json:"used"`
	// Winner is true for the metric whose proposal became the recommendation.
	Winner bool `json:"winner"`

	// Pods is the pod accounting, for metrics that look at pods.
	Pods *PodAccounting `json:"pods,omitempty"`
	// Usage is the raw (pre-fill-in) usage computation.
	Usage *Usage `json:"usage,omitempty"`
	// Tolerance is the tolerance test on the raw ratio.
	Tolerance *ToleranceCheck `json:"tolerance,omitempty"`
	// FillIn is the conservative recomputation with missing/unready pods.
	FillIn *FillIn `json:"fillIn,omitempty"`
	// Steps narrates how the proposal was reached, one sentence each.
	Steps []string `json:"steps,omitempty"`
	// Timestamp is the metric timestamp the calculator returned.
	Timestamp *time.Time `json:"timestamp,omitempty"`
}

// MetricUnit says how a metric's values read.
type MetricUnit string

// Metric units.
const (
	MetricUnitNone  MetricUnit = ""
	MetricUnitCores MetricUnit = "cores"
	MetricUnitBytes MetricUnit = "bytes"
)

// MetricSource identifies a metric: the resource (and container) for
// resource metrics, the metric name and selector otherwise, and the described
// object for Object metrics.
type MetricSource struct {
	Resource        string `json:"resource,omitempty"`
	Container       string `json:"container,omitempty"`
	MetricName      string `json:"metricName,omitempty"`
	Selector        string `json:"selector,omitempty"`
	DescribedObject string `json:"describedObject,omitempty"`
}

// PodAccounting classifies every pod a calculator looked at.
type PodAccounting struct {
	Listed      int        `json:"listed"`
	Ready       int        `json:"ready"`
	Unready     int        `json:"unready"`
	Missing     int        `json:"missing"`
	Ignored     int        `json:"ignored"`
	Superfluous int        `json:"superfluous"`
	Entries     []PodEntry `json:"entries"`
}

// Pod classes.
const (
	PodReady       = "ready"
	PodUnready     = "unready"
	PodMissing     = "missing"
	PodIgnored     = "ignored"
	PodSuperfluous = "superfluous"
)

// PodEntry is one pod (or one metric without a pod) and how it counted.
type PodEntry struct {
	Name   string `json:"name"`
	Class  string `json:"class"`
	Reason string `json:"reason,omitempty"`
	// UsageMilli is the metric sample in milli-units, when there is one.
	UsageMilli *int64 `json:"usageMilli,omitempty"`
	// RequestMilli is the request used as the utilization denominator.
	RequestMilli *int64 `json:"requestMilli,omitempty"`
	// FillInMilli is the value the fill-in gave this pod, if any.
	FillInMilli *int64 `json:"fillInMilli,omitempty"`
	// ForeignOwner is set when the selector matches this pod but the target
	// does not own it (its owner, e.g. "ReplicaSet/api-5d4 of Deployment/api").
	ForeignOwner string `json:"foreignOwner,omitempty"`
}

// Usage is the raw usage computation of a metric.
type Usage struct {
	// SumMilli and Count are the numerator sum and the number of samples.
	SumMilli int64 `json:"sumMilli"`
	Count    int   `json:"count"`
	// RequestSumMilli is the denominator for utilization targets.
	RequestSumMilli *int64 `json:"requestSumMilli,omitempty"`
	// AverageMilli is the average (or the value for Value targets).
	AverageMilli int64 `json:"averageMilli"`
	// TargetMilli is the target in milli-units (or percent).
	TargetMilli int64 `json:"targetMilli"`
	// Ratio is the usage ratio the tolerance test uses; null when it is
	// not a number, and then RatioUndefined says why.
	Ratio Ratio `json:"ratio"`
	// RatioUndefined is empty when Ratio is a number, else why it is not:
	// RatioFromZero (a per-pod ratio divided by zero replicas: scaling
	// from zero, or a scale whose status still counts none) or
	// RatioZeroTarget (a target of zero, which the API server refuses).
	RatioUndefined string `json:"ratioUndefined,omitempty"`
	// ReplicaBase is the replica count the ratio is multiplied with.
	ReplicaBase int32 `json:"replicaBase"`
	// ReplicaBaseKind says what ReplicaBase is (readyPods, specReplicas, ...).
	ReplicaBaseKind string `json:"replicaBaseKind"`
	// Replicas is ceil(Ratio × ReplicaBase) when the calculator computed
	// the proposal that way (outside the tolerance, without a fill-in, not
	// capped); nil when the proposal came another way.
	Replicas *int32 `json:"replicas,omitempty"`
}

// ToleranceCheck is one tolerance test.
type ToleranceCheck struct {
	ScaleDown float64 `json:"scaleDown"`
	ScaleUp   float64 `json:"scaleUp"`
	Lower     float64 `json:"lower"`
	Upper     float64 `json:"upper"`
	// Ratio is the ratio tested; null when it is not a number (the test
	// then fails, as the controller's does; see Usage.RatioUndefined).
	Ratio  Ratio  `json:"ratio"`
	Within bool   `json:"within"`
	Source string `json:"source"`
	// Test is the form of the test the controller version applies.
	Test ToleranceTest `json:"test"`
}

// ToleranceTest is the form of a tolerance test.
type ToleranceTest string

// Tolerance test forms.
const (
	// ToleranceInterval is 1 − scaleDown ≤ ratio ≤ 1 + scaleUp (v1.33+).
	ToleranceInterval ToleranceTest = "interval"
	// ToleranceAbsolute is |1 − ratio| ≤ tolerance (v1.32 and older); it
	// differs from the interval when 1 ± tolerance is not exact in float64.
	ToleranceAbsolute ToleranceTest = "absolute"
)

// FillIn is the conservative recomputation of §7.2 step 8.
type FillIn struct {
	// Why the fill-in ran.
	Reason string `json:"reason"`
	// MissingFilledWith says what missing pods counted as ("0", "request",
	// "target", "absent").
	MissingFilledWith string `json:"missingFilledWith"`
	// UnreadyFilledAsZero is true when unready pods counted as 0.
	UnreadyFilledAsZero bool `json:"unreadyFilledAsZero"`
	// NewUtilization is the recomputed utilization (utilization targets).
	NewUtilization *int32 `json:"newUtilization,omitempty"`
	// NewAverageMilli is the recomputed average (value targets).
	NewAverageMilli *int64 `json:"newAverageMilli,omitempty"`
	NewRatio        Ratio  `json:"newRatio"`
	Within          bool   `json:"within"`
	DirectionFlip   bool   `json:"directionFlip"`
	Samples         int    `json:"samples"`
	NewReplicas     *int32 `json:"newReplicas,omitempty"`
	// WrongWay is true when the new replica count moved against the ratio.
	WrongWay bool `json:"wrongWay"`
	// Result is the proposal after the fill-in.
	Result int32 `json:"result"`
}

// Recommendation is the combination of the metric proposals (§8).
type Recommendation struct {
	// Replicas is the largest valid proposal (-1 when the computation failed).
	Replicas int32 `json:"replicas"`
	// BestValid is the largest valid proposal even when the sync fails
	// (null when no metric is valid).
	BestValid     *int32 `json:"bestValid"`
	WinningMetric string `json:"winningMetric,omitempty"`
	WinningIndex  int    `json:"winningIndex"`
	Invalid       int    `json:"invalid"`
	Total         int    `json:"total"`
	// Error is the combined error ("invalid metrics (k invalid out of n) ...").
	Error string `json:"error,omitempty"`
	// Failed is true when the sync fails (all invalid, or a scale-down with an
	// invalid metric).
	Failed bool `json:"failed"`
	// FailureRule explains why it failed.
	FailureRule string `json:"failureRule,omitempty"`
}

// Normalization is what happens between the recommendation and the final
// desired replicas.
type Normalization struct {
	// Path is "legacy" (behavior nil) or "behavior".
	Path  string `json:"path"`
	Input int32  `json:"input"`

	Stabilization Stabilization `json:"stabilization"`
	// Limits is the rate-limit and min/max step.
	Limits Limits `json:"limits"`

	// ScaleFromZeroFloor is set when the scale-from-zero floor raised the
	// result to minReplicas.
	ScaleFromZeroFloor bool  `json:"scaleFromZeroFloor,omitempty"`
	Result             int32 `json:"result"`
}

// Stabilization is the stabilization window step.
type Stabilization struct {
	// Windows (seconds). Legacy uses only DownWindowSeconds.
	UpWindowSeconds   int32  `json:"upWindowSeconds"`
	DownWindowSeconds int32  `json:"downWindowSeconds"`
	DownWindowSource  string `json:"downWindowSource,omitempty"`
	// Considered lists the stored recommendations and whether each was in a
	// window.
	Considered []ConsideredRecommendation `json:"considered"`
	// UpRecommendation is the lowest recommendation in the up window
	// (behavior path), DownRecommendation the highest in the down window.
	UpRecommendation   *int32 `json:"upRecommendation,omitempty"`
	DownRecommendation int32  `json:"downRecommendation"`
	Result             int32  `json:"result"`
	Reason             string `json:"reason"`
	// HeldUntil is when the recommendation holding the result leaves its
	// window (if stabilization changed the value).
	HeldUntil *time.Time `json:"heldUntil,omitempty"`
}

// ConsideredRecommendation is one stored recommendation and its role.
type ConsideredRecommendation struct {
	Timestamp time.Time `json:"timestamp"`
	Replicas  int32     `json:"replicas"`
	InUp      bool      `json:"inUpWindow"`
	InDown    bool      `json:"inDownWindow"`
	// Seeded is true for the entry a fresh controller inserts.
	Seeded bool `json:"seeded,omitempty"`
}

// Limits is the rate-limit and bounds step.
type Limits struct {
	Direction string `json:"direction"` // up, down, none
	// SelectPolicy and Policies (behavior path).
	SelectPolicy string        `json:"selectPolicy,omitempty"`
	Policies     []PolicyLimit `json:"policies,omitempty"`
	// RateLimit is the limit the policies (or the legacy factor) allow.
	RateLimit *int32 `json:"rateLimit,omitempty"`
	// Bound is the effective bound after comparing with min/max.
	Bound  *int32 `json:"bound,omitempty"`
	Min    int32  `json:"min"`
	Max    int32  `json:"max"`
	Result int32  `json:"result"`
	Reason string `json:"reason"`
	// Limited is true when the bound changed the value.
	Limited bool `json:"limited"`
}

// PolicyLimit is one scaling policy evaluated.
type PolicyLimit struct {
	Type          string `json:"type"`
	Value         int32  `json:"value"`
	PeriodSeconds int32  `json:"periodSeconds"`
	// ChangedInPeriod sums the replica changes in the period (up - down).
	AddedInPeriod   int32 `json:"addedInPeriod"`
	RemovedInPeriod int32 `json:"removedInPeriod"`
	PeriodStart     int32 `json:"periodStart"`
	Limit           int32 `json:"limit"`
	Selected        bool  `json:"selected"`
}

// Agreement compares the replayed status with the status the HPA carries,
// which the controller wrote at its last sync.
type Agreement struct {
	// Checked is false when the HPA carries no status from the controller
	// yet, or when the replay is of a past sync (explain --at), whose status
	// is not recorded; NotChecked then says why, when it is not the first.
	Checked    bool   `json:"checked"`
	NotChecked string `json:"notChecked,omitempty"`
	// Agrees is true when desired replicas, conditions (type, status,
	// reason) and current metrics are the same.
	Agrees      bool         `json:"agrees"`
	Differences []Difference `json:"differences,omitempty"`
	// Sync says when the HPA last showed a sync by the controller, and
	// whether its status looks stale: the controller not syncing it. It is
	// left out when the agreement is not checked, and when the HPA does not
	// say when the controller last wrote its status (no managedFields entry
	// of those writes: objects saved without them, explain -A and --watch,
	// which drop them).
	Sync *SyncCheck `json:"sync,omitempty"`
}

// SyncSign names what showed the controller's latest sync of an HPA.
type SyncSign string

// The signs of a sync, each written by the controller while it synced.
const (
	// SyncSignStatusWrite: the controller's last write of the HPA's status
	// (its managedFields entry).
	SyncSignStatusWrite SyncSign = "statusWrite"
	// SyncSignCondition: a condition's lastTransitionTime.
	SyncSignCondition SyncSign = "conditionTransition"
	// SyncSignLastScale: status.lastScaleTime, the controller's last rescale.
	SyncSignLastScale SyncSign = "lastScaleTime"
	// SyncSignEvent: the newest event the controller recorded about the HPA.
	SyncSignEvent SyncSign = "event"
)

// SyncCheck is what the HPA and its events show of the controller's latest
// sync of it, and the verdict on its status.
type SyncCheck struct {
	// StatusWritten is when the controller last wrote the HPA's status: the
	// time of its managedFields entry, in whole seconds. The controller
	// writes the status only when it changes, so an old write alone does
	// not mean that it stopped.
	StatusWritten time.Time `json:"statusWritten"`
	// LastSeen is the newest sign of a sync (StatusWritten, a condition's
	// lastTransitionTime, status.lastScaleTime, the newest event the
	// controller recorded about the HPA), and LastSeenFrom names it.
	LastSeen     time.Time `json:"lastSeen"`
	LastSeenFrom SyncSign  `json:"lastSeenFrom"`
	// AgeSeconds is how long before now LastSeen is, in whole seconds.
	AgeSeconds int64 `json:"ageSeconds"`
	// Periods is that age in whole sync periods.
	Periods int64 `json:"periods"`
	// SyncPeriod is the controller's sync period counted in (a Go
	// duration); SyncPeriodAssumed says that it is kube-controller-manager's
	// default taken on trust, neither read from the controller nor given.
	SyncPeriod        string `json:"syncPeriod"`
	SyncPeriodAssumed bool   `json:"syncPeriodAssumed,omitempty"`
	// StaleAfterSeconds is how old the newest sign must be for a status
	// that differs to be called stale: three sync periods, at least 30 s,
	// at least the metric samples' window and two periods (a status one
	// scrape and one sync behind), and at least 2 minutes when the sync
	// period is assumed.
	StaleAfterSeconds int64 `json:"staleAfterSeconds"`
	// Stale is true when the controller does not seem to be syncing the
	// HPA: its status differs from the replay in what the controller writes
	// at every sync from what both read (the current metrics, with every
	// metric read; the current replicas, with the scale read; the observed
	// generation), and nothing shows a sync for StaleAfterSeconds. A status
	// whose metrics were steady for that long and changed within the last
	// sync period reads the same for that period (docs/troubleshooting.md).
	Stale bool `json:"stale"`
}

// Difference is one field where the replay and the controller's status differ.
type Difference struct {
	Field      string `json:"field"`
	Controller string `json:"controller"`
	Replay     string `json:"replay"`
	// LikelyCause is our best guess at why.
	LikelyCause string `json:"likelyCause,omitempty"`
}
