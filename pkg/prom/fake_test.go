// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"math"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/common/model"
)

// fakeProm answers /api/v1/query_range and /api/v1/query like
// Prometheus's HTTP API (JSON envelopes, matrix and vector results,
// errorType/error, warnings), from series generators registered per exact
// query: a query nobody registered is answered as bad_data and fails the
// test, which is how the tests hold the PromQL to its exact text. An
// instant query of a range selector (SELECTOR[D]) is answered from the raw
// samples registered for the selector: those in the D before the time,
// each with its own timestamp.
type fakeProm struct {
	t      testing.TB
	mu     sync.Mutex
	ranges map[string][]fakeSeries
	// instants answer instant queries: the series' values at the time.
	instants map[string][]fakeSeries
	// raws answer SELECTOR[D] instant queries, by selector.
	raws map[string][]fakeRaw
	// inclusive answers a range selector's samples at its very start too
	// (Prometheus before 3.0: [T−D, T] rather than (T−D, T]).
	inclusive bool
	// fail answers a query with an error: status code and envelope.
	fail map[string]fakeFailure
	// warnings are added to every answer.
	warnings []string
	// shift moves every returned timestamp (a query frontend aligning).
	shift time.Duration
	// scope is the cluster label's matcher every query must hold (a store
	// of many clusters); it is taken out before the query is answered as
	// one of a single cluster's store.
	scope string
	// log records the requests.
	log []fakeRequest
	// maxPoints is Prometheus's limit of points per series.
	maxPoints int
	// strict fails the test on an unknown query; else it answers empty.
	strict bool
	// remote says how /api/v1/read answers (remoteread_test.go): as
	// Prometheus does (the zero value), or not at all.
	remote fakeRemote
}

type fakeSeries struct {
	labels map[string]string
	// at is the value at t, and whether there is one.
	at func(t time.Time) (float64, bool)
}

// fakeRaw is a series of raw samples: one every every from from until to
// (exclusive), valued by v (false: none there), and points answered as
// they are, in their order, when in the range asked.
type fakeRaw struct {
	labels   map[string]string
	from, to time.Time
	every    time.Duration
	v        func(time.Time) (float64, bool)
	points   []rawPoint
	// dense: v has a value at every tick, so the n-th sample is at
	// from + n×every (a fake store can find a chunk's first sample
	// without walking the series from its start).
	dense bool
}

type rawPoint struct {
	t time.Time
	v float64
}

// each calls fn with the series' samples after lo (at lo too when
// inclusive) and at or before hi, oldest first but for the points, which
// come last as they are.
func (s fakeRaw) each(lo, hi time.Time, inclusive bool, fn func(rawPoint)) {
	in := func(t time.Time) bool { return (t.After(lo) || inclusive && t.Equal(lo)) && !t.After(hi) }
	if s.every > 0 && s.v != nil {
		k := int64(0)
		if d := lo.Sub(s.from); d > 0 {
			k = int64(d / s.every)
		}
		for t := s.from.Add(time.Duration(k) * s.every); t.Before(s.to) && !t.After(hi); t = t.Add(s.every) {
			if !in(t) {
				continue
			}
			if v, ok := s.v(t); ok {
				fn(rawPoint{t, v})
			}
		}
	}
	for _, p := range s.points {
		if in(p.t) {
			fn(p)
		}
	}
}

type fakeFailure struct {
	code      int
	errorType string
	msg       string
	raw       string // a body that is not an envelope
}

type fakeRequest struct {
	path, query      string
	start, end, time time.Time
	step             time.Duration
	method           string
	// selector and rng are a raw read's selector and range.
	selector string
	rng      time.Duration
}

func newFakeProm(tb testing.TB) (*fakeProm, *httptest.Server) {
	tb.Helper()
	f := &fakeProm{t: tb, ranges: map[string][]fakeSeries{}, instants: map[string][]fakeSeries{}, raws: map[string][]fakeRaw{}, fail: map[string]fakeFailure{}, maxPoints: 11000, strict: true}
	srv := httptest.NewServer(f)
	tb.Cleanup(srv.Close)
	return f, srv
}

func parseUnix(s string) time.Time {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return time.Time{}
	}
	return time.UnixMilli(int64(math.Round(v * 1000))).UTC()
}

