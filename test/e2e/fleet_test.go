// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/fleet"
)

// fleetLabel marks the HPAs of tune's proof that the tune of many reads
// (with the run's id as its value).
const fleetLabel = "kubectl-hpa.io/e2e-fleet"

// checkFleet tunes runs A and B together, without a NAME (-A -l): both
// get a row; A's equals its own tune's (doc) figure for figure; each
// as-is replay, which the backtests hold to the controller's rescales,
// held the count kube-state-metrics recorded and made its rescales; the
// totals add the rows up; --emit command prints one command per
// recommendation. (Not a t.Helper, as checkTuned is not.)
func checkFleet(t *testing.T, doc *explain.Tune, start, end time.Time, second *secondCluster, d *patternRun, runs ...*patternRun) { //nolint:thelper // its lines name this file, where hack/test/failures.sh tells logs from errors
	args := []string{
		"tune", "-A", "-l", fleetLabel + "=" + env.runID, "--kubeconfig", env.kubeconfig,
		"--since", start.UTC().Format(time.RFC3339Nano), "--until", end.UTC().Format(time.RFC3339Nano),
		"--prometheus", prometheusURL(),
		"--pod-startup", "1s", "--sample-delay", "15s", "--slo", "cpu=90%",
	}
	began := time.Now()
	out := inProcess(append(slices.Clone(args), "-o", "json"))
	took := time.Since(began)
	if out.code != 0 {
		t.Errorf("tune -A -l exited %d:\n%s", out.code, out.stderr)
		return
	}
	var fl explain.TuneFleet
	if err := json.Unmarshal(out.stdout, &fl); err != nil {
		t.Errorf("tune -A -l -o json: %v\n%.2000s", err, out.stdout)
		return
	}
	t.Logf("tune -A -l: %d HPAs in %s: %s", len(fl.Items), took.Round(time.Millisecond), jsonString(fl.Totals))
	if len(fl.Items) != len(runs) {
		t.Errorf("tune -A -l tuned %d HPAs, want %d (A's and B's): %s", len(fl.Items), len(runs), jsonString(fl.Items))
		return
	}
	var sum float64
	for _, r := range runs {
		i := slices.IndexFunc(fl.Items, func(it explain.FleetItem) bool { return it.HPA.Namespace == r.s.ns })
		if i < 0 {
			t.Errorf("tune -A -l has no row of %s/web", r.s.ns)
			continue
		}
		it := fl.Items[i]
		t.Logf("%s: %s, as-is %s, recommended %s, saving %.3f (%.1f%%), fidelity %s", r.s.ns, it.Status, jsonString(it.AsIs), jsonString(it.Recommended),
			it.Saving, 100*it.SavingFraction, jsonString(it.Fidelity))
		if it.AsIs != nil {
			sum += it.AsIs.Cost
		}
		// The as-is replay holds the controller's rescales within a sync
		// (the backtests check it), kube-state-metrics' record within a
		// scrape besides: it held the count but for seconds around each.
		f := it.Fidelity
		switch {
		case f == nil:
			t.Errorf("%s: no fidelity", r.s.ns)
		case f.Source != "kube-state-metrics" || f.Rescales != len(r.rescales) || f.Matched != f.Rescales || f.Equal < fl.MinFidelity:
			t.Errorf("%s: the as-is replay held the record %.1f%% of the period and made %d of its %d rescales (source %s; the controller made %d)",
				r.s.ns, 100*f.Equal, f.Matched, f.Rescales, f.Source, len(r.rescales))
		}
		if it.Status != explain.FleetRecommended && it.Status != explain.FleetNoChange {
			t.Errorf("%s: %s: %s", r.s.ns, it.Status, it.Reason)
		}
		if r != runs[0] {
			continue
		}
		// A's row is A's tune, read again over the same period.
		want := explain.FleetFigures{Cost: round3(doc.Reference.Cost), Risk: round3(doc.Reference.Risk), RescalesPerHour: math.Round(doc.Reference.RescalesPerHour*100) / 100}
		if it.AsIs == nil || *it.AsIs != want {
			t.Errorf("%s: as-is %s, its tune's %s", r.s.ns, jsonString(it.AsIs), jsonString(want))
		}
		switch rec := doc.Recommendation; {
		case rec == nil || len(rec.Changes) == 0:
			if it.Status != explain.FleetNoChange {
				t.Errorf("%s: %s, its tune kept the HPA's own setting", r.s.ns, it.Status)
			}
		case it.Status != explain.FleetRecommended || it.Saving != rec.Saving || it.Patch != rec.Patch || strings.Join(it.Changes, "; ") != strings.Join(rec.Changes, "; "):
			t.Errorf("%s: %s, saving %.3f, patch %s, changes %q; its tune's: saving %.3f, patch %s, changes %q",
				r.s.ns, it.Status, it.Saving, it.Patch, it.Changes, rec.Saving, rec.Patch, rec.Changes)
		}
	}
	if len(fl.Totals) != 1 || math.Abs(fl.Totals[0].AsIs-sum) > 0.0015 {
		t.Errorf("totals %s, the rows' as-is costs add up to %.3f", jsonString(fl.Totals), sum)
	}
	checkShards(t, args, out.stdout)
	checkContexts(t, args, &fl, second, d, runs)
	// --report: the fleet's page, each HPA's own report beside it and
	// linked from it; nothing loaded from elsewhere.
	dir := t.TempDir()
	if rep := inProcess(append(slices.Clone(args), "--report", filepath.Join(dir, "fleet.html"))); rep.code != 0 {
		t.Errorf("tune -A -l --report exited %d:\n%s", rep.code, rep.stderr)
	} else {
		checkReportFile(t, filepath.Join(dir, "fleet.html"))
		page, _ := os.ReadFile(filepath.Join(dir, "fleet.html"))
		for _, r := range runs {
			own := "fleet-" + r.s.ns + "-web.html"
			if !strings.Contains(string(page), `href="`+own+`"`) {
				t.Errorf("the fleet's page does not link %s", own)
			}
			checkReportFile(t, filepath.Join(dir, own))
		}
	}
	checkPatches(t, args, &fl, runs[0])
	// --emit command: the commands of the recommendations, in the
	// table's order.
	cmds := inProcess(append(slices.Clone(args), "--emit", "command"))
	var want []string
	for _, it := range fl.Items {
		if it.Status == explain.FleetRecommended {
			want = append(want, it.Command)
		}
	}
	if got := strings.TrimSuffix(string(cmds.stdout), "\n"); cmds.code != 0 || got != strings.Join(want, "\n") {
		t.Errorf("tune -A -l --emit command (exit %d):\n%s\nwant\n%s\n%s", cmds.code, got, strings.Join(want, "\n"), cmds.stderr)
	}
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// e2eCluster is the value of the label the local Prometheus puts on every
// series (hack/cluster/config/prometheus.yaml), as a store of many
// clusters does.
const e2eCluster = "e2e-local"

// checkContexts tunes the HPAs of four kubeconfig contexts at once:
// e2e-one, the suite's cluster, reads its series through the cluster label
// (--prometheus-cluster-label, its value given); e2e-two, the second
// cluster (run D: B's behavior in a namespace of A's name), through its own
// Prometheus (--prometheus-for), whose series the label's default value
// (the context's name) selects; e2e-three, the suite's cluster again,
// through a Prometheus that refuses; e2e-down, an API server that cannot
// be reached. e2e-one's rows are the one-context run's, document for
// document; D's row holds D's own record; the others fail, each saying
// why, and the run exits 1 after the document. Then the same contexts
// through the central Prometheus, which holds both clusters' series, each
// under its context's name: e2e-one's and e2e-two's rows hold their runs'
// records again, and e2e-three (a name no series has) fails. Without the
// second cluster (E2E_SECOND_CLUSTER=0, or it failed to start), e2e-two is
// the suite's cluster under another name and the central checks are left
// out.
func checkContexts(t *testing.T, args []string, whole *explain.TuneFleet, second *secondCluster, d *patternRun, runs []*patternRun) {
	t.Helper()
	two := second != nil && d != nil
	var twoConfig *clientcmdapi.Config
	if two {
		var err error
		if twoConfig, err = clientcmd.LoadFromFile(second.kubeconfig); err != nil {
			t.Errorf("the second cluster's kubeconfig: %v", err)
			two = false
		}
	}
	kubeconfig := writeKubeconfig(t, func(c *clientcmdapi.Config) {
		cur := c.Contexts[c.CurrentContext]
		for _, n := range []string{ctxOne, ctxTwo, "e2e-three"} {
			cp := *cur
			c.Contexts[n] = &cp
		}
		if two {
			o := twoConfig.Contexts[twoConfig.CurrentContext]
			c.Clusters[ctxTwo] = twoConfig.Clusters[o.Cluster]
			c.AuthInfos[ctxTwo] = twoConfig.AuthInfos[o.AuthInfo]
			c.Contexts[ctxTwo] = &clientcmdapi.Context{Cluster: ctxTwo, AuthInfo: ctxTwo}
		}
		down := *c.Clusters[cur.Cluster]
		down.Server = "https://127.0.0.1:1"
		c.Clusters["e2e-down"] = &down
		c.Contexts["e2e-down"] = &clientcmdapi.Context{Cluster: "e2e-down", AuthInfo: cur.AuthInfo}
	})
	many := slices.Clone(args)
	for i, a := range many {
		if a == env.kubeconfig {
			many[i] = kubeconfig
		}
	}
	twoProm := "http://127.0.0.1:1"
	if two {
		twoProm = second.prometheus
	}
	ownArgs := append(slices.Clone(many), "--include-contexts", "^e2e-", "--all-contexts", "--parallel", "4",
		"--prometheus-cluster-label", "cluster", "--prometheus-cluster", ctxOne+"="+e2eCluster,
		"--prometheus-for", ctxTwo+"="+twoProm, "--prometheus-for", "e2e-three=http://127.0.0.1:1", "-o", "json")
	began := time.Now()
	out := inProcess(ownArgs)
	t.Logf("tune -A over 4 contexts, each cluster's own Prometheus: exit %d in %s", out.code, time.Since(began).Round(time.Millisecond))
	var fl explain.TuneFleet
	if err := json.Unmarshal(out.stdout, &fl); err != nil {
		t.Errorf("tune -A over 4 contexts (exit %d): %v\n%.2000s\n%s", out.code, err, out.stdout, out.stderr)
		return
	}
	if out.code != 1 {
		t.Errorf("tune -A over 4 contexts, two failing, exited %d, want 1", out.code)
	}
	byCtx := map[string][]explain.FleetItem{}
	for _, it := range fl.Items {
		byCtx[it.Context] = append(byCtx[it.Context], it)
	}
	one := byCtx[ctxOne]
	if len(one) != len(whole.Items) {
		t.Errorf("%s has %d rows, the one-context run %d", ctxOne, len(one), len(whole.Items))
	}
	for i := range min(len(one), len(whole.Items)) {
		got, want := one[i], whole.Items[i]
		got.Context, want.Context = "", ""
		if g, w := jsonString(got), jsonString(want); g != w {
			t.Errorf("%s's row %d, read through the cluster label, differs from the one-context run's:\n%s\nwant\n%s", ctxOne, i, g, w)
		}
	}
	failing := map[string]string{"e2e-three": "127.0.0.1:1", "e2e-down": "context e2e-down: "}
	if two {
		checkContextRows(t, "its own Prometheus", ctxTwo, byCtx[ctxTwo], []*patternRun{d}, fl.MinFidelity)
	} else {
		failing[ctxTwo] = "127.0.0.1:1"
	}
	checkFailingContexts(t, byCtx, failing, len(whole.Items))

	// explain -A reads the same contexts: each cluster's HPAs under its
	// context, e2e-down on stderr, exit 1 after the list.
	ex := inProcess([]string{
		"explain", "-A", "-l", fleetLabel + "=" + env.runID, "--kubeconfig", kubeconfig,
		"--all-contexts", "--include-contexts", "^e2e-", "-o", "json",
	})
	var list struct {
		Items []explain.Decision `json:"items"`
	}
	if err := json.Unmarshal(ex.stdout, &list); err != nil || ex.code != 1 || !strings.Contains(string(ex.stderr), "error: context e2e-down: ") {
		t.Errorf("explain -A over 4 contexts: exit %d, %v\n%s", ex.code, err, ex.stderr)
	} else {
		count := map[string]int{}
		for _, dec := range list.Items {
			count[dec.Context]++
			if two && dec.Context == ctxTwo && (dec.HPA.Namespace != d.s.ns || dec.HPA.Name != "web") {
				t.Errorf("explain -A: %s has %s/%s, want D's %s/web", ctxTwo, dec.HPA.Namespace, dec.HPA.Name, d.s.ns)
			}
		}
		wantTwo := len(whole.Items)
		if two {
			wantTwo = 1
		}
		if count[ctxOne] != len(whole.Items) || count[ctxTwo] != wantTwo || count["e2e-three"] != len(whole.Items) || len(count) != 3 {
			t.Errorf("explain -A over 4 contexts: rows per context %v, want %d of %s and e2e-three and %d of %s", count, len(whole.Items), ctxOne, wantTwo, ctxTwo)
		}
	}
	if !two {
		return
	}

	// The central Prometheus: every context's series under its name.
	centralArgs := slices.Clone(many)
	centralArgs[slices.Index(centralArgs, "--prometheus")+1] = second.central
	centralArgs = append(centralArgs, "--contexts", ctxOne+","+ctxTwo+",e2e-three",
		"--prometheus-cluster-label", "cluster", "-o", "json")
	began = time.Now()
	out = inProcess(centralArgs)
	t.Logf("tune -A over 3 contexts, the central Prometheus: exit %d in %s", out.code, time.Since(began).Round(time.Millisecond))
	var central explain.TuneFleet
	if err := json.Unmarshal(out.stdout, &central); err != nil {
		t.Errorf("tune -A through the central Prometheus (exit %d): %v\n%.2000s\n%s", out.code, err, out.stdout, out.stderr)
		return
	}
	if out.code != 1 {
		t.Errorf("tune -A through the central Prometheus, e2e-three failing, exited %d, want 1", out.code)
	}
	byCtx = map[string][]explain.FleetItem{}
	for _, it := range central.Items {
		byCtx[it.Context] = append(byCtx[it.Context], it)
	}
	checkContextRows(t, "the central Prometheus", ctxOne, byCtx[ctxOne], runs, central.MinFidelity)
	checkContextRows(t, "the central Prometheus", ctxTwo, byCtx[ctxTwo], []*patternRun{d}, central.MinFidelity)
	checkFailingContexts(t, byCtx, map[string]string{"e2e-three": ""}, len(whole.Items))
	if len(central.Totals) != 1 {
		t.Errorf("the central Prometheus: totals %s, want one line", jsonString(central.Totals))
	}
}

// checkContextRows checks the rows of context ctx, read through via: one
// per run, in its namespace, tuned (a recommendation or none needed), and
// its as-is replay held the record of that run's real rescales.
func checkContextRows(t *testing.T, via, ctx string, rows []explain.FleetItem, runs []*patternRun, minFidelity float64) {
	t.Helper()
	if len(rows) != len(runs) {
		t.Errorf("%s through %s: %d rows, want %d: %s", ctx, via, len(rows), len(runs), jsonString(rows))
		return
	}
	for _, r := range runs {
		i := slices.IndexFunc(rows, func(it explain.FleetItem) bool { return it.HPA.Namespace == r.s.ns })
		if i < 0 {
			t.Errorf("%s through %s has no row of %s/web", ctx, via, r.s.ns)
			continue
		}
		it := rows[i]
		t.Logf("%s through %s: %s/web: %s, as-is %s, recommended %s, saving %.3f, fidelity %s", ctx, via, r.s.ns, it.Status,
			jsonString(it.AsIs), jsonString(it.Recommended), it.Saving, jsonString(it.Fidelity))
		if it.Status != explain.FleetRecommended && it.Status != explain.FleetNoChange {
			t.Errorf("%s through %s: %s/web: %s: %s", ctx, via, r.s.ns, it.Status, it.Reason)
		}
		switch f := it.Fidelity; {
		case f == nil:
			t.Errorf("%s through %s: %s/web: no fidelity", ctx, via, r.s.ns)
		case f.Source != "kube-state-metrics" || f.Rescales != len(r.rescales) || f.Matched != f.Rescales || f.Equal < minFidelity:
			t.Errorf("%s through %s: %s/web: the as-is replay held the record %.1f%% of the period and made %d of its %d rescales (source %s; the controller made %d)",
				ctx, via, r.s.ns, 100*f.Equal, f.Matched, f.Rescales, f.Source, len(r.rescales))
		}
	}
}

// checkFailingContexts checks that each context of why failed, every row
// saying so with the words given (an unreachable context has one row,
// the others one per HPA).
func checkFailingContexts(t *testing.T, byCtx map[string][]explain.FleetItem, why map[string]string, hpas int) {
	t.Helper()
	for ctx, words := range why {
		rows := byCtx[ctx]
		want := hpas
		if ctx == "e2e-down" {
			want = 1
		}
		if len(rows) != want {
			t.Errorf("%s: %d rows, want %d: %s", ctx, len(rows), want, jsonString(rows))
		}
		for _, it := range rows {
			if it.Status != explain.FleetFailed || !strings.Contains(it.Reason, words) {
				t.Errorf("%s %s/%s: %s (%s), want failed saying %q", ctx, it.HPA.Namespace, it.HPA.Name, it.Status, it.Reason, words)
			} else {
				t.Logf("%s %s/%s: failed: %s", ctx, it.HPA.Namespace, it.HPA.Name, it.Reason)
			}
		}
	}
}

// checkShards runs the same tune as two shards, each its own process as
// an Indexed Job's pods are (JOB_COMPLETION_INDEX, --shard /2), and
// merges their documents: the merge must be the one-process run's
// document, byte for byte.
func checkShards(t *testing.T, args []string, whole []byte) {
	t.Helper()
	bin, err := pluginBinary()
	if err != nil {
		t.Errorf("the shards: %v", err)
		return
	}
	dir := t.TempDir()
	files := make([]string, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range files {
		files[i] = filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := exec.Command(bin, append(slices.Clone(args), "--shard", "/2", "-o", "json")...)
			c.Env = append(os.Environ(), fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))
			var stderr bytes.Buffer
			c.Stderr = &stderr
			b, err := c.Output()
			if err != nil {
				errs[i] = fmt.Errorf("shard %d/2: %w: %s", i, err, stderr.String())
				return
			}
			errs[i] = os.WriteFile(files[i], b, 0o600)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Errorf("the shards: %v", err)
		return
	}
	merged := inProcess([]string{"tune", "--merge", files[0], "--merge", files[1], "-o", "json"})
	if merged.code != 0 {
		t.Errorf("tune --merge exited %d:\n%s", merged.code, merged.stderr)
		return
	}
	if !bytes.Equal(merged.stdout, whole) {
		t.Errorf("the merge of the two shards differs from the one-process run:\n%.3000s\nwant\n%.3000s", merged.stdout, whole)
	}
	t.Logf("two shards, each its own process, merged: the one-process document (%d bytes)", len(whole))
}

// checkPatches writes the fleet's patches for a GitOps repository
// (--emit patches --out) and applies, with kubectl's own kustomize and a
// server-side dry run, a kustomization of run A's live HPA manifest and
// the context's Component: the HPA the API server would store has the
// recommendation's metrics and behavior and the rest of its spec as it
// is.
func checkPatches(t *testing.T, args []string, fl *explain.TuneFleet, a *patternRun) {
	t.Helper()
	i := slices.IndexFunc(fl.Items, func(it explain.FleetItem) bool { return it.HPA.Namespace == a.s.ns })
	if i < 0 || fl.Items[i].Status != explain.FleetRecommended {
		t.Logf("no recommendation for %s: no patch to apply", a.s.ns)
		return
	}
	it := fl.Items[i]
	dir := t.TempDir()
	res := inProcess(append(slices.Clone(args), "--emit", "patches", "--out", filepath.Join(dir, "tuned")))
	if res.code != 0 {
		t.Errorf("tune --emit patches exited %d:\n%s", res.code, res.stderr)
		return
	}
	comp := filepath.Join("tuned", fleet.ContextDir(it.Context))
	if !strings.Contains(string(res.stdout), "components: ["+filepath.Join(dir, comp)+"]") {
		t.Errorf("tune --emit patches does not name the component %s:\n%s", comp, res.stdout)
	}
	live, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(a.s.ns).Get(a.s.ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	manifest := &autoscalingv2.HorizontalPodAutoscaler{
		TypeMeta:   metav1.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: metav1.ObjectMeta{Name: live.Name, Namespace: live.Namespace, Labels: live.Labels},
		Spec:       live.Spec,
	}
	b, err := yaml.Marshal(manifest)
	if err != nil {
		t.Fatal(err)
	}
	kust := "resources: [hpa.yaml]\ncomponents: [" + comp + "]\n"
	if err := errors.Join(os.WriteFile(filepath.Join(dir, "hpa.yaml"), b, 0o600), os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(kust), 0o600)); err != nil {
		t.Fatal(err)
	}
	c := exec.CommandContext(a.s.ctx, "kubectl", "--kubeconfig", env.kubeconfig, "apply", "-k", dir, "--dry-run=server", "-o", "json")
	var stderr bytes.Buffer
	c.Stderr = &stderr
	applied, err := c.Output()
	if err != nil {
		t.Errorf("kubectl apply -k %s --dry-run=server: %v\n%s", dir, err, stderr.String())
		return
	}
	var got autoscalingv2.HorizontalPodAutoscaler
	if err := json.Unmarshal(applied, &got); err != nil {
		t.Errorf("kubectl apply -k --dry-run=server -o json: %v\n%.2000s", err, applied)
		return
	}
	var patch struct {
		Spec autoscalingv2.HorizontalPodAutoscalerSpec `json:"spec"`
	}
	if err := json.Unmarshal([]byte(it.Patch), &patch); err != nil {
		t.Fatal(err)
	}
	want := live.Spec.DeepCopy()
	want.Metrics, want.Behavior = patch.Spec.Metrics, patch.Spec.Behavior
	if g, w := jsonString(got.Spec), jsonString(want); g != w {
		t.Errorf("kubectl apply -k of the HPA and the tuned component would store\n%s\nwant (the recommendation's metrics and behavior, the rest as it is)\n%s", g, w)
	} else {
		t.Logf("kubectl apply -k (dry run on the server) of %s's HPA and component %s: the recommendation, nothing else", a.s.ns, comp)
	}
}

// TestFleetManifests has the API server check docs/fleet-job.yaml (the
// Indexed Job of shards and the weekly CronJob) and docs/rbac.yaml they
// bind, with a server-side dry run in a namespace of its own: every
// object accepted, none persisted.
func TestFleetManifests(t *testing.T) {
	t.Parallel()
	s := newScenario(t, "fleet-manifests")
	var out []byte
	// docs/rbac.yaml names its namespaces (a Role in kube-system); the
	// fleet's manifests take the one they are applied in.
	for _, args := range [][]string{
		{"-f", filepath.Join(env.repoRoot, "docs", "rbac.yaml")},
		{"-n", s.ns, "-f", filepath.Join(env.repoRoot, "docs", "fleet-job.yaml")},
	} {
		c := exec.CommandContext(s.ctx, "kubectl", append([]string{"--kubeconfig", env.kubeconfig, "apply", "--dry-run=server", "-o", "name"}, args...)...)
		var stderr bytes.Buffer
		c.Stderr = &stderr
		b, err := c.Output()
		if err != nil {
			t.Fatalf("kubectl apply --dry-run=server %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		out = append(out, b...)
	}
	got := strings.Fields(string(out))
	for _, want := range []string{
		"serviceaccount/kubectl-hpa-tune", "clusterrolebinding.rbac.authorization.k8s.io/kubectl-hpa-tune",
		"job.batch/kubectl-hpa-tune", "cronjob.batch/kubectl-hpa-tune-weekly", "clusterrole.rbac.authorization.k8s.io/kubectl-hpa-explain",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("the dry run did not accept %s: %v", want, got)
		}
	}
	if _, err := env.kube.BatchV1().Jobs(s.ns).Get(s.ctx, "kubectl-hpa-tune", metav1.GetOptions{}); err == nil {
		t.Error("the dry run persisted the Job")
	}
}
