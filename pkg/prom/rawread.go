// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/common/model"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// The container counters are read raw: an instant query of the selector
// over a range (SELECTOR[D] at T) answers every sample the store holds in
// the D before T, each with its own timestamp, so the recording gets the
// counters as the store scraped them and Resample works out the samples
// metrics-server served at its own scrapes (an irate on the sync grid is
// the rate at the store's scrape phase instead, which moves a step of the
// load into another sync). A period is read in consecutive pieces, each
// sample appended to its pod's and container's recording.Raw as it is
// decoded.

// rawOverlap is how long two series of one pod and container may both
// have samples before they are taken for a duplicate, in store intervals:
// a restarted container is a new cAdvisor series (another cgroup id), and
// the old one may still be scraped once or twice after the new one began.
const rawOverlap = 2

// rawPiece is one series of a pod's container: the only one unless the
// container restarted under cAdvisor (or the store's labels changed),
// when each series is a piece of the container's samples, joined in time
// order at the end of the read.
type rawPiece struct {
	key string
	raw recording.Raw
	// chunk is the last piece of the read the series came in, and first,
	// last and n the span and count of its samples there (first -1: none).
	chunk       int
	first, last int64
	n           int
}

// rawSlot is one pod's container: its pieces, and the last piece of the
// read any of them came in.
type rawSlot struct {
	pieces []*rawPiece
	chunk  int
}

// rawReader is one raw read in progress.
type rawReader struct {
	rd      *reader
	out     *readOut
	what    string
	counter bool
	match   *podMatcher
	slots   map[string]map[string]*rawSlot
	// kept tells, for each label set returned, whether it was the
	// workload's.
	kept map[string]bool
	// active are the slots that had a series in the current chunk.
	active []*rawSlot
	chunk  int
	// duplicate is a label set that came twice in one chunk.
	duplicate string
	infinite  int
	// untilMs, chunkEndMs and intervalMs size the series' growth: the
	// read's end, the current chunk's, the store's interval.
	untilMs, chunkEndMs, intervalMs int64
}

// readRaw reads one resource metric's raw container series over the
// period and the margin before it, into metric.Raw; its warnings and
// sparse stretch go to out. It returns how many series were kept and how
// many left out (other pods'). The samples come through the remote-read
// API where the server serves it, else through the query API
// (remoteread.go): a remote read that was not served starts again
// through the query API, and the client keeps to that.
func (rd *reader) readRaw(ctx context.Context, out *readOut, r rangeRead, st *readState) (kept, dropped int, err error) {
	if !rd.c.remoteOff.Load() {
		kept, dropped, err = rd.readRawVia(ctx, out, r, st, true)
		var no *remoteRefusedError
		if !errors.As(err, &no) {
			return kept, dropped, err
		}
		rd.c.remoteOff.Store(true)
		out.warnings, out.sparse = nil, nil
	}
	return rd.readRawVia(ctx, out, r, st, false)
}

// readRawVia is readRaw through the remote-read API or the query API.
func (rd *reader) readRawVia(ctx context.Context, out *readOut, r rangeRead, st *readState, remote bool) (kept, dropped int, err error) {
	budget := rd.req.PointBudget
	if budget <= 0 {
		budget = DefaultPointBudget
	}
	interval := rd.interval
	from, until := rd.rawSpan()
	rr := &rawReader{
		rd: rd, out: out, what: r.what, counter: r.raw.Cumulative, match: st.match,
		slots: map[string]map[string]*rawSlot{}, kept: map[string]bool{},
		untilMs: until.UnixMilli(), intervalMs: max(1, interval.Milliseconds()),
	}
	// The first chunk is sized for the pods known, one series per
	// container, and holds at most MaxPoints samples of each series (the
	// pods known may be far fewer than those the period had: without
	// kube-state-metrics, the live ones); the next ones are sized for the
	// series the previous one had.
	series := max(1, len(rd.req.Pods), len(st.pods.byName)) * max(1, len(rd.req.Template))
	maxPoints := rd.req.MaxPoints
	if maxPoints <= 0 {
		maxPoints = MaxPointsPerSeries
	}
	total := until.Sub(from)
	for t := from; t.Before(until); {
		rr.chunk++
		d := time.Duration(float64(budget) / float64(series) * float64(interval)).Truncate(time.Millisecond)
		if rr.chunk == 1 {
			d = min(d, time.Duration(maxPoints)*interval)
		}
		d = min(max(d, interval, time.Millisecond), until.Sub(t))
		end := t.Add(d)
		rr.active, rr.chunkEndMs = rr.active[:0], end.UnixMilli()
		var n int
		var warnings []string
		if remote {
			n, err = rd.c.remoteRaw(ctx, r.what, r.query, d, end, rr.fold)
		} else {
			n, warnings, err = rd.c.queryRaw(ctx, r.what, r.query, d, end, rr.fold)
		}
		rd.requested()
		if err != nil {
			return 0, 0, err
		}
		if err := rr.checkChunk(rawQuery(r.query, d)); err != nil {
			return 0, 0, err
		}
		out.warnings = append(out.warnings, warnings...)
		if r.usage && out.sparse == nil {
			rr.noteSparse(t, end)
		}
		series = max(1, n)
		done := int64(float64(rd.req.Len) * float64(end.Sub(from)) / float64(total))
		rd.advance(out, max(0, done-out.done), r.what)
		t = end
	}
	rd.advance(out, int64(rd.req.Len)-out.done, "")
	if rr.infinite > 0 {
		out.warnings = append(out.warnings, fmt.Sprintf("%s: %d samples were +Inf or -Inf; they were left out", r.what, rr.infinite))
	}
	r.raw.Raw = rr.join()
	for _, k := range rr.kept {
		if k {
			kept++
		} else {
			dropped++
		}
	}
	return kept, dropped, nil
}

