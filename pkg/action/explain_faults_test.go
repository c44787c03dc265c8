// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubectl-hpa/kubectl-hpa/internal/faultproxy"
)

// apiServer is a fake API server that knows the HPA web of shop (alone,
// and in the list of the namespace's HPAs) and answers 404 to every other
// read: explain then replays it with its optional reads (events, the
// scale target, the controller's pod) missing.
func apiServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers/web":
			_, _ = w.Write([]byte(hpaJSON))
		case "/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers":
			_, _ = w.Write([]byte(`{"kind":"HorizontalPodAutoscalerList","apiVersion":"autoscaling/v2","metadata":{"resourceVersion":"1"},"items":[` + hpaJSON + `]}`))
		default:
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// explainThrough runs explain web -n shop through a fault proxy in front
// of the fake API server, with the default bound shortened to bound.
func explainThrough(t *testing.T, bound time.Duration, many bool, faults ...faultproxy.Fault) (*faultproxy.Proxy, time.Duration, error) {
	t.Helper()
	p, err := faultproxy.New(apiServer(t).URL, faultproxy.Options{TLS: true}, faults...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	server, insecure := p.URL, true
	flags := genericclioptions.NewConfigFlags(false)
	flags.APIServer, flags.Insecure = &server, &insecure
	f := NewFactory(flags)
	f.bound = bound
	src := Source{Clients: f, Namespace: "shop", Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	start := time.Now()
	if many {
		list, _, err := ExplainSummaries(context.Background(), ManyConfig{Source: src}, SummaryPage{})
		if err == nil && (len(list.Items) != 1 || list.Items[0].HPA.Name != "web") {
			t.Errorf("explain -n shop: %+v", list.Items)
		}
		return p, time.Since(start), err
	}
	res, err := Explain(context.Background(), ExplainConfig{Source: src, Name: "web"})
	if err == nil && (res.Decision == nil || res.Snapshot.HPA.Name != "web") {
		t.Errorf("explain web: %+v", res)
	}
	return p, time.Since(start), err
}

// explain under each fault the proxy injects into its reads: it ends
// within the bound (and the waits it was told), with the replay when a
// retry meets no fault, else with one line that names the fault.
func TestExplainUnderFaults(t *testing.T) {
	const hpa = "/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers/web"
	for _, tc := range []struct {
		what  string
		many  bool
		fault faultproxy.Fault
		// want is "" when the replay comes, else a part of the error.
		want string
		most time.Duration
	}{
		{what: "the HPA's read: 503, once", fault: faultproxy.Fault{Path: hpa, Times: 1, Kind: faultproxy.Status, Status: 503}, most: 3 * time.Second},
		{what: "the HPA's read: 429 with Retry-After: 1, once", fault: faultproxy.Fault{Path: hpa, Times: 1, Kind: faultproxy.Status, Status: 429, RetryAfter: "1"}, most: 4 * time.Second},
		{what: "the HPA's read: reset, twice", fault: faultproxy.Fault{Path: hpa, Times: 2, Kind: faultproxy.Reset}, most: 3 * time.Second},
		{what: "the HPA's read: cut short, once", fault: faultproxy.Fault{Path: hpa, Times: 1, Kind: faultproxy.Truncate}, most: 3 * time.Second},
		{what: "the HPA's read: 200 ms late", fault: faultproxy.Fault{Path: hpa, Kind: faultproxy.Latency, Latency: 200 * time.Millisecond}, most: 3 * time.Second},
		{what: "every read: 500 with probability 0.3", fault: faultproxy.Fault{Kind: faultproxy.Status, Status: 500, Probability: 0.3}, most: 10 * time.Second},
		{what: "the events' read: 503 every time (optional)", fault: faultproxy.Fault{Path: "/api/v1/namespaces/shop/events", Kind: faultproxy.Status, Status: 503}, most: 5 * time.Second},
		{what: "the list of HPAs (-n shop): reset, once", many: true, fault: faultproxy.Fault{Path: "/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers", Times: 1, Kind: faultproxy.Reset}, most: 3 * time.Second},
		{
			what: "the HPA's read: 503 every time", fault: faultproxy.Fault{Path: hpa, Kind: faultproxy.Status, Status: 503},
			want: "the server is currently unable to handle the request (get horizontalpodautoscalers.autoscaling web)", most: 4 * time.Second,
		},
		{
			what: "the HPA's read: reset every time", fault: faultproxy.Fault{Path: hpa, Kind: faultproxy.Reset},
			// Over TLS the reset reads as the connection closed.
			want: "before the answer (4 attempts in ", most: 4 * time.Second,
		},
		{
			what: "the HPA's read: cut short every time", fault: faultproxy.Fault{Path: hpa, Kind: faultproxy.Truncate},
			want: "the answer was cut short after ", most: 4 * time.Second,
		},
		{
			what: "the HPA's read: no answer", fault: faultproxy.Fault{Path: hpa, Kind: faultproxy.Hang},
			want: "no answer within 500ms, the default bound of a request (--request-timeout sets another) (is the cluster reachable?", most: 3 * time.Second,
		},
		{
			what: "the list of HPAs (-n shop): 429 with a Retry-After past the bound", many: true,
			fault: faultproxy.Fault{Path: "/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers", Kind: faultproxy.Status, Status: 429, RetryAfter: "60"},
			want:  "the server has received too many requests and has asked us to try again later", most: 2 * time.Second,
		},
	} {
		t.Run(tc.what, func(t *testing.T) {
			bound := 5 * time.Second
			if tc.fault.Kind == faultproxy.Hang {
				bound = 500 * time.Millisecond
			}
			p, elapsed, err := explainThrough(t, bound, tc.many, tc.fault)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, after %d requests, hits %v", err, p.Requests(), p.Hits())
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n")):
				t.Errorf("error %v, want one line with %q", err, tc.want)
			}
			// Only a hang or a backoff grown tenfold: under -race at nice 19
			// on a loaded machine the times of such runs grew by a tenth and
			// more (request_retry_test.go).
			if most := 10 * tc.most; elapsed > most {
				t.Errorf("ended after %s, want at most %s", elapsed, most)
			}
			if tc.fault.Kind != faultproxy.Latency && tc.fault.Probability == 0 && len(p.Hits()) == 0 {
				t.Error("the fault hit no request")
			}
			t.Logf("%d requests, %d hit, %s: %v", p.Requests(), len(p.Hits()), elapsed.Round(time.Millisecond), err)
		})
	}
}
