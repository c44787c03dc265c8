// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"sync"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/migrate"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/version"
)

// Factory builds every cluster client of a run from kubectl's connection
// flags, from one REST config, and counts the requests they make.
//
// The REST config fits a one-shot, read-mostly CLI: client-side throttling
// is off (client-go's default of 5 requests per second, burst 10, makes a
// many-HPA read crawl), so the API server's priority and fairness decides;
// its 429 answers are retried after their Retry-After by client-go, and
// the GETs answered 429, 502, 503 or 504 without one here
// (request_bound.go). --request-timeout bounds every request; without it,
// every request but the watches is bounded by DefaultRequestTimeout.
type Factory struct {
	// Getter is kubectl's ConfigFlags (--kubeconfig, --context, -n, ...).
	Getter genericclioptions.RESTClientGetter

	// NewGather and NewMigrate build the clients from the REST config.
	NewGather  func(*rest.Config) (*gather.Clients, error)
	NewMigrate func(*rest.Config) (*migrate.Clients, error)
	// GatherClients and MigrateClients, when set, are returned as they are
	// (tests inject fakes that need no kubeconfig).
	GatherClients  *gather.Clients
	MigrateClients *migrate.Clients
	// ContextFactories, when set, are the kubeconfig's contexts and the
	// factory of each (tests: fakes of many clusters).
	ContextFactories map[string]*Factory
	// Hint ends the error of a kubeconfig that cannot be loaded: what the
	// command reads and what to do instead.
	Hint string

	// bound replaces DefaultRequestTimeout (tests).
	bound time.Duration
	// contextName is the context of a factory of ContextFactories, or
	// the one ContextName read (once: a fleet asks for it per HPA).
	contextName string
	nameOnce    sync.Once

	once   sync.Once
	cfg    *rest.Config
	cfgErr error
	calls  gather.CallCounter
}

// NewFactory returns a factory over the connection flags.
func NewFactory(getter genericclioptions.RESTClientGetter) *Factory {
	return &Factory{Getter: getter, NewGather: gather.NewClients, NewMigrate: newMigrateClients, Hint: DefaultHint}
}

// DefaultHint is the Hint of explain and whatif.
const DefaultHint = "to explain saved objects instead, pass them with -f"

// RESTConfig returns the REST config of the run, with the request counter
// and without client-side throttling.
func (f *Factory) RESTConfig() (*rest.Config, error) {
	f.once.Do(func() {
		if f.Getter == nil {
			f.cfgErr = fmt.Errorf("no kubeconfig%s", f.hint())
			return
		}
		cfg, err := f.Getter.ToRESTConfig()
		if err != nil {
			f.cfgErr = fmt.Errorf("load the kubeconfig: %w%s", err, f.hint())
			return
		}
		cfg = rest.CopyConfig(cfg)
		// A negative QPS turns client-go's token bucket off.
		cfg.QPS, cfg.Burst = -1, 0
		// The bound is per request, in the transport, not the HTTP
		// client's Timeout, which would cut the watches too; with
		// --request-timeout (cfg.Timeout) the client's Timeout applies, as
		// in kubectl.
		bound := time.Duration(0)
		if cfg.Timeout == 0 {
			bound = f.bound
			if bound == 0 {
				bound = DefaultRequestTimeout
			}
		}
		cfg.Wrap(requestBound(bound))
		// Wrapped last, the counter sees each request once, whatever its
		// retries.
		cfg.Wrap(f.calls.Wrap)
		f.cfg = cfg
	})
	if f.cfgErr != nil {
		return nil, f.cfgErr
	}
	return rest.CopyConfig(f.cfg), nil
}

// Namespace is -n, or the kubeconfig context's namespace.
func (f *Factory) Namespace() (string, error) {
	ns, _, err := f.Getter.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return "", fmt.Errorf("load the kubeconfig: %w%s", err, f.hint())
	}
	return ns, nil
}

func (f *Factory) hint() string {
	if f.Hint == "" {
		return ""
	}
	return " (" + f.Hint + ")"
}

// Gather returns the read-only clients of explain and whatif. Audit logs
// name them kubectl-hpa/<version>.
func (f *Factory) Gather() (*gather.Clients, error) {
	if f.GatherClients != nil {
		if f.GatherClients.Calls == nil {
			f.GatherClients.Calls = &f.calls
		}
		return f.GatherClients, nil
	}
	cfg, err := f.RESTConfig()
	if err != nil {
		return nil, err
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "kubectl-hpa/" + version.Version
	}
	c, err := f.NewGather(cfg)
	if err != nil {
		return nil, err
	}
	c.Calls = &f.calls
	return c, nil
}

// Migrate returns the clients of migrate. Audit logs name them
// kubectl-hpa-migrate/<version>, apart from explain's reads.
func (f *Factory) Migrate() (*migrate.Clients, error) {
	if f.MigrateClients != nil {
		return f.MigrateClients, nil
	}
	cfg, err := f.RESTConfig()
	if err != nil {
		return nil, err
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "kubectl-hpa-migrate/" + version.Version
	}
	return f.NewMigrate(cfg)
}

// Kube returns a plain clientset (shell completion).
func (f *Factory) Kube() (kubernetes.Interface, error) {
	cfg, err := f.RESTConfig()
	if err != nil {
		return nil, err
	}
	return kubernetes.NewForConfig(cfg)
}

// ClusterID names the cluster for the history kept on disk: the API
// server's address.
func (f *Factory) ClusterID() string {
	if f.Getter == nil {
		return "unknown"
	}
	cfg, err := f.RESTConfig()
	if err != nil || cfg.Host == "" {
		return "unknown"
	}
	return cfg.Host
}

// ContextName is the kubeconfig context the clients use: --context, else
// the kubeconfig's current context ("" in a pod, with no kubeconfig).
func (f *Factory) ContextName() string {
	f.nameOnce.Do(func() {
		if f.contextName == "" {
			f.contextName = f.readContextName()
		}
	})
	return f.contextName
}

// readContextName reads the context ContextName returns.
func (f *Factory) readContextName() string {
	if f.Getter == nil {
		return ""
	}
	if cf, ok := f.Getter.(*genericclioptions.ConfigFlags); ok && cf.Context != nil && *cf.Context != "" {
		return *cf.Context
	}
	raw, err := f.Getter.ToRawKubeConfigLoader().RawConfig()
	if err != nil {
		return ""
	}
	return raw.CurrentContext
}

// Calls lists the requests made so far, as "VERB /path", sorted.
func (f *Factory) Calls() []string { return f.calls.Calls() }

// newMigrateClients builds migrate's clients. Discovery is cached in
// memory for the process.
func newMigrateClients(cfg *rest.Config) (*migrate.Clients, error) {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("create the Kubernetes client: %w", err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("create the dynamic client: %w", err)
	}
	disc := memory.NewMemCacheClient(kube.Discovery())
	mapper := restmapper.NewShortcutExpander(restmapper.NewDeferredDiscoveryRESTMapper(disc), disc, nil)
	return &migrate.Clients{Dynamic: dyn, Kube: kube, Mapper: mapper, Discovery: disc}, nil
}
