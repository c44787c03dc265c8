// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// TestWhatif checks `kubectl hpa whatif` against the real controller: the
// "after" decision of a usage override must be what the controller decides
// once the pods really use that much, and a projection must predict the
// sequence of rescales (and, within one sync period, their timing) that the
// controller then performs.
func TestWhatif(t *testing.T) {
	// Beside the other top-level tests once TestAgreement (which takes an
	// APIService away for a while) is done: its namespaces are its own.
	t.Parallel()
	for _, sc := range []struct {
		name string
		run  func(*scenario)
	}{
		{"whatif-cpu", whatifCPU},
		{"whatif-projection", whatifProjection},
	} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			began := time.Now()
			sc.run(newScenario(t, sc.name))
			t.Logf("scenario %s took %v", sc.name, time.Since(began).Round(time.Second))
		})
	}
}

// whatif runs the built plugin's whatif on HPA NAME and decodes its JSON.
func (s *scenario) whatif(name string, extra ...string) *explain.WhatIf {
	s.t.Helper()
	bin, err := pluginBinary()
	if err != nil {
		s.t.Fatal(err)
	}
	args := append([]string{
		"whatif", name, "-n", s.ns, "-o", "json", "--kubeconfig", env.kubeconfig,
		"--sync-period", syncPeriod.String(),
	}, extra...)
	r := binary(bin)(args)
	if r.code != 0 {
		s.t.Fatalf("kubectl-hpa %s exited %d\nstderr:\n%s", strings.Join(args, " "), r.code, r.stderr)
	}
	var w explain.WhatIf
	if err := json.Unmarshal(r.stdout, &w); err != nil {
		s.t.Fatalf("whatif -o json printed something that is not a WhatIf: %v\n%s", err, r.stdout)
	}
	if w.Before == nil || w.After == nil {
		s.t.Fatalf("whatif -o json lacks before or after:\n%s", r.stdout)
	}
	s.t.Logf("whatif %s: before %d → %d, after %d → %d; changes: %s", strings.Join(extra, " "),
		w.Before.CurrentReplicas, w.Before.DesiredReplicas, w.After.CurrentReplicas, w.After.DesiredReplicas, strings.Join(w.Changes, "; "))
	return &w
}

// rescale is one SuccessfulRescale event of the real controller.
type rescale struct {
	at   time.Time
	size int32
	msg  string
}

var newSizeRE = regexp.MustCompile(`^New size: (\d+);`)

// rescales lists the SuccessfulRescale events of HPA NAME, oldest first.
func (s *scenario) rescales(name string) []rescale {
	s.t.Helper()
	evs, err := env.kube.CoreV1().Events(s.ns).List(s.ctx, metav1.ListOptions{
		FieldSelector: "involvedObject.kind=HorizontalPodAutoscaler,involvedObject.name=" + name + ",reason=SuccessfulRescale",
	})
	if err != nil {
		s.t.Fatalf("list events: %v", err)
	}
	var out []rescale
	for _, e := range evs.Items {
		m := newSizeRE.FindStringSubmatch(e.Message)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		at := e.FirstTimestamp.Time
		if !e.EventTime.IsZero() {
			at = e.EventTime.Time
		}
		out = append(out, rescale{at: at, size: int32(n), msg: e.Message})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].at.Before(out[j].at) })
	return out
}

// waitRescales waits until the controller has rescaled HPA NAME to final
// after since, and returns the rescales after since.
func (s *scenario) waitRescales(name string, since time.Time, final int32, timeout time.Duration) []rescale {
	s.t.Helper()
	var got []rescale
	s.poll(fmt.Sprintf("rescales of %s to %d", name, final), timeout, func() error {
		got = got[:0]
		for _, r := range s.rescales(name) {
			// Event times have a resolution of one second.
			if !r.at.Before(since.Truncate(time.Second)) {
				got = append(got, r)
			}
		}
		if len(got) == 0 || got[len(got)-1].size != final {
			return fmt.Errorf("rescales so far: %v", sizes(got))
		}
		return nil
	})
	return got
}

func sizes(rs []rescale) []int32 {
	out := make([]int32, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.size)
	}
	return out
}

// whatifCPU: two pods at 100m of a 500m request (20%), target 30%: the
// controller keeps 2. whatif --cpu=200m predicts 40%, a ratio of 1.33 and 3
// replicas. Then the pods really use 200m. metrics-server turns kwok's
// counters into a rate over two scrapes, so for a sync or two the controller
// may see a value between 100m and 200m; every such value proposes 2 or 3
// (the ratio stays within 0.67–1.34), so the first rescale the controller
// makes is the decision at 200m, whichever sync makes it.
func whatifCPU(s *scenario) {
	t := s.t
	s.deploy("web", 2, map[string]string{annCPU: "100500u"})
	s.createHPA(hpaFor("web", 1, 10, noWindows(), cpuUtilization(30)))
	s.settle("web", settleOptions{historyHorizon: defaultPolicyPeriod}, desired(2), samplesForAllPods(s))

	w := s.whatif("web", "--cpu=200m")
	if w.Before.DesiredReplicas != 2 || w.Before.Rescale {
		t.Fatalf("before: desired %d (rescale %v); the controller settled at 2", w.Before.DesiredReplicas, w.Before.Rescale)
	}
	if !w.After.Rescale {
		t.Fatalf("after: no rescale predicted at 200m (%s)", w.After.Summary)
	}
	since := time.Now()
	s.annotate(s.waitPods("web", 2), map[string]string{annCPU: "200m"})
	got := s.waitRescales("web", since, w.After.DesiredReplicas, 2*time.Minute)
	first := got[0]
	t.Logf("controller: %s at %s; whatif predicted %d → %d (%s)", first.msg, first.at.Format(time.RFC3339), w.After.CurrentReplicas, w.After.DesiredReplicas, w.After.RescaleReason)
	if first.size != w.After.DesiredReplicas {
		t.Errorf("the controller's first rescale went to %d, whatif predicted %d", first.size, w.After.DesiredReplicas)
	}
	if want := fmt.Sprintf("New size: %d; reason: %s", w.After.DesiredReplicas, w.After.RescaleReason); first.msg != want {
		t.Errorf("rescale event %q, whatif predicted %q", first.msg, want)
	}
}

