// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	kubefake "k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	core "k8s.io/client-go/testing"
	metricsfake "k8s.io/metrics/pkg/client/clientset/versioned/fake"

	"github.com/kubectl-hpa/kubectl-hpa/internal/schematest"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/cmd"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/mcpserver"
	pkgschema "github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// now is the instant of every replay.
var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// cluster has n HPAs in namespace shop, web-0 ... web-(n-1), each scaling
// a Deployment of two pods that report no metrics.
func cluster(n int) *gather.Clients {
	var objs []apiruntime.Object
	for i := range n {
		name := fmt.Sprintf("web-%d", i)
		one := int32(1)
		h := &autoscalingv2.HorizontalPodAutoscaler{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", UID: types.UID("uid-" + name)},
			Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
				ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: name},
				MinReplicas:    &one, MaxReplicas: 10,
				Metrics: []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
					Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &one},
				}}},
			},
		}
		engine.DefaultHPA(h)
		two := int32(2)
		objs = append(objs, h, &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop"},
			Spec:       appsv1.DeploymentSpec{Replicas: &two, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}}},
			Status:     appsv1.DeploymentStatus{Replicas: 2},
		})
	}
	scales := &scalefake.FakeScaleClient{}
	scales.AddReactor("get", "deployments", func(a core.Action) (bool, apiruntime.Object, error) {
		name := a.(core.GetAction).GetName()
		return true, &autoscalingv1.Scale{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop"},
			Spec:       autoscalingv1.ScaleSpec{Replicas: 2},
			Status:     autoscalingv1.ScaleStatus{Replicas: 2, Selector: "app=" + name},
		}, nil
	})
	mapper := meta.NewDefaultRESTMapper([]schema.GroupVersion{{Group: "apps", Version: "v1"}})
	mapper.Add(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, meta.RESTScopeNamespace)
	return &gather.Clients{Kube: kubefake.NewClientset(objs...), Metrics: metricsfake.NewSimpleClientset(), Scales: scales, Mapper: mapper}
}

// options serve the fake cluster, at now.
func options(c *gather.Clients, allowWrites bool) mcpserver.Options {
	return mcpserver.Options{
		AllowWrites: allowWrites,
		NewFactory: func(cf *genericclioptions.ConfigFlags) *action.Factory {
			f := action.NewFactory(cf)
			f.GatherClients = c
			return f
		},
		Now: func() time.Time { return now },
	}
}

// connect starts the server and a client over in-memory transports.
func connect(t *testing.T, o mcpserver.Options) *mcp.ClientSession {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := mcpserver.NewServer(o).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
	})
	return cs
}

// callTool calls a tool and returns its result, failing on a protocol
// error.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// text is the text of a result's content blocks, one per line.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text + "\n")
		}
	}
	return b.String()
}

// structured returns a result's structuredContent as JSON, checked against
// the schema of kind with the independent validator of the repository's
// tests, and the same as its first text block.
func structured(t *testing.T, res *mcp.CallToolResult, kind pkgschema.Kind) []byte {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := schematest.Validate(kind, b); err != nil {
		t.Errorf("structuredContent does not match the schema %s: %v\n%s", kind, err, b)
	}
	var fromText, fromStruct any
	first := res.Content[0].(*mcp.TextContent).Text
	if err := json.Unmarshal([]byte(first), &fromText); err != nil {
		t.Fatalf("the first text block is not the document: %v\n%s", err, first)
	}
	_ = json.Unmarshal(b, &fromStruct)
	if fmt.Sprint(fromText) != fmt.Sprint(fromStruct) {
		t.Errorf("the text block differs from structuredContent")
	}
	return b
}

