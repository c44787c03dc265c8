// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

var t0 = time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)

func at(d string) time.Time {
	dd, err := time.ParseDuration(d)
	if err != nil {
		panic(err)
	}
	return t0.Add(dd)
}

func newTestClient(tb testing.TB, url string, mod ...func(*Config)) *Client {
	tb.Helper()
	o := Config{Endpoint: url}
	for _, m := range mod {
		m(&o)
	}
	c, err := NewClient(o, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func container(name, cpu, memory string) corev1.Container {
	return corev1.Container{Name: name, Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(memory),
	}}}
}

func livePod(name string, created time.Time, ready bool, readySince time.Time, phase corev1.PodPhase) corev1.Pod {
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	p := corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", CreationTimestamp: metav1.NewTime(created), Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{container("app", "200m", "256Mi")}},
		Status:     corev1.PodStatus{Phase: phase, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: status, LastTransitionTime: metav1.NewTime(readySince)}}},
	}
	if phase == corev1.PodRunning {
		st := metav1.NewTime(created.Add(5 * time.Second))
		p.Status.StartTime = &st
	}
	return p
}

// cadvisor is the label set of a cAdvisor series of a container: a raw
// read keeps every label.
func cadvisor(metric, pod, container string) map[string]string {
	return lbl("__name__", metric, "namespace", "shop", "pod", pod, "container", container,
		"id", "/kubepods/burstable/pod-"+pod+"/"+container, "image", "registry.example/web:1", "job", "kubelet", "metrics_path", "/metrics/cadvisor")
}

// gridCPU is a user's cpu query (--query cpu=...), read on the sync grid:
// the irate form the reads had before the raw samples.
func gridCPU(q *queries) string {
	sel := q.containerSel(metricCPU)
	return fmt.Sprintf("max by (pod, container) (irate(%s[%s]%s) and last_over_time(%s[%s]%s))",
		sel, promDuration(q.rng), q.offset(), sel, promDuration(q.fresh), q.offset())
}

// baseRequest is an hour of Deployment shop/web at 15 s, reading cpu,
// metrics-server scraping every 15 s.
func baseRequest() Request {
	return Request{
		Namespace: "shop", Kind: "Deployment", Name: "web", Selector: "app=web",
		ReplicaSets: []ReplicaSet{{Name: "web-5d4f8", Containers: []corev1.Container{container("app", "200m", "256Mi")}}},
		Template:    []corev1.Container{container("app", "300m", "512Mi")},
		Metrics:     []MetricRequest{{Kind: recording.KindResource, Name: "cpu"}},
		Start:       t0, Step: 15 * time.Second, Len: 240, Window: 15 * time.Second,
	}
}

// queriesFor builds the queries of a request as Read will, once the pods
// are matched by the given ReplicaSets.
func queriesFor(req Request, rs ...string) *queries {
	end := t0.Add(time.Duration(req.Len-1) * req.Step)
	return &queries{
		ns: req.Namespace, lag: req.SampleLag, period: end.Sub(t0) + staleLookback,
		pods: newPodMatcher(rs, "", nil).expr, rng: time.Minute, fresh: 30 * time.Second,
	}
}

