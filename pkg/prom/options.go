// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/options"
)

// EnvEndpoint is the environment variable that gives the endpoint when no
// flag does.
const EnvEndpoint = "KUBECTL_HPA_PROMETHEUS"

// The names of the options that set a Config (its rows, Rows, bind them);
// Validate and the client name them in their messages.
const (
	FlagEndpoint      = "prometheus"
	FlagToken         = "prometheus-token"
	FlagTokenFile     = "prometheus-token-file"
	FlagCAFile        = "prometheus-ca-file"
	FlagCertFile      = "prometheus-cert-file"
	FlagKeyFile       = "prometheus-key-file"
	FlagInsecure      = "prometheus-insecure-skip-tls-verify"
	FlagHeader        = "prometheus-header"
	FlagTimeout       = "prometheus-timeout"
	FlagAllowWarnings = "prometheus-allow-warnings"
	FlagQueryAPIOnly  = "prometheus-query-api-only"
	FlagQuery         = "query"
	FlagClusterLabel  = "prometheus-cluster-label"
	FlagCluster       = "prometheus-cluster"
	FlagFor           = "prometheus-for"
)

// Config says how to reach a server that speaks Prometheus's HTTP API
// (Prometheus, Thanos, Mimir, VictoriaMetrics): the client's configuration,
// which Rows fill from flags (and the endpoint from an MCP argument).
type Config struct {
	// Endpoint is a URL (http://prometheus.example:9090, with a path
	// prefix if the server has one), or a service reached through the
	// Kubernetes API server's service proxy: NAMESPACE/SERVICE:PORT, where
	// PORT is a number or a port name, and SERVICE may be preceded by
	// "https:" when the service speaks TLS. ResolveEndpoint fills it from
	// KUBECTL_HPA_PROMETHEUS when empty.
	Endpoint string

	// BearerToken or BearerTokenFile (read once, when the client is
	// built) authenticate to a URL endpoint.
	BearerToken     string
	BearerTokenFile string
	// CAFile, CertFile and KeyFile are PEM files for a URL endpoint that
	// speaks TLS: the CA to trust, and a client certificate.
	CAFile   string
	CertFile string
	KeyFile  string
	// InsecureSkipTLSVerify skips the server certificate's check.
	InsecureSkipTLSVerify bool

	// Headers are extra request headers, each "Name: value" (for example
	// "X-Scope-OrgID: team-a" for a multi-tenant Mimir); they are sent to
	// URL and service endpoints alike.
	Headers []string

	// Timeout bounds each request (0: only the context bounds them); it
	// is also sent as the query's timeout parameter, so the server stops
	// evaluating when the client gives up.
	Timeout time.Duration

	// AllowWarnings keeps a query whose answer carries warnings (a Thanos
	// partial response, a PromQL annotation) and records them in
	// Recording.Warnings; by default a warning fails the read.
	AllowWarnings bool

	// QueryAPIOnly reads the raw samples through the query API alone;
	// by default they are read through the remote-read API where the
	// server serves it (remoteread.go).
	QueryAPIOnly bool

	// ClusterLabel names the label that tells the clusters apart in a
	// store serving many (Thanos, Mimir, a central Prometheus): every
	// series read is selected with ClusterLabel="Cluster". ForContext
	// sets Cluster: the kubeconfig context's name, or its value in
	// Clusters (CONTEXT=VALUE).
	ClusterLabel string
	Cluster      string
	Clusters     []string
	// Endpoints give the endpoint of a kubeconfig context's clusters,
	// CONTEXT=ENDPOINT, where each cluster has its own store; Endpoint
	// serves the contexts they do not name. ForContext picks it.
	Endpoints []string
}

// ForContext returns the configuration of the reads of one kubeconfig
// context's cluster: its own endpoint (Endpoints) and the value of the
// cluster label (Clusters, else the context's name).
func (o Config) ForContext(name string) Config {
	out := o
	for _, e := range o.Endpoints {
		if i := strings.LastIndex(e, "="); i > 0 && e[:i] == name {
			out.Endpoint = strings.TrimSpace(e[i+1:])
		}
	}
	if o.ClusterLabel != "" && o.Cluster == "" {
		out.Cluster = name
		for _, c := range o.Clusters {
			if ctx, v, ok := strings.Cut(c, "="); ok && ctx == name {
				out.Cluster = v
			}
		}
	}
	return out
}

