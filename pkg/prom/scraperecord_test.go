// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// metrics-server scrapes every 15 s at 7.3 s past each multiple of 15 s;
// the store scrapes it every 10 s, each node's last request time in whole
// seconds.
func TestReadScrapeRecord(t *testing.T) {
	from, until := t0, at("1h")
	rateQuery := "max(rate(" + metricMSTicks + "[1h]))"
	phase := 7300 * time.Millisecond
	lastRequest := func(node string, lag time.Duration) fakeRaw {
		return rawEvery(lbl("__name__", metricMSLastRequest, "node", node), t0.Add(-time.Hour), at("2h"), 10*time.Second, func(t time.Time) float64 {
			scrape := recording.LastScrape(t, recording.ScrapeAt(phase), 15*time.Second).Add(lag)
			return math.Floor(float64(scrape.UnixMilli()) / 1000)
		})
	}

	f, srv := newFakeProm(t)
	f.onInstant(rateQuery, fakeSeries{at: func(time.Time) (float64, bool) { return 1.0 / 15.1, true }})
	f.onRaw(metricMSLastRequest, lastRequest("a", 0), lastRequest("b", 40*time.Millisecond))
	rec, err := newTestClient(t, srv.URL).ReadScrapeRecord(context.Background(), from, until)
	if err != nil || rec == nil {
		t.Fatalf("record %+v, %v", rec, err)
	}
	if rec.Window != 15*time.Second {
		t.Errorf("window = %s (15.1 s is the flag's 15 s)", rec.Window)
	}
	// Each time is taken at the middle of its second: 7.5 s, 0.2 s late.
	if off := recording.ScrapeOffset(rec.Anchor, rec.Window); off != 7500*time.Millisecond || rec.Spread != 500*time.Millisecond {
		t.Errorf("anchor at %s, spread %s", off, rec.Spread)
	}
	if rec.Scrapes != 2*120 || !strings.Contains(rec.Detail, "a scrape every 15s over 1h0m0s; 240 scrape times of "+metricMSLastRequest+" over the last 30m0s: at 7.5s past each 15s") {
		t.Errorf("scrapes %d, detail %q", rec.Scrapes, rec.Detail)
	}
	if rs := f.rawRequests(metricMSLastRequest); len(rs) != 1 || rs[0].rng != 30*time.Minute || !rs[0].time.Equal(until) {
		t.Errorf("raw reads = %+v", rs)
	}

	// Two metrics-servers half a window apart: the resolution, no anchor.
	f2, srv2 := newFakeProm(t)
	f2.onInstant(rateQuery, fakeSeries{at: func(time.Time) (float64, bool) { return 1.0 / 15, true }})
	f2.onRaw(metricMSLastRequest, lastRequest("a", 0), lastRequest("b", 7*time.Second))
	rec, err = newTestClient(t, srv2.URL).ReadScrapeRecord(context.Background(), from, until)
	if err != nil || rec == nil || rec.Window != 15*time.Second || !rec.Anchor.IsZero() {
		t.Errorf("two phases: %+v, %v", rec, err)
	}

	// A store that does not scrape metrics-server: nothing, and no error.
	f3, srv3 := newFakeProm(t)
	f3.onInstant(rateQuery)
	rec, err = newTestClient(t, srv3.URL).ReadScrapeRecord(context.Background(), from, until)
	if err != nil || rec != nil {
		t.Errorf("no metrics-server series: %+v, %v", rec, err)
	}
	// Its ticks but not its request times: the resolution alone.
	f3.onInstant(rateQuery, fakeSeries{at: func(time.Time) (float64, bool) { return 0.1, true }})
	f3.onRaw(metricMSLastRequest)
	rec, err = newTestClient(t, srv3.URL).ReadScrapeRecord(context.Background(), from, until)
	if err != nil || rec == nil || rec.Window != 10*time.Second || !rec.Anchor.IsZero() || rec.Scrapes != 0 {
		t.Errorf("ticks alone: %+v, %v", rec, err)
	}
}

func TestResolutionOf(t *testing.T) {
	for in, want := range map[float64]time.Duration{
		15: 15 * time.Second, 14.8: 15 * time.Second, 60.4: time.Minute, 61.2: 61 * time.Second, 2.5: 2500 * time.Millisecond, 0: 0, -1: 0, math.NaN(): 0,
	} {
		if got := resolutionOf(in); got != want {
			t.Errorf("resolutionOf(%v) = %s, want %s", in, got, want)
		}
	}
}
