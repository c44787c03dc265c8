// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package migrate hands the replica count of a workload over to its
// HorizontalPodAutoscaler without ever lowering it.
//
// Once an HPA scales a Deployment, StatefulSet, ReplicaSet or custom
// resource, a replica count left in the configuration that is applied to it
// is a trap: the next apply either sets it back to the configured number or,
// when the field is simply deleted from the manifest, removes it, and the
// API server then defaults it to 1. Which of the two happens, and how to
// defuse it, depends on how the object is applied:
//
//   - kubectl client-side apply (and tools built on it, such as Argo CD by
//     default) computes its patch from the
//     kubectl.kubernetes.io/last-applied-configuration annotation: a field
//     that is in the annotation but no longer in the manifest is deleted.
//     Rewriting the annotation without the field (what
//     `kubectl apply edit-last-applied` lets a user do by hand) defuses it.
//   - server-side apply deletes a field that an applier stops applying when
//     no other field manager owns it (metadata.managedFields). Handing the
//     ownership over first defuses it: another manager applies the field at
//     its live value, then the first one stops owning it.
//
// Inspect reads the target, its HPA and who manages the field; BuildPlan
// turns that into numbered steps with the exact requests; Execute carries
// them out and verifies the result; EditManifests removes the field from
// local manifest files. Nothing here writes to the cluster unless Execute
// is called.
package migrate

// FieldManager is the field manager of every write migrate makes. It is a
// name of its own, used for nothing else, so that:
//   - the hand-over shows in metadata.managedFields as what it is;
//   - no delivery tool ever applies under this name, so none can drop the
//     field again by leaving it out of its configuration;
//   - a later server-side apply that sets a different replica count
//     conflicts with it instead of silently resetting the count (until the
//     HPA writes the field, which takes the ownership over).
const FieldManager = "kubectl-hpa-migrate"

// LastAppliedAnnotation is where kubectl client-side apply keeps the
// configuration it applied last.
const LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// HPAControllerManager is the field manager name kube-controller-manager
// writes the scale subresource with.
const HPAControllerManager = "kube-controller-manager"
