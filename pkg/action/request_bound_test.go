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
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"
)

const hpaJSON = `{"kind":"HorizontalPodAutoscaler","apiVersion":"autoscaling/v2","metadata":{"name":"web","namespace":"shop","resourceVersion":"1"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"maxReplicas":3}}`

// kubeFor returns a clientset of a factory over server, with the default
// bound shortened to bound, or --request-timeout when timeout is set.
func kubeFor(t *testing.T, server string, bound time.Duration, timeout string) kubernetes.Interface {
	t.Helper()
	flags := genericclioptions.NewConfigFlags(false)
	flags.APIServer = &server
	if timeout != "" {
		flags.Timeout = &timeout
	}
	f := NewFactory(flags)
	f.bound = bound
	kube, err := f.Kube()
	if err != nil {
		t.Fatal(err)
	}
	return kube
}

// Without --request-timeout a request that gets no answer ends at the
// default bound, and its error says so and how to change it; a watch is
// not cut by that bound.
func TestRequestBound(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("watch") == "true" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			select {
			case <-time.After(600 * time.Millisecond): // three bounds
				fmt.Fprintf(w, `{"type":"ADDED","object":%s}`+"\n", hpaJSON)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
			<-r.Context().Done()
			return
		}
		<-r.Context().Done() // a paused API server
	}))
	defer srv.Close()
	kube := kubeFor(t, srv.URL, 200*time.Millisecond, "")
	hpas := kube.AutoscalingV2().HorizontalPodAutoscalers("shop")

	start := time.Now()
	_, err := hpas.Get(context.Background(), "web", metav1.GetOptions{})
	elapsed := time.Since(start)
	var na *NoAnswerError
	if !errors.As(err, &na) || !strings.Contains(err.Error(), "no answer within 200ms, the default bound of a request (--request-timeout sets another)") {
		t.Errorf("a GET the server does not answer: %v", err)
	}
	// The upper bound only catches a hang (a loaded machine stretches it).
	if elapsed < 200*time.Millisecond || elapsed > 30*time.Second {
		t.Errorf("the GET ended after %s, want about 200ms", elapsed)
	}
	if _, err := hpas.List(context.Background(), metav1.ListOptions{}); !errors.As(err, &na) {
		t.Errorf("a LIST the server does not answer: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := hpas.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	select {
	case ev, ok := <-w.ResultChan():
		if h, isHPA := ev.Object.(*autoscalingv2.HorizontalPodAutoscaler); !ok || !isHPA || h.Name != "web" {
			t.Errorf("the watch's first event: %v %#v (open %v)", ev.Type, ev.Object, ok)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
	}
}

// With --request-timeout, the HTTP client's bound applies, as in kubectl,
// and the default bound does not.
func TestRequestTimeoutFlagReplacesTheDefault(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer srv.Close()
	start := time.Now()
	_, err := kubeFor(t, srv.URL, 50*time.Millisecond, "300ms").AutoscalingV2().HorizontalPodAutoscalers("shop").Get(context.Background(), "web", metav1.GetOptions{})
	var na *NoAnswerError
	if err == nil || errors.As(err, &na) || time.Since(start) < 300*time.Millisecond {
		t.Errorf("--request-timeout 300ms: %v after %s", err, time.Since(start))
	}
}
