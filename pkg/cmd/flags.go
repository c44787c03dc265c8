// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
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

// featureGateNames lists the gates --feature-gates accepts.
var featureGateNames = []string{"HPAConfigurableTolerance", "HPAScaleToZero", "PodLevelResources"}

// parseFeatureGates applies "Name=bool,..." (the kube-controller-manager
// syntax) on top of base.
func parseFeatureGates(spec string, base engine.FeatureGates) (engine.FeatureGates, error) {
	out := base
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		if !ok {
			return out, fmt.Errorf("--feature-gates: %q is not Name=true|false", part)
		}
		name = strings.TrimSpace(name)
		b, err := strconv.ParseBool(strings.TrimSpace(val))
		if err != nil {
			return out, fmt.Errorf("--feature-gates: %s=%s: the value must be true or false", name, val)
		}
		switch name {
		case "HPAConfigurableTolerance":
			out.HPAConfigurableTolerance = b
		case "HPAScaleToZero":
			out.HPAScaleToZero = b
		case "PodLevelResources":
			out.PodLevelResources = b
		default:
			return out, fmt.Errorf("--feature-gates: unknown feature gate %q (known: %s)", name, strings.Join(featureGateNames, ", "))
		}
	}
	return out, nil
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
