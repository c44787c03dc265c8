// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/labels"
)

// parsedSelectors keeps the selectors parsed so far: a replay evaluates
// the same selector at every one of its thousands of syncs. A parsed
// selector is never written after parsing, so one value serves every
// sync and goroutine. The cache stops growing at maxParsedSelectors
// (random snapshots, as the fuzz tests make, would grow it without end).
var (
	parsedSelectors sync.Map // string -> labels.Selector
	parsedCount     atomic.Int64
)

const maxParsedSelectors = 256

// parseSelector is labels.Parse, remembered for the selectors it accepts;
// one it rejects is parsed again each time, for the same error.
func parseSelector(raw string) (labels.Selector, error) {
	if v, ok := parsedSelectors.Load(raw); ok {
		return v.(labels.Selector), nil
	}
	sel, err := labels.Parse(raw)
	if err != nil {
		return nil, err
	}
	if parsedCount.Load() < maxParsedSelectors {
		if _, loaded := parsedSelectors.LoadOrStore(raw, sel); !loaded {
			parsedCount.Add(1)
		}
	}
	return sel, nil
}