func TestQueryText(t *testing.T) {
	q := queriesFor(baseRequest(), "web-5d4f8", "web-7c9bb")
	pods := `(?:web-5d4f8-|web-7c9bb-)[bcdfghjklmnpqrstvwxz2456789]{5}`
	if q.pods != pods {
		t.Errorf("pods = %s", q.pods)
	}
	sel := `{namespace="shop",pod=~"` + pods + `"`
	csel := sel + `,container!="",container!="POD"}`
	for _, c := range []struct{ got, want string }{
		{q.rawCPU(), `container_cpu_usage_seconds_total` + csel},
		{q.rawMemory(), `container_memory_working_set_bytes` + csel},
		{rawQuery(q.rawCPU(), 90*time.Minute+500*time.Millisecond), `container_cpu_usage_seconds_total` + csel + `[1h30m500ms]`},
		{q.memory(), `max by (pod, container) (last_over_time(container_memory_working_set_bytes` + csel + `[30s]))`},
		{q.probe(), `max(count_over_time(container_memory_working_set_bytes` + csel + `[10m]))`},
		{q.replicaSets("Deployment", "web"), `max by (replicaset) (last_over_time(kube_replicaset_owner{namespace="shop",owner_kind="Deployment",owner_name="web"}[1h4m45s]))`},
		{q.podOwners([]string{"Deployment", "ReplicaSet"}, []string{"web", "web-5d4f8", "web-7c9bb"}), `max by (pod, owner_kind, owner_name) (last_over_time(kube_pod_owner{namespace="shop",owner_kind=~"Deployment|ReplicaSet",owner_name=~"web|web-5d4f8|web-7c9bb"}[1h4m45s]))`},
		{q.phase(), `max by (pod, phase) (kube_pod_status_phase` + sel + `} == 1)`},
		{q.ready(), `max by (pod) (kube_pod_status_ready` + sel + `,condition="true"})`},
		{q.lastValue(ksmCreated), `max by (pod) (last_over_time(kube_pod_created` + sel + `}[1h4m45s]))`},
		{q.requests(), `max by (pod, container, resource) (last_over_time(kube_pod_container_resource_requests` + sel + `,resource=~"cpu|memory"}[1h4m45s]))`},
		{q.limits(), `max by (pod, container) (last_over_time(kube_pod_container_resource_limits` + sel + `,resource="cpu"}[1h4m45s]))`},
		{q.throttled(30 * time.Second), `max by (pod, container) (rate(container_cpu_cfs_throttled_periods_total` + csel + `[30s]) / rate(container_cpu_cfs_periods_total` + csel + `[30s]))`},
		{q.replicas("Deployment", "web"), `max(kube_deployment_spec_replicas{namespace="shop",deployment="web"})`},
		{q.replicas("StatefulSet", "db"), `max(kube_statefulset_replicas{namespace="shop",statefulset="db"})`},
		{q.replicas("ReplicaSet", "web-5d4f8"), `max(kube_replicaset_spec_replicas{namespace="shop",replicaset="web-5d4f8"})`},
		{q.replicas("Rollout", "web"), ``},
	} {
		if c.got != c.want {
			t.Errorf("query\n got: %s\nwant: %s", c.got, c.want)
		}
	}
	q.lag = 15 * time.Second
	want := `max by (pod, container) (last_over_time(container_memory_working_set_bytes` + csel + `[30s] offset 15s))`
	if got := q.memory(); got != want {
		t.Errorf("memory with a lag\n got: %s\nwant: %s", got, want)
	}
	// Names that PromQL or a regular expression would read otherwise.
	q2 := &queries{ns: `we"ird`, pods: newPodMatcher([]string{"web.v2"}, "", nil).expr}
	if got, want := q2.podSel("m"), `m{namespace="we\"ird",pod=~"(?:web\\.v2-)[bcdfghjklmnpqrstvwxz2456789]{5}"}`; got != want {
		t.Errorf("escaping\n got: %s\nwant: %s", got, want)
	}
}

func TestPodMatcher(t *testing.T) {
	long := strings.Repeat("a", 50) + "-5d4f8bc9d7" // 61 characters
	m := newPodMatcher([]string{"web-5d4f8", "web-7c9bb", long}, "", []string{"web-5d4f8-k2x9p", "standalone"})
	for _, c := range []struct {
		pod   string
		match bool
		owner string
	}{
		{"web-5d4f8-k2x9p", true, "ReplicaSet/web-5d4f8"},
		{"web-7c9bb-d2f4g", true, "ReplicaSet/web-7c9bb"},
		{"web-5d4f8-abcde", false, ""},          // vowels: not a generated suffix
		{"web-5d4f8-k2x9", false, ""},           // 4 characters
		{"web-api-6b7c8-bbbbb", false, ""},      // another Deployment's pod
		{"web-5d4f8-k2x9p-extra", false, ""},    // longer
		{"xweb-5d4f8-k2x9p", false, ""},         // anchored
		{"standalone", true, ""},                // named one by one
		{long[:57] + "-" + "bcdfg", false, ""},  // not cut where the API server cuts
		{(long + "-")[:58] + "bcdfg", true, ""}, // cut at 58 characters
	} {
		if got := m.Match(c.pod); got != c.match {
			t.Errorf("Match(%s) = %v", c.pod, got)
		}
		if c.owner != "" {
			if got := m.Owner(c.pod); got != c.owner {
				t.Errorf("Owner(%s) = %q; want %q", c.pod, got, c.owner)
			}
		}
	}
	if got := m.Owner((long + "-")[:58] + "bcdfg"); got != "ReplicaSet/"+long {
		t.Errorf("owner of a cut name = %q", got)
	}
	sts := newPodMatcher(nil, "db", nil)
	for pod, want := range map[string]bool{"db-0": true, "db-12": true, "db-01": false, "db-": false, "db-x": false, "db-primary-0": false} {
		if got := sts.Match(pod); got != want {
			t.Errorf("StatefulSet Match(%s) = %v", pod, got)
		}
	}
	if got := sts.Owner("db-3"); got != "StatefulSet/db" {
		t.Errorf("StatefulSet owner = %q", got)
	}
	if !newPodMatcher(nil, "", nil).Empty() || newPodMatcher(nil, "", nil).Match("") {
		t.Error("an empty matcher matches")
	}
}

