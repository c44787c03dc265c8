// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/internal/gcpace"
	"github.com/kubectl-hpa/kubectl-hpa/internal/textblock"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/fleet"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render/report"
)

// TuneOptions are the options of the tune command: the objects and the
// controller settings as whatif reads them, and tune's own
// (action.TuneRows), which action.TuneInput.Config checks.
type TuneOptions struct {
	genericiooptions.IOStreams

	Name     string
	Input    action.TuneInput
	Source   action.SourceInput
	Settings action.SettingsInput
	Output   OutputFlags

	ConfigFlags *genericclioptions.ConfigFlags
	Clients     *action.Factory
	HPANames    HPANamesFunc

	printer render.Printer
	cfg     *action.TuneConfig
	// many is the tune of every selected HPA, without a NAME.
	many *action.TuneManyConfig
}

// NewCmdTune returns the tune command; runF, when set, replaces Run after
// Complete and Validate (for tests).
func NewCmdTune(streams genericiooptions.IOStreams, cf *genericclioptions.ConfigFlags, runF func(*TuneOptions) error) *cobra.Command {
	o := &TuneOptions{IOStreams: streams, Input: action.DefaultTuneInput(), HPANames: defaultHPANames}
	c := &cobra.Command{
		Use:   "tune [NAME | -A | -l SELECTOR] --since DURATION|TIME [--until TIME] [--prometheus URL|NS/SERVICE:PORT] [--vary ...] [--set DIM=...] [--slo METRIC=BOUND] [-o text|json|yaml]",
		Short: "Find the HPA settings that would have cost least over the recorded load without running hotter",
		Long: textblock.Dedent(`
			Tune replays the HorizontalPodAutoscaler controller over the load Prometheus
			recorded for a past period, once as the HPA is and once for each candidate
			setting: each metric's target, the scale-up and scale-down stabilization windows
			and policies, the per-direction tolerance where the controller honours it, and
			minReplicas with --vary min-replicas. Every candidate is replayed exactly, sync
			by sync, by the same replay as whatif --since.

			Each replay is measured by its cost (requested core-hours, or pod-hours when the
			pods request no CPU) and its risk: the share of the period some metric's load per
			ready pod was above its service bound (--slo; by default 90% of the request for a
			utilization target, 1.5 times the target otherwise). The report shows the
			frontier, the candidates no other beats on both, and one recommendation: the
			cheapest candidate whose risk is not above the HPA's own (or --max-risk), with the
			kubectl patch that applies it. --emit patch prints only that patch.

			The search replays a coarse grid first, then the neighbours of the frontier,
			within --budget replays; --vary and --set narrow or widen it. See docs/tune.md.

			Without a NAME, tune tunes every HPA of the namespace (-n), of every namespace
			(-A) or of a label selector (-l) alike, one at a time, and prints one line per
			HPA ranked by what its recommendation saves, with the totals. An HPA whose
			as-is replay held its recorded replica count less than --min-fidelity of the
			period gets no recommendation; one that cannot be tuned gets a line saying why,
			and the others go on. See docs/fleet.md.`),
		Example: textblock.Dedent(`
			# The last week, read from Prometheus through the API server's service proxy
			kubectl hpa tune web --since 7d --prometheus monitoring/prometheus-k8s:9090

			# Only the target and the scale-down window, with the bound at 80% of the request
			kubectl hpa tune web --since 24h --vary target,down-window --slo cpu=80%

			# Apply the recommendation
			kubectl patch hpa web --type merge -p "$(kubectl hpa tune web --since 7d --emit patch)"

			# Every HPA of every namespace, ranked by what each recommendation saves
			kubectl hpa tune -A --since 7d --prometheus monitoring/prometheus-k8s:9090

			# The kubectl patch commands of the namespace's recommendations
			kubectl hpa tune -n shop --since 7d --emit command`),
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := o.Complete(c, args); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return &FlagError{Err: err, CommandPath: c.CommandPath()}
			}
			if runF != nil {
				return runF(o)
			}
			return o.Run(c.Context())
		},
	}
	addOptions(c, action.TuneRows.Bind(&o.Input), action.TuneManyRows.Bind(&o.Input), action.TuneSourceRows.Bind(&o.Source), action.SettingsRows.Bind(&o.Settings))
	o.Output.AddFlags(c, false)
	o.ConfigFlags = addConfigFlags(c.Flags(), cf)
	c.ValidArgsFunction = func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 || len(o.Source.Files) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return completeNames(c, o.ConfigFlags, o.HPANames, toComplete)
	}
	return c
}

