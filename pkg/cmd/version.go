// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/version"
)

// VersionInfo is what the version command prints.
type VersionInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	Date      string `json:"date"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

// VersionOptions are the options of the version command.
type VersionOptions struct {
	genericiooptions.IOStreams
	Output string

	format render.Format
}

// NewVersionOptions returns the defaults.
func NewVersionOptions(streams genericiooptions.IOStreams) *VersionOptions {
	return &VersionOptions{IOStreams: streams, Output: string(render.FormatText)}
}

// NewCmdVersion returns the version command. runF, when set, replaces Run
// (for tests).
func NewCmdVersion(streams genericiooptions.IOStreams, runF func(*VersionOptions) error) *cobra.Command {
	o := NewVersionOptions(streams)
	c := &cobra.Command{
		Use:   "version",
		Short: "Print the version of kubectl hpa",
		Args:  cobra.NoArgs,
		Example: dedent(`
			# Print the version
			kubectl hpa version

			# Print it as JSON
			kubectl hpa version -o json`),
		RunE: func(c *cobra.Command, _ []string) error {
			f, err := render.ParseFormat(o.Output)
			if err != nil {
				return flagErrorf(c, "%w", err)
			}
			o.format = f
			if runF != nil {
				return runF(o)
			}
			return o.Run()
		},
	}
	c.Flags().StringVarP(&o.Output, "output", "o", o.Output, formatHelp())
	return c
}

// Info returns the build information.
func (o *VersionOptions) Info() VersionInfo {
	return VersionInfo{
		Version:   version.Version,
		Commit:    version.Commit,
		Date:      version.Date,
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
}

// Run prints the version.
func (o *VersionOptions) Run() error {
	info := o.Info()
	var out []byte
	var err error
	switch o.format {
	case render.FormatJSON:
		out, err = json.MarshalIndent(info, "", "  ")
		out = append(out, '\n')
	case render.FormatYAML:
		out, err = yaml.Marshal(info)
	default:
		out = fmt.Appendf(nil, "Version:    %s\nCommit:     %s\nDate:       %s\nGo version: %s\nPlatform:   %s\n",
			info.Version, info.Commit, info.Date, info.GoVersion, info.Platform)
	}
	if err != nil {
		return fmt.Errorf("encode version: %w", err)
	}
	_, err = o.Out.Write(out)
	return err
}