// clientOnly is why the options of the client are no MCP tool arguments.
const clientOnly = "kubectl hpa mcp takes them as its own flags: one Prometheus client for every call"

// Rows are the option rows that fill a Config, with their help: every
// command that reads recorded load offers the same ones, as cli-runtime's
// ConfigFlags offer the kubeconfig's. Only the endpoint is also an
// argument of the MCP tools that read recorded load.
var Rows = options.Rows[Config]{
	{
		Name: FlagEndpoint, Help: "Where the recorded load is: a URL (http://prometheus:9090) or NAMESPACE/SERVICE:PORT reached through the API server's service proxy (default $" + EnvEndpoint + ")",
		Desc:  "Where the recorded load is: a URL (http://prometheus:9090) or NAMESPACE/SERVICE:PORT through the API server's service proxy; default: the server's --prometheus or $" + EnvEndpoint,
		Field: func(o *Config) options.Value { return options.String(&o.Endpoint) },
	},
	{
		Name: FlagToken, Help: "Bearer token for a --prometheus URL", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.String(&o.BearerToken) },
	},
	{
		Name: FlagTokenFile, Help: "File holding the bearer token for a --prometheus URL", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.String(&o.BearerTokenFile) },
	},
	{
		Name: FlagCAFile, Help: "PEM file of the CA to trust for a --prometheus https URL", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.String(&o.CAFile) },
	},
	{
		Name: FlagCertFile, Help: "PEM client certificate for a --prometheus https URL", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.String(&o.CertFile) },
	},
	{
		Name: FlagKeyFile, Help: "PEM client key for a --prometheus https URL", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.String(&o.KeyFile) },
	},
	{
		Name: FlagInsecure, Help: "Do not check the --prometheus server's certificate", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.Bool(&o.InsecureSkipTLSVerify) },
	},
	{
		Name: FlagHeader, Help: "Extra request header for Prometheus, NAME: VALUE (repeatable; e.g. X-Scope-OrgID: team-a for Mimir)", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.Strings(&o.Headers) },
	},
	{
		Name: FlagTimeout, Help: "Time limit of each Prometheus request, its retries included (0: the default, 2m)", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.PlainDuration(&o.Timeout) },
	},
	{
		Name: FlagAllowWarnings, Help: "Go on when Prometheus answers with warnings (a partial answer), listing them", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.Bool(&o.AllowWarnings) },
	},
	{
		Name: FlagQueryAPIOnly, Help: "Read the raw samples through Prometheus's query API alone (by default through its remote-read API where the server serves it: the same samples, a fraction of the work)", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.Bool(&o.QueryAPIOnly) },
	},
	{
		Name: FlagFor, Help: "The Prometheus of one kubeconfig context's cluster, CONTEXT=ENDPOINT (repeatable; --prometheus serves the contexts not named)", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.Strings(&o.Endpoints) },
	},
	{
		Name: FlagClusterLabel, Help: "The label that tells the clusters apart where one store serves many (Thanos, Mimir, a central Prometheus): every series read is selected with LABEL=CLUSTER, by default the kubeconfig context's name", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.String(&o.ClusterLabel) },
	},
	{
		Name: FlagCluster, Help: "The cluster label's value of one kubeconfig context, CONTEXT=VALUE (repeatable; by default the context's name)", CLIOnly: clientOnly,
		Field: func(o *Config) options.Value { return options.Strings(&o.Clusters) },
	},
}

// labelName is a Prometheus label name.
var labelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// ResolveEndpoint fills Endpoint from KUBECTL_HPA_PROMETHEUS, read with
// getenv (os.Getenv; tests pass their own), when no flag set it.
func (o *Config) ResolveEndpoint(getenv func(string) string) {
	if strings.TrimSpace(o.Endpoint) == "" && getenv != nil {
		o.Endpoint = strings.TrimSpace(getenv(EnvEndpoint))
	}
}

