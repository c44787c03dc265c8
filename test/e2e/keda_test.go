// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

// The KEDA scenarios: a real KEDA operator and metrics server (attached with
// hack/cluster/keda.sh up; `make test-e2e` does it in its phase keda) and
// the real HPA controller scale a Deployment, and `kubectl hpa explain
// scaledobject/NAME -o json` must have said what they then do: whether KEDA
// counts the object active, why (keda.reason), the replicas KEDA writes and
// the replicas the workload ends at once the HPA has acted (keda.replicas),
// and when a cooldown ends (keda.scaleToZeroAt).
//
// The triggers need nothing outside the test: metrics-api reads an HTTP
// server of the test (the operator runs on this host), kubernetes-workload
// counts pods of the scenario's namespace, cron reads the clock. Every
// ScaledObject polls every second and cools down in seconds, and every
// scenario runs in parallel in its own namespace.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// kedaPoll is the pollingInterval of every ScaledObject here; kedaSlack is
// what a KEDA step may take beyond its poll on this shared 2-core machine
// (the operator's poll, its write, our watch).
const (
	kedaPoll  = 1 * time.Second
	kedaSlack = 5 * time.Second
)

// kedaScenario is a scenario with one ScaledObject, "worker", scaling
// Deployment "worker", and an HTTP server whose paths answer {"value": N}
// (or 500 while failing) for metrics-api triggers.
type kedaScenario struct {
	*scenario
	sos dynamic.ResourceInterface
	url string

	mu     sync.Mutex
	values map[string]int64
	fail   atomic.Bool

	rec      *replicaRecorder
	captured int
}

func newKEDAScenario(t *testing.T, name string) *kedaScenario {
	t.Helper()
	requireKEDA(t)
	t.Parallel()
	return kedaScenarioAlone(t, name)
}

