// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package differential holds the differential test of pkg/engine against the
// HPA controller of k8s.io/kubernetes, for every supported controller version
// (v1.29-v1.37). The upstream side runs in an oracle process built per version
// (oracle/, hack/differential/oracle.sh); this module's own graph holds
// k8s.io/kubernetes v1.37.2 (validation parity runs in process). It is its own
// Go module so that the main module never depends on k8s.io/kubernetes.
// Everything else lives in the _test.go files; see README.md.
package differential
