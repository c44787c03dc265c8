// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// The recorded-load proof (issue 24): one load pattern of 8.5 minutes
// (rise, hold, fall, spike, fall) runs through the real controller twice
// at once, in two namespaces that differ only in the HPA's behavior. The
// load is a total shared by the ready pods (a load balancer's way), set
// on each pod as kwok's usage annotation every second; Prometheus records
// what kwok's simulated kubelets report. Then:
//   - the backtest of run A (whatif --since over Prometheus) replays the
//     controller as the HPA is: its rescales are the real ones of A, the
//     same sizes, each within one sync period and one scrape interval;
//   - its replay with B's behavior has the rescales B really made;
//   - explain --at a moment of A's scale-down hold gives the hold's real
//     end: the time A's first step down happened;
//   - tune over A's recording (directly and through the service proxy:
//     the same document) recommends a setting, and --emit patch prints
//     the recommendation's patch;
//   - tune's proof (unless E2E_TUNE_PROOF=0, which leaves out its 9.5
//     minutes; make test-tune-proof runs this test alone): the patch
//     is applied to a third namespace's HPA, which was A's, and the same
//     pattern runs through the real controller there. Its real pod-hours
//     must be those tune predicted within 10%, its time above the bound
//     tune's within 10% of the period, and it must cost less than A
//     without more time above the bound.
//
// Both behaviors move one pod at a time (a Pods policy of 1 per 18 s, a step every fourth sync: histBehavior), so
// every histRescale's size is 1 whatever a single sample says: metrics-server
// (which the controller reads) samples kwok's counters on its own phase,
// and one of its samples after each change of the load is a mix of the
// old and the new rate, which Prometheus's (at another phase) is not.
// The behaviors differ in their scale-down windows (60 s and 20 s).

const (
	// histResolution is metrics-server's resolution on the local cluster
	// (hack/cluster/up.sh); the replays read it off the PodMetrics.
	histResolution = 10 * time.Second
	// histTolerance is how far a replayed rescale may be from the real
	// one: a sync, and the second the watch of the real rescales may see
	// one late (it polls every 200 ms) or the replayed syncs sit off the
	// controller's (their times are inferred from whole-second event
	// times: within 0.7 s). Since the replay samples as metrics-server
	// does (the counters' rate over its window, at the phase of its
	// scrapes, read live), a step of the load between two scrapes mixes
	// into the same sample in the replay as in the controller; before
	// that the tolerance had to be a sync and a resolution (the runs of
	// 2026-11-27 and -28 measured up to 10.35 s).
	histTolerance = syncPeriod + time.Second
	// recordTolerance is how far a rescale the store recorded may be from
	// the real one: kube-state-metrics' series are scraped every 5 s and
	// read on the sync grid, so the store sees a change of spec.replicas up
	// to a scrape and a sync after it (measured 4.2-9.8 s, 2026-12-01).
	recordTolerance = syncPeriod + 5*time.Second + time.Second
	// noKSMTolerance is the same without kube-state-metrics: the pods from
	// their usage series (seen at their first store sample), the real
	// count from the HPA's events (whole seconds): a sync and a resolution
	// (measured up to 9.7 s, 2026-12-01).
	noKSMTolerance = syncPeriod + histResolution
)

// loadAt is the pattern's total CPU load in millicores, t after its start.
// The rise and the fall each last until both runs have settled on them,
// so that the next change meets them at rest.
func loadAt(t time.Duration) int64 {
	switch {
	case t < 30*time.Second:
		return 500 // 2 pods at 50%
	case t < fallAt:
		return 1500 // 6 pods
	case t < 310*time.Second:
		return 750 // 3 pods
	case t < 370*time.Second:
		return 1500 // a spike: 6 pods, if it lasted
	default:
		return 500
	}
}

