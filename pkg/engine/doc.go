// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package engine replays the HorizontalPodAutoscaler controller of
// kube-controller-manager on a Snapshot of its inputs and returns an
// explain.Decision holding every step and number of one sync. Where the
// supported controller versions differ, the engine reads the switches of
// Settings.Profile (pkg/profile), never a version.
//
// The package is pure: no client-go, no I/O, no clock. The instant of the
// sync is Snapshot.Now; the controller's in-memory history is
// Snapshot.State; the metrics APIs are represented by the objects they
// returned (or the error they gave).
//
// The code is our own, written from the specification in the project's
// shared hpa-algorithm.md. Function names follow the upstream routines they
// correspond to (groupPods, calculateRequests, GetResourceReplicas,
// computeReplicasForMetrics, stabilizeRecommendationWithBehaviors, ...) so a
// reviewer can compare the logic; parity is shown by the test vectors in
// testdata/vectors, the trap tests, and the differential test module under
// test/differential, which runs the upstream package beside this one.
//
// Where upstream would crash on input the API server never serves (a nil
// behavior rule, a metric spec whose source field is missing), the engine
// reports an invalid metric or uses the API default instead.
package engine
