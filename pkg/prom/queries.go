// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/common/model"
)

// The metrics read. The container counters are the kubelet's (cAdvisor's
// /metrics/cadvisor, or /metrics/resource, which metrics-server reads);
// the kube_* series are kube-state-metrics'.
const (
	metricCPU     = "container_cpu_usage_seconds_total"
	metricMemory  = "container_memory_working_set_bytes"
	ksmRSOwner    = "kube_replicaset_owner"
	ksmPodOwner   = "kube_pod_owner"
	ksmPhase      = "kube_pod_status_phase"
	ksmReady      = "kube_pod_status_ready"
	ksmCreated    = "kube_pod_created"
	ksmStarted    = "kube_pod_start_time"
	ksmReadyTime  = "kube_pod_status_ready_time"
	ksmDeletion   = "kube_pod_deletion_timestamp"
	ksmRequests   = "kube_pod_container_resource_requests"
	upMetric      = "up"
	probeWindow   = 10 * time.Minute
	staleLookback = 5 * time.Minute
)

// What tells where the recorded CPU usage was capped (censored demand):
// kube-state-metrics' CPU limits, and the kubelet's CFS counters of a
// container with a limit (the periods it ran in, and those in which it
// used up its quota and waited).
const (
	ksmLimits       = "kube_pod_container_resource_limits"
	metricThrottled = "container_cpu_cfs_throttled_periods_total"
	metricPeriods   = "container_cpu_cfs_periods_total"
)

// suffixAlphabet is the alphabet of the 5 random characters the API server
// appends to a generateName (k8s.io/apiserver's name generator): no vowels,
// so a pod of ReplicaSet "web-5d4" never looks like one of "web-api-...".
const suffixAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// maxGeneratedBase is how much of a generateName the API server keeps (63
// characters less the 5 random ones).
const maxGeneratedBase = 58

// str quotes a PromQL string literal (PromQL reads Go's escapes).
func str(s string) string { return strconv.Quote(s) }

// alternation is a regular expression matching exactly the given names.
func alternation(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	return strings.Join(q, "|")
}

// promDuration writes a duration as PromQL reads it ("1m30s", "500ms").
func promDuration(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	return model.Duration(d.Round(time.Millisecond)).String()
}

// podMatcher is the set of pod names that belong to the workload: pods of
// its ReplicaSets (NAME-xxxxx), of a StatefulSet (NAME-ORDINAL), and pods
// named one by one. Its regular expression selects them in PromQL (which
// anchors it); Match checks a name the same way.
type podMatcher struct {
	replicaSets []string
	statefulSet string
	names       []string
	re          *regexp.Regexp
	expr        string
}

func newPodMatcher(replicaSets []string, statefulSet string, names []string) *podMatcher {
	m := &podMatcher{statefulSet: statefulSet}
	m.replicaSets = uniqSorted(replicaSets)
	var parts []string
	if len(m.replicaSets) > 0 {
		bases := make([]string, 0, len(m.replicaSets))
		for _, rs := range m.replicaSets {
			bases = append(bases, generatedBase(rs))
		}
		bases = uniqSorted(bases)
		parts = append(parts, "(?:"+alternation(bases)+")["+suffixAlphabet+"]{5}")
	}
	if statefulSet != "" {
		parts = append(parts, regexp.QuoteMeta(statefulSet)+"-(?:0|[1-9][0-9]*)")
	}
	pre := regexp.MustCompile("^(?:" + strings.Join(parts, "|") + ")$")
	var extra []string
	for _, n := range uniqSorted(names) {
		if len(parts) == 0 || !pre.MatchString(n) {
			extra = append(extra, n)
		}
	}
	m.names = extra
	if len(extra) > 0 {
		parts = append(parts, alternation(extra))
	}
	m.expr = strings.Join(parts, "|")
	m.re = regexp.MustCompile("^(?:" + m.expr + ")$")
	return m
}

// generatedBase is the prefix of the pods a ReplicaSet names: its name and
// a dash, cut as the API server cuts a long generateName.
func generatedBase(rs string) string {
	base := rs + "-"
	if len(base) > maxGeneratedBase {
		base = base[:maxGeneratedBase]
	}
	return base
}

// Empty reports whether the matcher matches nothing.
func (m *podMatcher) Empty() bool { return m.expr == "" }

// Match reports whether a pod name belongs to the workload.
func (m *podMatcher) Match(pod string) bool { return m.expr != "" && m.re.MatchString(pod) }

// Owner names a pod's owner as the names tell it ("ReplicaSet/web-5d4"),
// or "".
func (m *podMatcher) Owner(pod string) string {
	for _, rs := range m.replicaSets {
		base := generatedBase(rs)
		if len(pod) == len(base)+5 && strings.HasPrefix(pod, base) && strings.Trim(pod[len(base):], suffixAlphabet) == "" {
			return "ReplicaSet/" + rs
		}
	}
	if m.statefulSet != "" {
		if rest, ok := strings.CutPrefix(pod, m.statefulSet+"-"); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return "StatefulSet/" + m.statefulSet
		}
	}
	return ""
}

func uniqSorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	return out
}

// queries builds the PromQL of one read.
type queries struct {
	ns string
	// scope is the cluster label's matcher ("": none).
	scope  string
	pods   string // the pod regular expression
	rng    time.Duration
	fresh  time.Duration
	lag    time.Duration
	period time.Duration // the whole period and the lookback before it
}

func (q *queries) podSel(metric string, extra ...string) string {
	m := []string{"namespace=" + str(q.ns), "pod=~" + str(q.pods)}
	if q.scope != "" {
		m = append(m, q.scope)
	}
	m = append(m, extra...)
	return metric + "{" + strings.Join(m, ",") + "}"
}

