// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"encoding/json"
	"fmt"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// Group, version and kind of a ScaledObject.
const (
	GroupVersion     = "keda.sh/v1alpha1"
	KindScaledObject = "ScaledObject"
)

// Annotations and labels KEDA reads or writes on a ScaledObject and its HPA.
const (
	// AnnotationPaused stops KEDA: its HPA is deleted and the replicas stay.
	AnnotationPaused = "autoscaling.keda.sh/paused"
	// AnnotationPausedReplicas stops KEDA and sets the workload to its
	// value; its presence alone pauses.
	AnnotationPausedReplicas = "autoscaling.keda.sh/paused-replicas"
	// AnnotationPausedScaleIn disables the HPA's scale-down and KEDA's step
	// to zero.
	AnnotationPausedScaleIn = "autoscaling.keda.sh/paused-scale-in"
	// AnnotationPausedScaleOut disables the HPA's scale-up and KEDA's step
	// from zero.
	AnnotationPausedScaleOut = "autoscaling.keda.sh/paused-scale-out"
	// AnnotationForceActivation makes the object active whatever its
	// triggers say.
	AnnotationForceActivation = "autoscaling.keda.sh/force-activation"
	// AnnotationExcludedLabels lists (comma-separated) the object's labels
	// KEDA does not copy to its HPA.
	AnnotationExcludedLabels = "scaledobject.keda.sh/hpa-excluded-labels"
	// LabelScaledObjectName is the label KEDA puts on the object and in the
	// selector of every External metric of its HPA.
	LabelScaledObjectName = "scaledobject.keda.sh/name"
	// CompositeMetricName is the one External metric of a scalingModifiers
	// formula.
	CompositeMetricName = "composite-metric"
)

// Fallback behaviors (spec.fallback.behavior).
const (
	FallbackStatic                  = "static"
	FallbackCurrentReplicas         = "currentReplicas"
	FallbackCurrentReplicasIfHigher = "currentReplicasIfHigher"
	FallbackCurrentReplicasIfLower  = "currentReplicasIfLower"
	FallbackScalingModifiers        = "scalingModifiers"
)

// Health statuses of status.health.
const (
	HealthHappy   = "Happy"
	HealthFailing = "Failing"
)

// Defaults KEDA applies to unset fields.
const (
	DefaultPollingInterval       int32 = 30
	DefaultCooldownPeriod        int32 = 300
	DefaultInitialCooldownPeriod int32 = 0
	DefaultMaxReplicaCount       int32 = 100
	// defaultHPAMinReplicas is the HPA's minReplicas when minReplicaCount
	// is unset or 0.
	defaultHPAMinReplicas int32 = 1
)

// ScaledObject is a keda.sh/v1alpha1 ScaledObject as kubectl prints it.
// It holds the fields KEDA's operator reads; decoding ignores the others.
type ScaledObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ScaledObjectSpec   `json:"spec"`
	Status ScaledObjectStatus `json:"status,omitempty"`
}

// ScaledObjectSpec is spec of a ScaledObject.
type ScaledObjectSpec struct {
	ScaleTargetRef *ScaleTarget `json:"scaleTargetRef"`
	// PollingInterval is the seconds between two polls (default 30).
	PollingInterval *int32 `json:"pollingInterval,omitempty"`
	// InitialCooldownPeriod is the seconds after creation before a
	// never-active object may go to zero (default 0).
	InitialCooldownPeriod *int32 `json:"initialCooldownPeriod,omitempty"`
	// CooldownPeriod is the seconds after the last active poll before the
	// step to zero (default 300).
	CooldownPeriod *int32 `json:"cooldownPeriod,omitempty"`
	// IdleReplicaCount is where KEDA parks an inactive workload instead of
	// minReplicaCount.
	IdleReplicaCount *int32 `json:"idleReplicaCount,omitempty"`
	// MinReplicaCount defaults to 0; MaxReplicaCount to 100.
	MinReplicaCount *int32          `json:"minReplicaCount,omitempty"`
	MaxReplicaCount *int32          `json:"maxReplicaCount,omitempty"`
	Advanced        *AdvancedConfig `json:"advanced,omitempty"`
	Triggers        []ScaleTrigger  `json:"triggers"`
	Fallback        *Fallback       `json:"fallback,omitempty"`
}

// ScaleTarget is spec.scaleTargetRef.
type ScaleTarget struct {
	Name                   string `json:"name"`
	APIVersion             string `json:"apiVersion,omitempty"`
	Kind                   string `json:"kind,omitempty"`
	EnvSourceContainerName string `json:"envSourceContainerName,omitempty"`
}

