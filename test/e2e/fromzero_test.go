// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// fromZero returns a scenario of a scale from zero with HPAScaleToZero
// (v1.37 and later): an HPA with minReplicas 0 and one Object or External
// metric (a Value or an AverageValue target of 10) whose value 0 lets the
// controller scale the Deployment 1 → 0 (ScaledToZero True). The value then
// becomes 35, and the plugin explains the sync at 0 replicas before the
// controller acts: 0 → 4 (ceil(35 / 10); for AverageValue the per-pod ratio
// divides by zero replicas, has no value, and the JSON says so). The status
// the controller writes at that sync must equal the replay's, the
// SuccessfulRescale event must say "New size: 4", and the text view of the
// same snapshot must word it without +Inf or a Go-printed selector.
func fromZero(kind autoscalingv2.MetricSourceType, average bool) func(*scenario) {
	return func(s *scenario) {
		t := s.t
		if env.minor < 37 {
			t.Skipf("HPAScaleToZero is off by default on v1.%d", env.minor)
		}
		var spec autoscalingv2.MetricSpec
		var write func(string)
		switch kind {
		case autoscalingv2.ObjectMetricSourceType:
			spec = objectMetric("v1", "Service", "jobs", "backlog", "10", average)
			write = func(v string) { s.writeObjectMetric("services", "jobs", "backlog", v) }
		default:
			spec = externalMetric("queue", map[string]string{"q": "jobs"}, "10", average)
			write = func(v string) { s.writeExternal("queue", "q=jobs", v) }
		}
		write("0")
		s.deploy("worker", 1, map[string]string{annCPU: cpuIdle})
		s.createHPA(hpaFor("worker", 0, 5, noWindows(), spec))
		toZero := func() {
			s.settle("worker", settleOptions{historyHorizon: defaultPolicyPeriod}, desired(0),
				hasCondition(autoscalingv2.ScaledToZero, corev1.ConditionTrue, "ScaledToZero"))
		}
		toZero()

		dump := filepath.Join(t.TempDir(), "snapshot.yaml")
		var r *replayed
		for attempt := 1; ; attempt++ {
			write("35")
			r = s.replayArgs("worker", "--dump", dump)
			if r.D.CurrentReplicas == 0 {
				break
			}
			// The controller acted between the write and the read: the
			// sync from zero is gone. Back to zero, and again.
			if attempt == 3 {
				t.Fatalf("the controller scaled from zero before explain could read the objects, %d times", attempt)
			}
			t.Logf("attempt %d: the controller had already scaled to %d; back to zero", attempt, r.D.CurrentReplicas)
			write("0")
			toZero()
		}
		d := r.D
		if d.DesiredReplicas != 4 || !d.Rescale || d.Outcome != explain.OutcomeRescale {
			t.Errorf("replay from zero: desired %d, rescale %v, outcome %s; want 4, a rescale", d.DesiredReplicas, d.Rescale, d.Outcome)
		}
		m := s.metricByIndex(d, 0)
		if got := s.proposed(m); got != 4 {
			t.Errorf("the metric proposes %d, want ceil(35 / 10) = 4", got)
		}
		switch u := m.Usage; {
		case u == nil:
			t.Fatalf("the metric has no usage: %s", jsonString(m))
		case average && (u.Ratio.Finite() || u.RatioUndefined != explain.RatioFromZero || m.Tolerance == nil || m.Tolerance.Ratio.Finite()):
			t.Errorf("per-pod usage at 0 replicas %s, tolerance %s: want no ratio (null, %s)", jsonString(u), jsonString(m.Tolerance), explain.RatioFromZero)
		case !average && (float64(u.Ratio) != 3.5 || u.RatioUndefined != ""):
			t.Errorf("value usage %s: want the ratio 35 / 10 = 3.5", jsonString(u))
		}

		// The controller's write of the sync from zero.
		st := s.nextStatus("worker", r.HPA.ResourceVersion, 3*syncPeriod)
		t.Logf("the controller's sync from zero wrote desiredReplicas %d, currentMetrics %s", st.DesiredReplicas, jsonString(st.CurrentMetrics))
		if diffs := compareStatus(d, st); len(diffs) > 0 {
			t.Errorf("the controller's sync from zero wrote another status than the replay:\n  %s", joinDiffs(diffs))
		}
		s.waitEvent("worker", "SuccessfulRescale", "New size: 4; reason: ", 3*syncPeriod)

		// The text view of the same snapshot.
		out := inProcess([]string{"explain", "worker", "-n", s.ns, "-f", dump, "--now", d.Now.Format(time.RFC3339Nano)})
		if out.code != 0 {
			t.Fatalf("explain -f of the dump exited %d: %s", out.code, out.stderr)
		}
		text := string(out.stdout)
		for _, l := range strings.Split(text, "\n") {
			l = strings.TrimSpace(l)
			ours := strings.HasPrefix(l, "Summary:") || strings.HasPrefix(l, "Metric 1/1:") || strings.HasPrefix(l, "Ratio:") ||
				strings.HasPrefix(l, "Usage:") || strings.HasPrefix(l, "Recommendation:")
			if ours && (strings.Contains(l, "Inf") || strings.Contains(l, "LabelSelector{") || strings.Contains(l, "NaN")) {
				t.Errorf("text view line %q: want no infinite ratio and the selector as kubectl prints it", l)
			}
		}
		want := "from 0 replicas"
		if !average {
			want = "scale 0 → 4"
		}
		if !strings.Contains(text, want) {
			t.Errorf("the text view does not say %q:\n%s", want, text)
		}
		if envSet("E2E_KEEP") {
			keep := filepath.Join(os.TempDir(), fmt.Sprintf("kubectl-hpa-from-zero-%s-%v.yaml", strings.ToLower(string(kind)), average))
			if b, err := os.ReadFile(dump); err == nil && os.WriteFile(keep, b, 0o600) == nil {
				t.Logf("snapshot kept in %s (replay: explain worker -n %s -f %s --now %s)", keep, s.ns, keep, d.Now.Format(time.RFC3339Nano))
			}
		}
	}
}

// replayArgs is replay with extra arguments for explain.
func (s *scenario) replayArgs(name string, extra ...string) *replayed {
	s.t.Helper()
	run := func(args []string) runResult { return inProcess(append(args, extra...)) }
	return s.replay(name, run, "")
}

// nextStatus waits for the controller's first status write of HPA NAME
// after resourceVersion rv and returns that status.
func (s *scenario) nextStatus(name, rv string, timeout time.Duration) *autoscalingv2.HorizontalPodAutoscalerStatus {
	s.t.Helper()
	w, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(s.ns).Watch(s.ctx, metav1.ListOptions{
		FieldSelector: "metadata.name=" + name, ResourceVersion: rv,
	})
	if err != nil {
		s.t.Fatalf("watch HPA %s: %v", name, err)
	}
	defer w.Stop()
	deadline := time.After(timeout)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				s.t.Fatalf("the watch of HPA %s ended before the controller wrote", name)
			}
			if h, isHPA := ev.Object.(*autoscalingv2.HorizontalPodAutoscaler); isHPA && h.ResourceVersion != rv {
				return &h.Status
			}
		case <-deadline:
			s.t.Fatalf("the controller wrote no status of HPA %s within %v", name, timeout)
			return nil
		}
	}
}
