// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// watchWindow is the scale-down stabilization window of the watch scenario:
// short, so that the suite sees the whole hold, and a multiple of the sync
// period.
const watchWindow = 30 * time.Second

// TestWatch runs `explain --watch -o json` (the built binary, as a user
// would) through a scale-up, a load drop held by a 30 s scale-down window,
// and the scale-down, against the real controller. While the watch runs it
// records every replayed recommendation; once it has covered the window
// its history is observed, and the time it gives for the end of the hold
// must be the controller's scale-down to within one sync period (the watch
// and the controller sync at different phases) plus one second (the
// status's lastScaleTime has whole seconds). A plain explain run in
// another process during the hold reads the recorded history and must say
// the same, with provenance observed. SIGINT ends the watch with exit 0.
func TestWatch(t *testing.T) {
	// Beside the other top-level tests once TestAgreement (which takes an
	// APIService away for a while) is done: its namespaces are its own.
	t.Parallel()
	s := newScenario(t, "watch-held-scale-down")
	bin, err := pluginBinary()
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir() // the recorded history lives under it

	s.deploy("web", 2, map[string]string{annCPU: cpuIdle})
	busy := s.waitPods("web", 2)
	s.annotate(busy, map[string]string{annCPU: "500500u"})
	b := &autoscalingv2.HorizontalPodAutoscalerBehavior{
		ScaleUp:   &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr[int32](0)},
		ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr(int32(watchWindow / time.Second))},
	}
	s.createHPA(hpaFor("web", 1, 10, b, cpuUtilization(50)))

	w := startWatch(t, bin, cache, s.ns, "web")
	defer w.stop(t)

	// The scale-up: 2 pods at 100% → 4.
	s.settle("web", settleOptions{}, desired(4), metricUtilization(0, 50), samplesForAllPods(s))

	// The watch covers the window once it has replayed syncs for 30 s.
	s.poll("the watch's history to be observed", 2*watchWindow+time.Minute, func() error {
		d := w.latest()
		if d == nil {
			return errors.New("no replay yet")
		}
		if d.StateBefore.Provenance != explain.Observed {
			return fmt.Errorf("history provenance %q", d.StateBefore.Provenance)
		}
		return nil
	})

	// The load drop: every pod idle; the controller proposes 1 and holds 4
	// for the window.
	s.annotate(busy, map[string]string{annCPU: cpuIdle})
	var first, held time.Time
	s.poll("the watch to show the scale-down held", 2*time.Minute, func() error {
		d := w.latest()
		if d == nil || d.CurrentReplicas != 4 || d.DesiredReplicas != 4 {
			return errors.New("no replay of 4 held at 4 yet")
		}
		h := heldUntil(d)
		if h == nil {
			return errors.New("no hold in the latest replay")
		}
		first, held = time.Now(), *h
		return nil
	})
	t.Logf("the watch holds 4 until %s (%s from now); provenance %s", held.UTC().Format(time.RFC3339Nano),
		time.Until(held).Round(time.Millisecond), w.latest().StateBefore.Provenance)

	// Meanwhile, a plain explain in another process uses the recorded history.
	r := binaryWithCache(bin, cache)(explainArgs(s.ns, "web", env.kubeconfig))
	if r.code != 0 {
		t.Fatalf("explain exited %d: %s", r.code, r.stderr)
	}
	var plain explain.Decision
	if err := json.Unmarshal(r.stdout, &plain); err != nil {
		t.Fatalf("explain -o json: %v\n%s", err, r.stdout)
	}
	if plain.StateBefore.Provenance != explain.Observed {
		t.Errorf("a plain explain during the hold: history provenance %q, want %q (notes %q)",
			plain.StateBefore.Provenance, explain.Observed, plain.StateBefore.Notes)
	}
	var plainHeld time.Time
	if h := heldUntil(&plain); h != nil {
		plainHeld = *h
	} else if plain.DesiredReplicas == 4 {
		t.Errorf("a plain explain during the hold gives no heldUntil: %s", jsonString(plain.Normalization))
	}

	// The controller's scale-down.
	var scaled time.Time
	s.poll("the controller's scale-down", watchWindow+2*time.Minute, func() error {
		h, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(s.ns).Get(s.ctx, "web", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if h.Status.DesiredReplicas >= 4 || h.Status.LastScaleTime == nil {
			// Only a replay that still holds 4 speaks of this hold: once the
			// watch itself replays 4 → 1 (its syncs have their own phase, so
			// it can get there before the poll reads the controller's
			// status), its heldUntil is that of another hold (1 over the
			// metrics' 0, which minReplicas makes moot).
			if d := w.latest(); d != nil && d.DesiredReplicas == 4 && heldUntil(d) != nil {
				if h := *heldUntil(d); !h.Equal(held) {
					// Why the watch moved its hold (kept for a failure's
					// reading: its syncs have their own phase, so at the
					// load drop it can read a sample the controller did not).
					t.Logf("the watch moves the hold to %s: %s", h.UTC().Format(time.RFC3339Nano), d.Summary)
					held = h
				}
			}
			return fmt.Errorf("desiredReplicas %d", h.Status.DesiredReplicas)
		}
		scaled = h.Status.LastScaleTime.Time
		return nil
	})
	slack := syncPeriod + time.Second
	t.Logf("controller scaled down at %s; the watch said %s (%s before it happened, off by %s); a plain explain said %s",
		scaled.UTC().Format(time.RFC3339), held.UTC().Format(time.RFC3339Nano), scaled.Sub(first).Round(time.Second),
		held.Sub(scaled).Round(time.Millisecond), plainHeld.UTC().Format(time.RFC3339Nano))
	if d := held.Sub(scaled); d < -slack || d > slack {
		t.Errorf("the watch's heldUntil %s is %s from the controller's scale-down at %s (allowed: ±%s)",
			held.UTC().Format(time.RFC3339Nano), d, scaled.UTC().Format(time.RFC3339), slack)
	}
	if !plainHeld.IsZero() {
		if d := plainHeld.Sub(scaled); d < -slack || d > slack {
			t.Errorf("the plain explain's heldUntil %s is %s from the controller's scale-down at %s (allowed: ±%s)",
				plainHeld.UTC().Format(time.RFC3339Nano), d, scaled.UTC().Format(time.RFC3339), slack)
		}
	}
	if scaled.Sub(first) < 5*time.Second {
		t.Errorf("the watch showed the hold only %s before the scale-down", scaled.Sub(first))
	}

	if code := w.stop(t); code != 0 {
		t.Errorf("the watch ended with exit %d on SIGINT, want 0; stderr:\n%s", code, w.stderr.String())
	}
}

