// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// The newest event of the HPA controller shows its latest sync; another
// component's events do not.
func TestLastControllerEvent(t *testing.T) {
	at := func(s int) metav1.Time { return metav1.Time{Time: time.Date(2026, 1, 1, 0, 0, s, 0, time.UTC)} }
	hpa := corev1.EventSource{Component: hpaControllerComponent}
	for _, tc := range []struct {
		name string
		evs  []corev1.Event
		want metav1.Time
	}{
		{"none", nil, metav1.Time{}},
		{"the newest of the controller's", []corev1.Event{
			{Source: hpa, FirstTimestamp: at(1), LastTimestamp: at(5)},
			{Source: hpa, FirstTimestamp: at(2), LastTimestamp: at(3)},
		}, at(5)},
		{"another component's is skipped", []corev1.Event{
			{Source: hpa, LastTimestamp: at(5)},
			{Source: corev1.EventSource{Component: "keda-operator"}, LastTimestamp: at(9)},
			{ReportingController: "someone-else", EventTime: metav1.MicroTime{Time: at(8).Time}},
		}, at(5)},
		{"no source is the controller's", []corev1.Event{{LastTimestamp: at(7)}}, at(7)},
		{"events.k8s.io's time and series", []corev1.Event{
			{ReportingController: hpaControllerComponent, EventTime: metav1.MicroTime{Time: at(4).Time}},
			{ReportingController: hpaControllerComponent, EventTime: metav1.MicroTime{Time: at(4).Time}, Series: &corev1.EventSeries{Count: 3, LastObservedTime: metav1.MicroTime{Time: at(6).Time}}},
		}, at(6)},
	} {
		if got := lastControllerEvent(tc.evs); !got.Equal(tc.want.Time) {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want.Time)
		}
	}
}

// staleHPAJSON is an HPA whose status kube-controller-manager wrote at
// 23:50:00, ten minutes before the replay's now.
const staleHPAJSON = `{"kind":"HorizontalPodAutoscaler","apiVersion":"autoscaling/v2",
"metadata":{"name":"web","namespace":"shop","resourceVersion":"1","managedFields":[
 {"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"autoscaling/v2","time":"2025-12-31T20:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}},
 {"manager":"kube-controller-manager","operation":"Update","apiVersion":"autoscaling/v2","time":"2025-12-31T23:50:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{}},"subresource":"status"}]},
"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"maxReplicas":3},
"status":{"currentReplicas":2,"desiredReplicas":2,"conditions":[{"type":"AbleToScale","status":"True","reason":"ReadyForNewScale","lastTransitionTime":"2025-12-31T20:00:00Z"}]}}`

// explain reads the time of the controller's last status write off the
// HPA's managedFields and its newest event, and counts in the sync period
// it assumed.
func TestExplainSyncCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events string
		from   explain.SyncSign
		seen   string
	}{
		{"the status write", `[]`, explain.SyncSignStatusWrite, "2025-12-31T23:50:00Z"},
		{
			"a later event", `[{"metadata":{"name":"web.1","namespace":"shop"},"involvedObject":{"kind":"HorizontalPodAutoscaler","name":"web","namespace":"shop"},
 "reason":"FailedGetScale","type":"Warning","source":{"component":"horizontal-pod-autoscaler"},"lastTimestamp":"2025-12-31T23:59:40Z","count":40}]`,
			explain.SyncSignEvent, "2025-12-31T23:59:40Z",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				switch r.URL.Path {
				case "/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers/web":
					_, _ = w.Write([]byte(staleHPAJSON))
				case "/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers":
					_, _ = w.Write([]byte(`{"kind":"HorizontalPodAutoscalerList","apiVersion":"autoscaling/v2","metadata":{},"items":[` + staleHPAJSON + `]}`))
				case "/api/v1/namespaces/shop/events":
					_, _ = w.Write([]byte(`{"kind":"EventList","apiVersion":"v1","metadata":{},"items":` + tc.events + `}`))
				default:
					w.WriteHeader(http.StatusNotFound)
					_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`))
				}
			}))
			defer srv.Close()
			server := srv.URL
			flags := genericclioptions.NewConfigFlags(false)
			flags.APIServer = &server
			src := Source{Clients: NewFactory(flags), Namespace: "shop", Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			res, err := Explain(context.Background(), ExplainConfig{Source: src, Name: "web"})
			if err != nil {
				t.Fatal(err)
			}
			a := res.Decision.Agreement
			if !a.Checked || a.Sync == nil {
				t.Fatalf("agreement %+v", a)
			}
			sc := a.Sync
			if got := sc.LastSeen.UTC().Format(time.RFC3339); sc.LastSeenFrom != tc.from || got != tc.seen {
				t.Errorf("last seen %s from %s, want %s from %s", got, sc.LastSeenFrom, tc.seen, tc.from)
			}
			if got := sc.StatusWritten.UTC().Format(time.RFC3339); got != "2025-12-31T23:50:00Z" {
				t.Errorf("status written %s", got)
			}
			// Nothing read the controller's flags: its default period is
			// taken on trust. The scale could not be read (404), so the
			// status is not called stale, however old.
			if !sc.SyncPeriodAssumed || sc.SyncPeriod != "15s" || sc.StaleAfterSeconds != 120 || sc.Stale {
				t.Errorf("sync check %+v", *sc)
			}
		})
	}
}
