// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/rest"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/load"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// EvaluateFunc replays one sync; engine.Evaluate is the real one.
type EvaluateFunc func(*engine.Snapshot, engine.Settings) (*explain.Decision, error)

// ExplainOptions are the options of the explain command.
type ExplainOptions struct {
	genericiooptions.IOStreams

	// Name is the HPA's name (the positional argument).
	Name string
	// Namespace is resolved by Complete from -n (and, in live mode, the
	// kubeconfig context).
	Namespace string
	// ConfigFlags are kubectl's connection flags (--kubeconfig, --context,
	// -n, --as, --request-timeout, ...).
	ConfigFlags *genericclioptions.ConfigFlags
	// Verbosity is -v: 1 prints the number of API calls, 2 lists them.
	Verbosity int
	// AllNamespaces (-A) and Selector (-l) select many HPAs; with either, or
	// without a NAME, explain prints one summary line per HPA.
	AllNamespaces bool
	Selector      string
	// Dump is --dump: a file to write the gathered snapshot to, in the
	// offline format, so that explain -f reproduces the explanation.
	Dump string
	// HPANames lists HPA names for shell completion (tests inject fakes).
	HPANames HPANamesFunc
	// NewClients builds the cluster clients (tests inject fakes).
	NewClients func(*rest.Config) (*gather.Clients, error)
	Filenames  []string
	Output     string
	// Now is the --now flag; empty means Clock().
	Now                     string
	Tolerance               float64
	CPUInitializationPeriod time.Duration
	InitialReadinessDelay   time.Duration
	DownscaleStabilization  time.Duration
	SyncPeriod              time.Duration
	FeatureGates            string
	// ControllerVersion is --controller-version.
	ControllerVersion string
	// AssumeScaleUpdateError makes the replay assume the scale UPDATE fails
	// with this message (hidden; used to replay upstream's failure tests).
	AssumeScaleUpdateError string

	// Evaluate replays the sync; it defaults to engine.Evaluate.
	Evaluate EvaluateFunc
	// Clock gives the time when --now is not set; it defaults to time.Now.
	Clock func() time.Time
	// Display is --color, --pods and --no-pods (see color.go).
	Display DisplayOptions

	// Resolved by Complete.
	changed       map[string]bool
	args          []string
	now           time.Time
	settings      engine.Settings
	format        render.Format
	gates         map[profile.Gate]bool
	versionSource string
}

// NewExplainOptions returns the options with every default set.
func NewExplainOptions(streams genericiooptions.IOStreams) *ExplainOptions {
	def := engine.DefaultSettings()
	return &ExplainOptions{
		IOStreams:               streams,
		Output:                  string(render.FormatText),
		Tolerance:               def.Tolerance,
		CPUInitializationPeriod: def.CPUInitializationPeriod,
		InitialReadinessDelay:   def.InitialReadinessDelay,
		DownscaleStabilization:  def.DownscaleStabilization,
		SyncPeriod:              def.SyncPeriod,
		Evaluate:                engine.Evaluate,
		Clock:                   time.Now,
		NewClients:              gather.NewClients,
		HPANames:                defaultHPANames,
	}
}

