// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kubectl-hpa/kubectl-hpa/internal/schematest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// TestMCP drives `kubectl-hpa mcp` with an independent client, the official
// TypeScript SDK's (test/e2e/mcpclient/client.mjs, installed by
// hack/mcpclient/install.sh, which `make test-e2e` runs first), which checks
// every structuredContent against the tool's output schema; the suite
// checks it again with the strict schemas. On the local control plane:
//   - the tools listed: the read-only ones, and hpa_migrate_apply (marked
//     destructive) only with --allow-writes;
//   - hpa_explain agrees with the real controller (the framework's own
//     comparison and the plugin's agreement check) and is the document
//     `explain -o json` prints for the same instant;
//   - hpa_whatif is the document `whatif -o json` prints;
//   - an unknown HPA is a tool error with the line the command prints;
//   - hpa_explain_many pages through a namespace;
//   - a cancelled call leaves the session working;
//   - hpa_backtest and hpa_explain's at over the cluster's Prometheus are the
//     documents of `whatif --since` and `explain --at`;
//   - the server only read (the audit log).
//
// The client's calls (requests and abbreviated answers) are written to
// _output/mcp-transcript.md and logged.
func TestMCP(t *testing.T) {
	t.Parallel()
	bin, err := pluginBinary()
	if err != nil {
		t.Fatal(err)
	}
	clientDir, err := installMCPClient()
	if err != nil {
		t.Fatal(err)
	}
	tr := &transcript{}
	defer tr.write(t, filepath.Join(env.repoRoot, "_output", "mcp-transcript.md"))

	began := time.Now()
	m := startMCP(t, tr, clientDir, bin, "mcp", "--kubeconfig", env.kubeconfig)
	defer m.close()

	// The tools: read-only, each with the output schema of its document.
	tools := m.listTools()
	wantTools := map[string]schema.Kind{
		"hpa_explain": schema.Explanation, "hpa_explain_many": schema.Summaries, "hpa_whatif": schema.WhatIf,
		"hpa_backtest": schema.WhatIf, "hpa_migrate_plan": schema.Migrate, "hpa_tune": schema.Tune, "hpa_tune_many": schema.Fleet,
	}
	readOnlyTools := len(wantTools)
	checkTools(t, tools, wantTools)
	w := startMCP(t, tr, clientDir, bin, "mcp", "--kubeconfig", env.kubeconfig, "--allow-writes")
	wantTools["hpa_migrate_apply"] = schema.Migrate
	checkTools(t, w.listTools(), wantTools)
	w.close()

	// One HPA at rest: two pods at 20% of their CPU request, target 30%.
	s := newScenario(t, "mcp")
	s.labelNamespace("kubectl-hpa.io/state-metrics", "true")
	s.deploy("web", 2, map[string]string{annCPU: "100500u"})
	s.createHPA(hpaFor("web", 1, 10, noWindows(), cpuUtilization(30)))
	created := time.Now()
	s.settle("web", settleOptions{historyHorizon: defaultPolicyPeriod}, desired(2), samplesForAllPods(s))

	// hpa_explain agrees with the controller (explainAgreesWith re-runs it
	// when the controller wrote meanwhile), and is explain's document.
	d := s.explainAgreesWith("web", m.explainRunner(), "")
	t.Logf("hpa_explain agrees with the controller: %d → %d, %s", d.CurrentReplicas, d.DesiredReplicas, d.Summary)
	s.sameAsCLI("hpa_explain", func() ([]byte, string) {
		doc := m.structured("hpa_explain", map[string]any{"name": "web", "namespace": s.ns, "sync-period": syncPeriod.String()}, schema.Explanation)
		return doc, nowOf(t, doc)
	}, func(now string) []string {
		return []string{"explain", "web", "-n", s.ns, "--kubeconfig", env.kubeconfig, "-o", "json", "--sync-period", syncPeriod.String(), "--now", now}
	})

	// hpa_whatif, its projection included, is whatif's document.
	s.sameAsCLI("hpa_whatif", func() ([]byte, string) {
		doc := m.structured("hpa_whatif", map[string]any{
			"name": "web", "namespace": s.ns, "cpu": "200m", "for": "2m", "sync-period": syncPeriod.String(),
		}, schema.WhatIf)
		var wi explain.WhatIf
		if err := json.Unmarshal(doc, &wi); err != nil {
			t.Fatal(err)
		}
		if wi.After == nil || !wi.After.Rescale || wi.Projection == nil {
			t.Fatalf("hpa_whatif --cpu=200m: no rescale or no projection:\n%.2000s", doc)
		}
		return doc, wi.Before.Now.UTC().Format(time.RFC3339Nano)
	}, func(now string) []string {
		return []string{"whatif", "web", "-n", s.ns, "--kubeconfig", env.kubeconfig, "-o", "json", "--cpu=200m", "--for", "2m", "--sync-period", syncPeriod.String(), "--now", now}
	})

	// An unknown HPA: a tool error, the line explain prints.
	res := m.call("hpa_explain", map[string]any{"name": "nope", "namespace": s.ns})
	cli := binary(bin)([]string{"explain", "nope", "-n", s.ns, "--kubeconfig", env.kubeconfig})
	line, _, _ := strings.Cut(string(cli.stderr), "\n")
	if !res.IsError || res.text() != line || cli.code != 1 {
		t.Errorf("hpa_explain of an unknown HPA: isError %v, text %q; explain exits %d with %q", res.IsError, res.text(), cli.code, line)
	}

	// hpa_explain_many: three HPAs (their Deployments missing), two pages.
	many := newScenario(t, "mcp-many")
	for _, n := range []string{"ghost-a", "ghost-b", "ghost-c"} {
		many.createHPA(hpaFor(n, 1, 3, nil, cpuUtilization(50)))
	}
	var names []string
	cursor := ""
	for page := 1; ; page++ {
		args := map[string]any{"namespace": many.ns, "limit": 2}
		if cursor != "" {
			args["cursor"] = cursor
		}
		var list explain.ExplanationSummaryList
		if err := json.Unmarshal(m.structured("hpa_explain_many", args, schema.Summaries), &list); err != nil {
			t.Fatal(err)
		}
		for _, it := range list.Items {
			names = append(names, it.HPA.Name)
			if it.Outcome != explain.OutcomeFailedGetScale {
				t.Errorf("%s: outcome %s, want %s (no Deployment)", it.HPA.Name, it.Outcome, explain.OutcomeFailedGetScale)
			}
		}
		if list.Total != 3 || (page == 1) != (list.NextCursor != "") || page > 2 {
			t.Fatalf("page %d: total %d, %d items, next cursor %q: want 3 HPAs on two pages", page, list.Total, len(list.Items), list.NextCursor)
		}
		if cursor = list.NextCursor; cursor == "" {
			break
		}
	}
	if strings.Join(names, ",") != "ghost-a,ghost-b,ghost-c" {
		t.Errorf("hpa_explain_many's pages gave %v", names)
	}

	// A call cancelled by the client; the session goes on.
	if a := m.do(map[string]any{"op": "cancelTool", "name": "hpa_explain_many", "arguments": map[string]any{"all-namespaces": true}, "afterMs": 20}); a.OK {
		t.Log("the cancelled hpa_explain_many finished before its cancellation")
	}
	if len(m.listTools()) != readOnlyTools {
		t.Error("the session does not answer after a cancelled call")
	}

	// Over the load Prometheus recorded: hpa_backtest and hpa_explain's at.
	if _, err := promQuery("up"); err != nil {
		t.Errorf("no Prometheus at %s (%v): hpa_backtest not tested", prometheusURL(), err)
	} else {
		since := created.Add(30 * time.Second)
		if wait := time.Until(since.Add(60*time.Second + 20*time.Second)); wait > 0 {
			time.Sleep(wait)
		}
		until := time.Now().Add(-20 * time.Second)
		rec := map[string]any{"prometheus": prometheusURL(), "sync-period": syncPeriod.String(), "metrics-resolution": "10s"}
		recFlags := []string{"--prometheus", prometheusURL(), "--sync-period", syncPeriod.String(), "--metrics-resolution", "10s"}
		stamp := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
		s.sameAsCLI("hpa_backtest", func() ([]byte, string) {
			doc := m.structured("hpa_backtest", merge(rec, map[string]any{
				"name": "web", "namespace": s.ns, "since": stamp(since), "until": stamp(until), "target": []string{"cpu=15%"},
			}), schema.WhatIf)
			var wi explain.WhatIf
			if err := json.Unmarshal(doc, &wi); err != nil {
				t.Fatal(err)
			}
			if wi.Backtest == nil {
				t.Fatalf("hpa_backtest: no backtest in the document:\n%.2000s", doc)
			}
			return doc, ""
		}, func(string) []string {
			return append([]string{"whatif", "web", "-n", s.ns, "--kubeconfig", env.kubeconfig, "-o", "json", "--since", stamp(since), "--until", stamp(until), "--target", "cpu=15%"}, recFlags...)
		})
		s.sameAsCLI("hpa_explain at", func() ([]byte, string) {
			return m.structured("hpa_explain", merge(rec, map[string]any{"name": "web", "namespace": s.ns, "at": stamp(until)}), schema.Explanation), ""
		}, func(string) []string {
			return append([]string{"explain", "web", "-n", s.ns, "--kubeconfig", env.kubeconfig, "-o", "json", "--at", stamp(until)}, recFlags...)
		})
	}
	m.close()

	// The server only read: every request of the plugin's binary (its user
	// agent, kubectl-hpa/...) during the session was a get or a list.
	ended := time.Now()
	evs, err := waitAudit(`"userAgent":"kubectl-hpa/`, 1, func(e *auditEvent) bool {
		return strings.HasPrefix(e.UserAgent, "kubectl-hpa/") && inWindow(e, began, ended) && e.inOwnNamespaces("mcp-")
	})
	switch {
	case err != nil:
		t.Errorf("audit log: %v", err)
	case len(completed(evs)) == 0:
		t.Error("the audit log shows no request of the plugin's binary during the session")
	case len(nonReads(completed(evs))) > 0:
		t.Errorf("requests other than get and list during the session: %v", nonReads(completed(evs)))
	default:
		t.Logf("audit: %d requests of the plugin's binary during the session, all get or list", len(completed(evs)))
	}
	t.Logf("TestMCP took %v", time.Since(began).Round(time.Second))
}

