// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/mcpserver"
)

// Calls of a tool that does not exist, arguments of the wrong type, and
// argument values of most of a megabyte: a protocol error (-32602) for the
// first, a tool error of one short line for the others (a long value is
// not echoed), and the next call is served each time.
func TestBadCallsAreRefusedAndTheServerGoesOn(t *testing.T) {
	s := startStdio(t, options(cluster(1), false))
	big := strings.Repeat("x", 900<<10)
	call := func(id int, tool, args string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
	}
	for i, tc := range []struct {
		what, line string
		// code is the protocol error's; 0 for a tool error with want.
		code int
		want string
	}{
		{"an unknown tool", call(1, "hpa_nope", `{}`), -32602, ""},
		{"a number for a string", call(2, "hpa_explain", `{"name":42,"namespace":"shop"}`), 0, `validating /properties/name: type: 42 has type "integer", want "string"`},
		{"a list for a string", call(3, "hpa_explain", `{"name":"web-0","namespace":["shop"]}`), 0, `validating /properties/namespace`},
		{"a string for the arguments", call(4, "hpa_explain", `"web-0"`), 0, `unmarshaling arguments`},
		{"an argument no tool has", call(5, "hpa_explain", `{"name":"web-0","namespace":"shop","nope":1}`), 0, `unexpected additional properties ["nope"]`},
		{"a string for a number", call(6, "hpa_whatif", `{"name":"web-0","namespace":"shop","min":"2"}`), 0, `validating /properties/min`},
		{"a 900 KiB name", call(7, "hpa_explain", `{"name":"`+big+`","namespace":"shop"}`), 0, `error: invalid HorizontalPodAutoscaler name "xxxxxxxx`},
		{"a 900 KiB --cpu", call(8, "hpa_whatif", `{"name":"web-0","namespace":"shop","cpu":"`+big+`"}`), 0, `error: argument "cpu" is 921600 bytes long, more than the 64 KiB an argument may be`},
		{"a 900 KiB duration", call(9, "hpa_explain", `{"name":"web-0","namespace":"shop","sync-period":"`+big+`"}`), 0, `error: argument "sync-period" is 921600 bytes long`},
		{"a 900 KiB URL", call(10, "hpa_backtest", `{"name":"web-0","namespace":"shop","since":"1h","prometheus":"http://127.0.0.1:1/`+big+`"}`), 0, `error: argument "prometheus" is 921619 bytes long`},
		{"a 900 KiB item of a list", call(11, "hpa_whatif", `{"name":"web-0","namespace":"shop","metric":["rps=1","`+big+`"]}`), 0, `error: argument "metric" is 921600 bytes long`},
		{"a 900 KiB context", call(12, "hpa_explain", `{"name":"web-0","namespace":"shop","context":"`+big+`"}`), 0, `error: argument "context" is 921600 bytes long`},
	} {
		t.Run(tc.what, func(t *testing.T) {
			s.send(tc.line)
			a := s.answer()
			if string(a.ID) != fmt.Sprint(i+1) {
				t.Fatalf("answer to %s", a.ID)
			}
			if tc.code != 0 {
				if a.Error == nil || a.Error.Code != tc.code {
					t.Errorf("error %+v, want code %d", a.Error, tc.code)
				}
			} else {
				var res struct {
					Content []struct{ Text string } `json:"content"`
					IsError bool                    `json:"isError"`
				}
				if a.Error != nil || json.Unmarshal(a.Result, &res) != nil || !res.IsError || len(res.Content) != 1 {
					t.Fatalf("answer %+v %.300s, want a tool error", a.Error, a.Result)
				}
				msg := strings.TrimSuffix(res.Content[0].Text, "\n")
				if !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") || len(msg) > 1024 {
					t.Errorf("tool error of %d bytes %.300q, want one line of at most 1 KiB with %q", len(msg), msg, tc.want)
				}
			}
			// The next call is served.
			s.send(explainCall(`"next"`, "web-0"))
			if n := s.answer(); string(n.ID) != `"next"` || n.Error != nil || !strings.Contains(string(n.Result), `\"kind\":\"Explanation\"`) {
				t.Fatalf("the next call: %+v %.200s", n.Error, n.Result)
			}
		})
	}
	s.stop()
}

const apiHPA = `{"kind":"HorizontalPodAutoscaler","apiVersion":"autoscaling/v2","metadata":{"name":"web","namespace":"shop","resourceVersion":"1"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"maxReplicas":3}}`

// serveAPI serves a fake API server that knows the HPA shop/web (and
// answers 404 to every other read) on l.
func serveAPI(l net.Listener) *httptest.Server {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers/web" {
			_, _ = w.Write([]byte(apiHPA))
			return
		}
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`))
	}))
	_ = srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	return srv
}

// The cluster goes away between two calls, and comes back: the call
// between gets a tool error of one line at once (the connection is
// refused), and the server serves the calls after it.
func TestClusterGoesAwayBetweenCalls(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	api := serveAPI(l)
	o := options(nil, false)
	o.NewFactory = nil
	o.ConfigFlags = genericclioptions.NewConfigFlags(true)
	server := api.URL
	o.ConfigFlags.APIServer = &server
	cs := connect(t, o)
	args := map[string]any{"name": "web", "namespace": "shop", "controller-version": "1.37"}
	explain := func() (*mcp.CallToolResult, time.Duration) {
		t.Helper()
		start := time.Now()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mcpserver.ToolExplain, Arguments: args})
		if err != nil {
			t.Fatalf("a protocol error: %v", err)
		}
		return res, time.Since(start)
	}
	if res, _ := explain(); res.IsError {
		t.Fatalf("with the cluster: %s", text(res))
	}
	api.Close()
	res, took := explain()
	msg := text(res)
	if !res.IsError || !strings.Contains(msg, "connection refused") || strings.Count(msg, "\n") != 1 || took > 5*time.Second {
		t.Errorf("without the cluster, after %s: %q, want a tool error of one line", took, msg)
	}
	t.Logf("without the cluster, after %s: %s", took.Round(time.Millisecond), strings.TrimSpace(msg))
	// Another tool, still without the cluster.
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mcpserver.ToolExplainMany, Arguments: map[string]any{"namespace": "shop"}}); err != nil || !res.IsError {
		t.Errorf("hpa_explain_many without the cluster: %v", err)
	}
	l, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the address is taken again: %v", err)
	}
	api = serveAPI(l)
	defer api.Close()
	if res, _ := explain(); res.IsError {
		t.Errorf("with the cluster back: %s", text(res))
	}
}
