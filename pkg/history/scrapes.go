// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

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
	"time"
)

// ScrapesVersion is the format version of a scrapes file.
const ScrapesVersion = 1

// Scrapes is what a run saw of a cluster's metrics-server: its window and
// the moment of one of its scrapes, found by polling a PodMetrics until its
// timestamp changed. metrics-server scrapes on a ticker, so the phase holds
// while it runs: later runs take it from here instead of polling again, as
// long as the PodMetrics they read agree with it (a restarted
// metrics-server has another phase), and give the same answers as the run
// that measured it.
type Scrapes struct {
	Version int    `json:"version"`
	Cluster string `json:"cluster"`
	// Window is metrics-server's resolution; Anchor a scrape's moment,
	// Spread how far off it may be; Detail says how it was found.
	Window time.Duration `json:"window"`
	Anchor time.Time     `json:"anchor"`
	Spread time.Duration `json:"spread"`
	Detail string        `json:"detail"`
	// WindowDetail says how the window was found.
	WindowDetail string `json:"windowDetail"`
	// Measured is when it was found.
	Measured time.Time `json:"measured"`
}

// scrapesPath is the file of a cluster's scrapes: beside the HPAs' records,
// under the cluster's directory.
func (s Store) scrapesPath(cluster string) string {
	h := sha256.Sum256([]byte(cluster))
	return filepath.Join(s.Dir, hex.EncodeToString(h[:8]), "metrics-server-scrapes.json")
}

// LoadScrapes returns what a run saw of the cluster's metrics-server, or
// nil when nothing was kept (or the file is of another format).
func (s Store) LoadScrapes(cluster string) (*Scrapes, error) {
	b, err := os.ReadFile(s.scrapesPath(cluster))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read metrics-server's scrapes: %w", err)
	}
	var r Scrapes
	if err := json.Unmarshal(b, &r); err != nil || r.Version != ScrapesVersion || r.Cluster != cluster {
		return nil, nil //nolint:nilerr // a damaged file is ignored and replaced at the next save
	}
	return &r, nil
}

// SaveScrapes keeps what a run saw of the cluster's metrics-server,
// atomically.
func (s Store) SaveScrapes(cluster string, r *Scrapes) error {
	r.Version, r.Cluster = ScrapesVersion, cluster
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("save metrics-server's scrapes: %w", err)
	}
	return writeAtomically(s.scrapesPath(cluster), b, "metrics-server's scrapes")
}

// writeAtomically writes b to p through a temporary file renamed over it,
// so that a reader never sees half a file.
func writeAtomically(p string, b []byte, what string) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("save %s: %w", what, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("save %s: %w", what, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(b); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("save %s: %w", what, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save %s: %w", what, err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return fmt.Errorf("save %s: %w", what, err)
	}
	return nil
}
