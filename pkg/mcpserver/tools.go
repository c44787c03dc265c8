// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/options"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// The tools, prefixed so that they sit well beside other servers' tools.
const (
	ToolExplain      = "hpa_explain"
	ToolExplainMany  = "hpa_explain_many"
	ToolWhatIf       = "hpa_whatif"
	ToolBacktest     = "hpa_backtest"
	ToolTune         = "hpa_tune"
	ToolTuneMany     = "hpa_tune_many"
	ToolMigratePlan  = "hpa_migrate_plan"
	ToolMigrateApply = "hpa_migrate_apply"
)

// maxWarnings bounds the warnings a result carries (a namespace's many
// HPAs may each have some).
const maxWarnings = 20

func addTools(s *mcp.Server, h *handlers) {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	mcp.AddTool(s, &mcp.Tool{
		Name: ToolExplain, Title: "Explain an HPA's decision",
		Description: "Replay one sync of the HorizontalPodAutoscaler controller for one HPA, as `kubectl hpa explain NAME -o json` (name scaledobject/NAME: the HPA of a KEDA ScaledObject, with KEDA's part): every step (each metric's pods, usage, ratio and tolerance test, the recommendation, the stabilization window, the scaling policies, the bounds), the conditions and events the controller writes, the step that decided (decidedBy), a one-sentence summary, and whether the replay agrees with the controller's last status. With at, the sync of a past instant over the load Prometheus recorded (explain --at). Only reads (GET and LIST).",
		Annotations: readOnly, InputSchema: inputSchema([]ownArg{nameArg("The HorizontalPodAutoscaler's name"), namespaceArg, contextArg}, explainArgs(&action.ExplainInput{}, &action.SettingsInput{})), OutputSchema: outputSchema(schema.Explanation),
	}, h.explain)
	mcp.AddTool(s, &mcp.Tool{
		Name: ToolExplainMany, Title: "Summarize many HPAs",
		Description: "Replay every HPA of a namespace, of all namespaces (all-namespaces) or of a label selector, as `kubectl hpa explain -A` does, and return one summary each: replicas, the step that decided, a one-sentence summary, the agreement with the controller and the problems (metric-failed, scaling-inactive, unable-to-scale, disagrees, stale-status, limited, rate-limited, scaling-disabled). Paginated: pass nextCursor back as cursor for the next page. hpa_explain gives one HPA's whole replay. Only reads.",
		Annotations: readOnly, InputSchema: inputSchema([]ownArg{namespaceArg, contextArg, limitArg, cursorArg}, explainManyArgs(&action.ExplainInput{}, &action.SettingsInput{})), OutputSchema: outputSchema(schema.Summaries),
	}, h.explainMany)
	mcp.AddTool(s, &mcp.Tool{
		Name: ToolWhatIf, Title: "What if an HPA's conditions changed",
		Description: "Replay one HPA's sync twice, as it is and with changes (`kubectl hpa whatif NAME -o json`): other usage per pod (cpu, memory), other metric values (metric, object, external), other targets, bounds (min, max), tolerances or behavior, another number of pods (replicas), every pod ready (all-ready); for the HPA of a KEDA ScaledObject (name scaledobject/NAME, or the HPA's name), what its triggers read (trigger), their activation thresholds (activation), cooldown, polling-interval, idle, fallback-replicas, failure-threshold, and min and max as its minReplicaCount and maxReplicaCount. With for (or trace), also project the successive syncs after the changes: the rescales and when they happen, through stabilization windows and scaling policies. Only reads; nothing is changed in the cluster.",
		Annotations: readOnly, InputSchema: inputSchema([]ownArg{nameArg("The HorizontalPodAutoscaler's name, or scaledobject/NAME for the HPA of a KEDA ScaledObject"), namespaceArg, contextArg}, whatIfArgs(&action.WhatIfInput{}, &action.SettingsInput{})), OutputSchema: outputSchema(schema.WhatIf),
	}, h.whatIf)
	mcp.AddTool(s, &mcp.Tool{
		Name: ToolBacktest, Title: "Backtest an HPA over recorded load",
		Description: "Replay the controller for one HPA over a past period (since, until) on the load Prometheus recorded (`kubectl hpa whatif NAME --since ... -o json`): as the HPA is, against what really happened, and with changes of the HPA (target, min, max, tolerances, behavior) to see what they would have done. Needs Prometheus (prometheus, or the server's default). Only reads.",
		Annotations: readOnly, InputSchema: inputSchema([]ownArg{nameArg("The HorizontalPodAutoscaler's name"), namespaceArg, contextArg}, backtestArgs(&action.WhatIfInput{}, &action.SettingsInput{}), "since"), OutputSchema: outputSchema(schema.WhatIf),
	}, h.backtest)
	mcp.AddTool(s, &mcp.Tool{
		Name: ToolTune, Title: "Tune an HPA's settings over recorded load",
		Description: "Search one HPA's settings (each metric's target, the stabilization windows, the scaling policies, the per-direction tolerances, optionally minReplicas) for the cheapest that would not have run hotter over a past period (since, until) on the load Prometheus recorded (`kubectl hpa tune NAME --since ... -o json`): every candidate replayed exactly as hpa_backtest replays, their cost (requested core-hours or pod-hours) and risk (the share of the period above a service bound, slo), the frontier, and one recommendation with the merge patch that applies it. Needs Prometheus (prometheus, or the server's default). Only reads; nothing is patched.",
		Annotations: readOnly, InputSchema: inputSchema([]ownArg{nameArg("The HorizontalPodAutoscaler's name"), namespaceArg, contextArg}, tuneArgs(&action.TuneInput{}, &action.SettingsInput{}), "since"), OutputSchema: outputSchema(schema.Tune),
	}, h.tune)
	mcp.AddTool(s, &mcp.Tool{
		Name: ToolTuneMany, Title: "Tune many HPAs, ranked by saving",
		Description: "Tune every HPA of a namespace, of all namespaces (all-namespaces) or of a label selector alike over a past period (since, until) on the load Prometheus recorded (`kubectl hpa tune -A --since ... -o json`), one at a time as hpa_tune tunes one, and return one row per HPA ranked by what its recommendation saves: the cost and risk as it is and recommended, the saving, the changes and the merge patch, and how far its as-is replay held the replica count it really had (fidelity; below min-fidelity there is no recommendation), with totals per cost unit. An HPA that cannot be tuned is a row saying why. Needs Prometheus (prometheus, or the server's default). Only reads; nothing is patched.",
		Annotations: readOnly, InputSchema: inputSchema([]ownArg{namespaceArg, contextArg}, tuneManyArgs(&action.TuneInput{}, &action.SettingsInput{}), "since"), OutputSchema: outputSchema(schema.Fleet),
	}, h.tuneMany)
	mcp.AddTool(s, &mcp.Tool{
		Name: ToolMigratePlan, Title: "Plan a replica-count hand-over",
		Description: "Plan the hand-over of a workload's spec.replicas to the HPA that scales it (`kubectl hpa migrate TYPE/NAME -o json`): who manages the field (kubectl apply, server-side appliers, Helm, Argo CD, Flux...), the numbered steps with their exact requests, and what is left to do outside the cluster. Only reads; hpa_migrate_apply carries the plan out when the server allows writes.",
		Annotations: readOnly, InputSchema: inputSchema(migrateOwn, nil), OutputSchema: outputSchema(schema.Migrate),
	}, h.migratePlan)
	if h.opts.AllowWrites {
		destructive := true
		mcp.AddTool(s, &mcp.Tool{
			Name: ToolMigrateApply, Title: "Hand a replica count over to its HPA",
			Description: "Carry out the plan of hpa_migrate_plan (`kubectl hpa migrate TYPE/NAME --apply -o json`): each write guarded by a resourceVersion precondition, the live replica count never lowered, the object read back to verify. Writes to the cluster; dry-run=server has the API server check every write and persist none. Running it again once done changes nothing.",
			Annotations: &mcp.ToolAnnotations{DestructiveHint: &destructive, IdempotentHint: true},
			InputSchema: inputSchema(migrateOwn, migrateApplyArgs(&action.MigrateInput{})), OutputSchema: outputSchema(schema.Migrate),
		}, h.migrateApply)
	}
}

