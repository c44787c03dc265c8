// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"errors"
	"io"
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/migrate"
)

// MigrateHint is the Hint of migrate's clients.
const MigrateHint = "migrate reads the cluster of the current kubeconfig context; pass --kubeconfig or --context"

// MigrateInput is migrate's argument and options (MigrateRows): Config
// checks them.
type MigrateInput struct {
	// Target is the TYPE/NAME argument (deployment/web).
	Target string
	// Namespace is -n ("" means the kubeconfig context's).
	Namespace string
	Filenames []string
	Recursive bool
	Write     bool
	Stdin     io.Reader
	// Apply is --apply; DryRun is --dry-run: none (""), client or server.
	Apply  bool
	DryRun string
}

// Config checks the input and returns the migrate config, without its
// clients.
func (in MigrateInput) Config() (MigrateConfig, error) {
	typ, name, err := migrate.ParseTargetArg(in.Target)
	if err != nil {
		return MigrateConfig{}, &UsageError{Err: err}
	}
	cfg := MigrateConfig{
		Type: typ, Name: name, Namespace: in.Namespace,
		Filenames: in.Filenames, Recursive: in.Recursive, Write: in.Write, Stdin: in.Stdin,
	}
	switch strings.ToLower(in.DryRun) {
	case "", "none":
		cfg.Execute = in.Apply
	case "client":
	case "server":
		cfg.Execute, cfg.DryRun = true, true
	default:
		return cfg, usageErrorf(`%s: %q is not one of %s`, in.flag(&in.DryRun), in.DryRun, strings.Join(MigrateRows.Named(&in, &in.DryRun).Enum, ", "))
	}
	write, files, dryRun := in.flag(&in.Write), "-"+MigrateRows.Named(&in, &in.Filenames).Shorthand, in.flag(&in.DryRun)
	switch {
	case in.Write && len(in.Filenames) == 0:
		return cfg, usageErrorf("%s saves the manifests given with %s: give at least one", write, files)
	case in.Write && onlyStdin(in.Filenames):
		return cfg, usageErrorf("%s saves files, and %s - is standard input: its edited manifest is printed to standard output without %s", write, files, write)
	case in.Apply && strings.EqualFold(in.DryRun, "client"):
		return cfg, usageErrorf("%s and %s=client contradict each other: %s=client only prints the plan", in.flag(&in.Apply), dryRun, dryRun)
	}
	return cfg, nil
}

// flag names the option that sets field, for a message.
func (in *MigrateInput) flag(field any) string { return MigrateRows.Named(in, field).Flag() }

// MigrateOptionName words an option that migrate's text and errors
// mention as its flag.
func MigrateOptionName(o migrate.Option) string {
	var in MigrateInput
	switch o {
	case migrate.OptionWrite:
		return in.flag(&in.Write)
	case migrate.OptionApply:
		return in.flag(&in.Apply)
	case migrate.OptionDryRunServer:
		return in.flag(&in.DryRun) + "=server"
	}
	return string(o)
}

// migrateFlagNamed rewords a migrate error that mentions options with
// their flags, keeping what precedes it.
func migrateFlagNamed(err error) error {
	var ne *migrate.NamedError
	if !errors.As(err, &ne) {
		return err
	}
	return errors.New(strings.Replace(err.Error(), ne.Error(), ne.Text(MigrateOptionName), 1))
}

// onlyStdin reports whether every -f is "-".
func onlyStdin(names []string) bool {
	for _, n := range names {
		if n != "-" {
			return false
		}
	}
	return len(names) > 0
}
