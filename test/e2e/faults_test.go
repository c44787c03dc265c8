// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/internal/faultproxy"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/migrate"
)

// The faults catalogue of docs/reliability.md on the real control plane:
// each subtest breaks one component of the shared local cluster
// (hack/cluster/fault.sh: SIGSTOP, or SIGKILL and a start with the same
// command line), runs the plugin's binary as a user would, and mends what it
// broke even when it fails. Because they break what every other test reads
// from, these tests run alone, in make test-e2e's phase "faults" (the main
// phase skips TestFaults*), one after the other.

// faultSlack is what a bounded command may take past its bound: the start
// of the process, discovery, the retries' last wait.
const faultSlack = 5 * time.Second

// cpuAtTarget is the usage of the pods whose HPA targets 50% of 500m: the
// controller keeps the count (250.5m, see cpuIdle's comment).
const cpuAtTarget = "250500u"

// cpuDouble is twice cpuAtTarget: the controller doubles the count.
const cpuDouble = "500500u"

// faultScript runs hack/cluster/fault.sh ACTION COMPONENT on the suite's
// cluster.
func faultScript(tb testing.TB, action, comp string) error {
	tb.Helper()
	start := time.Now()
	c := exec.Command(filepath.Join(env.repoRoot, "hack", "cluster", "fault.sh"), action, comp)
	c.Dir = env.repoRoot
	c.Env = append(os.Environ(), "KUBECTL_HPA_CLUSTER_DIR="+env.clusterDir)
	out, err := c.CombinedOutput()
	if err != nil {
		return fmt.Errorf("hack/cluster/fault.sh %s %s: %w\n%s", action, comp, err, out)
	}
	tb.Logf("fault.sh %s %s (%s)", action, comp, time.Since(start).Round(time.Millisecond))
	return nil
}

// componentState is fault.sh's state of comp: running, paused or stopped.
func componentState(comp string) string {
	c := exec.Command(filepath.Join(env.repoRoot, "hack", "cluster", "fault.sh"), "state", comp)
	c.Env = append(os.Environ(), "KUBECTL_HPA_CLUSTER_DIR="+env.clusterDir)
	out, _ := c.Output()
	return strings.TrimSpace(string(out))
}

// breakComponent pauses ("pause") or kills ("kill") comp, and has the test
// mend it at its end whatever happens.
func breakComponent(t *testing.T, action, comp string) {
	t.Helper()
	t.Cleanup(func() { mendComponent(t, comp) })
	if err := faultScript(t, action, comp); err != nil {
		t.Fatal(err)
	}
}

// mendComponent resumes comp if it is paused, starts it if it is stopped,
// and waits until it serves (fault.sh does).
func mendComponent(t *testing.T, comp string) {
	t.Helper()
	var err error
	switch st := componentState(comp); st {
	case "paused":
		err = faultScript(t, "resume", comp)
	case "stopped":
		err = faultScript(t, "start", comp)
	case "running":
	default:
		err = fmt.Errorf("fault.sh state %s: %q", comp, st)
	}
	if err != nil {
		t.Error(err)
	}
}

