// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package tune

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Figures are what an exact replay of the period says of one setting. Search
// reads Cost, Risk and Rescales; Ref is the caller's and is kept with the
// candidate.
type Figures struct {
	// Cost is what the search minimizes: requested core-hours where the
	// requests are known, else pod-hours (the caller says which in its
	// output).
	Cost float64
	// Risk is the share of the period (0 to 1) the load ran above the
	// user's bound, on the worst metric.
	Risk float64
	// Rescales counts the replay's changes of the replica count.
	Rescales int
	// Ref is the caller's handle on the replay behind the figures (an index
	// into its own table of them): Search keeps it and never reads it.
	Ref int
}

// Evaluator replays the period under one setting.
type Evaluator func(ctx context.Context, s Setting) (Figures, error)

// DefaultBudget is how many candidates a search replays unless told: tune's
// --budget and hpa_tune's budget default to it.
const DefaultBudget = 300

// Options bound a search.
type Options struct {
	// Budget is the most candidates replayed (DefaultBudget when 0).
	Budget int
	// Workers is how many replays run at once (default GOMAXPROCS).
	Workers int
	// Reference is the figures of the HPA as it is (the as-is replay).
	Reference Figures
	// MaxRisk, when set, is the bound on the recommendation's risk instead
	// of the reference's.
	MaxRisk *float64
}

// Candidate is one replayed setting.
type Candidate struct {
	Setting Setting
	// Index is its position in the space, one index per axis.
	Index []int
	// Values labels each axis's value ("70%", "60s", ...).
	Values  []string
	Figures Figures
	// Err is why the replay failed; such a candidate is on no frontier.
	Err string
	// Frontier is true when no other candidate beats it on both cost and
	// risk.
	Frontier bool
	// Distance is how many grid steps it lies from the current setting.
	Distance int
	// Range is its figures over the variants of the recording, for a
	// finalist (Robust); nil otherwise.
	Range *Range
}

// Result is what a search found.
type Result struct {
	// Candidates are every replayed setting, cheapest first.
	Candidates []Candidate
	// Current is the index in Candidates of the HPA's own setting, replayed
	// like the others (-1 if it failed).
	Current int
	// Recommended is the index of the recommendation, -1 when no candidate
	// keeps the risk within the bound.
	Recommended int
	// Bound is the risk the recommendation had to keep within.
	Bound float64
	// Rounds is how many refinement rounds ran after the coarse one;
	// Exhausted says whether the budget ended the search.
	Rounds    int
	Exhausted bool
	// GridSize is the number of settings of the whole fine grid.
	GridSize int
	// Finalists are the indices of the candidates Robust replayed under
	// the variants (empty without it).
	Finalists []int
}

// riskSlack absorbs float noise when comparing risks that are sums of the
// same durations.
const riskSlack = 1e-9

// Search replays the coarse round, then refines around the frontier and the
// recommendation until a round adds nothing or the budget is spent.
func Search(ctx context.Context, sp *Space, eval Evaluator, o Options) (*Result, error) {
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	bound := o.Reference.Risk
	if o.MaxRisk != nil {
		bound = *o.MaxRisk
	}
	s := &searcher{sp: sp, eval: eval, o: o, seen: map[string]int{}, bound: bound}
	cur := sp.CurrentIndex()
	first := append([][]int{cur}, s.coarse(o.Budget/2)...)
	if err := s.run(ctx, first); err != nil {
		return nil, err
	}
	rounds := 0
	for len(s.cands) < o.Budget {
		front := s.frontierKeys()
		var next [][]int
		for _, c := range s.focus() {
			next = append(next, s.neighbours(c.Index)...)
		}
		if len(next) == 0 {
			break
		}
		rounds++
		if err := s.run(ctx, next); err != nil {
			return nil, err
		}
		if slices.Equal(front, s.frontierKeys()) {
			break
		}
	}
	return s.result(rounds), nil
}

type searcher struct {
	sp    *Space
	eval  Evaluator
	o     Options
	bound float64
	cands []Candidate
	seen  map[string]int
}

func key(idx []int) string {
	var b strings.Builder
	for i, v := range idx {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(v))
	}
	return b.String()
}

// coarse lists the product of the axes' coarse values, thinned to at most
// limit settings: while the product is larger, the axis with the most coarse
// values loses the one farthest from its current value.
func (s *searcher) coarse(limit int) [][]int {
	lists := make([][]int, len(s.sp.Axes))
	for a, ax := range s.sp.Axes {
		lists[a] = slices.Clone(ax.Coarse)
		if !slices.Contains(lists[a], ax.Current) {
			lists[a] = append(lists[a], ax.Current)
		}
	}
	product := func() int {
		n := 1
		for _, l := range lists {
			n *= len(l)
		}
		return n
	}
	for limit > 0 && product() > limit {
		a := 0
		for i := range lists {
			if len(lists[i]) > len(lists[a]) {
				a = i
			}
		}
		if len(lists[a]) <= 1 {
			break
		}
		cur := s.sp.Axes[a].Current
		far := 0
		for i, v := range lists[a] {
			if abs(v-cur) > abs(lists[a][far]-cur) {
				far = i
			}
		}
		lists[a] = slices.Delete(lists[a], far, far+1)
	}
	var out [][]int
	var walk func(a int, idx []int)
	walk = func(a int, idx []int) {
		if a == len(lists) {
			out = append(out, slices.Clone(idx))
			return
		}
		for _, v := range lists[a] {
			walk(a+1, append(idx, v))
		}
	}
	walk(0, nil)
	return out
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// neighbours lists the settings one fine step away on one axis.
func (s *searcher) neighbours(idx []int) [][]int {
	var out [][]int
	for a, ax := range s.sp.Axes {
		for _, d := range []int{-1, 1} {
			v := idx[a] + d
			if v < 0 || v >= len(ax.Fine) {
				continue
			}
			n := slices.Clone(idx)
			n[a] = v
			out = append(out, n)
		}
	}
	return out
}

// run replays the settings not seen yet, within the budget, Workers at a
// time.
func (s *searcher) run(ctx context.Context, list [][]int) error {
	var todo [][]int
	for _, idx := range list {
		k := key(idx)
		if _, ok := s.seen[k]; ok {
			continue
		}
		if len(s.cands)+len(todo) >= s.o.Budget+1 { // +1: the current setting is not counted against the budget
			break
		}
		s.seen[k] = -1
		todo = append(todo, idx)
	}
	out := make([]Candidate, len(todo))
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range min(s.o.Workers, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i], errs[i] = s.replay(ctx, todo[i])
			}
		}()
	}
	for i := range todo {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for i, c := range out {
		if errs[i] != nil {
			return errs[i]
		}
		s.seen[key(c.Index)] = len(s.cands)
		s.cands = append(s.cands, c)
	}
	return ctx.Err()
}