// ksmScenario registers an hour of Deployment shop/web with
// kube-state-metrics: an old ReplicaSet's pod deleted at 14:20, a pod of
// the current one throughout, one created at 14:10 (Pending until 14:12,
// ready at 14:12:30), and foreign pods the queries may return.
func ksmScenario(f *fakeProm, req Request) {
	q := queriesFor(req, "web-5d4f8", "web-7c9bb")
	old, keep, late := "web-7c9bb-d2f4g", "web-5d4f8-k2x9p", "web-5d4f8-h7q4m"
	far := t0.Add(-24 * time.Hour)
	f.onInstant(q.replicaSets("Deployment", "web"),
		fakeSeries{labels: lbl("replicaset", "web-5d4f8"), at: func(time.Time) (float64, bool) { return 1, true }},
		fakeSeries{labels: lbl("replicaset", "web-7c9bb"), at: func(time.Time) (float64, bool) { return 1, true }})
	owner := func(pod, kind, name string) fakeSeries {
		return fakeSeries{labels: lbl("pod", pod, "owner_kind", kind, "owner_name", name), at: func(time.Time) (float64, bool) { return 1, true }}
	}
	f.onInstant(q.podOwners([]string{"Deployment", "ReplicaSet"}, []string{"web", "web-5d4f8", "web-7c9bb"}),
		owner(old, "ReplicaSet", "web-7c9bb"), owner(keep, "ReplicaSet", "web-5d4f8"), owner(late, "ReplicaSet", "web-5d4f8"),
		owner("web-bbbbb", "ReplicaSet", "web")) // a ReplicaSet named like the Deployment: not ours
	f.onRange(q.phase(),
		during(lbl("pod", old, "phase", "Running"), far, at("20m"), constant(1)),
		during(lbl("pod", keep, "phase", "Running"), far, at("2h"), constant(1)),
		during(lbl("pod", late, "phase", "Pending"), at("10m"), at("12m"), constant(1)),
		during(lbl("pod", late, "phase", "Running"), at("12m"), at("2h"), constant(1)),
		during(lbl("pod", "web-zzzzz", "phase", "Running"), far, at("2h"), constant(1))) // not an owned pod
	f.onRange(q.ready(),
		during(lbl("pod", old), far, at("20m"), constant(1)),
		during(lbl("pod", keep), far, at("2h"), func(t time.Time) float64 {
			if !t.Before(at("30m")) && t.Before(at("31m")) {
				return 0 // a failing probe for a minute
			}
			return 1
		}),
		during(lbl("pod", late), at("10m"), at("2h"), func(t time.Time) float64 {
			if t.Before(at("12m30s")) {
				return 0
			}
			return 1
		}))
	f.onInstant(q.lastValue(ksmCreated),
		during(lbl("pod", old), far, at("2h"), constant(float64(t0.Add(-3*time.Hour).Unix()))),
		during(lbl("pod", keep), far, at("2h"), constant(float64(t0.Add(-2*time.Hour).Unix()))),
		during(lbl("pod", late), far, at("2h"), constant(float64(at("9m58s").Unix()))))
	f.onInstant(q.lastValue(ksmStarted),
		during(lbl("pod", old), far, at("2h"), constant(float64(t0.Add(-3*time.Hour+10*time.Second).Unix()))),
		during(lbl("pod", keep), far, at("2h"), constant(float64(t0.Add(-2*time.Hour+10*time.Second).Unix()))),
		during(lbl("pod", late), far, at("2h"), constant(float64(at("11m50s").Unix()))))
	f.onInstant(q.lastValue(ksmDeletion),
		during(lbl("pod", old), far, at("2h"), constant(float64(at("19m30s").Unix()))))
	// kube-state-metrics' ready time: late became ready at 12m27s, which
	// its ready series shows from its next sample on (12m30s).
	f.onInstant(q.lastValue(ksmReadyTime),
		during(lbl("pod", late), at("12m30s"), at("2h"), constant(float64(at("12m27s").Unix()))))
	req3 := func(pod, c, res string, v float64) fakeSeries {
		return during(lbl("pod", pod, "container", c, "resource", res), far, at("2h"), constant(v))
	}
	f.onInstant(q.requests(),
		req3(old, "app", "cpu", 0.25), req3(old, "app", "memory", 268435456),
		req3(keep, "app", "cpu", 0.2), req3(keep, "app", "memory", 268435456), req3(keep, "sidecar", "cpu", 0.05),
		req3(late, "app", "cpu", 0.2), req3(late, "app", "memory", 268435456))
	// No container has a CPU limit (TestReadLimitsAndThrottling adds some).
	f.onInstant(q.limits())
	f.onRange(q.probe(), during(nil, far, at("2h"), constant(40)))
	// The counters, every 15 s from an hour before the period: the kept
	// pod's app at 0.04 core then, 0.001 more every minute (0.1 at 14:00).
	early, every := t0.Add(-time.Hour), 15*time.Second
	f.onRaw(q.rawCPU(),
		rawEvery(cadvisor(metricCPU, old, "app"), early, at("20m"), every, steady(0.3, far)),
		rawEvery(cadvisor(metricCPU, keep, "app"), early, at("2h"), every, ramp(0.04, 0.001/60, early)),
		rawEvery(cadvisor(metricCPU, keep, "sidecar"), early, at("2h"), every, steady(0.01, far)),
		rawEvery(cadvisor(metricCPU, late, "app"), at("12m15s"), at("2h"), every, steady(0.5, at("12m"))),
		rawEvery(cadvisor(metricCPU, "web-api-6b7c8-bbbbb", "app"), early, at("2h"), every, steady(9, far))) // foreign
	f.onRange(q.replicas("Deployment", "web"), during(nil, far, at("2h"), func(t time.Time) float64 {
		switch {
		case t.Before(at("10m")):
			return 2
		case t.Before(at("20m")):
			return 3
		}
		return 2
	}))
}