const (
	// fallAt is when the load falls after the rise.
	fallAt = 150 * time.Second
	// patternLength is the pattern's length: the period replayed is it
	// and 15 s more. The last fall (from 370 s) leaves A, the slower, at
	// rest about 125 s later: its last step down (3 → 2, measured at
	// 493.5 s) must come well before the period's end, or
	// kube-state-metrics' 5 s scrapes may not have recorded it yet.
	patternLength = 510 * time.Second
	// histRequest is a pod's CPU request (app()), histBound the service
	// bound tune is given: 90% of it.
	histRequest = 500
	histBound   = 450
)

// histBehavior moves one pod per 18 s either way, with the scale-down
// window given: a step every fourth sync (20.1 s at the controller's 5 s
// period and its own work). That is longer than a new pod takes to have
// its first sample in metrics-server (two of its 10 s scrapes): at each
// step allowed, every pod of the last step reports, in the controller as
// in the replay, whose store sees a new pod some seconds earlier than
// metrics-server. Not 20 s: four syncs then come 80 ms after the period,
// and the controller stamps a rescale when its write returns, tens of
// milliseconds after the sync began; a slow write (a loaded machine) made
// B wait a fifth sync twice in a row (a local run: 25 s steps where the
// replay, which no recording tells the write's latency, stepped at 20 s).
func histBehavior(downWindow int32) *autoscalingv2.HorizontalPodAutoscalerBehavior {
	onePod := []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 1, PeriodSeconds: 18}}
	return &autoscalingv2.HorizontalPodAutoscalerBehavior{
		ScaleUp:   &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr[int32](0), Policies: onePod},
		ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr(downWindow), Policies: onePod},
	}
}

// histRescale is one change of a Deployment's spec.replicas, as seen.
type histRescale struct {
	At       time.Time
	From, To int32
}

func (r histRescale) String() string {
	return fmt.Sprintf("%s %d→%d", r.At.UTC().Format("15:04:05.0"), r.From, r.To)
}

