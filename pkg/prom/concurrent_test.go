// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// slowServer serves next after a pause, and records how many requests
// were open at once.
type slowServer struct {
	next  http.Handler
	pause time.Duration
	mu    sync.Mutex
	open  int
	most  int
}

func (s *slowServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.open++
	s.most = max(s.most, s.open)
	s.mu.Unlock()
	time.Sleep(s.pause)
	s.next.ServeHTTP(w, r)
	s.mu.Lock()
	s.open--
	s.mu.Unlock()
}

// readAtConcurrency reads req from a fresh fake set up by scenario, its
// answers each 5 ms late, with req.Concurrency = c: the recording (or the
// error), the progress reported, and the most requests open at once.
func readAtConcurrency(t *testing.T, req Request, c int, scenario func(*fakeProm, Request)) (*recording.Recording, string, []Progress, int) {
	t.Helper()
	f, _ := newFakeProm(t)
	scenario(f, req)
	slow := &slowServer{next: f, pause: 5 * time.Millisecond}
	srv := httptest.NewServer(slow)
	t.Cleanup(srv.Close)
	var seen []Progress
	req.Progress = func(p Progress) { seen = append(seen, p) }
	req.Concurrency = c
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	slow.mu.Lock()
	defer slow.mu.Unlock()
	msg := ""
	if err != nil {
		// Each read has a server of its own.
		msg = strings.ReplaceAll(err.Error(), srv.URL, "URL")
	}
	return rec, msg, seen, slow.most
}

// The range and raw reads run at once (up to Request.Concurrency, the raw
// ones one after the other) and give the recording, the sources, the
// warnings, the progress totals and the errors of the reads one after the
// other.
func TestReadsAtOnce(t *testing.T) {
	withMemory := func(req Request) Request {
		req.Metrics = append(req.Metrics, MetricRequest{Kind: recording.KindResource, Name: "memory"})
		return req
	}
	ksmMemory := func(f *fakeProm, req Request) {
		ksmScenario(f, req)
		q := queriesFor(req, "web-5d4f8", "web-7c9bb")
		early, every := t0.Add(-time.Hour), 15*time.Second
		f.onRaw(q.rawMemory(),
			rawEvery(cadvisor(metricMemory, "web-7c9bb-d2f4g", "app"), early, at("20m"), every, constant(2e8)),
			rawEvery(cadvisor(metricMemory, "web-5d4f8-k2x9p", "app"), early, at("2h"), every, constant(1.5e8)),
			rawEvery(cadvisor(metricMemory, "web-5d4f8-h7q4m", "app"), at("12m15s"), at("2h"), every, constant(1e8)))
	}
	failReady := func(f *fakeProm, req Request) {
		ksmScenario(f, req)
		f.fail[queriesFor(req, "web-5d4f8", "web-7c9bb").ready()] = fakeFailure{code: 422, errorType: "execution", msg: "the readiness is gone"}
	}
	for _, c := range []struct {
		name     string
		req      Request
		scenario func(*fakeProm, Request)
		wantErr  string
	}{
		{"kube-state-metrics, cpu", baseRequest(), ksmScenario, ""},
		{"kube-state-metrics, cpu and memory", withMemory(baseRequest()), ksmMemory, ""},
		{"a range read fails", baseRequest(), failReady, "read pod readiness: execution: the readiness is gone"},
	} {
		t.Run(c.name, func(t *testing.T) {
			one, oneErr, oneSeen, oneMost := readAtConcurrency(t, c.req, 1, c.scenario)
			if oneMost != 1 {
				t.Errorf("one at a time: %d requests open at once", oneMost)
			}
			for _, conc := range []int{0, 2, 8} {
				rec, err, seen, most := readAtConcurrency(t, c.req, conc, c.scenario)
				if c.wantErr != "" {
					if err == "" || err != oneErr {
						t.Errorf("concurrency %d: error %s; one at a time: %s", conc, err, oneErr)
					} else if !strings.Contains(err, c.wantErr) {
						t.Errorf("error %s, want %q", err, c.wantErr)
					}
					continue
				}
				if err != "" || oneErr != "" {
					t.Fatalf("concurrency %d: %s; one at a time: %s", conc, err, oneErr)
				}
				if most < 2 {
					t.Errorf("concurrency %d: at most %d request open at once", conc, most)
				}
				// Within rounding: the recording's total load sums the pods
				// in a map's order, which differs from read to read.
				if d := cmp.Diff(one, rec, cmpopts.EquateNaNs(), cmpopts.EquateApprox(0, 1e-12), cmp.Exporter(func(reflect.Type) bool { return true })); d != "" {
					t.Errorf("concurrency %d: the recording differs from the one read one read after the other (-want +got):\n%s", conc, d)
				}
				last, oneLast := seen[len(seen)-1], oneSeen[len(oneSeen)-1]
				if last != oneLast || last.Done != last.Total {
					t.Errorf("concurrency %d: last progress %+v; one at a time %+v", conc, last, oneLast)
				}
				for i := 1; i < len(seen); i++ {
					if seen[i].Done < seen[i-1].Done || seen[i].Requests < seen[i-1].Requests {
						t.Errorf("concurrency %d: progress goes back: %+v then %+v", conc, seen[i-1], seen[i])
					}
				}
			}
		})
	}
}
