// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package mcpserver serves kubectl-hpa as a Model Context Protocol server
// (`kubectl hpa mcp`, on stdin and stdout): another face over pkg/action,
// as the cobra commands of pkg/cmd are. Its tool handlers turn the tool's
// arguments (named as the commands' flags) into the same action configs,
// call the same actions and return the same documents, encoded by
// render.Marshal, as structuredContent; each tool's output schema is the
// document's schema from pkg/schema. An error is a tool error whose text is
// the line the command line prints (action.ErrorLine).
//
// The tools that only read (GET and LIST requests) are always served;
// hpa_migrate_apply, which writes, only with Options.AllowWrites. docs/mcp.md
// describes the tools and how clients start the server.
package mcpserver

import (
	"context"
	"errors"
	"io"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/version"
)

// Options configure the server.
type Options struct {
	// ConfigFlags are kubectl's connection flags the server was started
	// with (--kubeconfig, --context, -n, ...). Every call starts from them,
	// with the kubeconfig read afresh, as kubectl reads it on each run; a
	// call's context and namespace arguments override theirs.
	ConfigFlags *genericclioptions.ConfigFlags
	// AllowWrites serves the tools that change the cluster
	// (hpa_migrate_apply).
	AllowWrites bool
	// Prometheus are the defaults of the recorded-load flags (the
	// server's --prometheus...); a call's prometheus argument names
	// another endpoint.
	Prometheus prom.Config

	// NewFactory builds a call's clients from its connection flags; nil
	// means action.NewFactory (tests inject fakes).
	NewFactory func(*genericclioptions.ConfigFlags) *action.Factory
	// Now is the clock of the replays; nil means time.Now.
	Now func() time.Time
	// Evaluate replays a sync; nil means engine.Evaluate (tests inject).
	Evaluate action.EvaluateFunc
}

// instructions tell a client what the server is for.
const instructions = `kubectl-hpa replays the Kubernetes HorizontalPodAutoscaler controller of the cluster's version, step by step, to explain why an HPA has its replica count, and what it would do under other conditions.
Start with hpa_explain_many (one summary per HPA of a namespace, or all namespaces), then hpa_explain for one HPA's whole decision. hpa_whatif replays an HPA with changed usage, targets, bounds or behavior, and projects later syncs (for); hpa_backtest replays a past period over the load Prometheus recorded; hpa_tune searches an HPA's settings over that load for the cheapest that would not have run hotter. hpa_migrate_plan shows how to hand a workload's replica count over to its HPA.
Arguments are named as kubectl's and the plugin's flags: name, namespace, context, cpu, target, min, max, for, sync-period...`

// NewServer returns the server with its tools.
func NewServer(o Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "kubectl-hpa", Title: "kubectl hpa", Version: version.Version},
		&mcp.ServerOptions{Instructions: instructions, Capabilities: &mcp.ServerCapabilities{}})
	h := &handlers{opts: o}
	addTools(s, h)
	return s
}

// Run serves one client on in and out (newline-delimited JSON-RPC) until
// it disconnects or ctx is done. A line that is no JSON-RPC message, or
// longer than MaxMessageBytes, is answered with a protocol error, and the
// next one is served.
func Run(ctx context.Context, o Options, in io.Reader, out io.Writer) error {
	t := &lineTransport{in: in, out: out, max: MaxMessageBytes}
	err := NewServer(o).Run(ctx, t)
	if err == nil || disconnected(err) || ctx.Err() != nil {
		return nil
	}
	return err
}

// disconnected reports whether err says that the client went away: its
// end of the input, or of the output (an answer written after it left).
func disconnected(err error) bool {
	return errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE)
}
