// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/internal/faultproxy"
)

// A GET answered 429 or 500, 502, 503, 504 without Retry-After is sent
// again, at most four times in all; writes and the service proxy's
// requests are not.
func TestReadRetries(t *testing.T) {
	for _, tc := range []struct {
		what     string
		fail     []int
		write    bool
		proxy    bool
		attempts int32
		ok       bool
	}{
		{"503 then 502", []int{503, 502}, false, false, 3, true},
		{"429 without Retry-After", []int{429}, false, false, 2, true},
		{"a 500 (etcd's leader changed)", []int{500}, false, false, 2, true},
		{"504 four times", []int{504, 504, 504, 504}, false, false, 4, false},
		{"a 501", []int{501}, false, false, 1, false},
		{"a write", []int{503}, true, false, 1, false},
		{"through the service proxy", []int{503}, false, true, 1, false},
	} {
		t.Run(tc.what, func(t *testing.T) {
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				i := int(n.Add(1)) - 1
				w.Header().Set("Content-Type", "application/json")
				if i < len(tc.fail) {
					w.WriteHeader(tc.fail[i])
					fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","code":%d}`, tc.fail[i])
					return
				}
				_, _ = w.Write([]byte(hpaJSON))
			}))
			defer srv.Close()
			kube := kubeFor(t, srv.URL, 10*time.Second, "")
			var err error
			switch {
			case tc.write:
				_, err = kube.AutoscalingV2().HorizontalPodAutoscalers("shop").Create(context.Background(), &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Name: "web"}}, metav1.CreateOptions{})
			case tc.proxy:
				err = kube.CoreV1().RESTClient().Get().AbsPath("/api/v1/namespaces/monitoring/services/prometheus:9090/proxy/api/v1/query").Do(context.Background()).Error()
			default:
				_, err = kube.AutoscalingV2().HorizontalPodAutoscalers("shop").Get(context.Background(), "web", metav1.GetOptions{})
			}
			if (err == nil) != tc.ok {
				t.Errorf("error %v, want ok %v", err, tc.ok)
			}
			if got := n.Load(); got != tc.attempts {
				t.Errorf("%d attempts, want %d", got, tc.attempts)
			}
		})
	}
}

// hpaServer answers every GET with the HPA, and counts the requests.
func hpaServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	n := new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(hpaJSON))
	}))
	t.Cleanup(srv.Close)
	return srv, n
}

