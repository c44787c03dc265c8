// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/internal/enginetest"
	"github.com/kubectl-hpa/kubectl-hpa/internal/schematest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// Every decision the engine makes of a random snapshot (enginetest's:
// every metric type, failures, bounds, histories, versions) matches the
// Explanation schema.
func TestDecisionsMatchSchema(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(20260101, 1))
	for i := range n {
		data := make([]byte, 64+rng.IntN(192))
		for j := range data {
			data[j] = byte(rng.UintN(256))
		}
		snap, set := enginetest.Snapshot(data)
		d, err := engine.Evaluate(snap, set)
		if err != nil {
			t.Fatalf("case %d: Evaluate: %v", i, err)
		}
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatalf("case %d: encode: %v", i, err)
		}
		if err := schematest.Validate(schema.Explanation, b); err != nil {
			t.Fatalf("case %d (fuzz bytes %x): %v", i, data, err)
		}
	}
}
