// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// tunedRunResult is the tuned namespace's run of the pattern.
type tunedRunResult struct {
	run        *patternRun
	start, end time.Time
}

// tuneAndRun runs tune over run A's period (start to end) in namespace a
// (directly and through promService, the service proxy to Prometheus) and
// checks --emit patch. With a tuned run (unless E2E_TUNE_PROOF=0) it applies the
// emitted patch to that run's HPA (A's until then), lets its controller
// settle on it, and starts the same load pattern there. It returns tune's
// document and, with a tuned run, a function that waits for its end. (Not
// a t.Helper, as checkTuned is not.)
func tuneAndRun(t *testing.T, a *scenario, promService string, tuned *patternRun, start, end time.Time, offsets *rand.Rand) (*explain.Tune, func() tunedRunResult) { //nolint:thelper // its lines name this file, where hack/test/failures.sh tells logs from errors
	// No clock flags: the sync period is inferred from the HPA's events,
	// metrics-server's window and phase read off its PodMetrics.
	// Prometheus behind a proxy that counts the requests by path: the raw
	// samples must come through the remote-read API.
	counted := newCountingProxy(t, prometheusURL())
	args := []string{
		"tune", "web", "-n", a.ns, "--kubeconfig", env.kubeconfig,
		"--since", start.UTC().Format(time.RFC3339Nano), "--until", end.UTC().Format(time.RFC3339Nano),
		"--prometheus", counted.URL,
		"--pod-startup", "1s", "--sample-delay", "15s", "--slo", "cpu=90%",
	}
	began := time.Now()
	out := inProcess(append(slices.Clone(args), "-o", "json"))
	if out.code != 0 {
		t.Fatalf("tune exited %d:\n%s", out.code, out.stderr)
	}
	took := time.Since(began)
	var doc explain.Tune
	if err := json.Unmarshal(out.stdout, &doc); err != nil {
		t.Fatalf("tune -o json: %v\n%.2000s", err, out.stdout)
	}
	t.Logf("tune: %d of %d settings replayed in %s (%d rounds); load model %s; cost in %s; notes: %q",
		doc.Replayed, doc.GridSize, took.Round(time.Millisecond), doc.Rounds, doc.LoadModel, doc.CostUnit, doc.Notes)
	if doc.Recommended < 0 || doc.Recommendation == nil {
		t.Fatalf("tune recommended nothing over run A (reference: %s)", jsonString(doc.Reference))
	}
	rec := doc.Candidates[doc.Recommended]
	t.Logf("tune: reference (A as-is) %.3f pod-hours, risk %.3f; recommendation %v: %.3f pod-hours, risk %.3f, range %s; changes %q; variants %q",
		doc.Reference.PodHours, doc.Reference.Risk, rec.Values, rec.Figures.PodHours, rec.Figures.Risk, jsonString(rec.Range), doc.Recommendation.Changes, doc.Variants)
	checkClock(t, "tune", doc.Clock)
	if rec.Range == nil {
		t.Errorf("tune's recommendation has no range over the variants")
	}
	t.Logf("tune's requests to Prometheus: %v", counted.counts())
	if counted.count("200 /api/v1/read") == 0 || counted.count("200 /api/v1/query") == 0 {
		t.Errorf("tune read no raw samples through the remote-read API, or nothing through the query API: %v", counted.counts())
	}

	// The same tune with the raw samples through the query API alone:
	// the same document (the samples are the same), but for the source
	// it names.
	if qout := inProcess(append(slices.Clone(args), "-o", "json", "--prometheus-query-api-only")); qout.code != 0 {
		t.Errorf("tune --prometheus-query-api-only exited %d:\n%s", qout.code, qout.stderr)
	} else {
		var qdoc explain.Tune
		if err := json.Unmarshal(qout.stdout, &qdoc); err != nil {
			t.Fatalf("tune --prometheus-query-api-only: %v", err)
		}
		if g, w := jsonString(qdoc), jsonString(doc); g != w {
			t.Errorf("tune through the query API alone differs from the read through the remote-read API:\n%.3000s\nwant\n%.3000s", g, w)
		}
	}

	// The same tune with Prometheus behind the API server's service
	// proxy: the same document but for the source it names.
	viaProxy := slices.Clone(args)
	viaProxy[slices.Index(viaProxy, "--prometheus")+1] = promService
	if pout := inProcess(append(viaProxy, "-o", "json")); pout.code != 0 {
		t.Errorf("tune --prometheus %s (the service proxy) exited %d:\n%s", promService, pout.code, pout.stderr)
	} else {
		var pdoc explain.Tune
		if err := json.Unmarshal(pout.stdout, &pdoc); err != nil {
			t.Fatalf("tune through the service proxy: %v", err)
		}
		t.Logf("tune through the service proxy: source %s", pdoc.Source)
		pdoc.Source = doc.Source
		if g, w := jsonString(pdoc), jsonString(doc); g != w {
			t.Errorf("tune through the service proxy differs from the direct read:\n%.3000s\nwant\n%.3000s", g, w)
		}
	}
	// What a user reads (kept in the log for docs/tune.md), and the
	// report beside it: one file, nothing loaded from elsewhere.
	dir := os.Getenv("E2E_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "tune-report.html")
	if text := inProcess(append(slices.Clone(args), "--report", report)); text.code != 0 {
		t.Errorf("tune --report exited %d:\n%s", text.code, text.stderr)
	} else {
		t.Logf("tune's text view:\n%s", text.stdout)
		if err := os.WriteFile(filepath.Join(dir, "tune.txt"), text.stdout, 0o644); err != nil {
			t.Error(err)
		}
		checkReportFile(t, report)
	}

	// The patch a user applies: what --emit patch prints.
	emitted := inProcess(append(slices.Clone(args), "--emit", "patch"))
	if emitted.code != 0 {
		t.Fatalf("tune --emit patch exited %d:\n%s", emitted.code, emitted.stderr)
	}
	patch := strings.TrimSpace(string(emitted.stdout))
	if patch != doc.Recommendation.Patch {
		t.Fatalf("tune --emit patch printed\n%s\nbut -o json's recommendation.patch is\n%s", patch, doc.Recommendation.Patch)
	}
	if tuned == nil {
		t.Logf("tune's recommendation is not run (E2E_TUNE_PROOF=0)")
		return &doc, nil
	}
	c := tuned.s
	if _, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(c.ns).Patch(c.ctx, "web", types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatalf("kubectl patch hpa web --type merge -p %s: %v", patch, err)
	}
	// A sync on the new spec, then the usual rest.
	time.Sleep(syncPeriod + time.Second)
	c.settle("web", settleOptions{historyHorizon: 10 * time.Second}, desired(2), metricUtilization(0, 50), samplesForAllPods(c))

	ctx, cancel := context.WithCancel(c.ctx)
	// C's pattern starts at a random offset from metrics-server's scrapes
	// of its own: what tune promises must hold for load whose steps fall
	// anywhere between two scrapes, as real load's do, not only where A's
	// fell (tune's variants replay the other phases).
	cStart := atRandomOffset(t, c, offsets, "the pattern with tune's recommendation")
	time.Sleep(time.Until(cStart))
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); tuned.drive(ctx, cStart) }()
	go func() { defer wg.Done(); tuned.watchScale(ctx) }()
	t.Logf("%s: the pattern again from %s, with tune's recommendation", c.ns, cStart.UTC().Format(time.RFC3339))
	// From here on the suite's tail is this run's 8.5 minutes, which only
	// wait on the controller: make test starts its race tests (niced).
	markQuiet(t)
	return &doc, func() tunedRunResult {
		defer cancel()
		select {
		case <-time.After(time.Until(cStart.Add(patternLength + 20*time.Second))):
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		}
		cancel()
		wg.Wait()
		if tuned.err != nil {
			t.Fatalf("%s: %v", c.ns, tuned.err)
		}
		return tunedRunResult{run: tuned, start: cStart, end: cStart.Add(end.Sub(start))}
	}
}

