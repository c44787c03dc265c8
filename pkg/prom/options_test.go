// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

func TestParseEndpoint(t *testing.T) {
	for _, c := range []struct {
		in, str, proxy, err string
	}{
		{in: "http://prometheus:9090", str: "http://prometheus:9090"},
		{in: "https://mimir.example/prometheus/", str: "https://mimir.example/prometheus"},
		{in: "https://user:secret@thanos.example", str: "https://thanos.example"},
		{in: "monitoring/prometheus-operated:9090", str: "monitoring/prometheus-operated:9090", proxy: "/api/v1/namespaces/monitoring/services/prometheus-operated:9090/proxy"},
		{in: "monitoring/kps-prometheus:http-web", str: "monitoring/kps-prometheus:http-web", proxy: "/api/v1/namespaces/monitoring/services/kps-prometheus:http-web/proxy"},
		{in: "monitoring/https:thanos-query:10902", str: "monitoring/https:thanos-query:10902", proxy: "/api/v1/namespaces/monitoring/services/https:thanos-query:10902/proxy"},
		{in: "monitoring/http:prom:9090", str: "monitoring/prom:9090", proxy: "/api/v1/namespaces/monitoring/services/prom:9090/proxy"},
		{in: "", err: "no Prometheus endpoint"},
		{in: "localhost:9090", err: "neither a URL"},
		{in: "ftp://prom", err: "scheme must be http or https"},
		{in: "http://", err: "no host"},
		{in: "http://prom:9090/?x=1", err: "query or a fragment"},
		{in: "monitoring/prom", err: "neither a URL"},
		{in: "monitoring/prom:0", err: "out of range"},
		{in: "monitoring/prom:70000", err: "out of range"},
		{in: "monitoring/prom:-web", err: "neither a port number nor a port name"},
		{in: "monitoring/prom:a-very-long-port-name", err: "neither a port number nor a port name"},
		{in: "Monitoring/prom:9090", err: "neither a URL"},
	} {
		ep, err := ParseEndpoint(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseEndpoint(%q) = %v; want an error with %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseEndpoint(%q): %v", c.in, err)
			continue
		}
		if got := ep.String(); got != c.str {
			t.Errorf("ParseEndpoint(%q).String() = %q; want %q", c.in, got, c.str)
		}
		if c.proxy != "" && (ep.Service == nil || ep.Service.ProxyPath() != c.proxy) {
			t.Errorf("ParseEndpoint(%q) proxy path = %+v; want %s", c.in, ep.Service, c.proxy)
		}
	}
}

func TestResolveEndpoint(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == EnvEndpoint {
				return v
			}
			return ""
		}
	}
	o := Config{}
	o.ResolveEndpoint(env(" http://from-env:9090 "))
	if o.Endpoint != "http://from-env:9090" {
		t.Errorf("from the environment: %q", o.Endpoint)
	}
	o = Config{Endpoint: "http://flag:9090"}
	o.ResolveEndpoint(env("http://from-env:9090"))
	if o.Endpoint != "http://flag:9090" {
		t.Errorf("the flag wins: %q", o.Endpoint)
	}
}

func TestOptionsValidate(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	for _, c := range []struct {
		name string
		o    Config
		want []string // one line each, in order
	}{
		{"ok url", Config{Endpoint: "https://prom", BearerTokenFile: file, CAFile: file, CertFile: file, KeyFile: file, Headers: []string{"X-Scope-OrgID: team-a"}, Timeout: time.Minute}, nil},
		{"ok service", Config{Endpoint: "monitoring/prom:9090", Headers: []string{"X-Scope-OrgID: a"}}, nil},
		{"no endpoint", Config{}, []string{"--prometheus: no Prometheus endpoint"}},
		{"token twice", Config{Endpoint: "http://p", BearerToken: "t", BearerTokenFile: file}, []string{"--prometheus-token: give the token or --prometheus-token-file, not both"}},
		{"missing files", Config{Endpoint: "http://p", CAFile: missing, CertFile: file}, []string{
			"--prometheus-ca-file: cannot read " + missing + ": no such file or directory",
			"--prometheus-key-file: a client certificate (--prometheus-cert-file) needs its key",
		}},
		{"key alone", Config{Endpoint: "http://p", KeyFile: file}, []string{"--prometheus-cert-file: a client key (--prometheus-key-file) needs its certificate"}},
		{"insecure and ca", Config{Endpoint: "https://p", CAFile: file, InsecureSkipTLSVerify: true}, []string{"--prometheus-insecure-skip-tls-verify: skipping the certificate check and trusting --prometheus-ca-file contradict each other"}},
		{"tls through the proxy", Config{Endpoint: "monitoring/prom:9090", BearerToken: "t", InsecureSkipTLSVerify: true}, []string{
			"--prometheus-token: does not apply to monitoring/prom:9090",
			"--prometheus-insecure-skip-tls-verify: does not apply",
		}},
		{"headers", Config{Endpoint: "http://p", BearerToken: "t", Headers: []string{"novalue", "Bad Name: x", "Authorization: Basic x"}}, []string{
			`--prometheus-header: "novalue": give a header as "Name: value"`,
			`--prometheus-header: "Bad Name: x": "Bad Name" is not a valid header name`,
			"--prometheus-header: an Authorization header conflicts",
		}},
		{"timeout", Config{Endpoint: "http://p", Timeout: -time.Second}, []string{"--prometheus-timeout: must not be negative"}},
	} {
		err := c.o.Validate()
		if len(c.want) == 0 {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != len(c.want) {
			t.Errorf("%s: %d lines, want %d:\n%s", c.name, len(lines), len(c.want), err)
			continue
		}
		for i, w := range c.want {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("%s: line %d = %q; want it to start with %q", c.name, i, lines[i], w)
			}
		}
	}
}