// installMCPClient runs hack/mcpclient/install.sh (a path printed at once
// when installed) and returns the directory of the SDK.
func installMCPClient() (string, error) {
	c := exec.Command("hack/mcpclient/install.sh")
	c.Dir = env.repoRoot
	var errb bytes.Buffer
	c.Stderr = &errb
	out, err := c.Output()
	if err != nil {
		return "", fmt.Errorf("hack/mcpclient/install.sh: %w\n%s", err, errb.Bytes())
	}
	return strings.TrimSpace(string(out)), nil
}

// mcpSession is the client script and the server it started.
type mcpSession struct {
	t      *testing.T
	tr     *transcript
	label  string
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan []byte
	stderr *lockedBuffer
	closed bool
}

// mcpAnswer is the client script's answer to one command.
type mcpAnswer struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result"`
	Error  string          `json:"error"`
}

// startMCP starts the client script, which starts the server (the plugin
// binary with args). The server gets the few variables the SDK passes
// (PATH, HOME, ...) and KUBECONFIG.
func startMCP(t *testing.T, tr *transcript, clientDir, bin string, args ...string) *mcpSession {
	t.Helper()
	c := exec.Command("node", filepath.Join(env.repoRoot, "test", "e2e", "mcpclient", "client.mjs"))
	c.Env = append(os.Environ(), "MCP_CLIENT_DIR="+clientDir)
	m := &mcpSession{t: t, tr: tr, cmd: c, lines: make(chan []byte, 1), stderr: &lockedBuffer{}}
	m.label = "kubectl-hpa " + strings.Join(args, " ")
	c.Stderr = m.stderr
	var err error
	if m.in, err = c.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatalf("node: %v (the MCP client needs node on PATH)", err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			m.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(m.lines)
	}()
	a := m.do(map[string]any{"op": "start", "command": bin, "args": args, "env": map[string]string{"KUBECONFIG": env.kubeconfig}})
	if !a.OK {
		t.Fatalf("start %s: %s\nstderr:\n%s", m.label, a.Error, m.stderr)
	}
	return m
}