func (q *queries) offset() string {
	if q.lag <= 0 {
		return ""
	}
	return " offset " + promDuration(q.lag)
}

// containerSel selects the container rows of the kubelet's counters:
// cAdvisor's pod-level rows (container="") and pause containers
// (container="POD") are left out.
func (q *queries) containerSel(metric string) string {
	return q.podSel(metric, `container!=""`, `container!="POD"`)
}

// rawCPU selects the containers' CPU counters, read as the store's raw
// samples: every scrape of them, which Resample turns into the rates
// metrics-server served between its own scrapes.
func (q *queries) rawCPU() string { return q.containerSel(metricCPU) }

// rawMemory selects the containers' working sets, read as raw samples.
func (q *queries) rawMemory() string { return q.containerSel(metricMemory) }

// memory is the working set's latest sample at each instant, while it is
// fresh: it tells when a pod existed (without kube-state-metrics, when the
// HPA does not read memory), where the raw samples would be more than that
// needs.
func (q *queries) memory() string {
	return fmt.Sprintf("max by (pod, container) (last_over_time(%s[%s]%s))",
		q.containerSel(metricMemory), promDuration(q.fresh), q.offset())
}

// probe counts each container's samples over 10 minutes: the scrape
// interval, and where the store holds none.
func (q *queries) probe() string {
	return fmt.Sprintf("max(count_over_time(%s[%s]))", q.containerSel(metricMemory), promDuration(probeWindow))
}

// nsSel is the matchers of the namespace (and the cluster, scope).
func (q *queries) nsSel() string {
	if q.scope == "" {
		return "namespace=" + str(q.ns)
	}
	return "namespace=" + str(q.ns) + "," + q.scope
}

// replicaSets lists the ReplicaSets a workload owned over the period.
func (q *queries) replicaSets(kind, name string) string {
	return fmt.Sprintf("max by (replicaset) (last_over_time(%s{%s,owner_kind=%s,owner_name=%s}[%s]))",
		ksmRSOwner, q.nsSel(), str(kind), str(name), promDuration(q.period))
}

// podOwners lists the pods owned by the given kinds and names over the
// period; the caller keeps the exact (kind, name) pairs.
func (q *queries) podOwners(kinds, names []string) string {
	return fmt.Sprintf("max by (pod, owner_kind, owner_name) (last_over_time(%s{%s,owner_kind=~%s,owner_name=~%s}[%s]))",
		ksmPodOwner, q.nsSel(), str(alternation(uniqSorted(kinds))), str(alternation(uniqSorted(names))), promDuration(q.period))
}

// phase is each pod's phase at each instant.
func (q *queries) phase() string {
	return fmt.Sprintf("max by (pod, phase) (%s == 1)", q.podSel(ksmPhase))
}

// ready is each pod's Ready condition at each instant (1 or 0).
func (q *queries) ready() string {
	return fmt.Sprintf("max by (pod) (%s)", q.podSel(ksmReady, `condition="true"`))
}

// lastValue is the latest value over the period of a per-pod series that
// does not change (creation and start times, deletionTimestamp).
func (q *queries) lastValue(metric string) string {
	return fmt.Sprintf("max by (pod) (last_over_time(%s[%s]))", q.podSel(metric), promDuration(q.period))
}

// requests are the containers' cpu and memory requests.
func (q *queries) requests() string {
	return fmt.Sprintf("max by (pod, container, resource) (last_over_time(%s[%s]))",
		q.podSel(ksmRequests, `resource=~"cpu|memory"`), promDuration(q.period))
}

// limits are the containers' CPU limits; a container without one has no
// series. A query of its own rather than folded into requests' (one
// selector over both names with __name__=~): whether a store keeps the
// metric name through last_over_time differs between stores and versions,
// and without it the two would collide.
func (q *queries) limits() string {
	return fmt.Sprintf("max by (pod, container) (last_over_time(%s[%s]))",
		q.podSel(ksmLimits, `resource="cpu"`), promDuration(q.period))
}

// throttled is the share of each container's CFS periods throttled over
// the window before each instant, read with the usage's offset so that
// both speak of the same span. A container that did not run in the window
// (no periods) has no value there: 0/0 is NaN, which reads as no sample.
func (q *queries) throttled(window time.Duration) string {
	w := promDuration(window)
	return fmt.Sprintf("max by (pod, container) (rate(%s[%s]%s) / rate(%s[%s]%s))",
		q.containerSel(metricThrottled), w, q.offset(), q.containerSel(metricPeriods), w, q.offset())
}

// replicas is the workload's spec.replicas, by kind; "" when
// kube-state-metrics has no such series.
func (q *queries) replicas(kind, name string) string {
	var metric, label string
	switch kind {
	case "Deployment":
		metric, label = "kube_deployment_spec_replicas", "deployment"
	case "StatefulSet":
		metric, label = "kube_statefulset_replicas", "statefulset"
	case "ReplicaSet":
		metric, label = "kube_replicaset_spec_replicas", "replicaset"
	default:
		return ""
	}
	return fmt.Sprintf("max(%s{%s,%s=%s})", metric, q.nsSel(), label, str(name))
}

// scoped selects a metric's series of the cluster (scope: its label's
// matcher; "": every series).
func scoped(metric, scope string) string {
	if scope == "" {
		return metric
	}
	return metric + "{" + scope + "}"
}

// up tells whether the store holds anything (of the cluster, with a
// scope) at an instant.
func upQuery(scope string) string { return "count(" + scoped(upMetric, scope) + ")" }
