// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import "github.com/kubectl-hpa/kubectl-hpa/pkg/history"

// HistoryStore is where watches keep what they observe, for a live run's
// Source.History; nil with noHistory (--no-history) or when no cache
// directory can be found.
func HistoryStore(noHistory bool) *history.Store {
	if noHistory {
		return nil
	}
	dir, err := history.DefaultDir()
	if err != nil {
		return nil
	}
	return &history.Store{Dir: dir}
}