// AdvancedConfig is spec.advanced.
type AdvancedConfig struct {
	HorizontalPodAutoscalerConfig *HorizontalPodAutoscalerConfig `json:"horizontalPodAutoscalerConfig,omitempty"`
	// RestoreToOriginalReplicaCount matters only when the object is
	// deleted (the workload then goes back to status.originalReplicaCount).
	RestoreToOriginalReplicaCount bool             `json:"restoreToOriginalReplicaCount,omitempty"`
	ScalingModifiers              ScalingModifiers `json:"scalingModifiers,omitempty"`
}

// HorizontalPodAutoscalerConfig is spec.advanced.horizontalPodAutoscalerConfig.
type HorizontalPodAutoscalerConfig struct {
	Behavior *autoscalingv2.HorizontalPodAutoscalerBehavior `json:"behavior,omitempty"`
	Name     string                                         `json:"name,omitempty"`
}

// ScalingModifiers is spec.advanced.scalingModifiers.
type ScalingModifiers struct {
	Formula          string                         `json:"formula,omitempty"`
	Target           string                         `json:"target,omitempty"`
	ActivationTarget string                         `json:"activationTarget,omitempty"`
	MetricType       autoscalingv2.MetricTargetType `json:"metricType,omitempty"`
}

// ScaleTrigger is one spec.triggers entry.
type ScaleTrigger struct {
	Type              string                         `json:"type"`
	Name              string                         `json:"name,omitempty"`
	UseCachedMetrics  bool                           `json:"useCachedMetrics,omitempty"`
	Metadata          map[string]string              `json:"metadata"`
	AuthenticationRef *AuthenticationRef             `json:"authenticationRef,omitempty"`
	MetricType        autoscalingv2.MetricTargetType `json:"metricType,omitempty"`
}

// AuthenticationRef names a (Cluster)TriggerAuthentication.
type AuthenticationRef struct {
	Name string `json:"name"`
	Kind string `json:"kind,omitempty"`
}

// Fallback is spec.fallback.
type Fallback struct {
	FailureThreshold int32 `json:"failureThreshold"`
	Replicas         int32 `json:"replicas"`
	// Behavior is static (the CRD default), currentReplicas,
	// currentReplicasIfHigher, currentReplicasIfLower or scalingModifiers.
	Behavior string `json:"behavior,omitempty"`
}

// ScaledObjectStatus is status of a ScaledObject.
type ScaledObjectStatus struct {
	ScaleTargetKind      string                    `json:"scaleTargetKind,omitempty"`
	ScaleTargetGVKR      *GroupVersionKindResource `json:"scaleTargetGVKR,omitempty"`
	OriginalReplicaCount *int32                    `json:"originalReplicaCount,omitempty"`
	// LastActiveTime is the last poll that found the object active (and the
	// workload above zero, without trigger errors).
	LastActiveTime      *metav1.Time `json:"lastActiveTime,omitempty"`
	ExternalMetricNames []string     `json:"externalMetricNames,omitempty"`
	ResourceMetricNames []string     `json:"resourceMetricNames,omitempty"`
	CompositeScalerName string       `json:"compositeScalerName,omitempty"`
	Conditions          []Condition  `json:"conditions,omitempty"`
	// Health counts the consecutive failures per External metric (kept
	// only while a fallback is configured).
	Health             map[string]HealthStatus          `json:"health,omitempty"`
	TriggersActivity   map[string]TriggerActivityStatus `json:"triggersActivity,omitempty"`
	PausedReplicaCount *int32                           `json:"pausedReplicaCount,omitempty"`
	HpaName            string                           `json:"hpaName,omitempty"`
	TriggersTypes      *string                          `json:"triggersTypes,omitempty"`
	// AuthenticationsTypes lists the TriggerAuthentications in use.
	AuthenticationsTypes *string `json:"authenticationsTypes,omitempty"`
}

// GroupVersionKindResource is status.scaleTargetGVKR.
type GroupVersionKindResource struct {
	Group    string `json:"group"`
	Version  string `json:"version"`
	Kind     string `json:"kind"`
	Resource string `json:"resource"`
}

// Condition is one status.conditions entry.
type Condition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// HealthStatus is one status.health entry.
type HealthStatus struct {
	NumberOfFailures *int32 `json:"numberOfFailures,omitempty"`
	Status           string `json:"status,omitempty"`
}

// TriggerActivityStatus is one status.triggersActivity entry.
type TriggerActivityStatus struct {
	IsActive bool `json:"isActive"`
}

