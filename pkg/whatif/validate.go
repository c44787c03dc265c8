// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"strconv"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/validation"
)

// FieldBehavior is --behavior, for the errors of the validation of the
// edited HPA.
const FieldBehavior Field = "behavior"

// validateSpec refuses spec edits that leave an HPA the API server would
// reject (with the gates of the replayed controller): the first error the
// edit introduced, with the API server's field path and message, blamed on
// the override that set the field. Errors the HPA had before the edits are
// not the edits' doing and are left to the input's own checks.
func (e *editor) validateSpec(o *Overrides, before *autoscalingv2.HorizontalPodAutoscaler) error {
	opts := validation.OptionsFor(e.set.Profile)
	old := before.DeepCopy()
	engine.DefaultHPA(old)
	had := map[string]bool{}
	for _, err := range validation.Spec(&old.Spec, field.NewPath("spec"), opts) {
		had[err.Field+"\x00"+string(err.Type)] = true
	}
	for _, err := range validation.Spec(&e.snap.HPA.Spec, field.NewPath("spec"), opts) {
		if had[err.Field+"\x00"+string(err.Type)] {
			continue
		}
		fe := blame(o, err)
		fe.Msg = err.Error()
		return fe
	}
	return nil
}

// blame names the override behind an error of the edited spec.
func blame(o *Overrides, err *field.Error) *FieldError {
	num := func(v *int32) string {
		if v == nil {
			return ""
		}
		return strconv.Itoa(int(*v))
	}
	path := err.Field
	switch {
	case path == "spec.minReplicas":
		return &FieldError{Field: FieldMin, Value: num(o.Min)}
	case path == "spec.maxReplicas" && strings.Contains(err.Detail, "minReplicas") && o.Min != nil && o.Max != nil:
		return &FieldError{Field: FieldBounds}
	case path == "spec.maxReplicas" && o.Max != nil:
		return &FieldError{Field: FieldMax, Value: num(o.Max)}
	case path == "spec.maxReplicas", path == "spec.metrics" && o.Min != nil:
		return &FieldError{Field: FieldMin, Value: num(o.Min)}
	case strings.HasPrefix(path, "spec.metrics["):
		return &FieldError{Field: FieldTarget, Value: targetText(o)}
	case strings.HasSuffix(path, ".tolerance") && (o.ScaleUpTolerance != nil || o.ScaleDownTolerance != nil):
		return &FieldError{Field: FieldTolerance}
	case strings.HasPrefix(path, "spec.behavior"):
		return &FieldError{Field: FieldBehavior, Value: o.BehaviorSource}
	}
	return &FieldError{Field: Field(fmt.Sprintf("the edited %s", path))}
}

// targetText is the --target override given, when only one was.
func targetText(o *Overrides) string {
	if len(o.Targets) == 1 {
		return o.Targets[0].Text
	}
	return ""
}
