// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
)

// Trace is a load trace: a header naming what each column sets, then rows of
// a time and values. A value holds from its row's time until the next row
// that gives the column a value.
//
// Columns after the first ("time"):
//
//	cpu, memory           total usage of the workload, shared by the pods that report
//	cpu/pod, memory/pod   usage of each reporting pod
//	pods:NAME             total of Pods metric NAME, shared by the pods that report
//	pods:NAME/pod         value of Pods metric NAME on each reporting pod
//	object:NAME           value of Object metric NAME
//	external:NAME         value of External metric NAME (the sum of its series)
//
// Times are offsets from the start of the projection ("0s", "90s", "5m",
// or plain seconds) or RFC 3339 instants. Empty cells keep the previous
// value.
type Trace struct {
	Columns []TraceColumn
	Rows    []TraceRow

	// The lookup index of valueAt, built on first use (Resolve drops it):
	// the running maximum of the row offsets, and per column the index of
	// the last row up to each row that gives the column a value (-1: none).
	maxOffset []time.Duration
	lastSet   [][]int
}

// TraceColumn is what one column sets.
type TraceColumn struct {
	Header string
	// Kind is "resource", "pods", "object" or "external".
	Kind string
	// Name is the resource or the metric name.
	Name   string
	PerPod bool
}

// TraceRow is one line of a trace.
type TraceRow struct {
	// Offset from the start, or At for an absolute time (resolved by
	// Resolve).
	Offset time.Duration
	At     *time.Time
	Values []*resource.Quantity
	Line   int
}

// ParseTrace reads a CSV load trace (see Trace). name is used in errors.
func ParseTrace(name string, data []byte) (*Trace, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	r.TrimLeadingSpace = true
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the trace is empty; it needs a header like \"time,cpu\" and one row per change", name)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(header) < 2 || strings.TrimSpace(strings.ToLower(header[0])) != "time" {
		return nil, fmt.Errorf("%s line 1: the header must start with \"time\" and name at least one column (like \"time,cpu\" or \"time,cpu/pod,external:queue_length\")", name)
	}
	tr := &Trace{}
	for _, h := range header[1:] {
		c, err := parseColumn(strings.TrimSpace(h))
		if err != nil {
			return nil, fmt.Errorf("%s line 1: %w", name, err)
		}
		tr.Columns = append(tr.Columns, c)
	}
	var last time.Duration
	var lastAt *time.Time
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// A record that does not parse has no field positions.
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) > len(header) {
			return nil, fmt.Errorf("%s line %d: %d values for %d columns", name, line, len(rec), len(header))
		}
		row := TraceRow{Line: line, Values: make([]*resource.Quantity, len(tr.Columns))}
		ts := strings.TrimSpace(rec[0])
		if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
			row.At = &t
			if lastAt != nil && t.Before(*lastAt) {
				return nil, fmt.Errorf("%s line %d: time %s is before the previous row's", name, line, ts)
			}
			lastAt = &t
		} else {
			d, err := parseOffset(ts)
			if err != nil {
				return nil, fmt.Errorf("%s line %d: %q is not a time (an offset like 90s or 5m, seconds, or an RFC 3339 time)", name, line, ts)
			}
			if d < last {
				return nil, fmt.Errorf("%s line %d: time %s is before the previous row's", name, line, ts)
			}
			row.Offset, last = d, d
		}
		for i, v := range rec[1:] {
			v = strings.TrimSpace(v)
			if v == "" {
				continue
			}
			q, err := ParseQuantity(v)
			if err != nil {
				return nil, fmt.Errorf("%s line %d, column %s: %q is not a quantity", name, line, tr.Columns[i].Header, v)
			}
			if q.Sign() < 0 {
				return nil, fmt.Errorf("%s line %d, column %s: %q is negative", name, line, tr.Columns[i].Header, v)
			}
			if q.Cmp(MaxQuantity) > 0 {
				return nil, fmt.Errorf("%s line %d, column %s: %q is above the limit of %s", name, line, tr.Columns[i].Header, v, MaxQuantity.String())
			}
			row.Values[i] = &q
		}
		if len(tr.Rows) == MaxTraceRows {
			return nil, fmt.Errorf("%s line %d: more than %d rows, the limit (a projection replays at most %d syncs)", name, line, MaxTraceRows, DefaultMaxSteps)
		}
		tr.Rows = append(tr.Rows, row)
	}
	if len(tr.Rows) == 0 {
		return nil, fmt.Errorf("%s: the trace has a header but no rows", name)
	}
	return tr, nil
}

func parseOffset(s string) (time.Duration, error) {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f < 0 {
			return 0, errors.New("negative")
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, errors.New("not an offset")
	}
	return d, nil
}

func parseColumn(h string) (TraceColumn, error) {
	c := TraceColumn{Header: h}
	body := h
	if strings.HasSuffix(body, "/pod") {
		c.PerPod, body = true, strings.TrimSuffix(body, "/pod")
	}
	switch {
	case body == "cpu" || body == "memory":
		c.Kind, c.Name = "resource", body
	case strings.HasPrefix(body, "pods:"):
		c.Kind, c.Name = "pods", strings.TrimPrefix(body, "pods:")
	case strings.HasPrefix(body, "object:") && !c.PerPod:
		c.Kind, c.Name = "object", strings.TrimPrefix(body, "object:")
	case strings.HasPrefix(body, "external:") && !c.PerPod:
		c.Kind, c.Name = "external", strings.TrimPrefix(body, "external:")
	default:
		return c, fmt.Errorf("unknown column %q (want cpu, memory, cpu/pod, memory/pod, pods:NAME, pods:NAME/pod, object:NAME or external:NAME)", h)
	}
	if c.Name == "" {
		return c, fmt.Errorf("column %q: the metric name is empty", h)
	}
	return c, nil
}