// Decode reads one ScaledObject from the JSON or YAML kubectl prints
// (kubectl get so NAME -o yaml). Fields KEDA does not read are ignored; a
// document of another kind is an error.
func Decode(data []byte) (*ScaledObject, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("ScaledObject: not YAML or JSON: %w", err)
	}
	var so ScaledObject
	if err := json.Unmarshal(js, &so); err != nil {
		return nil, fmt.Errorf("ScaledObject: %w", err)
	}
	// A file may omit apiVersion and kind; when set they must name a
	// ScaledObject.
	if so.Kind != "" && so.Kind != KindScaledObject {
		return nil, fmt.Errorf("%s %q: not a ScaledObject (kind %s)", so.Kind, so.Name, so.Kind)
	}
	if so.APIVersion != "" && so.APIVersion != GroupVersion {
		return nil, fmt.Errorf("ScaledObject %q: apiVersion %s is not %s", so.Name, so.APIVersion, GroupVersion)
	}
	return &so, nil
}

// ref names the object in errors and steps: "NAMESPACE/NAME" or "NAME".
func (so *ScaledObject) ref() string {
	if so.Namespace == "" {
		return so.Name
	}
	return so.Namespace + "/" + so.Name
}

// minReplicaCount is spec.minReplicaCount, 0 when unset.
func (so *ScaledObject) minReplicaCount() int32 {
	if so.Spec.MinReplicaCount != nil {
		return *so.Spec.MinReplicaCount
	}
	return 0
}

// hpaMinReplicas is the HPA's minReplicas: minReplicaCount when above 0,
// else 1.
func (so *ScaledObject) hpaMinReplicas() int32 {
	if so.Spec.MinReplicaCount != nil && *so.Spec.MinReplicaCount > 0 {
		return *so.Spec.MinReplicaCount
	}
	return defaultHPAMinReplicas
}

// hpaMaxReplicas is spec.maxReplicaCount, 100 when unset.
func (so *ScaledObject) hpaMaxReplicas() int32 {
	if so.Spec.MaxReplicaCount != nil {
		return *so.Spec.MaxReplicaCount
	}
	return DefaultMaxReplicaCount
}

// pollingInterval, cooldownPeriod and initialCooldownPeriod apply KEDA's
// defaults.
func (so *ScaledObject) pollingInterval() int32 {
	return deref(so.Spec.PollingInterval, DefaultPollingInterval)
}

func (so *ScaledObject) cooldownPeriod() int32 {
	return deref(so.Spec.CooldownPeriod, DefaultCooldownPeriod)
}

func (so *ScaledObject) initialCooldownPeriod() int32 {
	return deref(so.Spec.InitialCooldownPeriod, DefaultInitialCooldownPeriod)
}

// UsesModifiers reports whether advanced.scalingModifiers has any field
// set (KEDA's IsUsingModifiers).
func (so *ScaledObject) UsesModifiers() bool {
	return so.Spec.Advanced != nil && so.Spec.Advanced.ScalingModifiers != (ScalingModifiers{})
}

// pollingRelevant reports whether KEDA's own loop can move the workload
// out of the HPA's range: minReplicaCount 0, idle mode, or a trigger with
// cached metrics the loop refreshes (KEDA's IsPollingIntervalRelevant).
func (so *ScaledObject) pollingRelevant() bool {
	if so.minReplicaCount() == 0 || so.Spec.IdleReplicaCount != nil {
		return true
	}
	for _, t := range so.Spec.Triggers {
		if t.UseCachedMetrics {
			return true
		}
	}
	return false
}

// usesHPAObservations reports whether, from v2.21, the loop may reuse the
// HPA's observations: polling not relevant and no scalingModifiers.
func (so *ScaledObject) usesHPAObservations() bool {
	return !so.pollingRelevant() && !so.UsesModifiers()
}

// idleOrMinimum is where KEDA parks an inactive workload: idleReplicaCount
// when set (true), else minReplicaCount (0 when unset).
func (so *ScaledObject) idleOrMinimum() (bool, int32) {
	if so.Spec.IdleReplicaCount != nil {
		return true, *so.Spec.IdleReplicaCount
	}
	return false, so.minReplicaCount()
}

// hpaName is the HPA KEDA owns: advanced.horizontalPodAutoscalerConfig.name
// when set, else keda-hpa-NAME.
func (so *ScaledObject) hpaName() string {
	if a := so.Spec.Advanced; a != nil && a.HorizontalPodAutoscalerConfig != nil && a.HorizontalPodAutoscalerConfig.Name != "" {
		return a.HorizontalPodAutoscalerConfig.Name
	}
	return "keda-hpa-" + so.Name
}

// deref returns *p, or def when p is nil.
func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }
