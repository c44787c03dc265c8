// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/version"
)

// Printer prints every command's result in the format -o chose, parsed
// once by the command (ParseFormat): JSON and YAML encode the result's
// document (Encode), text is the result's view for people, shaped by
// Options.
type Printer struct {
	Format  Format
	Options Options
}

// Result is one command's result, as a Printer prints it.
type Result interface {
	write(w io.Writer, f Format, opts Options) error
}

// Print writes r to w.
func (p Printer) Print(w io.Writer, r Result) error { return r.write(w, p.Format, p.Options) }

type resultFunc func(w io.Writer, f Format, opts Options) error

func (r resultFunc) write(w io.Writer, f Format, opts Options) error { return r(w, f, opts) }

// Document is a result whose text view is text and whose -o json|yaml
// document is doc.
func Document(doc any, text func(w io.Writer) error) Result {
	return resultFunc(func(w io.Writer, f Format, _ Options) error {
		if f == FormatJSON || f == FormatYAML {
			return Encode(w, f, doc)
		}
		return text(w)
	})
}

// Explanation is explain's result of one HPA (or of a ScaledObject
// without one: k alone).
func Explanation(d *explain.Decision, k *explain.KEDA) Result {
	return resultFunc(func(w io.Writer, f Format, opts Options) error { return WriteExplanation(w, f, d, k, opts) })
}

// WhatIfResult is whatif's result.
func WhatIfResult(wi *explain.WhatIf) Result {
	return resultFunc(func(w io.Writer, f Format, opts Options) error { return WriteWhatIf(w, f, wi, opts) })
}

// Version is the version command's result.
func Version(info version.Info) Result {
	return Document(info, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "Version:    %s\nCommit:     %s\nDate:       %s\nGo version: %s\nPlatform:   %s\n",
			info.Version, info.Commit, info.Date, info.GoVersion, info.Platform)
		return err
	})
}