// podHours integrates a run's spec.replicas from start to end: the count
// before its first rescale is initial.
func (r *patternRun) podHours(start, end time.Time, initial int32) float64 {
	n, at, sum := initial, start, 0.0
	for _, rs := range r.rescales {
		if rs.At.After(end) {
			break
		}
		if rs.At.After(at) {
			sum += float64(n) * rs.At.Sub(at).Hours()
			at = rs.At
		}
		n = rs.To
	}
	return sum + float64(n)*end.Sub(at).Hours()
}

// aboveBound is how long, between start and end, the load each ready pod
// was given (drive's passes: the total over the ready pods) was above the
// bound, in millicores: each pass counts until the next.
func (r *patternRun) aboveBound(start, end time.Time, bound int64) time.Duration {
	var sum time.Duration
	for i, p := range r.passes {
		next := end
		if i+1 < len(r.passes) && r.passes[i+1].At.Before(end) {
			next = r.passes[i+1].At
		}
		from := p.At
		if from.Before(start) {
			from = start
		}
		if next.After(from) && p.Total/int64(p.Ready) > bound {
			sum += next.Sub(from)
		}
	}
	return sum
}

// checkTuned compares the tuned run with tune's prediction and with run A.
//
// Not a t.Helper: its lines then name this file, where
// hack/test/failures.sh tells its logs (many, long) from its errors.
func checkTuned(t *testing.T, doc *explain.Tune, runA *patternRun, startA time.Time, c tunedRunResult) { //nolint:thelper // its lines name this file, where hack/test/failures.sh tells logs from errors
	period := c.end.Sub(c.start)
	rec := doc.Candidates[doc.Recommended].Figures
	initial := func(r *patternRun) int32 {
		if len(r.rescales) > 0 {
			return r.rescales[0].From
		}
		return 2
	}
	aHours := runA.podHours(startA, startA.Add(period), initial(runA))
	aAbove := runA.aboveBound(startA, startA.Add(period), histBound)
	cHours := c.run.podHours(c.start, c.end, initial(c.run))
	cAbove := c.run.aboveBound(c.start, c.end, histBound)
	t.Logf("%s with tune's recommendation: rescales %v", c.run.s.ns, c.run.rescales)
	var predicted []string
	for _, p := range doc.Candidates[doc.Recommended].Replicas {
		predicted = append(predicted, fmt.Sprintf("+%s %d", p.Time.Sub(startA).Round(time.Second), p.Replicas))
	}
	var ran []string
	for _, r := range c.run.rescales {
		ran = append(ran, fmt.Sprintf("+%s %d", r.At.Sub(c.start).Round(100*time.Millisecond), r.To))
	}
	// The recommendation's range over tune's variants, in pod-hours (its
	// cost is in core-hours where the pods request CPU: every pod here
	// requests the same, so the two are in one ratio).
	rg := doc.Candidates[doc.Recommended].Range
	lo, hi := rec.PodHours, rec.PodHours
	if rg != nil && rec.Cost > 0 {
		lo, hi = rg.CostMin*rec.PodHours/rec.Cost, rg.CostMax*rec.PodHours/rec.Cost
	}
	// The replay's own error on a run it can be held to: A's pod-hours
	// against tune's replay of A as it was, measured in this run (at least
	// 2%: the watch samples spec.replicas every 200 ms, and the pattern's
	// passes are a second or two apart).
	slack := max(0.02, math.Abs(doc.Reference.PodHours-aHours)/aHours)
	// How much a setting's time above the bound moves with where the
	// load's steps fall between scrapes: the spread of each setting over
	// tune's variants (the same recorded load at every phase of the
	// scrapes), and drive's passes (a second or two apart, so each stretch
	// above the bound is measured to within a pass at either end). Runs A
	// and C each ran at one phase, drawn apart: A's figure may sit at the
	// low end of A's spread and C's at the high end of C's, so the two
	// spreads add (until warm run 6 of 2026-12-02 only A's counted: C ran
	// 44 s above against A's 29 s, A's spread 10 s and C's own 5 s).
	const passSlack = 5 * time.Second
	phaseNoise := time.Duration(0)
	if doc.Current >= 0 {
		if cr := doc.Candidates[doc.Current].Range; cr != nil {
			phaseNoise = time.Duration((cr.RiskMax - cr.RiskMin) * float64(period))
		}
	}
	if rg != nil {
		phaseNoise += time.Duration((rg.RiskMax - rg.RiskMin) * float64(period))
	}
	figures := []string{
		fmt.Sprintf("E2E_SEED=%d; recommended curve as tune replayed it (from A's start): %v; as it really ran (from C's start): %v", proofSeed(), predicted, ran),
		fmt.Sprintf("run A (as it was): %.3f pod-hours, %s above %dm per pod; tune's replay of it: %.3f pod-hours (%+.1f%%), %.1f%% of the period above",
			aHours, aAbove.Round(time.Second), histBound, doc.Reference.PodHours, 100*(doc.Reference.PodHours-aHours)/aHours, 100*doc.Reference.Risk),
		fmt.Sprintf("recommendation (%s): tune predicted %.3f pod-hours (%.3f–%.3f over %d replays) and %.1f%% of the period above (%.1f%%–%.1f%%); run for real: %.3f pod-hours (%+.1f%% from the worse end), %s above (%.1f%% of %s); A's and C's settings move %s above the bound over the phases",
			strings.Join(doc.Recommendation.Changes, ", "), rec.PodHours, lo, hi, rangeReplays(rg), 100*rec.Risk, 100*rangeRisk(rg, rec.Risk, 0), 100*rangeRisk(rg, rec.Risk, 1),
			cHours, 100*(cHours-hi)/hi, cAbove.Round(time.Second), 100*cAbove.Seconds()/period.Seconds(), period, phaseNoise.Round(time.Second)),
	}
	for _, f := range figures {
		t.Log(f)
		appendArtifact(t, "tune-proof.txt", f)
	}
	if cHours < lo*(1-slack) || cHours > hi*(1+slack) {
		t.Errorf("the recommendation really used %.3f pod-hours; tune predicted %.3f–%.3f (with the replay's own error on A, %.1f%%, either way)", cHours, lo, hi, 100*slack)
	}
	if d := math.Abs(cHours-hi) / hi; d > 0.10 {
		t.Errorf("the recommendation really used %.3f pod-hours; tune's worse end was %.3f (%.1f%% apart, at most 10%%)", cHours, hi, 100*d)
	}
	if r := cAbove.Seconds() / period.Seconds(); r < rangeRisk(rg, rec.Risk, 0)-0.10 || r > rangeRisk(rg, rec.Risk, 1)+0.10 {
		t.Errorf("the recommendation really ran above the bound %.1f%% of the period; tune predicted %.1f%%–%.1f%% (at most 10 points outside)",
			100*r, 100*rangeRisk(rg, rec.Risk, 0), 100*rangeRisk(rg, rec.Risk, 1))
	}
	switch {
	case len(doc.Recommendation.Changes) == 0:
		// No candidate's worse end kept within the HPA's own worse risk
		// (the range's steps are two syncs of the period): C ran A's
		// setting again, and there is no saving to prove.
		line := "tune kept the HPA's own setting: no saving to prove in this run"
		t.Log(line)
		appendArtifact(t, "tune-proof.txt", line)
	case cHours >= aHours:
		t.Errorf("the recommendation really used %.3f pod-hours, run A %.3f: not cheaper", cHours, aHours)
	}
	if cAbove > aAbove+passSlack+phaseNoise {
		t.Errorf("the recommendation really ran above the bound for %s, run A for %s: hotter (beyond the %s of the passes and the %s A's and C's settings move over the phases)",
			cAbove.Round(time.Second), aAbove.Round(time.Second), passSlack, phaseNoise.Round(time.Second))
	}
}