func (s *searcher) replay(ctx context.Context, idx []int) (Candidate, error) {
	set := s.sp.Setting(idx)
	c := Candidate{Setting: set, Index: idx}
	for a, i := range idx {
		c.Values = append(c.Values, s.sp.Axes[a].Fine[i].Label)
		c.Distance += abs(i - s.sp.Axes[a].Current)
	}
	if err := ctx.Err(); err != nil {
		return c, err
	}
	f, err := s.eval(ctx, set)
	switch {
	case err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		return c, err
	case err != nil:
		c.Err = err.Error()
	default:
		c.Figures = f
	}
	return c, nil
}

// dominates reports whether a is no worse than b on cost and risk and
// better on one.
func dominates(a, b *Figures) bool {
	noWorse := a.Cost <= b.Cost && a.Risk <= b.Risk+riskSlack
	better := a.Cost < b.Cost || a.Risk < b.Risk-riskSlack
	return noWorse && better
}

// markFrontier sets Frontier on the candidates no other dominates.
func markFrontier(cands []Candidate) {
	for i := range cands {
		c := &cands[i]
		c.Frontier = c.Err == ""
		for j := range cands {
			if c.Frontier && j != i && cands[j].Err == "" && dominates(&cands[j].Figures, &c.Figures) {
				c.Frontier = false
			}
		}
	}
}

func (s *searcher) frontierKeys() []string {
	markFrontier(s.cands)
	var out []string
	for _, c := range s.cands {
		if c.Frontier {
			out = append(out, key(c.Index))
		}
	}
	slices.Sort(out)
	return out
}

// recommend returns the index of the recommendation in cands, or -1: the
// cheapest within the bound; then the lower risk, fewer rescales, the
// nearer to the current setting.
func recommend(cands []Candidate, bound float64) int {
	best := -1
	for i := range cands {
		c := &cands[i]
		if c.Err != "" || c.Figures.Risk > bound+riskSlack {
			continue
		}
		if best < 0 || better(c, &cands[best]) {
			best = i
		}
	}
	return best
}

func better(a, b *Candidate) bool {
	if c := cmp.Compare(a.Figures.Cost, b.Figures.Cost); c != 0 {
		return c < 0
	}
	if a.Figures.Risk < b.Figures.Risk-riskSlack || a.Figures.Risk > b.Figures.Risk+riskSlack {
		return a.Figures.Risk < b.Figures.Risk
	}
	if a.Figures.Rescales != b.Figures.Rescales {
		return a.Figures.Rescales < b.Figures.Rescales
	}
	if a.Distance != b.Distance {
		return a.Distance < b.Distance
	}
	return key(a.Index) < key(b.Index)
}

// focus is where the next round looks: the frontier and the
// recommendation.
func (s *searcher) focus() []Candidate {
	markFrontier(s.cands)
	var out []Candidate
	for _, c := range s.cands {
		if c.Frontier {
			out = append(out, c)
		}
	}
	if r := recommend(s.cands, s.bound); r >= 0 && !s.cands[r].Frontier {
		out = append(out, s.cands[r])
	}
	return out
}

func (s *searcher) result(rounds int) *Result {
	markFrontier(s.cands)
	cands := slices.Clone(s.cands)
	slices.SortStableFunc(cands, func(a, b Candidate) int {
		if a.Err != "" || b.Err != "" {
			return cmp.Compare(boolInt(a.Err != ""), boolInt(b.Err != ""))
		}
		if c := cmp.Compare(a.Figures.Cost, b.Figures.Cost); c != 0 {
			return c
		}
		return cmp.Compare(a.Figures.Risk, b.Figures.Risk)
	})
	r := &Result{Candidates: cands, Current: -1, Bound: s.bound, Rounds: rounds, GridSize: s.sp.Size()}
	r.Exhausted = len(s.cands) > s.o.Budget
	cur := key(s.sp.CurrentIndex())
	for i := range cands {
		if key(cands[i].Index) == cur && cands[i].Err == "" {
			r.Current = i
		}
	}
	r.Recommended = recommend(cands, s.bound)
	return r
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Changes lists, in words, how a candidate differs from the current
// setting: "target of cpu 50% → 70%".
func (sp *Space) Changes(c *Candidate) []string {
	var out []string
	for a, ax := range sp.Axes {
		if c.Index[a] != ax.Current {
			out = append(out, fmt.Sprintf("%s %s → %s", ax.Name, ax.Fine[ax.Current].Label, ax.Fine[c.Index[a]].Label))
		}
	}
	return out
}