// heldUntil is the end of the stabilization hold a decision gives, if any.
func heldUntil(d *explain.Decision) *time.Time {
	if d == nil || d.Normalization == nil {
		return nil
	}
	return d.Normalization.Stabilization.HeldUntil
}

// binaryWithCache is binary(path) with the plugin's cache (where watches
// keep the history) in dir.
func binaryWithCache(path, dir string) runner {
	return func(args []string) runResult {
		var out, errb bytes.Buffer
		c := exec.Command(path, args...)
		c.Env = append(os.Environ(), "KUBECTL_HPA_CACHE="+dir)
		c.Stdout, c.Stderr = &out, &errb
		r := runResult{start: time.Now()}
		err := c.Run()
		r.end = time.Now()
		r.stdout, r.stderr = out.Bytes(), errb.Bytes()
		r.code = exitCode(err)
		return r
	}
}

// exitCode is the exit status of a finished command: 0, its own, or -1 when
// it could not run.
func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode()
	case err != nil:
		return -1
	}
	return 0
}

// watchRun is a running `explain --watch -o json`: the decisions it
// streamed, as they arrive.
type watchRun struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	mu     sync.Mutex
	last   *explain.Decision
	count  int
	done   chan struct{}
	code   int
	once   sync.Once
}

func startWatch(t *testing.T, bin, cache, ns, name string) *watchRun {
	t.Helper()
	w := &watchRun{done: make(chan struct{})}
	w.cmd = exec.Command(bin, "explain", name, "-n", ns, "--watch", "-o", "json",
		"--kubeconfig", env.kubeconfig, "--sync-period", syncPeriod.String())
	w.cmd.Env = append(os.Environ(), "KUBECTL_HPA_CACHE="+cache)
	w.cmd.Stderr = &w.stderr
	out, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(w.done)
		readDecisions(t, out, func(d *explain.Decision) {
			w.mu.Lock()
			w.last, w.count = d, w.count+1
			w.mu.Unlock()
		})
		w.code = exitCode(w.cmd.Wait())
	}()
	return w
}

// readDecisions reads a watch's -o json stream from out, calling each with
// every decision, until the stream ends; what follows a broken document
// is drained, so that the watch never blocks on a full pipe.
func readDecisions(t *testing.T, out io.Reader, each func(*explain.Decision)) {
	t.Helper()
	dec := json.NewDecoder(out)
	for {
		var d explain.Decision
		if err := dec.Decode(&d); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Logf("watch stream: %v", err)
			}
			_, _ = io.Copy(io.Discard, out)
			return
		}
		each(&d)
	}
}

// latest is the last decision the watch printed.
func (w *watchRun) latest() *explain.Decision {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// stop sends SIGINT (as Ctrl-C does) and returns the exit code.
func (w *watchRun) stop(t *testing.T) int {
	t.Helper()
	w.once.Do(func() {
		_ = w.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-w.done:
		case <-time.After(30 * time.Second):
			_ = w.cmd.Process.Kill()
			<-w.done
			t.Errorf("the watch did not end within 30 s of SIGINT")
		}
		w.mu.Lock()
		t.Logf("the watch printed %d decisions", w.count)
		w.mu.Unlock()
	})
	return w.code
}
