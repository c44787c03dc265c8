// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/fleet"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/tune"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// MaxTuneBudget bounds --budget: each candidate is a whole replay of the
// period.
const MaxTuneBudget = 5000

// TuneInput is tune's options (TuneRows), unchecked.
type TuneInput struct {
	// PeriodInput bounds the period and ReplayInput says how a candidate's
	// pods start and share the load, as whatif --since takes them.
	PeriodInput
	ReplayInput
	// Vary lists the dimensions to vary; Set gives a dimension's values
	// (DIM=V1,V2,...).
	Vary []string
	Set  []string
	// Budget is the most candidates replayed; MaxRisk the bound on the
	// recommendation's risk ("" for the HPA's own).
	Budget  int
	MaxRisk string
	// SLO gives a metric's service bound, METRIC=BOUND.
	SLO []string
	// Emit says what to print instead of the report: "patch" (the merge
	// patch) or "command" (the kubectl patch command).
	Emit     string
	Recorded RecordedInput
	// Report is where the HTML report goes; ReportCandidates the indices
	// of the candidates it draws beside the recommendation.
	Report           ReportInput
	ReportCandidates []string
	// AllNamespaces (-A) and Selector (-l) select the HPAs tuned without a
	// NAME; MinFidelity is their --min-fidelity ("" for the default).
	AllNamespaces bool
	Selector      string
	MinFidelity   string
	// Shard is --shard INDEX/COUNT; Merge the fleet documents --merge
	// reads instead of the cluster.
	Shard string
	Merge []string
	// Out is where --emit patches writes.
	Out string
	// Contexts selects the kubeconfig contexts tuned without a NAME.
	Contexts ContextsInput
}

// DefaultTuneInput is the input before any option is given.
func DefaultTuneInput() TuneInput {
	return TuneInput{ReplayInput: ReplayInput{LoadModel: explain.LoadConstantTotal}, Budget: tune.DefaultBudget}
}

// flag names the option that sets field, for a message.
func (in *TuneInput) flag(field any) string { return TuneRows.Named(in, field).Flag() }

// The values of --emit.
const (
	EmitPatch   = "patch"
	EmitCommand = "command"
	// EmitPatches writes, without a NAME, every recommendation's patch and
	// a kustomize Component per context under --out.
	EmitPatches = "patches"
)

// TuneConfig is a checked tune.
type TuneConfig struct {
	Source   Source
	Name     string
	Settings SettingsOverrides
	Since    time.Time
	Until    time.Time
	Vary     []tune.Dimension
	Set      map[string][]string
	Budget   int
	MaxRisk  *float64
	// SLO holds the service bounds by metric name ("cpu", "queue").
	SLO         map[string]string
	LoadModel   string
	PodStartup  time.Duration
	SampleDelay time.Duration
	Load        RecordedLoad
	// Workers is how many replays run at once (0: one per core).
	Workers int
	// Report asks for what the HTML report draws beyond the document
	// (TuneResult.Report); ReportCandidates are the candidates it draws
	// besides, by index.
	Report           bool
	ReportCandidates []int
}