// oneErrorLine says why stderr is not one "error: " line, or "".
func oneErrorLine(stderr []byte) string {
	lines := strings.Split(strings.TrimRight(string(stderr), "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") {
		return fmt.Sprintf("want one line starting with \"error: \", got %d lines:\n%s", len(lines), stderr)
	}
	return ""
}

// took is how long a run took.
func (r runResult) took() time.Duration { return r.end.Sub(r.start) }

// decision decodes explain -o json's stdout.
func decision(t *testing.T, r runResult) *explain.Decision {
	t.Helper()
	var d explain.Decision
	if err := json.Unmarshal(r.stdout, &d); err != nil {
		t.Fatalf("explain -o json printed something that is not a decision: %v\n%.2000s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return &d
}

// replayKey is what two replays of the same sync share: the counts, the
// outcome, each metric's reading and proposal, the conditions and the
// agreement (not the instant, nor the conditions' times).
func replayKey(d *explain.Decision) string {
	type metric struct {
		Proposed    any
		Utilization any
		Value       string
		Error       any
	}
	type cond struct{ Type, Status, Reason string }
	k := struct {
		Current, Desired int32
		Outcome          string
		Metrics          []metric
		Conditions       []cond
		Agrees           bool
	}{Current: d.CurrentReplicas, Desired: d.DesiredReplicas, Outcome: string(d.Outcome), Agrees: d.Agreement.Agrees}
	for _, m := range d.Metrics {
		v := ""
		if m.Value != nil {
			v = m.Value.String()
		}
		k.Metrics = append(k.Metrics, metric{deref(m.ProposedReplicas), deref(m.Utilization), v, deref(m.Error)})
	}
	for _, c := range d.Conditions {
		k.Conditions = append(k.Conditions, cond{c.Type, c.Status, c.Reason})
	}
	return jsonString(k)
}

// condition is "Status/Reason" of a condition of a replay, or "".
func replayCondition(d *explain.Decision, typ string) string {
	for _, c := range d.Conditions {
		if c.Type == typ {
			return c.Status + "/" + c.Reason
		}
	}
	return ""
}

// hpaCondition is "Status/Reason" of a condition of the controller's
// status, or "" (also when the HPA cannot be read).
func (s *scenario) hpaCondition(name string, typ autoscalingv2.HorizontalPodAutoscalerConditionType) string {
	h, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(s.ns).Get(s.ctx, name, metav1.GetOptions{})
	if err != nil {
		return ""
	}
	return (&observed{HPA: h}).condition(typ)
}

// in is the scenario with the helpers failing subtest t.
func (s *scenario) in(t *testing.T) *scenario {
	t.Helper()
	c := *s
	c.t = t
	return &c
}

// active waits until the controller reads HPA NAME's metric and keeps
// desired replicas: ScalingActive True, desired == want.
func (s *scenario) active(name string, want int32) {
	s.t.Helper()
	s.poll(fmt.Sprintf("HPA %s active at %d", name, want), 3*time.Minute, func() error {
		h, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(s.ns).Get(s.ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		o := &observed{HPA: h}
		if c := o.condition(autoscalingv2.ScalingActive); c != "True/ValidMetricFound" || h.Status.DesiredReplicas != want || h.Status.CurrentReplicas != want {
			return fmt.Errorf("ScalingActive %s, desired %d, current %d", c, h.Status.DesiredReplicas, h.Status.CurrentReplicas)
		}
		return nil
	})
}

// writeKubeconfig writes a copy of the suite's kubeconfig changed by edit.
func writeKubeconfig(t *testing.T, edit func(*clientcmdapi.Config)) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	edit(cfg)
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFaults runs the faults catalogue's rows that need the real control
// plane, one subtest per row, in one namespace whose HPAs are all created
// first, so that the controller brings them up while the first rows run.
func TestFaults(t *testing.T) {
	bin, err := pluginBinary()
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	run := func(args ...string) runResult { return binaryWithCache(bin, cache)(args) }
	s := newScenario(t, "faults")
	for _, name := range []string{"web", "watch", "kcm", "stale", "prom"} {
		s.deploy(name, 2, map[string]string{annCPU: cpuAtTarget})
		s.createHPA(hpaFor(name, 1, 10, noWindows(), cpuUtilization(50)))
	}
	m := newScenario(t, "faults-migrate")
	m.kubectl(webManifest(m.ns, 3, cpuAtTarget), "apply", "--server-side", "--field-manager=mine", "-f", "-")
	m.createHPA(hpaFor("web", 1, 10, noWindows(), cpuUtilization(50)))
	mp := newScenario(t, "faults-migrate-pause")
	mp.kubectl(webManifest(mp.ns, 3, cpuAtTarget), "apply", "--server-side", "--field-manager=mine", "-f", "-")
	mp.createHPA(hpaFor("web", 1, 10, noWindows(), cpuUtilization(50)))
	explainWeb := func(extra ...string) runResult {
		return run(append([]string{"explain", "web", "-n", s.ns, "--kubeconfig", env.kubeconfig}, extra...)...)
	}

	t.Run("api-server-paused", func(t *testing.T) {
		breakComponent(t, "pause", "kube-apiserver")
		r := explainWeb("--request-timeout", "5s")
		gaveUpInOneLine(t, "API server paused, --request-timeout 5s", r, 5*time.Second)
		// Without the flag the default bound (30 s) applies; a paused
		// server accepts the connection (the kernel's backlog) and never
		// completes the TLS handshake, whose own timeout (10 s, client-go's
		// transport) ends the request first.
		r = explainWeb()
		gaveUpInOneLine(t, "API server paused, the default bound", r, 30*time.Second)
		if !bytes.Contains(r.stderr, []byte("TLS handshake timeout")) && !bytes.Contains(r.stderr, []byte("within 30s, the default bound")) {
			t.Errorf("the error names neither the handshake's timeout nor the default bound: %s", r.stderr)
		}
		mendComponent(t, "kube-apiserver")
		if r := explainWeb(); r.code != 0 {
			t.Errorf("explain after the API server resumed: exit %d: %s", r.code, r.stderr)
		}
	})

	t.Run("etcd-paused", func(t *testing.T) {
		breakComponent(t, "pause", "etcd")
		r := explainWeb("--request-timeout", "5s")
		t.Logf("etcd paused, --request-timeout 5s: exit %d after %s: %s", r.code, r.took().Round(time.Millisecond), r.stderr)
		// The API server serves a GET of one object from etcd, not from
		// its watch cache: the read waits for etcd until the bound.
		if r.code != 1 || r.took() > 5*time.Second+faultSlack {
			t.Errorf("explain with etcd paused: exit %d after %s, want 1 within 5s + %s", r.code, r.took(), faultSlack)
		}
		if why := oneErrorLine(r.stderr); why != "" {
			t.Error(why)
		}
		mendComponent(t, "etcd")
		si := s.in(t)
		si.poll("explain after etcd resumed", time.Minute, func() error {
			if r := explainWeb("--request-timeout", "5s"); r.code != 0 {
				return fmt.Errorf("exit %d: %s", r.code, r.stderr)
			}
			return nil
		})
	})

	t.Run("rbac-minus-one-rule", func(t *testing.T) {
		// explain needs the HPA; migrate's plan the workload and the
		// namespace's HPAs.
		faultsRBAC(s.in(t), run, rbacCase{file: "rbac.yaml", args: []string{"explain", "web", "-n", s.ns}, required: func(e *auditEvent) bool {
			return e.Verb == "get" && strings.Contains(e.RequestURI, "/horizontalpodautoscalers/")
		}})
		faultsRBAC(s.in(t), run, rbacCase{file: "rbac-migrate.yaml", args: []string{"migrate", "deployment/web", "-n", s.ns}, required: func(e *auditEvent) bool {
			return (e.Verb == "get" && strings.Contains(e.RequestURI, "/deployments/")) || (e.Verb == "list" && strings.Contains(e.RequestURI, "/horizontalpodautoscalers"))
		}})
	})

	t.Run("migrate-killed-and-rerun", func(t *testing.T) { faultsMigrateKilled(m.in(t), bin, cache) })

	t.Run("migrate-through-api-server-pause", func(t *testing.T) { faultsMigratePaused(mp.in(t), bin, cache) })

	t.Run("watch-through-api-server-pause-and-restart", func(t *testing.T) {
		si := s.in(t)
		si.active("watch", 2)
		w := startWatch(t, bin, cache, s.ns, "watch")
		defer w.stop(t)
		count := func() int {
			w.mu.Lock()
			defer w.mu.Unlock()
			return w.count
		}
		more := func(what string, after int) {
			si.poll(what, 90*time.Second, func() error {
				if n := count(); n <= after {
					return fmt.Errorf("%d decisions, none new", n)
				}
				return nil
			})
		}
		more("the watch's first decision", 0)
		breakComponent(t, "pause", "kube-apiserver")
		time.Sleep(10 * time.Second)
		n := count()
		mendComponent(t, "kube-apiserver")
		more("a decision after the API server resumed", n)
		if err := faultScript(t, "kill", "kube-apiserver"); err != nil {
			t.Fatal(err)
		}
		n = count()
		mendComponent(t, "kube-apiserver")
		more("a decision after the API server started again", n)
		// The load doubles: the controller scales 2 → 4, and the watch,
		// through the restarted server, replays 4.
		si.annotate(si.waitPods("watch", 2), map[string]string{annCPU: cpuDouble})
		si.poll("the watch to replay the controller's 4", 2*time.Minute, func() error {
			d := w.latest()
			if d == nil {
				return errors.New("no replay")
			}
			if d.CurrentReplicas != 4 || d.DesiredReplicas != 4 {
				return fmt.Errorf("the latest replay: %d → %d", d.CurrentReplicas, d.DesiredReplicas)
			}
			return nil
		})
		if code := w.stop(t); code != 0 {
			t.Errorf("the watch ended with exit %d on SIGINT, want 0; stderr:\n%s", code, w.stderr.String())
		}
		t.Logf("the watch's stderr:\n%s", w.stderr.String())
	})

	t.Run("metrics-server-paused", func(t *testing.T) {
		si := s.in(t)
		si.active("web", 2)
		breakComponent(t, "pause", "metrics-server")
		// The controller's own read fails once the aggregator gives up on
		// the paused backend; the replay then fails the same way.
		si.poll("the controller's ScalingActive False", 2*time.Minute, func() error {
			if c := si.hpaCondition("web", autoscalingv2.ScalingActive); c != "False/FailedGetResourceMetric" {
				return fmt.Errorf("ScalingActive %s", c)
			}
			return nil
		})
		r := explainWeb("-o", "json", "--request-timeout", "5s")
		t.Logf("explain with metrics-server paused: exit %d after %s", r.code, r.took().Round(time.Millisecond))
		if r.code != 0 || r.took() > 5*time.Second+faultSlack {
			t.Fatalf("exit %d after %s, want 0 within 5s + %s; stderr: %s", r.code, r.took(), faultSlack, r.stderr)
		}
		d := decision(t, r)
		if len(d.Metrics) != 1 || d.Metrics[0].Error == nil || d.Metrics[0].ErrorReason != "FailedGetResourceMetric" {
			t.Errorf("the cpu metric: %s, want failed with FailedGetResourceMetric", jsonString(d.Metrics))
		} else {
			t.Logf("the metric's error: %s", *d.Metrics[0].Error)
		}
		if c := replayCondition(d, "ScalingActive"); c != "False/FailedGetResourceMetric" {
			t.Errorf("the replay's ScalingActive is %q, the controller's False/FailedGetResourceMetric", c)
		}
		if d.DesiredReplicas != 2 {
			t.Errorf("the replay's desired replicas %d, want 2 (the controller keeps the count)", d.DesiredReplicas)
		}
		mendComponent(t, "metrics-server")
		si.active("web", 2)
		si.poll("the replay's metric to read again", time.Minute, func() error {
			r := explainWeb("-o", "json")
			if r.code != 0 {
				return fmt.Errorf("exit %d: %s", r.code, r.stderr)
			}
			if d := decision(t, r); len(d.Metrics) != 1 || d.Metrics[0].Error != nil {
				return fmt.Errorf("metrics %s", jsonString(d.Metrics))
			}
			return nil
		})
	})

	t.Run("controller-manager-killed", func(t *testing.T) {
		si := s.in(t)
		si.active("kcm", 2)
		breakComponent(t, "kill", "kube-controller-manager")
		si.annotate(si.waitPods("kcm", 2), map[string]string{annCPU: cpuDouble})
		// metrics-server reads the new usage within its resolution; the
		// replay then proposes 4 while the status still says 2.
		var d *explain.Decision
		si.poll("the replay of the doubled load", time.Minute, func() error {
			r := run("explain", "kcm", "-n", s.ns, "--kubeconfig", env.kubeconfig, "-o", "json")
			if r.code != 0 {
				return fmt.Errorf("exit %d: %s", r.code, r.stderr)
			}
			d = decision(t, r)
			if d.DesiredReplicas != 4 {
				return fmt.Errorf("desired %d", d.DesiredReplicas)
			}
			return nil
		})
		t.Logf("controller down: %s; agreement %s", d.Summary, jsonString(d.Agreement))
		// The replay and the status disagree on the count. Whether the
		// status is called stale already depends on when the controller
		// last wrote it; controller-manager-paused-stale-status checks that.
		found := false
		for _, df := range d.Agreement.Differences {
			found = found || (df.Field == "desiredReplicas" && df.Controller == "2" && df.Replay == "4")
		}
		if !d.Agreement.Checked || d.Agreement.Agrees || !found {
			t.Errorf("agreement with the stale status: %s, want checked, not agreeing, desiredReplicas 2 vs 4", jsonString(d.Agreement))
		}
		mendComponent(t, "kube-controller-manager")
		si.active("kcm", 4)
		si.poll("the replay to agree with the restarted controller", time.Minute, func() error {
			r := run("explain", "kcm", "-n", s.ns, "--kubeconfig", env.kubeconfig, "-o", "json")
			if r.code != 0 {
				return fmt.Errorf("exit %d: %s", r.code, r.stderr)
			}
			if d := decision(t, r); !d.Agreement.Agrees {
				return fmt.Errorf("agreement %s", jsonString(d.Agreement))
			}
			return nil
		})
	})

	t.Run("controller-manager-paused-stale-status", func(t *testing.T) { faultsStaleStatus(s.in(t), run) })

	t.Run("prometheus-paused-restarted-and-proxied", func(t *testing.T) { faultsPrometheus(s.in(t), run) })

	t.Run("api-server-behind-the-fault-proxy", func(t *testing.T) { faultsAPIProxy(s.in(t), run) })

	t.Run("clock-under-load", func(t *testing.T) { faultsClockUnderLoad(t, run) })
}

// faultsClockUnderLoad: the clock is inferred and read right on a loaded
// machine. A build of the plugin from an empty build cache runs beside
// (nice 0, every core) while a load that steps up and down every 25-35 s
// makes the controller rescale an HPA for six minutes: the controller's
// syncs drift by its slower work, its events' times are whole seconds, and
// metrics-server's scrapes are late by the load too. whatif --since over
// the period, without the clock's flags, must still infer the sync period
// (5 s) from the events and read metrics-server's window (10 s).
func faultsClockUnderLoad(t *testing.T, run func(...string) runResult) {
	t.Helper()
	s := newScenario(t, "clock-load")
	s.labelNamespace("kubectl-hpa.io/state-metrics", "true")
	s.deploy("web", 2, map[string]string{annCPU: "250500u"})
	// One pod per 15 s either way: metrics-server scrapes every 10 s, so a
	// rescale the load starts falls at the first sync after a scrape, one
	// phase of a 10 s grid each time; policies of 20 s kept every later
	// step there too (a run of 2026-12-02: 20 rescales, all at :x9-:x0, on
	// drawn holds). 15 s puts the steps of a run of rescales at both halves.
	fifteen := []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 1, PeriodSeconds: 15}}
	behavior := &autoscalingv2.HorizontalPodAutoscalerBehavior{
		ScaleUp:   &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr[int32](0), Policies: fifteen},
		ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr[int32](0), Policies: fifteen},
	}
	s.createHPA(hpaFor("web", 1, 10, behavior, cpuUtilization(50)))
	s.settle("web", settleOptions{historyHorizon: 10 * time.Second}, desired(2), metricUtilization(0, 50), samplesForAllPods(s))

	build := exec.Command("go", "build", "-o", os.DevNull, "./...")
	build.Dir = env.repoRoot
	build.Env = append(os.Environ(), "GOCACHE="+t.TempDir())
	if err := build.Start(); err != nil {
		t.Fatalf("start the build beside: %v", err)
	}
	defer func() {
		_ = build.Process.Kill()
		_ = build.Wait()
	}()

	r := &patternRun{s: s, load: clockLoad(t)}
	start := time.Now()
	ctx, cancel := context.WithCancel(s.ctx)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); r.drive(ctx, start) }()
	go func() { defer wg.Done(); r.watchScale(ctx) }()
	// Six minutes, not four: the event recorder combines a rescale to a
	// size it already wrote into its first event (count and last time),
	// so four minutes left as few as 11 distinct event times, whose fit to
	// a 5 s grid could be chance 1 time in 59: the estimate rightly kept
	// the default (2026-12-02). About 16 times settle it (the history
	// proof's 16 over 9 minutes: chance below 1 in 10^6).
	time.Sleep(6 * time.Minute)
	cancel()
	wg.Wait()
	end := time.Now()
	t.Logf("under load: %d rescales %v", len(r.rescales), r.rescales)
	if len(r.rescales) < 6 {
		t.Fatalf("the controller made %d rescales under load; the pattern should make at least 6", len(r.rescales))
	}
	out := run("whatif", "web", "-n", s.ns, "--kubeconfig", env.kubeconfig, "-o", "json",
		"--since", start.UTC().Format(time.RFC3339Nano), "--until", end.UTC().Format(time.RFC3339Nano),
		"--prometheus", prometheusURL())
	if out.code != 0 {
		t.Fatalf("whatif --since under load exited %d:\n%s", out.code, out.stderr)
	}
	var wi explain.WhatIf
	if err := json.Unmarshal(out.stdout, &wi); err != nil || wi.Backtest == nil {
		t.Fatalf("whatif --since under load printed no backtest (%v)", err)
	}
	checkClock(t, "whatif --since under load", wi.Backtest.Clock)
}