// migrateOwn are the migrate tools' own arguments.
var migrateOwn = []ownArg{
	nameArg("The workload whose replica count to hand over, as TYPE/NAME (deployment/web, statefulset/db, widgets.example.com/w)"),
	namespaceArg, contextArg,
}

// outputSchema is the published schema of the document (kubectl hpa
// schema KIND).
func outputSchema(k schema.Kind) json.RawMessage {
	b, err := schema.JSON(k)
	if err != nil {
		panic(fmt.Sprintf("output schema %s: %v", k, err))
	}
	return b
}

// handlers hold the server's options; each call builds its own clients.
type handlers struct{ opts Options }

// call is what one tool call reads from: its clients and its source.
type call struct {
	clients *action.Factory
	source  action.Source
}

// newCall builds a call's clients from the server's connection flags and
// the call's context, and its source (a live one).
func (h *handlers) newCall(c connArgs, noHistory bool) *call {
	cf := connFlags(h.opts.ConfigFlags, c.Context)
	newFactory := h.opts.NewFactory
	if newFactory == nil {
		newFactory = func(g *genericclioptions.ConfigFlags) *action.Factory { return action.NewFactory(g) }
	}
	f := newFactory(cf)
	now := time.Now
	if h.opts.Now != nil {
		now = h.opts.Now
	}
	return &call{clients: f, source: action.Source{
		Clients: f, Namespace: c.Namespace, Now: now().UTC(), History: action.HistoryStore(noHistory),
	}}
}

