// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/display"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/options"
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

// usageError makes the action layer's *action.UsageError a FlagError of c,
// so that the error points to the command's help; other errors pass.
func usageError(c *cobra.Command, err error) error {
	var ue *action.UsageError
	if errors.As(err, &ue) {
		return &FlagError{Err: err, CommandPath: c.CommandPath()}
	}
	return err
}

// addOptions binds declared options (pkg/action's and pkg/prom's tables
// of rows) to flags of c: the one place an option becomes a flag. A flag
// whose row lists the values it takes completes them.
func addOptions(c *cobra.Command, groups ...[]options.Bound) {
	fs := c.Flags()
	for _, g := range groups {
		for _, o := range g {
			f := fs.VarPF(o.Value, o.Name, o.Shorthand, o.Help)
			f.NoOptDefVal, f.Hidden = o.NoOptDefVal(), o.Hidden
			if len(o.Enum) > 0 {
				_ = c.RegisterFlagCompletionFunc(o.Name, cobra.FixedCompletions(o.Enum, cobra.ShellCompDirectiveNoFileComp))
			}
		}
	}
}

// addConfigFlags gives a command built alone (tests) kubectl's connection
// flags, which it otherwise inherits from the root.
func addConfigFlags(fs *pflag.FlagSet, cf *genericclioptions.ConfigFlags) *genericclioptions.ConfigFlags {
	if cf == nil {
		cf = genericclioptions.NewConfigFlags(true)
		cf.AddFlags(fs)
	}
	return cf
}

// namespaceOf is -n ("" means the kubeconfig context's).
func namespaceOf(cf *genericclioptions.ConfigFlags) string {
	if cf != nil && cf.Namespace != nil {
		return *cf.Namespace
	}
	return ""
}

// reportCalls prints the API calls of a live run with -v.
func reportCalls(w io.Writer, src action.SourceInput, clients *action.Factory, suffix string) {
	if clients != nil && len(src.Files) == 0 {
		render.APICalls(w, src.Verbosity, clients.Calls(), suffix)
	}
}

// OutputFlags are -o and, for the commands that print a text view
// shaped by them, --color, --pods and --no-pods: as kubectl's PrintFlags,
// the one place -o is parsed (ToPrinter).
type OutputFlags struct {
	Output  string
	Display display.Options
}

// AddFlags binds -o, and withDisplay the text view's flags.
func (o *OutputFlags) AddFlags(c *cobra.Command, withDisplay bool) {
	if o.Output == "" {
		o.Output = string(render.FormatText)
	}
	fs := c.Flags()
	fs.StringVarP(&o.Output, "output", "o", o.Output, "Output format: one of "+strings.Join(render.Formats(), ", "))
	_ = c.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(render.Formats(), cobra.ShellCompDirectiveNoFileComp))
	if withDisplay {
		addDisplayFlags(fs, &o.Display)
		_ = c.RegisterFlagCompletionFunc("color", cobra.FixedCompletions(display.ColorModes(), cobra.ShellCompDirectiveNoFileComp))
	}
}

// flagPods lists every pod; the text names it after a table that leaves
// pods out.
const flagPods = "pods"

// addDisplayFlags binds --color, --pods and --no-pods.
func addDisplayFlags(fs *pflag.FlagSet, d *display.Options) {
	if d.Color == "" {
		d.Color = display.ColorAuto
	}
	if d.Pods == "" {
		d.Pods = render.PodsAuto
	}
	fs.Var(display.ColorValue(&d.Color), "color",
		"Color the text view: auto (when stdout is a terminal and NO_COLOR is unset), always or never; without color the plain layout is printed")
	fs.VarPF(display.PodsValue(&d.Pods, render.PodsAll, render.PodsNone), flagPods, "",
		fmt.Sprintf("List every pod in the per-pod tables (default: up to %d per metric)", render.MaxPodRows)).NoOptDefVal = "true"
	fs.VarPF(display.PodsValue(&d.Pods, render.PodsNone, render.PodsAll), "no-pods", "",
		"Leave out the per-pod tables, keeping the pod counts").NoOptDefVal = "true"
}

// ToPrinter parses -o and decides the text view for out.
func (o *OutputFlags) ToPrinter(c *cobra.Command, out io.Writer) (render.Printer, error) {
	f, err := render.ParseFormat(o.Output)
	if err != nil {
		return render.Printer{}, flagErrorf(c, "%w", err)
	}
	opts := o.Display.RenderOptions(out)
	opts.ListPods = "--" + flagPods
	return render.Printer{Format: f, Options: opts}, nil
}
