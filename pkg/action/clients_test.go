// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"
)

// The clients of a run are not throttled on the client side (client-go's
// default, 5 requests per second with a burst of 10, makes a many-HPA read
// crawl): their REST clients have no rate limiter. A 429 with Retry-After
// from the server's priority and fairness is retried, not returned as an
// error.
func TestClientsAreNotThrottledAndHonourRetryAfter(t *testing.T) {
	var requests, refused atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.URL.Path == "/api/v1/namespaces/shop/pods" && refused.Load() == 0 {
			refused.Add(1)
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"TooManyRequests","code":429}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]}`))
	}))
	defer srv.Close()

	server := srv.URL
	flags := genericclioptions.NewConfigFlags(false)
	flags.APIServer = &server
	f := NewFactory(flags)
	cfg, err := f.RESTConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.QPS >= 0 || cfg.RateLimiter != nil {
		t.Fatalf("client-side throttling is on: QPS %v, rate limiter %v", cfg.QPS, cfg.RateLimiter)
	}
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rl := kube.CoreV1().RESTClient().GetRateLimiter(); rl != nil {
		t.Errorf("the core client has a rate limiter: %T", rl)
	}
	if _, err := kube.CoreV1().Pods("shop").List(context.Background(), metav1.ListOptions{}); err != nil {
		t.Fatalf("a 429 with Retry-After was not retried: %v", err)
	}
	if got := requests.Load(); got != 2 {
		t.Errorf("%d requests for one list refused once, want 2", got)
	}
}
