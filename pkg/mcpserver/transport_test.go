// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubefake "k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	k8stesting "k8s.io/client-go/testing"
	metricsfake "k8s.io/metrics/pkg/client/clientset/versioned/fake"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/mcpserver"
)

// stdio is a server run on pipes, as `kubectl hpa mcp` runs on stdin and
// stdout, with a client that writes raw lines and reads the answers.
type stdio struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startStdio(t *testing.T, o mcpserver.Options) *stdio {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdio{t: t, in: inW, out: bufio.NewReaderSize(outR, 1<<16), done: make(chan error, 1)}
	go func() {
		err := mcpserver.Run(context.Background(), o, inR, outW)
		_ = outW.Close()
		s.done <- err
	}()
	s.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if a := s.answer(); string(a.ID) != `"init"` || a.Error != nil {
		t.Fatalf("initialize: %+v", a)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *stdio) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("write: %v", err)
	}
}

// reply is one JSON-RPC answer.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// answer reads the next answer.
func (s *stdio) answer() reply {
	s.t.Helper()
	line, err := s.out.ReadBytes('\n')
	if err != nil {
		s.t.Fatalf("read an answer: %v", err)
	}
	var r reply
	if err := json.Unmarshal(line, &r); err != nil {
		s.t.Fatalf("answer %q: %v", line, err)
	}
	return r
}

// stop ends the input and waits for the server.
func (s *stdio) stop() {
	s.t.Helper()
	_ = s.in.Close()
	_, _ = io.Copy(io.Discard, s.out)
	select {
	case err := <-s.done:
		if err != nil {
			s.t.Errorf("the server ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		s.t.Fatal("the server did not end after its input")
	}
}

func explainCall(id, name string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"hpa_explain","arguments":{"name":%q,"namespace":"shop","controller-version":"1.37"}}}`, id, name)
}

// A line that is no JSON-RPC message gets a protocol error, and the next
// call is served: JSON-RPC's parse error (-32700, id null) for what is not
// JSON, invalid request (-32600) for JSON that is no message, to its id
// when it has one.
func TestMalformedLinesAreAnsweredAndTheServerGoesOn(t *testing.T) {
	s := startStdio(t, options(cluster(1), false))
	s.send(explainCall("1", "web-0"))
	if a := s.answer(); string(a.ID) != "1" || a.Error != nil || !strings.Contains(string(a.Result), `"structuredContent"`) {
		t.Fatalf("first call: %+v", a)
	}
	for _, tc := range []struct {
		line, id string
		code     int
		msg      string
	}{
		{`{bad json`, "null", -32700, "parse error: invalid character 'b'"},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/call"`, "null", -32700, "parse error: unexpected end of JSON input"},
		{`{"jsonrpc":"2.0","id":5} trailing`, "null", -32700, "parse error: invalid character 't' after top-level value"},
		{"\x00\x01", "null", -32700, "parse error"},
		{`"just a string"`, "null", -32600, "invalid request"},
		{`{"id":6,"method":"tools/list"}`, "6", -32600, `invalid request: invalid message version tag ""`},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`, "null", -32600, "invalid request"},
		{`[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]`, "null", -32600, "invalid request: JSON-RPC batches are not served"},
		{`[]`, "null", -32600, "invalid request: JSON-RPC batches are not served"},
	} {
		s.send(tc.line)
		a := s.answer()
		if string(a.ID) != tc.id || a.Error == nil || a.Error.Code != tc.code || !strings.HasPrefix(a.Error.Message, tc.msg) {
			t.Errorf("%q: answer id %s, error %+v; want id %s, code %d, %q...", tc.line, a.ID, a.Error, tc.id, tc.code, tc.msg)
		}
	}
	s.send("")
	s.send("   ")
	s.send(explainCall("2", "web-0"))
	if a := s.answer(); string(a.ID) != "2" || a.Error != nil || !strings.Contains(string(a.Result), `"structuredContent"`) {
		t.Fatalf("the call after the bad lines: %+v", a)
	}
	s.stop()
}

// hugeLine is a reader of a tools/call line of n bytes (a name argument of
// n bytes, the id wherever the test puts it), made as it is read.
type hugeLine struct {
	head, tail string
	n          int
	off        int
}

func (h *hugeLine) Read(p []byte) (int, error) {
	var n int
	switch body := len(h.head) + h.n; {
	case h.off < len(h.head):
		n = copy(p, h.head[h.off:])
	case h.off < body:
		n = min(len(p), body-h.off)
		for i := range n {
			p[i] = 'a'
		}
	case h.off < body+len(h.tail):
		n = copy(p, h.tail[h.off-body:])
	default:
		return 0, io.EOF
	}
	h.off += n
	return n, nil
}

// A message longer than MaxMessageBytes is refused with a protocol error to
// its id (wherever the id is in the line), the next call is served, and the
// server does not hold the line: what it allocates while reading a 64 MiB
// line (16 MiB under the race detector) is a few times the bound, and
// nothing once its buffer has grown.
func TestOversizedMessageIsRefusedWithinTheBound(t *testing.T) {
	s := startStdio(t, options(cluster(1), false))
	huge := 64 << 20 / min(raceScale, 4)
	for _, tc := range []struct {
		what, head, tail, id string
	}{
		{"id first", `{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{"name":"hpa_explain","arguments":{"name":"`, `"}}}` + "\n", `"big-1"`},
		{"id last", `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"hpa_explain","arguments":{"name":"`, `","id":"x\"},"}},"id":12}` + "\n", `12`},
		{"id only nested", `{"jsonrpc":"2.0","method":"tools/call","params":{"id":3,"arguments":{"name":"`, `"}}}` + "\n", `null`},
		{"not JSON", `<<<`, "\n", `null`},
	} {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := io.Copy(s.in, &hugeLine{head: tc.head, tail: tc.tail, n: huge}); err != nil {
			t.Fatal(err)
		}
		a := s.answer()
		runtime.ReadMemStats(&after)
		if string(a.ID) != tc.id || a.Error == nil || a.Error.Code != -32600 || !strings.Contains(a.Error.Message, fmt.Sprint(mcpserver.MaxMessageBytes)) {
			t.Errorf("%s: answer id %s, error %+v; want id %s and the bound", tc.what, a.ID, a.Error, tc.id)
		}
		allocated := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: a %d MiB line: %.1f MiB allocated while it was read", tc.what, huge>>20, float64(allocated)/(1<<20))
		// What a line up to the bound costs (its buffer, grown once by
		// doubling: about twice the bound) is the most; the line itself is
		// several times that.
		if allocated > 3*mcpserver.MaxMessageBytes {
			t.Errorf("%s: %d bytes allocated while reading a line of %d: the line is held", tc.what, allocated, huge)
		}
	}
	s.send(explainCall("2", "web-0"))
	if a := s.answer(); string(a.ID) != "2" || a.Error != nil {
		t.Fatalf("the call after the oversized lines: %+v", a)
	}
	// Just under the bound is served (a tool error: no such name).
	head := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"hpa_explain","arguments":{"namespace":"shop","name":"`
	tail := `"}}}`
	if _, err := io.Copy(s.in, &hugeLine{head: head, tail: tail + "\n", n: mcpserver.MaxMessageBytes - len(head) - len(tail)}); err != nil {
		t.Fatal(err)
	}
	if a := s.answer(); string(a.ID) != "3" || a.Error != nil || !strings.Contains(string(a.Result), "invalid HorizontalPodAutoscaler name") {
		t.Errorf("a message of exactly the bound: %+v", a)
	}
	s.stop()
}