// clockLoad is the load of faultsClockUnderLoad: 1500m and 500m in turn,
// each held 25, 30 or 35 s, drawn from the run's seed (E2E_SEED), so that
// the rescales, and the events the recorder keeps of them, fall at both
// halves of a 10 s grid. The recorder folds a rescale it already wrote
// into its first event, leaving each kind's first and last time; a load
// that repeats every multiple of 10 s puts them all at one phase of a
// 10 s grid, where no estimate can tell a 5 s period from a 10 s one:
// CI's run of 2026-12-02 (a 25 s load, repeating every 50 s: 10 event
// times, all on a 10.04 s grid) and a warm run of the same day (25, 30 and
// 35 s in turn, repeating every 180 s: 12 times, all on a 10.03 s grid).
// Drawn, the holds repeat nothing.
func clockLoad(t *testing.T) func(time.Duration) int64 {
	t.Helper()
	r := offsetRand(t.Name())
	var ends []time.Duration
	var at time.Duration
	for at < 10*time.Minute {
		at += time.Duration(25+5*r.IntN(3)) * time.Second
		ends = append(ends, at)
	}
	t.Logf("the load's steps (E2E_SEED=%d): %v", proofSeed(), ends)
	return func(d time.Duration) int64 {
		i, _ := slices.BinarySearch(ends, d+1)
		if i%2 == 0 {
			return 1500
		}
		return 500
	}
}

