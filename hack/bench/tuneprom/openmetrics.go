// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"time"
)

// omWriter writes OpenMetrics text with a timestamp on every sample, as
// promtool's backfill reads it: each family once (its TYPE line, then its
// series), each series' samples together and in time order, `# EOF` last.
type omWriter struct {
	w     *bufio.Writer
	buf   []byte
	lines int64
}

func newOMWriter(w io.Writer) *omWriter {
	return &omWriter{w: bufio.NewWriterSize(w, 1<<20)}
}

// family starts a metric family: name is the family's (a counter's
// samples are name_total), kind counter or gauge.
func (o *omWriter) family(name, kind string) {
	o.buf = append(o.buf[:0], "# TYPE "...)
	o.buf = append(o.buf, name...)
	o.buf = append(o.buf, ' ')
	o.buf = append(o.buf, kind...)
	o.buf = append(o.buf, '\n')
	_, _ = o.w.Write(o.buf)
}

// sample writes one sample: prefix is the series (name and labels, see
// seriesPrefix), v written with prec decimals (-1: as few as exact), ms the
// timestamp in Unix milliseconds (written in seconds).
func (o *omWriter) sample(prefix string, v float64, prec int, ms int64) {
	b := o.buf[:0]
	b = append(b, prefix...)
	b = strconv.AppendFloat(b, v, 'f', prec, 64)
	b = append(b, ' ')
	b = strconv.AppendInt(b, ms/1000, 10)
	frac := ms % 1000
	b = append(b, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10), '\n')
	o.buf = b
	o.lines++
	_, _ = o.w.Write(b)
}

func (o *omWriter) end() error {
	_, _ = o.w.WriteString("# EOF\n")
	return o.w.Flush()
}

// seriesPrefix is "name{k1="v1",...} " with the labels given as pairs, in
// the order given (sorted by the caller).
func seriesPrefix(name string, labels ...string) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('{')
	for i := 0; i+1 < len(labels); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(labels[i])
		b.WriteString(`="`)
		b.WriteString(labels[i+1])
		b.WriteByte('"')
	}
	b.WriteString("} ")
	return b.String()
}

// constSeries is a series whose value never changes over the span (most
// of kube-state-metrics').
type constSeries struct {
	prefix string
	value  float64
}

// cpuState carries a pod's CPU counter from one piece to the next.
type cpuState struct {
	lastMs int64
	value  float64
}

// writePiece writes the samples of the workloads ws in [from, to) (Unix
// ms) as OpenMetrics text: the kubelet's two container series per pod, then
// kube-state-metrics' series, then up, each family once with every
// workload's series in it. The workloads share their nodes, span and
// scrape intervals (those of ws[0]). cpu carries the counters across
// pieces (one per pod of each workload, pieces written in time order).
func writePiece(out io.Writer, ws []*workload, from, to int64, cpu [][]cpuState) (int64, error) {
	o := newOMWriter(out)
	w0 := ws[0]
	type nodeScrapes struct{ ks, ms []int64 }
	nodes := make([]nodeScrapes, w0.nodes)
	for n := range nodes {
		nodes[n].ks, nodes[n].ms = w0.scrapes(w0.nodeTarget(n), from, to)
	}
	podLabels := func(w *workload, name string, i int) string {
		p := w.pods[i]
		return seriesPrefix(name, "container", container, "instance", p.node, "job", kubeletJob,
			"namespace", w.namespace, "node", p.node, "pod", p.name)
	}

	o.family("container_cpu_usage_seconds", "counter")
	for wi, w := range ws {
		for i := range w.pods {
			prefix := podLabels(w, "container_cpu_usage_seconds_total", i)
			sc := nodes[w.pods[i].nodeIndex]
			st := &cpu[wi][i]
			for j, ms := range sc.ms {
				t := time.UnixMilli(ms)
				u := w.cpuAt(i, t, sc.ks[j])
				if st.lastMs == 0 {
					// Started an hour before the series begin.
					st.value = 3600 * u
				} else {
					st.value += u * float64(ms-st.lastMs) / 1000
				}
				st.lastMs = ms
				o.sample(prefix, st.value, 6, ms)
			}
		}
	}
	o.family("container_memory_working_set_bytes", "gauge")
	for _, w := range ws {
		for i := range w.pods {
			prefix := podLabels(w, "container_memory_working_set_bytes", i)
			sc := nodes[w.pods[i].nodeIndex]
			for j, ms := range sc.ms {
				o.sample(prefix, w.memoryAt(i, time.UnixMilli(ms), sc.ks[j]), 0, ms)
			}
		}
	}

	_, ksmMs := w0.scrapes(w0.ksmTarget(), from, to)
	fams := make([][]ksmFamily, len(ws))
	for wi, w := range ws {
		fams[wi] = w.ksmFamilies()
	}
	for f := range fams[0] {
		o.family(fams[0][f].name, "gauge")
		for wi := range ws {
			for _, s := range fams[wi][f].series {
				for _, ms := range ksmMs {
					o.sample(s.prefix, s.value, -1, ms)
				}
			}
		}
	}
	o.family("up", "gauge")
	for n := range nodes {
		prefix := seriesPrefix("up", "instance", nodeName(n), "job", kubeletJob)
		for _, ms := range nodes[n].ms {
			o.sample(prefix, 1, -1, ms)
		}
	}
	prefix := seriesPrefix("up", "instance", ksmInstance, "job", ksmJob)
	for _, ms := range ksmMs {
		o.sample(prefix, 1, -1, ms)
	}
	return o.lines, o.end()
}

