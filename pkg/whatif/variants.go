// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// Variant returns a Replayer of the recording resampled as sc says
// (Recording.AtScrapes): the replays of tune's finalists under a variant
// of the recorded load, with the options r was given.
//
// The variants of one phase of the scrapes (the same scrapes but for
// their Scale: the load as recorded, a little lower, a little higher)
// differ in the samples' values alone:
//   - they are resampled together, once (Recording.AtScrapesEach: the
//     first Variant of a phase resamples every variant of it that
//     Recording.Variants lists, and r keeps the others' recordings, which
//     share the samples, until they are asked for);
//   - which pods exist, are ready and report at each sync is the same for
//     all of them, so the fast replays' part that lays those pods out
//     (fastShared, less the accounting of the samples' values) is worked
//     out once per phase: by r itself where r's recording is at that
//     phase, else by the first variant of the phase, which r keeps for the
//     next ones.
//
// r keeps the last phase's alone: tune replays the variants one after the
// other, a phase's together.
func (r *Replayer) Variant(sc recording.Scrapes) (*Replayer, error) {
	rec := r.phaseRecording(sc)
	v, err := NewReplayer(r.snap, rec, r.set, r.given)
	if err != nil {
		return nil, err
	}
	v.parent, v.phase = r, scrapePhase(sc)
	return v, nil
}

// phaseRecording is r's recording resampled at sc: one r keeps from the
// resampling of sc's phase, or that resampling, done now, the others of
// the phase kept.
func (r *Replayer) phaseRecording(sc recording.Scrapes) *recording.Recording {
	r.keptMu.Lock()
	defer r.keptMu.Unlock()
	for i, k := range r.keptRecs {
		if k.at == sc {
			// Deleted, not resliced: a recording taken is not held on.
			r.keptRecs = slices.Delete(r.keptRecs, i, i+1)
			return k.rec
		}
	}
	var phase []recording.Scrapes
	for _, v := range r.rec.Variants() {
		if scrapePhase(v.Scrapes) == scrapePhase(sc) && v.Scrapes != sc {
			phase = append(phase, v.Scrapes)
		}
	}
	// The last phase's recordings are let go before this one's are made,
	// and, when their samples are large, collected: their arrays (66 MB a
	// month of 50 pods) are then free for this phase's, which have the
	// same sizes. Left to the collector's pace, this phase's would be
	// allocated before the last one's are collected, and the process
	// would hold both: 476-482 MiB of peak RSS for the month's tune
	// (BenchmarkTuneMonth) where it held up to 537 MiB without
	// (docs/performance.md); for the week's, 257 MiB where it held 290
	// (kubectl hpa tune --since 7d from a real Prometheus). Smaller
	// samples are left to the pace: a collection marks the whole heap,
	// and a fleet tunes a hundred HPAs of a day each in one process.
	r.keptRecs = nil
	if phaseBytes(r.rec) >= collectPhaseBytes {
		runtime.GC()
	}
	recs := r.rec.AtScrapesEach(append([]recording.Scrapes{sc}, phase...))
	for i, at := range phase {
		r.keptRecs = append(r.keptRecs, keptRecording{at: at, rec: recs[i+1]})
	}
	return recs[0]
}

// collectPhaseBytes is the size of a phase's samples from which the last
// phase's are collected before it is resampled (phaseRecording).
const collectPhaseBytes = 8 << 20

// phaseBytes is about what the samples of a phase of rec take once
// resampled: a float64 of every raw series at every instant.
func phaseBytes(rec *recording.Recording) int {
	series := 0
	for i := range rec.Metrics {
		for _, byC := range rec.Metrics[i].Raw {
			series += len(byC)
		}
	}
	return series * rec.Len * 8
}

// keptRecording is a variant's recording resampled beside another of its
// phase.
type keptRecording struct {
	at  recording.Scrapes
	rec *recording.Recording
}

// scrapePhase is sc but for its Scale.
func scrapePhase(sc recording.Scrapes) recording.Scrapes {
	sc.Scale = 0
	return sc
}

// phaseShared is the shared part of the pods of variant v's phase, laid
// out with the same delays (PodStartup, SampleDelay: estimated from each
// variant's recording where not given): r's own when r's recording is at
// that phase and its shared part is built, else the one keepPhase kept;
// nil when neither (r nil: none).
func (r *Replayer) phaseShared(v *Replayer) *fastShared {
	if r == nil {
		return nil
	}
	if own, ok := r.rec.ResampledAt(); ok && scrapePhase(own) == v.phase && delaysOf(r.opts) == delaysOf(v.opts) {
		if built := r.fastBuilt.Load(); built != nil {
			return built
		}
	}
	r.keptMu.Lock()
	defer r.keptMu.Unlock()
	if r.kept != nil && r.keptPhase == v.phase && r.keptDelays == delaysOf(v.opts) {
		return r.kept
	}
	return nil
}

// delaysOf is the delays a replay's pods are laid out with.
func delaysOf(o BacktestOptions) [2]time.Duration {
	return [2]time.Duration{o.PodStartup, o.SampleDelay}
}

// keepPhase keeps the shared part variant v built for the next variants
// of its phase, in place of the one kept before (r nil: none).
func (r *Replayer) keepPhase(v *Replayer) {
	if r == nil {
		return
	}
	kept := v.fast.forVariant(nil)
	r.keptMu.Lock()
	r.kept, r.keptPhase, r.keptDelays = kept, v.phase, delaysOf(v.opts)
	r.keptMu.Unlock()
}

// forVariant is sh for another variant of its phase, whose replay
// scratch reads its own samples: the pods as sh laid them out, shared
// (read only), and the accounting of each resource's samples left to be
// worked out anew.
func (sh *fastShared) forVariant(scratch *replayRun) *fastShared {
	out := *sh
	nr := len(sh.exact)
	out.exact, out.missReq, out.exactOnce, out.scratch = make([][]podSums, nr), make([][]int64, nr), make([]sync.Once, nr), scratch
	return &out
}