// Config checks the input into a tune of HPA name.
func (in TuneInput) Config(src Source, name string, settings SettingsOverrides) (*TuneConfig, error) {
	if in.Since == "" {
		return nil, usageErrorf("%s is required: the period whose recorded load the candidates are replayed over", in.flag(&in.Since))
	}
	now := src.Now
	since, err := ParsePast(in.Since, now)
	if err != nil {
		return nil, usageErrorf("%s: %w", in.flag(&in.Since), err)
	}
	until := now
	if in.Until != "" {
		if until, err = ParsePast(in.Until, now); err != nil {
			return nil, usageErrorf("%s: %w", in.flag(&in.Until), err)
		}
	}
	if in.LoadModel != explain.LoadConstantTotal && in.LoadModel != explain.LoadConstantPerPod {
		return nil, usageErrorf("%s must be %s or %s, got %q", in.flag(&in.LoadModel), explain.LoadConstantTotal, explain.LoadConstantPerPod, in.LoadModel)
	}
	if in.Budget < 1 || in.Budget > MaxTuneBudget {
		return nil, usageErrorf("%s must be between 1 and %d, got %d", in.flag(&in.Budget), MaxTuneBudget, in.Budget)
	}
	if in.SampleDelay < 0 || in.SampleDelay > MaxPodStartup {
		return nil, usageErrorf("%s must be between 0s and %s, got %v", in.flag(&in.SampleDelay), MaxPodStartup, in.SampleDelay)
	}
	cfg := &TuneConfig{
		Source: src, Name: name, Settings: settings, Since: since, Until: until, Budget: in.Budget,
		LoadModel: in.LoadModel, SampleDelay: in.SampleDelay, Set: map[string][]string{}, SLO: map[string]string{},
	}
	if d := in.PodStartup; d != nil {
		if *d < 0 || *d > MaxPodStartup {
			return nil, usageErrorf("%s must be between 0s and %s, got %v", in.flag(&in.PodStartup), MaxPodStartup, *d)
		}
		cfg.PodStartup = *d
	}
	for _, v := range in.Vary {
		cfg.Vary = append(cfg.Vary, tune.Dimension(strings.TrimSpace(v)))
	}
	for _, s := range in.Set {
		dim, vals, ok := strings.Cut(s, "=")
		if !ok || dim == "" || vals == "" {
			return nil, usageErrorf("%s %q: want DIM=V1,V2,... such as down-window=0s,60s,300s", in.flag(&in.Set), s)
		}
		for _, v := range strings.Split(vals, ",") {
			if v = strings.TrimSpace(v); v != "" {
				cfg.Set[strings.TrimSpace(dim)] = append(cfg.Set[strings.TrimSpace(dim)], v)
			}
		}
	}
	for _, s := range in.SLO {
		m, b, ok := strings.Cut(s, "=")
		if !ok || m == "" || b == "" {
			return nil, usageErrorf("%s %q: want METRIC=BOUND such as cpu=90%% or queue=40", in.flag(&in.SLO), s)
		}
		cfg.SLO[strings.TrimSpace(m)] = strings.TrimSpace(b)
	}
	if in.MaxRisk != "" {
		r, err := parseShare(in.MaxRisk)
		if err != nil {
			return nil, usageErrorf("%s %q: %w", in.flag(&in.MaxRisk), in.MaxRisk, err)
		}
		cfg.MaxRisk = &r
	}
	if cfg.Load, err = in.Recorded.Load(); err != nil {
		return nil, err
	}
	cfg.Report = in.Report.File != ""
	for _, s := range in.ReportCandidates {
		if !cfg.Report {
			return nil, usageErrorf("%s goes with %s: it picks the candidates the report draws", in.flag(&in.ReportCandidates), in.flag(&in.Report.File))
		}
		i, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || i < 0 || i >= in.Budget {
			return nil, usageErrorf("%s %q: want a candidate's index, 0 to %d (-o json's candidates)", in.flag(&in.ReportCandidates), s, in.Budget-1)
		}
		if !slices.Contains(cfg.ReportCandidates, i) {
			cfg.ReportCandidates = append(cfg.ReportCandidates, i)
		}
	}
	return cfg, nil
}

// ManyConfig checks the options of a tune without a NAME (TuneManyRows)
// into one over cfg.
func (in TuneInput) ManyConfig(cfg *TuneConfig) (*TuneManyConfig, error) {
	out := &TuneManyConfig{Tune: *cfg, AllNamespaces: in.AllNamespaces, Selector: in.Selector}
	var err error
	if out.Contexts, err = in.Contexts.Check(); err != nil {
		return nil, err
	}
	if in.MinFidelity != "" {
		f, err := parseShare(in.MinFidelity)
		if err != nil {
			return nil, usageErrorf("%s %q: %w", in.manyFlag(&in.MinFidelity), in.MinFidelity, err)
		}
		out.MinFidelity = f
	}
	if in.Shard != "" {
		sh, err := fleet.ParseShard(in.Shard)
		if err != nil {
			return nil, usageErrorf("%s %w", in.manyFlag(&in.Shard), err)
		}
		out.Shard = &sh
	}
	if (in.Emit == EmitPatches) != (in.Out != "") {
		return nil, usageErrorf("%s %s and %s DIR go together: the patches and a kustomize Component per context are written under DIR", in.flag(&in.Emit), EmitPatches, in.manyFlag(&in.Out))
	}
	if in.Emit == EmitPatch {
		return nil, usageErrorf("%s %s prints one HPA's patch: name the HPA, or use %s %s for every recommendation's command", in.flag(&in.Emit), EmitPatch, in.flag(&in.Emit), EmitCommand)
	}
	return out, nil
}

// manyFlag names an option of TuneManyRows.
func (in *TuneInput) manyFlag(field any) string { return TuneManyRows.Named(in, field).Flag() }

// parseShare reads a share of the period: 5% or 0.05.
func parseShare(s string) (float64, error) {
	pct := strings.HasSuffix(s, "%")
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if pct {
		f /= 100
	}
	if err != nil || f < 0 || f > 1 {
		return 0, fmt.Errorf("want a share of the period between 0 and 1, like 0.05 or 5%%")
	}
	return f, nil
}

// boundFor reads a service bound for the metric at index i of the HPA: a
// percent of the request for a utilization target, a quantity otherwise.
func boundFor(i int, utilization bool, s string) (whatif.Bound, error) {
	b := whatif.Bound{Metric: i}
	if utilization {
		f, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil || f <= 0 || f > 1000 {
			return b, fmt.Errorf("%q: want a percent of the request such as 90%%", s)
		}
		b.Utilization = f / 100
		return b, nil
	}
	q, err := parseQuantity(s)
	if err != nil || q <= 0 {
		return b, fmt.Errorf("%q: want a positive quantity such as 40 or 500m", s)
	}
	b.Milli = q
	return b, nil
}

// parseQuantity reads a Kubernetes quantity in thousandths.
func parseQuantity(s string) (int64, error) {
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return 0, err
	}
	return q.MilliValue(), nil
}