// faultsStaleStatus: explain on HPA stale (2 pods at the target) says that
// its status is stale only once kube-controller-manager, paused, has missed
// the syncs that would have rewritten it. With the controller running and
// then paused past the bound, the load steady, the replay agrees with the
// old status and nothing is stale: an old status write alone is no sign.
// Once the load doubles, the status differs in its metrics and count and
// nothing shows a sync since the pause: the JSON says stale, the text view
// says it in its line, and --exit-code names stale-status. Resumed, the
// controller scales to 4 and the status is no longer stale.
func faultsStaleStatus(s *scenario, run func(...string) runResult) {
	t := s.t
	explainStale := func(extra ...string) runResult {
		return run(append([]string{"explain", "stale", "-n", s.ns, "--kubeconfig", env.kubeconfig, "--sync-period", syncPeriod.String()}, extra...)...)
	}
	replay := func() (*explain.Decision, error) {
		r := explainStale("-o", "json")
		if r.code != 0 {
			return nil, fmt.Errorf("exit %d: %s", r.code, r.stderr)
		}
		return decision(t, r), nil
	}
	s.active("stale", 2)

	// agreeing replays until the replay agrees with the status.
	agreeing := func(what string, timeout time.Duration) *explain.Decision {
		var d *explain.Decision
		s.poll(what, timeout, func() error {
			var err error
			if d, err = replay(); err != nil {
				return err
			}
			if !d.Agreement.Agrees {
				return fmt.Errorf("agreement %s", jsonString(d.Agreement))
			}
			return nil
		})
		return d
	}

	// 1. The controller syncs, the load holds still.
	d := agreeing("the replay to agree with the running controller", time.Minute)
	sc := d.Agreement.Sync
	if sc == nil {
		t.Fatalf("no sync check: the HPA's managedFields carry no status write of kube-controller-manager? agreement %s", jsonString(d.Agreement))
	}
	t.Logf("controller running: %s", jsonString(sc))
	if sc.Stale || sc.SyncPeriodAssumed || sc.SyncPeriod != syncPeriod.String() {
		t.Errorf("running controller, steady load: %s, want not stale, the sync period given (%s)", jsonString(sc), syncPeriod)
	}
	bound := time.Duration(sc.StaleAfterSeconds) * time.Second

	// 2. Paused past the bound, the load still steady: the status is old
	// and right. kwok's counters are read lazily, so a steady load's
	// sample can move by a millicore from one scrape to the next (the
	// controller, running, would write that; past the bound a status
	// whose metrics differ is rightly stale): the replay is taken at a
	// scrape whose sample equals the one written, within eighteen windows
	// (six were not enough in a cold make test at load average 10: the
	// sample stayed 2 millicores off the written one for the whole
	// minute; the wait ends at the first agreeing replay, at once on a
	// quiet machine).
	breakComponent(t, "pause", "kube-controller-manager")
	paused := time.Now()
	time.Sleep(bound + 2*syncPeriod)
	d = agreeing("a replay of the paused controller's steady load that agrees", 18*localResolution)
	t.Logf("paused %s, steady load: agreement %s", time.Since(paused).Round(time.Second), jsonString(d.Agreement))
	if sc := d.Agreement.Sync; !d.Agreement.Agrees || sc == nil || sc.Stale || time.Duration(sc.AgeSeconds)*time.Second < bound {
		t.Errorf("paused past the bound, steady load: agreement %s, want agreeing, not stale, a sync seen at least %s ago", jsonString(d.Agreement), bound)
	}

	// 3. The load doubles: the replay proposes 4, the status still says 2,
	// and nothing was written since the pause.
	s.annotate(s.waitPods("stale", 2), map[string]string{annCPU: cpuDouble})
	s.poll("the replay of the doubled load", time.Minute, func() error {
		var err error
		if d, err = replay(); err != nil {
			return err
		}
		if d.DesiredReplicas != 4 {
			return fmt.Errorf("desired %d", d.DesiredReplicas)
		}
		return nil
	})
	t.Logf("paused, load doubled: agreement %s", jsonString(d.Agreement))
	sc = d.Agreement.Sync
	switch {
	case sc == nil || !sc.Stale:
		t.Errorf("paused %s, load doubled: agreement %s, want stale", time.Since(paused).Round(time.Second), jsonString(d.Agreement))
	case sc.LastSeen.After(paused.Add(time.Second)):
		t.Errorf("a sign of a sync (%s at %s) after the pause at %s", sc.LastSeenFrom, sc.LastSeen, paused)
	}
	if !slices.Contains(d.Problems(), explain.ProblemStaleStatus) {
		t.Errorf("problems %q, want stale-status", d.Problems())
	}
	r := explainStale()
	if !bytes.Contains(r.stdout, []byte("Stale status:  the controller does not seem to be syncing this HPA: its status was last written at ")) {
		t.Errorf("the text view does not say the status is stale (exit %d):\n%s", r.code, r.stdout)
	}
	r = explainStale("--exit-code", "-o", "json")
	if r.code != 2 || !bytes.Contains(r.stderr, []byte("stale-status")) {
		t.Errorf("--exit-code: exit %d, stderr %q, want 2 naming stale-status", r.code, r.stderr)
	}

	// 4. Resumed, the controller catches up.
	mendComponent(t, "kube-controller-manager")
	s.active("stale", 4)
	s.poll("the replay to agree with the resumed controller, not stale", time.Minute, func() error {
		d, err := replay()
		if err != nil {
			return err
		}
		if !d.Agreement.Agrees || d.Agreement.Sync == nil || d.Agreement.Sync.Stale {
			return fmt.Errorf("agreement %s", jsonString(d.Agreement))
		}
		return nil
	})
}

