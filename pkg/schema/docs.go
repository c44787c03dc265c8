// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package schema

// Docs are the words the schemas take from the Go source: the doc comment
// of each type and field, and the values of this module's string types
// (their typed constants). hack/genschema reads them; the keys are the
// definition names of the types ("explain.Decision",
// "io.k8s.api.autoscaling.v2.MetricStatus"), followed by the Go field name
// for a field ("explain.Decision.CurrentReplicas").
type Docs struct {
	Types  map[string]string
	Fields map[string]string
	Enums  map[string][]string
}
