// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"maps"
	"slices"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// Snapshot is everything the HPA controller reads during one sync of one HPA,
// plus the in-memory state it keeps between syncs. The engine never reads
// anything else: no clock, no cluster, no files.
type Snapshot struct {
	// HPA is the autoscaler as the API serves it, with API defaulting applied
	// (objects read from files go through DefaultHPA).
	HPA *autoscalingv2.HorizontalPodAutoscaler

	// Target is what the scale subresource of spec.scaleTargetRef returned.
	Target Target

	// Pods are the pods listed for the target's selector in the HPA's
	// namespace. Pods whose labels do not match the selector are filtered out
	// by the engine, as the pod lister would.
	Pods []corev1.Pod

	// PodMetrics is what metrics.k8s.io returned. Items whose labels do not
	// match the target's selector are filtered out, as the API would.
	PodMetrics []metricsv1beta1.PodMetrics

	// CustomMetrics is the pool of custom.metrics.k8s.io values. For a Pods
	// metric the engine takes every item with the metric's name that
	// describes a Pod; for an Object metric, the items with the metric's
	// name that describe the metric's object.
	CustomMetrics []custommetricsv1beta2.MetricValue

	// ExternalMetrics is the pool of external.metrics.k8s.io values. An item
	// is returned for a metric when its name matches and its labels match the
	// metric's selector (a nil selector matches everything, because on the
	// wire it is indistinguishable from an empty one).
	ExternalMetrics []externalmetricsv1beta1.ExternalMetricValue

	// APIErrors holds the error a metrics API call returned instead of data.
	// Keys: "resource", "pods:<metric>", "object:<metric>",
	// "external:<metric>".
	APIErrors map[string]string

	// ForeignPods names the selected pods that the target does not own,
	// with their owner ("ReplicaSet/api-5d4 of Deployment/api"). The
	// controller counts them all the same; the explanation points them out.
	ForeignPods map[string]string

	// OtherHPAs are the other HPAs the controller has synced, with the
	// selectors of their targets; they feed the ambiguous-selector check.
	OtherHPAs []HPASelector

	// State is the controller's in-memory history for this HPA.
	State ControllerState

	// Now is the instant of the sync. Timestamps equal to Now are in the
	// past for "before" comparisons only if Now is a little later than them;
	// callers replaying upstream test fixtures add a small epsilon.
	Now time.Time

	// LastControllerEvent is when the controller last recorded an event
	// about the HPA (zero: no event read). The controller records events
	// only while it syncs the HPA, so this shows a sync; the controller does
	// not read it, but the agreement's sync check does (SyncCheck).
	LastControllerEvent time.Time
}

// Target is what the controller reads from the target's scale subresource.
type Target struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	// SpecReplicas is scale.spec.replicas: "current replicas".
	SpecReplicas int32 `json:"specReplicas"`
	// StatusReplicas is scale.status.replicas.
	StatusReplicas int32 `json:"statusReplicas"`
	// Selector is scale.status.selector in its string form; "" means missing.
	Selector string `json:"selector"`
	// GetError, when set, is the error the scale GET returned.
	GetError string `json:"getError,omitempty"`
	// UpdateError, when set, is the error the scale UPDATE of a rescale
	// ends with, after the retries the controller makes: what the replay
	// assumes the API server answers the sync's write (upstream's test
	// fixtures, the hidden --assume-scale-update-error). A sync that does
	// not rescale never writes, and never meets it.
	UpdateError string `json:"updateError,omitempty"`
}

// HPASelector names another HPA together with the selector of its target.
type HPASelector struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Selector  string `json:"selector"`
}

// ControllerState is the per-HPA memory of kube-controller-manager that the
// API does not expose.
type ControllerState = explain.ControllerState

// Recommendation is one stored replica recommendation.
type Recommendation = explain.TimestampedRecommendation

// ScaleEvent is one stored rescale, used by the behavior rate limits.
type ScaleEvent = explain.ScaleEvent

