// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// podSet is the pods kube-state-metrics knows, while they are read.
type podSet struct {
	byName map[string]*podInfo
}

func newPodSet() *podSet { return &podSet{byName: map[string]*podInfo{}} }

// podInfo is what kube-state-metrics says of one pod.
type podInfo struct {
	owner         string
	phases, ready runs
	created       *time.Time
	started       *time.Time
	terminating   *time.Time
	// readyAt is when the pod last became ready (the Ready condition's
	// lastTransitionTime, kube_pod_status_ready_time: kube-state-metrics
	// 2.8 and later), if it was.
	readyAt *time.Time
	// requests are container → resource → value (millicores, bytes), in
	// the order the containers came.
	requests   map[string]map[string]int64
	containers []string
	// cpuLimits are container → CPU limit (millicores), for the
	// containers that have one.
	cpuLimits map[string]int64
}

// runs are stretches of instants with one value, as a series' points come
// (several series of one pod may interleave; normalize sorts and joins).
type runs []run

type run struct {
	from, to int
	val      string
}

func (r *runs) add(k int, val string) {
	if n := len(*r); n > 0 {
		last := &(*r)[n-1]
		if last.val == val && last.to == k-1 {
			last.to = k
			return
		}
	}
	*r = append(*r, run{k, k, val})
}

func (r runs) normalize() runs {
	out := slices.Clone(r)
	slices.SortStableFunc(out, func(a, b run) int { return a.from - b.from })
	j := 0
	for i := 1; i < len(out); i++ {
		if out[i].val == out[j].val && out[i].from <= out[j].to+1 {
			out[j].to = max(out[j].to, out[i].to)
			continue
		}
		j++
		out[j] = out[i]
	}
	if len(out) > 0 {
		out = out[:j+1]
	}
	return out
}

func (r runs) span() (int, int, bool) {
	if len(r) == 0 {
		return 0, 0, false
	}
	first, last := r[0].from, r[0].to
	for _, x := range r[1:] {
		first, last = min(first, x.from), max(last, x.to)
	}
	return first, last, true
}

// readOwners finds the workload's pods over the period from
// kube-state-metrics' owner series: its ReplicaSets (kube_replicaset_owner),
// then the pods they or the workload own (kube_pod_owner). It reports
// whether kube-state-metrics had any of them, and the ReplicaSets known.
func (rd *reader) readOwners(ctx context.Context, pods *podSet, rsNames []string) (bool, []string, error) {
	req := rd.req
	end := rd.g.at(rd.g.n - 1)
	found := false
	if req.Kind != "ReplicaSet" && req.Kind != "StatefulSet" {
		q := rd.q.replicaSets(req.Kind, req.Name)
		v, w, err := rd.c.instant(ctx, "the workload's ReplicaSets", q, end)
		rd.requested()
		if err != nil {
			return false, nil, err
		}
		rd.warnings = append(rd.warnings, w...)
		for _, s := range v {
			if rs := string(s.Metric["replicaset"]); rs != "" {
				rsNames = append(rsNames, rs)
				found = true
			}
		}
		rd.rec.Sources = append(rd.rec.Sources, recording.Source{What: "ReplicaSets (kube-state-metrics)", Query: q, Series: len(v)})
	}
	rsNames = uniqSorted(rsNames)
	kinds, names := []string{req.Kind}, []string{req.Name}
	if len(rsNames) > 0 {
		kinds = append(kinds, "ReplicaSet")
		names = append(names, rsNames...)
	}
	q := rd.q.podOwners(kinds, names)
	v, w, err := rd.c.instant(ctx, "the pods' owners", q, end)
	rd.requested()
	if err != nil {
		return false, nil, err
	}
	rd.warnings = append(rd.warnings, w...)
	isRS := map[string]bool{}
	for _, rs := range rsNames {
		isRS[rs] = true
	}
	for _, s := range v {
		pod, kind, name := string(s.Metric["pod"]), string(s.Metric["owner_kind"]), string(s.Metric["owner_name"])
		if pod == "" || !(kind == req.Kind && name == req.Name || kind == "ReplicaSet" && isRS[name]) {
			continue
		}
		found = true
		if pods.byName[pod] == nil {
			pods.byName[pod] = &podInfo{owner: kind + "/" + name}
		}
	}
	rd.rec.Sources = append(rd.rec.Sources, recording.Source{What: "pods and owners (kube-state-metrics)", Query: q, Series: len(v)})
	return found, rsNames, nil
}