// TestHistoryBacktest runs the proof; with -short it is skipped.
func TestHistoryBacktest(t *testing.T) {
	// Beside the other top-level tests once TestAgreement (which takes an
	// APIService away for a while) is done: its namespaces are its own.
	t.Parallel()
	if testing.Short() {
		t.Skip("the recorded-load proof runs the load pattern for 11 minutes")
	}
	if _, err := promQuery(`up`); err != nil {
		t.Fatalf("the local cluster's Prometheus does not answer (%v): hack/cluster/up.sh starts it", err)
	}
	// The second cluster of the test of many contexts comes up while
	// these namespaces are made ready.
	second := startSecondCluster(t)
	a, b := newScenario(t, "history-a"), newScenario(t, "history-b")
	runs := []*patternRun{{s: a, window: 60}, {s: b, window: 20}}
	all := runs
	// C has A's HPA until tune's recommendation is applied to it.
	var tuned *patternRun
	if v := os.Getenv("E2E_TUNE_PROOF"); v != "0" && v != "false" {
		tuned = &patternRun{s: newScenario(t, "history-c"), window: 60}
		all = append(all, tuned)
	}
	for _, r := range all {
		// kube-state-metrics' series of these namespaces (served by the
		// adapter, recorded by Prometheus: hack/cluster/README.md).
		r.s.labelNamespace("kubectl-hpa.io/state-metrics", "true")
	}
	for _, r := range all {
		r.s.deploy("web", 2, map[string]string{annCPU: "250500u"})
		h := hpaFor("web", 1, 10, histBehavior(r.window), cpuUtilization(50))
		if r != tuned {
			h.Labels = map[string]string{fleetLabel: env.runID}
		}
		r.s.createHPA(h)
	}
	// D: B's behavior in the second cluster, in a namespace of A's name, so
	// that a read of the wrong cluster's series would mix A's into D's.
	var runD *patternRun
	if second != nil {
		if err := second.wait(3 * time.Minute); err != nil {
			t.Errorf("the test of many contexts will have no second cluster: %v", err)
		} else {
			t.Logf("the second cluster up in %s; central Prometheus at %s", second.upTook.Round(100*time.Millisecond), second.central)
			runD = &patternRun{s: newScenarioIn(t, a.ns, second.kube, second.metrics, second.kwok()), window: 20}
			runD.s.labelNamespace("kubectl-hpa.io/state-metrics", "true")
			runD.s.deploy("web", 2, map[string]string{annCPU: "250500u"})
			h := hpaFor("web", 1, 10, histBehavior(runD.window), cpuUtilization(50))
			h.Labels = map[string]string{fleetLabel: env.runID}
			runD.s.createHPA(h)
			all = append(all, runD)
		}
	}
	for _, r := range all {
		r.s.settle("web", settleOptions{historyHorizon: 10 * time.Second}, desired(2), metricUtilization(0, 50), samplesForAllPods(r.s))
	}
	// Both runs start together, so that B is A with another behavior, at
	// a random offset from metrics-server's scrapes (real load does not
	// wait for them): a step of the load may fall anywhere between two.
	offsets := offsetRand(t.Name())
	start := atRandomOffset(t, a, offsets, "the load pattern of A and B")
	time.Sleep(time.Until(start))
	ctx, cancel := context.WithCancel(a.ctx)
	defer cancel()
	// metrics-server's samples of A, to hold the replay's own to.
	served := watchSamples(a, ctx.Done())
	var wg sync.WaitGroup
	driven := runs
	if runD != nil {
		driven = append(slices.Clone(runs), runD)
	}
	for _, r := range driven {
		wg.Add(2)
		go func() { defer wg.Done(); r.drive(ctx, start) }()
		go func() { defer wg.Done(); r.watchScale(ctx) }()
	}
	t.Logf("load pattern from %s for %s", start.UTC().Format(time.RFC3339), patternLength)
	select {
	case <-time.After(patternLength + 20*time.Second):
	case <-ctx.Done():
		t.Fatal(ctx.Err())
	}
	cancel()
	wg.Wait()
	end := start.Add(patternLength + 15*time.Second)
	for _, r := range runs {
		if r.err != nil {
			t.Fatalf("%s: %v", r.s.ns, r.err)
		}
		t.Logf("%s (scale-down window %ds): %v", r.s.ns, r.window, r.rescales)
	}
	if runD != nil {
		if runD.err != nil {
			t.Errorf("the second cluster's run D: %v", runD.err)
			runD = nil
		} else {
			t.Logf("the second cluster's %s (scale-down window %ds): %v", runD.s.ns, runD.window, runD.rescales)
		}
	}
	realA, realB := runs[0].rescales, runs[1].rescales
	if len(realA) < 8 {
		t.Fatalf("run A made %d rescales; the pattern should make at least 8", len(realA))
	}

	// Tune over A's recording; its recommendation goes to C, whose run of
	// the same pattern goes on while A's and B's replays are checked.
	promService := a.prometheusService()
	tuneDoc, tunedRun := tuneAndRun(t, a, promService, tuned, start, end, offsets)

	// The samples the replay works out of the store's counters, at
	// metrics-server's scrapes, against the ones it served.
	if med, p95, worst, n, worstAt := served.compareSamples(rawRecording(t, a, start, end)); n < 50 {
		t.Errorf("only %d of metrics-server's samples of A could be compared with the recording's", n)
	} else {
		line := sampleWords(med, p95, worst, n)
		t.Log(line)
		appendArtifact(t, "tune-proof.txt", line)
		appendArtifact(t, "tune-proof.txt", "the worst: "+worstAt)
		if med > 0.01 || p95 > 0.05 {
			t.Errorf("the recording's samples are not metrics-server's: %s", line)
		}
	}

	// The backtest of A, as it is and with B's behavior.
	dir := t.TempDir()
	bfile := filepath.Join(dir, "behavior-b.yaml")
	by, err := yaml.Marshal(map[string]any{"behavior": histBehavior(20)})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bfile, by, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{
		"whatif", "web", "-n", a.ns, "--kubeconfig", env.kubeconfig, "-o", "json",
		"--since", start.UTC().Format(time.RFC3339Nano), "--until", end.UTC().Format(time.RFC3339Nano),
		"--prometheus", prometheusURL(),
		"--behavior", bfile, "--pod-startup", "1s", "--sample-delay", "15s",
	}
	// The recording this backtest replays is kept with the artifacts
	// (whatif.Kept), to be replayed offline: pkg/whatif's tests replay
	// such a kept run. (Other tests' runs meanwhile may keep theirs too:
	// the variable is the process's.)
	if dir := os.Getenv("E2E_ARTIFACTS"); dir != "" {
		os.Setenv(action.EnvKeepRecording, filepath.Join(dir, "kept")) //nolint:usetesting // the test is parallel, where t.Setenv panics
	}
	out := inProcess(args)
	os.Unsetenv(action.EnvKeepRecording)
	if out.code != 0 {
		t.Fatalf("whatif --since exited %d:\n%s", out.code, out.stderr)
	}
	var wi explain.WhatIf
	if err := json.Unmarshal(out.stdout, &wi); err != nil || wi.Backtest == nil {
		t.Fatalf("whatif --since printed no backtest (%v):\n%.2000s", err, out.stdout)
	}
	bt := wi.Backtest
	t.Logf("backtest: actual from %s; as-is %v; with B's behavior %v", bt.Actual.Source, bt.AsIs.Rescales, bt.Changed.Rescales)
	// Without --sync-period and --metrics-resolution: the clock is the
	// local cluster's, read and inferred.
	checkClock(t, "whatif --since", bt.Clock)
	t.Logf("reconstructed: %q", bt.Reconstructed)
	matchRescales(t, "the as-is replay of A", realA, bt.AsIs.Rescales, histTolerance)
	matchRescales(t, "the replay of A with B's behavior", realB, bt.Changed.Rescales, histTolerance)
	matchRescales(t, "the backtest's actual curve (kube-state-metrics)", realA, bt.Actual.Rescales, recordTolerance)
	if bt.Actual.Source != "kube-state-metrics" {
		t.Errorf("the actual replicas came from %q, want kube-state-metrics", bt.Actual.Source)
	}

	// The same backtest with Prometheus behind the API server's service
	// proxy (--prometheus NAMESPACE/SERVICE:PORT, the kubeconfig's
	// credentials): the same queries, the same answers, the same replay.
	svcArgs := append([]string{}, args...)
	for i := range svcArgs {
		if svcArgs[i] == "--prometheus" {
			svcArgs[i+1] = promService
		}
	}
	viaProxy := inProcess(svcArgs)
	if viaProxy.code != 0 {
		t.Fatalf("whatif --since --prometheus %s (the service proxy) exited %d:\n%s", svcArgs[slices.Index(svcArgs, "--prometheus")+1], viaProxy.code, viaProxy.stderr)
	}
	var wp explain.WhatIf
	if err := json.Unmarshal(viaProxy.stdout, &wp); err != nil || wp.Backtest == nil {
		t.Fatalf("whatif --since through the service proxy printed no backtest (%v)", err)
	}
	t.Logf("through the service proxy: %s", wp.Backtest.Source)
	if !strings.Contains(wp.Backtest.Source, "/proxy") && !strings.Contains(wp.Backtest.Source, a.ns+"/prometheus") {
		t.Errorf("the backtest through the service proxy names its source %q", wp.Backtest.Source)
	}
	// The projection's trace names the source; the rest must be the same.
	if wp.Projection != nil && wi.Projection != nil {
		if wp.Projection.Trace != wp.Backtest.Source {
			t.Errorf("through the service proxy, the projection's trace is %q, want %q", wp.Projection.Trace, wp.Backtest.Source)
		}
		wp.Projection.Trace = wi.Projection.Trace
	}
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"actual curve", wp.Backtest.Actual, bt.Actual},
		{"as-is replay", wp.Backtest.AsIs, bt.AsIs},
		{"replay with B's behavior", wp.Backtest.Changed, bt.Changed},
		{"projection", wp.Projection, wi.Projection},
	} {
		if g, w := jsonString(c.got), jsonString(c.want); g != w {
			t.Errorf("through the service proxy, the %s differs from the direct read's:\n%.1500s\nwant\n%.1500s", c.what, g, w)
		}
	}

	// With --sync-period and --metrics-resolution given: the same replay
	// (the events then give only the syncs' phase and spacing).
	flagged := inProcess(append(slices.Clone(args), "--sync-period", syncPeriod.String(), "--metrics-resolution", histResolution.String()))
	if flagged.code != 0 {
		t.Fatalf("whatif --since with the clock's flags exited %d:\n%s", flagged.code, flagged.stderr)
	}
	var wq explain.WhatIf
	if err := json.Unmarshal(flagged.stdout, &wq); err != nil || wq.Backtest == nil {
		t.Fatalf("whatif --since with the clock's flags printed no backtest (%v)", err)
	}
	if c := wq.Backtest.Clock; c == nil || c.SyncPeriod.Source != recording.OriginFlag || c.MetricsWindow.Source != recording.OriginFlag {
		t.Errorf("with the clock's flags, the clock is %s", jsonString(c))
	}
	if g, w := jsonString(wq.Backtest.AsIs), jsonString(bt.AsIs); g != w {
		t.Errorf("with the clock's flags, the as-is replay differs from the one without:\n%.1500s\nwant\n%.1500s", g, w)
	}

	// Without kube-state-metrics: the pods from the usage series, the real
	// count from the HPA's events (which the event recorder combines after
	// ten of a kind: the count is then taken from the pods). What a user
	// without kube-state-metrics gets, logged; the scale-up, whose events
	// are all distinct, must still be the controller's.
	noKSM := inProcess(append(append([]string{}, args...), "--no-kube-state-metrics"))
	if noKSM.code != 0 {
		t.Fatalf("whatif --since --no-kube-state-metrics exited %d:\n%s", noKSM.code, noKSM.stderr)
	}
	var wn explain.WhatIf
	if err := json.Unmarshal(noKSM.stdout, &wn); err != nil || wn.Backtest == nil {
		t.Fatalf("whatif --since --no-kube-state-metrics printed no backtest (%v)", err)
	}
	t.Logf("without kube-state-metrics: actual from %s %v; as-is %v; with B's behavior %v", wn.Backtest.Actual.Source,
		wn.Backtest.Actual.Rescales, wn.Backtest.AsIs.Rescales, wn.Backtest.Changed.Rescales)
	ups := 0
	for ups < len(realA) && realA[ups].To > realA[ups].From {
		ups++
	}
	if len(wn.Backtest.AsIs.Rescales) < ups {
		t.Errorf("without kube-state-metrics the as-is replay made %d rescales, fewer than the %d of the first scale-up", len(wn.Backtest.AsIs.Rescales), ups)
	} else {
		matchRescales(t, "the first scale-up of the as-is replay without kube-state-metrics", realA[:ups], wn.Backtest.AsIs.Rescales[:ups], noKSMTolerance)
	}
	text := inProcess(append(args[:len(args)-0:len(args)], "-o", "text"))
	if text.code != 0 || !strings.Contains(string(text.stdout), "Backtest: HPA "+a.ns+"/web") {
		t.Errorf("whatif --since's text view (exit %d):\n%s%s", text.code, text.stdout, text.stderr)
	}

	// explain --at a moment of A's scale-down hold after the fall:
	// the hold ends when A really stepped down.
	var firstDown *histRescale
	for i := range realA {
		if r := &realA[i]; r.To < r.From && r.At.After(start.Add(fallAt)) {
			firstDown = r
			break
		}
	}
	if firstDown == nil {
		t.Fatalf("run A never scaled down after the fall: %v", realA)
	}
	at := start.Add(fallAt + 35*time.Second)
	if !at.Before(firstDown.At) {
		t.Fatalf("run A stepped down at %s, before the hold's middle %s: the window did not hold", firstDown, at.UTC().Format(time.RFC3339))
	}
	atArgs := []string{
		"explain", "web", "-n", a.ns, "--kubeconfig", env.kubeconfig, "-o", "json", "--at", at.UTC().Format(time.RFC3339Nano),
		"--prometheus", prometheusURL(),
	}
	ex := inProcess(atArgs)
	if ex.code != 0 {
		t.Fatalf("explain --at exited %d:\n%s", ex.code, ex.stderr)
	}
	var d explain.Decision
	if err := json.Unmarshal(ex.stdout, &d); err != nil {
		t.Fatal(err)
	}
	// The same past sync through the service proxy.
	atArgs[slices.Index(atArgs, "--prometheus")+1] = promService
	if exp := inProcess(atArgs); exp.code != 0 {
		t.Errorf("explain --at --prometheus %s (the service proxy) exited %d:\n%s", promService, exp.code, exp.stderr)
	} else {
		var dp explain.Decision
		if err := json.Unmarshal(exp.stdout, &dp); err != nil {
			t.Fatal(err)
		}
		if g, w := jsonString(dp.DecidedBy)+jsonString(dp.DesiredReplicas), jsonString(d.DecidedBy)+jsonString(d.DesiredReplicas); g != w {
			t.Errorf("explain --at through the service proxy: %s, the direct read: %s", g, w)
		}
	}
	if d.DecidedBy.Kind != explain.DecidedByScaleDownStabilization || d.DecidedBy.HeldUntil == nil {
		t.Fatalf("explain --at %s: decided by %s, want the scale-down window; summary: %s", at.UTC().Format(time.RFC3339), jsonString(d.DecidedBy), d.Summary)
	}
	if diff := d.DecidedBy.HeldUntil.Sub(firstDown.At); math.Abs(float64(diff)) > float64(histTolerance) {
		t.Errorf("explain --at says the hold ends at %s; run A stepped down at %s (%s apart, tolerance %s)",
			d.DecidedBy.HeldUntil.UTC().Format("15:04:05"), firstDown, diff, histTolerance)
	} else {
		t.Logf("explain --at %s: held until %s; A stepped down at %s", at.UTC().Format("15:04:05"), d.DecidedBy.HeldUntil.UTC().Format("15:04:05"), firstDown)
	}

	// A and B tuned together, while C runs.
	checkFleet(t, tuneDoc, start, end, second, runD, runs...)
	if tunedRun != nil {
		checkTuned(t, tuneDoc, runs[0], start, tunedRun())
	}
}