// Validate checks the configuration, one line per bad field (errors.Join: the
// lines are separated by newlines).
func (o *Config) Validate() error {
	var errs []error
	bad := func(flag, format string, args ...any) {
		errs = append(errs, fmt.Errorf("--%s: %s", flag, fmt.Sprintf(format, args...)))
	}
	ep, err := ParseEndpoint(o.Endpoint)
	if err != nil {
		bad(FlagEndpoint, "%s", err.Error())
	}
	proxied := err == nil && ep.Service != nil
	if o.BearerToken != "" && o.BearerTokenFile != "" {
		bad(FlagToken, "give the token or --%s, not both", FlagTokenFile)
	}
	for _, f := range []struct{ flag, path string }{
		{FlagTokenFile, o.BearerTokenFile}, {FlagCAFile, o.CAFile}, {FlagCertFile, o.CertFile}, {FlagKeyFile, o.KeyFile},
	} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			bad(f.flag, "cannot read %s: %s", f.path, statReason(err))
		}
	}
	if (o.CertFile == "") != (o.KeyFile == "") {
		if o.CertFile == "" {
			bad(FlagCertFile, "a client key (--%s) needs its certificate", FlagKeyFile)
		} else {
			bad(FlagKeyFile, "a client certificate (--%s) needs its key", FlagCertFile)
		}
	}
	if o.InsecureSkipTLSVerify && o.CAFile != "" {
		bad(FlagInsecure, "skipping the certificate check and trusting --%s contradict each other", FlagCAFile)
	}
	if proxied {
		for _, f := range []struct {
			flag string
			set  bool
		}{
			{FlagToken, o.BearerToken != ""},
			{FlagTokenFile, o.BearerTokenFile != ""},
			{FlagCAFile, o.CAFile != ""},
			{FlagCertFile, o.CertFile != ""},
			{FlagKeyFile, o.KeyFile != ""},
			{FlagInsecure, o.InsecureSkipTLSVerify},
		} {
			if f.set {
				bad(f.flag, "does not apply to %s: the Kubernetes API server's service proxy is reached with the kubeconfig's credentials (give a URL to use it)", o.Endpoint)
			}
		}
	}
	for _, h := range o.Headers {
		name, _, err := parseHeader(h)
		if err != nil {
			bad(FlagHeader, "%s", err.Error())
			continue
		}
		if strings.EqualFold(name, "Authorization") && (o.BearerToken != "" || o.BearerTokenFile != "" || proxied) {
			bad(FlagHeader, "an Authorization header conflicts with the bearer token (or the kubeconfig's credentials through the service proxy)")
		}
	}
	if o.Timeout < 0 {
		bad(FlagTimeout, "must not be negative, not %s", o.Timeout)
	}
	for _, e := range o.Endpoints {
		i := strings.LastIndex(e, "=")
		if i <= 0 {
			bad(FlagFor, "%q: give CONTEXT=ENDPOINT", e)
			continue
		}
		if _, err := ParseEndpoint(e[i+1:]); err != nil {
			bad(FlagFor, "%s: %s", e[:i], err.Error())
		}
	}
	if o.ClusterLabel != "" && !labelName.MatchString(o.ClusterLabel) {
		bad(FlagClusterLabel, "%q is not a label name (letters, digits and _, not first a digit)", o.ClusterLabel)
	}
	for _, c := range o.Clusters {
		if ctx, _, ok := strings.Cut(c, "="); !ok || ctx == "" {
			bad(FlagCluster, "%q: give CONTEXT=VALUE", c)
		}
	}
	if len(o.Clusters) > 0 && o.ClusterLabel == "" {
		bad(FlagCluster, "gives the value of --%s, which is not set", FlagClusterLabel)
	}
	return errors.Join(errs...)
}

func statReason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// headerName is an HTTP field name (RFC 9110's token).
var headerName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

func parseHeader(h string) (string, string, error) {
	name, value, ok := strings.Cut(h, ":")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || name == "" {
		return "", "", fmt.Errorf("%q: give a header as \"Name: value\"", h)
	}
	if !headerName.MatchString(name) {
		return "", "", fmt.Errorf("%q: %q is not a valid header name", h, name)
	}
	if strings.ContainsAny(value, "\r\n") {
		return "", "", fmt.Errorf("%q: a header value cannot span lines", h)
	}
	return http.CanonicalHeaderKey(name), value, nil
}