// readPodFacts reads what does not change over a pod's life: creation and
// start times, deletionTimestamp, requests.
func (rd *reader) readPodFacts(ctx context.Context, pods *podSet, end time.Time) error {
	for _, f := range []struct {
		what, metric string
		set          func(p *podInfo, t time.Time)
	}{
		{"creation times", ksmCreated, func(p *podInfo, t time.Time) { p.created = &t }},
		{"start times", ksmStarted, func(p *podInfo, t time.Time) { p.started = &t }},
		{"deletion timestamps", ksmDeletion, func(p *podInfo, t time.Time) { p.terminating = &t }},
		{"ready times", ksmReadyTime, func(p *podInfo, t time.Time) { p.readyAt = &t }},
	} {
		q := rd.q.lastValue(f.metric)
		v, w, err := rd.c.instant(ctx, "the pods' "+f.what, q, end)
		rd.requested()
		if err != nil {
			return err
		}
		rd.warnings = append(rd.warnings, w...)
		for _, s := range v {
			if p := pods.byName[string(s.Metric["pod"])]; p != nil && s.Value > 0 {
				f.set(p, unixSeconds(float64(s.Value)))
			}
		}
		rd.rec.Sources = append(rd.rec.Sources, recording.Source{What: "pod " + f.what + " (kube-state-metrics)", Query: q, Series: len(v)})
	}
	q := rd.q.requests()
	v, w, err := rd.c.instant(ctx, "the containers' requests", q, end)
	rd.requested()
	if err != nil {
		return err
	}
	rd.warnings = append(rd.warnings, w...)
	for _, s := range v {
		p := pods.byName[string(s.Metric["pod"])]
		container, resource := string(s.Metric["container"]), string(s.Metric["resource"])
		if p == nil || container == "" {
			continue
		}
		if p.requests == nil {
			p.requests = map[string]map[string]int64{}
		}
		if p.requests[container] == nil {
			p.requests[container] = map[string]int64{}
			p.containers = append(p.containers, container)
		}
		switch resource {
		case "cpu":
			p.requests[container]["cpu"] = int64(math.Round(float64(s.Value) * 1000))
		case "memory":
			p.requests[container]["memory"] = int64(math.Round(float64(s.Value)))
		}
	}
	rd.rec.Sources = append(rd.rec.Sources, recording.Source{What: "container requests (kube-state-metrics)", Query: q, Series: len(v)})
	return rd.readLimits(ctx, pods, end)
}

// readLimits reads the containers' CPU limits: what tells, with the
// throttling, where the recorded usage was capped.
func (rd *reader) readLimits(ctx context.Context, pods *podSet, end time.Time) error {
	q := rd.q.limits()
	v, w, err := rd.c.instant(ctx, "the containers' CPU limits", q, end)
	rd.requested()
	if err != nil {
		return err
	}
	rd.warnings = append(rd.warnings, w...)
	for _, s := range v {
		p := pods.byName[string(s.Metric["pod"])]
		container := string(s.Metric["container"])
		if p == nil || container == "" || s.Value <= 0 {
			continue
		}
		if p.cpuLimits == nil {
			p.cpuLimits = map[string]int64{}
		}
		p.cpuLimits[container] = int64(math.Round(float64(s.Value) * 1000))
		if !slices.Contains(p.containers, container) {
			p.containers = append(p.containers, container)
		}
	}
	rd.rec.LimitsFrom = recording.LimitsKubeStateMetrics
	rd.rec.Sources = append(rd.rec.Sources, recording.Source{What: "container CPU limits (kube-state-metrics)", Query: q, Series: len(v)})
	return nil
}

