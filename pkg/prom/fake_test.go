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
)

// fakeProm answers /api/v1/query_range and /api/v1/query like
// Prometheus's HTTP API (JSON envelopes, matrix and vector results,
// errorType/error, warnings), from series generators registered per exact
// query: a query nobody registered is answered as bad_data and fails the
// test, which is how the tests hold the PromQL to its exact text.
type fakeProm struct {
	t      testing.TB
	mu     sync.Mutex
	ranges map[string][]fakeSeries
	// instants answer instant queries: the series' values at the time.
	instants map[string][]fakeSeries
	// fail answers a query with an error: status code and envelope.
	fail map[string]fakeFailure
	// warnings are added to every answer.
	warnings []string
	// shift moves every returned timestamp (a query frontend aligning).
	shift time.Duration
	// log records the requests.
	log []fakeRequest
	// maxPoints is Prometheus's limit of points per series.
	maxPoints int
	// strict fails the test on an unknown query; else it answers empty.
	strict bool
}

type fakeSeries struct {
	labels map[string]string
	// at is the value at t, and whether there is one.
	at func(t time.Time) (float64, bool)
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
}

func newFakeProm(tb testing.TB) (*fakeProm, *httptest.Server) {
	tb.Helper()
	f := &fakeProm{t: tb, ranges: map[string][]fakeSeries{}, instants: map[string][]fakeSeries{}, fail: map[string]fakeFailure{}, maxPoints: 11000, strict: true}
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
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	q := r.Form.Get("query")
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
	f.mu.Lock()
	f.log = append(f.log, req)
	failure, failed := f.fail[q]
	series, known := f.ranges[q]
	if !isRange {
		series, known = f.instants[q]
	}
	warnings := f.warnings
	shift := f.shift
	f.mu.Unlock()

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