// rawSpan is what a raw read covers: from two windows and two store
// intervals before the start (the first instants' samples are rates
// between scrapes up to two windows back, worked out from the store's
// samples around them) to a store interval after the last instant (the
// sample after the last scrape, which the counter is interpolated
// towards).
func (rd *reader) rawSpan() (from, until time.Time) {
	margin := (2*rd.req.Window + 2*rd.interval).Round(time.Millisecond)
	return rd.g.start.Add(-margin), rd.g.at(rd.g.n - 1).Add(rd.interval.Round(time.Millisecond))
}

// fold is the sink of one series of a chunk: its pod's and container's
// piece for the series' label set.
func (rr *rawReader) fold(lbl model.Metric) func(model.Time, float64) {
	key := lbl.String()
	pod, container := string(lbl["pod"]), string(lbl["container"])
	if pod == "" || container == "" || container == "POD" || !rr.match.Match(pod) {
		if _, ok := rr.kept[key]; !ok {
			rr.kept[key] = false
		}
		return nil
	}
	rr.kept[key] = true
	byC := rr.slots[pod]
	if byC == nil {
		byC = map[string]*rawSlot{}
		rr.slots[strings.Clone(pod)] = byC
	}
	slot := byC[container]
	if slot == nil {
		slot = &rawSlot{}
		byC[strings.Clone(container)] = slot
	}
	var p *rawPiece
	for _, x := range slot.pieces {
		if x.key == key {
			p = x
			break
		}
	}
	if p == nil {
		p = &rawPiece{key: key}
		slot.pieces = append(slot.pieces, p)
	}
	if p.chunk == rr.chunk {
		// One label set twice in one answer (a Thanos without
		// deduplication): either would replay a wrong load.
		if rr.duplicate == "" {
			rr.duplicate = key
		}
		return nil
	}
	p.chunk, p.first, p.n = rr.chunk, -1, 0
	if slot.chunk != rr.chunk {
		slot.chunk = rr.chunk
		rr.active = append(rr.active, slot)
	}
	return func(ts model.Time, v float64) {
		if math.IsNaN(v) {
			return
		}
		if math.IsInf(v, 0) {
			rr.infinite++
			return
		}
		ms := int64(ts)
		if p.first < 0 {
			p.first = ms
		}
		p.last = ms
		p.n++
		rr.append(&p.raw, ms, v)
	}
}

// append adds a sample to a series. A series that is full grows by the
// samples the rest of the chunk should bring, or by doubling when that
// is more, but never past the samples the rest of the read should bring
// (append's quarter steps would allocate several times a long series'
// size); join gives the series their slack back.
func (rr *rawReader) append(r *recording.Raw, ms int64, v float64) {
	if n := len(r.T); n == cap(r.T) || n == cap(r.V) {
		rest := max(0, (rr.untilMs-ms)/rr.intervalMs) + 2
		chunk := max(0, (rr.chunkEndMs-ms)/rr.intervalMs) + 2
		want := n + int(min(rest, max(chunk, int64(n), 16)))
		r.T = slices.Grow(r.T, want-n)
		r.V = slices.Grow(r.V, want-n)
	}
	r.Append(ms, v, rr.counter)
}

