// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// runEngine calls the engine, turning a panic into an error, and encodes
// its decision as every output does (-o json, -o yaml, the plain and the
// styled text): a decision that does not encode is an error too.
func runEngine(c *Case) (dec *explain.Decision, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("engine panic: %v\n%s", r, debug.Stack())
		}
	}()
	dec, err = engine.Evaluate(c.Snapshot, c.Settings)
	if err != nil || dec == nil {
		return dec, err
	}
	for _, f := range []render.Format{render.FormatJSON, render.FormatYAML} {
		if _, err := render.Marshal(f, dec); err != nil {
			return nil, fmt.Errorf("the decision does not encode: %w", err)
		}
	}
	for _, opts := range []render.Options{{}, {Color: true}} {
		if err := render.Write(io.Discard, render.FormatText, dec, opts); err != nil {
			return nil, fmt.Errorf("the decision does not render as text: %w", err)
		}
	}
	return dec, nil
}

// mismatch describes one disagreement.
type mismatch struct {
	Seed     uint64
	Label    string
	Function string
	Field    string
	Upstream string
	Engine   string
}

func (m mismatch) String() string {
	return fmt.Sprintf("seed=%d [%s] %s: %s: upstream=%s engine=%s", m.Seed, m.Label, m.Function, m.Field, m.Upstream, m.Engine)
}

func fmtI32(p *int32) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

func fmtQ(q *resource.Quantity) string {
	if q == nil {
		return "null"
	}
	return fmt.Sprintf("%s (milli %d)", q.String(), q.MilliValue())
}

func fmtWQ(q *wireQuantity) string {
	if q == nil {
		return "null"
	}
	return fmt.Sprintf("%s (milli %d)", q.String, q.Milli)
}

// compare checks the engine's first metric against upstream's calculator.
func compare(c *Case, up upstreamResult, dec *explain.Decision, evalErr error) []mismatch {
	var out []mismatch
	add := func(field, u, e string) {
		out = append(out, mismatch{Seed: c.Seed, Label: c.Label, Function: up.Function, Field: field, Upstream: u, Engine: e})
	}
	if evalErr != nil {
		add("evaluate", "ok", firstLine(evalErr.Error()))
		return out
	}
	if dec == nil || len(dec.Metrics) == 0 {
		add("metrics", "1 metric", "no metrics in decision")
		return out
	}
	m := dec.Metrics[0]
	if up.Err != nil {
		if m.Error == nil {
			add("error", up.errText(), fmt.Sprintf("no error (replicas=%s utilization=%s value=%s)", fmtI32(m.ProposedReplicas), fmtI32(m.Utilization), fmtQ(m.Value)))
			return out
		}
		if !strings.Contains(*m.Error, up.errText()) {
			add("error text", up.errText(), *m.Error)
		}
		if m.ProposedReplicas != nil {
			add("proposedReplicas on error", "null", fmtI32(m.ProposedReplicas))
		}
		return out
	}
	if m.Error != nil {
		add("error", fmt.Sprintf("no error (replicas=%d utilization=%s value=%s)", up.Replicas, fmtI32(up.Utilization), fmtWQ(up.Value)), *m.Error)
		return out
	}
	if m.ProposedReplicas == nil || *m.ProposedReplicas != up.Replicas {
		add("proposedReplicas", fmt.Sprint(up.Replicas), fmtI32(m.ProposedReplicas))
	}
	if fmtI32(m.Utilization) != fmtI32(up.Utilization) {
		add("utilization", fmtI32(up.Utilization), fmtI32(m.Utilization))
	}
	switch {
	case up.Value == nil && m.Value == nil:
	case up.Value == nil || m.Value == nil:
		add("value", fmtWQ(up.Value), fmtQ(m.Value))
	case up.Value.Milli != m.Value.MilliValue() || up.Value.String != m.Value.String():
		add("value", fmtWQ(up.Value), fmtQ(m.Value))
	}
	return out
}

// firstLine keeps a panic's message and drops its stack.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// reproducer is the JSON printed for a disagreement.
func reproducer(seed uint64) string {
	c := Generate(seed)
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func describeEngine(dec *explain.Decision, err error) string {
	if err != nil {
		return "error: " + firstLine(err.Error())
	}
	if dec == nil || len(dec.Metrics) == 0 {
		return "no metrics"
	}
	m := dec.Metrics[0]
	e := "null"
	if m.Error != nil {
		e = *m.Error
	}
	return fmt.Sprintf("replicas=%s utilization=%s value=%s error=%s", fmtI32(m.ProposedReplicas), fmtI32(m.Utilization), fmtQ(m.Value), e)
}

func describeUpstream(up upstreamResult) string {
	e := "null"
	if up.Err != nil {
		e = *up.Err
	}
	return fmt.Sprintf("%s: replicas=%d utilization=%s value=%s error=%s", up.Function, up.Replicas, fmtI32(up.Utilization), fmtWQ(up.Value), e)
}