// faultsPrometheus: whatif --since against a paused Prometheus ends in one
// line within --prometheus-timeout; after a kill and restart the read
// works; through the fault proxy (a 503 once, a reset, a 429 with
// Retry-After) the backtest is the one read directly, and a persistent 503
// ends in one line.
func faultsPrometheus(s *scenario, run func(...string) runResult) {
	t := s.t
	whatif := func(prom string, extra ...string) runResult {
		args := []string{"whatif", "prom", "-n", s.ns, "--kubeconfig", env.kubeconfig, "-o", "json", "--prometheus", prom, "--prometheus-timeout", "5s"}
		return run(append(args, extra...)...)
	}
	breakComponent(t, "pause", "prometheus")
	r := whatif(prometheusURL(), "--since", "2m")
	gaveUpInOneLine(t, "Prometheus paused", r, 5*time.Second)
	mendComponent(t, "prometheus")

	// A window in the past, so that every read of it has the same answer;
	// Prometheus needs a minute of scrapes of the pods before a backtest
	// over it has anything to replay.
	var window []string
	var direct runResult
	s.poll("a backtest over the last minute", 2*time.Minute, func() error {
		end := time.Now().Add(-10 * time.Second).UTC().Truncate(time.Second)
		window = []string{"--since", end.Add(-time.Minute).Format(time.RFC3339), "--until", end.Format(time.RFC3339)}
		if direct = whatif(prometheusURL(), window...); direct.code != 0 {
			return fmt.Errorf("exit %d: %s", direct.code, direct.stderr)
		}
		return nil
	})
	want := backtestKey(t, direct)
	p, err := faultproxy.New(prometheusURL(), faultproxy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, f := range []faultproxy.Fault{
		{Path: "/api/v1/*", Times: 1, Kind: faultproxy.Status, Status: 503},
		{Path: "/api/v1/*", Times: 1, Kind: faultproxy.Reset},
		{Path: "/api/v1/*", Times: 1, Kind: faultproxy.Status, Status: 429, RetryAfter: "1"},
	} {
		if err := p.SetFaults(f); err != nil {
			t.Fatal(err)
		}
		hits := len(p.Hits())
		r := whatif(p.URL, window...)
		what := faultName(f)
		t.Logf("Prometheus through the proxy, %s: exit %d after %s", what, r.code, r.took().Round(time.Millisecond))
		if r.code != 0 {
			t.Errorf("%s: exit %d: %s", what, r.code, r.stderr)
			continue
		}
		if n := len(p.Hits()) - hits; n != 1 {
			t.Errorf("%s: the fault hit %d requests", what, n)
		}
		if got := backtestKey(t, r); got != want {
			t.Errorf("%s: the backtest differs from the direct read's:\n%.1500s\nwant\n%.1500s", what, got, want)
		}
	}
	if err := p.SetFaults(faultproxy.Fault{Path: "/api/v1/*", Kind: faultproxy.Status, Status: 503}); err != nil {
		t.Fatal(err)
	}
	r = whatif(p.URL, window...)
	gaveUpInOneLine(t, "Prometheus through the proxy, 503 every time", r, 5*time.Second)

	// Killed and started again: its TSDB (the WAL replayed) answers the
	// next read.
	if err := faultScript(t, "restart", "prometheus"); err != nil {
		t.Fatal(err)
	}
	r = whatif(prometheusURL(), window...)
	if r.code != 0 {
		t.Fatalf("whatif over the window after Prometheus restarted: exit %d: %s", r.code, r.stderr)
	}
	if got := backtestKey(t, r); got != want {
		t.Logf("after the restart the backtest differs (the last scrapes before the kill may be lost):\n%.1500s\nbefore\n%.1500s", got, want)
	} else {
		t.Logf("after the restart: the same backtest")
	}
}

// faultName says what a fault of the proxy does, once.
func faultName(f faultproxy.Fault) string {
	switch {
	case f.Kind == faultproxy.Status && f.RetryAfter != "":
		return fmt.Sprintf("%d with Retry-After: %s, once", f.Status, f.RetryAfter)
	case f.Kind == faultproxy.Status:
		return fmt.Sprintf("%d, once", f.Status)
	}
	return f.Kind.String() + ", once"
}

// backtestKey is what two backtests of the same window share: the replays
// and the actual curve (not the source, which names the URL).
func backtestKey(t *testing.T, r runResult) string {
	t.Helper()
	var wi explain.WhatIf
	if err := json.Unmarshal(r.stdout, &wi); err != nil || wi.Backtest == nil {
		t.Fatalf("whatif --since printed no backtest (%v):\n%.2000s", err, r.stdout)
	}
	return jsonString([]any{wi.Backtest.Actual, wi.Backtest.AsIs, wi.Backtest.Start, wi.Backtest.End})
}

// faultsAPIProxy: explain through internal/faultproxy in front of the real
// API server (the proxy holds the admin's credentials; the plugin trusts
// its certificate) gives the replay it gives directly after a 503 once, a
// reset and a 429 with Retry-After, and one line for a 503 every time.
func faultsAPIProxy(s *scenario, run func(...string) runResult) {
	t := s.t
	s.active("web", 2)
	up, err := rest.TransportFor(env.cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := faultproxy.New(env.cfg.Host, faultproxy.Options{TLS: true, Upstream: up})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	kc := writeKubeconfig(t, func(c *clientcmdapi.Config) {
		for _, cl := range c.Clusters {
			cl.Server, cl.InsecureSkipTLSVerify, cl.CertificateAuthorityData, cl.CertificateAuthority = p.URL, true, nil, ""
		}
		for name := range c.AuthInfos {
			c.AuthInfos[name] = clientcmdapi.NewAuthInfo()
		}
	})
	explainVia := func(kubeconfig string) runResult {
		return run("explain", "web", "-n", s.ns, "--kubeconfig", kubeconfig, "-o", "json")
	}
	direct := explainVia(env.kubeconfig)
	if direct.code != 0 {
		t.Fatalf("explain: exit %d: %s", direct.code, direct.stderr)
	}
	want := replayKey(decision(t, direct))
	hpa := "/apis/autoscaling/v2/namespaces/" + s.ns + "/horizontalpodautoscalers/web"
	for _, f := range []faultproxy.Fault{
		{Path: hpa, Times: 1, Kind: faultproxy.Status, Status: 503},
		{Path: hpa, Times: 1, Kind: faultproxy.Reset},
		{Path: hpa, Times: 1, Kind: faultproxy.Status, Status: 429, RetryAfter: "1"},
	} {
		if err := p.SetFaults(f); err != nil {
			t.Fatal(err)
		}
		hits := len(p.Hits())
		r := explainVia(kc)
		what := faultName(f)
		t.Logf("API server through the proxy, %s: exit %d after %s", what, r.code, r.took().Round(time.Millisecond))
		if r.code != 0 {
			t.Errorf("%s: exit %d: %s", what, r.code, r.stderr)
			continue
		}
		if n := len(p.Hits()) - hits; n != 1 {
			t.Errorf("%s: the fault hit %d requests", what, n)
		}
		if got := replayKey(decision(t, r)); got != want {
			t.Errorf("%s: the replay differs from the direct one:\n%s\nwant\n%s", what, got, want)
		}
	}
	if err := p.SetFaults(faultproxy.Fault{Path: hpa, Kind: faultproxy.Status, Status: 503}); err != nil {
		t.Fatal(err)
	}
	r := explainVia(kc)
	t.Logf("API server through the proxy, 503 every time: exit %d after %s: %s", r.code, r.took().Round(time.Millisecond), r.stderr)
	if r.code != 1 || r.took() > 30*time.Second {
		t.Errorf("503 every time: exit %d after %s, want 1 within the bound", r.code, r.took())
	}
	if why := oneErrorLine(r.stderr); why != "" {
		t.Error(why)
	}
}

// rbacCase is a command run as an identity bound to one of the docs' RBAC
// files minus one rule at a time.
type rbacCase struct {
	file string
	args []string
	// required says whether a refused request is one the command cannot
	// do without.
	required func(e *auditEvent) bool
}

// faultsRBAC: the command as a ServiceAccount bound to the RBAC file minus
// one rule at a time (every rule of every document of the file, read from
// it: a ClusterRole bound in the scenario's namespace, a Role in its own):
// a refused required read ends in one line naming the verb and the
// resource and pointing at the file; any other refused read leaves the
// answer, exit 0, with the refusal said ("forbidden") and only warnings on
// stderr. Which requests were refused comes from the API server's audit
// log.
func faultsRBAC(s *scenario, run func(...string) runResult, c rbacCase) {
	t := s.t
	data, err := os.ReadFile(filepath.Join(env.repoRoot, "docs", c.file))
	if err != nil {
		t.Fatal(err)
	}
	var roles []rbacv1.ClusterRole
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var r rbacv1.ClusterRole
		if err := yaml.UnmarshalStrict([]byte(doc), &r); err != nil {
			t.Fatalf("docs/%s: %v", c.file, err)
		}
		if r.Kind != "ClusterRole" && (r.Kind != "Role" || r.Namespace == "") {
			t.Fatalf("docs/%s: a %s %q: want ClusterRoles and Roles with a namespace", c.file, r.Kind, r.Name)
		}
		roles = append(roles, r)
	}
	sa := "faults-" + strings.TrimSuffix(c.file, ".yaml")
	if _, err := env.kube.CoreV1().ServiceAccounts(s.ns).Create(s.ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: sa}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	tok, err := env.kube.CoreV1().ServiceAccounts(s.ns).CreateToken(s.ctx, sa, &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr(int64(3600))}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	kc := writeKubeconfig(t, func(c *clientcmdapi.Config) {
		for name := range c.AuthInfos {
			c.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: tok.Status.Token}
		}
	})
	user := "system:serviceaccount:" + s.ns + ":" + sa
	subject := []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: s.ns}}
	// Each document's role, under a name of this run, and where it binds.
	name := func(d int) string { return fmt.Sprintf("%s-faults-%d-%s", roles[d].Name, d, env.runID) }
	bindNS := func(d int) string {
		if roles[d].Kind == "Role" {
			return roles[d].Namespace
		}
		return s.ns
	}
	setRules := func(d int, rules []rbacv1.PolicyRule, create bool) error {
		meta := metav1.ObjectMeta{Name: name(d)}
		if roles[d].Kind == "Role" {
			ro := &rbacv1.Role{ObjectMeta: meta, Rules: rules}
			if create {
				_, err := env.kube.RbacV1().Roles(bindNS(d)).Create(s.ctx, ro, metav1.CreateOptions{})
				return err
			}
			cur, err := env.kube.RbacV1().Roles(bindNS(d)).Get(s.ctx, name(d), metav1.GetOptions{})
			if err != nil {
				return err
			}
			cur.Rules = rules
			_, err = env.kube.RbacV1().Roles(bindNS(d)).Update(s.ctx, cur, metav1.UpdateOptions{})
			return err
		}
		if create {
			_, err := env.kube.RbacV1().ClusterRoles().Create(s.ctx, &rbacv1.ClusterRole{ObjectMeta: meta, Rules: rules}, metav1.CreateOptions{})
			return err
		}
		cur, err := env.kube.RbacV1().ClusterRoles().Get(s.ctx, name(d), metav1.GetOptions{})
		if err != nil {
			return err
		}
		cur.Rules = rules
		_, err = env.kube.RbacV1().ClusterRoles().Update(s.ctx, cur, metav1.UpdateOptions{})
		return err
	}
	for d := range roles {
		if err := setRules(d, roles[d].Rules, true); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			bg := s.ctx
			if roles[d].Kind == "Role" {
				_ = env.kube.RbacV1().Roles(bindNS(d)).Delete(bg, name(d), metav1.DeleteOptions{})
				_ = env.kube.RbacV1().RoleBindings(bindNS(d)).Delete(bg, name(d), metav1.DeleteOptions{})
				return
			}
			_ = env.kube.RbacV1().ClusterRoles().Delete(bg, name(d), metav1.DeleteOptions{})
		})
		rb := &rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: name(d), Namespace: bindNS(d)},
			Subjects:   subject,
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: roles[d].Kind, Name: name(d)},
		}
		if _, err := env.kube.RbacV1().RoleBindings(rb.Namespace).Create(s.ctx, rb, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	type ruleAt struct{ doc, index int }
	var all []ruleAt
	for d, r := range roles {
		for i := range r.Rules {
			all = append(all, ruleAt{d, i})
		}
	}
	// grant sets the roles to the file's rules minus skip (nil: none), and
	// waits until the authorizer refuses what skip permits and allows again
	// the rule it granted back.
	var back *ruleAt
	grant := func(skip *ruleAt) {
		for d := range roles {
			var rules []rbacv1.PolicyRule
			for i, r := range roles[d].Rules {
				if skip == nil || skip.doc != d || skip.index != i {
					rules = append(rules, r)
				}
			}
			if err := setRules(d, rules, false); err != nil {
				t.Fatal(err)
			}
		}
		probe := func(r ruleAt, allowed bool) error {
			pr := roles[r.doc].Rules[r.index]
			attr := &authorizationv1.ResourceAttributes{Namespace: bindNS(r.doc), Verb: pr.Verbs[0], Group: pr.APIGroups[0], Resource: pr.Resources[0]}
			if attr.Group == "*" {
				attr.Group = "apps"
			}
			if res, sub, ok := strings.Cut(attr.Resource, "/"); ok {
				attr.Resource, attr.Subresource = res, sub
				if res == "*" {
					attr.Resource = "deployments"
				}
			}
			rv, err := env.kube.AuthorizationV1().SubjectAccessReviews().Create(s.ctx, &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
				User: user, Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + s.ns, "system:authenticated"}, ResourceAttributes: attr,
			}}, metav1.CreateOptions{})
			if err != nil {
				return err
			}
			if rv.Status.Allowed != allowed {
				return fmt.Errorf("%s %s/%s allowed=%v", attr.Verb, attr.Group, attr.Resource, rv.Status.Allowed)
			}
			return nil
		}
		s.poll("RBAC", 30*time.Second, func() error {
			if skip != nil {
				if err := probe(*skip, false); err != nil {
					return err
				}
			}
			if back != nil {
				return probe(*back, true)
			}
			return nil
		})
		back = skip
	}

	// The refusals of one run are the identity's 403s the audit log has
	// after it and did not have before (the API server writes each event
	// before it answers: --audit-log-mode=blocking).
	refusals := func() []auditEvent {
		evs, err := readAudit(user, func(e *auditEvent) bool {
			return e.User.Username == user && e.Stage == "ResponseComplete" && e.code() == 403
		})
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
	runAs := func(what string) (runResult, []auditEvent) {
		before := len(refusals())
		r := run(append(append([]string{}, c.args...), "--kubeconfig", kc)...)
		evs := refusals()[before:]
		t.Logf("%s: exit %d, %d refused; stderr: %s", what, r.code, len(evs), r.stderr)
		return r, evs
	}
	grant(nil)
	if r, refused := runAs("every rule"); r.code != 0 || len(refused) != 0 {
		t.Fatalf("with every rule of docs/%s: exit %d, refused %v: %s", c.file, r.code, refused, r.stderr)
	}
	for i := range all {
		ra := all[i]
		rule := roles[ra.doc].Rules[ra.index]
		what := fmt.Sprintf("without %s rule %d (%v %v %v)", roles[ra.doc].Name, ra.index+1, rule.APIGroups, rule.Resources, rule.Verbs)
		grant(&ra)
		r, refused := runAs(what)
		if len(refused) == 0 {
			if r.code != 0 {
				t.Errorf("%s: exit %d with no refusal: %s", what, r.code, r.stderr)
			}
			t.Logf("%s: no request the rule alone permits on this cluster", what)
			continue
		}
		var need *auditEvent
		for i := range refused {
			if c.required(&refused[i]) {
				need = &refused[i]
				break
			}
		}
		if need != nil {
			if why := oneErrorLine(r.stderr); r.code != 1 || why != "" {
				t.Errorf("%s: a required read refused (%s): exit %d, want 1; %s", what, need, r.code, why)
				continue
			}
			for _, want := range []string{fmt.Sprintf("cannot %s resource", need.Verb), "(docs/" + c.file + " lists "} {
				if !bytes.Contains(r.stderr, []byte(want)) {
					t.Errorf("%s: the error does not say %s: %s", what, want, r.stderr)
				}
			}
			continue
		}
		if r.code != 0 {
			t.Errorf("%s: an optional read refused (%s): exit %d, want 0: %s", what, refused[0].String(), r.code, r.stderr)
			continue
		}
		for _, l := range strings.Split(strings.TrimRight(string(r.stderr), "\n"), "\n") {
			if l != "" && !strings.HasPrefix(l, "Warning: ") {
				t.Errorf("%s: stderr line %q is not a warning", what, l)
			}
		}
		if !bytes.Contains(append(r.stdout, r.stderr...), []byte("forbidden")) {
			t.Errorf("%s: the refusal (%s) is said nowhere:\n%s\nstderr: %s", what, refused[0].String(), r.stdout, r.stderr)
		}
	}
}