func TestReadWithKubeStateMetrics(t *testing.T) {
	f, srv := newFakeProm(t)
	req := baseRequest()
	ksmScenario(f, req)
	var last Progress
	req.Progress = func(p Progress) { last = p }
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Workload != "Deployment/web" || rec.Namespace != "shop" || rec.Len != 240 || rec.SampleWindow != 15*time.Second {
		t.Errorf("recording header = %s %s %d %s", rec.Namespace, rec.Workload, rec.Len, rec.SampleWindow)
	}
	if len(rec.Pods) != 3 {
		t.Fatalf("pods = %v", podNames(rec))
	}
	old, keep, late := rec.Pods[0], rec.Pods[1], rec.Pods[2]
	if old.Name != "web-7c9bb-d2f4g" || keep.Name != "web-5d4f8-k2x9p" || late.Name != "web-5d4f8-h7q4m" {
		t.Fatalf("pods in creation order = %v", podNames(rec))
	}
	if old.Owner != "ReplicaSet/web-7c9bb" || old.Deleted == nil || !old.Deleted.Equal(at("20m")) || old.Terminating == nil || !old.Terminating.Equal(at("19m30s")) {
		t.Errorf("old pod = %+v", old)
	}
	if !old.Created.Equal(t0.Add(-3 * time.Hour)) {
		t.Errorf("old pod created %s", old.Created)
	}
	if got := old.Containers; len(got) != 1 || got[0].Requests["cpu"] != 250 || got[0].Requests["memory"] != 268435456 {
		t.Errorf("old pod containers = %+v", got)
	}
	if keep.Deleted != nil || len(keep.Containers) != 2 || keep.Containers[1].Name != "sidecar" || keep.Containers[1].Requests["cpu"] != 50 {
		t.Errorf("kept pod = %+v", keep)
	}
	wantReady := []recording.ReadyChange{{At: t0, Ready: true}, {At: at("30m"), Ready: false}, {At: at("31m"), Ready: true}}
	if !equalReady(keep.Ready, wantReady) {
		t.Errorf("kept pod readiness = %+v", keep.Ready)
	}
	if !late.Created.Equal(at("9m58s")) || late.Started == nil || !late.Started.Equal(at("11m50s")) {
		t.Errorf("late pod created %s started %v", late.Created, late.Started)
	}
	if len(late.Phases) != 2 || late.Phases[0] != (recording.PhaseChange{At: at("10m"), Phase: "Pending"}) || late.Phases[1] != (recording.PhaseChange{At: at("12m"), Phase: "Running"}) {
		t.Errorf("late pod phases = %+v", late.Phases)
	}
	if !equalReady(late.Ready, []recording.ReadyChange{{At: at("12m27s"), Ready: true}}) {
		t.Errorf("late pod readiness = %+v", late.Ready)
	}
	if got := podNamesAt(rec, 0); got != "web-7c9bb-d2f4g,web-5d4f8-k2x9p" {
		t.Errorf("pods at the start = %s", got)
	}
	if got := podNamesAt(rec, 80); got != "web-5d4f8-k2x9p,web-5d4f8-h7q4m" {
		t.Errorf("pods at 14:20 = %s", got)
	}
	cpu := rec.Metric(recording.KindResource, "cpu")
	if cpu == nil || len(cpu.PerPod) != 3 {
		t.Fatalf("cpu = %+v", cpu)
	}
	// metrics-server's sample at 14:15 is the rate from 14:14:37.5 to
	// 14:14:52.5: the ramp's at 14:14:45.
	if v, ok := cpu.PerPod["web-5d4f8-k2x9p"]["app"].At(60); !ok || math.Abs(v-0.11475) > 1e-9 {
		t.Errorf("cpu of the kept pod at 14:15 = %v %v", v, ok)
	}
	// Its last sample is at 14:19:45: metrics-server's scrape at
	// 14:19:52.5 still had it (for the sync at 14:20, when the pod is
	// gone), the one at 14:20:07.5 did not.
	if _, ok := cpu.PerPod["web-7c9bb-d2f4g"]["app"].At(81); ok {
		t.Error("the deleted pod has cpu at 14:20:15")
	}
	if _, ok := cpu.PerPod["web-5d4f8-h7q4m"]["app"].At(48); ok {
		t.Error("the late pod has cpu before its first sample")
	}
	if rec.Replicas.Source != recording.SourceKubeStateMetrics || len(rec.Replicas.Changes) != 3 ||
		rec.Replicas.Changes[1] != (recording.ReplicaChange{At: at("10m"), Replicas: 3}) {
		t.Errorf("replicas = %+v", rec.Replicas)
	}
	if len(rec.Reconstructed) != 0 {
		t.Errorf("reconstructed = %q", rec.Reconstructed)
	}
	if len(rec.Sources) < 10 {
		t.Errorf("sources = %+v", rec.Sources)
	}
	for _, s := range rec.Sources {
		if strings.HasPrefix(s.What, "cpu usage") && (s.Series != 4 || s.What != "cpu usage (1 series of other pods left out)") {
			t.Errorf("cpu source = %+v (5 returned, one foreign)", s)
		}
	}
	if rec.LimitsFrom != recording.LimitsKubeStateMetrics || rec.Throttling != nil || rec.ThrottlingFrom != "" || old.Containers[0].Limits != nil {
		t.Errorf("limits from %q, throttling from %q: %v", rec.LimitsFrom, rec.ThrottlingFrom, rec.Throttling)
	}
	// 13 requests: the limits' and the ready times' instant queries, and
	// no throttling read (without a CPU limit nothing is throttled).
	if last.Done != last.Total || last.Total != 4*240 || last.Requests != 13 {
		t.Errorf("last progress = %+v", last)
	}
}

