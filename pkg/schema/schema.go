// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package schema publishes a JSON Schema (draft 2020-12) for every document
// kubectl-hpa prints with -o json|yaml. The schemas are generated from the
// Go types of the documents by reflection, following encoding/json's rules
// (a field without omitempty is required, a nil pointer, slice or map
// without omitempty is null, a type that encodes itself has the schema of
// what it writes), so they cannot drift from the output. The descriptions
// and the enumerations of our string types come from the Go doc comments,
// read from the source by hack/genschema into docs_generated.go
// (`make docs`; a test fails when it is stale). docs/schema/<kind>.json is
// what JSON returns for each kind.
package schema

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/migrate"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/version"
)

// Kind names one document.
type Kind string

// The documents.
const (
	// Explanation is what explain NAME -o json prints: explain.Decision.
	Explanation Kind = "explanation"
	// List is what explain -A, -l or without a NAME prints:
	// explain.ExplanationList.
	List Kind = "list"
	// WhatIf is what whatif -o json prints: explain.WhatIf.
	WhatIf Kind = "whatif"
	// Watch is one document of the stream explain --watch -o json prints:
	// an explain.Decision.
	Watch Kind = "watch"
	// KEDA is what explain scaledobject/NAME -o json prints for a
	// ScaledObject without an HPA to replay: explain.KEDAExplanation.
	KEDA Kind = "keda"
	// Migrate is what migrate -o json prints: migrate.Report.
	Migrate Kind = "migrate"
	// Version is what version -o json prints: version.Info.
	Version Kind = "version"
	// Summaries is what the MCP tool hpa_explain_many returns (kubectl hpa
	// mcp): explain.ExplanationSummaryList.
	Summaries Kind = "summaries"
	// Tune is what tune -o json prints: explain.Tune.
	Tune Kind = "tune"
	// Fleet is what tune -o json prints without a NAME: explain.TuneFleet.
	Fleet Kind = "fleet"
)

// BaseURL is where the schemas of this version of the documents
// (explain.APIVersion) are published; a kind's $id is BaseURL + kind +
// ".json".
const BaseURL = "https://kubectl-hpa.io/schema/v1alpha1/"

// document describes the schema of one kind.
type document struct {
	kind Kind
	root reflect.Type
	// title and description head the schema; summary is one line for the
	// list of kinds.
	title, description, summary string
}

var documents = []document{
	{
		Explanation, reflect.TypeFor[explain.Decision](), "Explanation",
		"One replayed sync of one HorizontalPodAutoscaler, as `kubectl hpa explain NAME -o json` prints it (docs/output-schema.md).",
		"explain NAME -o json: the replay of one HPA (Explanation)",
	},
	{
		List, reflect.TypeFor[explain.ExplanationList](), "ExplanationList",
		"The Explanations of many HorizontalPodAutoscalers, as `kubectl hpa explain -A|-l -o json` (or without a NAME) prints them.",
		"explain -A|-l -o json: the replays of many HPAs (ExplanationList)",
	},
	{
		WhatIf, reflect.TypeFor[explain.WhatIf](), "WhatIf",
		"The replays before and after whatif's changes, and the projection of later syncs, as `kubectl hpa whatif -o json` prints them (docs/whatif.md).",
		"whatif -o json: the replays before and after, and the projection (WhatIf)",
	},
	{
		Watch, reflect.TypeFor[explain.Decision](), "Explanation (watch stream)",
		"One document of the stream `kubectl hpa explain --watch -o json` prints: an Explanation per watched HPA and replayed sync, the documents one after the other, without an enclosing list.",
		"explain --watch -o json: one document of the stream (Explanation)",
	},
	{
		KEDA, reflect.TypeFor[explain.KEDAExplanation](), "KEDAExplanation",
		"KEDA's part alone, as `kubectl hpa explain scaledobject/NAME -o json` prints it for a ScaledObject whose HPA KEDA deleted (paused) or never wrote (docs/keda.md); every other explanation of a ScaledObject is an Explanation with a keda block.",
		"explain scaledobject/NAME -o json without an HPA: KEDA's part (KEDAExplanation)",
	},
	{
		Migrate, reflect.TypeFor[migrate.Report](), "MigrationReport",
		"The plan of `kubectl hpa migrate -o json` and, with --apply or --dry-run=server, what was done.",
		"migrate -o json: the plan, and what was done (MigrationReport)",
	},
	{
		Version, reflect.TypeFor[version.Info](), "Version",
		"The build information `kubectl hpa version -o json` prints.",
		"version -o json: the build information",
	},
	{
		Summaries, reflect.TypeFor[explain.ExplanationSummaryList](), "ExplanationSummaryList",
		"A page of the summaries of many HorizontalPodAutoscalers' replays, as the tool hpa_explain_many of `kubectl hpa mcp` returns it (docs/mcp.md).",
		"mcp hpa_explain_many: a page of summaries of many HPAs (ExplanationSummaryList)",
	},
	{
		Tune, reflect.TypeFor[explain.Tune](), "Tune",
		"A search of an HPA's settings over recorded load, as `kubectl hpa tune -o json` prints it: every candidate replayed exactly, the frontier of cost against risk, and the recommendation with its patch (docs/tune.md).",
		"tune -o json: the candidates, the frontier and the recommendation (Tune)",
	},
	{
		Fleet, reflect.TypeFor[explain.TuneFleet](), "TuneFleet",
		"Many HPAs tuned alike, as `kubectl hpa tune -A -o json` (or -n, -l without a NAME) prints it: per HPA its figures as it is and recommended, the saving, how far its as-is replay held its recorded replica count, and the patch; ranked by saving, with the totals (docs/fleet.md).",
		"tune -A -o json: many HPAs ranked by saving (TuneFleet)",
	},
}