func TestListTools(t *testing.T) {
	for _, allow := range []bool{false, true} {
		t.Run(fmt.Sprintf("allow-writes=%v", allow), func(t *testing.T) {
			cs := connect(t, options(cluster(1), allow))
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]pkgschema.Kind{
				mcpserver.ToolExplain: pkgschema.Explanation, mcpserver.ToolExplainMany: pkgschema.Summaries,
				mcpserver.ToolWhatIf: pkgschema.WhatIf, mcpserver.ToolBacktest: pkgschema.WhatIf, mcpserver.ToolMigratePlan: pkgschema.Migrate,
				mcpserver.ToolTune: pkgschema.Tune, mcpserver.ToolTuneMany: pkgschema.Fleet,
			}
			if allow {
				want[mcpserver.ToolMigrateApply] = pkgschema.Migrate
			}
			if len(res.Tools) != len(want) {
				t.Errorf("%d tools, want %d", len(res.Tools), len(want))
			}
			for _, tool := range res.Tools {
				kind, ok := want[tool.Name]
				if !ok {
					t.Errorf("unexpected tool %s", tool.Name)
					continue
				}
				out, _ := json.Marshal(tool.OutputSchema)
				published, _ := pkgschema.JSON(kind)
				var a, b any
				_ = json.Unmarshal(out, &a)
				_ = json.Unmarshal(published, &b)
				if fmt.Sprint(a) != fmt.Sprint(b) {
					t.Errorf("%s: the output schema is not `kubectl hpa schema %s`", tool.Name, kind)
				}
				an := tool.Annotations
				write := tool.Name == mcpserver.ToolMigrateApply
				switch {
				case an == nil:
					t.Errorf("%s: no annotations", tool.Name)
				case write && (an.ReadOnlyHint || an.DestructiveHint == nil || !*an.DestructiveHint || !an.IdempotentHint):
					t.Errorf("%s: annotations %+v, want destructive, idempotent, not read-only", tool.Name, an)
				case !write && (!an.ReadOnlyHint || !an.IdempotentHint):
					t.Errorf("%s: annotations %+v, want read-only and idempotent", tool.Name, an)
				}
				in, _ := json.Marshal(tool.InputSchema)
				for _, arg := range []string{`"namespace"`, `"context"`} {
					if !strings.Contains(string(in), arg) {
						t.Errorf("%s: no argument %s", tool.Name, arg)
					}
				}
			}
		})
	}
}

