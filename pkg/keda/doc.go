// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package keda replays the decisions of KEDA's operator for one
// ScaledObject, exactly as a KEDA release makes them, so that an
// explanation can say why a workload KEDA scales has its replicas: why it
// does not leave zero (a value at or below its activation threshold), why
// it went from 6 straight to 0 (the cooldown ran out and KEDA jumps past
// the HPA's behavior), why cooldownPeriod seems ignored (it only governs
// the step to zero), what a fallback makes the HPA compute, and what the
// pause annotations do.
//
// The package is pure like pkg/engine: no client-go, no I/O, no clock.
// Its inputs are the ScaledObject as kubectl prints it (Decode, Validate),
// the instant of the poll, the workload's current replicas and what each
// trigger's scaler returned (Input); cron time zones other than UTC are
// resolved through a loader the caller passes.
//
// What it replays, per KEDA source file:
//
//   - apis/keda/v1alpha1: the pause, paused-replicas, paused-scale-in/out
//     and force-activation annotations (Pause), the HPA's bounds;
//   - controllers/keda/hpa.go and the reconcile's checks: the HPA KEDA
//     writes (BuildHPA), and the errors that stop it;
//   - pkg/scalers: the parameters, metric names, targets and activation
//     thresholds of metrics-api, kubernetes-workload, kubernetes-resource,
//     cron, cpu and memory (ReplayedTypes); other scalers take their metric
//     name from status.externalMetricNames and their activity from the
//     caller or status.triggersActivity;
//   - pkg/scaling/scale_handler.go: the poll's state (any trigger active;
//     cpu/memory-only objects always active; scalingModifiers' composite
//     value and activationTarget) and, from v2.21, the reuse of the HPA's
//     observations;
//   - pkg/fallback: the failure counts, the threshold and the value the
//     metrics server answers (FallbackValue, FallbackAnswered), and the
//     ready pods a Value target's fallback divides by (ReadyReplicas);
//   - pkg/scaling/modifiers: the formula, with the expr library KEDA uses;
//   - pkg/scaling/executor/scale_scaledobjects.go: the scale step (from
//     zero or idle to minReplicaCount or 1; to zero or idle after the
//     cooldown, counted from lastActiveTime or, never active, from
//     creation with initialCooldownPeriod; to minReplicaCount when below
//     it) and the conditions KEDA writes.
//
// Evaluate returns the explanation's KEDA part (explain.KEDA); Combine
// joins it with a replay of the HPA's next sync. Version says which KEDA
// release is replayed and Switches what differs between releases; the
// unit-test vectors of each release are in testdata/vectors.
package keda
