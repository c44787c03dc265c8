// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// FlagError is a usage mistake: cli.Main prints it with a pointer to the
// command's help.
type FlagError struct {
	Err         error
	CommandPath string
}

func (e *FlagError) Error() string { return e.Err.Error() }

func (e *FlagError) Unwrap() error { return e.Err }

func flagErrorf(c *cobra.Command, format string, args ...any) error {
	path := ""
	if c != nil {
		path = c.CommandPath()
	}
	return &FlagError{Err: fmt.Errorf(format, args...), CommandPath: path}
}

// changedFlags returns the names of the flags set on the command line.
func changedFlags(c *cobra.Command) map[string]bool {
	out := map[string]bool{}
	c.Flags().Visit(func(f *pflag.Flag) { out[f.Name] = true })
	return out
}

// SourceFlags say where the objects come from and when the sync happens:
// -f, --now, and -v for the live reads.
type SourceFlags struct {
	Filenames []string
	// Now is --now; empty means Clock().
	Now string
	// Verbosity is -v: 1 prints the number of API calls, 2 lists them.
	Verbosity int
	// Clock gives the time when --now is not set; nil means time.Now.
	Clock func() time.Time
}

// AddFlags binds -f and --now.
func (s *SourceFlags) AddFlags(fs *pflag.FlagSet) {
	fs.StringSliceVarP(&s.Filenames, "filename", "f", s.Filenames,
		"Files, directories or - (stdin) holding the objects, in YAML or JSON")
	fs.StringVar(&s.Now, "now", s.Now,
		"Instant of the replayed sync, in RFC 3339 with optional fractional seconds (default: the current time)")
}

// AddVerbosityFlag binds -v.
func (s *SourceFlags) AddVerbosityFlag(fs *pflag.FlagSet) {
	fs.IntVarP(&s.Verbosity, "v", "v", s.Verbosity, "Verbosity: 1 counts the API calls, 2 lists them (higher values act as 2)")
}

// ToSource resolves --now and builds the action's source.
func (s *SourceFlags) ToSource(c *cobra.Command, in io.Reader, clients *action.Factory, namespace string) (action.Source, error) {
	now, err := action.ParseNow(s.Now, s.Clock)
	if err != nil {
		return action.Source{}, flagErrorf(c, "%w", err)
	}
	return action.Source{Files: s.Filenames, In: in, Clients: clients, Namespace: namespace, Now: now}, nil
}

// reportCalls prints the API calls of a live run with -v.
func (s *SourceFlags) reportCalls(w io.Writer, clients *action.Factory, suffix string) {
	if clients != nil && len(s.Filenames) == 0 {
		render.APICalls(w, s.Verbosity, clients.Calls(), suffix)
	}
}

// SettingsFlags bind the kube-controller-manager settings
// (action.SettingsInput) to their flags.
type SettingsFlags struct{ action.SettingsInput }

// NewSettingsFlags returns the flags with kube-controller-manager's
// defaults as their default values.
func NewSettingsFlags() SettingsFlags {
	return SettingsFlags{action.DefaultSettingsInput()}
}

// AddFlags binds the settings flags.
func (s *SettingsFlags) AddFlags(fs *pflag.FlagSet) {
	fs.Float64Var(&s.Tolerance, "tolerance", s.Tolerance,
		"Controller tolerance (--horizontal-pod-autoscaler-tolerance), 0 to 100")
	fs.DurationVar(&s.CPUInitializationPeriod, "cpu-initialization-period", s.CPUInitializationPeriod,
		"CPU initialization period (--horizontal-pod-autoscaler-cpu-initialization-period), at most 24h")
	fs.DurationVar(&s.InitialReadinessDelay, "initial-readiness-delay", s.InitialReadinessDelay,
		"Initial readiness delay (--horizontal-pod-autoscaler-initial-readiness-delay), at most 24h")
	fs.DurationVar(&s.DownscaleStabilization, "downscale-stabilization", s.DownscaleStabilization,
		"Downscale stabilization window (--horizontal-pod-autoscaler-downscale-stabilization), at most 24h")
	fs.DurationVar(&s.SyncPeriod, "sync-period", s.SyncPeriod,
		"Controller sync period (--horizontal-pod-autoscaler-sync-period), at most 1h")
	fs.StringVar(&s.FeatureGates, "feature-gates", s.FeatureGates,
		"Feature gates as Name=true|false,... on top of the controller version's defaults (see docs/versions.md)")
	fs.StringVar(&s.ControllerVersion, "controller-version", s.ControllerVersion,
		"Kubernetes version of the kube-controller-manager to replay, like 1.32 or v1.32.13 (default: detected from the cluster, else "+profile.NewestVersion+")")
	fs.StringVar(&s.KEDAVersion, "keda-version", s.KEDAVersion, action.KEDAVersionHelp)
	fs.StringVar(&s.AssumeScaleUpdateError, "assume-scale-update-error", s.AssumeScaleUpdateError,
		"Assume the controller's scale update fails with this error")
	_ = fs.MarkHidden("assume-scale-update-error")
	fs.BoolVar(&s.SkipValidation, "skip-validation", s.SkipValidation,
		"Replay -f input that the API server would refuse (upstream's unit-test objects)")
	_ = fs.MarkHidden("skip-validation")
}

// ToOverrides checks the values and returns the settings the user gave.
func (s *SettingsFlags) ToOverrides(c *cobra.Command) (action.SettingsOverrides, error) {
	s.Given = changedFlags(c)
	return s.Overrides()
}

// OutputFlags are -o and the text view's display flags.
type OutputFlags struct {
	Output  string
	Display DisplayOptions
}

// AddFlags binds -o, --color, --pods and --no-pods.
func (o *OutputFlags) AddFlags(fs *pflag.FlagSet) {
	if o.Output == "" {
		o.Output = string(render.FormatText)
	}
	fs.StringVarP(&o.Output, "output", "o", o.Output, formatHelp())
	o.Display.AddFlags(fs)
}

// Format parses -o.
func (o *OutputFlags) Format(c *cobra.Command) (render.Format, error) {
	f, err := render.ParseFormat(o.Output)
	if err != nil {
		return "", flagErrorf(c, "%w", err)
	}
	return f, nil
}

// registerOutputCompletion completes the values of -o and --color.
func registerOutputCompletion(c *cobra.Command) {
	_ = c.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(render.Formats(), cobra.ShellCompDirectiveNoFileComp))
	if c.Flags().Lookup("color") != nil {
		_ = c.RegisterFlagCompletionFunc("color", cobra.FixedCompletions([]string{"auto", "always", "never"}, cobra.ShellCompDirectiveNoFileComp))
	}
}

// formatHelp is the description of -o.
func formatHelp() string {
	return "Output format: one of " + strings.Join(render.Formats(), ", ")
}

// dedent trims the common leading tabs of a raw string literal.
func dedent(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	prefix := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, "\t"))
		if prefix < 0 || n < prefix {
			prefix = n
		}
	}
	for i, l := range lines {
		if len(l) >= prefix && prefix > 0 {
			lines[i] = l[prefix:]
		}
	}
	return strings.Join(lines, "\n")
}

// usageError makes the action layer's *action.UsageError a FlagError of c,
// so that the error points to the command's help; other errors pass.
func usageError(c *cobra.Command, err error) error {
	var ue *action.UsageError
	if errors.As(err, &ue) {
		return &FlagError{Err: err, CommandPath: c.CommandPath()}
	}
	return err
}
