// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// ControllerStateDocument is the kubectl-hpa.io/v1alpha1 ControllerState
// input document: the controller's in-memory history for the HPA named by
// its metadata.
type ControllerStateDocument struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        DocumentMeta `json:"metadata"`
	// RecommendationsInitialized is whether the controller holds a history
	// for the HPA. Unset means true when recommendations are listed, else
	// false.
	RecommendationsInitialized *bool                 `json:"recommendationsInitialized,omitempty"`
	Recommendations            []StateRecommendation `json:"recommendations,omitempty"`
	ScaleUpEvents              []StateScaleEvent     `json:"scaleUpEvents,omitempty"`
	ScaleDownEvents            []StateScaleEvent     `json:"scaleDownEvents,omitempty"`
	Provenance                 explain.Provenance    `json:"provenance,omitempty"`
	Notes                      []string              `json:"notes,omitempty"`
}

// DocumentMeta is the metadata of the kubectl-hpa.io documents.
type DocumentMeta struct {
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// StateRecommendation is one stored recommendation.
type StateRecommendation struct {
	Timestamp metav1.Time `json:"timestamp"`
	Replicas  *int32      `json:"replicas"`
}

// StateScaleEvent is one stored scale event.
type StateScaleEvent struct {
	Timestamp     metav1.Time `json:"timestamp"`
	ReplicaChange *int32      `json:"replicaChange"`
	Outdated      bool        `json:"outdated,omitempty"`
}

// ControllerDocument is the kubectl-hpa.io/v1alpha1 Controller input
// document: the kube-controller-manager that runs the HPAs, as --dump
// found it (its version, feature gates and HPA flags). A replay of the
// snapshot uses it unless the command line says otherwise. Every field is
// optional; at most one such document may be given.
type ControllerDocument struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        DocumentMeta `json:"metadata,omitempty"`
	// Version is the controller's Kubernetes version ("v1.36.3", "1.36").
	Version string `json:"version,omitempty"`
	// VersionSource says how the version was found.
	VersionSource string `json:"versionSource,omitempty"`
	// FeatureGates are the gates in force.
	FeatureGates map[string]bool `json:"featureGates,omitempty"`
	// The --horizontal-pod-autoscaler-* flags.
	Tolerance               *float64         `json:"tolerance,omitempty"`
	CPUInitializationPeriod *metav1.Duration `json:"cpuInitializationPeriod,omitempty"`
	InitialReadinessDelay   *metav1.Duration `json:"initialReadinessDelay,omitempty"`
	DownscaleStabilization  *metav1.Duration `json:"downscaleStabilization,omitempty"`
	SyncPeriod              *metav1.Duration `json:"syncPeriod,omitempty"`
	// Source says where the flags came from.
	Source string `json:"source,omitempty"`
	// KEDAVersion is the release of KEDA's operator ("v2.21.0", "2.21"),
	// for the explanations of HPAs a ScaledObject owns; KEDAVersionSource
	// says how it was found.
	KEDAVersion       string `json:"kedaVersion,omitempty"`
	KEDAVersionSource string `json:"kedaVersionSource,omitempty"`
}

// check rejects values no controller has.
func (d *ControllerDocument) check() error {
	if d.Version != "" {
		if _, err := profile.Parse(d.Version); err != nil {
			return fmt.Errorf("version: %w", err)
		}
	}
	if d.KEDAVersion != "" {
		if _, err := keda.ParseVersion(d.KEDAVersion); err != nil {
			return fmt.Errorf("kedaVersion: %w", err)
		}
	}
	if d.Tolerance != nil && *d.Tolerance < 0 {
		return fmt.Errorf("tolerance: Invalid value: %v: must not be negative", *d.Tolerance)
	}
	for name, v := range map[string]*metav1.Duration{
		"cpuInitializationPeriod": d.CPUInitializationPeriod, "initialReadinessDelay": d.InitialReadinessDelay,
		"downscaleStabilization": d.DownscaleStabilization, "syncPeriod": d.SyncPeriod,
	} {
		if v != nil && v.Duration < 0 {
			return fmt.Errorf("%s: Invalid value: %s: must not be negative", name, v.Duration)
		}
	}
	if d.SyncPeriod != nil && d.SyncPeriod.Duration == 0 {
		return fmt.Errorf("syncPeriod: Invalid value: 0s: must be positive")
	}
	return nil
}

