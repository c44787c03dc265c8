// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	metricsclient "k8s.io/metrics/pkg/client/clientset/versioned"
	"sigs.k8s.io/yaml"
)

// The test of many contexts reads two clusters: the suite's, and a second
// local control plane that hack/cluster/up.sh starts beside it (its own
// directory, every port moved by secondOffset, its Prometheus labelling
// every series cluster="e2e-two"), where run D of tune's proof runs the
// load pattern beside A and B. A third Prometheus, the central one, scrapes
// both clusters as a store of many clusters does (Thanos, Mimir, a central
// Prometheus): every series labelled with its cluster's context name.
const (
	// secondOffset moves the second cluster's ports: 17379 to 25259, none
	// of the faults phase's cluster (+10000) or the soak's (+20000), and
	// all below Linux's ephemeral ports (from 32768), where an outgoing
	// connection of the suite could hold one.
	secondOffset = 15000
	// Context names: the suite's cluster, the second one.
	ctxOne = "e2e-one"
	ctxTwo = "e2e-two"
	// secondEnv turns the second cluster off ("0"): the test of many
	// contexts then reads the suite's cluster only, under several names.
	secondEnv = "E2E_SECOND_CLUSTER"
)

// secondCluster is the second control plane and the central Prometheus.
// start runs in the background; wait returns once both answer (or why not).
type secondCluster struct {
	dir, kubeconfig string
	kube            kubernetes.Interface
	metrics         metricsclient.Interface
	// prometheus is its own Prometheus's URL, central the central one's.
	prometheus, central string

	done chan struct{}
	err  error
	// upTook is how long up.sh took.
	upTook time.Duration
}

func secondPort(base int) string { return strconv.Itoa(base + secondOffset) }

// kwok is the second cluster's kubelet-like server.
func (c *secondCluster) kwok() string { return "http://127.0.0.1:" + secondPort(10247) }

