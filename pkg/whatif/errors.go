// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"slices"
)

// Field names a kind of override. Errors name the field and the value as
// given; pkg/action turns the field into its flag (fieldFlag).
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
	FieldFor       Field = "for"
)

// FieldError is an override that cannot apply.
type FieldError struct {
	Field Field
	// Value is the override as given ("0", "cpu=70%", "app=200m").
	Value string
	// Assigned values follow the field with "=" (cpu=200m), others with
	// a space (max 0).
	Assigned bool
	Msg      string
	// mentions, when the message names other overrides, words Msg with
	// them (fieldErr's arguments).
	mentions *NamedError
}

func (e *FieldError) Error() string { return e.Text(fieldName) }

// Text words the error with name(f) standing for each field f (pkg/action
// passes the option's flag).
func (e *FieldError) Text(name func(Field) string) string {
	msg := e.Msg
	if e.mentions != nil {
		msg = e.mentions.Text(name)
	}
	switch n := name(e.Field); {
	case e.Value == "":
		return n + ": " + msg
	case e.Assigned:
		return n + "=" + e.Value + ": " + msg
	default:
		return n + " " + e.Value + ": " + msg
	}
}

func fieldErr(f Field, value, format string, args ...any) *FieldError {
	e := &FieldError{Field: f, Value: value, Msg: fmt.Sprintf(format, args...)}
	if slices.ContainsFunc(args, func(a any) bool { _, ok := a.(Field); return ok }) {
		e.mentions = namedErr(format, args...)
	}
	return e
}

// NamedError is an error whose message names overrides ("shorten for"):
// each Field among its arguments is worded by the face that took the
// overrides, pkg/action with the option's flag, and as the field itself by
// Error.
type NamedError struct {
	format string
	args   []any
}

func namedErr(format string, args ...any) *NamedError {
	return &NamedError{format: format, args: args}
}

func (e *NamedError) Error() string { return e.Text(fieldName) }

// Text words the error with name(f) standing for each field f.
func (e *NamedError) Text(name func(Field) string) string {
	args := make([]any, len(e.args))
	for i, a := range e.args {
		if f, ok := a.(Field); ok {
			a = name(f)
		}
		args[i] = a
	}
	return fmt.Sprintf(e.format, args...)
}

// fieldName words a field as itself.
func fieldName(f Field) string { return string(f) }
