// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"math"
	"time"

	"github.com/prometheus/common/model"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// grid is the instants of a recording.
type grid struct {
	start   time.Time
	step    time.Duration
	n       int
	startMs int64
	stepMs  int64
}

func newGrid(start time.Time, step time.Duration, n int) grid {
	return grid{start: start, step: step, n: n, startMs: start.UnixMilli(), stepMs: step.Milliseconds()}
}

func (g grid) at(k int) time.Time { return g.start.Add(time.Duration(k) * g.step) }

// index maps a sample's timestamp to its instant: the nearest one, exact
// when it falls on it.
func (g grid) index(ts model.Time) (k int, exact, ok bool) {
	d := int64(ts) - g.startMs
	k64 := int64(math.Round(float64(d) / float64(g.stepMs)))
	if k64 < 0 || k64 >= int64(g.n) {
		return 0, false, false
	}
	return int(k64), k64*g.stepMs == d, true
}

// replicaHistory turns the replicas read at each instant into changes.
func replicaHistory(g grid, s *recording.Series, query string) recording.ReplicaHistory {
	h := recording.ReplicaHistory{Source: recording.SourceKubeStateMetrics, Detail: query}
	last := int32(-1)
	for i, v := range s.Values {
		if math.IsNaN(v) {
			continue
		}
		n := int32(v)
		if n != last {
			h.Changes = append(h.Changes, recording.ReplicaChange{At: g.at(s.First + i), Replicas: n})
			last = n
		}
	}
	return h
}
