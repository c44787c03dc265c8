// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
	"k8s.io/client-go/rest"
)

// Client reads from one Prometheus-compatible server.
type Client struct {
	api v1.API
	// raw and hc serve the range queries, which are decoded as they
	// stream (stream.go).
	raw      api.Client
	hc       *http.Client
	endpoint Endpoint
	// timeout is --prometheus-timeout (0: not given), also sent as the
	// query's timeout; bound is what each request waits at most, retries
	// included: timeout, else DefaultTimeout.
	timeout, bound time.Duration
	// allowWarnings turns the server's warnings into Recording.Warnings
	// instead of errors.
	allowWarnings bool
	// scope is the matcher of the cluster label (`cluster="prod"`), ""
	// when the store serves one cluster.
	scope string
	// remoteOff says the raw samples are read through the query API:
	// --prometheus-query-api-only, or the remote-read API did not serve
	// a read.
	remoteOff atomic.Bool
}

// Endpoint is the endpoint the client reads from.
func (c *Client) Endpoint() Endpoint { return c.endpoint }

// NewClient builds a client from validated options. A service endpoint is
// reached through the API server of kube (the run's REST config: its
// credentials, TLS and request counting); a URL endpoint needs no kube.
func NewClient(o Config, kube *rest.Config) (*Client, error) {
	ep, err := ParseEndpoint(o.Endpoint)
	if err != nil {
		return nil, err
	}
	headers := http.Header{}
	for _, h := range o.Headers {
		name, value, err := parseHeader(h)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", FlagHeader, err)
		}
		headers.Add(name, value)
	}
	var hc *http.Client
	var address, basePath string
	if ep.Service != nil {
		if kube == nil {
			return nil, fmt.Errorf("prometheus %s: a service is reached through the Kubernetes API server, and no kubeconfig was loaded", ep)
		}
		shared, err := rest.HTTPClientFor(kube)
		if err != nil {
			return nil, fmt.Errorf("prometheus %s: build the API server's client: %w", ep, err)
		}
		// A copy: client-go hands out http.DefaultClient itself for a
		// config that needs nothing special, and its transport is wrapped
		// below.
		hc = &http.Client{Transport: shared.Transport, Timeout: shared.Timeout}
		base, _, err := rest.DefaultServerUrlFor(kube)
		if err != nil {
			return nil, fmt.Errorf("prometheus %s: the kubeconfig's server: %w", ep, err)
		}
		base.Path = strings.TrimRight(base.Path, "/") + ep.Service.ProxyPath()
		base.RawPath = ""
		address, basePath = base.String(), base.Path
	} else {
		hc, err = urlClient(o, ep.URL)
		if err != nil {
			return nil, err
		}
		address, basePath = ep.URL.String(), ep.URL.Path
	}
	if len(headers) > 0 {
		hc.Transport = &headerTransport{next: transportOf(hc), headers: headers}
	}
	hc.Transport = &readTransport{next: transportOf(hc), endpoint: ep.String(), basePath: strings.TrimRight(basePath, "/"), backoff: retryBackoff}
	ac, err := api.NewClient(api.Config{Address: address, Client: hc})
	if err != nil {
		return nil, fmt.Errorf("prometheus %s: %w", ep, err)
	}
	bound := o.Timeout
	if bound <= 0 {
		bound = DefaultTimeout
	}
	c := &Client{api: v1.NewAPI(ac), raw: ac, hc: hc, endpoint: ep, timeout: o.Timeout, bound: bound, allowWarnings: o.AllowWarnings}
	c.remoteOff.Store(o.QueryAPIOnly)
	if o.ClusterLabel != "" {
		c.scope = o.ClusterLabel + "=" + str(o.Cluster)
	}
	return c, nil
}

func transportOf(hc *http.Client) http.RoundTripper {
	if hc.Transport != nil {
		return hc.Transport
	}
	return http.DefaultTransport
}

// urlClient is the HTTP client of a URL endpoint: TLS from the options, the
// bearer token in every request.
func urlClient(o Config, u *url.URL) (*http.Client, error) {
	base, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return nil, errors.New("the default HTTP transport is not an *http.Transport")
	}
	tr := base.Clone()
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: o.InsecureSkipTLSVerify} //nolint:gosec // the user asked for it
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", FlagCAFile, err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--%s: %s holds no PEM certificate", FlagCAFile, o.CAFile)
		}
		tlsConfig.RootCAs = pool
	}
	if o.CertFile != "" || o.KeyFile != "" {
		cert, err := tls.LoadX509KeyPair(o.CertFile, o.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("--%s/--%s: %w", FlagCertFile, FlagKeyFile, err)
		}
		tlsConfig.Certificates = []tls.Certificate{cert}
	}
	tr.TLSClientConfig = tlsConfig
	var rt http.RoundTripper = tr
	token := o.BearerToken
	if o.BearerTokenFile != "" {
		b, err := os.ReadFile(o.BearerTokenFile)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", FlagTokenFile, err)
		}
		token = strings.TrimSpace(string(b))
	}
	if token != "" {
		rt = &headerTransport{next: rt, headers: http.Header{"Authorization": {"Bearer " + token}}}
	}
	if u.User != nil {
		user := u.User.Username()
		pass, _ := u.User.Password()
		rt = &basicAuthTransport{next: rt, user: user, pass: pass}
	}
	return &http.Client{Transport: rt}, nil
}