// Complete resolves the source, the settings and the output, then checks
// tune's options (action.TuneInput.Config).
func (o *TuneOptions) Complete(c *cobra.Command, args []string) error {
	if len(o.Input.Merge) > 0 {
		// The shards' documents are all there is to read.
		if len(args) > 0 {
			return usageError(c, fmt.Errorf("--merge joins the documents of a tune of many HPAs: give no NAME"))
		}
		if (o.Input.Emit == action.EmitPatches) != (o.Input.Out != "") {
			return usageError(c, fmt.Errorf("--emit patches and --out DIR go together"))
		}
		var err error
		if o.printer, err = o.Output.ToPrinter(c, o.Out); err != nil {
			return err
		}
		return action.CheckReportDir(o.Input.Report.File)
	}
	if len(args) > 0 {
		o.Name = args[0]
		if o.Input.AllNamespaces || o.Input.Selector != "" || o.Input.MinFidelity != "" || o.Input.Shard != "" || o.Input.Out != "" || o.Input.Emit == action.EmitPatches || o.Input.Contexts.Given() {
			return usageError(c, fmt.Errorf("-A, -l, --min-fidelity, --shard, --out, --emit patches and the contexts' options select, judge or write many HPAs: give them without a NAME (--context picks the cluster of one)"))
		}
	}
	if o.Clients == nil {
		o.Clients = action.NewFactory(o.ConfigFlags)
	}
	source, err := o.Source.Source(o.In, o.Clients, namespaceOf(o.ConfigFlags), nil)
	if err != nil {
		return flagErrorf(c, "%w", err)
	}
	settings, err := o.Settings.Overrides()
	if err != nil {
		return flagErrorf(c, "%w", err)
	}
	if o.printer, err = o.Output.ToPrinter(c, o.Out); err != nil {
		return err
	}
	if o.cfg, err = o.Input.Config(source, o.Name, settings); err != nil {
		return usageError(c, err)
	}
	if err := action.CheckReportDir(o.Input.Report.File); err != nil {
		return err
	}
	if o.Name == "" {
		if strings.HasPrefix(o.Input.Shard, "/") {
			// An Indexed Job's pod: the index is its completion index.
			i, ok := os.LookupEnv(jobIndexEnv)
			if !ok {
				return usageError(c, fmt.Errorf("--shard %s takes its index from %s, which is not set: give INDEX/COUNT", o.Input.Shard, jobIndexEnv))
			}
			o.Input.Shard = i + o.Input.Shard
		}
		if o.many, err = o.Input.ManyConfig(o.cfg); err != nil {
			return usageError(c, err)
		}
		o.many.Progress = fleetProgress(o.ErrOut)
		return nil
	}
	o.cfg.Load.Progress = recordedProgress(o.ErrOut)
	return nil
}

// jobIndexEnv is where an Indexed Job gives each pod its index.
const jobIndexEnv = "JOB_COMPLETION_INDEX"

// Validate has nothing left to check: Config checked the values where the
// MCP tool's arguments are checked too.
func (o *TuneOptions) Validate() error { return nil }

// Run tunes and prints the report, or with --emit the recommendation
// alone.
func (o *TuneOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if len(o.Input.Merge) > 0 {
		doc, err := action.MergeFleet(o.Input.Merge, o.In)
		if err != nil {
			return err
		}
		err = o.printFleet(doc)
		if f := o.Input.Report.File; f != "" {
			// The shards' own reports, if any, are theirs to link.
			if rerr := action.WriteReport(f, func(w io.Writer) error { return report.WriteFleet(w, report.Fleet{Doc: doc}) }); rerr != nil {
				return rerr
			}
		}
		return err
	}
	// Most of tune's heap is its recordings and the replays' shared parts,
	// kept to the end (internal/gcpace).
	defer gcpace.LongLived()()
	if o.many != nil {
		return o.runMany(ctx)
	}
	res, err := action.Tune(ctx, *o.cfg)
	if err != nil {
		return err
	}
	render.Warnings(o.ErrOut, res.Warnings)
	reportCalls(o.ErrOut, o.Source, o.Clients, "")
	result := render.TuneResult(res.Tune)
	switch o.Input.Emit {
	case action.EmitPatch:
		result = render.TunePatch(res.Tune)
	case action.EmitCommand:
		result = render.TuneCommand(res.Tune)
	}
	var buf bytes.Buffer
	if err := o.printer.Print(&buf, result); err != nil {
		return err
	}
	if _, err = o.Out.Write(buf.Bytes()); err != nil {
		return err
	}
	if f := o.Input.Report.File; f != "" && res.Report != nil {
		return action.WriteReport(f, func(w io.Writer) error { return report.WriteTune(w, tuneReport(res)) })
	}
	return nil
}