// patternRun is one namespace's run of the proof's load pattern: its
// scenario and scale-down window, the load drive sets on its pods, and the
// rescales and passes of drive seen there.
type patternRun struct {
	s      *scenario
	window int32
	// load is the pattern's total load (loadAt when nil).
	load func(time.Duration) int64

	mu       sync.Mutex
	rescales []histRescale
	passes   []loadPass
	err      error
}

// loadPass is one pass of drive: the total load it shared and how many
// ready pods shared it.
type loadPass struct {
	At    time.Time
	Total int64
	Ready int
}

// drive sets each ready pod's usage to the pattern's total over the ready
// pods, every second, until ctx ends.
func (r *patternRun) drive(ctx context.Context, start time.Time) {
	set := map[string]string{}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		pods, err := r.s.pods("web")
		if err == nil {
			var ready []corev1.Pod
			for _, p := range pods {
				if p.Status.Phase == corev1.PodRunning && podReady(&p) {
					ready = append(ready, p)
				}
			}
			if len(ready) > 0 {
				now := time.Now()
				pattern := r.load
				if pattern == nil {
					pattern = loadAt
				}
				total := pattern(now.Sub(start))
				per := total / int64(len(ready))
				r.mu.Lock()
				r.passes = append(r.passes, loadPass{At: now, Total: total, Ready: len(ready)})
				r.mu.Unlock()
				// Half a millicore above, as everywhere in this suite (see
				// cpuIdle): metrics-server's rate never crosses a millicore.
				v := fmt.Sprintf("%du", per*1000+500)
				closeCounters(ctx, r.s.kwok, ready, v, set)
				for _, p := range ready {
					if set[p.Name] == v && p.Annotations[annCPU] == v {
						continue
					}
					patch := []byte(fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, annCPU, v))
					if _, err := r.s.kube.CoreV1().Pods(r.s.ns).Patch(ctx, p.Name, "application/merge-patch+json", patch, metav1.PatchOptions{}); err == nil {
						set[p.Name] = v
					}
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// closeCounters reads kwok's resource metrics of the nodes of the pods
// whose usage is about to change to v, so that their CPU counters hold the
// usage they had until now. kwok keeps a container's cumulative CPU time
// lazily: each read adds the usage annotated at that moment times the
// time since the read before (sigs.k8s.io/kwok pkg/kwok/server,
// metrics_resource_usage.go), so a new usage is charged back to whoever
// read last, Prometheus (every 5 s) or metrics-server (every 10 s). A
// kubelet's counters are the CPU time really used: at a rescale of run A,
// its kept pods' counters took their new share up to 3 s before it came
// (a kept run: 4% more load in the window of A's scale-down than the
// pattern's, 34% where B's real pods read 33%, and the replay with B's
// behavior held 3 pods 35 s past B's last step). Read just before the
// change, the counters step within the patch's latency of it.
func closeCounters(ctx context.Context, kwok string, ready []corev1.Pod, v string, set map[string]string) {
	nodes := map[string]bool{}
	for _, p := range ready {
		if (set[p.Name] != v || p.Annotations[annCPU] != v) && p.Spec.NodeName != "" {
			nodes[p.Spec.NodeName] = true
		}
	}
	for n := range nodes {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, kwok+"/metrics/nodes/"+n+"/metrics/resource", http.NoBody)
		if err != nil {
			continue
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
}

// kwokURL is kwok's kubelet-like server (HTTP), where Prometheus and
// metrics-server read the nodes' resource metrics.
func kwokURL() string { return "http://127.0.0.1:" + localPort(10247) }

// watchScale records every change of the Deployment's spec.replicas.
func (r *patternRun) watchScale(ctx context.Context) {
	last := int32(-1)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		d, err := r.s.kube.AppsV1().Deployments(r.s.ns).Get(ctx, "web", metav1.GetOptions{})
		now := time.Now()
		if err == nil && d.Spec.Replicas != nil {
			n := *d.Spec.Replicas
			if last >= 0 && n != last {
				r.mu.Lock()
				r.rescales = append(r.rescales, histRescale{At: now, From: last, To: n})
				r.mu.Unlock()
			}
			last = n
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// matchRescales checks that a replay made the real rescales: the same
// sizes in the same order, each within tolerance of the real one.
func matchRescales(t *testing.T, what string, seen []histRescale, replayed []explain.ProjectedRescale, tolerance time.Duration) {
	t.Helper()
	if len(seen) != len(replayed) {
		t.Errorf("%s made %d rescales, the controller %d:\n  replay     %v\n  controller %v", what, len(replayed), len(seen), replayed, seen)
		return
	}
	lo, hi := time.Duration(math.MaxInt64), time.Duration(math.MinInt64)
	for i := range seen {
		r, p := seen[i], replayed[i]
		diff := p.Time.Sub(r.At)
		lo, hi = min(lo, diff), max(hi, diff)
		if r.From != p.From || r.To != p.To || math.Abs(float64(diff)) > float64(tolerance) {
			t.Errorf("%s: histRescale %d is %s %d→%d, the controller's %s (%s apart, tolerance %s)",
				what, i+1, p.Time.UTC().Format("15:04:05"), p.From, p.To, r, diff, tolerance)
		}
	}
	if len(seen) > 0 {
		t.Logf("%s: %d rescales, each %s to %s after the controller's", what, len(seen), lo.Round(time.Millisecond), hi.Round(time.Millisecond))
	}
}