// startSecondCluster starts the second cluster and the central Prometheus
// in the background; both stop at the end of t. Nil when E2E_SECOND_CLUSTER
// is 0.
func startSecondCluster(t *testing.T) *secondCluster {
	t.Helper()
	if v := os.Getenv(secondEnv); v == "0" || v == "false" {
		t.Logf("%s=%s: the test of many contexts reads the suite's cluster only", secondEnv, v)
		return nil
	}
	dir := filepath.Join(env.repoRoot, "_output", "second-cluster")
	c := &secondCluster{dir: dir, kubeconfig: filepath.Join(dir, "kubeconfig"), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	central, stopCentral, err := startCentralPrometheus(t)
	if err != nil {
		cancel()
		c.err = err
		close(c.done)
		return c
	}
	c.central = central
	go func() {
		defer close(c.done)
		began := time.Now()
		cmd := exec.CommandContext(ctx, filepath.Join(env.repoRoot, "hack", "cluster", "up.sh"))
		cmd.Dir = env.repoRoot
		cmd.Env = append(os.Environ(), c.upEnv()...)
		out, err := cmd.CombinedOutput()
		c.upTook = time.Since(began)
		if err != nil {
			c.err = fmt.Errorf("the second cluster: hack/cluster/up.sh: %w\n%s", err, out)
			return
		}
		cfg, err := clientcmd.BuildConfigFromFlags("", c.kubeconfig)
		if err != nil {
			c.err = fmt.Errorf("the second cluster: %w", err)
			return
		}
		cfg.UserAgent = setupUserAgent
		cfg.QPS, cfg.Burst = 50, 100
		if c.kube, err = kubernetes.NewForConfig(cfg); err == nil {
			c.metrics, err = metricsclient.NewForConfig(cfg)
		}
		if err != nil {
			c.err = fmt.Errorf("the second cluster: %w", err)
			return
		}
		c.prometheus = "http://127.0.0.1:" + secondPort(9090)
	}()
	t.Cleanup(func() {
		cancel()
		<-c.done
		stopCentral()
		down := exec.Command(filepath.Join(env.repoRoot, "hack", "cluster", "down.sh"))
		down.Dir = env.repoRoot
		down.Env = append(os.Environ(), c.upEnv()...)
		if out, err := down.CombinedOutput(); err != nil {
			t.Logf("the second cluster: hack/cluster/down.sh: %v\n%s", err, out)
		}
	})
	return c
}

// upEnv is the environment of up.sh and down.sh for the second cluster.
// KEDA stays off; the version and the binaries are the suite's.
func (c *secondCluster) upEnv() []string {
	return []string{
		"KUBECTL_HPA_CLUSTER_DIR=" + c.dir,
		"KUBECTL_HPA_PORT_OFFSET=" + strconv.Itoa(secondOffset),
		"PROMETHEUS_PORT=" + secondPort(9090),
		"PROMETHEUS_CLUSTER=" + ctxTwo,
		"KEDA=",
	}
}

// wait waits until the second cluster is up, at most timeout.
func (c *secondCluster) wait(timeout time.Duration) error {
	select {
	case <-c.done:
	case <-time.After(timeout):
		return fmt.Errorf("the second cluster did not come up within %s", timeout)
	}
	return c.err
}

// startCentralPrometheus starts the e2e build of Prometheus (the one the
// suite's cluster runs) on a free port with the scrape jobs of
// hack/cluster/config/prometheus.yaml twice: once for the suite's cluster
// (cluster="e2e-one") and once for the second (cluster="e2e-two"). It
// returns its URL and a function that stops it; it also dies with the
// suite (Pdeathsig).
func startCentralPrometheus(t *testing.T) (string, func(), error) {
	t.Helper()
	bin, err := prometheusBinary()
	if err != nil {
		return "", nil, err
	}
	tmpl, err := os.ReadFile(filepath.Join(env.repoRoot, "hack", "cluster", "config", "prometheus.yaml"))
	if err != nil {
		return "", nil, err
	}
	var conf map[string]any
	var jobs []any
	for _, cl := range []struct{ name, kwok, adapter string }{
		{ctxOne, localPort(10247), localPort(6446)},
		{ctxTwo, secondPort(10247), secondPort(6446)},
	} {
		text := strings.NewReplacer("@SCRAPE_INTERVAL@", "5s", "@CLUSTER@", cl.name,
			"@KWOK_ADDRESS@", "127.0.0.1:"+cl.kwok, "@ADAPTER_CONTROL@", "127.0.0.1:"+cl.adapter).Replace(string(tmpl))
		var one map[string]any
		if err := yaml.Unmarshal([]byte(text), &one); err != nil {
			return "", nil, fmt.Errorf("hack/cluster/config/prometheus.yaml: %w", err)
		}
		sc, _ := one["scrape_configs"].([]any)
		if len(sc) == 0 {
			return "", nil, errors.New("hack/cluster/config/prometheus.yaml has no scrape_configs")
		}
		for _, j := range sc {
			m, _ := j.(map[string]any)
			m["job_name"] = fmt.Sprintf("%s-%v", cl.name, m["job_name"])
			jobs = append(jobs, m)
		}
		conf = one
	}
	conf["scrape_configs"] = jobs
	b, err := yaml.Marshal(conf)
	if err != nil {
		return "", nil, err
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yaml"), b, 0o644); err != nil {
		return "", nil, err
	}
	port, err := freePort()
	if err != nil {
		return "", nil, err
	}
	log, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yaml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address=127.0.0.1:"+port)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		log.Close()
		return "", nil, fmt.Errorf("the central Prometheus: %w", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		log.Close()
	}
	url := "http://127.0.0.1:" + port
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(url + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url, stop, nil
			}
		}
		select {
		case <-exited:
			out, _ := os.ReadFile(log.Name())
			return "", nil, fmt.Errorf("the central Prometheus exited:\n%s", out)
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, errors.New("the central Prometheus was not ready within 60 s")
		}
	}
}

// prometheusBinary is the Prometheus the suite's cluster runs, from the
// command line up.sh recorded for it.
func prometheusBinary() (string, error) {
	b, err := os.ReadFile(filepath.Join(env.clusterDir, "prometheus.cmd"))
	if err != nil {
		return "", fmt.Errorf("the suite's Prometheus: %w", err)
	}
	m := regexp.MustCompile(`(?m)^cmd_dir=(\S+)$`).FindSubmatch(b)
	if m == nil {
		return "", fmt.Errorf("%s names no cmd_dir", filepath.Join(env.clusterDir, "prometheus.cmd"))
	}
	dir := string(m[1])
	if strings.ContainsAny(dir, `\'"$`) {
		return "", fmt.Errorf("the suite's Prometheus: a directory in shell quotes (%s)", dir)
	}
	return filepath.Join(dir, "prometheus"), nil
}

// freePort is a loopback port nothing listens on.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	return port, err
}