// faultsMigrateKilled: migrate --apply, the binary, SIGKILLed at growing
// delays, each kill followed by the next run (a rerun from whatever the
// last one wrote), until a run completes; then a last run has nothing to
// do. A watch on the Deployment sees spec.replicas throughout: it never
// goes below the count it started from.
func faultsMigrateKilled(s *scenario, bin, cache string) {
	t := s.t
	const start = 3
	w := s.watchReplicas(deploymentsGVR, "web", "spec", "replicas")
	s.waitFor(w, start, 0, time.Minute)
	s.active("web", start)
	if n, owners := s.owners(deploymentsGVR, "web", "spec", "replicas"); strings.Join(owners, ",") != "mine (Apply)" {
		t.Fatalf("before: spec.replicas %d, owners %v; want only mine (Apply)", n, owners)
	}
	args := []string{"migrate", "deployment/web", "--apply", "-n", s.ns, "--kubeconfig", env.kubeconfig, "-o", "json"}
	completed := false
	// A whole run takes some tens of milliseconds here: the delays grow by
	// a few milliseconds, so that the kills land before, between and after
	// the steps' writes (the owners logged after each kill show where).
	for delay := time.Duration(0); delay < 10*time.Second; delay += max(3*time.Millisecond, delay/5) {
		c := exec.Command(bin, args...)
		c.Env = append(os.Environ(), "KUBECTL_HPA_CACHE="+cache)
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- c.Wait() }()
		select {
		case err := <-done:
			completed = true
			code := exitCode(err)
			var rep migrate.Report
			if jerr := json.Unmarshal(out.Bytes(), &rep); code != 0 || jerr != nil {
				t.Fatalf("migrate --apply, not killed (%s): exit %d (%v): %s", delay, code, jerr, errb.String())
			}
			t.Logf("run not killed within %s: outcome %s, steps %s", delay, rep.Outcome, stepActions(&rep))
			if rep.Outcome != migrate.OutcomeMigrated && rep.Outcome != migrate.OutcomeNothingToDo {
				t.Errorf("the completed run's outcome %q", rep.Outcome)
			}
		case <-time.After(delay):
			_ = c.Process.Signal(syscall.SIGKILL)
			err := <-done
			n, owners := s.owners(deploymentsGVR, "web", "spec", "replicas")
			t.Logf("SIGKILL after %s (%v): spec.replicas %d, owners %v", delay, err, n, owners)
		}
		if completed {
			break
		}
	}
	if !completed {
		t.Fatal("every run was killed before it completed")
	}
	last := s.migrateJSON("deployment/web", "--apply")
	if last.Outcome != migrate.OutcomeNothingToDo {
		t.Errorf("the last run: outcome %q, steps %q; want nothing to do", last.Outcome, stepActions(last))
	}
	n, owners := s.owners(deploymentsGVR, "web", "spec", "replicas")
	if n != start || strings.Join(owners, ",") != "kubectl-hpa-migrate (Apply)" {
		t.Errorf("after: spec.replicas %d, owners %v; want %d, kubectl-hpa-migrate (Apply) only", n, owners, start)
	}
	vs := w.values()
	t.Logf("replica counts seen: %v", vs)
	neverBelow(t, vs, start, 0)
}