// A store of many clusters (a cluster label): every query selects the
// cluster's series, and the read is the one of the cluster's own store.
func TestReadClusterLabel(t *testing.T) {
	read := func(scope string, mod func(*Config)) string {
		t.Helper()
		f, srv := newFakeProm(t)
		f.scope = scope
		req := baseRequest()
		ksmScenario(f, req)
		rec, err := newTestClient(t, srv.URL, mod).Read(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	one := read("", func(*Config) {})
	many := read(`cluster="prod-eu"`, func(o *Config) {
		o.ClusterLabel, o.Clusters = "cluster", []string{"prod=prod-eu", "test=x"}
		*o = o.ForContext("prod")
	})
	// The queries recorded name the cluster; nothing else differs, to the
	// last bit.
	if !strings.Contains(many, `cluster=\"prod-eu\"`) {
		t.Error("the recording's queries do not name the cluster")
	}
	if many = strings.ReplaceAll(strings.ReplaceAll(many, `,cluster=\"prod-eu\"`, ""), `{cluster=\"prod-eu\"}`, ""); many != one {
		t.Error("the read of a cluster of a store of many differs from its own store's")
	}
}

func TestReadWithoutKubeStateMetrics(t *testing.T) {
	f, srv := newFakeProm(t)
	req := baseRequest()
	req.Metrics = append(req.Metrics, MetricRequest{Kind: recording.KindResource, Name: "memory"})
	keep, gone, pending := "web-5d4f8-k2x9p", "web-5d4f8-h7q4m", "web-5d4f8-n8r2t"
	req.Pods = []corev1.Pod{
		livePod(keep, t0.Add(-2*time.Hour), true, t0.Add(-119*time.Minute), corev1.PodRunning),
		livePod(pending, at("50m"), false, at("50m"), corev1.PodPending),
	}
	q := queriesFor(req, "web-5d4f8")
	q.pods = newPodMatcher([]string{"web-5d4f8"}, "", []string{keep, pending}).expr
	far := t0.Add(-24 * time.Hour)
	// kube-state-metrics answers nothing.
	f.onInstant(queriesFor(req).replicaSets("Deployment", "web"))
	f.onInstant(q.podOwners([]string{"Deployment", "ReplicaSet"}, []string{"web", "web-5d4f8"}))
	f.onRange(q.replicas("Deployment", "web"))
	f.onRange(q.probe(), during(nil, far, at("2h"), constant(40)))
	early, every := t0.Add(-time.Hour), 15*time.Second
	usage := func(metric string, v func(float64, time.Time) func(time.Time) float64) []fakeRaw {
		return []fakeRaw{
			gappedRaw(rawEvery(cadvisor(metric, keep, "app"), early, at("2h"), every, v(1, early)), at("20m"), at("21m")),
			rawEvery(cadvisor(metric, gone, "app"), at("12m"), at("40m"), every, v(2, at("12m"))),
			rawEvery(cadvisor(metric, "web-7c9bb-d2f4g", "app"), early, at("10m"), every, v(1, early)),    // a ReplicaSet deleted since: unknown
			rawEvery(cadvisor(metric, "web-api-6b7c8-bbbbb", "app"), early, at("2h"), every, v(1, early)), // foreign
		}
	}
	f.onRaw(q.rawCPU(), usage(metricCPU, func(k float64, origin time.Time) func(time.Time) float64 { return steady(0.2*k, origin) })...)
	f.onRaw(q.rawMemory(), usage(metricMemory, func(k float64, _ time.Time) func(time.Time) float64 { return constant(1e8 * k) })...)
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(podNames(rec), ","); got != keep+","+gone+","+pending {
		t.Fatalf("pods = %s", got)
	}
	k, g, p := rec.Pods[0], rec.Pods[1], rec.Pods[2]
	if k.Deleted != nil || !k.Created.Equal(t0.Add(-2*time.Hour)) || k.Owner != "ReplicaSet/web-5d4f8" || k.Labels["app"] != "web" {
		t.Errorf("live pod = %+v", k)
	}
	if !equalReady(k.Ready, []recording.ReadyChange{{At: t0.Add(-119 * time.Minute), Ready: true}}) {
		t.Errorf("live pod readiness = %+v", k.Ready)
	}
	// The store's minute without a sample (14:20 to 14:21) is bridged:
	// the counter is interpolated across it, as between any two samples.
	if v, ok := rec.Metric(recording.KindResource, "cpu").PerPod[keep]["app"].At(82); !ok || math.Abs(v-0.2) > 1e-9 {
		t.Errorf("cpu in the store's gap = %v %v", v, ok)
	}
	// Its last sample is at 14:39:45: metrics-server's scrape at
	// 14:39:52.5, within half a store interval of it, still had the pod,
	// and the sync at 14:40 read that sample; it is gone one sync later.
	// Known by its usage series alone (first sample at 14:12), it was
	// created, started and ready a metrics window (15s) before it.
	if !g.Created.Equal(at("11m45s")) || g.Deleted == nil || !g.Deleted.Equal(at("40m15s")) || g.Owner != "ReplicaSet/web-5d4f8" {
		t.Errorf("gone pod = %+v (created %s)", g, g.Created)
	}
	if !equalReady(g.Ready, []recording.ReadyChange{{At: at("11m45s"), Ready: true}}) || g.Started == nil || !g.Started.Equal(at("11m45s")) {
		t.Errorf("gone pod readiness %+v, started %v", g.Ready, g.Started)
	}
	if len(g.Containers) != 1 || g.Containers[0].Requests["cpu"] != 200 {
		t.Errorf("gone pod's requests (its ReplicaSet's template) = %+v", g.Containers)
	}
	if !p.Created.Equal(at("50m")) || p.Deleted != nil || len(p.Ready) != 0 || p.PhaseAt(at("55m")) != "Pending" {
		t.Errorf("pending pod = %+v", p)
	}
	if rec.Replicas.Source != recording.SourceNone {
		t.Errorf("replicas = %+v", rec.Replicas)
	}
	// Without kube-state-metrics the limits are the specs' (none here: no
	// throttling read).
	if rec.LimitsFrom != recording.LimitsSpecs || rec.ThrottlingFrom != "" {
		t.Errorf("limits from %q, throttling from %q", rec.LimitsFrom, rec.ThrottlingFrom)
	}
	notes := strings.Join(rec.Reconstructed, "\n")
	for _, want := range []string{"without kube-state-metrics", "1 of 3 pods: exist from their first to their last fresh usage sample", "1 of 3 pods: ready from their first usage sample", "1 of 3 pods: requests from their ReplicaSet's live pod template", "live pods without a sample"} {
		if !strings.Contains(notes, want) {
			t.Errorf("reconstructed lacks %q:\n%s", want, notes)
		}
	}
}

// gappedRaw drops a raw series' samples from from to to (a gap in the
// store).
func gappedRaw(s fakeRaw, from, to time.Time) fakeRaw {
	inner := s.v
	s.v = func(t time.Time) (float64, bool) {
		if !t.Before(from) && t.Before(to) {
			return 0, false
		}
		return inner(t)
	}
	return s
}

func podNames(r *recording.Recording) []string {
	var out []string
	for _, p := range r.Pods {
		out = append(out, p.Name)
	}
	return out
}

func podNamesAt(r *recording.Recording, k int) string {
	var out []string
	for _, i := range r.PodsAt(k) {
		out = append(out, r.Pods[i].Name)
	}
	return strings.Join(out, ",")
}

func equalReady(a, b []recording.ReadyChange) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].At.Equal(b[i].At) || a[i].Ready != b[i].Ready {
			return false
		}
	}
	return true
}