// Each fault the proxy injects into a GET: how many requests reach the
// proxy (client-go's own retries included), whether the GET ends with
// the HPA, and within how long.
func TestReadRetriesUnderFaults(t *testing.T) {
	const path = "/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers/web"
	for _, tc := range []struct {
		what     string
		fault    faultproxy.Fault
		bound    time.Duration
		requests int
		// want is "" for the HPA, else a part of the error.
		want          string
		atLeast, most time.Duration
	}{
		{
			what: "429 with Retry-After: 1, once", bound: 10 * time.Second,
			fault:    faultproxy.Fault{Path: path, Times: 1, Kind: faultproxy.Status, Status: 429, RetryAfter: "1"},
			requests: 2, atLeast: time.Second, most: 5 * time.Second,
		},
		{
			// client-go alone would wait the 3 s ten times, whatever the
			// bound; the wait does not fit in the bound, so the 429 is the
			// answer at once.
			what: "429 with a Retry-After past the bound", bound: 2 * time.Second,
			fault:    faultproxy.Fault{Path: path, Kind: faultproxy.Status, Status: 429, RetryAfter: "3", Body: `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"TooManyRequests","message":"too many requests","code":429}`},
			requests: 1, want: "too many requests", most: time.Second,
		},
		{
			what: "503 with Retry-After: 1, every time", bound: 2500 * time.Millisecond,
			fault:    faultproxy.Fault{Path: path, Kind: faultproxy.Status, Status: 503, RetryAfter: "1"},
			requests: 3, want: "unable to handle the request", atLeast: 2 * time.Second, most: 2500 * time.Millisecond,
		},
		{
			what: "a connection reset, twice", bound: 10 * time.Second,
			fault:    faultproxy.Fault{Path: path, Times: 2, Kind: faultproxy.Reset},
			requests: 3, most: 3 * time.Second,
		},
		{
			// client-go alone would send it eleven times, a second apart.
			what: "a connection reset, every time", bound: 10 * time.Second,
			fault:    faultproxy.Fault{Path: path, Kind: faultproxy.Reset},
			requests: 4, want: "the connection was reset before the answer (4 attempts in ", most: 3 * time.Second,
		},
		{
			what: "a body cut short, once", bound: 10 * time.Second,
			fault:    faultproxy.Fault{Path: path, Times: 1, Kind: faultproxy.Truncate},
			requests: 2, most: 2 * time.Second,
		},
		{
			what: "a body cut short, every time", bound: 10 * time.Second,
			fault:    faultproxy.Fault{Path: path, Kind: faultproxy.Truncate, KeepBytes: 40},
			requests: 4, want: "the answer was cut short after 40 bytes of its body (4 attempts in ", most: 3 * time.Second,
		},
		{
			what: "no answer", bound: 300 * time.Millisecond,
			fault:    faultproxy.Fault{Path: path, Kind: faultproxy.Hang},
			requests: 1, want: "no answer within 300ms, the default bound", atLeast: 300 * time.Millisecond, most: 2 * time.Second,
		},
		{
			what: "latency within the bound", bound: 2 * time.Second,
			fault:    faultproxy.Fault{Path: path, Kind: faultproxy.Latency, Latency: 200 * time.Millisecond},
			requests: 1, atLeast: 200 * time.Millisecond, most: 2 * time.Second,
		},
	} {
		t.Run(tc.what, func(t *testing.T) {
			srv, _ := hpaServer(t)
			p, err := faultproxy.New(srv.URL, faultproxy.Options{}, tc.fault)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			kube := kubeFor(t, p.URL, tc.bound, "")
			start := time.Now()
			h, err := kube.AutoscalingV2().HorizontalPodAutoscalers("shop").Get(context.Background(), "web", metav1.GetOptions{})
			elapsed := time.Since(start)
			switch {
			case tc.want == "" && (err != nil || h.Name != "web"):
				t.Errorf("error %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n")):
				t.Errorf("error %v, want one line with %q", err, tc.want)
			}
			if got := p.Requests(); got != tc.requests {
				t.Errorf("%d requests, want %d", got, tc.requests)
			}
			// The lower bound is the point (it waited for the bound); the
			// upper one only catches a hang or a backoff grown tenfold: the
			// request counts above say how many attempts were made, and a
			// -race run at nice 19 on a loaded 2-core machine took 3.36 s
			// where 3 s were expected (2026-12-02), so it gets ten times
			// the time alone takes.
			if most := 10 * tc.most; elapsed < tc.atLeast || elapsed > most {
				t.Errorf("ended after %s, want within [%s, %s]", elapsed, tc.atLeast, most)
			}
			if err != nil && strings.Contains(tc.want, "cut short") {
				var cl *ConnLostError
				if !errors.As(err, &cl) {
					t.Errorf("%T is no ConnLostError", err)
				}
			}
		})
	}
}

// A write answered 503 with a Retry-After is retried by client-go alone
// (not by the transport too), and one answered 503 without is not.
func TestWritesAreNotRetriedHere(t *testing.T) {
	for _, tc := range []struct {
		retryAfter string
		requests   int
	}{{"", 1}, {"1", 2}} {
		srv, _ := hpaServer(t)
		p, err := faultproxy.New(srv.URL, faultproxy.Options{}, faultproxy.Fault{Method: "PUT", Times: 1, Kind: faultproxy.Status, Status: 503, RetryAfter: tc.retryAfter})
		if err != nil {
			t.Fatal(err)
		}
		kube := kubeFor(t, p.URL, 10*time.Second, "")
		h := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}}
		_, err = kube.AutoscalingV2().HorizontalPodAutoscalers("shop").Update(context.Background(), h, metav1.UpdateOptions{})
		if got := p.Requests(); got != tc.requests {
			t.Errorf("Retry-After %q: %d requests, want %d (error %v)", tc.retryAfter, got, tc.requests, err)
		}
		if tc.retryAfter == "" && !apierrors.IsServiceUnavailable(err) {
			t.Errorf("a write answered 503: %v", err)
		}
		p.Close()
	}
}
