// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// The independent MCP client of the end-to-end suite (test/e2e/mcp_test.go):
// the official TypeScript SDK's Client (@modelcontextprotocol/sdk, pinned in
// package-lock.json next to this file) over its StdioClientTransport, which
// starts `kubectl-hpa mcp`. The SDK checks every tool result's
// structuredContent against the tool's output schema.
//
// The Go test drives it: one JSON command per line on stdin, one JSON answer
// per line on stdout ({"ok": true, "result": ...} or {"ok": false, "error":
// "..."}); a tool result carries sdkOutputValidator besides:
//
//   {"op": "start", "command": PATH, "args": [...], "env": {...}}
//   {"op": "listTools"}
//   {"op": "callTool", "name": "hpa_explain", "arguments": {...}}
//   {"op": "cancelTool", "name": ..., "arguments": {...}, "afterMs": 500}
//   {"op": "close"}
//
// MCP_CLIENT_DIR is where hack/mcpclient/install.sh installed the SDK (the
// directory of its package.json and node_modules).

import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';

const dir = process.env.MCP_CLIENT_DIR;
if (!dir) {
  process.stderr.write('MCP_CLIENT_DIR is not set: run hack/mcpclient/install.sh\n');
  process.exit(2);
}
const require = createRequire(path.join(dir, 'package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const sdkVersion = require('@modelcontextprotocol/sdk/package.json').version;

// A long timeout: a backtest reads a period of Prometheus.
const callOptions = { timeout: 300000 };

let client;

// withValidation adds to a tool result whether the SDK held a validator of
// the tool's output schema (compiled from tools/list) when the result came
// in: callTool then checked structuredContent with it, and would have
// thrown on a mismatch.
function withValidation(name, result) {
  const armed = typeof client.getToolOutputValidator === 'function' && Boolean(client.getToolOutputValidator(name));
  return { ...result, sdkOutputValidator: armed };
}

async function run(cmd) {
  switch (cmd.op) {
    case 'start': {
      const transport = new StdioClientTransport({
        command: cmd.command, args: cmd.args ?? [], env: cmd.env ?? {}, stderr: 'inherit',
      });
      client = new Client({ name: 'kubectl-hpa-e2e', version: sdkVersion });
      await client.connect(transport);
      return { server: client.getServerVersion(), instructions: client.getInstructions(), sdk: sdkVersion };
    }
    case 'listTools':
      return await client.listTools();
    case 'callTool':
      return withValidation(cmd.name, await client.callTool({ name: cmd.name, arguments: cmd.arguments ?? {} }, undefined, callOptions));
    case 'cancelTool': {
      const ac = new AbortController();
      setTimeout(() => ac.abort('cancelled by the test'), cmd.afterMs ?? 500);
      return withValidation(cmd.name, await client.callTool({ name: cmd.name, arguments: cmd.arguments ?? {} }, undefined, { ...callOptions, signal: ac.signal }));
    }
    case 'close':
      await client.close();
      return {};
    default:
      throw new Error(`unknown op ${cmd.op}`);
  }
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line.trim() === '') continue;
  let answer;
  try {
    answer = { ok: true, result: await run(JSON.parse(line)) };
  } catch (e) {
    answer = { ok: false, error: String(e?.message ?? e) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