// APIErrorsDocument is the kubectl-hpa.io/v1alpha1 APIErrors input
// document: the errors the API calls of one sync returned instead of data.
type APIErrorsDocument struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        DocumentMeta      `json:"metadata"`
	Errors          map[string]string `json:"errors"`
}

// API error keys.
const (
	APIErrorScale    = "scale"
	APIErrorResource = "resource"
)

// apiErrorPrefixes are the keys that name a metric after a colon.
var apiErrorPrefixes = []string{"pods", "object", "external"}

// validateAPIErrorKey checks one key of an APIErrors document.
func validateAPIErrorKey(key string) error {
	if key == APIErrorScale || key == APIErrorResource {
		return nil
	}
	prefix, metric, ok := strings.Cut(key, ":")
	if ok && slices.Contains(apiErrorPrefixes, prefix) {
		if metric == "" {
			return fmt.Errorf("errors[%q]: the metric name after %q is empty", key, prefix+":")
		}
		return nil
	}
	return fmt.Errorf("errors[%q]: unknown key (want scale, resource, pods:<metric>, object:<metric> or external:<metric>)", key)
}

// toControllerState converts the document into the engine's state.
func (d *ControllerStateDocument) toControllerState(where string) (engine.ControllerState, error) {
	var st engine.ControllerState
	for i, r := range d.Recommendations {
		if r.Timestamp.IsZero() {
			return st, fmt.Errorf("recommendations[%d].timestamp: required", i)
		}
		if r.Replicas == nil {
			return st, fmt.Errorf("recommendations[%d].replicas: required", i)
		}
		st.Recommendations = append(st.Recommendations, engine.Recommendation{Timestamp: r.Timestamp.UTC(), Replicas: *r.Replicas})
	}
	var err error
	if st.ScaleUpEvents, err = convertEvents("scaleUpEvents", d.ScaleUpEvents); err != nil {
		return st, err
	}
	if st.ScaleDownEvents, err = convertEvents("scaleDownEvents", d.ScaleDownEvents); err != nil {
		return st, err
	}
	if d.RecommendationsInitialized != nil {
		st.RecommendationsInitialized = *d.RecommendationsInitialized
	} else {
		st.RecommendationsInitialized = len(st.Recommendations) > 0
	}
	switch d.Provenance {
	case "":
		st.Provenance = explain.Observed
	case explain.Observed, explain.Inferred, explain.Assumed:
		st.Provenance = d.Provenance
	default:
		return st, fmt.Errorf("provenance: %q is not one of observed, inferred, assumed", d.Provenance)
	}
	st.Notes = append([]string{"controller state from the ControllerState document at " + where}, d.Notes...)
	return st, nil
}

func convertEvents(field string, in []StateScaleEvent) ([]engine.ScaleEvent, error) {
	var out []engine.ScaleEvent
	for i, e := range in {
		if e.Timestamp.IsZero() {
			return nil, fmt.Errorf("%s[%d].timestamp: required", field, i)
		}
		if e.ReplicaChange == nil {
			return nil, fmt.Errorf("%s[%d].replicaChange: required", field, i)
		}
		if *e.ReplicaChange < 0 {
			return nil, fmt.Errorf("%s[%d].replicaChange: must not be negative (scale-down events store the number of pods removed)", field, i)
		}
		out = append(out, engine.ScaleEvent{Timestamp: e.Timestamp.UTC(), ReplicaChange: *e.ReplicaChange, Outdated: e.Outdated})
	}
	return out, nil
}

// NoStateNote is the note attached to the assumed state used when the input
// holds no ControllerState for the HPA.
const NoStateNote = "no ControllerState given: assuming a controller that has just started (no history)"

// assumedState is the state of a controller that has just started.
func assumedState() engine.ControllerState {
	return engine.ControllerState{
		RecommendationsInitialized: false,
		Provenance:                 explain.Assumed,
		Notes:                      []string{NoStateNote},
	}
}

var errNoName = errors.New("metadata.name: required (the name of the HorizontalPodAutoscaler it belongs to)")
