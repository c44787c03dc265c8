// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package tune searches an HPA's settings for the ones that would have cost
// least over a recorded period without running hotter than the HPA as it is.
//
// It is pure: it knows nothing of Prometheus, the cluster or the replay's
// internals. The caller gives it the HPA as it is, a search space, and an
// Evaluator that replays the period exactly under one candidate setting (in
// kubectl-hpa, whatif's backtest: the same engine as explain, sync by sync)
// and returns the candidate's figures. Search decides which candidates to
// replay, keeps every figure the Evaluator returned (no figure is estimated
// or interpolated), and picks the frontier and one recommendation:
//
//   - a candidate dominates another when it is no worse on both cost and
//     risk and better on one; the frontier is the set no other candidate
//     dominates;
//   - the recommendation is the cheapest candidate whose risk is not above
//     the bound: by default the reference's risk (the HPA as it is, replayed
//     over the same load), or a looser one the user asks for; ties go to the
//     lower risk, then to fewer rescales, then to the setting closest to the
//     current one.
//
// The search space has one dimension per knob (Dimension): each metric's
// target, the scale-up and scale-down stabilization windows, the scale-up
// and scale-down policies (their Pods and Percent values and periods, and
// selectPolicy), the per-direction tolerance where the controller version
// honours it, and minReplicas when asked for. Each dimension has a fine grid
// of values and a coarse subset of it; both always hold the current value.
// Search replays the product of the coarse subsets first (thinned to half the
// budget when the product is larger, dropping the values farthest from the
// current one first), then refines: the neighbours on the fine grid, one
// dimension at a time, of every frontier candidate and of the
// recommendation, round after round, until a round adds nothing to the
// frontier or the budget is spent.
package tune
