// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/options"
)

// DefaultParallelContexts is how many contexts a read of many reads at
// once unless told.
const DefaultParallelContexts = 4

// ContextsInput selects the kubeconfig contexts a read of many HPAs
// covers (ContextsRows), unchecked: each context is its own cluster.
type ContextsInput struct {
	// Names are --contexts; All is --all-contexts.
	Names []string
	All   bool
	// Include and Exclude are regular expressions over the contexts'
	// names.
	Include, Exclude string
	// Parallel is how many contexts run at once (0: the default);
	// Timeout bounds each context's work (0: only each request is
	// bounded).
	Parallel int
	Timeout  time.Duration
}

// contextsCLIOnly is why the tools take no contexts' options.
const contextsCLIOnly = "a tool call reads one cluster, which its context argument picks; a call per context reads many"

// ContextsRows select the contexts of a read of many HPAs: one group for
// every command that takes -A.
var ContextsRows = options.Rows[ContextsInput]{
	{
		Name: "contexts", Help: "Without a NAME: read the HPAs of these kubeconfig contexts, each its own cluster (comma-separated or repeated)",
		CLIOnly: contextsCLIOnly,
		Field:   func(in *ContextsInput) options.Value { return options.CommaStrings(&in.Names) },
	},
	{
		Name: "all-contexts", Help: "Without a NAME: read the HPAs of every context of the kubeconfig",
		CLIOnly: contextsCLIOnly,
		Field:   func(in *ContextsInput) options.Value { return options.Bool(&in.All) },
	},
	{
		Name: "include-contexts", Help: "Without a NAME: only the contexts whose names match this regular expression (of the contexts named, else of every context of the kubeconfig)",
		CLIOnly: contextsCLIOnly,
		Field:   func(in *ContextsInput) options.Value { return options.String(&in.Include) },
	},
	{
		Name: "exclude-contexts", Help: "Without a NAME: leave out the contexts whose names match this regular expression",
		CLIOnly: contextsCLIOnly,
		Field:   func(in *ContextsInput) options.Value { return options.String(&in.Exclude) },
	},
	{
		Name: "parallel", Help: fmt.Sprintf("With many contexts: how many are read at once (default %d)", DefaultParallelContexts),
		CLIOnly: contextsCLIOnly,
		Field:   func(in *ContextsInput) options.Value { return options.Int(&in.Parallel) },
	},
	{
		Name: "context-timeout", Help: "With many contexts: the time limit of each context's work (0: none beyond each request's own)",
		CLIOnly: contextsCLIOnly,
		Field:   func(in *ContextsInput) options.Value { return options.PlainDuration(&in.Timeout) },
	},
}

// flag names the option that sets field, for a message.
func (in *ContextsInput) flag(field any) string { return ContextsRows.Named(in, field).Flag() }

// Contexts is a checked ContextsInput. A nil *Contexts reads the
// kubeconfig's current context (or --context) alone, as without these
// options.
type Contexts struct {
	names            []string
	all              bool
	include, exclude *regexp.Regexp
	parallel         int
	timeout          time.Duration
}

// Given reports whether an option names contexts.
func (in ContextsInput) Given() bool {
	return len(in.Names) > 0 || in.All || in.Include != "" || in.Exclude != ""
}

// Check checks the input: nil when no option names a context.
func (in ContextsInput) Check() (*Contexts, error) {
	if in.Parallel < 0 {
		return nil, usageErrorf("%s must be at least 1, not %d", in.flag(&in.Parallel), in.Parallel)
	}
	if in.Timeout < 0 {
		return nil, usageErrorf("%s must not be negative, not %s", in.flag(&in.Timeout), in.Timeout)
	}
	if !in.Given() {
		return nil, nil
	}
	if in.All && len(in.Names) > 0 {
		return nil, usageErrorf("%s and %s contradict each other: give the names, or every context", in.flag(&in.Names), in.flag(&in.All))
	}
	c := &Contexts{all: in.All, parallel: in.Parallel, timeout: in.Timeout}
	if c.parallel == 0 {
		c.parallel = DefaultParallelContexts
	}
	for _, n := range in.Names {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(c.names, n) {
			c.names = append(c.names, n)
		}
	}
	var err error
	if in.Include != "" {
		if c.include, err = regexp.Compile(in.Include); err != nil {
			return nil, usageErrorf("%s %q: %w", in.flag(&in.Include), in.Include, err)
		}
	}
	if in.Exclude != "" {
		if c.exclude, err = regexp.Compile(in.Exclude); err != nil {
			return nil, usageErrorf("%s %q: %w", in.flag(&in.Exclude), in.Exclude, err)
		}
	}
	return c, nil
}

// List resolves the contexts of the kubeconfig f reads: the names given
// (each must be one of the kubeconfig's), else all of them, then those the
// include expression matches and the exclude expression does not, sorted.
// None left is an error.
func (c *Contexts) List(f *Factory) ([]string, error) {
	known, err := f.Contexts()
	if err != nil {
		return nil, err
	}
	var in ContextsInput
	out := known
	if len(c.names) > 0 {
		for _, n := range c.names {
			if !slices.Contains(known, n) {
				return nil, usageErrorf("%s: the kubeconfig has no context %q (it has %s)", in.flag(&in.Names), n, quotedList(known))
			}
		}
		out = slices.Clone(c.names)
		slices.Sort(out)
	}
	out = slices.DeleteFunc(slices.Clone(out), func(n string) bool {
		return c.include != nil && !c.include.MatchString(n) || c.exclude != nil && c.exclude.MatchString(n)
	})
	if len(out) == 0 {
		return nil, usageErrorf("no kubeconfig context is left to read (the kubeconfig has %s)", quotedList(known))
	}
	return out, nil
}

