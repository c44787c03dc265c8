// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// soakEnv turns TestSoak on (make test-soak sets it); SOAK_DURATION and
// SOAK_RESTART_EVERY set its length and how often the control plane
// restarts; SOAK_REPORT is where its figures go (as Markdown).
const soakEnv = "E2E_SOAK"

// Load of the soak's pods against the HPA's target of 50% of 500m: the
// high phase scales up to the maximum, the low one down to the minimum.
const (
	soakHigh  = "400500u" // 80%
	soakLow   = "100500u" // 20%
	soakPhase = time.Minute
)

// soakRescale is one rescale the controller made (a new
// status.lastScaleTime) and whether the watch showed its count.
type soakRescale struct {
	at       time.Time
	from, to int32
	seen     bool
}

// soakDecision is what the soak keeps of each decision the watch printed.
type soakDecision struct {
	now, got         time.Time
	current, desired int32
}

// TestSoak runs `explain --watch -o json` (the built binary) for
// SOAK_DURATION against an HPA whose load alternates every minute between
// a level that scales it up to its maximum and one that scales it down to
// its minimum, and restarts the API server and then kube-controller-manager
// (kill and start, hack/cluster/fault.sh) every SOAK_RESTART_EVERY. It
// records the watch's resident memory every 5 s and every rescale the
// controller made (each new status.lastScaleTime), and fails if the watch
// missed one (printed no decision with the new count before the next
// rescale, or within 30 s for the last) or if its memory grew past half
// again its size after the first restart's recovery plus 20 MiB. make
// test-soak runs it on a cluster of its own (KUBECTL_HPA_CLUSTER_DIR,
// KUBECTL_HPA_PORT_OFFSET), beside the e2e one.
func TestSoak(t *testing.T) {
	if !envSet(soakEnv) {
		t.Skipf("%s unset: make test-soak runs the soak (SOAK_DURATION, default 1h)", soakEnv)
	}
	duration, err := time.ParseDuration(envOr("SOAK_DURATION", "1h"))
	if err != nil {
		t.Fatalf("SOAK_DURATION: %v", err)
	}
	every, err := time.ParseDuration(envOr("SOAK_RESTART_EVERY", "10m"))
	if err != nil || every <= 0 {
		t.Fatalf("SOAK_RESTART_EVERY: %v", err)
	}
	bin, err := pluginBinary()
	if err != nil {
		t.Fatal(err)
	}
	s := newScenario(t, "soak")
	s.deploy("web", 2, map[string]string{annCPU: soakHigh})
	s.createHPA(hpaFor("web", 1, 6, noWindows(), cpuUtilization(50)))

	// The watch, its decisions as they come.
	cmd := exec.Command(bin, "explain", "web", "-n", s.ns, "--watch", "-o", "json",
		"--kubeconfig", env.kubeconfig, "--sync-period", syncPeriod.String())
	cmd.Env = append(os.Environ(), "KUBECTL_HPA_CACHE="+t.TempDir())
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		mu        sync.Mutex
		decisions []soakDecision
		watchDone = make(chan struct{})
		watchCode int
	)
	go func() {
		defer close(watchDone)
		readDecisions(t, out, func(d *explain.Decision) {
			mu.Lock()
			decisions = append(decisions, soakDecision{now: d.Now, got: time.Now(), current: d.CurrentReplicas, desired: d.DesiredReplicas})
			mu.Unlock()
		})
		watchCode = exitCode(cmd.Wait())
	}()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-watchDone:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-watchDone
			t.Errorf("the watch did not end within 30 s of SIGINT")
		}
	}
	defer stop()

	type rssAt struct {
		at  time.Duration
		kib int64
	}
	var (
		rss       []rssAt
		rescales  []soakRescale
		restarts  []time.Duration
		lastScale time.Time
		lastCount int32
		high      = true
	)
	start := time.Now()
	nextRestart := start.Add(every)
	nextPhase := start.Add(soakPhase)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for i := 0; time.Since(start) < duration; i++ {
		<-tick.C
		now := time.Now()
		if i%5 == 0 {
			if kib, err := vmRSS(cmd.Process.Pid); err == nil {
				rss = append(rss, rssAt{now.Sub(start), kib})
			} else {
				t.Fatalf("the watch's memory: %v (did it exit? stderr: %s)", err, stderr.String())
			}
			// New pods start with the template's usage: every pod gets
			// the phase's.
			level := soakLow
			if high {
				level = soakHigh
			}
			if pods, err := s.pods("web"); err == nil {
				s.annotateQuiet(pods, level)
			}
		}
		if now.After(nextPhase) {
			high, nextPhase = !high, nextPhase.Add(soakPhase)
		}
		if h, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(s.ns).Get(s.ctx, "web", metav1.GetOptions{}); err == nil {
			if ls := h.Status.LastScaleTime; ls != nil && !ls.Time.Equal(lastScale) {
				rescales = append(rescales, soakRescale{at: ls.Time, from: lastCount, to: h.Status.DesiredReplicas})
				lastScale = ls.Time
			}
			lastCount = h.Status.CurrentReplicas
		}
		if now.After(nextRestart) {
			restarts = append(restarts, now.Sub(start))
			for _, c := range []string{"kube-apiserver", "kube-controller-manager"} {
				if err := faultScript(t, "restart", c); err != nil {
					t.Fatal(err)
				}
			}
			nextRestart = nextRestart.Add(every)
		}
	}
	// A last rescale needs its decision: 30 s more of the watch.
	time.Sleep(30 * time.Second)
	stop()
	if watchCode != 0 {
		t.Errorf("the watch ended with exit %d on SIGINT, want 0; stderr:\n%s", watchCode, stderr.String())
	}

	// Every rescale must show in a decision the watch printed after it
	// (the count as current replicas), before the next rescale.
	missed := 0
	for i := range rescales {
		r := &rescales[i]
		until := r.at.Add(30 * time.Second)
		if i+1 < len(rescales) {
			until = rescales[i+1].at.Add(time.Second)
		}
		for _, d := range decisions {
			if !d.now.Before(r.at.Add(-time.Second)) && !d.now.After(until) && d.current == r.to {
				r.seen = true
				break
			}
		}
		if !r.seen {
			missed++
			t.Errorf("the watch missed the controller's rescale %d → %d at %s (no decision with %d current replicas until %s)",
				r.from, r.to, r.at.Format(time.RFC3339), r.to, until.Format(time.RFC3339))
		}
	}
	if len(rescales) < 2 {
		t.Errorf("the controller rescaled %d times: the load pattern did not work", len(rescales))
	}

	// Memory: the first figure after the first restart has been absorbed
	// (the watch's caches hold the objects by then) is the reference.
	if len(rss) == 0 {
		t.Fatal("no memory figure")
	}
	ref := rss[0]
	for _, r := range rss {
		if len(restarts) > 0 && r.at >= restarts[0]+time.Minute {
			ref = r
			break
		}
	}
	first, last, peak := rss[0], rss[len(rss)-1], rss[0]
	for _, r := range rss {
		if r.kib > peak.kib {
			peak = r
		}
	}
	mib := func(k int64) string { return strconv.FormatFloat(float64(k)/1024, 'f', 1, 64) }
	if limit := ref.kib*3/2 + 20*1024; last.kib > limit {
		t.Errorf("the watch's memory grew from %s MiB (at %s) to %s MiB at the end (limit %s MiB)", mib(ref.kib), ref.at.Round(time.Second), mib(last.kib), mib(limit))
	}

	mu.Lock()
	n := len(decisions)
	mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "| soak (`make test-soak SOAK_DURATION=%s SOAK_RESTART_EVERY=%s`) | figure |\n| --- | --- |\n", duration, every)
	fmt.Fprintf(&b, "| run | %s, Kubernetes %s |\n", start.UTC().Format("2006-01-02 15:04 UTC"), kubeVersion())
	fmt.Fprintf(&b, "| control-plane restarts (API server, then kube-controller-manager, each killed and started again) | %d, at %s |\n", len(restarts), durations(restarts))
	fmt.Fprintf(&b, "| rescales by the controller | %d |\n", len(rescales))
	fmt.Fprintf(&b, "| rescales the watch showed / missed | %d / %d |\n", len(rescales)-missed, missed)
	fmt.Fprintf(&b, "| decisions the watch printed | %d |\n", n)
	fmt.Fprintf(&b, "| watch RSS first / after the first restart / last / max (MiB) | %s (at %s) / %s (at %s) / %s (at %s) / %s (at %s) |\n",
		mib(first.kib), first.at.Round(time.Second), mib(ref.kib), ref.at.Round(time.Second), mib(last.kib), last.at.Round(time.Second), mib(peak.kib), peak.at.Round(time.Second))
	var series []string
	for i, r := range rss {
		if i%12 == 0 || i == len(rss)-1 {
			series = append(series, fmt.Sprintf("%s %s", r.at.Round(time.Second), mib(r.kib)))
		}
	}
	fmt.Fprintf(&b, "| watch RSS each minute (MiB) | %s |\n", strings.Join(series, ", "))
	report := b.String()
	fmt.Print("\n" + report)
	if path := os.Getenv("SOAK_REPORT"); path != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
			_ = os.WriteFile(path, []byte(report), 0o644)
		}
	}
	t.Logf("the watch's stderr:\n%s", stderr.String())
}

// annotateQuiet sets the cpu usage of the pods, ignoring failures (a pod
// deleted meanwhile, the API server restarting): the next round sets it.
func (s *scenario) annotateQuiet(pods []corev1.Pod, level string) {
	patch := []byte(fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, annCPU, level))
	for _, p := range pods {
		if p.Annotations[annCPU] == level {
			continue
		}
		_, _ = env.kube.CoreV1().Pods(s.ns).Patch(s.ctx, p.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	}
}

// vmRSS is the resident memory of process pid in KiB.
func vmRSS(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		}
	}
	return 0, errors.New("no VmRSS line")
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func durations(ds []time.Duration) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Round(time.Second).String())
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, ", ")
}

func kubeVersion() string {
	v, err := env.kube.Discovery().ServerVersion()
	if err != nil {
		return "?"
	}
	return v.GitVersion
}
