// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package history

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestStoreRoundTrip(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	k := Key{Cluster: "https://127.0.0.1:6443", Namespace: "shop", Name: "web", UID: "u1"}
	if r, err := s.Load(k); err != nil || r != nil {
		t.Fatalf("empty store: %v %v", r, err)
	}
	r := &Record{
		Since: t0, Until: t0.Add(time.Minute), SyncPeriod: 15 * time.Second,
		Recommendations: []explain.TimestampedRecommendation{{Timestamp: t0, Replicas: 4}, {Timestamp: t0.Add(15 * time.Second), Replicas: 6}},
	}
	r.AddScaleEvent(t0.Add(20*time.Second), 4, 6)
	r.AddScaleEvent(t0.Add(21*time.Second), 4, 6) // the same rescale, seen by its event
	if err := s.Save(k, r); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(k)
	if err != nil || got == nil || len(got.Recommendations) != 2 || len(got.ScaleUpEvents) != 1 || got.ScaleUpEvents[0].ReplicaChange != 2 {
		t.Fatalf("loaded %+v, %v", got, err)
	}
	// Another UID (a re-created HPA) or cluster sees nothing.
	for _, other := range []Key{{Cluster: k.Cluster, Namespace: "shop", Name: "web", UID: "u2"}, {Cluster: "https://other", Namespace: "shop", Name: "web", UID: "u1"}} {
		if r, _ := s.Load(other); r != nil {
			t.Errorf("%+v: found %+v", other, r)
		}
	}
	// A damaged file is ignored.
	if err := os.WriteFile(s.path(k), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Load(k); err != nil || r != nil {
		t.Errorf("damaged file: %v %v", r, err)
	}
	if _, err := os.Stat(filepath.Dir(s.path(k))); err != nil {
		t.Fatal(err)
	}
}

func TestStateKeepsTheWindow(t *testing.T) {
	r := &Record{Since: t0, Until: t0.Add(10 * time.Minute), SyncPeriod: 15 * time.Second}
	for i := range 41 {
		r.Recommendations = append(r.Recommendations, explain.TimestampedRecommendation{Timestamp: t0.Add(time.Duration(i) * 15 * time.Second), Replicas: int32(i)})
	}
	r.AddScaleEvent(t0.Add(time.Minute), 2, 5)
	r.AddScaleEvent(t0.Add(9*time.Minute), 5, 3)
	st, ok := r.State(t0.Add(10*time.Minute), 5*time.Minute, "kubectl hpa explain --watch")
	if !ok || st.Provenance != explain.Observed || !st.RecommendationsInitialized {
		t.Fatalf("state %+v", st)
	}
	if n := len(st.Recommendations); n != 21 || st.Recommendations[0].Replicas != 20 {
		t.Errorf("%d recommendations from %d, want the 21 of the last 5 minutes", n, st.Recommendations[0].Replicas)
	}
	if len(st.ScaleUpEvents) != 0 || len(st.ScaleDownEvents) != 1 {
		t.Errorf("events %+v %+v", st.ScaleUpEvents, st.ScaleDownEvents)
	}
	if len(r.Recommendations) != 41 {
		t.Error("State modified the record")
	}
	if _, ok := r.State(t0.Add(2*time.Hour), 5*time.Minute, "kubectl hpa explain --watch"); ok {
		t.Error("a record entirely out of the window was used")
	}
}
