// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// param describes one trigger metadata parameter as KEDA's typed scaler
// configuration declares it: its names (the first non-empty wins), whether
// it may be missing, its default, the values it may take and whether it
// was removed.
type param struct {
	names      []string
	optional   bool
	def        string
	enum       []string
	exclusive  []string
	deprecated string
}

// name is how KEDA's messages name a parameter: its names joined by ",".
func (p param) name() string { return strings.Join(p.names, ",") }

// metadata reads one trigger's metadata the way KEDA's typed configuration
// does, collecting every error (KEDA joins them) instead of stopping at the
// first.
type metadata struct {
	kind string
	m    map[string]string
	errs []error
}

// newMetadata wraps one trigger's metadata; kind is the trigger type.
func newMetadata(kind string, m map[string]string) *metadata {
	return &metadata{kind: kind, m: m}
}

// err returns the collected errors joined, as KEDA reports them, or nil.
func (md *metadata) err() error { return errors.Join(md.errs...) }

// fail records one error.
func (md *metadata) fail(format string, args ...any) {
	md.errs = append(md.errs, fmt.Errorf(format, args...))
}

// get returns the parameter's raw value. A value is trimmed of spaces and
// an empty one counts as missing; a missing parameter takes its default,
// or is an error unless optional; a removed parameter that is set, a
// value outside the enum (each comma-separated part is checked) and two
// values of an exclusive set are errors. The bool is false when the
// parameter has no value (missing and optional, or an error).
func (md *metadata) get(p param) (string, bool) {
	val, ok := "", false
	for _, n := range p.names {
		if v := strings.TrimSpace(md.m[n]); v != "" {
			val, ok = v, true
			break
		}
	}
	if ok && p.deprecated != "" {
		md.fail("scaler %s info: %s", md.kind, p.deprecated)
		return "", false
	}
	if !ok && p.def != "" {
		val, ok = p.def, true
	}
	if !ok {
		if !p.optional && p.deprecated == "" {
			md.fail("missing required parameter %q in [triggerMetadata]", p.name())
		}
		return "", false
	}
	if p.enum != nil {
		for _, part := range strings.Split(val, ",") {
			if !slices.Contains(p.enum, strings.TrimSpace(part)) {
				md.fail("parameter %q value %q must be one of %v", p.name(), val, p.enum)
				return "", false
			}
		}
	}
	if p.exclusive != nil {
		n := 0
		for _, part := range strings.Split(val, ",") {
			if slices.Contains(p.exclusive, strings.TrimSpace(part)) {
				n++
			}
		}
		if n > 1 {
			md.fail("parameter %q value %q must contain only one of %v", p.name(), val, p.exclusive)
			return "", false
		}
	}
	return val, true
}

// str reads a string parameter ("" when it has no value).
func (md *metadata) str(p param) string {
	v, _ := md.get(p)
	return v
}

// float reads a float64 parameter as KEDA does: a JSON number (so "1e3"
// and "-2" parse, "+1", ".5" and "0x10" do not).
func (md *metadata) float(p param) (float64, bool) {
	v, ok := md.get(p)
	if !ok {
		return 0, false
	}
	var f float64
	if err := json.Unmarshal([]byte(v), &f); err != nil {
		md.fail("unable to set param %q value %q: unable to unmarshal to field type float64: %w", p.name(), v, err)
		return 0, false
	}
	return f, true
}

// int64 reads an integer parameter as KEDA does: a JSON integer ("10";
// "1.0" and "1e1" fail).
func (md *metadata) int64(p param) (int64, bool) {
	v, ok := md.get(p)
	if !ok {
		return 0, false
	}
	var n int64
	if err := json.Unmarshal([]byte(v), &n); err != nil {
		md.fail("unable to set param %q value %q: unable to unmarshal to field type int64: %w", p.name(), v, err)
		return 0, false
	}
	return n, true
}

// bool reads a boolean parameter with strconv.ParseBool (1, t, true, TRUE,
// 0, f, false …).
func (md *metadata) bool(p param) (bool, bool) {
	v, ok := md.get(p)
	if !ok {
		return false, false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		md.fail("unable to set param %q value %q: unable to parse boolean value %q: %w", p.name(), v, v, err)
		return false, false
	}
	return b, true
}

// duration reads a duration parameter as KEDA does: a Go duration ("30s")
// or a whole number of milliseconds; negative values are errors.
func (md *metadata) duration(p param) (time.Duration, bool) {
	v, ok := md.get(p)
	if !ok {
		return 0, false
	}
	if d, err := time.ParseDuration(v); err == nil {
		if d < 0 {
			md.fail("unable to set param %q value %q: duration cannot be negative: %q", p.name(), v, v)
			return 0, false
		}
		return d, true
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		md.fail("unable to set param %q value %q: unable to parse duration value %q: must be either a duration string (e.g. '30s', '5m') or a number of milliseconds", p.name(), v, v)
		return 0, false
	}
	if ms < 0 {
		md.fail("unable to set param %q value %q: duration cannot be negative: %d milliseconds", p.name(), v, ms)
		return 0, false
	}
	return time.Duration(ms) * time.Millisecond, true
}