// checkChunk fails the read when a chunk had one label set twice, or two
// series of one pod and container over one stretch (two scrapes of one
// kubelet, two replicas of a store not deduplicated): a raw selector keeps
// every label, so where an aggregation would have folded them, the read
// would replay one or the other.
func (rr *rawReader) checkChunk(query string) error {
	dup := func(msg string) error {
		return &QueryError{Endpoint: rr.rd.c.endpoint.String(), What: rr.what, Query: query, Err: fmt.Errorf("%s (deduplicate the store's replicas, e.g. Thanos' dedup, or scrape each kubelet once)", msg)}
	}
	if rr.duplicate != "" {
		return dup(fmt.Sprintf("the answer has the series %s twice", oneLine(rr.duplicate)))
	}
	tolerance := rawOverlap * rr.intervalMs
	var now []*rawPiece
	for _, slot := range rr.active {
		now = now[:0]
		for _, p := range slot.pieces {
			if p.chunk == rr.chunk && p.first >= 0 {
				now = append(now, p)
			}
		}
		if len(now) < 2 {
			continue
		}
		slices.SortFunc(now, func(a, b *rawPiece) int { return cmp.Compare(a.first, b.first) })
		reach := now[0]
		for _, p := range now[1:] {
			if reach.last-p.first > tolerance {
				return dup(fmt.Sprintf("the answer has two series of one container over the same time, %s and %s", oneLine(reach.key), oneLine(p.key)))
			}
			if p.last > reach.last {
				reach = p
			}
		}
	}
	return nil
}

// noteSparse records the chunk from t to end as too sparse when its
// series hold fewer than half the samples the store's interval gives over
// their spans (a downsampled long-term store past its raw retention).
func (rr *rawReader) noteSparse(t, end time.Time) {
	var present, expected int64
	for _, slot := range rr.active {
		for _, p := range slot.pieces {
			if p.chunk == rr.chunk && p.first >= 0 {
				present += int64(p.n)
				expected += (p.last-p.first)/rr.intervalMs + 1
			}
		}
	}
	if expected < 40 || float64(present) >= 0.5*float64(expected) {
		return
	}
	rd := rr.rd
	from, _ := rd.rec.Index(t)
	to, ok := rd.rec.Index(end)
	if !ok {
		return
	}
	rr.out.sparse = &sparseSpan{from: from, to: to, density: float64(present) / float64(expected), what: rr.what, interval: rd.interval}
}

// join gives each pod's container one series: its only piece, trimmed,
// or its pieces one after the other in time order (a sample of a later
// piece at or before the last one kept is dropped; a counter that starts
// again below the last value is a reset, as within a series).
func (rr *rawReader) join() map[string]map[string]*recording.Raw {
	out := make(map[string]map[string]*recording.Raw, len(rr.slots))
	for pod, byC := range rr.slots {
		for c, slot := range byC {
			pieces := slices.DeleteFunc(slot.pieces, func(p *rawPiece) bool { return p.raw.Len() == 0 })
			var r *recording.Raw
			switch len(pieces) {
			case 0:
				continue
			case 1:
				// A copy: the piece, its label set with it, is dropped.
				r = &recording.Raw{T: pieces[0].raw.T, V: pieces[0].raw.V}
				if cap(r.T) > len(r.T)+len(r.T)/4+64 {
					r.T, r.V = slices.Clone(r.T), slices.Clone(r.V)
				}
			default:
				slices.SortFunc(pieces, func(a, b *rawPiece) int { return cmp.Compare(a.raw.T[0], b.raw.T[0]) })
				n := 0
				for _, p := range pieces {
					n += p.raw.Len()
				}
				r = &recording.Raw{T: make([]int64, 0, n), V: make([]float64, 0, n)}
				for _, p := range pieces {
					for i, ms := range p.raw.T {
						r.Append(ms, p.raw.V[i], rr.counter)
					}
				}
			}
			if out[pod] == nil {
				out[pod] = map[string]*recording.Raw{}
			}
			out[pod][c] = r
		}
	}
	return out
}

// rawFirst is the first raw sample of any pod of the workload, and false
// when no raw read found one.
func (rd *reader) rawFirst() (time.Time, bool) {
	first := int64(math.MaxInt64)
	for i := range rd.rec.Metrics {
		for _, byC := range rd.rec.Metrics[i].Raw {
			for _, r := range byC {
				if r.Len() > 0 {
					first = min(first, r.T[0])
				}
			}
		}
	}
	if first == math.MaxInt64 {
		return time.Time{}, false
	}
	return time.UnixMilli(first), true
}

// resample turns the raw reads into the samples metrics-server served at
// each instant (Request.Window, Request.ScrapeAnchor), and notes the
// first instant with data.
func (rd *reader) resample() {
	raw := false
	for i := range rd.rec.Metrics {
		raw = raw || rd.rec.Metrics[i].Raw != nil
	}
	if !raw {
		return
	}
	rd.rec.Resample(rd.req.scrapes(rd.g.start))
	for i := range rd.rec.Metrics {
		m := &rd.rec.Metrics[i]
		if m.Raw == nil {
			continue
		}
		for _, byC := range m.PerPod {
			for _, s := range byC {
				rd.seen(s.First)
			}
		}
	}
}