// TestReadLimitsAndThrottling reads ksmScenario with CPU limits: the old
// pod's app at its 300m limit while it is ready (until its deletion
// began at 19m30s), the kept pod's app throttled in 30% of its periods
// from 20m to 25m (far below its limit), the late pod's app never at its
// limit and without CFS periods for a while (0/0: no value).
func TestReadLimitsAndThrottling(t *testing.T) {
	f, srv := newFakeProm(t)
	req := baseRequest()
	ksmScenario(f, req)
	q := queriesFor(req, "web-5d4f8", "web-7c9bb")
	old, keep, late := "web-7c9bb-d2f4g", "web-5d4f8-k2x9p", "web-5d4f8-h7q4m"
	far := t0.Add(-24 * time.Hour)
	lim := func(pod, c string, v float64) fakeSeries {
		return during(lbl("pod", pod, "container", c), far, at("2h"), constant(v))
	}
	f.onInstant(q.limits(), lim(old, "app", 0.3), lim(keep, "app", 1), lim(late, "app", 1), lim("web-zzzzz", "app", 1))
	// The usage's scrape interval is 15 s, the sample lag 0: the window is
	// two scrapes.
	f.onRange(q.throttled(30*time.Second),
		during(lbl("pod", keep, "container", "app"), far, at("2h"), func(t time.Time) float64 {
			if !t.Before(at("20m")) && t.Before(at("25m")) {
				return 0.3
			}
			return 0.01
		}),
		during(lbl("pod", late, "container", "app"), at("12m15s"), at("2h"), func(t time.Time) float64 {
			if t.Before(at("40m")) {
				return math.NaN()
			}
			return 0
		}),
		during(lbl("pod", "web-api-6b7c8-bbbbb", "container", "app"), far, at("2h"), constant(1))) // foreign
	var last Progress
	req.Progress = func(p Progress) { last = p }
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*recording.Pod{}
	for i := range rec.Pods {
		byName[rec.Pods[i].Name] = &rec.Pods[i]
	}
	if c := byName[old].Containers; len(c) != 1 || c[0].Limits["cpu"] != 300 || c[0].Requests["cpu"] != 250 {
		t.Errorf("old pod's containers = %+v", c)
	}
	if c := byName[keep].Containers; len(c) != 2 || c[0].Limits["cpu"] != 1000 || c[1].Name != "sidecar" || c[1].Limits != nil {
		t.Errorf("kept pod's containers = %+v", c)
	}
	if rec.LimitsFrom != recording.LimitsKubeStateMetrics || rec.ThrottlingFrom != recording.ThrottlingCAdvisor || len(rec.Throttling) != 2 {
		t.Fatalf("limits from %q, throttling from %q: %v", rec.LimitsFrom, rec.ThrottlingFrom, rec.Throttling)
	}
	if v, ok := rec.Throttling[keep]["app"].At(85); !ok || v != 0.3 {
		t.Errorf("kept pod's throttling at 14:21:15 = %v %v", v, ok)
	}
	if _, ok := rec.Throttling[late]["app"].At(100); ok {
		t.Error("the late pod has a throttling value without CFS periods")
	}
	if v, ok := rec.Throttling[late]["app"].At(200); !ok || v != 0 {
		t.Errorf("late pod's throttling at 14:50 = %v %v", v, ok)
	}
	found := false
	for _, s := range rec.Sources {
		if s.What == "cpu throttling (cAdvisor)" {
			found = s.Series == 2 && s.Query == q.throttled(30*time.Second)
		}
	}
	if !found {
		t.Errorf("sources = %+v", rec.Sources)
	}
	// One more instant query (the limits) and one range read (240
	// instants fit one request).
	if last.Done != last.Total || last.Total != 5*240 || last.Requests != 14 {
		t.Errorf("last progress = %+v", last)
	}
	c := rec.Censor(0)
	want := []recording.CensoredStretch{{From: 0, To: 77, Pods: 1}, {From: 80, To: 99, Pods: 1}}
	if !c.Limits || !c.Throttling || len(c.Stretches) != 2 || c.Stretches[0] != want[0] || c.Stretches[1] != want[1] {
		t.Errorf("censoring = %+v, want stretches %+v", c, want)
	}
	// Read in pieces of 100 instants, the series are the same.
	req.MaxPoints = 100
	pieces, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(seriesValues(pieces.Throttling), seriesValues(rec.Throttling)) {
		t.Errorf("throttling read in pieces differs:\n%v\n%v", seriesValues(pieces.Throttling), seriesValues(rec.Throttling))
	}
}