// faultsMigratePaused: migrate --apply with the API server paused ends at
// its bound in one line, having written nothing; a run started while the
// server is paused and resumed 3 s later (before the TLS handshake's 10 s)
// completes; a last run has nothing to do; spec.replicas, watched
// throughout, never goes below 3.
func faultsMigratePaused(s *scenario, bin, cache string) {
	t := s.t
	const start = 3
	w := s.watchReplicas(deploymentsGVR, "web", "spec", "replicas")
	s.waitFor(w, start, 0, time.Minute)
	s.active("web", start)
	args := []string{"migrate", "deployment/web", "--apply", "-n", s.ns, "--kubeconfig", env.kubeconfig, "-o", "json"}
	run := binaryWithCache(bin, cache)

	breakComponent(t, "pause", "kube-apiserver")
	r := run(append(args, "--request-timeout", "5s"))
	gaveUpInOneLine(t, "migrate --apply --request-timeout 5s, API server paused", r, 5*time.Second)
	done := make(chan runResult, 1)
	go func() { done <- run(args) }()
	time.Sleep(3 * time.Second)
	mendComponent(t, "kube-apiserver")
	r = <-done
	t.Logf("migrate --apply started while the API server was paused, resumed 3 s later: exit %d after %s", r.code, r.took().Round(time.Millisecond))
	var rep migrate.Report
	if err := json.Unmarshal(r.stdout, &rep); r.code != 0 || err != nil {
		t.Fatalf("exit %d (%v): %s", r.code, err, r.stderr)
	}
	if rep.Outcome != migrate.OutcomeMigrated {
		t.Errorf("outcome %q, steps %q; want migrated", rep.Outcome, stepActions(&rep))
	}
	if last := s.migrateJSON("deployment/web", "--apply"); last.Outcome != migrate.OutcomeNothingToDo {
		t.Errorf("the last run: outcome %q, steps %q; want nothing to do", last.Outcome, stepActions(last))
	}
	vs := w.values()
	t.Logf("replica counts seen: %v", vs)
	neverBelow(t, vs, start, 0)
}

