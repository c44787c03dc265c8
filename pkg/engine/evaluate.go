// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"errors"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Evaluate replays one sync of the HPA controller on snap with the given
// controller settings. It returns an error only when the snapshot is not
// usable at all (no HPA); everything the controller would report as a
// condition or event is part of the returned decision instead.
func Evaluate(snap *Snapshot, set Settings) (*explain.Decision, error) {
	if snap == nil || snap.HPA == nil {
		return nil, errors.New("snapshot has no HorizontalPodAutoscaler")
	}
	return nil, errors.New("not implemented yet")
}