// recorded is a call's recorded load before its arguments: the server's
// Prometheus client, its --prometheus the endpoint when the call names
// none.
func (h *handlers) recorded() action.RecordedInput {
	in := action.RecordedInput{Prometheus: h.opts.Prometheus, DefaultEndpoint: h.opts.Prometheus.Endpoint}
	in.Prometheus.Endpoint = ""
	return in
}

func (h *handlers) explain(ctx context.Context, _ *mcp.CallToolRequest, args map[string]any) (*mcp.CallToolResult, json.RawMessage, error) {
	in, set, conn := action.ExplainInput{Recorded: h.recorded()}, action.SettingsInput{}, connArgs{}
	if err := decode(args, &conn, explainArgs(&in, &set)); err != nil {
		return fail(err)
	}
	settings, err := set.Overrides()
	if err != nil {
		return fail(err)
	}
	c := h.newCall(conn, in.NoHistory)
	at, err := in.AtConfig(c.source, conn.Name, settings)
	if err != nil {
		return fail(err)
	}
	res, err := action.ExplainOne(ctx, action.ExplainConfig{Source: c.source, Name: conn.Name, Settings: settings, Evaluate: h.opts.Evaluate}, at)
	if err != nil {
		return fail(err)
	}
	if res.Decision == nil {
		return fail(action.NoHPAError(res.KEDA, "hpa_explain replays an HPA; `kubectl hpa explain "+conn.Name+"` shows KEDA's part alone"))
	}
	return result(res.Decision, res.Warnings)
}

func (h *handlers) explainMany(ctx context.Context, _ *mcp.CallToolRequest, args map[string]any) (*mcp.CallToolResult, json.RawMessage, error) {
	in, set, conn := action.ExplainInput{}, action.SettingsInput{}, connArgs{}
	if err := decode(args, &conn, explainManyArgs(&in, &set)); err != nil {
		return fail(err)
	}
	settings, err := set.Overrides()
	if err != nil {
		return fail(err)
	}
	page := action.SummaryPage{}
	if n, ok := args[limitArg.name].(float64); ok {
		page.Limit = int(n)
	}
	page.Cursor, _ = args[cursorArg.name].(string)
	c := h.newCall(conn, true)
	list, res, err := action.ExplainSummaries(ctx, action.ManyConfig{
		Source: c.source, AllNamespaces: in.AllNamespaces, Selector: in.Selector, Settings: settings, Evaluate: h.opts.Evaluate,
	}, page)
	if err != nil {
		return fail(err)
	}
	return result(list, res.Warnings)
}

func (h *handlers) whatIf(ctx context.Context, _ *mcp.CallToolRequest, args map[string]any) (*mcp.CallToolResult, json.RawMessage, error) {
	return h.runWhatIf(ctx, args, whatIfArgs)
}

func (h *handlers) backtest(ctx context.Context, _ *mcp.CallToolRequest, args map[string]any) (*mcp.CallToolResult, json.RawMessage, error) {
	return h.runWhatIf(ctx, args, backtestArgs)
}

// runWhatIf plans and runs a whatif or a backtest, as whatif does.
func (h *handlers) runWhatIf(ctx context.Context, args map[string]any, bind func(*action.WhatIfInput, *action.SettingsInput) [][]options.Bound) (*mcp.CallToolResult, json.RawMessage, error) {
	in, set, conn := action.DefaultWhatIfInput(), action.SettingsInput{}, connArgs{}
	in.Recorded = h.recorded()
	if err := decode(args, &conn, bind(&in, &set)); err != nil {
		return fail(err)
	}
	settings, err := set.Overrides()
	if err != nil {
		return fail(err)
	}
	c := h.newCall(conn, in.NoHistory)
	plan, err := in.Plan(c.source, conn.Name, settings)
	if err != nil {
		return fail(err)
	}
	if plan.WhatIf != nil {
		plan.WhatIf.Evaluate = h.opts.Evaluate
	}
	res, err := plan.Run(ctx)
	if err != nil {
		return fail(err)
	}
	return result(res.WhatIf, res.Warnings)
}

