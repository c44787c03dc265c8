// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/prometheus/common/model"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// metrics-server's own series, when the store scrapes metrics-server: its
// scrape loop's ticks (a histogram's count, one more per scrape of the
// kubelets), and per node the time of its last request to the kubelet (in
// whole seconds).
const (
	metricMSTicks       = "metrics_server_manager_tick_duration_seconds_count"
	metricMSLastRequest = "metrics_server_kubelet_last_request_time_seconds"
	// scrapeRecordSpan is how much of the period's end the scrape times
	// are read over: the phase holds while metrics-server runs.
	scrapeRecordSpan = 30 * time.Minute
)

// ScrapeRecord is metrics-server's timing as the store recorded it.
type ScrapeRecord struct {
	// Window is its resolution: the time between its scrapes, from how
	// fast its scrape loop ticked over the period.
	Window time.Duration
	// Anchor is one of its scrapes (zero: no scrape time was found, or
	// they do not agree on a phase); the others are Window apart.
	// Spread is how far the scrape times read fall from that grid either
	// way (their whole seconds, the nodes' requests not being at the same
	// instant).
	Anchor time.Time
	Spread time.Duration
	// Scrapes counts the scrape times the anchor is worked out of.
	Scrapes int
	// Detail says what was read.
	Detail string
}

// ReadScrapeRecord reads metrics-server's resolution over the period from
// until back to from, and the phase of its scrapes at the period's end,
// from the series metrics-server exports about itself. It returns nil
// (and no error) when the store has no such series: it does not scrape
// metrics-server.
func (c *Client) ReadScrapeRecord(ctx context.Context, from, until time.Time) (*ScrapeRecord, error) {
	period := max(until.Sub(from), time.Minute).Round(time.Second)
	q := fmt.Sprintf("max(rate(%s[%s]))", metricMSTicks, promDuration(period))
	v, _, err := c.instant(ctx, "metrics-server's resolution", q, until)
	if err != nil {
		return nil, err
	}
	if len(v) == 0 || !(v[0].Value > 0) || math.IsInf(float64(v[0].Value), 0) {
		return nil, nil
	}
	window := resolutionOf(1 / float64(v[0].Value))
	if window <= 0 {
		return nil, nil
	}
	rec := &ScrapeRecord{Window: window, Detail: fmt.Sprintf("%s: a scrape every %s over %s", q, window, period)}
	span := min(period, scrapeRecordSpan)
	times, err := c.scrapeTimes(ctx, span, until, from.Add(-time.Hour), until.Add(time.Minute))
	if err != nil {
		return nil, err
	}
	if anchor, spread, ok := scrapePhase(times, window); ok {
		rec.Anchor, rec.Spread, rec.Scrapes = anchor, spread, len(times)
		rec.Detail += fmt.Sprintf("; %d scrape times of %s over the last %s: at %s past each %s, within %s",
			len(times), metricMSLastRequest, span, recording.ScrapeOffset(anchor, window), window, spread)
	}
	return rec, nil
}

// resolutionOf is a resolution in seconds as a duration: to the whole
// second when it is within 2% of one (the flag is given in seconds), else
// to the millisecond.
func resolutionOf(seconds float64) time.Duration {
	if math.IsNaN(seconds) || seconds <= 0 || seconds > 24*3600 {
		return 0
	}
	if whole := math.Round(seconds); whole >= 1 && math.Abs(seconds-whole) <= 0.02*whole {
		return time.Duration(whole) * time.Second
	}
	return time.Duration(seconds * float64(time.Second)).Round(time.Millisecond)
}

// scrapeTimes reads the last request times of each node over the span
// before until: each time once per series (the store samples a time
// again until metrics-server's next scrape), those outside lo..hi (a
// clock off) left out.
func (c *Client) scrapeTimes(ctx context.Context, span time.Duration, until, lo, hi time.Time) ([]time.Time, error) {
	var times []time.Time
	_, _, err := c.queryRaw(ctx, "metrics-server's scrape times", scoped(metricMSLastRequest, c.scope), span, until, func(model.Metric) func(model.Time, float64) {
		last := math.NaN()
		return func(_ model.Time, v float64) {
			if v == last || math.IsNaN(v) || math.IsInf(v, 0) {
				return
			}
			last = v
			if t := unixSeconds(v); !t.Before(lo) && !t.After(hi) {
				times = append(times, t)
			}
		}
	})
	return times, err
}

// scrapePhase works out the scrapes' anchor from their times in whole
// seconds: each is taken at the middle of its second, and their offsets
// from the multiples of the window are averaged on the circle (an offset
// just below the window and one just above zero are neighbours). ok is
// false without times, or when they spread over more than a quarter of
// the window either way (several metrics-servers at their own phases, or
// a restart that moved it).
func scrapePhase(times []time.Time, window time.Duration) (anchor time.Time, spread time.Duration, ok bool) {
	if len(times) == 0 || window <= 0 {
		return time.Time{}, 0, false
	}
	angle := func(t time.Time) float64 {
		off := recording.ScrapeOffset(t.Add(time.Second/2), window)
		return 2 * math.Pi * float64(off) / float64(window)
	}
	var sx, sy float64
	for _, t := range times {
		a := angle(t)
		sx, sy = sx+math.Cos(a), sy+math.Sin(a)
	}
	mean := math.Atan2(sy, sx)
	worst := 0.0
	for _, t := range times {
		d := math.Abs(math.Remainder(angle(t)-mean, 2*math.Pi))
		worst = max(worst, d)
	}
	spread = time.Duration(worst/(2*math.Pi)*float64(window)) + time.Second/2
	if spread > window/4 {
		return time.Time{}, spread, false
	}
	off := time.Duration(math.Mod(mean/(2*math.Pi)+1, 1) * float64(window))
	return recording.ScrapeAt(off), spread.Round(time.Millisecond), true
}
