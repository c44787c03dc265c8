// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// FailOn is the set of problems that fail `explain --exit-code`.
type FailOn map[explain.Problem]bool

// ParseFailOn reads --fail-on: a list of problem names replaces the
// default set (explain.DefaultProblems); names each with a + or - sign
// add to it or remove from it ("+limited,-disagrees"). "all" names every
// problem. "" is the default set.
func ParseFailOn(spec string) (FailOn, error) {
	var in ExplainInput
	failOn := in.flag(&in.FailOn)
	set := FailOn{}
	for _, p := range explain.DefaultProblems() {
		set[p] = true
	}
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return set, nil
	}
	signed, unsigned := 0, 0
	var items []string
	for _, it := range strings.Split(spec, ",") {
		if it = strings.TrimSpace(it); it == "" {
			return nil, fmt.Errorf("%s %q: an empty name", failOn, spec)
		}
		if it[0] == '+' || it[0] == '-' {
			signed++
		} else {
			unsigned++
		}
		items = append(items, it)
	}
	if signed > 0 && unsigned > 0 {
		return nil, fmt.Errorf("%s %q: give either a list of problems or changes to the default (+name, -name), not both", failOn, spec)
	}
	if unsigned > 0 {
		set = FailOn{}
	}
	for _, it := range items {
		on := it[0] != '-'
		name := strings.TrimLeft(it, "+-")
		var ps []explain.Problem
		switch {
		case name == "all":
			ps = explain.AllProblems()
		case slices.Contains(explain.AllProblems(), explain.Problem(name)):
			ps = []explain.Problem{explain.Problem(name)}
		default:
			return nil, fmt.Errorf("%s: unknown problem %q (want all or some of: %s)", failOn, name, problemNames(explain.AllProblems()))
		}
		for _, p := range ps {
			if on {
				set[p] = true
			} else {
				delete(set, p)
			}
		}
	}
	return set, nil
}

// Problems returns the problems in the set, in the order of
// explain.AllProblems.
func (f FailOn) Problems() []explain.Problem {
	var out []explain.Problem
	for _, p := range explain.AllProblems() {
		if f[p] {
			out = append(out, p)
		}
	}
	return out
}

// Gate collects the problems in its set that the decisions it is shown
// have, for `explain --exit-code`. It is safe for concurrent use (explain -A
// shows it each decision as it is replayed). A nil Gate checks nothing.
type Gate struct {
	failOn FailOn
	mu     sync.Mutex
	found  []HPAProblems
	shown  int
}

// NewGate returns a gate failing on the problems of failOn.
func NewGate(failOn FailOn) *Gate { return &Gate{failOn: failOn} }

// Check records the problems of d the gate fails on.
func (g *Gate) Check(d *explain.Decision) {
	if g == nil || d == nil {
		return
	}
	var ps []explain.Problem
	for _, p := range d.Problems() {
		if g.failOn[p] {
			ps = append(ps, p)
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.shown++
	if len(ps) > 0 {
		g.found = append(g.found, HPAProblems{HPA: d.HPA.Namespace + "/" + d.HPA.Name, Problems: ps})
	}
}

// Err returns a *ProblemsError when a decision shown had a problem, nil
// otherwise.
func (g *Gate) Err() error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.found) == 0 {
		return nil
	}
	found := slices.Clone(g.found)
	slices.SortFunc(found, func(a, b HPAProblems) int { return strings.Compare(a.HPA, b.HPA) })
	return &ProblemsError{HPAs: found, Checked: g.shown}
}

// HPAProblems are the problems one HPA has.
type HPAProblems struct {
	// HPA is namespace/name.
	HPA      string
	Problems []explain.Problem
}

// ProblemsError says that explain --exit-code found problems: pkg/cli
// exits with status 2 for it, after printing its message.
type ProblemsError struct {
	HPAs []HPAProblems
	// Checked is the number of HPAs explained.
	Checked int
}

// maxNamed is how many HPAs the message of a ProblemsError names.
const maxNamed = 5

func (e *ProblemsError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "problems found in %d of %d HPAs: ", len(e.HPAs), e.Checked)
	if e.Checked == 1 {
		b.Reset()
		b.WriteString("problems found: ")
	}
	for i, h := range e.HPAs {
		if i == maxNamed {
			fmt.Fprintf(&b, "; and %d more", len(e.HPAs)-maxNamed)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s", h.HPA, problemNames(h.Problems))
	}
	return b.String()
}

func problemNames(ps []explain.Problem) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = string(p)
	}
	return strings.Join(s, ", ")
}