// do sends one command and waits for its answer, recording both.
func (m *mcpSession) do(cmd map[string]any) mcpAnswer {
	m.t.Helper()
	b, _ := json.Marshal(cmd)
	m.tr.request(m.label, cmd)
	began := time.Now()
	if _, err := m.in.Write(append(b, '\n')); err != nil {
		m.t.Fatalf("write to the MCP client: %v\nstderr:\n%s", err, m.stderr)
	}
	select {
	case line, ok := <-m.lines:
		if !ok {
			m.t.Fatalf("the MCP client exited\nstderr:\n%s", m.stderr)
		}
		var a mcpAnswer
		if err := json.Unmarshal(line, &a); err != nil {
			m.t.Fatalf("the MCP client answered %q: %v", line, err)
		}
		m.tr.answer(cmd, a, time.Since(began))
		return a
	case <-time.After(6 * time.Minute):
		m.t.Fatalf("no answer from the MCP client to %s\nstderr:\n%s", b, m.stderr)
	}
	return mcpAnswer{}
}

// mcpTool is a tool as tools/list gives it.
type mcpTool struct {
	Name         string          `json:"name"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  struct {
		ReadOnlyHint    bool  `json:"readOnlyHint"`
		IdempotentHint  bool  `json:"idempotentHint"`
		DestructiveHint *bool `json:"destructiveHint"`
	} `json:"annotations"`
}

func (m *mcpSession) listTools() []mcpTool {
	m.t.Helper()
	a := m.do(map[string]any{"op": "listTools"})
	var r struct {
		Tools []mcpTool `json:"tools"`
	}
	if !a.OK || json.Unmarshal(a.Result, &r) != nil {
		m.t.Fatalf("tools/list: %s %s", a.Error, a.Result)
	}
	return r.Tools
}

// checkTools checks the tools listed against the tools and kinds wanted.
func checkTools(t *testing.T, tools []mcpTool, want map[string]schema.Kind) {
	t.Helper()
	got := map[string]bool{}
	for _, tool := range tools {
		got[tool.Name] = true
		kind, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		published, _ := schema.JSON(kind)
		var a, b any
		_ = json.Unmarshal(tool.OutputSchema, &a)
		_ = json.Unmarshal(published, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: its output schema is not `kubectl hpa schema %s`", tool.Name, kind)
		}
		an := tool.Annotations
		if tool.Name == "hpa_migrate_apply" {
			if an.ReadOnlyHint || an.DestructiveHint == nil || !*an.DestructiveHint {
				t.Errorf("%s: annotations %+v, want destructive", tool.Name, an)
			}
		} else if !an.ReadOnlyHint || !an.IdempotentHint {
			t.Errorf("%s: annotations %+v, want read-only and idempotent", tool.Name, an)
		}
	}
	for name := range want {
		if !got[name] {
			t.Errorf("tool %s is not listed", name)
		}
	}
}

// toolResult is a tools/call result.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
	// SDKOutputValidator says that the SDK's client held a validator of
	// the tool's output schema, so that callTool checked structuredContent
	// (client.mjs).
	SDKOutputValidator bool `json:"sdkOutputValidator"`
}

// text is the first text block.
func (r *toolResult) text() string {
	if len(r.Content) == 0 {
		return ""
	}
	return r.Content[0].Text
}

// call calls a tool; a protocol error (the SDK refusing structuredContent
// that does not match the output schema, say) fails the test.
func (m *mcpSession) call(name string, args map[string]any) *toolResult {
	m.t.Helper()
	a := m.do(map[string]any{"op": "callTool", "name": name, "arguments": args})
	if !a.OK {
		m.t.Fatalf("%s: %s\nstderr:\n%s", name, a.Error, m.stderr)
	}
	var r toolResult
	if err := json.Unmarshal(a.Result, &r); err != nil {
		m.t.Fatalf("%s: %v", name, err)
	}
	return &r
}

// structured calls a tool that must succeed and returns its
// structuredContent, checked with the strict schema of kind.
func (m *mcpSession) structured(name string, args map[string]any, kind schema.Kind) []byte {
	m.t.Helper()
	r := m.call(name, args)
	if r.IsError {
		m.t.Fatalf("%s: tool error %q", name, r.text())
	}
	if !r.SDKOutputValidator {
		m.t.Errorf("%s: the SDK's client had no validator of the output schema: structuredContent was not checked by it", name)
	}
	if err := schematest.Validate(kind, r.StructuredContent); err != nil {
		m.t.Errorf("%s: structuredContent does not match the strict schema %s: %v", name, kind, err)
	}
	return r.StructuredContent
}

// explainRunner runs explain's arguments (explainArgs: NAME, -n, and the
// sync period) as an hpa_explain call, for explainAgreesWith.
func (m *mcpSession) explainRunner() runner {
	return func(args []string) runResult {
		flag := func(name string) string {
			for i, a := range args {
				if a == name && i+1 < len(args) {
					return args[i+1]
				}
			}
			return ""
		}
		r := runResult{start: time.Now()}
		res := m.call("hpa_explain", map[string]any{"name": args[1], "namespace": flag("-n"), "sync-period": flag("--sync-period")})
		r.end = time.Now()
		if res.IsError {
			r.code, r.stderr = 1, []byte(res.text())
			return r
		}
		r.stdout = res.StructuredContent
		return r
	}
}

func (m *mcpSession) close() {
	if m.closed {
		return
	}
	m.closed = true
	m.do(map[string]any{"op": "close"})
	_ = m.in.Close()
	done := make(chan error, 1)
	go func() { done <- m.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			m.t.Errorf("the MCP client exited with %v\nstderr:\n%s", err, m.stderr)
		}
	case <-time.After(10 * time.Second):
		_ = m.cmd.Process.Kill()
		m.t.Errorf("the MCP client did not exit\nstderr:\n%s", m.stderr)
	}
}

// sameAsCLI checks that a tool's document equals what the command prints:
// mcp returns the document and the instant of its replay, cliArgs the
// command's arguments for that instant. A run the controller's status
// write may have separated from the other is repeated (three times at
// most).
func (s *scenario) sameAsCLI(what string, mcp func() ([]byte, string), cliArgs func(now string) []string) {
	s.t.Helper()
	bin, err := pluginBinary()
	if err != nil {
		s.t.Fatal(err)
	}
	var diff string
	for attempt := 1; attempt <= 3; attempt++ {
		doc, now := mcp()
		r := binary(bin)(cliArgs(now))
		if r.code != 0 {
			s.t.Fatalf("%s: the command exited %d:\n%s", what, r.code, r.stderr)
		}
		var a, b any
		if err := json.Unmarshal(doc, &a); err != nil {
			s.t.Fatal(err)
		}
		if err := json.Unmarshal(r.stdout, &b); err != nil {
			s.t.Fatal(err)
		}
		liveScrapes(a)
		liveScrapes(b)
		if diff = cmp.Diff(b, a); diff == "" {
			s.t.Logf("%s: the same document as kubectl hpa %s (%d bytes)", what, strings.Join(cliArgs(now)[:2], " "), len(r.stdout))
			return
		}
		s.t.Logf("%s, attempt %d: the tool's document differs from the command's (-command +tool):\n%s", what, attempt, diff)
	}
	s.t.Errorf("%s: the tool's document differs from the command's", what)
}

// liveScrapes takes out of a document the figure each run measures live
// on its own: the phase of metrics-server's scrapes (backtest.clock.scrapes,
// read by polling a pod's PodMetrics), which moves by a tenth of a second
// between two runs on a loaded machine (a cold make test, 2026-12-02: 3.36 s
// and 3.25 s past the multiples of 10 s, 10 s apart). What the replay
// worked out of it stays compared: a phase that moved enough to change a
// sample still fails the comparison.
func liveScrapes(doc any) {
	m, _ := doc.(map[string]any)
	bt, _ := m["backtest"].(map[string]any)
	clock, _ := bt["clock"].(map[string]any)
	if sc, ok := clock["scrapes"].(map[string]any); ok && sc["source"] == "read" {
		delete(sc, "value")
		delete(sc, "detail")
	}
}

// nowOf reads the instant of an Explanation.
func nowOf(t *testing.T, doc []byte) string {
	t.Helper()
	var d explain.Decision
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	return d.Now.UTC().Format(time.RFC3339Nano)
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// lockedBuffer is a buffer written by a process and read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// transcript records the client's calls: each request, and its answer
// abbreviated.
type transcript struct {
	mu    sync.Mutex
	lines []string
}

func (tr *transcript) add(format string, args ...any) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lines = append(tr.lines, fmt.Sprintf(format, args...))
}

func (tr *transcript) request(label string, cmd map[string]any) {
	switch cmd["op"] {
	case "start":
		tr.add("\n## %s (started by the client)\n", label)
	case "callTool", "cancelTool":
		args, _ := json.Marshal(cmd["arguments"])
		extra := ""
		if cmd["op"] == "cancelTool" {
			extra = fmt.Sprintf(" (cancelled by the client after %v ms)", cmd["afterMs"])
		}
		tr.add("→ tools/call %s %s%s", cmd["name"], args, extra)
	case "listTools":
		tr.add("→ tools/list")
	case "close":
		tr.add("→ close")
	}
}

func (tr *transcript) answer(cmd map[string]any, a mcpAnswer, took time.Duration) {
	d := took.Round(time.Millisecond)
	if !a.OK {
		tr.add("← error (%v): %s", d, a.Error)
		return
	}
	switch cmd["op"] {
	case "start":
		tr.add("← initialize (%v): %s", d, shorten(string(a.Result), 160))
	case "listTools":
		var r struct {
			Tools []mcpTool `json:"tools"`
		}
		_ = json.Unmarshal(a.Result, &r)
		var parts []string
		for _, t := range r.Tools {
			an := "read-only"
			if !t.Annotations.ReadOnlyHint {
				an = "writes"
				if t.Annotations.DestructiveHint != nil && *t.Annotations.DestructiveHint {
					an += ", destructive"
				}
			}
			var out struct {
				ID string `json:"$id"`
			}
			_ = json.Unmarshal(t.OutputSchema, &out)
			parts = append(parts, fmt.Sprintf("%s (%s; output %s)", t.Name, an, strings.TrimPrefix(out.ID, schema.BaseURL)))
		}
		tr.add("← %d tools (%v): %s", len(r.Tools), d, strings.Join(parts, ", "))
	case "callTool", "cancelTool":
		var r toolResult
		_ = json.Unmarshal(a.Result, &r)
		if r.IsError {
			tr.add("← isError (%v): %s", d, r.text())
			return
		}
		var more []string
		for _, c := range r.Content[1:] {
			more = append(more, c.Text)
		}
		checked := "not checked by the SDK"
		if r.SDKOutputValidator {
			checked = "the SDK checked it against the output schema"
		}
		tr.add("← structuredContent (%v, %d bytes, %s): %s%s", d, len(r.StructuredContent), checked, shorten(string(r.StructuredContent), 420), warningsNote(more))
	default:
		tr.add("← ok (%v)", d)
	}
}

func warningsNote(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	return "\n   + " + strings.Join(ws, "\n   + ")
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// write saves the transcript and logs it.
func (tr *transcript) write(t *testing.T, path string) {
	t.Helper()
	tr.mu.Lock()
	text := "# kubectl hpa mcp, driven by @modelcontextprotocol/sdk's Client (test/e2e/mcp_test.go)\n" + strings.Join(tr.lines, "\n") + "\n"
	tr.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
		if err := os.WriteFile(path, []byte(text), 0o644); err == nil {
			t.Logf("transcript of the client's calls: %s", path)
		}
	}
	t.Logf("transcript:\n%s", text)
}