func TestParseQueries(t *testing.T) {
	q, err := ParseQueries([]string{`http_requests=sum by (pod) (rate(http_requests_total{job="web"}[1m]))`, " queue = max(queue_depth) "})
	if err != nil {
		t.Fatal(err)
	}
	if q["http_requests"] != `sum by (pod) (rate(http_requests_total{job="web"}[1m]))` || q["queue"] != "max(queue_depth)" {
		t.Errorf("queries = %q", q)
	}
	_, err = ParseQueries([]string{"noequals", "a=x", "a=y", "=x"})
	if err == nil || len(strings.Split(err.Error(), "\n")) != 3 {
		t.Errorf("bad queries: %v", err)
	}
}

func TestMetricsFor(t *testing.T) {
	specs := []autoscalingv2.MetricSpec{
		{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU}},
		{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricSource{Name: corev1.ResourceCPU, Container: "app"}},
		{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricSource{Name: corev1.ResourceMemory, Container: "app"}},
		{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricSource{Metric: autoscalingv2.MetricIdentifier{Name: "rps"}}},
		{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{Metric: autoscalingv2.MetricIdentifier{Name: "queue"}}},
	}
	ms, err := MetricsFor(specs, map[string]string{"rps": "sum by (pod) (rate(x[1m]))", "queue": "max(q)"})
	if err != nil {
		t.Fatal(err)
	}
	want := []MetricRequest{
		{Kind: recording.KindResource, Name: "cpu"},
		{Kind: recording.KindResource, Name: "memory"},
		{Kind: recording.KindPods, Name: "rps", Query: "sum by (pod) (rate(x[1m]))"},
		{Kind: recording.KindExternal, Name: "queue", Query: "max(q)"},
	}
	if len(ms) != len(want) {
		t.Fatalf("metrics = %+v", ms)
	}
	for i := range want {
		if ms[i] != want[i] {
			t.Errorf("metric %d = %+v; want %+v", i, ms[i], want[i])
		}
	}
	_, err = MetricsFor(specs, map[string]string{"rps": "x", "typo": "y"})
	if err == nil || !strings.Contains(err.Error(), `external metric "queue" has no recorded counterpart: give --query queue=PROMQL`) ||
		!strings.Contains(err.Error(), `the HPA has no metric "typo"`) {
		t.Errorf("missing and unknown queries: %v", err)
	}
}

func TestRequestValidate(t *testing.T) {
	r := Request{Metrics: []MetricRequest{{Kind: recording.KindResource, Name: "gpu"}, {Kind: recording.KindPods, Name: "rps"}, {Kind: "weird", Name: "x"}}, SampleLag: -1}
	err := r.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"namespace, kind and name are required", "step must be at least 1ms", "at least one instant", "no start", "must not be negative",
		`resource "gpu": only cpu and memory`, `the pods metric "rps" needs a query: --query rps=PROMQL`, `unknown kind "weird"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() lacks %q:\n%s", want, err)
		}
	}
}

// Each kubeconfig context reads its own store (Endpoints) or its own
// cluster's series of a shared one (the cluster label).
func TestConfigForContext(t *testing.T) {
	o := Config{
		Endpoint: "http://central:9090", Endpoints: []string{"eu=http://eu:9090", "us=monitoring/prometheus:web"},
		ClusterLabel: "cluster", Clusters: []string{"eu=prod-eu"},
	}
	for _, c := range []struct{ ctx, endpoint, cluster string }{
		{"eu", "http://eu:9090", "prod-eu"},
		{"us", "monitoring/prometheus:web", "us"},
		{"kind-dev", "http://central:9090", "kind-dev"},
	} {
		got := o.ForContext(c.ctx)
		if got.Endpoint != c.endpoint || got.Cluster != c.cluster {
			t.Errorf("%s: endpoint %q cluster %q, want %q %q", c.ctx, got.Endpoint, got.Cluster, c.endpoint, c.cluster)
		}
	}
	if got := (Config{Endpoint: "http://p:9090"}).ForContext("eu"); got.Cluster != "" {
		t.Errorf("no cluster label, cluster %q", got.Cluster)
	}
	for _, c := range []struct {
		o    Config
		want string
	}{
		{Config{Endpoint: "http://p:9090", Endpoints: []string{"http://eu:9090"}}, `--prometheus-for: "http://eu:9090": give CONTEXT=ENDPOINT`},
		{Config{Endpoint: "http://p:9090", Endpoints: []string{"eu=ftp://x"}}, `--prometheus-for: eu: "ftp://x": the URL's scheme must be http or https, not "ftp"`},
		{Config{Endpoint: "http://p:9090", ClusterLabel: "0cluster"}, `--prometheus-cluster-label: "0cluster" is not a label name`},
		{Config{Endpoint: "http://p:9090", Clusters: []string{"eu=x"}}, "--prometheus-cluster: gives the value of --prometheus-cluster-label, which is not set"},
		{Config{Endpoint: "http://p:9090", ClusterLabel: "cluster", Clusters: []string{"eu"}}, `--prometheus-cluster: "eu": give CONTEXT=VALUE`},
	} {
		if err := c.o.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %s", c.o, err, c.want)
		}
	}
}