// Endpoint is a parsed Config.Endpoint: a URL, or a service reached
// through the Kubernetes API server.
type Endpoint struct {
	// URL is set for a URL endpoint.
	URL *url.URL
	// Service is set for a service endpoint.
	Service *Service
}

// Service is a Kubernetes service that serves Prometheus's HTTP API.
type Service struct {
	Namespace string
	Name      string
	// Port is the port's number or name.
	Port string
	// Scheme is "https" when the service speaks TLS, else "".
	Scheme string
}

// ProxyPath is the API server path that proxies to the service
// (/api/v1/namespaces/NS/services/[https:]NAME:PORT/proxy).
func (s *Service) ProxyPath() string {
	name := s.Name + ":" + s.Port
	if s.Scheme != "" {
		name = s.Scheme + ":" + name
	}
	return "/api/v1/namespaces/" + url.PathEscape(s.Namespace) + "/services/" + url.PathEscape(name) + "/proxy"
}

// String is the endpoint as a user wrote it.
func (e Endpoint) String() string {
	if e.Service != nil {
		s := e.Service.Namespace + "/"
		if e.Service.Scheme != "" {
			s += e.Service.Scheme + ":"
		}
		return s + e.Service.Name + ":" + e.Service.Port
	}
	if e.URL != nil {
		u := *e.URL
		u.User = nil
		return u.String()
	}
	return ""
}

var (
	// serviceForm is NAMESPACE/[https:]SERVICE:PORT.
	serviceForm = regexp.MustCompile(`^([a-z0-9]([-a-z0-9]*[a-z0-9])?)/(?:(https?):)?([a-z]([-a-z0-9]*[a-z0-9])?):([-a-z0-9]+)$`)
	portName    = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
)

// ParseEndpoint parses an endpoint: a http(s) URL, or
// NAMESPACE/[https:]SERVICE:PORT.
func ParseEndpoint(s string) (Endpoint, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Endpoint{}, fmt.Errorf("no Prometheus endpoint: give a URL (http://HOST:9090) or a service (NAMESPACE/SERVICE:PORT), or set %s", EnvEndpoint)
	}
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil {
			return Endpoint{}, fmt.Errorf("%q is not a URL: %w", s, unwrapURLError(err))
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			return Endpoint{}, fmt.Errorf("%q: the URL's scheme must be http or https, not %q", s, u.Scheme)
		}
		if u.Host == "" {
			return Endpoint{}, fmt.Errorf("%q: the URL has no host", s)
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return Endpoint{}, fmt.Errorf("%q: the URL must not have a query or a fragment", s)
		}
		u.Path = strings.TrimRight(u.Path, "/")
		u.RawPath = ""
		return Endpoint{URL: u}, nil
	}
	m := serviceForm.FindStringSubmatch(s)
	if m == nil {
		return Endpoint{}, fmt.Errorf("%q is neither a URL (http://HOST:9090) nor a service (NAMESPACE/SERVICE:PORT, or NAMESPACE/https:SERVICE:PORT)", s)
	}
	svc := &Service{Namespace: m[1], Scheme: m[3], Name: m[4], Port: m[6]}
	if svc.Scheme == "http" {
		svc.Scheme = ""
	}
	if n, err := strconv.Atoi(svc.Port); err == nil {
		if n < 1 || n > 65535 {
			return Endpoint{}, fmt.Errorf("%q: port %d is out of range", s, n)
		}
	} else if !portName.MatchString(svc.Port) || len(svc.Port) > 15 || strings.Trim(svc.Port, "0123456789-") == "" {
		return Endpoint{}, fmt.Errorf("%q: %q is neither a port number nor a port name", s, svc.Port)
	}
	if len(svc.Namespace) > 63 || len(svc.Name) > 63 {
		return Endpoint{}, fmt.Errorf("%q: a namespace or service name has at most 63 characters", s)
	}
	return Endpoint{Service: svc}, nil
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