// kedaScenarioAlone is newKEDAScenario for a test that must not run beside
// the others (TestKEDAFaults breaks KEDA's processes).
func kedaScenarioAlone(t *testing.T, name string) *kedaScenario {
	t.Helper()
	requireKEDA(t)
	k := &kedaScenario{scenario: newScenario(t, name), values: map[string]int64{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if k.fail.Load() {
			http.Error(w, "failing on purpose", http.StatusInternalServerError)
			return
		}
		k.mu.Lock()
		v, ok := k.values[r.URL.Path]
		k.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"value": %d}`, v)
	}))
	t.Cleanup(srv.Close)
	k.url = srv.URL
	dyn, err := dynamic.NewForConfig(env.cfg)
	if err != nil {
		t.Fatal(err)
	}
	k.sos = dyn.Resource(scaledObjectGVR).Namespace(k.ns)
	return k
}

// set makes path answer v.
func (k *kedaScenario) set(path string, v int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.values[path] = v
}

// metricsAPI is a metrics-api trigger reading path of the test's server.
func (k *kedaScenario) metricsAPI(name, path, target, activation string) map[string]any {
	md := map[string]any{
		"url":           k.url + path,
		"format":        "json",
		"valueLocation": "value",
		"targetValue":   target,
	}
	if activation != "" {
		md["activationTargetValue"] = activation
	}
	tr := map[string]any{"type": "metrics-api", "metadata": md}
	if name != "" {
		tr["name"] = name
	}
	return tr
}

// start creates Deployment worker at replicas, starts recording its
// spec.replicas, and creates ScaledObject worker with spec (its
// scaleTargetRef and pollingInterval are set here) and annotations ann.
func (k *kedaScenario) start(replicas int32, spec map[string]any, ann map[string]string) {
	k.t.Helper()
	k.deploy("worker", replicas, map[string]string{annCPU: cpuIdle})
	k.rec = k.recordReplicas("worker")
	spec["scaleTargetRef"] = map[string]any{"name": "worker"}
	spec["pollingInterval"] = int64(kedaPoll / time.Second)
	meta := map[string]any{"name": "worker"}
	if len(ann) > 0 {
		a := map[string]any{}
		for key, v := range ann {
			a[key] = v
		}
		meta["annotations"] = a
	}
	so := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "keda.sh/v1alpha1", "kind": "ScaledObject", "metadata": meta, "spec": spec,
	}}
	if _, err := k.sos.Create(k.ctx, so, metav1.CreateOptions{}); err != nil {
		k.t.Fatalf("create ScaledObject: %v", err)
	}
	// KEDA's finalizer: delete the object while KEDA runs, before the
	// namespace (registered after newScenario's cleanup, so it runs first).
	k.t.Cleanup(func() {
		ctx := context.Background()
		if err := k.sos.Delete(ctx, "worker", metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			k.t.Logf("delete ScaledObject: %v", err)
			return
		}
		for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(250 * time.Millisecond) {
			if _, err := k.sos.Get(ctx, "worker", metav1.GetOptions{}); apierrors.IsNotFound(err) {
				return
			}
		}
		k.t.Logf("ScaledObject worker still there 30 s after its deletion")
	})
}

// annotate sets (or, with a nil value, removes) annotations of the
// ScaledObject.
func (k *kedaScenario) annotate(ann map[string]*string) {
	k.t.Helper()
	b, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": ann}})
	if err != nil {
		k.t.Fatal(err)
	}
	if _, err := k.sos.Patch(k.ctx, "worker", types.MergePatchType, b, metav1.PatchOptions{}); err != nil {
		k.t.Fatalf("annotate ScaledObject: %v", err)
	}
}

// object reads the ScaledObject.
func (k *kedaScenario) object() *unstructured.Unstructured {
	k.t.Helper()
	u, err := k.sos.Get(k.ctx, "worker", metav1.GetOptions{})
	if err != nil {
		k.t.Fatal(err)
	}
	return u
}

// soCondition is the status of the ScaledObject's condition typ ("" when
// absent).
func soCondition(u *unstructured.Unstructured, typ string) (status, reason string) {
	cs, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range cs {
		m, ok := c.(map[string]any)
		if ok && m["type"] == typ {
			s, _ := m["status"].(string)
			r, _ := m["reason"].(string)
			return s, r
		}
	}
	return "", ""
}

// waitCondition waits until the ScaledObject's condition typ has status.
func (k *kedaScenario) waitCondition(typ, status string, timeout time.Duration) {
	k.t.Helper()
	k.poll(fmt.Sprintf("ScaledObject condition %s=%s", typ, status), timeout, func() error {
		if s, r := soCondition(k.object(), typ); s != status {
			return fmt.Errorf("%s is %q (%s)", typ, s, r)
		}
		return nil
	})
}

// kedaView is what the tests read of explain scaledobject/NAME -o json:
// an Explanation of KEDA's HPA with its keda block, or a KEDAExplanation
// (no HPA) with only the keda block.
type kedaView struct {
	Kind            string        `json:"kind"`
	DesiredReplicas *int32        `json:"desiredReplicas"`
	KEDA            *explain.KEDA `json:"keda"`
	raw             []byte
	// ran is when the run began.
	ran time.Time
}

// explainSO runs explain scaledobject/worker -o json (in this process; the
// schema check of every -o json output applies) with extra arguments.
func (k *kedaScenario) explainSO(extra ...string) *kedaView {
	k.t.Helper()
	args := append([]string{
		"explain", "scaledobject/worker", "-n", k.ns, "-o", "json", "--kubeconfig", env.kubeconfig,
		"--sync-period", syncPeriod.String(),
	}, extra...)
	r := inProcess(args)
	if r.code != 0 {
		k.t.Fatalf("explain scaledobject/worker exited %d\nstderr:\n%s\nstdout:\n%s", r.code, r.stderr, r.stdout)
	}
	checkOutputSchema(k.t, args, r.stdout)
	v := &kedaView{raw: r.stdout, ran: r.start}
	if err := json.Unmarshal(r.stdout, v); err != nil {
		k.t.Fatalf("explain -o json: %v\n%s", err, r.stdout)
	}
	if v.KEDA == nil {
		k.t.Fatalf("explain scaledobject/worker printed no keda block:\n%s", r.stdout)
	}
	k.capture(extra, r.stdout)
	if ms := v.KEDA.ExternalMetricsServer; v.Kind != explain.KindKEDA && (ms == nil || !ms.KEDA) {
		v.check(k.t, false, "KEDA's metrics server serves external.metrics.k8s.io, explain says %+v", ms)
	}
	kd := v.KEDA
	k.t.Logf("explain: kind %s, keda active=%v reason=%s current=%d kedaScaleTo=%s afterKEDA=%d replicas=%s: %s",
		v.Kind, kd.Active, kd.Reason, kd.CurrentReplicas, i32(kd.KEDAScaleTo), kd.ReplicasAfterKEDA, i32(kd.Replicas), kd.Summary)
	return v
}

// capture saves the text form of explain scaledobject/worker (a second
// run, right after the JSON one) in $E2E_KEDA_CAPTURE, when set: the
// outputs docs/keda.md quotes come from there.
func (k *kedaScenario) capture(extra []string, jsonOut []byte) {
	dir := os.Getenv("E2E_KEDA_CAPTURE")
	if dir == "" {
		return
	}
	args := append([]string{
		"explain", "scaledobject/worker", "-n", k.ns, "--kubeconfig", env.kubeconfig,
		"--sync-period", syncPeriod.String(),
	}, extra...)
	r := inProcess(args)
	k.captured++
	name := filepath.Join(dir, fmt.Sprintf("%s-%02d.txt", k.t.Name(), k.captured))
	text := fmt.Sprintf("$ kubectl hpa explain scaledobject/worker -n %s\n%s%s", k.ns, r.stdout, r.stderr)
	if err := os.WriteFile(name, []byte(text), 0o600); err != nil {
		k.t.Logf("capture: %v", err)
	}
	if err := os.WriteFile(strings.TrimSuffix(name, ".txt")+".json", jsonOut, 0o600); err != nil {
		k.t.Logf("capture: %v", err)
	}
}

func i32(p *int32) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

// check fails the test with the explanation when cond is false.
func (v *kedaView) check(t *testing.T, cond bool, format string, args ...any) {
	t.Helper()
	if !cond {
		t.Fatalf("explain scaledobject/worker: "+format+"\n%s", append(args, v.raw)...)
	}
}

// replicasIs checks keda.replicas.
func (v *kedaView) replicasIs(t *testing.T, want int32) {
	t.Helper()
	v.check(t, v.KEDA.Replicas != nil && *v.KEDA.Replicas == want, "keda.replicas %s, want %d", i32(v.KEDA.Replicas), want)
}

// replicaChange is one spec.replicas value of the workload and when this
// test saw it.
type replicaChange struct {
	at       time.Time
	replicas int32
}

// replicaRecorder watches a Deployment's spec.replicas and keeps every
// change.
type replicaRecorder struct {
	mu      sync.Mutex
	changes []replicaChange
}

func (k *kedaScenario) recordReplicas(name string) *replicaRecorder {
	rec := &replicaRecorder{}
	go func() {
		rv := ""
		for k.ctx.Err() == nil {
			w, err := env.kube.AppsV1().Deployments(k.ns).Watch(k.ctx, metav1.ListOptions{
				FieldSelector: "metadata.name=" + name, ResourceVersion: rv,
			})
			if err != nil {
				time.Sleep(200 * time.Millisecond)
				rv = ""
				continue
			}
			for ev := range w.ResultChan() {
				d, ok := ev.Object.(*appsv1.Deployment)
				if !ok || ev.Type == watch.Deleted || d.Spec.Replicas == nil {
					continue
				}
				rv = d.ResourceVersion
				rec.note(*d.Spec.Replicas)
			}
			w.Stop()
		}
	}()
	return rec
}

func (r *replicaRecorder) note(n int32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if l := len(r.changes); l > 0 && r.changes[l-1].replicas == n {
		return
	}
	r.changes = append(r.changes, replicaChange{at: time.Now(), replicas: n})
}

// since returns the changes seen at or after t0.
func (r *replicaRecorder) since(t0 time.Time) []replicaChange {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []replicaChange
	for _, c := range r.changes {
		if !c.at.Before(t0) {
			out = append(out, c)
		}
	}
	return out
}

// last is the latest spec.replicas seen (-1 before the first).
func (r *replicaRecorder) last() int32 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.changes) == 0 {
		return -1
	}
	return r.changes[len(r.changes)-1].replicas
}

func (c replicaChange) String() string {
	return fmt.Sprintf("%d@%s", c.replicas, c.at.Format("15:04:05.000"))
}

// waitReplicas waits until the workload has want replicas, and returns when
// the recorder first saw it.
func (k *kedaScenario) waitReplicas(what string, want int32, timeout time.Duration) time.Time {
	k.t.Helper()
	began := time.Now()
	k.poll(what, timeout, func() error {
		if n := k.rec.last(); n != want {
			return fmt.Errorf("spec.replicas %d, want %d (changes %v)", n, want, k.rec.since(began))
		}
		return nil
	})
	for _, c := range k.rec.since(began) {
		if c.replicas == want {
			k.t.Logf("%s: %d after %v", what, want, c.at.Sub(began).Round(100*time.Millisecond))
			return c.at
		}
	}
	// It had want already.
	return began
}

// explainUntil runs explainSO until ok says its view shows what the test
// waits for (a value just set, a pause taken in), within two polls and
// the slack; the last view is returned either way, for the checks to say
// what differs. What KEDA must then not do is held by holdReplicas.
func (k *kedaScenario) explainUntil(ok func(*kedaView) bool) *kedaView {
	k.t.Helper()
	deadline := time.Now().Add(2*kedaPoll + kedaSlack)
	for {
		v := k.explainSO()
		if ok(v) || time.Now().After(deadline) {
			return v
		}
		time.Sleep(kedaPoll / 4)
	}
}

// triggerIs reports whether a view's trigger i has the value want.
func triggerIs(v *kedaView, i int, want float64) bool {
	ts := v.KEDA.Triggers
	return i < len(ts) && ts[i].Value != nil && *ts[i].Value == want
}

// holdReplicas fails if the workload leaves want within d.
func (k *kedaScenario) holdReplicas(what string, want int32, d time.Duration) {
	k.t.Helper()
	began := time.Now()
	for time.Since(began) < d {
		if n := k.rec.last(); n != want {
			k.t.Fatalf("%s: spec.replicas went %d → %d after %v (changes %v)", what, want, n, time.Since(began).Round(100*time.Millisecond), k.rec.since(began.Add(-time.Second)))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// followed checks that the workload then took the steps explain predicted,
// as its next changes of spec.replicas: KEDA's write (keda.kedaScaleTo)
// first, then the HPA's next sync (keda.replicas). It returns the steps.
func (k *kedaScenario) followed(e *kedaView, timeout time.Duration) []int32 {
	k.t.Helper()
	kd := e.KEDA
	var want []int32
	cur := kd.CurrentReplicas
	if kd.KEDAScaleTo != nil && *kd.KEDAScaleTo != cur {
		cur = *kd.KEDAScaleTo
		want = append(want, cur)
	}
	if kd.Replicas != nil && *kd.Replicas != cur {
		want = append(want, *kd.Replicas)
	}
	var got []int32
	k.poll(fmt.Sprintf("the steps explain predicted from %d: %v", kd.CurrentReplicas, want), timeout, func() error {
		got = nil
		for _, c := range k.rec.since(e.ran) {
			if len(got) == 0 && c.replicas == kd.CurrentReplicas {
				continue // seen before the run read it
			}
			got = append(got, c.replicas)
		}
		if len(got) < len(want) {
			return fmt.Errorf("changes so far %v", got)
		}
		return nil
	})
	for i, w := range want {
		if got[i] != w {
			k.t.Fatalf("explain predicted the steps %v from %d, the workload took %v\n%s", want, kd.CurrentReplicas, got, e.raw)
		}
	}
	k.t.Logf("the workload took the steps explain predicted from %d: %v", kd.CurrentReplicas, want)
	return want
}

// TestKEDAActivation: a metrics-api value at or below its activation
// threshold (strict, as KEDA's) keeps the workload at zero, and explain
// says Inactive with 0 replicas; above it, explain says Active, the step KEDA
// takes from zero (to 1) and what the HPA then computes, and the workload
// ends there. The same objects saved with kubectl get -o yaml give the same
// KEDA part offline (-f), and so does explain of the whole namespace.
func TestKEDAActivation(t *testing.T) {
	k := newKEDAScenario(t, "keda-act")
	k.set("/q", 3)
	k.start(0, map[string]any{
		"cooldownPeriod":  int64(10),
		"minReplicaCount": int64(0),
		"maxReplicaCount": int64(5),
		"triggers":        []any{k.metricsAPI("", "/q", "10", "5")},
	}, nil)
	k.waitCondition("Ready", "True", 60*time.Second)

	for _, v := range []int64{3, 5} {
		k.set("/q", v)
		// Explain once the value is served; KEDA must keep it at zero.
		e := k.explainUntil(func(e *kedaView) bool { return triggerIs(e, 0, float64(v)) })
		kd := e.KEDA
		e.check(t, !kd.Active && kd.Reason == explain.KEDAReasonInactive, "at %d (activation 5): active %v reason %s, want inactive", v, kd.Active, kd.Reason)
		e.check(t, len(kd.Triggers) == 1 && kd.Triggers[0].Value != nil && *kd.Triggers[0].Value == float64(v) && !kd.Triggers[0].Active,
			"trigger 0: want value %d, not active", v)
		e.check(t, kd.CurrentReplicas == 0 && kd.KEDAScaleTo == nil, "at zero and inactive KEDA writes nothing")
		e.replicasIs(t, 0)
		k.holdReplicas(fmt.Sprintf("at %d (activation 5)", v), 0, 5*kedaPoll)
	}

	// 25 > 5: KEDA jumps 0 → 1, the HPA (AverageValue 10) then 1 → 3.
	k.set("/q", 25)
	e := k.explainSO()
	kd := e.KEDA
	e.check(t, kd.Active && kd.Reason == explain.KEDAReasonActive, "at 25: active %v reason %s, want Active", kd.Active, kd.Reason)
	if kd.CurrentReplicas == 0 {
		e.check(t, kd.KEDAScaleTo != nil && *kd.KEDAScaleTo == 1, "from zero KEDA scales to 1, kedaScaleTo %s", i32(kd.KEDAScaleTo))
	} else {
		t.Logf("KEDA had already scaled from zero when explain ran (%d replicas)", kd.CurrentReplicas)
	}
	e.replicasIs(t, 3)
	k.followed(e, 60*time.Second)
	// Once the HPA has acted, explain predicts no further change.
	k.settleHPA(3)
	e = k.explainSO()
	e.check(t, e.KEDA.Active && e.KEDA.KEDAScaleTo == nil && e.KEDA.CurrentReplicas == 3, "at 3, active: KEDA writes nothing")
	e.replicasIs(t, 3)

	// Offline: the same objects from kubectl get -o yaml.
	file := filepath.Join(t.TempDir(), "objects.yaml")
	out, err := exec.CommandContext(k.ctx, "kubectl", "--kubeconfig", env.kubeconfig, "get", "-n", k.ns,
		"scaledobjects.keda.sh,hpa,deploy", "-o", "yaml").Output()
	if err != nil {
		t.Fatalf("kubectl get: %v", err)
	}
	if err := os.WriteFile(file, out, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"explain", "scaledobject/worker", "-n", k.ns, "-f", file, "-o", "json", "--now", e.KEDA.Now.Format(time.RFC3339Nano)}
	r := inProcess(args)
	if r.code != 0 {
		t.Fatalf("explain -f exited %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	checkOutputSchema(t, args, r.stdout)
	var off kedaView
	if err := json.Unmarshal(r.stdout, &off); err != nil || off.KEDA == nil {
		t.Fatalf("explain -f printed no keda block (%v):\n%s", err, r.stdout)
	}
	off.raw = r.stdout
	off.check(t, off.KEDA.ScaledObject.Name == "worker" && off.KEDA.ScaledObject.Namespace == k.ns, "offline: scaledObject %v", off.KEDA.ScaledObject)
	off.check(t, off.KEDA.Active == e.KEDA.Active && off.KEDA.Reason == e.KEDA.Reason, "offline: active %v reason %s, live %v %s", off.KEDA.Active, off.KEDA.Reason, e.KEDA.Active, e.KEDA.Reason)
	off.replicasIs(t, 3)

	// Every HPA of the namespace at once (explain -n NS): the same KEDA part.
	args = []string{"explain", "-n", k.ns, "-o", "json", "--kubeconfig", env.kubeconfig, "--sync-period", syncPeriod.String()}
	r = inProcess(args)
	if r.code != 0 {
		t.Fatalf("explain -n exited %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	checkOutputSchema(t, args, r.stdout)
	var list struct {
		Items []kedaView `json:"items"`
	}
	if err := json.Unmarshal(r.stdout, &list); err != nil || len(list.Items) != 1 || list.Items[0].KEDA == nil {
		t.Fatalf("explain -n: want one item with a keda block (%v):\n%s", err, r.stdout)
	}
	many := list.Items[0]
	many.raw = r.stdout
	many.check(t, many.KEDA.Active && many.KEDA.Reason == explain.KEDAReasonActive && many.KEDA.KEDAScaleTo == nil, "explain -n: active %v reason %s", many.KEDA.Active, many.KEDA.Reason)
	many.check(t, many.KEDA.ExternalMetricsServer != nil && many.KEDA.ExternalMetricsServer.KEDA, "explain -n: externalMetricsServer %+v", many.KEDA.ExternalMetricsServer)
	many.replicasIs(t, 3)
}

// settleHPA waits until KEDA's HPA has desiredReplicas want and the
// workload has them too.
func (k *kedaScenario) settleHPA(want int32) {
	k.t.Helper()
	k.poll(fmt.Sprintf("keda-hpa-worker desired %d", want), 60*time.Second, func() error {
		h, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(k.ns).Get(k.ctx, "keda-hpa-worker", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if h.Status.DesiredReplicas != want || h.Status.CurrentReplicas != want {
			return fmt.Errorf("HPA current %d desired %d", h.Status.CurrentReplicas, h.Status.DesiredReplicas)
		}
		return nil
	})
}

// TestKEDACooldown: with the triggers inactive, explain says Cooldown with
// the instant KEDA may scale to zero (lastActiveTime + cooldownPeriod);
// meanwhile the HPA keeps 6 (its scale-down stabilization), and KEDA then
// jumps 6 → 0 at once, at its first poll after that instant.
func TestKEDACooldown(t *testing.T) {
	const cooldown = 15
	k := newKEDAScenario(t, "keda-cool")
	k.set("/q", 60)
	k.start(2, map[string]any{
		"cooldownPeriod":  int64(cooldown),
		"minReplicaCount": int64(0),
		"maxReplicaCount": int64(6),
		"triggers":        []any{k.metricsAPI("", "/q", "10", "5")},
	}, nil)
	k.waitReplicas("active at 60 (target 10)", 6, 120*time.Second)
	k.settleHPA(6)

	k.set("/q", 0)
	k.waitCondition("Active", "False", 30*time.Second)
	e := k.explainSO()
	kd := e.KEDA
	e.check(t, !kd.Active && kd.Reason == explain.KEDAReasonCooldown, "at 0: active %v reason %s, want Cooldown", kd.Active, kd.Reason)
	e.check(t, kd.ScaleToZeroAt != nil && kd.ScaleToZeroBy != nil && kd.Cooldown.Running, "no running cooldown")
	e.check(t, kd.LastActiveTime != nil && kd.ScaleToZeroAt.Equal(kd.LastActiveTime.Add(cooldown*time.Second)),
		"scaleToZeroAt %v, want lastActiveTime %v + %ds", kd.ScaleToZeroAt, kd.LastActiveTime, cooldown)
	lat, _, _ := unstructured.NestedString(k.object().Object, "status", "lastActiveTime")
	e.check(t, lat == kd.LastActiveTime.UTC().Format(time.RFC3339), "lastActiveTime %v, the ScaledObject has %s", kd.LastActiveTime, lat)
	e.check(t, kd.KEDAScaleTo == nil, "during the cooldown KEDA writes nothing")
	e.replicasIs(t, 6)

	dropped := k.waitReplicas("scaled to zero after the cooldown", 0, cooldown*time.Second+60*time.Second)
	changes := k.rec.since(kd.Now)
	if len(changes) != 1 || changes[0].replicas != 0 {
		t.Errorf("after explain the workload should go 6 → 0 in one step (KEDA skips the HPA's policies): changes %v", changes)
	}
	from, to := kd.ScaleToZeroAt.Add(-kedaPoll/4), kd.ScaleToZeroBy.Add(kedaSlack)
	t.Logf("scaleToZeroAt %s, scaleToZeroBy %s, KEDA scaled to 0 at %s (%+.1fs after scaleToZeroAt)",
		kd.ScaleToZeroAt.Format("15:04:05"), kd.ScaleToZeroBy.Format("15:04:05"), dropped.Format("15:04:05.000"), dropped.Sub(*kd.ScaleToZeroAt).Seconds())
	if dropped.Before(from) || dropped.After(to) {
		t.Errorf("KEDA scaled to 0 at %s, want within [scaleToZeroAt %s, scaleToZeroBy + %v = %s]",
			dropped.Format(time.RFC3339Nano), kd.ScaleToZeroAt.Format(time.RFC3339), kedaSlack, to.Format(time.RFC3339Nano))
	}
}

// TestKEDAIdle: with idleReplicaCount 0 and minReplicaCount 2, an inactive
// object sits at 0 and an active one leaves it straight to 2 (not 1), then
// the HPA decides.
func TestKEDAIdle(t *testing.T) {
	k := newKEDAScenario(t, "keda-idle")
	k.set("/q", 0)
	k.start(2, map[string]any{
		"cooldownPeriod":   int64(5),
		"idleReplicaCount": int64(0),
		"minReplicaCount":  int64(2),
		"maxReplicaCount":  int64(6),
		"triggers":         []any{k.metricsAPI("", "/q", "10", "5")},
	}, nil)
	k.waitReplicas("never active: to the idle count", 0, 60*time.Second)
	e := k.explainSO()
	kd := e.KEDA
	e.check(t, !kd.Active && kd.Reason == explain.KEDAReasonInactive, "idle: active %v reason %s", kd.Active, kd.Reason)
	e.check(t, kd.Bounds.IdleReplicaCount != nil && *kd.Bounds.IdleReplicaCount == 0 && kd.Bounds.ActivationReplicas == 2 && kd.Bounds.DeactivationReplicas == 0,
		"bounds %+v", kd.Bounds)
	e.replicasIs(t, 0)
	k.holdReplicas("idle", 0, 3*kedaPoll)

	// 35 over 2 pods against 10 each: the HPA takes 2 → 4.
	k.set("/q", 35)
	e = k.explainSO()
	kd = e.KEDA
	e.check(t, kd.Active && kd.Reason == explain.KEDAReasonActive, "at 35: active %v reason %s", kd.Active, kd.Reason)
	if kd.CurrentReplicas == 0 {
		e.check(t, kd.KEDAScaleTo != nil && *kd.KEDAScaleTo == 2, "from idle KEDA scales to minReplicaCount 2, kedaScaleTo %s", i32(kd.KEDAScaleTo))
	}
	e.replicasIs(t, 4)
	k.followed(e, 60*time.Second)
}

// TestKEDAFallback: the endpoint of a metrics-api trigger fails; past
// failureThreshold KEDA's fallback makes the HPA compute fallback.replicas,
// and counts the trigger as active, so the workload leaves zero too.
func TestKEDAFallback(t *testing.T) {
	k := newKEDAScenario(t, "keda-fb")
	k.set("/q", 0)
	k.start(1, map[string]any{
		"cooldownPeriod":  int64(5),
		"minReplicaCount": int64(0),
		"maxReplicaCount": int64(6),
		"fallback":        map[string]any{"failureThreshold": int64(2), "replicas": int64(4)},
		"triggers":        []any{k.metricsAPI("", "/q", "10", "5")},
	}, nil)
	k.waitReplicas("inactive: to zero", 0, 60*time.Second)
	e := k.explainSO()
	e.check(t, !e.KEDA.Active && e.KEDA.Reason == explain.KEDAReasonInactive && e.KEDA.Fallback != nil && !e.KEDA.Fallback.Active,
		"before the failures: active %v reason %s", e.KEDA.Active, e.KEDA.Reason)
	e.replicasIs(t, 0)

	k.fail.Store(true)
	k.waitCondition("Fallback", "True", 60*time.Second)
	e = k.explainSO()
	kd := e.KEDA
	e.check(t, kd.Active && kd.Reason == explain.KEDAReasonFallback, "failing: active %v reason %s, want Fallback", kd.Active, kd.Reason)
	e.check(t, kd.Fallback != nil && kd.Fallback.Active, "fallback not active")
	e.replicasIs(t, 4)
	k.followed(e, 60*time.Second)
	k.settleHPA(4)
	e = k.explainSO()
	e.check(t, e.KEDA.Reason == explain.KEDAReasonFallback, "at 4, still failing: reason %s", e.KEDA.Reason)
	e.replicasIs(t, 4)
}

// TestKEDAPause: autoscaling.keda.sh/paused: "true" makes KEDA delete its
// HPA and leave the workload where it is, inactive triggers and all; with
// paused-scale-in instead, KEDA keeps its HPA (scale-down Disabled) and does
// not scale to zero; without either, it does.
func TestKEDAPause(t *testing.T) {
	const cooldown = 5
	k := newKEDAScenario(t, "keda-pause")
	k.set("/q", 30)
	k.start(1, map[string]any{
		"cooldownPeriod":  int64(cooldown),
		"minReplicaCount": int64(0),
		"maxReplicaCount": int64(6),
		"triggers":        []any{k.metricsAPI("", "/q", "10", "5")},
	}, nil)
	k.waitReplicas("active at 30 (target 10)", 3, 90*time.Second)
	k.settleHPA(3)

	yes := "true"
	k.annotate(map[string]*string{"autoscaling.keda.sh/paused": &yes})
	k.waitCondition("Paused", "True", 30*time.Second)
	k.poll("KEDA deletes its HPA", 30*time.Second, func() error {
		_, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(k.ns).Get(k.ctx, "keda-hpa-worker", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("HPA keda-hpa-worker still there (%w)", err)
	})
	k.set("/q", 0)
	e := k.explainUntil(func(e *kedaView) bool { return e.Kind == explain.KindKEDA && e.KEDA.Reason == explain.KEDAReasonPaused })
	kd := e.KEDA
	e.check(t, e.Kind == explain.KindKEDA, "paused, no HPA: kind %s, want %s", e.Kind, explain.KindKEDA)
	e.check(t, kd.Reason == explain.KEDAReasonPaused && kd.Pause.Paused && !kd.HPAActs && kd.HPAName == "", "paused: reason %s paused %v hpaActs %v", kd.Reason, kd.Pause.Paused, kd.HPAActs)
	e.replicasIs(t, 3)
	k.holdReplicas("paused, inactive past the cooldown", 3, (cooldown+3)*time.Second)

	// paused-scale-in: KEDA writes its HPA again, scale-down Disabled.
	k.annotate(map[string]*string{"autoscaling.keda.sh/paused": nil, "autoscaling.keda.sh/paused-scale-in": &yes})
	k.poll("KEDA's HPA with scale-down Disabled", 30*time.Second, func() error {
		h, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(k.ns).Get(k.ctx, "keda-hpa-worker", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if h.Spec.Behavior == nil || h.Spec.Behavior.ScaleDown == nil || h.Spec.Behavior.ScaleDown.SelectPolicy == nil ||
			*h.Spec.Behavior.ScaleDown.SelectPolicy != "Disabled" {
			return fmt.Errorf("behavior %s", jsonString(h.Spec.Behavior))
		}
		if h.Status.ObservedGeneration == nil || *h.Status.ObservedGeneration < h.Generation || h.Status.LastScaleTime == nil && len(h.Status.Conditions) == 0 {
			return fmt.Errorf("not synced yet")
		}
		return nil
	})
	e = k.explainUntil(func(e *kedaView) bool { return e.KEDA.Pause.ScaleIn && e.KEDA.HPAActs })
	kd = e.KEDA
	e.check(t, !kd.Active && kd.Pause.ScaleIn && kd.HPAActs, "paused-scale-in: active %v scaleIn %v hpaActs %v", kd.Active, kd.Pause.ScaleIn, kd.HPAActs)
	e.check(t, kd.Reason == explain.KEDAReasonPaused && kd.KEDAScaleTo == nil, "paused-scale-in past the cooldown: reason %s kedaScaleTo %s, want Paused and no write", kd.Reason, i32(kd.KEDAScaleTo))
	// KEDA counts a one-way pause as paused too.
	st, reason := soCondition(k.object(), "Paused")
	e.check(t, hasKEDACondition(kd, "Paused", st, reason), "the ScaledObject has Paused=%s (%s)", st, reason)
	e.replicasIs(t, 3)
	k.holdReplicas("paused-scale-in, inactive past the cooldown", 3, (cooldown+3)*time.Second)

	// Neither: the cooldown ran out long ago, so KEDA scales to zero at once.
	k.annotate(map[string]*string{"autoscaling.keda.sh/paused-scale-in": nil})
	k.waitReplicas("unpaused, inactive past the cooldown", 0, 30*time.Second)
	e = k.explainSO()
	e.check(t, !e.KEDA.Active && e.KEDA.Reason == explain.KEDAReasonInactive, "unpaused at 0: reason %s", e.KEDA.Reason)
	e.replicasIs(t, 0)
}

// hasKEDACondition reports whether explain's keda block has the condition.
func hasKEDACondition(kd *explain.KEDA, typ, status, reason string) bool {
	for _, c := range kd.Conditions {
		if c.Type == typ {
			return c.Status == status && c.Reason == reason
		}
	}
	return false
}

// TestKEDAScalingModifiers: two metrics-api triggers combined by a formula;
// the composite value against activationTarget decides activity (not each
// trigger's own), and the HPA reads the one composite-metric.
func TestKEDAScalingModifiers(t *testing.T) {
	k := newKEDAScenario(t, "keda-mod")
	k.set("/a", 2)
	k.set("/b", 2)
	k.start(0, map[string]any{
		"cooldownPeriod":  int64(5),
		"minReplicaCount": int64(0),
		"maxReplicaCount": int64(6),
		"advanced": map[string]any{"scalingModifiers": map[string]any{
			"formula": "a + b", "target": "10", "activationTarget": "5",
		}},
		// Each trigger alone would be active at 2 (activation 1): only the
		// formula's activation counts.
		"triggers": []any{k.metricsAPI("a", "/a", "10", "1"), k.metricsAPI("b", "/b", "10", "1")},
	}, nil)
	k.waitCondition("Ready", "True", 60*time.Second)
	e := k.explainUntil(func(e *kedaView) bool {
		m := e.KEDA.ScalingModifiers
		return m != nil && m.Value != nil && *m.Value == 4
	})
	kd := e.KEDA
	e.check(t, kd.ScalingModifiers != nil && kd.ScalingModifiers.Value != nil && *kd.ScalingModifiers.Value == 4 && !kd.ScalingModifiers.Active,
		"formula a + b at 2 + 2: want value 4, inactive (activationTarget 5)")
	e.check(t, !kd.Active && kd.Reason == explain.KEDAReasonInactive, "at 4: active %v reason %s", kd.Active, kd.Reason)
	e.replicasIs(t, 0)
	k.holdReplicas("composite 4 (activation 5)", 0, 4*kedaPoll)

	// 2 + 33 = 35: active, 0 → 1, then the HPA: 35 / 10 → 4.
	k.set("/b", 33)
	e = k.explainSO()
	kd = e.KEDA
	e.check(t, kd.ScalingModifiers != nil && kd.ScalingModifiers.Value != nil && *kd.ScalingModifiers.Value == 35 && kd.ScalingModifiers.Active,
		"formula a + b at 2 + 33: want value 35, active")
	e.check(t, kd.Active && kd.Reason == explain.KEDAReasonActive, "at 35: active %v reason %s", kd.Active, kd.Reason)
	e.replicasIs(t, 4)
	k.followed(e, 60*time.Second)
	h, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(k.ns).Get(k.ctx, "keda-hpa-worker", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Spec.Metrics) != 1 || h.Spec.Metrics[0].External == nil || h.Spec.Metrics[0].External.Metric.Name != "composite-metric" {
		t.Errorf("KEDA's HPA should read only composite-metric: %s", jsonString(h.Spec.Metrics))
	}
}

// TestKEDAWorkload: a kubernetes-workload trigger counts the pods of
// another Deployment: at the activation value (strict) the worker stays at
// zero; above it, one replica per pod (value 1).
func TestKEDAWorkload(t *testing.T) {
	k := newKEDAScenario(t, "keda-wl")
	k.deploy("feeder", 2, map[string]string{annCPU: cpuIdle})
	k.waitPods("feeder", 2)
	k.start(0, map[string]any{
		"cooldownPeriod":  int64(5),
		"minReplicaCount": int64(0),
		"maxReplicaCount": int64(6),
		"triggers": []any{map[string]any{"type": "kubernetes-workload", "metadata": map[string]any{
			"podSelector": "app=feeder", "value": "1", "activationValue": "2",
		}}},
	}, nil)
	k.waitCondition("Ready", "True", 60*time.Second)
	e := k.explainUntil(func(e *kedaView) bool { return triggerIs(e, 0, 2) })
	kd := e.KEDA
	e.check(t, len(kd.Triggers) == 1 && kd.Triggers[0].Value != nil && *kd.Triggers[0].Value == 2 && !kd.Active,
		"2 pods (activation 2): want value 2, inactive")
	e.replicasIs(t, 0)
	k.holdReplicas("2 pods (activation 2)", 0, 3*kedaPoll)

	if _, err := env.kube.AppsV1().Deployments(k.ns).Patch(k.ctx, "feeder", types.MergePatchType, []byte(`{"spec":{"replicas":5}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	k.waitPods("feeder", 5)
	e = k.explainSO()
	kd = e.KEDA
	e.check(t, kd.Active && kd.Reason == explain.KEDAReasonActive && kd.Triggers[0].Value != nil && *kd.Triggers[0].Value == 5,
		"5 pods: active %v reason %s", kd.Active, kd.Reason)
	// From 1, an HPA without behavior adds at most max(2×1, 4) replicas per
	// sync: 1 → 4, then 4 → 5.
	if kd.CurrentReplicas == 0 {
		e.replicasIs(t, 4)
	}
	k.followed(e, 60*time.Second)
	k.waitReplicas("active", 5, 60*time.Second)
	e = k.explainSO()
	e.check(t, e.KEDA.Active && e.KEDA.KEDAScaleTo == nil, "at 5: KEDA writes nothing")
	e.replicasIs(t, 5)
}

// TestKEDACron: a cron trigger whose window holds now is active and asks
// for its desiredReplicas.
func TestKEDACron(t *testing.T) {
	k := newKEDAScenario(t, "keda-cron")
	now := time.Now().UTC()
	start := fmt.Sprintf("%d * * * *", (now.Minute()+59)%60)
	end := fmt.Sprintf("%d * * * *", (now.Minute()+4)%60)
	k.start(0, map[string]any{
		"cooldownPeriod":  int64(5),
		"minReplicaCount": int64(0),
		"maxReplicaCount": int64(6),
		"triggers": []any{map[string]any{"type": "cron", "metadata": map[string]any{
			"timezone": "UTC", "start": start, "end": end, "desiredReplicas": "3",
		}}},
	}, nil)
	k.waitCondition("Ready", "True", 60*time.Second)
	e := k.explainSO()
	kd := e.KEDA
	e.check(t, len(kd.Triggers) == 1 && kd.Triggers[0].Schedule != nil && kd.Triggers[0].Active && kd.Active,
		"cron %s–%s at %s: want the trigger active", start, end, now.Format("15:04"))
	e.check(t, kd.Reason == explain.KEDAReasonActive, "reason %s", kd.Reason)
	e.replicasIs(t, 3)
	k.followed(e, 60*time.Second)
}
