// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/internal/textblock"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/mcpserver"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
)

// NewCmdMCP returns the mcp command: the Model Context Protocol server of
// pkg/mcpserver on stdin and stdout.
func NewCmdMCP(streams genericiooptions.IOStreams, cf *genericclioptions.ConfigFlags) *cobra.Command {
	o := mcpserver.Options{ConfigFlags: cf}
	c := &cobra.Command{
		Use:   "mcp [--allow-writes] [--context CONTEXT] [-n NAMESPACE]",
		Short: "Serve explain, whatif and migrate as Model Context Protocol tools, on stdin and stdout",
		Long: textblock.Dedent(`
			Mcp runs a Model Context Protocol server on stdin and stdout, for AI assistants and
			editors (Claude Desktop and Claude Code, VS Code, Cursor...): they start it and call
			its tools, which run the same code as the commands and return the same JSON
			documents, with their JSON Schemas (kubectl hpa schema) as output schemas.

			The tools: hpa_explain (explain NAME), hpa_explain_many (a page of one summary per
			HPA of a namespace or of all), hpa_whatif (whatif, with its projection),
			hpa_backtest (whatif --since over the load Prometheus recorded) and
			hpa_migrate_plan (migrate without --apply). They only read (GET and LIST). With
			--allow-writes the server also offers hpa_migrate_apply (migrate --apply), which
			writes, marked destructive.

			Each call reads the kubeconfig afresh, as kubectl does: --kubeconfig, --context and
			-n given here are the defaults, and a call's context and namespace arguments
			override them. The Prometheus flags are the defaults of hpa_backtest and of
			hpa_explain's at. Errors come back as tool errors, with the line the command
			prints. docs/mcp.md has the clients' configuration.`),
		Example: textblock.Dedent(`
			# What an MCP client runs (see docs/mcp.md for each client's configuration)
			kubectl hpa mcp

			# Another kubeconfig and context, and the hand-over tool too
			kubectl hpa mcp --kubeconfig ~/.kube/prod --context prod-eu --allow-writes

			# Check the server by hand: initialize, then list the tools
			printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"0"}}}' '{"jsonrpc":"2.0","method":"notifications/initialized"}' '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' | kubectl hpa mcp`),
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return mcpserver.Run(ctx, o, streams.In, streams.Out)
		},
	}
	fs := c.Flags()
	fs.BoolVar(&o.AllowWrites, "allow-writes", false, "Also offer the tools that change the cluster (hpa_migrate_apply, marked destructive)")
	addOptions(c, prom.Rows.Bind(&o.Prometheus))
	o.ConfigFlags = addConfigFlags(fs, cf)
	return c
}