// Settings are the kube-controller-manager flags that shape HPA decisions,
// and where they came from: the controller's settings, nothing of one sync
// (the snapshot) or of one call (EvalOptions).
type Settings struct {
	// Tolerance is --horizontal-pod-autoscaler-tolerance.
	Tolerance float64
	// CPUInitializationPeriod is --horizontal-pod-autoscaler-cpu-initialization-period.
	CPUInitializationPeriod time.Duration
	// InitialReadinessDelay is --horizontal-pod-autoscaler-initial-readiness-delay.
	InitialReadinessDelay time.Duration
	// DownscaleStabilization is --horizontal-pod-autoscaler-downscale-stabilization.
	DownscaleStabilization time.Duration
	// SyncPeriod is --horizontal-pod-autoscaler-sync-period. It does not
	// change one sync; projections use it, and so does the check of
	// whether the HPA's status is stale.
	SyncPeriod time.Duration
	// SyncPeriodAssumed says that SyncPeriod is the default taken on trust
	// (neither read from the controller nor given): the stale-status check
	// then waits longer before it calls a status stale.
	SyncPeriodAssumed bool
	// Profile is the controller replayed: its version, its feature gates
	// and the behaviour switches that follow from them.
	Profile profile.Profile
	// VersionSource says where Profile's version came from; it is echoed
	// in the decision.
	VersionSource string
	// LegacyScaleUpLimitFactor and LegacyScaleUpLimitMinimum are package
	// constants upstream (2 and 4); upstream's unit tests change the factor.
	LegacyScaleUpLimitFactor  float64
	LegacyScaleUpLimitMinimum float64
	// Source says where the settings came from (defaults, flags, a
	// kube-controller-manager pod); it is echoed in the decision.
	Source string
}

// EvalOptions are the knobs of one EvaluateWith call: how much of the
// explanation of the sync the decision keeps. Nothing the controller
// computes changes with them; the zero value keeps everything (Evaluate).
type EvalOptions struct {
	// Brief leaves out what only an explanation of the sync prints: the
	// per-pod entries of the pod accounting (the counts stay), the step
	// narratives of the metrics, and the agreement with the status the
	// snapshot carries. Replays of thousands of syncs that keep only their
	// outcomes set it.
	Brief bool
	// OutcomeOnly is Brief, and leaves out the rest of the explanation
	// too: the settings echoed, the state before, the assumptions, the
	// conditions and events listed, the status change, who decided, the
	// summary, and the pod accounting. What stays is what the controller
	// computes and what measures of a replay read: the status (its
	// conditions and their messages included), the state after, the
	// current and desired replicas, the rescale and its reason, the
	// outcome, the target, the selector check, the recommendation, the
	// normalization and each metric's target, value, usage, tolerance,
	// fill-in, proposal and error. Replays that keep no explanation of
	// their syncs (a search over candidate settings) set it.
	OutcomeOnly bool
}

// DefaultSettings returns kube-controller-manager's defaults, replaying the
// newest supported controller with its default gates. The flag defaults have
// not changed between v1.29 and v1.37.
func DefaultSettings() Settings {
	return Settings{
		Tolerance:                 0.1,
		CPUInitializationPeriod:   5 * time.Minute,
		InitialReadinessDelay:     30 * time.Second,
		DownscaleStabilization:    5 * time.Minute,
		SyncPeriod:                15 * time.Second,
		Profile:                   profile.NewestDefault(),
		LegacyScaleUpLimitFactor:  2.0,
		LegacyScaleUpLimitMinimum: 4.0,
	}
}

// DeepCopy returns a copy of s that shares nothing with it.
func (s *Snapshot) DeepCopy() *Snapshot {
	if s == nil {
		return nil
	}
	out := *s
	out.HPA = s.HPA.DeepCopy()
	out.Pods = make([]corev1.Pod, len(s.Pods))
	for i := range s.Pods {
		s.Pods[i].DeepCopyInto(&out.Pods[i])
	}
	out.PodMetrics = make([]metricsv1beta1.PodMetrics, len(s.PodMetrics))
	for i := range s.PodMetrics {
		s.PodMetrics[i].DeepCopyInto(&out.PodMetrics[i])
	}
	out.CustomMetrics = make([]custommetricsv1beta2.MetricValue, len(s.CustomMetrics))
	for i := range s.CustomMetrics {
		s.CustomMetrics[i].DeepCopyInto(&out.CustomMetrics[i])
	}
	out.ExternalMetrics = make([]externalmetricsv1beta1.ExternalMetricValue, len(s.ExternalMetrics))
	for i := range s.ExternalMetrics {
		s.ExternalMetrics[i].DeepCopyInto(&out.ExternalMetrics[i])
	}
	out.APIErrors = maps.Clone(s.APIErrors)
	out.ForeignPods = maps.Clone(s.ForeignPods)
	out.OtherHPAs = slices.Clone(s.OtherHPAs)
	out.State = s.State.DeepCopy()
	return &out
}
