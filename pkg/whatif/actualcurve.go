// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"reflect"
	"sync/atomic"
)

// actualReplay replays the syncs of the actual curve that the as-is
// replay did not run at the real count (replayRun.syncAt, in the order
// Backtest asks for them): on the fast path where it serves (a backtest
// without steps, as tune's), else on the reference replay. Those syncs
// skip the ones between them, and carry what the replay keeps from one
// to the next (its pods' marks, the controller's memory) as the
// reference does.
type actualReplay struct {
	// mk builds the reference replay, fresh.
	mk   func() (*replayRun, error)
	ref  *replayRun
	fast *fastPath
	// done are the syncs the fast path replayed, to be replayed again by
	// the reference if it misses one later.
	done []actualSync
	// check is the reference replay kept in step with the fast one
	// (checkFastReplay).
	check *replayRun
}

type actualSync struct {
	k int
	n int32
}

// actualFastServed counts the actual curves the fast path replayed to
// their end (the tests read it).
var actualFastServed atomic.Int64

// newActualReplay replays on r's fast path when r is given and the fast
// path serves the HPA as it is.
func newActualReplay(r *Replayer, mk func() (*replayRun, error)) (*actualReplay, error) {
	p, err := mk()
	if err != nil {
		return nil, err
	}
	a := &actualReplay{mk: mk, ref: p}
	if r == nil || !fastReplay {
		return a, nil
	}
	sh := r.fastShared(p)
	if sh.miss != "" {
		return a, nil
	}
	f, miss := newFastPath(p, sh)
	if miss != "" {
		return a, nil
	}
	a.fast = f
	if checkFastReplay {
		if a.check, err = mk(); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// syncAt is replayRun.syncAt.
func (a *actualReplay) syncAt(k int, n int32) (syncOutcome, error) {
	if a.fast != nil {
		o, miss := a.fast.syncAt(k, n)
		if miss == "" {
			a.done = append(a.done, actualSync{k, n})
			if a.check != nil {
				want, err := a.check.syncAt(k, n)
				if err != nil {
					panic(fmt.Sprintf("the reference replay of the actual curve failed where the fast one did not: %v", err))
				}
				if !reflect.DeepEqual(want, o) {
					panic(fmt.Sprintf("fast replay of the actual curve: sync %d decided %+v, the reference %+v", k, o, want))
				}
			}
			return o, nil
		}
		fastFellBack.Add(1)
		ref, err := a.mk()
		if err != nil {
			return syncOutcome{}, err
		}
		for _, s := range a.done {
			if _, err := ref.syncAt(s.k, s.n); err != nil {
				return syncOutcome{}, err
			}
		}
		a.ref, a.fast, a.done, a.check = ref, nil, nil, nil
	}
	return a.ref.syncAt(k, n)
}

// finish counts an actual curve the fast path replayed to its end.
func (a *actualReplay) finish() {
	if a.fast != nil && len(a.done) > 0 {
		actualFastServed.Add(1)
	}
}
