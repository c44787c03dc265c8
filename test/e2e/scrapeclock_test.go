// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
)

// localResolution is the local cluster's metrics-server --metric-resolution
// (up.sh's METRIC_RESOLUTION default).
const localResolution = 10 * time.Second

// TestScrapeClockReadsTheLocalCluster: gather.ReadScrapeClock, against the
// local metrics-server (a process beside the cluster, not a pod: its flag is
// not readable, so the resolution comes from the windows), reads a
// resolution of 10s, and its anchor, polled or from whole-second
// timestamps, falls within its spread (and 0.2 s for the test's own
// polling) of a scrape the test sees itself: the moment a PodMetrics
// timestamp changes, polled every 100 ms.
func TestScrapeClockReadsTheLocalCluster(t *testing.T) {
	// Beside the other top-level tests once TestAgreement (which takes an
	// APIService away for a while) is done: its namespace is its own.
	t.Parallel()
	s := newScenario(t, "scrape-clock")
	s.deploy("web", 2, map[string]string{annCPU: cpuIdle})
	var names []string
	for _, p := range s.waitPods("web", 2) {
		names = append(names, p.Name)
	}
	// metrics-server has a window for a pod from its second scrape of it.
	s.poll("a PodMetrics window of both pods", 60*time.Second, func() error {
		list, err := env.metrics.MetricsV1beta1().PodMetricses(s.ns).List(s.ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		have := 0
		for _, pm := range list.Items {
			for _, n := range names {
				if pm.Name == n && pm.Window.Duration > 0 {
					have++
				}
			}
		}
		if have != len(names) {
			return fmt.Errorf("%d of %d pods have a window", have, len(names))
		}
		return nil
	})

	c, err := gather.NewClients(env.cfg)
	if err != nil {
		t.Fatal(err)
	}
	polled, err := gather.ReadScrapeClock(s.ctx, c, s.ns, names, gather.ScrapeClockOptions{Poll: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("polled: %s", polled.Detail)
	whole, err := gather.ReadScrapeClock(s.ctx, c, s.ns, names, gather.ScrapeClockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("from whole seconds: %s", whole.Detail)
	seen, half := seeScrape(t, s, names[0])
	t.Logf("the test saw a scrape at %s ±%s", seen.UTC().Format("15:04:05.000"), half)

	for _, tc := range []struct {
		name string
		sc   gather.ScrapeClock
	}{{"polled", polled}, {"from whole seconds", whole}} {
		sc := tc.sc
		if sc.Resolution != localResolution || sc.Windows != len(names) {
			t.Errorf("%s: resolution %s of %d windows, want %s of %d", tc.name, sc.Resolution, sc.Windows, localResolution, len(names))
		}
		if off := offScrapes(seen, sc.Anchor, localResolution); off.Abs() > sc.Spread+200*time.Millisecond {
			t.Errorf("%s: the anchor %s ±%s is %s off the scrapes the test saw (one at %s)", tc.name,
				sc.Anchor.UTC().Format("15:04:05.000"), sc.Spread, off, seen.UTC().Format("15:04:05.000"))
		}
	}
	if !polled.Polled {
		t.Errorf("the poll saw no change of a timestamp: %s", polled.Detail)
	}
	if whole.Polled || whole.Spread < 500*time.Millisecond {
		t.Errorf("without a poll: Polled %v, spread %s; want the whole second's ±500ms at least", whole.Polled, whole.Spread)
	}
}

// seeScrape polls pod's PodMetrics every 100 ms until its timestamp
// changes and returns the middle of the span the change fell in (from the
// sending of the last GET that saw the old timestamp to the answer of the
// first that saw the new) and half its width. A span wider than 0.3 s
// (a slow answer) is looked at again, up to three times.
func seeScrape(t *testing.T, s *scenario, pod string) (time.Time, time.Duration) {
	t.Helper()
	get := env.metrics.MetricsV1beta1().PodMetricses(s.ns)
	var at time.Time
	var half time.Duration
	for try := 0; try < 3; try++ {
		var (
			old      metav1.Time
			lastSent time.Time
			seen     bool
		)
		deadline := time.Now().Add(localResolution + 3*time.Second)
		for time.Now().Before(deadline) {
			sent := time.Now()
			pm, err := get.Get(s.ctx, pod, metav1.GetOptions{})
			answered := time.Now()
			if err != nil {
				t.Fatalf("get the PodMetrics of %s: %v", pod, err)
			}
			if seen && !pm.Timestamp.Equal(&old) {
				half = answered.Sub(lastSent) / 2
				at = lastSent.Add(half)
				break
			}
			old, seen, lastSent = pm.Timestamp, true, sent
			time.Sleep(100 * time.Millisecond)
		}
		if at.IsZero() {
			t.Fatalf("the PodMetrics timestamp of %s did not change in %s", pod, localResolution+3*time.Second)
		}
		if half <= 150*time.Millisecond {
			break
		}
		t.Logf("a scrape seen at %s only within ±%s: again", at.UTC().Format("15:04:05.000"), half)
		at = time.Time{}
	}
	if at.IsZero() {
		t.Fatalf("no scrape of %s seen within ±150ms in three tries", pod)
	}
	return at, half
}

// offScrapes is how far t is from the nearest of the scrapes at anchor +
// n×resolution, either way.
func offScrapes(t, anchor time.Time, resolution time.Duration) time.Duration {
	d := t.Sub(anchor) % resolution
	switch {
	case d > resolution/2:
		d -= resolution
	case d < -resolution/2:
		d += resolution
	}
	return d
}
