// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package history keeps, on disk, the controller history a watch observed
// for an HPA: the recommendations of the syncs it replayed and the rescales
// it saw. The API does not show the controller's in-memory history; a
// watch records it, and a later explain or whatif of the same HPA uses what
// is still inside the longest window instead of assuming a fresh
// controller. It never writes to the cluster.
//
// Files live under the user cache directory, one per HPA, keyed by the
// cluster, the namespace, the name and the UID (a re-created HPA starts
// afresh), and are replaced atomically so that a reader in another terminal
// never sees half a file.
package history

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// FileVersion is the format version of a history file.
const FileVersion = 1

// MaxAge bounds what a record keeps: no stabilization window (3600 s) or
// policy period (1800 s) looks further back.
const MaxAge = time.Hour

// Key names one HPA of one cluster.
type Key struct {
	// Cluster identifies the cluster: the API server's URL (and its CA),
	// hashed into the directory name.
	Cluster   string
	Namespace string
	Name      string
	UID       string
}

// Record is what a watch observed of one HPA's controller.
type Record struct {
	Version int    `json:"version"`
	Cluster string `json:"cluster"`
	// Namespace, Name and UID of the HPA.
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	UID       string `json:"uid"`
	// Since is when the watch began recording; Until the last sync it
	// recorded.
	Since time.Time `json:"since"`
	Until time.Time `json:"until"`
	// SyncPeriod is the controller's sync period the watch replayed at.
	SyncPeriod time.Duration `json:"syncPeriod"`
	// Recommendations are the replayed syncs' recommendations, oldest
	// first.
	Recommendations []explain.TimestampedRecommendation `json:"recommendations"`
	// ScaleUpEvents and ScaleDownEvents are the rescales seen (the scale's
	// replicas changing, SuccessfulRescale events).
	ScaleUpEvents   []explain.ScaleEvent `json:"scaleUpEvents"`
	ScaleDownEvents []explain.ScaleEvent `json:"scaleDownEvents"`
}

// Store reads and writes records under a directory.
type Store struct {
	Dir string
}

// DefaultDir is <user cache dir>/kubectl-hpa/history (KUBECTL_HPA_CACHE
// replaces <user cache dir>/kubectl-hpa).
func DefaultDir() (string, error) {
	if d := os.Getenv("KUBECTL_HPA_CACHE"); d != "" {
		return filepath.Join(d, "history"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the user cache directory: %w", err)
	}
	return filepath.Join(d, "kubectl-hpa", "history"), nil
}

// path is the file of a key.
func (s Store) path(k Key) string {
	h := sha256.Sum256([]byte(k.Cluster))
	return filepath.Join(s.Dir, hex.EncodeToString(h[:8]), k.Namespace, k.Name+"_"+k.UID+".json")
}

// Load returns the record of k, or nil when there is none.
func (s Store) Load(k Key) (*Record, error) {
	b, err := os.ReadFile(s.path(k))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the history of HPA %s/%s: %w", k.Namespace, k.Name, err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil || r.Version != FileVersion {
		// A file of another format or a damaged one is not worth failing
		// for: it is ignored and replaced at the next save.
		return nil, nil //nolint:nilerr // see above
	}
	if r.Cluster != k.Cluster || r.Namespace != k.Namespace || r.Name != k.Name || r.UID != k.UID {
		return nil, nil
	}
	return &r, nil
}

// Save writes r atomically (a temporary file renamed over the old one).
func (s Store) Save(k Key, r *Record) error {
	r.Version, r.Cluster, r.Namespace, r.Name, r.UID = FileVersion, k.Cluster, k.Namespace, k.Name, k.UID
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("save the history of HPA %s/%s: %w", k.Namespace, k.Name, err)
	}
	return writeAtomically(s.path(k), b, fmt.Sprintf("the history of HPA %s/%s", k.Namespace, k.Name))
}

// Prune drops what lies further back than keep before now: recommendations
// and scale events older than the window can no longer decide anything.
func (r *Record) Prune(now time.Time, keep time.Duration) {
	if keep <= 0 || keep > MaxAge {
		keep = MaxAge
	}
	cutoff := now.Add(-keep)
	recs := r.Recommendations[:0]
	for _, x := range r.Recommendations {
		if !x.Timestamp.Before(cutoff) {
			recs = append(recs, x)
		}
	}
	r.Recommendations = recs
	prune := func(evs []explain.ScaleEvent) []explain.ScaleEvent {
		out := evs[:0]
		for _, e := range evs {
			if !e.Timestamp.Before(cutoff) {
				out = append(out, e)
			}
		}
		return out
	}
	r.ScaleUpEvents, r.ScaleDownEvents = prune(r.ScaleUpEvents), prune(r.ScaleDownEvents)
}

// AddScaleEvent records a rescale seen at t from one replica count to
// another, once (a rescale seen twice, by the scale and by its event, is
// one).
func (r *Record) AddScaleEvent(t time.Time, from, to int32) {
	if from == to {
		return
	}
	list, change := &r.ScaleUpEvents, to-from
	if to < from {
		list, change = &r.ScaleDownEvents, from-to
	}
	for _, e := range *list {
		if e.ReplicaChange == change && absDur(e.Timestamp.Sub(t)) <= 2*time.Second {
			return
		}
	}
	*list = append(*list, explain.ScaleEvent{Timestamp: t, ReplicaChange: change})
	sort.Slice(*list, func(i, j int) bool { return (*list)[i].Timestamp.Before((*list)[j].Timestamp) })
}

// State returns the controller state the record describes at now, keeping
// what lies inside keep, with provenance observed and a note saying when
// and by what it was recorded (recorder: the command line that records,
// which pkg/action words). ok is false when nothing is left to use.
func (r *Record) State(now time.Time, keep time.Duration, recorder string) (explain.ControllerState, bool) {
	c := *r
	c.Recommendations = append([]explain.TimestampedRecommendation(nil), r.Recommendations...)
	c.ScaleUpEvents = append([]explain.ScaleEvent(nil), r.ScaleUpEvents...)
	c.ScaleDownEvents = append([]explain.ScaleEvent(nil), r.ScaleDownEvents...)
	c.Prune(now, keep)
	if len(c.Recommendations) == 0 {
		return explain.ControllerState{}, false
	}
	st := explain.ControllerState{
		RecommendationsInitialized: true,
		Recommendations:            c.Recommendations,
		ScaleUpEvents:              c.ScaleUpEvents,
		ScaleDownEvents:            c.ScaleDownEvents,
		Provenance:                 explain.Observed,
		Notes: []string{fmt.Sprintf("history recorded by %s from %s to %s (every %s); syncs since then were not seen",
			recorder, r.Since.UTC().Format(time.RFC3339), r.Until.UTC().Format(time.RFC3339), r.SyncPeriod)},
	}
	if r.Until.Sub(r.Since) < keep {
		// The watch has not covered the whole window: what came before it
		// is the assumed start of a fresh controller.
		st.Provenance = explain.Inferred
		st.Notes[0] += fmt.Sprintf("; it covers %s of the %s window, the rest is assumed", r.Until.Sub(r.Since).Round(time.Second), keep)
	}
	return st, true
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