// nodeName is the n-th simulated node's name (and its target's instance).
func nodeName(n int) string { return "kwok-node-" + strconv.Itoa(n) }

// ksmFamily is one family of kube-state-metrics' series.
type ksmFamily struct {
	name   string
	series []constSeries
}

// ksmFamilies are the kube-state-metrics series of the workload, with the
// labels hack/e2e-tools/fakeadapter/statemetrics.go serves (those of
// kube-state-metrics), in its order (by family name), each with the
// state-metrics job's instance and job: the Deployment's replicas, its
// ReplicaSet's owner and replicas, and per pod its owner, phase, readiness,
// creation and start times and its container's requests.
func (w *workload) ksmFamilies() []ksmFamily {
	job := []string{"instance", ksmInstance, "job", ksmJob}
	with := func(labels ...string) []string {
		// The labels, the job's inserted in name order.
		out := make([]string, 0, len(labels)+4)
		j := 0
		for i := 0; i+1 < len(labels); i += 2 {
			for j+1 < len(job) && job[j] < labels[i] {
				out = append(out, job[j], job[j+1])
				j += 2
			}
			out = append(out, labels[i], labels[i+1])
		}
		return append(out, job[j:]...)
	}
	ns, replicas := w.namespace, float64(len(w.pods))
	fams := []ksmFamily{
		{name: "kube_deployment_spec_replicas", series: []constSeries{{seriesPrefix("kube_deployment_spec_replicas", with("deployment", w.name, "namespace", ns)...), replicas}}},
		{name: "kube_pod_container_resource_requests"},
		{name: "kube_pod_created"},
		{name: "kube_pod_owner"},
		{name: "kube_pod_start_time"},
		{name: "kube_pod_status_phase"},
		{name: "kube_pod_status_ready"},
		{name: "kube_replicaset_owner", series: []constSeries{{seriesPrefix("kube_replicaset_owner", with("namespace", ns, "owner_is_controller", "true", "owner_kind", "Deployment", "owner_name", w.name, "replicaset", w.replicaSet)...), 1}}},
		{name: "kube_replicaset_spec_replicas", series: []constSeries{{seriesPrefix("kube_replicaset_spec_replicas", with("namespace", ns, "replicaset", w.replicaSet)...), replicas}}},
	}
	add := func(f int, v float64, labels ...string) {
		fams[f].series = append(fams[f].series, constSeries{seriesPrefix(fams[f].name, with(labels...)...), v})
	}
	for _, p := range w.pods {
		add(1, float64(w.requestCPU)/1000, "container", container, "namespace", ns, "node", p.node, "pod", p.name, "resource", "cpu", "uid", p.uid, "unit", "core")
		add(1, float64(w.requestMemory), "container", container, "namespace", ns, "node", p.node, "pod", p.name, "resource", "memory", "uid", p.uid, "unit", "byte")
		add(2, float64(p.created.Unix()), "namespace", ns, "pod", p.name, "uid", p.uid)
		add(3, 1, "namespace", ns, "owner_is_controller", "true", "owner_kind", "ReplicaSet", "owner_name", w.replicaSet, "pod", p.name, "uid", p.uid)
		add(4, float64(p.started.Unix()), "namespace", ns, "pod", p.name, "uid", p.uid)
		for _, ph := range []string{"Pending", "Succeeded", "Failed", "Unknown", "Running"} {
			add(5, boolValue(ph == "Running"), "namespace", ns, "phase", ph, "pod", p.name, "uid", p.uid)
		}
		for _, c := range []string{"true", "false", "unknown"} {
			add(6, boolValue(c == "true"), "condition", c, "namespace", ns, "pod", p.name, "uid", p.uid)
		}
	}
	return fams
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