func (f *fakeProm) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/api/v1/read") {
		f.serveRemote(w, r)
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	q := r.Form.Get("query")
	if f.scope != "" {
		if !strings.Contains(q, f.scope) {
			f.t.Errorf("a query without the cluster's matcher %s: %s", f.scope, q)
		}
		q = strings.ReplaceAll(strings.ReplaceAll(q, ","+f.scope, ""), "{"+f.scope+"}", "")
	}
	req := fakeRequest{path: r.URL.Path, query: q, method: r.Method}
	isRange := strings.HasSuffix(r.URL.Path, "/api/v1/query_range")
	switch {
	case isRange:
		req.start, req.end = parseUnix(r.Form.Get("start")), parseUnix(r.Form.Get("end"))
		step, _ := strconv.ParseFloat(r.Form.Get("step"), 64)
		req.step = time.Duration(step * float64(time.Second))
	case strings.HasSuffix(r.URL.Path, "/api/v1/query"):
		req.time = parseUnix(r.Form.Get("time"))
	default:
		http.NotFound(w, r)
		return
	}
	var raws []fakeRaw
	rawKnown := false
	if !isRange {
		if sel, rng, ok := splitRaw(q); ok {
			req.selector, req.rng = sel, rng
			f.mu.Lock()
			raws, rawKnown = f.raws[sel]
			f.mu.Unlock()
		}
	}
	f.mu.Lock()
	f.log = append(f.log, req)
	failure, failed := f.fail[q]
	if !failed && req.selector != "" {
		failure, failed = f.fail[req.selector]
	}
	series, known := f.ranges[q]
	if !isRange {
		series, known = f.instants[q]
	}
	warnings := f.warnings
	shift := f.shift
	inclusive := f.inclusive
	f.mu.Unlock()
	if rawKnown && !failed {
		f.serveRaw(w, raws, req.time.Add(-req.rng), req.time, inclusive, warnings)
		return
	}

	if failed {
		if failure.raw != "" {
			w.WriteHeader(failure.code)
			_, _ = w.Write([]byte(failure.raw))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(failure.code)
		_, _ = w.Write([]byte(`{"status":"error","errorType":` + strconv.Quote(failure.errorType) + `,"error":` + strconv.Quote(failure.msg) + `}`))
		return
	}
	if isRange && req.step > 0 && int(req.end.Sub(req.start)/req.step) >= f.maxPoints {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"status":"error","errorType":"bad_data","error":"exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)"}`))
		return
	}
	if !known {
		if f.strict {
			f.t.Errorf("fake Prometheus: unknown query %q", q)
		}
		if f.strict {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"status":"error","errorType":"bad_data","error":"unknown query"}`))
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	buf := make([]byte, 0, 64<<10)
	flush := func() {
		if len(buf) > 48<<10 {
			_, _ = w.Write(buf)
			buf = buf[:0]
		}
	}
	buf = append(buf, `{"status":"success","data":{"resultType":`...)
	if isRange {
		buf = append(buf, `"matrix","result":[`...)
	} else {
		buf = append(buf, `"vector","result":[`...)
	}
	first := true
	for _, s := range series {
		if isRange {
			wrote := false
			for t := req.start; !t.After(req.end); t = t.Add(req.step) {
				v, ok := s.at(t)
				if !ok {
					continue
				}
				if !wrote {
					if !first {
						buf = append(buf, ',')
					}
					first = false
					buf = appendLabels(buf, s.labels)
					buf = append(buf, `,"values":[`...)
				} else {
					buf = append(buf, ',')
				}
				wrote = true
				buf = appendPoint(buf, t.Add(shift), v)
				flush()
			}
			if wrote {
				buf = append(buf, "]}"...)
			}
			continue
		}
		v, ok := s.at(req.time)
		if !ok {
			continue
		}
		if !first {
			buf = append(buf, ',')
		}
		first = false
		buf = appendLabels(buf, s.labels)
		buf = append(buf, `,"value":`...)
		buf = appendPoint(buf, req.time, v)
		buf = append(buf, '}')
	}
	buf = append(buf, "]}"...)
	if len(warnings) > 0 {
		buf = append(buf, `,"warnings":[`...)
		for i, s := range warnings {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendQuote(buf, s)
		}
		buf = append(buf, ']')
	}
	buf = append(buf, '}')
	_, _ = w.Write(buf)
}

// splitRaw splits SELECTOR[D] into the selector and the range.
func splitRaw(q string) (string, time.Duration, bool) {
	if !strings.HasSuffix(q, "]") {
		return "", 0, false
	}
	i := strings.LastIndex(q, "[")
	if i < 0 {
		return "", 0, false
	}
	d, err := model.ParseDuration(q[i+1 : len(q)-1])
	if err != nil {
		return "", 0, false
	}
	return q[:i], time.Duration(d), true
}