func unixSeconds(s float64) time.Time {
	sec, frac := math.Modf(s)
	return time.Unix(int64(sec), int64(math.Round(frac*1e9))).UTC()
}

// usageSpan is the first and last instant any usage value of a pod was
// read at.
type usageSpan struct{ first, last int }

// reconstruction counts what was inferred, for Recording.Reconstructed.
type reconstruction struct {
	fromUsage, created, started, phases, phasesLive, readyFirst, readyLive, reqRS, reqTemplate, reqNone, live int
}

// assemblePods builds the recording's pods: kube-state-metrics' where it
// knows them, else from the usage series and the live pods.
func (rd *reader) assemblePods(pods *podSet, match *podMatcher, existence map[string]*recording.Series, ksm bool) {
	req := rd.req
	live := map[string]*corev1.Pod{}
	for i := range req.Pods {
		live[req.Pods[i].Name] = &req.Pods[i]
	}
	templates := map[string][]corev1.Container{}
	for _, rs := range req.ReplicaSets {
		templates[rs.Name] = rs.Containers
	}
	usage, containersSeen := rd.usageSpans(existence)
	names := rd.podNames(pods, usage, live, match)
	var rc reconstruction
	out := make([]recording.Pod, 0, len(names))
	for _, name := range names {
		src := podSources{info: pods.byName[name], live: live[name], usage: usage[name]}
		p, ok := rd.assemblePod(name, src, match, &rc)
		if !ok {
			continue
		}
		// Containers and requests.
		p.Containers = rd.containersOf(src.info, src.live, p.Owner, templates, &rc)
		for _, c := range containersSeen[name] {
			if !slices.ContainsFunc(p.Containers, func(x recording.Container) bool { return x.Name == c }) {
				p.Containers = append(p.Containers, recording.Container{Name: c, Requests: map[string]int64{}})
			}
		}
		out = append(out, p)
	}
	slices.SortStableFunc(out, func(a, b recording.Pod) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	rd.rec.Pods = out
	rd.rec.Reconstructed = append(rd.rec.Reconstructed, rc.notes(ksm, len(out), len(match.replicaSets), rd.req.Window)...)
}

// usageSpans returns, per pod, the first and last instant of its usage
// values (the existence series' and the resource metrics'), and the
// containers the resource metrics name.
func (rd *reader) usageSpans(existence map[string]*recording.Series) (map[string]*usageSpan, map[string][]string) {
	usage := map[string]*usageSpan{}
	containersSeen := map[string][]string{}
	note := func(pod string, s *recording.Series) {
		first, last := -1, -1
		for i, v := range s.Values {
			if !math.IsNaN(v) {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		if first < 0 {
			return
		}
		first, last = first+s.First, last+s.First
		if u := usage[pod]; u != nil {
			u.first, u.last = min(u.first, first), max(u.last, last)
		} else {
			usage[pod] = &usageSpan{first, last}
		}
	}
	for pod, s := range existence {
		note(pod, s)
	}
	for i := range rd.rec.Metrics {
		m := &rd.rec.Metrics[i]
		if m.Kind != recording.KindResource {
			continue
		}
		for pod, byC := range m.PerPod {
			for _, c := range slices.Sorted(maps.Keys(byC)) {
				note(pod, byC[c])
				if !slices.Contains(containersSeen[pod], c) {
					containersSeen[pod] = append(containersSeen[pod], c)
				}
			}
		}
	}
	return usage, containersSeen
}

// podNames are the pods of the recording, sorted: kube-state-metrics',
// those with usage, and the live pods of the workload created by the end.
func (rd *reader) podNames(pods *podSet, usage map[string]*usageSpan, live map[string]*corev1.Pod, match *podMatcher) []string {
	end := rd.g.at(rd.g.n - 1)
	names := map[string]bool{}
	for n := range pods.byName {
		names[n] = true
	}
	for n := range usage {
		names[n] = true
	}
	for n, p := range live {
		if match.Match(n) && !p.CreationTimestamp.After(end) {
			names[n] = true
		}
	}
	return slices.Sorted(maps.Keys(names))
}

// podSources are what is known of one pod: kube-state-metrics' facts, the
// live pod, the span of its usage (each nil when unknown).
type podSources struct {
	info  *podInfo
	live  *corev1.Pod
	usage *usageSpan
}

// assemblePod builds one pod but its containers; false when nothing says
// when it existed.
func (rd *reader) assemblePod(name string, src podSources, match *podMatcher, rc *reconstruction) (recording.Pod, bool) {
	info, lp := src.info, src.live
	var phases, ready runs
	if info != nil {
		phases, ready = info.phases.normalize(), info.ready.normalize()
	}
	p := recording.Pod{Name: name}
	if !rd.podLife(&p, src, phases, ready, rc) {
		return p, false
	}
	// Owner and labels.
	switch {
	case info != nil:
		p.Owner = info.owner
	case lp != nil && metav1Controller(lp) != "":
		p.Owner = metav1Controller(lp)
	default:
		p.Owner = match.Owner(name)
	}
	if lp != nil {
		p.Labels = lp.Labels
	}
	rd.podStartAndPhases(&p, src, phases, rc)
	rd.podReadiness(&p, src, ready, rc)
	return p, true
}

// podLife sets when the pod was created and deleted: from
// kube-state-metrics' phases and readiness, else its usage, else the live
// pod (which existed from its creation); false when nothing says.
func (rd *reader) podLife(p *recording.Pod, src podSources, phases, ready runs, rc *reconstruction) bool {
	info, lp, u := src.info, src.live, src.usage
	first, last, known := phases.span()
	if f, l, ok := ready.span(); ok {
		if known {
			first, last = min(first, f), max(last, l)
		} else {
			first, last, known = f, l, true
		}
	}
	fromUsage := false
	if !known && u != nil {
		first, last, known, fromUsage = u.first, u.last, true, true
	}
	switch {
	case info != nil && info.created != nil:
		p.Created = *info.created
	case lp != nil:
		p.Created = lp.CreationTimestamp.UTC()
	case fromUsage:
		p.Created = rd.usageStart(first)
		rc.created++
	case known:
		p.Created = rd.g.at(first)
		rc.created++
	default:
		return false
	}
	if known && p.Created.After(rd.g.at(first)) {
		p.Created = rd.g.at(first)
	}
	if !known {
		// A live pod without a sample: it existed from its creation.
		last = rd.g.n - 1
		rc.live++
	}
	if fromUsage && lp == nil {
		rc.fromUsage++
	}
	if last < rd.g.n-1 && (lp == nil || info != nil) {
		d := rd.g.at(last + 1)
		p.Deleted = &d
	}
	return true
}

// podStartAndPhases sets the pod's start, its deletion timestamp and its
// phases.
func (rd *reader) podStartAndPhases(p *recording.Pod, src podSources, phases runs, rc *reconstruction) {
	info, lp, u := src.info, src.live, src.usage
	switch {
	case info != nil && info.started != nil:
		t := *info.started
		p.Started = &t
	case lp != nil && lp.Status.StartTime != nil:
		t := lp.Status.StartTime.UTC()
		p.Started = &t
	case u != nil:
		t := rd.usageStart(u.first)
		p.Started = &t
		rc.started++
	}
	switch {
	case info != nil && info.terminating != nil:
		t := *info.terminating
		p.Terminating = &t
	case lp != nil && lp.DeletionTimestamp != nil:
		t := lp.DeletionTimestamp.UTC()
		p.Terminating = &t
	}
	if len(phases) > 0 {
		for _, r := range phases {
			if len(p.Phases) == 0 || p.Phases[len(p.Phases)-1].Phase != r.val {
				p.Phases = append(p.Phases, recording.PhaseChange{At: rd.g.at(r.from), Phase: r.val})
			}
		}
	} else {
		p.Phases = reconstructPhases(p.Created, u, lp, rd.usageStart)
		if u != nil {
			rc.phases++
		} else {
			rc.phasesLive++
		}
	}
}

// podReadiness sets the pod's readiness: kube-state-metrics', else the
// live pod's Ready condition, else ready from its first sample.
func (rd *reader) podReadiness(p *recording.Pod, src podSources, ready runs, rc *reconstruction) {
	lp, u := src.live, src.usage
	switch {
	case len(ready) > 0:
		prev := false
		for _, r := range ready {
			v := r.val == "true"
			if v != prev {
				p.Ready = append(p.Ready, recording.ReadyChange{At: rd.g.at(r.from), Ready: v})
				prev = v
			}
		}
		if src.info != nil && src.info.readyAt != nil {
			exactReadyTime(p.Ready, *src.info.readyAt, p.Created)
		}
	case lp != nil && liveReady(lp) != nil:
		p.Ready = reconstructLiveReady(liveReady(lp), u, rd.g)
		rc.readyLive++
	case u != nil:
		p.Ready = []recording.ReadyChange{{At: rd.usageStart(u.first), Ready: true}}
		rc.readyFirst++
	}
}

func (rd *reader) containersOf(info *podInfo, lp *corev1.Pod, owner string, templates map[string][]corev1.Container, rc *reconstruction) []recording.Container {
	if info != nil && len(info.containers) > 0 {
		out := make([]recording.Container, 0, len(info.containers))
		for _, c := range info.containers {
			ct := recording.Container{Name: c, Requests: info.requests[c]}
			if l, ok := info.cpuLimits[c]; ok {
				ct.Limits = map[string]int64{"cpu": l}
			}
			if ct.Requests == nil {
				ct.Requests = map[string]int64{}
			}
			out = append(out, ct)
		}
		return out
	}
	if lp != nil {
		return fromSpec(lp.Spec.Containers)
	}
	if rs, ok := strings.CutPrefix(owner, "ReplicaSet/"); ok && templates[rs] != nil {
		rc.reqRS++
		return fromSpec(templates[rs])
	}
	if len(rd.req.Template) > 0 {
		rc.reqTemplate++
		return fromSpec(rd.req.Template)
	}
	rc.reqNone++
	return nil
}

func fromSpec(cs []corev1.Container) []recording.Container {
	out := make([]recording.Container, 0, len(cs))
	for _, c := range cs {
		req := map[string]int64{}
		if q, ok := c.Resources.Requests[corev1.ResourceCPU]; ok {
			req["cpu"] = q.MilliValue()
		}
		if q, ok := c.Resources.Requests[corev1.ResourceMemory]; ok {
			req["memory"] = q.Value()
		}
		ct := recording.Container{Name: c.Name, Requests: req}
		if q, ok := c.Resources.Limits[corev1.ResourceCPU]; ok && !q.IsZero() {
			ct.Limits = map[string]int64{"cpu": q.MilliValue()}
		}
		out = append(out, ct)
	}
	return out
}

func metav1Controller(p *corev1.Pod) string {
	for _, o := range p.OwnerReferences {
		if o.Controller != nil && *o.Controller {
			return o.Kind + "/" + o.Name
		}
	}
	return ""
}

func liveReady(p *corev1.Pod) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == corev1.PodReady {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// exactReadyTime moves the pod's last change to ready, which the ready
// series place at the first instant of the grid they show it at (up to a
// scrape of kube-state-metrics and a step of the grid after it), to when
// it happened, at (the condition's lastTransitionTime, whole seconds), if
// at falls between the change before it (or the pod's creation) and it.
// The controller sets aside a CPU sample whose window began before the
// pod became ready: a ready time a few seconds late sets aside a new pod's
// first sample that the controller counted (tune's proof, 2026-12-02: the
// replay stayed a pod short for 1m45s). It says whether it moved one.
// (Read, not reconstructed: Recording.Reconstructed does not list it.)
func exactReadyTime(changes []recording.ReadyChange, at, created time.Time) bool {
	for j := len(changes) - 1; j >= 0; j-- {
		if !changes[j].Ready {
			continue
		}
		after := created.Add(-time.Second)
		if j > 0 {
			after = changes[j-1].At
		}
		if at.After(after) && !at.After(changes[j].At) {
			changes[j].At = at
			return true
		}
		return false
	}
	return false
}

// reconstructLiveReady: a live pod is ready from its first sample until
// its Ready condition's last transition, then as the condition says.
func reconstructLiveReady(c *corev1.PodCondition, u *usageSpan, g grid) []recording.ReadyChange {
	at := c.LastTransitionTime.UTC()
	ready := c.Status == corev1.ConditionTrue
	if ready {
		return []recording.ReadyChange{{At: at, Ready: true}}
	}
	if u != nil && g.at(u.first).Before(at) {
		return []recording.ReadyChange{{At: g.at(u.first), Ready: true}, {At: at, Ready: false}}
	}
	return nil
}

// usageStart is when a pod known only by its usage series, first sampled
// at the instant first of the grid, is taken to have started and become
// ready: a metrics window (req.Window) before that sample. metrics-server
// serves a pod's first sample only once the pod has run through a window
// of it, and the controller counts a CPU sample only if its window began
// after the pod became ready; taking the pod as ready at its first sample
// would make the controller of the replay set aside every new pod's first
// sample as unready, which the real one did not (tune's proof without
// kube-state-metrics: the scale-up a sync or two behind the controller's).
func (rd *reader) usageStart(first int) time.Time {
	return rd.g.at(first).Add(-rd.req.Window)
}

// reconstructPhases: Pending from creation until the first sample (less
// the window, usageStart), Running from then; a live pod without samples is in its live phase.
func reconstructPhases(created time.Time, u *usageSpan, lp *corev1.Pod, usageStart func(int) time.Time) []recording.PhaseChange {
	if u == nil {
		if lp != nil && lp.Status.Phase != "" {
			return []recording.PhaseChange{{At: created, Phase: string(lp.Status.Phase)}}
		}
		return []recording.PhaseChange{{At: created, Phase: recording.PhasePending}}
	}
	running := usageStart(u.first)
	if created.Before(running) {
		return []recording.PhaseChange{{At: created, Phase: recording.PhasePending}, {At: running, Phase: recording.PhaseRunning}}
	}
	return []recording.PhaseChange{{At: running, Phase: recording.PhaseRunning}}
}

func (rc reconstruction) notes(ksm bool, pods, replicaSets int, window time.Duration) []string {
	var out []string
	early := ""
	if window > 0 {
		early = " less metrics-server's window (" + window.String() + ": its first sample of a pod covers a window the pod ran through)"
	}
	add := func(n int, format string, args ...any) {
		if n > 0 {
			out = append(out, fmt.Sprintf("%d of %d pods: ", n, pods)+fmt.Sprintf(format, args...))
		}
	}
	if !ksm {
		out = append(out, fmt.Sprintf("pods: without kube-state-metrics, pods are those named after the ReplicaSets known live (%d) and the live pods; pods of ReplicaSets deleted since are missing", replicaSets))
	}
	add(rc.fromUsage, "exist from their first to their last fresh usage sample (deleted one sync after it)")
	add(rc.live, "live pods without a sample: exist from their creation")
	add(rc.created, "created at their first usage sample%s", early)
	add(rc.started, "started at their first usage sample%s", early)
	add(rc.phases, "Pending from creation until their first usage sample%s, Running after", early)
	add(rc.phasesLive, "in their live phase since creation")
	add(rc.readyFirst, "ready from their first usage sample%s", early)
	add(rc.readyLive, "readiness from the live Ready condition (ready from the first sample until its last transition)")
	add(rc.reqRS, "requests from their ReplicaSet's live pod template")
	add(rc.reqTemplate, "requests from the workload's live pod template")
	add(rc.reqNone, "containers and requests unknown")
	return out
}