// headerTransport adds headers to every request.
type headerTransport struct {
	next    http.RoundTripper
	headers http.Header
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for name, values := range t.headers {
		req.Header[name] = values
	}
	return t.next.RoundTrip(req)
}

// basicAuthTransport sends the user and password of a URL
// (http://user:pass@host) as basic authentication.
type basicAuthTransport struct {
	next       http.RoundTripper
	user, pass string
}

func (t *basicAuthTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.SetBasicAuth(t.user, t.pass)
	return t.next.RoundTrip(req)
}

// QueryError is a failed read: which figures, the query, the endpoint, and
// why, in one line.
type QueryError struct {
	Endpoint string
	// What names the figures being read ("cpu usage").
	What  string
	Query string
	Err   error
}

func (e *QueryError) Error() string {
	var np *NotPrometheusError
	if errors.As(e.Err, &np) {
		// The query does not matter: no query would be answered.
		return np.Error()
	}
	return fmt.Sprintf("prometheus %s: read %s: %s (query: %s)", e.Endpoint, e.What, oneLine(e.Err.Error()), shorten(e.Query, 400))
}

func (e *QueryError) Unwrap() error { return e.Err }

// oneLine folds a message onto one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// explain turns what the client library returned into the reason of a
// QueryError: the server's own message where there is one.
func (c *Client) explain(ctx context.Context, err error) error {
	var apiErr *v1.Error
	var np *NotPrometheusError
	switch {
	case errors.As(err, &np):
		return np
	case errors.As(err, &apiErr):
		msg := apiErr.Msg
		if d := detail(apiErr.Detail); d != "" {
			msg += ": " + d
		}
		if c.endpoint.Service != nil && strings.Contains(apiErr.Msg, "403") {
			msg += fmt.Sprintf(" (reading through the API server's service proxy needs get on services/proxy in namespace %s)", c.endpoint.Service.Namespace)
		}
		return fmt.Errorf("%s: %s", apiErr.Type, msg)
	case errors.Is(err, context.DeadlineExceeded):
		switch {
		case ctx.Err() != nil:
			return errors.New("timed out")
		case c.timeout > 0:
			return fmt.Errorf("no answer within %s (--%s)", c.timeout, FlagTimeout)
		}
		return fmt.Errorf("no answer within %s, the default bound of a request (--%s sets another)", c.bound, FlagTimeout)
	case errors.Is(err, context.Canceled):
		return errors.New("canceled")
	}
	var netErr net.Error
	var urlErr *url.Error
	if errors.As(err, &urlErr) || errors.As(err, &netErr) {
		return fmt.Errorf("cannot reach it: %w", unwrapURLError(err))
	}
	return err
}

// detail is the useful part of an error answer's body: a Kubernetes
// Status's message (from the service proxy), the error of a Prometheus
// envelope, or the first line of text.
func detail(body string) string {
	body = strings.TrimSpace(body)
	if body == "" {
		return ""
	}
	var s struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
		Error   string `json:"error"`
	}
	if json.Unmarshal([]byte(body), &s) == nil {
		if s.Message != "" {
			return s.Message
		}
		if s.Error != "" {
			return s.Error
		}
	}
	line, _, _ := strings.Cut(body, "\n")
	return shorten(strings.TrimSpace(line), 200)
}

func (c *Client) opts() []v1.Option {
	if c.timeout > 0 {
		return []v1.Option{v1.WithTimeout(c.timeout)}
	}
	return nil
}

// reqContext is the context of one request, retries included: ctx, within
// the client's bound.
func (c *Client) reqContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.bound)
}

// warned turns warnings into an error, or returns them when allowed.
func (c *Client) warned(what, query string, w v1.Warnings) ([]string, error) {
	if len(w) == 0 {
		return nil, nil
	}
	if !c.allowWarnings {
		return nil, &QueryError{
			Endpoint: c.endpoint.String(), What: what, Query: query,
			Err: fmt.Errorf("the server warned: %s (the data may be incomplete; --%s keeps it)", strings.Join(w, "; "), FlagAllowWarnings),
		}
	}
	out := make([]string, len(w))
	for i, s := range w {
		out[i] = fmt.Sprintf("%s: %s", what, oneLine(s))
	}
	return out, nil
}

// instant evaluates an instant query at t and returns its vector.
func (c *Client) instant(ctx context.Context, what, query string, t time.Time) (model.Vector, []string, error) {
	rctx, cancel := c.reqContext(ctx)
	defer cancel()
	v, w, _, err := c.api.Query(rctx, query, t, c.opts()...)
	if err != nil {
		return nil, nil, &QueryError{Endpoint: c.endpoint.String(), What: what, Query: query, Err: c.explain(ctx, err)}
	}
	warnings, err := c.warned(what, query, w)
	if err != nil {
		return nil, nil, err
	}
	switch v := v.(type) {
	case model.Vector:
		return v, warnings, nil
	case *model.Scalar:
		return model.Vector{{Metric: model.Metric{}, Value: v.Value, Timestamp: v.Timestamp}}, warnings, nil
	default:
		return nil, nil, &QueryError{Endpoint: c.endpoint.String(), What: what, Query: query, Err: fmt.Errorf("the answer is a %s, not an instant vector", typeName(v))}
	}
}

func typeName(v model.Value) string {
	if v == nil {
		return "nothing"
	}
	return v.Type().String()
}
