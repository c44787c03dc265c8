// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import "fmt"

// Field names a kind of override. Errors name the field and the value as
// given; pkg/cmd turns the field into its flag.
type Field string

// The overrides.
const (
	FieldCPU       Field = "cpu"
	FieldMemory    Field = "memory"
	FieldMetric    Field = "metric"
	FieldObject    Field = "object"
	FieldExternal  Field = "external"
	FieldTarget    Field = "target"
	FieldMin       Field = "min"
	FieldMax       Field = "max"
	FieldBounds    Field = "min/max"
	FieldTolerance Field = "tolerance"
	FieldReplicas  Field = "replicas"
	FieldTrace     Field = "trace"
)

// FieldError is an override that cannot apply.
type FieldError struct {
	Field Field
	// Value is the override as given ("0", "cpu=70%", "app=200m").
	Value string
	// Assigned values follow the field with "=" (--cpu=200m), others with
	// a space (--max 0).
	Assigned bool
	Msg      string
}

func (e *FieldError) Error() string { return e.Text(string(e.Field)) }

// Text words the error with name standing for the field (pkg/cmd passes
// the flag).
func (e *FieldError) Text(name string) string {
	switch {
	case e.Value == "":
		return name + ": " + e.Msg
	case e.Assigned:
		return name + "=" + e.Value + ": " + e.Msg
	}
	return name + " " + e.Value + ": " + e.Msg
}

func fieldErr(f Field, value, format string, args ...any) *FieldError {
	return &FieldError{Field: f, Value: value, Msg: fmt.Sprintf(format, args...)}
}
