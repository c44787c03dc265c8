// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package differential holds the differential test of pkg/engine against the
// HPA controller of k8s.io/kubernetes v1.36.3. It is its own Go module so that
// the main module never depends on k8s.io/kubernetes. Everything lives in the
// _test.go files; see README.md.
package differential