// serveRaw answers a raw read: each series' samples in the range, as a
// matrix.
func (f *fakeProm) serveRaw(w http.ResponseWriter, raws []fakeRaw, lo, hi time.Time, inclusive bool, warnings []string) {
	w.Header().Set("Content-Type", "application/json")
	buf := make([]byte, 0, 64<<10)
	buf = append(buf, `{"status":"success","data":{"resultType":"matrix","result":[`...)
	first := true
	for _, s := range raws {
		wrote := false
		s.each(lo, hi, inclusive, func(p rawPoint) {
			if !wrote {
				if !first {
					buf = append(buf, ',')
				}
				first = false
				buf = appendLabels(buf, s.labels)
				buf = append(buf, `,"values":[`...)
			} else {
				buf = append(buf, ',')
			}
			wrote = true
			buf = appendPoint(buf, p.t, p.v)
			if len(buf) > 48<<10 {
				_, _ = w.Write(buf)
				buf = buf[:0]
			}
		})
		if wrote {
			buf = append(buf, "]}"...)
		}
	}
	buf = append(buf, "]}"...)
	if len(warnings) > 0 {
		buf = append(buf, `,"warnings":[`...)
		for i, s := range warnings {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendQuote(buf, s)
		}
		buf = append(buf, ']')
	}
	buf = append(buf, '}')
	_, _ = w.Write(buf)
}

func appendLabels(buf []byte, labels map[string]string) []byte {
	buf = append(buf, `{"metric":{`...)
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendQuote(buf, k)
		buf = append(buf, ':')
		buf = strconv.AppendQuote(buf, labels[k])
	}
	return append(buf, '}')
}

func appendPoint(buf []byte, t time.Time, v float64) []byte {
	buf = append(buf, '[')
	buf = strconv.AppendFloat(buf, float64(t.UnixMilli())/1000, 'f', -1, 64)
	buf = append(buf, `,"`...)
	buf = strconv.AppendFloat(buf, v, 'f', -1, 64)
	return append(buf, `"]`...)
}

// onRange and onInstant register series for an exact query.
func (f *fakeProm) onRange(query string, s ...fakeSeries) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ranges[query] = append(f.ranges[query], s...)
}

// onRaw registers raw series for a selector.
func (f *fakeProm) onRaw(selector string, s ...fakeRaw) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.raws[selector] = append(f.raws[selector], s...)
}

// rawRequests returns the logged raw reads of a selector.
func (f *fakeProm) rawRequests(selector string) []fakeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeRequest
	for _, r := range f.log {
		if r.selector == selector {
			out = append(out, r)
		}
	}
	return out
}

func (f *fakeProm) onInstant(query string, s ...fakeSeries) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.instants[query] = append(f.instants[query], s...)
}

// requests returns the logged requests of a query.
func (f *fakeProm) requests(query string) []fakeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeRequest
	for _, r := range f.log {
		if r.query == query {
			out = append(out, r)
		}
	}
	return out
}

// during is a series present from a to b (exclusive) with a value
// function.
func during(labels map[string]string, from, to time.Time, v func(time.Time) float64) fakeSeries {
	return fakeSeries{labels: labels, at: func(t time.Time) (float64, bool) {
		if t.Before(from) || !t.Before(to) {
			return 0, false
		}
		return v(t), true
	}}
}

func constant(c float64) func(time.Time) float64 { return func(time.Time) float64 { return c } }

func lbl(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// rawEvery is a raw series sampled every every from from until to, its
// value at t v(t).
func rawEvery(labels map[string]string, from, to time.Time, every time.Duration, v func(time.Time) float64) fakeRaw {
	return fakeRaw{labels: labels, from: from, to: to, every: every, v: func(t time.Time) (float64, bool) { return v(t), true }, dense: true}
}

// steady is a counter that grows at rate per second from zero at origin.
func steady(rate float64, origin time.Time) func(time.Time) float64 {
	return func(t time.Time) float64 { return rate * t.Sub(origin).Seconds() }
}

// ramp is a counter whose rate grows linearly, a + b per second since
// origin: its value is the rate's integral from origin.
func ramp(a, b float64, origin time.Time) func(time.Time) float64 {
	return func(t time.Time) float64 {
		s := t.Sub(origin).Seconds()
		return a*s + b*s*s/2
	}
}