// quotedList writes names for a message, the first ten.
func quotedList(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	q := make([]string, 0, min(len(names), 10))
	for _, n := range names[:min(len(names), 10)] {
		q = append(q, fmt.Sprintf("%q", n))
	}
	s := strings.Join(q, ", ")
	if len(names) > 10 {
		s += fmt.Sprintf(" and %d more", len(names)-10)
	}
	return s
}

// contextRun is what one context's work gave.
type contextRun[T any] struct {
	name string
	out  T
	err  error
}

// eachContext runs fn on each context, up to c's parallel at once, each
// under its own timeout, and returns what each gave in names' order. A
// context that fails is its error; the others go on.
func eachContext[T any](ctx context.Context, c *Contexts, f *Factory, names []string, fn func(context.Context, string, *Factory) (T, error)) []contextRun[T] {
	out := make([]contextRun[T], len(names))
	sem := make(chan struct{}, max(c.parallel, 1))
	var wg sync.WaitGroup
	for i, name := range names {
		out[i].name = name
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
				out[i].err = ctx.Err()
				return
			}
			cf, err := f.ForContext(name)
			if err != nil {
				out[i].err = err
				return
			}
			cctx := ctx
			if c.timeout > 0 {
				var cancel context.CancelFunc
				cctx, cancel = context.WithTimeout(ctx, c.timeout)
				defer cancel()
			}
			out[i].out, out[i].err = fn(cctx, name, cf)
			if out[i].err != nil && cctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
				var in ContextsInput
				out[i].err = fmt.Errorf("%w (the %s of %s)", out[i].err, in.flag(&in.Timeout), c.timeout)
			}
		}()
	}
	wg.Wait()
	return out
}

// Contexts lists the contexts of the kubeconfig the factory reads,
// sorted.
func (f *Factory) Contexts() ([]string, error) {
	if f.ContextFactories != nil {
		return slices.Sorted(maps.Keys(f.ContextFactories)), nil
	}
	if f.Getter == nil {
		return nil, fmt.Errorf("no kubeconfig: no context to read%s", f.hint())
	}
	raw, err := f.Getter.ToRawKubeConfigLoader().RawConfig()
	if err != nil {
		return nil, fmt.Errorf("load the kubeconfig: %w%s", err, f.hint())
	}
	return slices.Sorted(maps.Keys(raw.Contexts)), nil
}

// ForContext returns a factory of another context of the same kubeconfig,
// with the same connection flags but those that pick a cluster or a user
// (--cluster, --user, --server), which would send every context to one.
func (f *Factory) ForContext(name string) (*Factory, error) {
	if f.ContextFactories != nil {
		cf, ok := f.ContextFactories[name]
		if !ok {
			return nil, fmt.Errorf("the kubeconfig has no context %q", name)
		}
		cf.contextName = name
		return cf, nil
	}
	cf, ok := f.Getter.(*genericclioptions.ConfigFlags)
	if !ok {
		return nil, fmt.Errorf("context %q: this run's connection cannot switch contexts", name)
	}
	n := ConfigFlagsFor(cf, name)
	n.ClusterName, n.AuthInfoName, n.APIServer = nil, nil, nil
	return &Factory{Getter: n, NewGather: f.NewGather, NewMigrate: f.NewMigrate, Hint: f.Hint, bound: f.bound}, nil
}

// ContextMany is what a read of many HPAs gave in one context: its items
// in namespace and name order and what ExplainMany read, or the error
// that stopped the context.
type ContextMany[T any] struct {
	Context string
	Items   []T
	Result  *ManyResult
	Err     error
}

// ExplainContexts runs ExplainMany in each context cfg.Contexts selects,
// up to its parallel contexts at once, each decision marked with its
// context before prepare. The contexts come back in name order; one that
// fails carries its error and the others go on. Its own error is the
// selection's.
func ExplainContexts[T any](ctx context.Context, cfg ManyConfig, prepare func(*explain.Decision) (T, error)) ([]ContextMany[T], error) {
	names, err := cfg.Contexts.List(cfg.Source.Clients)
	if err != nil {
		return nil, err
	}
	runs := eachContext(ctx, cfg.Contexts, cfg.Source.Clients, names, func(cctx context.Context, name string, f *Factory) (ContextMany[T], error) {
		one := cfg
		one.Source.Clients, one.Contexts, one.Progress, one.OnKEDA = f, nil, nil, nil
		var out ContextMany[T]
		res, err := ExplainMany(cctx, one, func(d *explain.Decision) (T, error) {
			d.Context = name
			return prepare(d)
		}, func(v T) error {
			out.Items = append(out.Items, v)
			return nil
		})
		out.Result = res
		return out, err
	})
	out := make([]ContextMany[T], len(runs))
	for i, r := range runs {
		out[i] = ContextMany[T]{Context: r.name, Err: r.err}
		if r.err == nil {
			out[i].Items, out[i].Result = r.out.Items, r.out.Result
		}
	}
	return out, nil
}