// The arguments are named as the flags, and the schema refuses others.
func TestInputSchema(t *testing.T) {
	cs := connect(t, options(cluster(1), false))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var whatif *mcp.Tool
	for _, tool := range res.Tools {
		if tool.Name == mcpserver.ToolWhatIf {
			whatif = tool
		}
	}
	b, _ := json.Marshal(whatif.InputSchema)
	var s struct {
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{
		"cpu", "memory", "metric", "object", "external", "target", "min", "max", "replicas", "scale-up-tolerance", "scale-down-tolerance",
		"behavior", "all-ready", "load-model", "for", "pod-startup", "trace", "sync-period", "controller-version", "no-history",
		"trigger", "activation", "cooldown", "polling-interval", "idle", "fallback-replicas", "failure-threshold",
	} {
		if _, ok := s.Properties[flag]; !ok {
			t.Errorf("hpa_whatif has no argument %s", flag)
		}
	}
	if strings.Join(s.Required, ",") != "name" {
		t.Errorf("required %v, want [name]", s.Required)
	}
	if !strings.Contains(string(s.Properties["load-model"]), `"enum":["constant-total","constant-per-pod"]`) {
		t.Errorf("load-model: %s", s.Properties["load-model"])
	}
	for _, args := range []map[string]any{
		{"name": "web-0", "namespace": "shop", "cpus": "200m"},
		{"name": "", "namespace": "shop", "cpu": "200m"},
		{"namespace": "shop", "cpu": "200m"},
		{"name": "web-0", "load-model": "random", "cpu": "1"},
	} {
		r := callTool(t, cs, mcpserver.ToolWhatIf, args)
		if !r.IsError || !strings.Contains(text(r), "validating") {
			t.Errorf("%v: %s, want the arguments refused", args, text(r))
		}
	}
}

func TestExplain(t *testing.T) {
	c := cluster(1)
	cs := connect(t, options(c, false))
	res := callTool(t, cs, mcpserver.ToolExplain, map[string]any{"name": "web-0", "namespace": "shop", "controller-version": "1.37"})
	var d explain.Decision
	if err := json.Unmarshal(structured(t, res, pkgschema.Explanation), &d); err != nil {
		t.Fatal(err)
	}
	if d.HPA.Name != "web-0" || d.Settings.ControllerVersion != "v1.37" || !d.Now.Equal(now) {
		t.Errorf("hpa %v, controller %s, now %v", d.HPA, d.Settings.ControllerVersion, d.Now)
	}

	// The same replay as explain's.
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	e := cmd.NewCmdExplain(streams, nil, func(o *cmd.ExplainOptions) error {
		o.Clients.GatherClients = c
		return o.Run(context.Background())
	})
	e.SetArgs([]string{"web-0", "-n", "shop", "-o", "json", "--controller-version", "1.37", "--now", now.Format(time.RFC3339), "--no-history"})
	e.SilenceErrors, e.SilenceUsage = true, true
	if err := e.Execute(); err != nil {
		t.Fatal(err)
	}
	var want explain.Decision
	if err := json.Unmarshal(out.Bytes(), &want); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(d)
	wantJSON, _ := json.Marshal(want)
	if !bytes.Equal(got, wantJSON) {
		t.Errorf("hpa_explain differs from explain -o json:\n%s\n%s", got, wantJSON)
	}
}

// An error is a tool error: the line the command line prints.
func TestErrors(t *testing.T) {
	c := cluster(1)
	cs := connect(t, options(c, false))
	for _, tc := range []struct {
		tool string
		args map[string]any
		cli  []string
	}{
		{mcpserver.ToolExplain, map[string]any{"name": "nope", "namespace": "shop", "controller-version": "1.37"}, []string{"explain", "nope"}},
		{mcpserver.ToolWhatIf, map[string]any{"name": "web-0", "namespace": "shop", "cpu": "-5"}, []string{"whatif", "web-0", "--cpu=-5"}},
		{mcpserver.ToolWhatIf, map[string]any{"name": "web-0", "namespace": "shop"}, []string{"whatif", "web-0"}},
		{mcpserver.ToolWhatIf, map[string]any{"name": "web-0", "namespace": "shop", "metric": []string{"rps=10"}, "controller-version": "1.37"}, []string{"whatif", "web-0", "--metric", "rps=10"}},
		{mcpserver.ToolWhatIf, map[string]any{"name": "web-0", "namespace": "shop", "for": "soon"}, nil},
		{mcpserver.ToolWhatIf, map[string]any{"name": "web-0", "namespace": "shop", "trigger": []string{"queue=5"}, "idle": 0, "controller-version": "1.37"}, []string{"whatif", "web-0", "--trigger", "queue=5", "--idle", "0"}},
		{mcpserver.ToolWhatIf, map[string]any{"name": "web-0", "namespace": "shop", "cooldown": "5x"}, []string{"whatif", "web-0", "--cooldown", "5x"}},
		{mcpserver.ToolWhatIf, map[string]any{"name": "web-0", "namespace": "shop", "activation": []string{"queue"}}, []string{"whatif", "web-0", "--activation", "queue"}},
		{mcpserver.ToolExplain, map[string]any{"name": "web-0", "namespace": "shop", "sync-period": "5x"}, []string{"explain", "web-0", "--sync-period", "5x"}},
		{mcpserver.ToolBacktest, map[string]any{"name": "web-0", "namespace": "shop", "since": "2h"}, []string{"whatif", "web-0", "--since", "2h"}},
		{mcpserver.ToolBacktest, map[string]any{"name": "web-0", "namespace": "shop", "since": "soon", "prometheus": "http://127.0.0.1:1"}, []string{"whatif", "web-0", "--since", "soon", "--prometheus", "http://127.0.0.1:1"}},
		{mcpserver.ToolTune, map[string]any{"name": "web-0", "namespace": "shop", "since": "2h"}, []string{"tune", "web-0", "--since", "2h"}},
		{mcpserver.ToolTune, map[string]any{"name": "web-0", "namespace": "shop", "since": "2h", "budget": 0, "prometheus": "http://127.0.0.1:1"}, []string{"tune", "web-0", "--since", "2h", "--budget", "0", "--prometheus", "http://127.0.0.1:1"}},
		{mcpserver.ToolTune, map[string]any{"name": "web-0", "namespace": "shop", "max-risk": "lots", "since": "1h", "prometheus": "http://127.0.0.1:1"}, []string{"tune", "web-0", "--since", "1h", "--max-risk", "lots", "--prometheus", "http://127.0.0.1:1"}},
		{mcpserver.ToolTuneMany, map[string]any{"namespace": "shop", "since": "2h"}, []string{"tune", "--since", "2h"}},
		{mcpserver.ToolTuneMany, map[string]any{"namespace": "shop", "since": "1h", "min-fidelity": "lots", "prometheus": "http://127.0.0.1:1"}, []string{"tune", "--since", "1h", "--min-fidelity", "lots", "--prometheus", "http://127.0.0.1:1"}},
		{mcpserver.ToolExplainMany, map[string]any{"namespace": "shop", "cursor": "!"}, nil},
		{mcpserver.ToolMigratePlan, map[string]any{"name": "web"}, []string{"migrate", "web"}},
	} {
		t.Run(fmt.Sprint(tc.tool, tc.args), func(t *testing.T) {
			t.Setenv("KUBECTL_HPA_PROMETHEUS", "")
			res := callTool(t, cs, tc.tool, tc.args)
			got := text(res)
			if !res.IsError || !strings.HasPrefix(got, "error: ") || strings.Count(got, "\n") != 1 {
				t.Fatalf("result %q, want a tool error of one line", got)
			}
			t.Log(strings.TrimSpace(got))
			if tc.cli == nil {
				return
			}
			if want := cliLine(t, c, tc.cli); got != want+"\n" {
				t.Errorf("tool error %q\nthe command prints %q", got, want)
			}
		})
	}
}

// cliLine runs a command over the fake cluster and returns the line it
// prints for its error.
func cliLine(t *testing.T, c *gather.Clients, args []string) string {
	t.Helper()
	streams, _, _, _ := genericiooptions.NewTestIOStreams()
	var cc interface {
		SetArgs([]string)
		Execute() error
	}
	extra := []string{"-n", "shop", "--now", now.Format(time.RFC3339), "--controller-version", "1.37"}
	switch args[0] {
	case "explain":
		cc = cmd.NewCmdExplain(streams, nil, func(o *cmd.ExplainOptions) error {
			o.Clients.GatherClients = c
			return o.Run(context.Background())
		})
	case "whatif":
		cc = cmd.NewCmdWhatif(streams, nil, func(o *cmd.WhatifOptions) error {
			o.Clients.GatherClients = c
			return o.Run(context.Background())
		})
	case "tune":
		cc = cmd.NewCmdTune(streams, nil, func(o *cmd.TuneOptions) error {
			o.Clients.GatherClients = c
			return o.Run(context.Background())
		})
		// tune replays a period, not a sync at an instant: no --now.
		extra = []string{"-n", "shop", "--controller-version", "1.37"}
	case "migrate":
		cc = cmd.NewCmdMigrate(streams, nil, nil)
		extra = []string{"-n", "shop"}
	}
	cc.SetArgs(append(args[1:], extra...))
	err := cc.Execute()
	if err == nil {
		t.Fatalf("%v: no error", args)
	}
	return action.ErrorLine(err)
}

// hpa_explain_many pages through the namespace.
func TestExplainManyPages(t *testing.T) {
	cs := connect(t, options(cluster(5), false))
	var names []string
	cursor := ""
	for page := 0; ; page++ {
		args := map[string]any{"namespace": "shop", "limit": 2, "controller-version": "1.37"}
		if cursor != "" {
			args["cursor"] = cursor
		}
		var list explain.ExplanationSummaryList
		if err := json.Unmarshal(structured(t, callTool(t, cs, mcpserver.ToolExplainMany, args), pkgschema.Summaries), &list); err != nil {
			t.Fatal(err)
		}
		if list.Total != 5 || len(list.Items) > 2 {
			t.Fatalf("page %d: total %d, %d items", page, list.Total, len(list.Items))
		}
		for _, it := range list.Items {
			names = append(names, it.HPA.Name)
			if it.Target != "Deployment/"+it.HPA.Name || len(it.Problems) == 0 || it.Summary == "" {
				t.Errorf("summary %+v: want its target, its problems (no metrics) and a summary", it)
			}
		}
		if cursor = list.NextCursor; cursor == "" {
			break
		}
		if page > 3 {
			t.Fatal("too many pages")
		}
	}
	if strings.Join(names, ",") != "web-0,web-1,web-2,web-3,web-4" {
		t.Errorf("pages gave %v", names)
	}
}

func TestWhatIf(t *testing.T) {
	cs := connect(t, options(cluster(1), false))
	res := callTool(t, cs, mcpserver.ToolWhatIf, map[string]any{
		"name": "web-0", "namespace": "shop", "controller-version": "1.37", "max": 1, "for": "1m", "sync-period": "30s",
	})
	var w explain.WhatIf
	if err := json.Unmarshal(structured(t, res, pkgschema.WhatIf), &w); err != nil {
		t.Fatal(err)
	}
	if w.After.Target.MaxReplicas != 1 || w.Projection == nil || len(w.Projection.Steps) != 3 {
		t.Errorf("after max %d, projection %+v: want max 1 and 3 syncs", w.After.Target.MaxReplicas, w.Projection)
	}
}

// A call's context argument selects the kubeconfig's context, as
// --context does; the server's flags are the defaults.
func TestContextArgument(t *testing.T) {
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "config")
	cfg := `apiVersion: v1
kind: Config
clusters:
- name: a
  cluster: {server: "https://a.example:6443"}
- name: b
  cluster: {server: "https://b.example:6443"}
users:
- name: u
  user: {token: t}
contexts:
- name: a
  context: {cluster: a, user: u, namespace: from-a}
- name: b
  context: {cluster: b, user: u, namespace: from-b}
current-context: a
`
	if err := os.WriteFile(kubeconfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var hosts, namespaces []string
	c := cluster(1)
	o := options(c, false)
	o.ConfigFlags = genericclioptions.NewConfigFlags(true)
	o.ConfigFlags.KubeConfig = &kubeconfig
	o.NewFactory = func(cf *genericclioptions.ConfigFlags) *action.Factory {
		f := action.NewFactory(cf)
		rc, err := f.RESTConfig()
		if err != nil {
			t.Error(err)
		} else {
			hosts = append(hosts, rc.Host)
		}
		ns, _ := f.Namespace()
		namespaces = append(namespaces, ns)
		f.GatherClients = c
		return f
	}
	cs := connect(t, o)
	callTool(t, cs, mcpserver.ToolExplain, map[string]any{"name": "web-0", "namespace": "shop"})
	callTool(t, cs, mcpserver.ToolExplain, map[string]any{"name": "web-0", "namespace": "shop", "context": "b"})
	if strings.Join(hosts, " ") != "https://a.example:6443 https://b.example:6443" || strings.Join(namespaces, " ") != "from-a from-b" {
		t.Errorf("hosts %v, namespaces %v: want the current context, then b", hosts, namespaces)
	}
}

// A cancelled call stops its requests to the API server.
func TestCancel(t *testing.T) {
	reached, released := make(chan struct{}, 1), make(chan struct{})
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case reached <- struct{}{}:
		default:
		}
		select {
		case <-r.Context().Done():
			close(released)
		case <-time.After(30 * time.Second):
		}
		http.Error(w, "too late", http.StatusServiceUnavailable)
	}))
	defer api.Close()
	o := options(nil, false)
	o.NewFactory = nil
	o.ConfigFlags = genericclioptions.NewConfigFlags(true)
	server := api.URL
	o.ConfigFlags.APIServer = &server
	cs := connect(t, o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolExplain, Arguments: map[string]any{"name": "web", "namespace": "shop"}})
		done <- err
	}()
	select {
	case <-reached:
	case <-time.After(10 * time.Second):
		t.Fatal("the call never reached the API server")
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("the cancelled call returned no error")
	}
	select {
	case <-released:
	case <-time.After(10 * time.Second):
		t.Fatal("the server kept reading after the call was cancelled")
	}
}