// rangeReplays is how many replays a range spans (1 without one).
func rangeReplays(r *explain.TuneRange) int {
	if r == nil {
		return 1
	}
	return r.Replays
}

// rangeRisk is a range's lower (end 0) or upper (end 1) risk, or risk
// without one.
func rangeRisk(r *explain.TuneRange, risk float64, end int) float64 {
	switch {
	case r == nil:
		return risk
	case end == 0:
		return r.RiskMin
	}
	return r.RiskMax
}

// checkReportFile checks that tune wrote its HTML report as one file that
// loads nothing from elsewhere (the browser test, test/browser, renders
// such reports; this one is the real run's).
func checkReportFile(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("tune --report: %v", err)
		return
	}
	page := string(b)
	t.Logf("tune --report wrote %s (%d bytes)", path, len(b))
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.Contains(page, "<svg") {
		t.Errorf("tune --report wrote no HTML page with its charts:\n%.300s", page)
	}
	for _, ref := range []string{"<script", `src="http`, `href="http`, "url(http", "@import"} {
		if strings.Contains(page, ref) {
			t.Errorf("tune --report's page holds %q: it must load nothing", ref)
		}
	}
}

// countingProxy passes requests on to a server and counts them by status
// and path ("200 /api/v1/read").
type countingProxy struct {
	*httptest.Server
	mu sync.Mutex
	n  map[string]int
}

func newCountingProxy(t *testing.T, target string) *countingProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &countingProxy{n: map[string]int{}}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
		rp.ServeHTTP(sw, r)
		p.mu.Lock()
		p.n[fmt.Sprintf("%d %s", sw.code, r.URL.Path)]++
		p.mu.Unlock()
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *countingProxy) count(key string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n[key]
}

func (p *countingProxy) counts() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return maps.Clone(p.n)
}

// statusWriter notes the status of an answer it passes on.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