// clearActions drops what the fake clients recorded: they keep every
// request, which is the fixture's memory, not the server's.
func clearActions(c *gather.Clients) {
	c.Kube.(*kubefake.Clientset).ClearActions()
	c.Metrics.(*metricsfake.Clientset).ClearActions()
	c.Scales.(*scalefake.FakeScaleClient).ClearActions()
}

// heapAfterGC is the live heap.
func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// settle waits until the goroutines are at most limit, and returns their
// number.
func settle(limit int) int {
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= limit || time.Now().After(deadline) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// manyCalls is the number of calls of TestManyCallsCancelsAndDisconnects
// (raceScale divides it under the race detector, which makes each call
// about ten times dearer).
const manyCalls = 10000

// 10,000 tool calls, 8 at a time, one in ten cancelled by the client while
// it runs, and 20 clients that disconnect in the middle of a call: the
// server answers every call it is not told to drop, and its goroutines and
// live heap come back to what they were. Seven calls in ten are refused by
// the name check (a tool error, the whole JSON-RPC and tool path but no
// replay), one in ten has arguments of the wrong type (the SDK's tool
// error), one in ten calls a tool that does not exist (a protocol error),
// and one in ten is a whole explain over the fake cluster, so that the
// test fits in make test's budget.
func TestManyCallsCancelsAndDisconnects(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 calls")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	c := cluster(1)
	// The calls of the disconnecting clients, at the end, explain an HPA
	// of namespace "gone", whose read the fake cluster holds until the
	// client has hung up: the server is mid-call when it does, whatever
	// the machine's load. The reactor is in place before any call, as the
	// fake reads its chain while calls the clients cancelled may still run.
	held, release := make(chan struct{}), make(chan struct{})
	c.Kube.(*kubefake.Clientset).PrependReactor("get", "horizontalpodautoscalers", func(a k8stesting.Action) (bool, k8sruntime.Object, error) {
		if a.GetNamespace() != "gone" {
			return false, nil, nil
		}
		held <- struct{}{}
		<-release
		return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: "autoscaling", Resource: "horizontalpodautoscalers"}, "web-0")
	})
	o := options(c, false)
	// connectStdio connects a client to a new server over pipes; hangUp
	// closes the client's ends, and wait waits until the server is over.
	connectStdio := func() (cs *mcp.ClientSession, hangUp, wait func()) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan struct{})
		go func() {
			defer close(done)
			if err := mcpserver.Run(context.Background(), o, inR, outW); err != nil {
				t.Errorf("server: %v", err)
			}
			_ = outW.Close()
		}()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "v0"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
		if err != nil {
			t.Fatal(err)
		}
		hangUp = func() {
			_ = inW.Close()
			_ = outR.Close()
		}
		return cs, hangUp, func() { <-done }
	}
	full := map[string]any{"name": "web-0", "namespace": "shop", "controller-version": "1.37"}
	refused := map[string]any{"name": "web 0", "namespace": "shop"}
	// Arguments of the wrong type, and a call of a tool that does not
	// exist (tool, below).
	wrongType := map[string]any{"name": 42, "namespace": []string{"shop"}}
	const unknownTool = "hpa_unknown"
	// call returns whether the call was answered with the document (true)
	// or with the tool error that its arguments call for (false).
	call := func(ctx context.Context, cs *mcp.ClientSession, args map[string]any) (bool, error) {
		name := mcpserver.ToolExplain
		if args == nil {
			name = unknownTool
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		switch {
		case err != nil && args == nil && strings.Contains(err.Error(), `unknown tool "hpa_unknown"`):
			return false, nil
		case err != nil:
			return false, err
		case !res.IsError:
			return true, nil
		case strings.Contains(text(res), "invalid HorizontalPodAutoscaler name"):
			return false, nil
		case args["name"] == 42 && strings.Contains(text(res), `validating /properties/`):
			return false, nil
		}
		return false, fmt.Errorf("tool error: %s", text(res))
	}

	cs, hangUpMain, waitMain := connectStdio()
	for i := range 100 {
		args := refused
		if i%10 == 1 {
			args = full
		}
		if _, err := call(context.Background(), cs, args); err != nil {
			t.Fatal(err)
		}
	}
	clearActions(c)
	heap0, goroutines0 := heapAfterGC(), runtime.NumGoroutine()

	calls := int64(manyCalls / raceScale)
	const workers = 8
	var next, documents, toolErrors, cancelled atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > calls {
					return
				}
				ctx, cancel := context.WithCancel(context.Background())
				if i%10 == 0 {
					time.AfterFunc(time.Duration(i%7)*100*time.Microsecond, cancel)
				}
				args := refused
				switch i % 10 {
				case 0, 1:
					args = full
				case 2:
					args = wrongType
				case 3:
					args = nil // the unknown tool
				}
				doc, err := call(ctx, cs, args)
				cancel()
				switch {
				case err == nil && doc:
					documents.Add(1)
				case err == nil:
					toolErrors.Add(1)
				case ctx.Err() != nil && i%10 == 0:
					cancelled.Add(1)
				default:
					t.Errorf("call %d: %v", i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)

	// Clients that go away in the middle of a call (see held, above).
	gone := map[string]any{"name": "web-0", "namespace": "gone", "controller-version": "1.37"}
	disconnects := 20 / raceScale
	for range disconnects {
		dcs, hangUp, wait := connectStdio()
		go func() { _, _ = call(context.Background(), dcs, gone) }()
		select {
		case <-held:
		case <-time.After(10 * time.Second):
			t.Fatal("the server never read the HPA of the call")
		}
		hangUp()
		release <- struct{}{}
		wait()
	}
	// The first session still serves.
	if doc, err := call(context.Background(), cs, full); err != nil || !doc {
		t.Fatalf("after the load: %v", err)
	}
	clearActions(c)
	goroutines1 := settle(goroutines0 + 5)
	heap1 := heapAfterGC()
	t.Logf("%d calls in %s (%d documents, %d name, type and unknown-tool errors, %d cancelled by the client while running), %d disconnects; goroutines %d -> %d; live heap %.2f -> %.2f MiB",
		calls, elapsed.Round(time.Millisecond), documents.Load(), toolErrors.Load(), cancelled.Load(), disconnects, goroutines0, goroutines1, float64(heap0)/(1<<20), float64(heap1)/(1<<20))
	if documents.Load()+toolErrors.Load()+cancelled.Load() != calls {
		t.Errorf("%d documents + %d tool errors + %d cancelled of %d calls", documents.Load(), toolErrors.Load(), cancelled.Load(), calls)
	}
	if goroutines1 > goroutines0+5 {
		t.Errorf("goroutines grew from %d to %d", goroutines0, goroutines1)
	}
	if heap1 > heap0+4<<20 {
		t.Errorf("the live heap grew from %d to %d bytes", heap0, heap1)
	}
	_ = cs.Close()
	hangUpMain()
	waitMain()
}
