// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"strconv"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// boolAnnotation reads a boolean annotation as KEDA does: absent is false,
// a value strconv.ParseBool accepts is that value, and any other value
// (yes, on, enabled, "") counts as true.
func boolAnnotation(ann map[string]string, key string) bool {
	v, ok := ann[key]
	if !ok {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return true
	}
	return b
}

// Pause parses the pause and force-activation annotations of so as KEDA
// does. The paused-replicas annotation pauses by its presence alone,
// whatever autoscaling.keda.sh/paused says; its value must be an int32
// (strconv.ParseInt base 10), else KEDA stays paused without scaling.
func Pause(so *ScaledObject) explain.KEDAPause {
	ann := so.Annotations
	p := explain.KEDAPause{
		ScaleIn:         boolAnnotation(ann, AnnotationPausedScaleIn),
		ScaleOut:        boolAnnotation(ann, AnnotationPausedScaleOut),
		ForceActivation: boolAnnotation(ann, AnnotationForceActivation),
	}
	// Keep the raw values of the annotations that are set, for the views.
	for _, k := range []string{AnnotationPaused, AnnotationPausedReplicas, AnnotationPausedScaleIn, AnnotationPausedScaleOut, AnnotationForceActivation} {
		if v, ok := ann[k]; ok {
			if p.Annotations == nil {
				p.Annotations = map[string]string{}
			}
			p.Annotations[k] = v
		}
	}
	// paused-replicas wins over paused: its presence pauses.
	if v, ok := ann[AnnotationPausedReplicas]; ok {
		p.Paused = true
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			p.PausedReplicasError = err.Error()
		} else {
			p.PausedReplicas = ptr(int32(n))
		}
		return p
	}
	p.Paused = boolAnnotation(ann, AnnotationPaused)
	return p
}