// seriesValues lists series by pod/container, each as its values from
// instant 0 (NaN as -1, so that equal series compare equal).
func seriesValues(m map[string]map[string]*recording.Series) map[string][]float64 {
	out := map[string][]float64{}
	for pod, byC := range m {
		for c, s := range byC {
			var vs []float64
			for k := 0; k < s.First+len(s.Values); k++ {
				v, ok := s.At(k)
				if !ok {
					v = -1
				}
				vs = append(vs, v)
			}
			out[pod+"/"+c] = vs
		}
	}
	return out
}

// TestReadThrottlingRefused: a store that refuses the throttling query
// still gives the recording, with a warning, censored by the limits alone.
func TestReadThrottlingRefused(t *testing.T) {
	f, srv := newFakeProm(t)
	req := baseRequest()
	ksmScenario(f, req)
	q := queriesFor(req, "web-5d4f8", "web-7c9bb")
	f.onInstant(q.limits(), during(lbl("pod", "web-5d4f8-k2x9p", "container", "app"), t0.Add(-time.Hour), at("2h"), constant(0.5)))
	f.fail[q.throttled(30*time.Second)] = fakeFailure{code: 422, errorType: "execution", msg: "unknown function"}
	rec, err := newTestClient(t, srv.URL).Read(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Throttling != nil || rec.ThrottlingFrom != "" || !strings.Contains(strings.Join(rec.Warnings, "\n"), "cpu throttling not read") {
		t.Errorf("throttling %v from %q, warnings %q", rec.Throttling, rec.ThrottlingFrom, rec.Warnings)
	}
	if c := rec.Censor(0); !c.Limits || c.Throttling {
		t.Errorf("censoring = %+v", c)
	}
}
