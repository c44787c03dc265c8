// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/internal/textblock"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// SchemaOptions are the options of the schema command.
type SchemaOptions struct {
	genericiooptions.IOStreams
	// Kind is the document whose schema to print; "" lists the kinds.
	Kind schema.Kind
}

// NewCmdSchema returns the schema command.
func NewCmdSchema(streams genericiooptions.IOStreams) *cobra.Command {
	o := &SchemaOptions{IOStreams: streams}
	return &cobra.Command{
		Use:   "schema [KIND]",
		Short: "Print the JSON Schema of a -o json document",
		Long: textblock.Dedent(`
			Schema prints the JSON Schema (draft 2020-12) of a document kubectl hpa prints with
			-o json (and with the same fields with -o yaml): explanation (explain NAME), list
			(explain -A, -l or without a NAME), whatif, watch (one document of the stream
			explain --watch prints), keda (explain scaledobject/NAME without an HPA),
			migrate, version, or summaries (a page of the tool hpa_explain_many of kubectl
			hpa mcp). Without a KIND it lists them.

			The schemas are generated from the Go types of the documents; docs/schema/KIND.json
			holds each, and docs/output-schema.md describes the fields.`),
		Example: textblock.Dedent(`
			# List the kinds
			kubectl hpa schema

			# Save the schema of explain's document, for any JSON Schema validator
			kubectl hpa schema explanation > explanation.schema.json`),
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var kinds []cobra.Completion
			for _, k := range schema.Kinds() {
				if len(args) == 0 {
					kinds = append(kinds, cobra.CompletionWithDesc(string(k), k.Summary()))
				}
			}
			return kinds, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(_ *cobra.Command, args []string) error {
			if err := o.Complete(args); err != nil {
				return err
			}
			return o.Run()
		},
	}
}

// Complete checks the KIND argument.
func (o *SchemaOptions) Complete(args []string) (err error) {
	if len(args) == 1 {
		o.Kind, err = schema.ParseKind(args[0])
	}
	return err
}

// Run prints the schema of the kind, or the list of kinds.
func (o *SchemaOptions) Run() error {
	if o.Kind == "" {
		return schema.WriteIndex(o.Out)
	}
	b, err := schema.JSON(o.Kind)
	if err != nil {
		return err
	}
	_, err = o.Out.Write(b)
	return err
}