// NewCmdExplain returns the explain command. runF, when set, replaces Run
// after Complete and Validate (for tests).
func NewCmdExplain(streams genericiooptions.IOStreams, cf *genericclioptions.ConfigFlags, runF func(*ExplainOptions) error) *cobra.Command {
	o := NewExplainOptions(streams)
	o.ConfigFlags = cf
	c := &cobra.Command{
		Use:   "explain [NAME] [-n NAMESPACE | -A] [-l SELECTOR] [-f FILE...] [-o text|json|yaml]",
		Short: "Explain the HPA controller's decision for a HorizontalPodAutoscaler",
		Long: dedent(`
			Explain replays one sync of the HorizontalPodAutoscaler controller
			(kube-controller-manager v1.36) for the HPA NAME and shows every step: the
			selector check, each metric's pods, usage, ratio, tolerance test and fill-in,
			the combined recommendation, the stabilization window, the scaling policies and
			the bounds, then the conditions, events and status the controller would write,
			and whether that agrees with the status the controller last wrote.

			By default it reads the cluster of the current kubeconfig context, with only GET
			and LIST requests (docs/rbac.yaml lists them). Without a NAME, or with -l or -A,
			it prints one line per HPA: current and desired replicas, the step that decided,
			and the agreement with the controller.

			With -f it reads the objects from files instead ("-" reads stdin), as
			'kubectl get -o yaml' prints them, or as --dump writes them: the HPA, the
			target's Scale or its workload, the pods, what the metrics APIs returned, and
			optionally the controller's in-memory history as a ControllerState document.
			docs/snapshot-format.md describes the input.`),
		Example: dedent(`
			# Explain the HPA web of namespace shop in the current cluster
			kubectl hpa explain web -n shop

			# One line per HPA in every namespace
			kubectl hpa explain -A

			# Save what the replay used, for a bug report
			kubectl hpa explain web -n shop --dump web-snapshot.yaml

			# Replay it elsewhere, at the instant it was taken
			kubectl hpa explain web -n shop -f web-snapshot.yaml --now 2026-01-01T00:00:00Z

			# Replay saved objects as JSON, with a controller tolerance of 5%
			cat hpa.yaml pods.yaml metrics.yaml | kubectl hpa explain web -f - --tolerance 0.05 -o json`),
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
			return o.Run()
		},
	}
	o.AddFlags(c.Flags())
	if cf == nil {
		// Standalone (tests): the command carries kubectl's connection flags
		// itself instead of inheriting them from the root.
		o.ConfigFlags = genericclioptions.NewConfigFlags(true)
		o.ConfigFlags.AddFlags(c.Flags())
	}
	c.ValidArgsFunction = o.completeHPANames
	_ = c.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{"text", "json", "yaml"}, cobra.ShellCompDirectiveNoFileComp))
	_ = c.RegisterFlagCompletionFunc("color", cobra.FixedCompletions([]string{"auto", "always", "never"}, cobra.ShellCompDirectiveNoFileComp))
	return c
}

// AddFlags binds the options to fs, with the current values as defaults.
func (o *ExplainOptions) AddFlags(fs *pflag.FlagSet) {
	fs.IntVarP(&o.Verbosity, "v", "v", o.Verbosity, "Verbosity: 1 counts the API calls, 2 lists them")
	fs.BoolVarP(&o.AllNamespaces, "all-namespaces", "A", o.AllNamespaces, "Explain the HPAs of every namespace, one line each")
	fs.StringVarP(&o.Selector, "selector", "l", o.Selector, "Explain the HPAs matching this label selector, one line each")
	fs.StringVar(&o.Dump, "dump", o.Dump, "Also write the snapshot the replay used to this file, in the offline format (replay it anywhere with -f)")
	o.addSourceFlags(fs)
	fs.StringVarP(&o.Output, "output", "o", o.Output, formatHelp())
	o.addSettingsFlags(fs)
	o.Display.AddFlags(fs)
}

// addSourceFlags binds -f and --now: where the objects come from and when
// the sync happens.
func (o *ExplainOptions) addSourceFlags(fs *pflag.FlagSet) {
	fs.StringSliceVarP(&o.Filenames, "filename", "f", o.Filenames,
		"Files, directories or - (stdin) holding the objects, in YAML or JSON")
	fs.StringVar(&o.Now, "now", o.Now,
		"Instant of the replayed sync, in RFC 3339 with optional fractional seconds (default: the current time)")
}

// addSettingsFlags binds the kube-controller-manager settings.
func (o *ExplainOptions) addSettingsFlags(fs *pflag.FlagSet) {
	fs.Float64Var(&o.Tolerance, "tolerance", o.Tolerance,
		"Controller tolerance (--horizontal-pod-autoscaler-tolerance)")
	fs.DurationVar(&o.CPUInitializationPeriod, "cpu-initialization-period", o.CPUInitializationPeriod,
		"CPU initialization period (--horizontal-pod-autoscaler-cpu-initialization-period)")
	fs.DurationVar(&o.InitialReadinessDelay, "initial-readiness-delay", o.InitialReadinessDelay,
		"Initial readiness delay (--horizontal-pod-autoscaler-initial-readiness-delay)")
	fs.DurationVar(&o.DownscaleStabilization, "downscale-stabilization", o.DownscaleStabilization,
		"Downscale stabilization window (--horizontal-pod-autoscaler-downscale-stabilization)")
	fs.DurationVar(&o.SyncPeriod, "sync-period", o.SyncPeriod,
		"Controller sync period (--horizontal-pod-autoscaler-sync-period)")
	fs.StringVar(&o.FeatureGates, "feature-gates", o.FeatureGates,
		"Feature gates as Name=true|false,... on top of the controller version's defaults (see docs/versions.md)")
	fs.StringVar(&o.ControllerVersion, "controller-version", o.ControllerVersion,
		"Kubernetes version of the kube-controller-manager to replay, like 1.32 or v1.32.13 (default: detected from the cluster, else "+profile.NewestVersion+")")
	fs.StringVar(&o.AssumeScaleUpdateError, "assume-scale-update-error", o.AssumeScaleUpdateError,
		"Assume the controller's scale update fails with this error")
	_ = fs.MarkHidden("assume-scale-update-error")
}