// consts are the properties whose value is fixed: the apiVersion and kind
// of each document type.
var consts = map[reflect.Type]map[string]string{
	reflect.TypeFor[explain.Decision]():               {"apiVersion": explain.APIVersion, "kind": explain.KindExplanation},
	reflect.TypeFor[explain.ExplanationList]():        {"apiVersion": explain.APIVersion, "kind": explain.KindExplanationList},
	reflect.TypeFor[explain.ExplanationSummaryList](): {"apiVersion": explain.APIVersion, "kind": explain.KindExplanationSummaryList},
	reflect.TypeFor[explain.WhatIf]():                 {"apiVersion": explain.APIVersion, "kind": explain.KindWhatIf},
	reflect.TypeFor[explain.Tune]():                   {"apiVersion": explain.APIVersion, "kind": explain.KindTune},
	reflect.TypeFor[explain.TuneFleet]():              {"apiVersion": explain.APIVersion, "kind": explain.KindTuneFleet},
	reflect.TypeFor[explain.KEDAExplanation]():        {"apiVersion": explain.APIVersion, "kind": explain.KindKEDA},
	reflect.TypeFor[migrate.Report]():                 {"apiVersion": migrate.APIVersion, "kind": migrate.Kind},
}

// nonNull are the fields of slice or pointer type, without omitempty, that
// their producer never leaves nil, so they are never null: the list
// encoder writes [] for no items (render.ListWriter); action.WhatIf sets
// the changes ([] for none) and both replays; action.ExplainSummaries the
// items and explain.Summarize the problems ([] for none).
var nonNull = map[reflect.Type]map[string]bool{
	reflect.TypeFor[explain.ExplanationList]():        {"items": true},
	reflect.TypeFor[explain.WhatIf]():                 {"changes": true, "before": true, "after": true},
	reflect.TypeFor[explain.ExplanationSummaryList](): {"items": true},
	reflect.TypeFor[explain.ExplanationSummary]():     {"problems": true},
	reflect.TypeFor[explain.KEDAExplanation]():        {"keda": true},
	reflect.TypeFor[explain.Tune]():                   {"bounds": true, "space": true, "candidates": true, "notes": true},
	reflect.TypeFor[explain.TuneAxis]():               {"values": true},
	reflect.TypeFor[explain.TuneCandidate]():          {"values": true},
	reflect.TypeFor[explain.TuneRecommendation]():     {"changes": true},
	reflect.TypeFor[explain.PathSummary]():            {"aboveTarget": true, "beyondTolerance": true, "aboveBound": true, "metricsFailed": true, "lags": true},
	reflect.TypeFor[explain.TuneFigures]():            {"aboveBound": true, "beyondTolerance": true, "metricsFailed": true},
	reflect.TypeFor[explain.TuneFleet]():              {"items": true, "totals": true, "notes": true},
}

// Kinds returns every kind, in the order `kubectl hpa schema` lists them.
func Kinds() []Kind {
	out := make([]Kind, len(documents))
	for i, d := range documents {
		out[i] = d.kind
	}
	return out
}

// ParseKind checks a kind name.
func ParseKind(s string) (Kind, error) {
	if _, ok := lookup(Kind(s)); ok {
		return Kind(s), nil
	}
	names := make([]string, len(documents))
	for i, d := range documents {
		names[i] = string(d.kind)
	}
	return "", fmt.Errorf("unknown schema kind %q (want one of: %s)", s, strings.Join(names, ", "))
}

func lookup(k Kind) (document, bool) {
	for _, d := range documents {
		if d.kind == k {
			return d, true
		}
	}
	return document{}, false
}

// ID returns the $id of the kind's schema.
func (k Kind) ID() string { return BaseURL + string(k) + ".json" }

// Summary is one line saying which output the kind's schema describes.
func (k Kind) Summary() string {
	d, _ := lookup(k)
	return d.summary
}

// Options tune Generate.
type Options struct {
	// Strict forbids properties the Go types do not have
	// (additionalProperties: false on every object of ours and Kubernetes').
	// The published schemas leave objects open, since a field may be added
	// within a version; tests validate with the strict ones.
	Strict bool
	// Docs are the descriptions and enumerations; nil means the ones
	// generated into this package.
	Docs *Docs
}

// JSON returns the published schema of the kind: indented by two spaces,
// with a final newline, as `kubectl hpa schema KIND` prints it and
// docs/schema/KIND.json holds it.
func JSON(k Kind) ([]byte, error) { return Generate(k, Options{}) }

// Generate returns the schema of the kind.
func Generate(k Kind, o Options) ([]byte, error) {
	d, ok := lookup(k)
	if !ok {
		_, err := ParseKind(string(k))
		return nil, err
	}
	docs := o.Docs
	if docs == nil {
		docs = &generatedDocs
	}
	g := newGenerator(docs, o.Strict)
	root, err := g.document(d)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", k, err)
	}
	return marshal(root)
}

// Types returns the named types the documents are made of: their structs
// and the named string types of this module (hack/genschema reads
// their doc comments and constants).
func Types() ([]reflect.Type, error) {
	var out []reflect.Type
	for _, d := range documents {
		g := newGenerator(&Docs{}, false)
		if _, err := g.document(d); err != nil {
			return nil, err
		}
		for _, t := range g.named {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// WriteIndex writes one line per kind: its name and what it describes.
func WriteIndex(w io.Writer) error {
	for _, d := range documents {
		if _, err := fmt.Fprintf(w, "%-12s %s\n", d.kind, d.summary); err != nil {
			return err
		}
	}
	return nil
}