func (h *handlers) tune(ctx context.Context, _ *mcp.CallToolRequest, args map[string]any) (*mcp.CallToolResult, json.RawMessage, error) {
	in, set, conn := action.DefaultTuneInput(), action.SettingsInput{}, connArgs{}
	in.Recorded = h.recorded()
	if err := decode(args, &conn, tuneArgs(&in, &set)); err != nil {
		return fail(err)
	}
	settings, err := set.Overrides()
	if err != nil {
		return fail(err)
	}
	c := h.newCall(conn, true)
	cfg, err := in.Config(c.source, conn.Name, settings)
	if err != nil {
		return fail(err)
	}
	res, err := action.Tune(ctx, *cfg)
	if err != nil {
		return fail(err)
	}
	return result(res.Tune, res.Warnings)
}

func (h *handlers) tuneMany(ctx context.Context, _ *mcp.CallToolRequest, args map[string]any) (*mcp.CallToolResult, json.RawMessage, error) {
	in, set, conn := action.DefaultTuneInput(), action.SettingsInput{}, connArgs{}
	in.Recorded = h.recorded()
	if err := decode(args, &conn, tuneManyArgs(&in, &set)); err != nil {
		return fail(err)
	}
	settings, err := set.Overrides()
	if err != nil {
		return fail(err)
	}
	c := h.newCall(conn, true)
	cfg, err := in.Config(c.source, "", settings)
	if err != nil {
		return fail(err)
	}
	many, err := in.ManyConfig(cfg)
	if err != nil {
		return fail(err)
	}
	doc, err := action.TuneMany(ctx, *many)
	if err != nil {
		return fail(err)
	}
	var warnings []string
	for _, it := range doc.Items {
		for _, w := range it.Warnings {
			warnings = append(warnings, it.HPA.Namespace+"/"+it.HPA.Name+": "+w)
		}
	}
	return result(doc, warnings)
}

func (h *handlers) migratePlan(ctx context.Context, _ *mcp.CallToolRequest, args map[string]any) (*mcp.CallToolResult, json.RawMessage, error) {
	return h.migrate(ctx, args, nil)
}

func (h *handlers) migrateApply(ctx context.Context, _ *mcp.CallToolRequest, args map[string]any) (*mcp.CallToolResult, json.RawMessage, error) {
	return h.migrate(ctx, args, migrateApplyArgs)
}

// migrate plans the hand-over and carries it out when bind binds the
// apply tool's arguments, as migrate --apply does. A failed verification
// is a tool error that still carries the report.
func (h *handlers) migrate(ctx context.Context, args map[string]any, bind func(*action.MigrateInput) [][]options.Bound) (*mcp.CallToolResult, json.RawMessage, error) {
	var in action.MigrateInput
	var conn connArgs
	var groups [][]options.Bound
	if bind != nil {
		in.Apply, groups = true, bind(&in)
	}
	if err := decode(args, &conn, groups); err != nil {
		return fail(err)
	}
	in.Target, in.Namespace = conn.Name, conn.Namespace
	cfg, err := in.Config()
	if err != nil {
		return fail(err)
	}
	c := h.newCall(conn, true)
	c.clients.Hint = action.MigrateHint
	cfg.Clients = c.clients
	res, err := action.Migrate(ctx, cfg)
	if err != nil {
		return fail(err)
	}
	out, doc, err := result(res.Report, res.Warnings)
	if err != nil || res.Failed == nil {
		return out, doc, err
	}
	out.IsError = true
	out.Content = append([]mcp.Content{&mcp.TextContent{Text: action.ErrorLine(res.Failed)}}, out.Content...)
	return out, doc, nil
}

// result is a tool's answer: the document as structuredContent and, as
// text, its JSON, then the warnings ("Warning: ...", as the command line
// prints them).
func result(doc any, warnings []string) (*mcp.CallToolResult, json.RawMessage, error) {
	b, err := render.Marshal(render.FormatJSON, doc)
	if err != nil {
		return fail(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, b); err != nil {
		return fail(err)
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: compact.String()}}}
	for i, w := range warnings {
		if i == maxWarnings {
			res.Content = append(res.Content, &mcp.TextContent{Text: fmt.Sprintf("Warning: and %d more warnings", len(warnings)-i)})
			break
		}
		res.Content = append(res.Content, &mcp.TextContent{Text: "Warning: " + action.OneLine(w)})
	}
	return res, compact.Bytes(), nil
}

// fail is a tool error: the line the command line prints.
func fail(err error) (*mcp.CallToolResult, json.RawMessage, error) {
	return nil, nil, errors.New(action.ErrorLine(err))
}