// Complete resolves the positional argument, the time, the settings and the
// output format.
func (o *ExplainOptions) Complete(c *cobra.Command, args []string) error {
	o.args = args
	o.changed = map[string]bool{}
	c.Flags().Visit(func(f *pflag.Flag) { o.changed[f.Name] = true })
	if len(args) == 1 {
		o.Name = args[0]
	}
	if o.ConfigFlags == nil {
		o.ConfigFlags = genericclioptions.NewConfigFlags(true)
	}
	if ns := o.ConfigFlags.Namespace; ns != nil && *ns != "" {
		o.Namespace = *ns
	}
	if o.Evaluate == nil {
		o.Evaluate = engine.Evaluate
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Now == "" {
		o.now = o.Clock()
	} else {
		t, err := time.Parse(time.RFC3339Nano, o.Now)
		if err != nil {
			return flagErrorf(c, "--now: %q is not an RFC 3339 time (like 2026-01-01T12:00:00Z or 2026-01-01T12:00:00.5+01:00)", o.Now)
		}
		o.now = t
	}
	o.now = o.now.UTC()

	gates, err := profile.ParseGates(o.FeatureGates)
	if err != nil {
		return flagErrorf(c, "--feature-gates: %w", err)
	}
	o.gates = gates
	version := profile.Newest()
	o.versionSource = "the newest supported controller (assumed)"
	if o.ControllerVersion != "" {
		if version, err = profile.Parse(o.ControllerVersion); err != nil {
			return flagErrorf(c, "--controller-version: %w", err)
		}
		o.versionSource = "--controller-version"
	}
	prof, err := profile.New(version, gates)
	if err != nil {
		return flagErrorf(c, "%w", err)
	}
	s := engine.DefaultSettings()
	s.Tolerance = o.Tolerance
	s.CPUInitializationPeriod = o.CPUInitializationPeriod
	s.InitialReadinessDelay = o.InitialReadinessDelay
	s.DownscaleStabilization = o.DownscaleStabilization
	s.SyncPeriod = o.SyncPeriod
	s.Profile = prof
	s.VersionSource = o.versionSource
	s.ScaleUpdateError = o.AssumeScaleUpdateError
	// Live, detectSettings replaces this when it finds the controller.
	s.Source = "kube-controller-manager defaults, with the flags given here"
	if len(o.changed) == 0 || !anyChanged(o.changed, settingsFlags) {
		s.Source = "kube-controller-manager defaults"
	}
	o.settings = s

	f, err := render.ParseFormat(o.Output)
	if err != nil {
		return flagErrorf(c, "%w", err)
	}
	o.format = f
	return nil
}

// settingsFlags are the flags that set controller settings.
var settingsFlags = []string{"tolerance", "cpu-initialization-period", "initial-readiness-delay", "downscale-stabilization", "sync-period", "feature-gates", "controller-version"}

func anyChanged(changed map[string]bool, names []string) bool {
	for _, n := range names {
		if changed[n] {
			return true
		}
	}
	return false
}

// Validate checks the option values.
func (o *ExplainOptions) Validate() error {
	switch {
	case len(o.args) > 1:
		return fmt.Errorf("at most one HorizontalPodAutoscaler name is expected, got %d: %v", len(o.args), o.args)
	case o.Name != "" && (o.AllNamespaces || o.Selector != ""):
		return errors.New("a NAME cannot be combined with -A or -l")
	case o.Name == "" && len(o.Filenames) > 0:
		return errors.New("the name of the HorizontalPodAutoscaler is required with -f")
	case o.Name == "" && o.Dump != "":
		return errors.New("--dump writes the snapshot of one HPA: give its NAME")
	}
	if o.Tolerance < 0 {
		return fmt.Errorf("--tolerance must not be negative, got %v", o.Tolerance)
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{
		{"--cpu-initialization-period", o.CPUInitializationPeriod},
		{"--initial-readiness-delay", o.InitialReadinessDelay},
		{"--downscale-stabilization", o.DownscaleStabilization},
	} {
		if d.v < 0 {
			return fmt.Errorf("%s must not be negative, got %v", d.flag, d.v)
		}
	}
	if o.SyncPeriod <= 0 {
		return fmt.Errorf("--sync-period must be positive, got %v", o.SyncPeriod)
	}
	return nil
}

// Settings returns the controller settings resolved by Complete.
func (o *ExplainOptions) Settings() engine.Settings { return o.settings }

// Time returns the instant resolved by Complete.
func (o *ExplainOptions) Time() time.Time { return o.now }

// Format returns the output format resolved by Complete.
func (o *ExplainOptions) Format() render.Format { return o.format }

// Run loads the snapshot, replays the sync and renders the decision.
// Warnings go to ErrOut, the result to Out.
func (o *ExplainOptions) Run() error {
	ctx := context.Background()
	if len(o.Filenames) == 0 && o.Name == "" {
		return o.runMany(ctx)
	}
	snap, clients, err := o.snapshot(ctx)
	if err != nil {
		return err
	}
	if err := o.writeDump(snap); err != nil {
		return err
	}
	dec, err := o.Evaluate(snap, o.settings)
	if err != nil {
		return fmt.Errorf("replay HPA %q: %w", snap.HPA.Namespace+"/"+snap.HPA.Name, err)
	}
	o.reportCalls(clients)
	return render.Write(o.Out, o.format, dec, o.Display.RenderOptions(o.Out))
}

// snapshot reads the HPA NAME and its inputs: from the files of -f, or from
// the cluster (then the controller settings are detected too, and the
// clients are returned for the call count). Warnings go to ErrOut. It only
// reads.
func (o *ExplainOptions) snapshot(ctx context.Context) (*engine.Snapshot, *gather.Clients, error) {
	if len(o.Filenames) > 0 {
		sources, err := load.ReadFiles(o.Filenames, o.In)
		if err != nil {
			return nil, nil, err
		}
		res, err := load.Load(sources, load.Options{Name: o.Name, Namespace: o.Namespace})
		if err != nil {
			return nil, nil, err
		}
		for _, w := range res.Warnings {
			fmt.Fprintf(o.ErrOut, "Warning: %s\n", w)
		}
		snap := res.Snapshot
		snap.Now = o.now
		return snap, nil, nil
	}
	ns, clients, err := o.connect(ctx, false)
	if err != nil {
		return nil, nil, err
	}
	res, err := gather.Snapshot(ctx, clients, ns, o.Name, gather.Options{Now: o.now})
	if err != nil {
		var status apierrors.APIStatus
		if !errors.As(err, &status) {
			return nil, nil, fmt.Errorf("%w (is the cluster reachable? to explain saved objects instead, pass them with -f)", err)
		}
		return nil, nil, err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(o.ErrOut, "Warning: %s\n", w)
	}
	return res.Snapshot, clients, nil
}

// reportCalls prints the API calls with -v (live mode only).
func (o *ExplainOptions) reportCalls(clients *gather.Clients) {
	if o.Verbosity <= 0 || clients == nil || clients.Calls == nil {
		return
	}
	calls := clients.Calls.Calls()
	fmt.Fprintf(o.ErrOut, "API calls: %d\n", len(calls))
	if o.Verbosity > 1 {
		for _, c := range calls {
			fmt.Fprintf(o.ErrOut, "  %s\n", c)
		}
	}
}

// connect resolves the namespace ("" for all namespaces), builds the
// clients from the kubeconfig and detects the controller settings.
func (o *ExplainOptions) connect(ctx context.Context, allNamespaces bool) (string, *gather.Clients, error) {
	const hint = " (to explain saved objects instead, pass them with -f)"
	ns := o.Namespace
	if allNamespaces {
		ns = ""
	} else if ns == "" {
		var err error
		if ns, _, err = o.ConfigFlags.ToRawKubeConfigLoader().Namespace(); err != nil {
			return "", nil, fmt.Errorf("load the kubeconfig: %w"+hint, err)
		}
	}
	cfg, err := o.ConfigFlags.ToRESTConfig()
	if err != nil {
		return "", nil, fmt.Errorf("load the kubeconfig: %w"+hint, err)
	}
	clients, err := o.NewClients(cfg)
	if err != nil {
		return "", nil, err
	}
	o.detectSettings(ctx, clients)
	return ns, clients, nil
}

// writeDump writes the snapshot to --dump, if set.
func (o *ExplainOptions) writeDump(snap *engine.Snapshot) error {
	if o.Dump == "" {
		return nil
	}
	f, err := os.Create(o.Dump)
	if err != nil {
		return fmt.Errorf("--dump: %w", err)
	}
	if err := load.Dump(f, snap); err != nil {
		_ = f.Close()
		return fmt.Errorf("--dump %s: %w", o.Dump, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--dump %s: %w", o.Dump, err)
	}
	fmt.Fprintf(o.ErrOut, "Snapshot written to %s (replay: kubectl hpa explain %s -n %s -f %s --now %s)\n",
		o.Dump, snap.HPA.Name, snap.HPA.Namespace, o.Dump, snap.Now.UTC().Format(time.RFC3339Nano))
	return nil
}

// runMany explains every selected HPA, one summary line each.
func (o *ExplainOptions) runMany(ctx context.Context) error {
	ns, clients, err := o.connect(ctx, o.AllNamespaces)
	if err != nil {
		return err
	}
	progress := func(int, int) {}
	if isTerminal(o.ErrOut) {
		progress = func(done, total int) {
			if total >= 5 {
				fmt.Fprintf(o.ErrOut, "\rgathering %d/%d HPAs", done, total)
				if done == total {
					fmt.Fprint(o.ErrOut, "\r\033[K")
				}
			}
		}
	}
	results, err := gather.Many(ctx, clients, gather.ManyOptions{
		Options: gather.Options{Now: o.now}, Namespace: ns, LabelSelector: o.Selector, Progress: progress,
	})
	if err != nil {
		var status apierrors.APIStatus
		if !errors.As(err, &status) {
			return fmt.Errorf("%w (is the cluster reachable?)", err)
		}
		return err
	}
	seen := map[string]bool{}
	decisions := make([]*explain.Decision, 0, len(results))
	for _, r := range results {
		for _, w := range r.Warnings {
			if !seen[w] {
				seen[w] = true
				fmt.Fprintf(o.ErrOut, "Warning: %s\n", w)
			}
		}
		d, err := o.Evaluate(r.Snapshot, o.settings)
		if err != nil {
			return fmt.Errorf("replay HPA %q: %w", r.Snapshot.HPA.Namespace+"/"+r.Snapshot.HPA.Name, err)
		}
		decisions = append(decisions, d)
	}
	if len(decisions) == 0 && o.format == render.FormatText {
		where := fmt.Sprintf("in namespace %q", ns)
		if o.AllNamespaces {
			where = "in any namespace"
		}
		fmt.Fprintf(o.ErrOut, "No HorizontalPodAutoscalers found %s.\n", where)
		return nil
	}
	if o.Verbosity > 0 && clients.Calls != nil {
		fmt.Fprintf(o.ErrOut, "API calls: %d for %d HPAs\n", len(clients.Calls.Calls()), len(decisions))
		if o.Verbosity > 1 {
			for _, c := range clients.Calls.Calls() {
				fmt.Fprintf(o.ErrOut, "  %s\n", c)
			}
		}
	}
	return render.WriteList(o.Out, o.format, decisions, o.AllNamespaces)
}

// isTerminal reports whether w is a terminal (for the progress indicator).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// detectSettings applies the HPA flags of a readable kube-controller-manager
// pod to the settings the user did not set on the command line.
func (o *ExplainOptions) detectSettings(ctx context.Context, clients *gather.Clients) {
	o.settings.Source = "kube-controller-manager defaults (no kube-controller-manager pod in kube-system: managed control planes hide it; pass the flags to override)"
	f, err := gather.DetectControllerFlags(ctx, clients)
	switch {
	case err != nil:
		fmt.Fprintf(o.ErrOut, "Warning: could not read the kube-controller-manager pod (%v): using the default controller settings\n", err)
		return
	case f == nil:
		return
	}
	s := &o.settings
	set := func(flag string) bool { return !o.changed[flag] }
	if f.Tolerance != nil && set("tolerance") {
		s.Tolerance = *f.Tolerance
	}
	if f.CPUInitializationPeriod != nil && set("cpu-initialization-period") {
		s.CPUInitializationPeriod = *f.CPUInitializationPeriod
	}
	if f.InitialReadinessDelay != nil && set("initial-readiness-delay") {
		s.InitialReadinessDelay = *f.InitialReadinessDelay
	}
	if f.DownscaleStabilization != nil && set("downscale-stabilization") {
		s.DownscaleStabilization = *f.DownscaleStabilization
	}
	if f.SyncPeriod != nil && set("sync-period") {
		s.SyncPeriod = *f.SyncPeriod
	}
	if set("feature-gates") {
		gates := map[profile.Gate]bool{}
		for _, g := range profile.GatesAt(s.Profile.Version.Minor) {
			if v, ok := f.FeatureGates[string(g.Name)]; ok {
				gates[g.Name] = v
			}
		}
		if p, err := profile.New(s.Profile.Version, gates); err == nil {
			s.Profile = p
		} else {
			fmt.Fprintf(o.ErrOut, "Warning: the feature gates of kube-controller-manager pod %s: %v\n", f.Source, err)
		}
	}
	s.Source = "the flags of kube-controller-manager pod " + f.Source + " (command-line flags win)"
}
