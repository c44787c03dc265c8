// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// LocationLoader resolves an IANA time zone name, as time.LoadLocation
// does. The package does no I/O itself: callers that replay cron triggers
// outside UTC pass time.LoadLocation (or a loader over an embedded
// database).
type LocationLoader func(name string) (*time.Location, error)

// cronParser parses the five-field schedules KEDA's cron scaler accepts
// (minute, hour, day of month, month, day of week; no descriptors, no
// seconds), with the same library KEDA uses.
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)

// loadLocation resolves name with the caller's loader. "" and "UTC" need
// none (time.LoadLocation answers both with UTC without reading a zone
// database).
func loadLocation(load LocationLoader, name string) (*time.Location, error) {
	if name == "" || name == "UTC" {
		return time.UTC, nil
	}
	if load == nil {
		return nil, fmt.Errorf("unknown time zone %s: no time zone database given", name)
	}
	loc, err := load(name)
	if err != nil {
		return nil, err
	}
	if loc == nil {
		return nil, fmt.Errorf("unknown time zone %s", name)
	}
	return loc, nil
}

// parseSchedule parses one schedule. A "TZ=ZONE " or "CRON_TZ=ZONE "
// prefix, which the library resolves by reading the zone database, is
// resolved here through load instead; a prefix without a schedule after
// it makes the library panic, so it is an error here.
func parseSchedule(spec string, load LocationLoader) (cron.Schedule, error) {
	if spec == "" {
		return nil, fmt.Errorf("empty spec string")
	}
	if !strings.HasPrefix(spec, "TZ=") && !strings.HasPrefix(spec, "CRON_TZ=") {
		return cronParser.Parse(spec)
	}
	sp := strings.Index(spec, " ")
	if sp < 0 {
		return nil, fmt.Errorf("time zone prefix without a schedule (KEDA's cron library panics on %q)", spec)
	}
	zone := spec[strings.Index(spec, "=")+1 : sp]
	loc, err := loadLocation(load, zone)
	if err != nil {
		return nil, fmt.Errorf("provided bad location %s: %w", zone, err)
	}
	s, err := cronParser.Parse(strings.TrimSpace(spec[sp:]))
	if err != nil {
		return nil, err
	}
	// The library keeps the zone on the schedule; set it as it would.
	if ss, ok := s.(*cron.SpecSchedule); ok {
		ss.Location = loc
	}
	return s, nil
}

// cronTimeFormat is how KEDA writes a schedule into a metric name: spaces
// dropped, * → x, / → Sl, ? → Qm, "," → Cm.
func cronTimeFormat(s string) string {
	s = strings.ReplaceAll(s, " ", "")
	s = strings.ReplaceAll(s, "*", "x")
	s = strings.ReplaceAll(s, "/", "Sl")
	s = strings.ReplaceAll(s, "?", "Qm")
	s = strings.ReplaceAll(s, ",", "Cm")
	return s
}

// cronWindow is a cron trigger's activity at one instant.
type cronWindow struct {
	nextStart, nextEnd time.Time
	active             bool
}

// cronActivity replays KEDA's cron activity at now in loc: it takes the
// next start and the next end strictly after now, and the trigger is
// active when the next end comes no later than the next start. The window
// is therefore [start, end): active at the start instant, inactive at the
// end instant.
func cronActivity(start, end cron.Schedule, loc *time.Location, now time.Time) cronWindow {
	t := now.In(loc)
	w := cronWindow{nextStart: start.Next(t), nextEnd: end.Next(t)}
	// KEDA: within = now after nextStart (never: nextStart is after now)
	// && now before nextEnd when the start comes first; else now after
	// nextStart || now before nextEnd (always: nextEnd is after now).
	if w.nextStart.Before(w.nextEnd) {
		w.active = t.After(w.nextStart) && t.Before(w.nextEnd)
	} else {
		w.active = t.After(w.nextStart) || t.Before(w.nextEnd)
	}
	return w
}