// whatifProjection: an External metric (AverageValue 10 per pod) drives a
// Deployment through a behavior with a Pods 2/15s scale-up policy and a 30s
// scale-down window followed by a Pods 3/15s policy. The value jumps from 10
// to 100 (1 → 10 replicas: four steps through the policy), then falls back
// to 10 (10 → 1: held by the window, then three steps). Before each change
// whatif projects it; the real controller's rescale events must follow the
// projected sizes exactly, the first at the projected time within one sync
// period and each later one the projected gap after the one before it.
func whatifProjection(s *scenario) {
	t := s.t
	const metric = "queue-depth"
	b := &autoscalingv2.HorizontalPodAutoscalerBehavior{
		ScaleUp: &autoscalingv2.HPAScalingRules{
			StabilizationWindowSeconds: ptr[int32](0),
			Policies:                   []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 2, PeriodSeconds: 15}},
		},
		ScaleDown: &autoscalingv2.HPAScalingRules{
			StabilizationWindowSeconds: ptr[int32](30),
			Policies:                   []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 3, PeriodSeconds: 15}},
		},
	}
	s.writeExternal(metric, "queue=jobs", "10")
	s.deploy("web", 1, map[string]string{annCPU: cpuIdle})
	s.createHPA(hpaFor("web", 1, 10, b, externalMetric(metric, map[string]string{"queue": "jobs"}, "10", true)))
	s.settle("web", settleOptions{historyHorizon: 35 * time.Second}, desired(1))

	phase := func(label, value string, final int32) {
		w := s.whatif("web", "--external", metric+"="+value, "--for", "2m")
		p := w.Projection
		if p == nil {
			t.Fatalf("%s: no projection in the output", label)
		}
		s.writeExternal(metric, "queue=jobs", value)
		got := s.waitRescales("web", p.Start, final, 3*time.Minute)
		var want []string
		for _, r := range p.Rescales {
			want = append(want, fmt.Sprintf("%d→%d at +%s", r.From, r.To, r.Offset))
		}
		var observed []string
		for _, r := range got {
			observed = append(observed, fmt.Sprintf("%d at +%s", r.size, r.at.Sub(p.Start).Round(time.Second)))
		}
		t.Logf("%s: projected %s; controller %s", label, strings.Join(want, ", "), strings.Join(observed, ", "))
		if len(got) != len(p.Rescales) {
			t.Fatalf("%s: the controller rescaled %d times (%v), the projection %d times", label, len(got), sizes(got), len(p.Rescales))
		}
		// The projection's syncs fall at its start and every sync period
		// after; the controller's first sync has its own phase (up to one
		// sync period off), and event times are whole seconds. After that
		// the controller syncs every sync period plus the time a sync
		// takes, so over a 15 s policy period its syncs drift later than
		// the projection's by a few of those durations (about 1.7 s each
		// on a loaded 2-core machine: rescales 20 s apart instead of 15 s):
		// each later rescale is compared with the one before it, the gap
		// at least the projected one and at most two sync periods longer.
		slack := syncPeriod + 2*time.Second
		for i, r := range got {
			pr := p.Rescales[i]
			if r.size != pr.To {
				t.Errorf("%s: rescale %d went to %d, projected %d", label, i+1, r.size, pr.To)
			}
			realOff := r.at.Sub(p.Start)
			projOff := pr.Time.Sub(p.Start)
			if i == 0 {
				if d := realOff - projOff; d < -slack || d > slack {
					t.Errorf("%s: rescale 1 (to %d) at +%s, projected +%s: more than one sync period apart", label, r.size, realOff.Round(time.Second), projOff)
				}
				continue
			}
			realGap := r.at.Sub(got[i-1].at)
			projGap := pr.Time.Sub(p.Rescales[i-1].Time)
			if d := realGap - projGap; d < -2*time.Second || d > 2*syncPeriod {
				t.Errorf("%s: rescale %d (to %d) came %s after rescale %d, projected %s after", label, i+1, r.size, realGap.Round(time.Second), i, projGap)
			}
		}
	}
	phase("scale-up", "100", 10)
	// Before the next projection, let the controller's history become
	// what whatif assumes: scale events older than the 15 s policy periods,
	// and every stored recommendation equal to 10.
	s.settle("web", settleOptions{historyHorizon: 35 * time.Second, timeout: 3 * time.Minute}, desired(10))
	phase("scale-down", "10", 1)
}
