// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

// Package e2e is the end-to-end agreement suite: the real HPA controller of the
// local control plane (hack/cluster, at the Kubernetes version KUBE_VERSION
// selects; default in hack/e2e-tools/lib.sh) decides on real metrics, and `kubectl-hpa
// explain` replays the same sync against the same cluster. Every scenario
// asserts that the replay agrees with the status the controller wrote, or,
// where the controller's hidden history makes that impossible, that the bound
// the plugin prints is correct. See README.md in this directory.
//
// Run it with `make test-e2e`, or `go test -tags e2e ./test/e2e/...` (the
// cluster is started, and then stopped, when it is not already running).
package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	metricsclient "k8s.io/metrics/pkg/client/clientset/versioned"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// setupUserAgent is the user agent of the suite's own client, so that the
// audit log tells the suite's setup requests apart from the plugin's
// in-process requests (which carry client-go's default, "e2e.test/...").
const setupUserAgent = "kubectl-hpa-e2e-setup"

// defaultParallel is how many scenarios run at once unless -parallel is
// given. The scenarios mostly wait for the controller and metrics-server, so
// more than GOMAXPROCS (go test's default) pays off; see README.md for the
// measurements.
const defaultParallel = 20

// env is the shared state TestMain prepares.
var env struct {
	repoRoot   string
	clusterDir string
	kubeconfig string
	auditLog   string
	// runID makes the namespaces and cluster-scoped names of this run unique,
	// so a reused cluster never sees leftovers of an earlier run.
	runID   string
	cfg     *rest.Config
	kube    kubernetes.Interface
	metrics metricsclient.Interface
	// minor is the API server's minor version (37 for v1.37.2), which is
	// the controller's too: scenarios whose answer differs between
	// controller versions expect that version's.
	minor int
}

func TestMain(m *testing.M) {
	flag.Parse()
	parallelSet := false
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "test.parallel" {
			parallelSet = true
		}
	})
	if !parallelSet {
		n := defaultParallel
		if v, err := strconv.Atoi(os.Getenv("E2E_PARALLEL")); err == nil && v > 0 {
			n = v
		}
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if err := locate(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	started := false
	if clusterReady() {
		// A running cluster of another version than KUBE_VERSION selects is
		// not used (up.sh --check says which and exits 1).
		if err := script("hack/cluster/up.sh", "--check"); err != nil {
			fmt.Fprintln(os.Stderr, "e2e: the running cluster is not the requested version:", err)
			return 1
		}
	} else {
		fmt.Fprintf(os.Stderr, "e2e: no ready cluster behind %s; starting one (hack/cluster/up.sh)\n", env.kubeconfig)
		// build.sh takes well under a second when the binaries are cached.
		if err := script("hack/e2e-tools/build.sh"); err != nil {
			fmt.Fprintln(os.Stderr, "e2e: building the cluster binaries:", err)
			return 1
		}
		started = true
		if err := script("hack/cluster/up.sh"); err != nil {
			fmt.Fprintln(os.Stderr, "e2e: starting the cluster:", err)
			return 1
		}
		if !clusterReady() {
			fmt.Fprintln(os.Stderr, "e2e: the cluster started but does not answer /readyz")
			stopCluster()
			return 1
		}
	}
	if started {
		defer stopCluster()
	}
	if err := connect(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	v, err := env.kube.Discovery().ServerVersion()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: read the server version:", err)
		return 1
	}
	pv, err := profile.Parse(v.GitVersion)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: the server version:", err)
		return 1
	}
	env.minor = pv.Minor
	fmt.Fprintf(os.Stderr, "e2e: Kubernetes %s at %s\n", v.GitVersion, env.cfg.Host)
	code := m.Run()
	if !outputSchemaVerdict() && code == 0 {
		code = 1
	}
	if binaryPath != "" {
		_ = os.RemoveAll(filepath.Dir(binaryPath))
	}
	return code
}

// locate finds the repository root (two levels up from this package) and
// the cluster's files.
func locate() error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	env.repoRoot = filepath.Clean(filepath.Join(wd, "..", ".."))
	if _, err := os.Stat(filepath.Join(env.repoRoot, "hack", "cluster", "up.sh")); err != nil {
		return fmt.Errorf("cannot find the repository root from %s: %w", wd, err)
	}
	env.clusterDir = os.Getenv("KUBECTL_HPA_CLUSTER_DIR")
	if env.clusterDir == "" {
		env.clusterDir = filepath.Join(env.repoRoot, "_output", "local-cluster")
	}
	env.kubeconfig = filepath.Join(env.clusterDir, "kubeconfig")
	env.auditLog = filepath.Join(env.clusterDir, "audit.log")
	env.runID = strconv.FormatInt(time.Now().Unix()%(36*36*36*36), 36)
	return nil
}

// clusterReady says whether the kubeconfig exists and its server answers
// /readyz with "ok".
func clusterReady() bool {
	cfg, err := clientcmd.BuildConfigFromFlags("", env.kubeconfig)
	if err != nil {
		return false
	}
	cfg.Timeout = 3 * time.Second
	cfg.UserAgent = setupUserAgent
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return false
	}
	body, err := kube.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(context.Background())
	return err == nil && strings.TrimSpace(string(body)) == "ok"
}

func connect() error {
	cfg, err := clientcmd.BuildConfigFromFlags("", env.kubeconfig)
	if err != nil {
		return fmt.Errorf("load %s: %w", env.kubeconfig, err)
	}
	cfg.UserAgent = setupUserAgent
	// Every scenario polls its HPA once a second; client-go's default of 5
	// requests per second would throttle the suite.
	cfg.QPS = 200
	cfg.Burst = 400
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	metrics, err := metricsclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	env.cfg = cfg
	env.kube = kube
	env.metrics = metrics
	return nil
}

// script runs a repository script with its output on stderr.
func script(rel string, args ...string) error {
	c := exec.Command(filepath.Join(env.repoRoot, rel), args...)
	c.Dir = env.repoRoot
	c.Stdout = os.Stderr
	c.Stderr = os.Stderr
	return c.Run()
}

func stopCluster() {
	fmt.Fprintln(os.Stderr, "e2e: stopping the cluster this run started (hack/cluster/down.sh)")
	if err := script("hack/cluster/down.sh"); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: down.sh:", err)
	}
}