// tuneReport is the report's view of a tune.
func tuneReport(res *action.TuneResult) report.Tune {
	var in action.TuneInput
	r := report.Tune{
		Tune: res.Tune, Backtest: res.Backtest, Loads: res.Report.Loads,
		PickOption: action.TuneRows.Named(&in, &in.ReportCandidates).Flag(),
	}
	for _, p := range res.Report.Picked {
		r.Picked = append(r.Picked, report.Picked{Index: p.Index, Replicas: p.Replicas})
	}
	return r
}

// runMany tunes every selected HPA and prints the ranked table (or the
// document, or with --emit command the commands). Some HPAs that could not
// be tuned make the exit code 1, after the table; a run stopped (Ctrl-C)
// prints what it finished.
func (o *TuneOptions) runMany(ctx context.Context) error {
	cfg := *o.many
	// With --report FILE.html: each HPA's own report beside it, written
	// as soon as the HPA is tuned, then the fleet's page linking to them.
	reports := map[string]string{}
	var mu sync.Mutex
	if f := o.Input.Report.File; f != "" {
		base := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		cfg.OnTuned = func(ctxName string, ref explain.ObjectRef, res *action.TuneResult) error {
			if res.Report == nil {
				return nil
			}
			name := fmt.Sprintf("%s-%s-%s.html", base, ref.Namespace, ref.Name)
			if cfg.Contexts != nil {
				// One namespace and name in two clusters: two reports.
				name = fmt.Sprintf("%s-%s-%s-%s.html", base, fleet.ContextDir(ctxName), ref.Namespace, ref.Name)
			}
			if err := action.WriteReport(filepath.Join(filepath.Dir(f), name), func(w io.Writer) error { return report.WriteTune(w, tuneReport(res)) }); err != nil {
				return err
			}
			mu.Lock()
			reports[report.Key(ctxName, ref)] = name
			mu.Unlock()
			return nil
		}
	}
	doc, err := action.TuneMany(ctx, cfg)
	if doc == nil {
		return err
	}
	reportCalls(o.ErrOut, o.Source, o.Clients, "")
	if perr := o.printFleet(doc); perr != nil && err == nil {
		err = perr
	}
	if f := o.Input.Report.File; f != "" {
		if rerr := action.WriteReport(f, func(w io.Writer) error { return report.WriteFleet(w, report.Fleet{Doc: doc, Reports: reports}) }); rerr != nil {
			return rerr
		}
	}
	return err
}

// printFleet prints a fleet's table, document or commands; some HPAs
// that could not be tuned make the exit code 1, after it.
func (o *TuneOptions) printFleet(doc *explain.TuneFleet) error {
	result := render.TuneFleetResult(doc)
	switch o.Input.Emit {
	case action.EmitCommand:
		result = render.TuneFleetCommands(doc)
	case action.EmitPatches:
		files, err := action.WriteFleetPatches(doc, o.Input.Out)
		if err != nil {
			return err
		}
		result = render.FleetFiles(files, o.Input.Out)
	}
	var buf bytes.Buffer
	if err := o.printer.Print(&buf, result); err != nil {
		return err
	}
	if _, err := o.Out.Write(buf.Bytes()); err != nil {
		return err
	}
	failed, hpas, contexts := 0, 0, 0
	for _, it := range doc.Items {
		switch {
		case it.HPA == (explain.ObjectRef{}):
			contexts++
		case it.Status == explain.FleetFailed:
			failed++
			hpas++
		default:
			hpas++
		}
	}
	switch {
	case contexts > 0 && failed > 0:
		return fmt.Errorf("%d of %d HPAs could not be tuned, and %d contexts could not be read (their lines say why)", failed, hpas, contexts)
	case contexts > 0:
		return fmt.Errorf("%d contexts could not be read (their lines say why)", contexts)
	case failed > 0:
		return fmt.Errorf("%d of %d HPAs could not be tuned (their lines say why)", failed, hpas)
	}
	return nil
}