// TestKEDAFaults breaks KEDA's processes under a ScaledObject (the keda
// phase of make test-e2e runs it, with KEDA attached, as every *KEDA*
// test; it is not parallel, so it runs before the parallel KEDA tests
// start and never beside them):
//   - keda-operator paused: the adapter's reads wait on the operator, so
//     explain so/NAME ends at the request bound with the replay, exit 0:
//     the external metric failed, KEDA's reason "Error", the trigger's
//     error said;
//   - keda-adapter killed: the same at once (the aggregator answers 503);
//     started again: the next explain reads the metric (after the
//     adapter's first second, in which it may refuse a request as
//     anonymous while it loads the front proxy's CA).
func TestKEDAFaults(t *testing.T) {
	k := kedaScenarioAlone(t, "keda-faults")
	bin, err := pluginBinary()
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	k.set("/q", 20)
	k.start(1, map[string]any{
		"minReplicaCount": int64(1),
		"maxReplicaCount": int64(6),
		"triggers":        []any{k.metricsAPI("", "/q", "10", "")},
	}, nil)
	k.waitReplicas("active at 20 (target 10)", 2, 2*time.Minute)
	k.settleHPA(2)
	explainSO := func() (runResult, *kedaView) {
		args := []string{"explain", "scaledobject/worker", "-n", k.ns, "-o", "json", "--kubeconfig", env.kubeconfig, "--request-timeout", "5s"}
		r := binaryWithCache(bin, cache)(args)
		if r.code != 0 {
			return r, nil
		}
		v := &kedaView{}
		if err := json.Unmarshal(r.stdout, v); err != nil || v.KEDA == nil {
			t.Fatalf("explain scaledobject/worker -o json (%v):\n%.2000s", err, r.stdout)
		}
		return r, v
	}
	failedAsError := func(what string) {
		t.Helper()
		r, v := explainSO()
		t.Logf("%s: exit %d after %s; stderr: %s", what, r.code, r.took().Round(time.Millisecond), r.stderr)
		if r.code != 0 || r.took() > 5*time.Second+faultSlack {
			t.Fatalf("%s: exit %d after %s, want 0 within 5s + %s: %s", what, r.code, r.took(), faultSlack, r.stderr)
		}
		kd := v.KEDA
		t.Logf("%s: keda active=%v reason=%s: %s", what, kd.Active, kd.Reason, kd.Summary)
		if kd.Reason != "Error" || len(kd.Triggers) != 1 || kd.Triggers[0].Error == "" {
			t.Errorf("%s: keda reason %q, triggers %s; want Error with the trigger's error", what, kd.Reason, jsonString(kd.Triggers))
		}
		if v.DesiredReplicas == nil || *v.DesiredReplicas != 2 {
			t.Errorf("%s: desired replicas %s, want 2 (the HPA keeps the count on a failed metric)", what, i32(v.DesiredReplicas))
		}
	}
	recovers := func(what string) {
		t.Helper()
		k.poll(what, time.Minute, func() error {
			r, v := explainSO()
			if r.code != 0 {
				return fmt.Errorf("exit %d: %s", r.code, r.stderr)
			}
			if !v.KEDA.Active || v.KEDA.Reason == "Error" {
				return fmt.Errorf("keda active=%v reason=%s: %s", v.KEDA.Active, v.KEDA.Reason, jsonString(v.KEDA.Triggers))
			}
			return nil
		})
	}

	breakComponent(t, "pause", "keda-operator")
	failedAsError("keda-operator paused")
	mendComponent(t, "keda-operator")
	recovers("explain after keda-operator resumed")

	breakComponent(t, "kill", "keda-adapter")
	failedAsError("keda-adapter killed")
	mendComponent(t, "keda-adapter")
	recovers("explain after keda-adapter started again")
	k.settleHPA(2)
}

// gaveUpInOneLine checks that a run under a fault ended with exit 1 within
// bound (and faultSlack) and said so in one line; what names the case in
// the log and the errors.
func gaveUpInOneLine(t *testing.T, what string, r runResult, bound time.Duration) {
	t.Helper()
	t.Logf("%s: exit %d after %s: %s", what, r.code, r.took().Round(time.Millisecond), r.stderr)
	if r.code != 1 || r.took() > bound+faultSlack {
		t.Errorf("%s: exit %d after %s, want 1 within %s + %s", what, r.code, r.took(), bound, faultSlack)
	}
	if why := oneErrorLine(r.stderr); why != "" {
		t.Errorf("%s: %s", what, why)
	}
}
