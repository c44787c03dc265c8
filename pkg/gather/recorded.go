// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
)

// WorkloadReplicaSets lists the ReplicaSets a Deployment-like target owns
// (current and old): a backtest names the target's past pods after them.
// Other kinds own their pods directly: none.
func WorkloadReplicaSets(ctx context.Context, c *Clients, ns string, t engine.Target) ([]appsv1.ReplicaSet, error) {
	if !needsReplicaSets(t) {
		return nil, nil
	}
	all, err := listReplicaSets(ctx, c, ns)
	if err != nil {
		return nil, err
	}
	var out []appsv1.ReplicaSet
	for _, rs := range all {
		for _, o := range rs.OwnerReferences {
			if o.Controller != nil && *o.Controller && o.Kind == t.Kind && o.Name == t.Name {
				out = append(out, rs)
				break
			}
		}
	}
	return out, nil
}