// check makes sure every column names a metric of hpa.
func (tr *Trace) check(name string, hpa *autoscalingv2.HorizontalPodAutoscaler) error {
	for _, c := range tr.Columns {
		ok := false
		switch c.Kind {
		case "resource":
			ok = engine.HasResourceMetric(hpa, corev1.ResourceName(c.Name))
		case "pods":
			ok = engine.HasPodsMetric(hpa, c.Name)
		default:
			for _, m := range hpa.Spec.Metrics {
				if (c.Kind == "object" && m.Object != nil && m.Object.Metric.Name == c.Name) ||
					(c.Kind == "external" && m.External != nil && m.External.Metric.Name == c.Name) {
					ok = true
				}
			}
		}
		if !ok {
			return fieldErr(FieldTrace, name, "column %q: the HPA %s/%s has no such metric (its metrics: %s)", c.Header, hpa.Namespace, hpa.Name, metricNames(hpa))
		}
	}
	return nil
}

// resolved returns a copy of the trace whose absolute row times are offsets
// from start.
func (tr *Trace) resolved(start time.Time) *Trace {
	out := *tr
	out.Rows = append([]TraceRow(nil), tr.Rows...)
	out.resolve(start)
	return &out
}

// resolve turns absolute row times into offsets from start.
func (tr *Trace) resolve(start time.Time) {
	for i := range tr.Rows {
		if at := tr.Rows[i].At; at != nil {
			tr.Rows[i].Offset = at.Sub(start)
			tr.Rows[i].At = nil
		}
	}
	tr.maxOffset, tr.lastSet = nil, nil
}

// End is the offset of the last row.
func (tr *Trace) End() time.Duration { return tr.Rows[len(tr.Rows)-1].Offset }

// valueAt is column col's value at offset off: the last value given by the
// rows before the first row whose time is after off. It is called for every
// column at every sync, so it searches an index instead of the rows.
func (tr *Trace) valueAt(col int, off time.Duration) (*resource.Quantity, bool) {
	if tr.maxOffset == nil {
		tr.buildIndex()
	}
	// The first row after off is the first whose running maximum is after
	// off.
	k := sort.Search(len(tr.maxOffset), func(i int) bool { return tr.maxOffset[i] > off })
	if k == 0 {
		return nil, false
	}
	i := tr.lastSet[col][k-1]
	if i < 0 {
		return nil, false
	}
	return tr.Rows[i].Values[col], true
}

func (tr *Trace) buildIndex() {
	tr.maxOffset = make([]time.Duration, len(tr.Rows))
	tr.lastSet = make([][]int, len(tr.Columns))
	for c := range tr.lastSet {
		tr.lastSet[c] = make([]int, len(tr.Rows))
	}
	for i := range tr.Rows {
		tr.maxOffset[i] = tr.Rows[i].Offset
		if i > 0 {
			tr.maxOffset[i] = max(tr.maxOffset[i], tr.maxOffset[i-1])
		}
		for c := range tr.Columns {
			switch {
			case tr.Rows[i].Values[c] != nil:
				tr.lastSet[c][i] = i
			case i > 0:
				tr.lastSet[c][i] = tr.lastSet[c][i-1]
			default:
				tr.lastSet[c][i] = -1
			}
		}
	}
}

func (tr *Trace) pendingAfter(off time.Duration) bool { return tr.End() > off }

// applyPods sets the resource usage and Pods metric values at t.
func (tr *Trace) applyPods(s *simulation, t time.Time, res map[corev1.ResourceName]map[string]int64, pods map[string]int64, perPod map[string]bool) {
	off := t.Sub(s.start)
	for i, c := range tr.Columns {
		q, ok := tr.valueAt(i, off)
		if !ok {
			continue
		}
		switch c.Kind {
		case "resource":
			r := corev1.ResourceName(c.Name)
			res[r] = s.splitOverContainers(r, q.MilliValue())
			perPod[c.Name] = c.PerPod
		case "pods":
			pods[c.Name] = q.MilliValue()
			perPod["pods:"+c.Name] = c.PerPod
		}
	}
}

// applyObjects sets the Object and External metric values at t.
func (tr *Trace) applyObjects(s *simulation, t time.Time) {
	off := t.Sub(s.start)
	e := &editor{snap: s.snap, set: s.set, sampleTime: t.Add(-s.lag), sampleWindow: s.window}
	for i, c := range tr.Columns {
		q, ok := tr.valueAt(i, off)
		if !ok {
			continue
		}
		mo := MetricOverride{Name: c.Name, Change: Change{Kind: Absolute, Value: *q, Text: q.String()}}
		for _, m := range s.snap.HPA.Spec.Metrics {
			switch {
			case c.Kind == "object" && m.Object != nil && m.Object.Metric.Name == c.Name:
				_ = e.setObject(mo, m.Object)
			case c.Kind == "external" && m.External != nil && m.External.Metric.Name == c.Name:
				_ = e.setExternal(mo, m.External.Metric.Selector)
			}
		}
		delete(s.snap.APIErrors, c.Kind+":"+c.Name)
	}
}
