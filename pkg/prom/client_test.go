// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"bytes"
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

const vectorAnswer = `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1764165600,"1"]}]}}`

func TestServiceProxy(t *testing.T) {
	var seen *http.Request
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Clone(context.Background())
		switch {
		case strings.Contains(r.URL.Path, "/services/https:prom:web/proxy/api/v1/query"):
			_, _ = w.Write([]byte(vectorAnswer))
		case strings.Contains(r.URL.Path, "/services/down:9090/"):
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"no endpoints available for service \"down\"","reason":"ServiceUnavailable","code":503}`))
		case strings.Contains(r.URL.Path, "/services/secret:9090/"):
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"services \"secret\" is forbidden: User \"dev\" cannot get resource \"services/proxy\" in API group \"\" in the namespace \"monitoring\"","reason":"Forbidden","code":403}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer api.Close()
	kube := &rest.Config{Host: api.URL + "/k8s/clusters/c1", BearerToken: "kube-token"}

	c, err := NewClient(Config{Endpoint: "monitoring/https:prom:web", Headers: []string{"X-Scope-OrgID: team-a"}}, kube)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.instant(context.Background(), "a test", "up", t0); err != nil {
		t.Fatal(err)
	}
	if want := "/k8s/clusters/c1/api/v1/namespaces/monitoring/services/https:prom:web/proxy/api/v1/query"; seen.URL.Path != want {
		t.Errorf("path = %s; want %s", seen.URL.Path, want)
	}
	if seen.Header.Get("Authorization") != "Bearer kube-token" || seen.Header.Get("X-Scope-Orgid") != "team-a" {
		t.Errorf("headers = %v", seen.Header)
	}

	for _, c := range []struct{ endpoint, want string }{
		{"monitoring/down:9090", `prometheus monitoring/down:9090: read a test: server_error: server error: 503: no endpoints available for service "down" (query: up)`},
		{"monitoring/secret:9090", `needs get on services/proxy in namespace monitoring`},
	} {
		cl, err := NewClient(Config{Endpoint: c.endpoint}, kube)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = cl.instant(context.Background(), "a test", "up", t0)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line with %q", c.endpoint, err, c.want)
		}
	}
	if _, err := NewClient(Config{Endpoint: "monitoring/prom:9090"}, nil); err == nil || !strings.Contains(err.Error(), "no kubeconfig") {
		t.Errorf("a service without a kubeconfig: %v", err)
	}
}

func TestURLClientAuthAndTLS(t *testing.T) {
	var seen http.Header
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Clone()
		_, _ = w.Write([]byte(vectorAnswer))
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake the unknown CA fails
	defer srv.Close()
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	query := func(o Config) error {
		c, err := NewClient(o, nil)
		if err != nil {
			return err
		}
		_, _, err = c.instant(context.Background(), "a test", "up", t0)
		return err
	}
	if err := query(Config{Endpoint: srv.URL, CAFile: ca, BearerTokenFile: tokenFile, Headers: []string{"X-Scope-OrgID: a"}}); err != nil {
		t.Fatal(err)
	}
	if seen.Get("Authorization") != "Bearer from-file" || seen.Get("X-Scope-OrgID") != "a" {
		t.Errorf("headers = %v", seen)
	}
	if err := query(Config{Endpoint: srv.URL, InsecureSkipTLSVerify: true, BearerToken: "tok"}); err != nil || seen.Get("Authorization") != "Bearer tok" {
		t.Errorf("insecure: %v, %v", err, seen)
	}
	u := strings.Replace(srv.URL, "https://", "https://me:pw@", 1)
	if err := query(Config{Endpoint: u, CAFile: ca}); err != nil || !strings.HasPrefix(seen.Get("Authorization"), "Basic ") {
		t.Errorf("basic auth: %v, %v", err, seen)
	}
	err := query(Config{Endpoint: srv.URL})
	if err == nil || !strings.Contains(err.Error(), "cannot reach it") || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("an unknown CA: %v", err)
	}
	if err := query(Config{Endpoint: srv.URL, CAFile: tokenFile}); err == nil || !strings.Contains(err.Error(), "holds no PEM certificate") {
		t.Errorf("a CA file without a certificate: %v", err)
	}
}

func TestQueryErrors(t *testing.T) {
	f, srv := newFakeProm(t)
	f.fail["bad("] = fakeFailure{code: 400, errorType: "bad_data", msg: `invalid parameter "query": 1:5: parse error: unclosed left parenthesis`}
	f.fail["heavy"] = fakeFailure{code: 422, errorType: "execution", msg: "query processing would load too many samples into memory in query execution"}
	f.fail["down"] = fakeFailure{code: 503, raw: "Service Unavailable\nretry later"}
	f.fail["timeout"] = fakeFailure{code: 503, errorType: "timeout", msg: "query timed out in expression evaluation"}
	c := newTestClient(t, srv.URL)
	ep := srv.URL
	for _, tc := range []struct{ query, want string }{
		{"bad(", "prometheus " + ep + `: read cpu usage: bad_data: invalid parameter "query": 1:5: parse error: unclosed left parenthesis (query: bad()`},
		{"heavy", "prometheus " + ep + ": read cpu usage: execution: query processing would load too many samples into memory in query execution (query: heavy)"},
		{"down", "prometheus " + ep + ": read cpu usage: server_error: server error: 503: Service Unavailable (query: down)"},
		{"timeout", "prometheus " + ep + ": read cpu usage: server_error: server error: 503: query timed out in expression evaluation (query: timeout)"},
	} {
		_, _, err := c.queryRange(context.Background(), "cpu usage", tc.query, rangeOf(t0, 10), nil)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got: %v\nwant: %s", tc.query, err, tc.want)
		}
		var qe *QueryError
		if !errors.As(err, &qe) || qe.Query != tc.query {
			t.Errorf("%s: not a QueryError: %T", tc.query, err)
		}
	}

	// Unreachable.
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	_, _, err := newTestClient(t, deadURL).instant(context.Background(), "cpu usage", "up", t0)
	if err == nil || !strings.HasPrefix(err.Error(), "prometheus "+deadURL+": read cpu usage: cannot reach it: ") || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("unreachable: %v", err)
	}

	// Warnings fail the read unless allowed.
	f.onInstant("up", fakeSeries{labels: nil, at: func(time.Time) (float64, bool) { return 1, true }})
	f.warnings = []string{"PromQL warning: partial response: store gateway unavailable"}
	_, _, err = c.instant(context.Background(), "cpu usage", "up", t0)
	if err == nil || !strings.Contains(err.Error(), "the server warned: PromQL warning: partial response: store gateway unavailable (the data may be incomplete; --prometheus-allow-warnings keeps it) (query: up)") {
		t.Errorf("warning: %v", err)
	}
	_, w, err := newTestClient(t, srv.URL, func(o *Config) { o.AllowWarnings = true }).instant(context.Background(), "cpu usage", "up", t0)
	if err != nil || len(w) != 1 || w[0] != "cpu usage: PromQL warning: partial response: store gateway unavailable" {
		t.Errorf("allowed warning: %v, %q", err, w)
	}
}

func TestTimeoutAndCancel(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := newTestClient(t, srv.URL, func(o *Config) { o.Timeout = 50 * time.Millisecond })
	_, _, err := c.instant(context.Background(), "cpu usage", "up", t0)
	if err == nil || !strings.Contains(err.Error(), "no answer within 50ms (--prometheus-timeout)") {
		t.Errorf("timeout: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	_, _, err = newTestClient(t, srv.URL).instant(ctx, "cpu usage", "up", t0)
	if err == nil || !strings.Contains(err.Error(), ": canceled (query: up)") || !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "canceled") {
		t.Errorf("cancel: %v", err)
	}
}

// simpleScenario registers one pod of ReplicaSet web-5d4f8 with cpu and
// memory from from to to, read without kube-state-metrics, sampled at
// every step'th instant: the raw counter (0.2 core), the raw working set,
// the memory read of the pods' existence, and the user's cpu query
// (gridCPU) whose value at instant k is k.
func simpleScenario(f *fakeProm, req Request, from, to time.Time, every int) {
	q := queriesFor(req, "web-5d4f8")
	f.onRange(q.probe(), during(nil, from, to, constant(40)))
	sparse := func(s fakeSeries) fakeSeries {
		inner := s.at
		return fakeSeries{labels: s.labels, at: func(t time.Time) (float64, bool) {
			k := int(t.Sub(t0) / req.Step)
			if every > 1 && k%every != 0 {
				return 0, false
			}
			return inner(t)
		}}
	}
	pod := "web-5d4f8-k2x9p"
	f.onRange(gridCPU(q), sparse(during(lbl("pod", pod, "container", "app"), from, to, func(t time.Time) float64 { return float64(t.Sub(t0) / req.Step) })))
	f.onRange(q.memory(), sparse(during(lbl("pod", pod, "container", "app"), from, to, constant(1e8))))
	f.onRaw(q.rawCPU(), sampled(sparse(during(cadvisor(metricCPU, pod, "app"), from, to, steady(0.2, from))), from, to, req.Step))
	f.onRaw(q.rawMemory(), sampled(sparse(during(cadvisor(metricMemory, pod, "app"), from, to, constant(1e8))), from, to, req.Step))
}

// sampled is a raw series of a series' values every every from from
// until to.
func sampled(s fakeSeries, from, to time.Time, every time.Duration) fakeRaw {
	return fakeRaw{labels: s.labels, from: from, to: to, every: every, v: s.at}
}

// gridRequest reads cpu with the user's query gridCPU, on the sync grid.
func gridRequest(req Request) Request {
	q := queriesFor(req, "web-5d4f8")
	req.Metrics = slices.Clone(req.Metrics)
	for i, m := range req.Metrics {
		if m.Name == "cpu" {
			req.Metrics[i].Query = gridCPU(q)
		}
	}
	return req
}

func TestPieces(t *testing.T) {
	f, srv := newFakeProm(t)
	req := baseRequest()
	req.NoKubeStateMetrics = true
	req.Len = 25
	req.MaxPoints = 10
	req = gridRequest(req)
	simpleScenario(f, req, t0.Add(-time.Hour), t0.Add(time.Hour), 1)
	var seen []Progress
	req.Progress = func(p Progress) { seen = append(seen, p) }
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	q := queriesFor(req, "web-5d4f8")
	var got []string
	for _, r := range f.requests(gridCPU(q)) {
		got = append(got, fmt.Sprintf("%d-%d/%s", int(r.start.Sub(t0)/req.Step), int(r.end.Sub(t0)/req.Step), r.step))
	}
	if want := "0-9/15s 10-19/15s 20-24/15s"; strings.Join(got, " ") != want {
		t.Errorf("pieces = %s; want %s", strings.Join(got, " "), want)
	}
	s := rec.Metric(recording.KindResource, "cpu").PerPod["web-5d4f8-k2x9p"]["app"]
	if s.First != 0 || len(s.Values) != 25 {
		t.Fatalf("series = %+v", s)
	}
	for k, v := range s.Values {
		if v != float64(k) {
			t.Errorf("value at %d = %v (pieces overlap or miss an instant)", k, v)
		}
	}
	// cpu and memory (pod existence): 2 reads of 25 instants.
	if last := seen[len(seen)-1]; last.Total != 50 || last.Done != 50 || last.Requests != 7 {
		t.Errorf("progress = %+v", seen)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i].Done < seen[i-1].Done {
			t.Errorf("progress goes back: %+v", seen)
		}
	}

	// The point budget shortens pieces after an answer with many series.
	f2, srv2 := newFakeProm(t)
	req.PointBudget = 30
	simpleScenario(f2, req, t0.Add(-time.Hour), t0.Add(time.Hour), 1)
	for i := range 4 {
		name := fmt.Sprintf("web-5d4f8-bbbb%c", "bcdf"[i])
		f2.onRange(gridCPU(q), during(lbl("pod", name, "container", "app"), t0.Add(-time.Hour), t0.Add(time.Hour), constant(1)))
	}
	req.Progress = nil
	if _, err := newTestClient(t, srv2.URL).Read(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, r := range f2.requests(gridCPU(q)) {
		got = append(got, fmt.Sprintf("%d-%d", int(r.start.Sub(t0)/req.Step), int(r.end.Sub(t0)/req.Step)))
	}
	if want := "0-9 10-15 16-21 22-24"; strings.Join(got, " ") != want {
		t.Errorf("budgeted pieces = %s; want %s (30 points over 5 series)", strings.Join(got, " "), want)
	}
}

func TestPiecesAtPrometheusLimit(t *testing.T) {
	f, srv := newFakeProm(t)
	req := baseRequest()
	req.NoKubeStateMetrics = true
	req.Len = 2*MaxPointsPerSeries + 1
	req = gridRequest(req)
	simpleScenario(f, req, t0.Add(-time.Hour), t0.Add(100*time.Hour), 1)
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	q := queriesFor(req, "web-5d4f8")
	rs := f.requests(gridCPU(q))
	if len(rs) != 3 || rs[1].start.Sub(rs[0].end) != req.Step || rs[2].start != rs[2].end {
		t.Errorf("pieces = %+v", rs)
	}
	s := rec.Metric(recording.KindResource, "cpu").PerPod["web-5d4f8-k2x9p"]["app"]
	if len(s.Values) != req.Len || s.Values[req.Len-1] != float64(req.Len-1) {
		t.Errorf("series of %d values, last %v", len(s.Values), s.Values[len(s.Values)-1])
	}
}

func TestRetention(t *testing.T) {
	for _, upAtStart := range []bool{false, true} {
		f, srv := newFakeProm(t)
		req := baseRequest()
		req.NoKubeStateMetrics = true
		simpleScenario(f, req, at("30m"), at("2h"), 1)
		f.onInstant(upQuery(""), fakeSeries{at: func(time.Time) (float64, bool) { return 12, upAtStart }})
		rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
		if !upAtStart {
			want := "prometheus " + srv.URL + " holds nothing at 2026-11-26T14:00:00Z, the start of the period (its retention is shorter?): its first data of Deployment/web is at 2026-11-26T14:30:00Z; start the period later"
			if err == nil || err.Error() != want {
				t.Errorf("retention:\n got: %v\nwant: %s", err, want)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		// Known by its usage series alone, the pod started a metrics window
		// (15s) before its first sample.
		if len(rec.Pods) != 1 || !rec.Pods[0].Created.Equal(at("29m45s")) {
			t.Errorf("a workload that starts later: %+v", rec.Pods)
		}
	}
}

func TestSparse(t *testing.T) {
	f, srv := newFakeProm(t)
	req := baseRequest()
	req.NoKubeStateMetrics = true
	simpleScenario(f, req, t0.Add(-time.Hour), at("2h"), 20)
	_, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	// Raw: 13 samples (one every 5 minutes) where a 15 s interval gives
	// 241 from 14:00 to 15:00.
	want := "prometheus " + srv.URL + ": cpu usage of Deployment/web holds only 5% of the samples of a 15s scrape interval between 2026-11-26T14:00:00Z and 2026-11-26T14:59:45Z (a downsampled long-term store?): too sparse to replay them; start the period after 2026-11-26T14:59:45Z"
	if err == nil || err.Error() != want {
		t.Errorf("sparse:\n got: %v\nwant: %s", err, want)
	}
	// On the grid (a user's query), the share of the syncs.
	_, err = newTestClient(t, srv.URL).Read(context.Background(), gridRequest(req))
	want = "prometheus " + srv.URL + ": cpu usage of Deployment/web has a sample at only 5% of the 15s syncs between 2026-11-26T14:00:00Z and 2026-11-26T14:59:45Z (a downsampled long-term store?): too sparse to replay them; start the period after 2026-11-26T14:59:45Z"
	if err == nil || err.Error() != want {
		t.Errorf("sparse on the grid:\n got: %v\nwant: %s", err, want)
	}

	// A probe that counts 2 samples in 10 minutes, which the raw samples
	// of the last 10 minutes (one every 5 minutes) confirm.
	f2, srv2 := newFakeProm(t)
	q := queriesFor(req, "web-5d4f8")
	f2.onRange(q.probe(), during(nil, t0.Add(-time.Hour), at("2h"), constant(2)))
	f2.onRaw(q.rawMemory(), rawEvery(cadvisor(metricMemory, "web-5d4f8-k2x9p", "app"), t0.Add(-time.Hour), at("2h"), 5*time.Minute, constant(1e8)))
	_, err = newTestClient(t, srv2.URL).Read(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "hold one sample every 5m0s at best (a downsampled long-term store?): too sparse to replay 15s syncs") {
		t.Errorf("sparse probe: %v", err)
	}
}

func TestMisalignedAndNoData(t *testing.T) {
	f, srv := newFakeProm(t)
	req := baseRequest()
	req.NoKubeStateMetrics = true
	req = gridRequest(req)
	simpleScenario(f, req, t0.Add(-time.Hour), at("2h"), 1)
	f.shift = 3 * time.Second
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Warnings) != 2 || !strings.Contains(rec.Warnings[0], "off the sync grid") {
		t.Errorf("warnings = %q", rec.Warnings)
	}
	if v, ok := rec.Metric(recording.KindResource, "cpu").PerPod["web-5d4f8-k2x9p"]["app"].At(7); !ok || v != 7 {
		t.Errorf("shifted value = %v %v", v, ok)
	}

	// No cpu at all: a clear error, after checking the store has data.
	f2, srv2 := newFakeProm(t)
	req = baseRequest()
	req.NoKubeStateMetrics = true
	q := queriesFor(req, "web-5d4f8")
	f2.onRange(q.probe())
	f2.onRaw(q.rawCPU())
	f2.onRaw(q.rawMemory())
	q.rng, q.fresh = 2*time.Minute, time.Minute // the 30 s default interval
	f2.onRange(q.memory())
	f2.onInstant(upQuery(""), fakeSeries{at: func(time.Time) (float64, bool) { return 3, true }})
	_, err = newTestClient(t, srv2.URL).Read(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "read resource metric cpu: no value of Deployment/web between 2026-11-26T14:00:00Z and 2026-11-26T14:59:45Z: does the store scrape the kubelets' cAdvisor (or /metrics/resource)?") {
		t.Errorf("no cpu: %v", err)
	}
}

func TestCustomMetrics(t *testing.T) {
	f, srv := newFakeProm(t)
	req := baseRequest()
	req.NoKubeStateMetrics = true
	req.Metrics = []MetricRequest{
		{Kind: recording.KindPods, Name: "rps", Query: `sum by (pod, path) (rate(http_requests_total[1m]))`},
		{Kind: recording.KindExternal, Name: "queue", Query: `queue_depth`},
	}
	q := queriesFor(req, "web-5d4f8")
	f.onRange(q.probe(), during(nil, t0.Add(-time.Hour), at("2h"), constant(40)))
	f.onRange(q.memory(), during(lbl("pod", "web-5d4f8-k2x9p", "container", "app"), t0.Add(-time.Hour), at("2h"), constant(1)))
	f.onRange(req.Metrics[0].Query,
		during(lbl("pod", "web-5d4f8-k2x9p", "path", "/a"), t0.Add(-time.Hour), at("2h"), constant(3)),
		during(lbl("pod", "web-5d4f8-k2x9p", "path", "/b"), at("30m"), at("2h"), constant(4)),
		during(lbl("pod", "web-api-6b7c8-bbbbb", "path", "/a"), t0.Add(-time.Hour), at("2h"), constant(100)))
	f.onRange(req.Metrics[1].Query,
		during(lbl("queue", "a"), t0.Add(-time.Hour), at("2h"), constant(10)),
		during(lbl("queue", "b"), at("10m"), at("20m"), constant(5)))
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	rps := rec.Metric(recording.KindPods, "rps")
	if len(rps.PerPod) != 1 {
		t.Errorf("rps pods = %v", rps.PerPod)
	}
	s := rps.PerPod["web-5d4f8-k2x9p"][""]
	if v, _ := s.At(0); v != 3 {
		t.Errorf("rps at 0 = %v", v)
	}
	if v, _ := s.At(120); v != 7 {
		t.Errorf("rps at 30m = %v (two series of one pod are summed)", v)
	}
	queue := rec.Metric(recording.KindExternal, "queue")
	if v, _ := queue.Total.At(40); v != 15 {
		t.Errorf("queue at 10m = %v", v)
	}
	if v, _ := queue.Total.At(80); v != 10 {
		t.Errorf("queue at 20m = %v", v)
	}
	if rps.Query != req.Metrics[0].Query {
		t.Errorf("query = %q", rps.Query)
	}

	// A Pods query without a pod label.
	f.onRange(`sum(rate(http_requests_total[1m]))`, during(nil, t0, at("2h"), constant(1)))
	req.Metrics = []MetricRequest{{Kind: recording.KindPods, Name: "rps", Query: `sum(rate(http_requests_total[1m]))`}}
	_, err = newTestClient(t, srv.URL).Read(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "read pods metric rps: a series has no pod label") {
		t.Errorf("no pod label: %v", err)
	}
}

func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	b := &ProgressBar{W: &buf, Width: 10}
	b.Draw(Progress{Done: 45, Total: 100, Requests: 3, What: "cpu usage"})
	if got := buf.String(); got != "\r[====>     ]  45% cpu usage (3 requests)" {
		t.Errorf("bar = %q", got)
	}
	buf.Reset()
	b.Draw(Progress{Done: 100, Total: 100, Requests: 4})
	if got := buf.String(); got != "\r[==========] 100% recorded load (4 requests)" {
		t.Errorf("full bar = %q", got)
	}
	buf.Reset()
	b.Draw(Progress{Done: 0, Total: 0, What: "x"})
	if got := buf.String(); !strings.HasPrefix(got, "\r[>         ]   0% x (0 requests)") || len(got) != len("\r[==========] 100% recorded load (4 requests)") {
		t.Errorf("a shorter line pads the longer one: %q", got)
	}
	buf.Reset()
	b.Clear()
	if got := buf.String(); got != "\r"+strings.Repeat(" ", len("[==========] 100% recorded load (4 requests)"))+"\r" {
		t.Errorf("clear = %q", got)
	}
	if (Progress{Done: 5, Total: 4}).Fraction() != 1 || math.IsNaN((Progress{}).Fraction()) {
		t.Error("fraction out of [0, 1]")
	}
}

func TestLivePodWithoutKSMReadiness(t *testing.T) {
	f, srv := newFakeProm(t)
	req := baseRequest()
	req.NoKubeStateMetrics = true
	// Alive, not ready since 14:30: ready from its first sample until then.
	req.Pods = []corev1.Pod{livePod("web-5d4f8-k2x9p", t0.Add(-time.Hour), false, at("30m"), corev1.PodRunning)}
	simpleScenario(f, req, at("5m"), at("2h"), 1)
	f.onInstant(upQuery(""), fakeSeries{at: func(time.Time) (float64, bool) { return 1, true }})
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	p := rec.Pods[0]
	if !equalReady(p.Ready, []recording.ReadyChange{{At: at("5m"), Ready: true}, {At: at("30m"), Ready: false}}) {
		t.Errorf("readiness = %+v", p.Ready)
	}
	if p.Deleted != nil || !p.Created.Equal(t0.Add(-time.Hour)) || p.Started == nil || !p.Started.Equal(t0.Add(-time.Hour+5*time.Second)) {
		t.Errorf("pod = %+v", p)
	}
}

func rangeOf(start time.Time, n int) v1.Range {
	return v1.Range{Start: start, End: start.Add(time.Duration(n-1) * 15 * time.Second), Step: 15 * time.Second}
}

func TestDecodeMatrix(t *testing.T) {
	type pt struct {
		pod string
		t   model.Time
		v   float64
	}
	decode := func(body string) ([]pt, int, []string, error) {
		var got []pt
		n, w, err := decodeMatrix(strings.NewReader(body), func(m model.Metric) func(model.Time, float64) {
			pod := string(m["pod"])
			if pod == "skip" {
				return nil
			}
			return func(ts model.Time, v float64) { got = append(got, pt{pod, ts, v}) }
		})
		return got, n, w, err
	}
	// Values before labels, a skipped series, histograms, NaN and Inf,
	// fields in another order, warnings after the data.
	got, n, w, err := decode(`{"data":{"result":[
		{"values":[[1764165600,"1.5"],[1764165615.5,"NaN"]],"metric":{"pod":"a\"b"}},
		{"metric":{"pod":"skip"},"values":[[1764165600,"9"]]},
		{"metric":{"pod":"c"},"histograms":[[1764165600,{"count":"1"}]],"values":[[1764165600,"+Inf"]]}
	],"resultType":"matrix"},"status":"success","warnings":["w1"],"infos":["i1"]}`)
	if err != nil || n != 3 || len(w) != 1 || w[0] != "w1" {
		t.Fatalf("decode: %v, %d series, warnings %q", err, n, w)
	}
	if len(got) != 3 || got[0] != (pt{`a"b`, 1764165600000, 1.5}) || got[1].t != 1764165615500 || !math.IsNaN(got[1].v) || got[2] != (pt{"c", 1764165600000, math.Inf(1)}) {
		t.Errorf("points = %+v", got)
	}
	for _, c := range []struct{ body, want string }{
		{`{"status":"error","errorType":"execution","error":"boom"}`, "execution: boom"},
		{`{"status":"success","data":{"resultType":"vector","result":[]}}`, "not a range vector"},
		{`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"x"]]}]}}`, "cannot decode the answer"},
		{`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1]]}]}}`, "cannot decode the answer"},
		{`{"status":"success","data":{"resultType":"matrix","result":[`, "cannot decode the answer"},
		{`<html>proxy error</html>`, "cannot decode the answer"},
		{`{}`, `the answer's status is ""`},
	} {
		_, _, _, err := decode(c.body)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.body, err, c.want)
		}
	}
}

func TestGetFallback(t *testing.T) {
	var methods []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		methods = append(methods, r.Method)
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusForbidden) // the service proxy without create on services/proxy
			return
		}
		if r.URL.Query().Get("query") != "up" || r.URL.Query().Get("step") != "15" {
			t.Errorf("GET query = %s", r.URL.RawQuery)
		}
		_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1764165600,"1"]]}]}}`))
	}))
	defer srv.Close()
	n, _, err := newTestClient(t, srv.URL).queryRange(context.Background(), "up", "up", rangeOf(t0, 2), nil)
	if err != nil || n != 1 || strings.Join(methods, ",") != "POST,GET" {
		t.Errorf("fallback: %v, %d series, methods %v", err, n, methods)
	}
}
