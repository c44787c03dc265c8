// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// The metrics of a replayed sync: the recorded samples where the replay
// runs the real pods, else the recorded load spread over its own pods by
// the load model.

// fillResource sets the usage of resource r (named res) on the reporting
// pods: the recorded samples when the pods are the real ones, else the
// real pods' total (or average) spread by the load model. The first
// pods of the sync that are real come first.
func (p *replayRun) fillResource(r int, res corev1.ResourceName, k int, exact bool) {
	if exact {
		for j := range p.cur {
			sp := &p.cur[j]
			if !sp.reports {
				continue
			}
			for c := range sp.metrics.Containers {
				if v, ok := p.usage[sp.real][r][c].At(k); ok {
					sp.metrics.Containers[c].Usage[res] = usageQuantity(res, v)
				} else {
					delete(sp.metrics.Containers[c].Usage, res)
				}
			}
		}
		return
	}
	if p.load == nil {
		p.load = p.totalLoad()
	}
	totals, n := p.load.at(r, k)
	// Constant-total: the load is shared by the pods that were ready (as a
	// load balancer shares it), reported or not yet, over the sample's
	// window.
	share := p.sampleShare(k)
	for j := range p.cur {
		sp := &p.cur[j]
		if !sp.reports {
			continue
		}
		for c := range sp.metrics.Containers {
			if n == 0 || c >= len(totals) {
				delete(sp.metrics.Containers[c].Usage, res)
				continue
			}
			v := totals[c] / float64(n)
			if p.opts.LoadModel == explain.LoadConstantTotal {
				v = totals[c] * share
			}
			sp.metrics.Containers[c].Usage[res] = usageQuantity(res, v)
		}
	}
}

// totalAt returns the real pods' total of resource r per container at k,
// and how many had a sample: every real pod that existed counts, kept or
// not, as soon as the store has its sample (the load was on it, reported
// or not). It appends the totals to buf.
func (p *replayRun) totalAt(r, k int, t time.Time, buf []float64) ([]float64, int) {
	totals := buf
	n := 0
	for i := range p.rec.Pods {
		if !p.rec.Pods[i].Exists(t) || !p.hasSample(i, k) {
			continue
		}
		seen := false
		for c, s := range p.usage[i][r] {
			if v, ok := s.At(k); ok {
				for len(totals) <= len(buf)+c {
					totals = append(totals, 0)
				}
				totals[len(buf)+c] += v
				seen = true
			}
		}
		if seen {
			n++
		}
	}
	return totals, n
}

// recordedLoad is totalAt of every resource, and podsTotalAt of every
// Pods metric, at every instant of a recording: the same for every
// replay of it.
type recordedLoad struct {
	// totals[r] holds the totals of resource r (r < len(resources)) or of
	// Pods metric r-len(resources), instant after instant; those of
	// instant k are totals[r][from[r][k]:from[r][k+1]] (one per container
	// of a resource, one for a Pods metric).
	totals [][]float64
	from   [][]int
	n      [][]int
	// steady, with the constant-total model, holds the totals with the
	// dips of the recorded workload's own rescales taken out (see
	// steadyTotals); in totals' layout. A resource whose load comes from
	// the counters has none (totalLoad): its steady totals are its totals.
	steady [][]float64
	// served[r], for a resource whose load comes from the counters, is the
	// load all its pods served over each instant's sync interval, per
	// container (in the order of the replay's container names: instant k's
	// are served[r][k*nc:(k+1)*nc]); nil otherwise. nc is the number of
	// container names.
	served [][]float64
	nc     int
}

// totalLoad works out the recorded load of every resource and Pods
// metric at every instant. The instants are cut into spans worked out at
// once (recording.Spans), each instant's totals summed over the pods in
// the same order whatever the spans, and joined in order.
func (p *replayRun) totalLoad() *recordedLoad {
	q := len(p.resources) + len(p.pods)
	l := &recordedLoad{totals: make([][]float64, q), from: make([][]int, q), n: make([][]int, q)}
	l.served = make([][]float64, q)
	names := p.containerNames()
	spans := recording.Spans(p.rec.Len)
	for r := range q {
		l.from[r] = make([]int, p.rec.Len+1)
		l.n[r] = make([]int, p.rec.Len)
		var m *recording.Metric
		if r < len(p.resources) {
			m = p.resources[r]
		}
		// With the constant-total model a resource read from the counters
		// takes the load of all its pods over each sample's window
		// (Metric.Load): pods that joined or left within it count for
		// their part.
		fromLoad := m != nil && m.Load != nil && p.opts.LoadModel == explain.LoadConstantTotal
		// Each span's totals, with from[r] first counted within its span.
		parts := make([][]float64, len(spans))
		eachSpan(spans, func(j, from, to int) {
			var part []float64
			for k := from; k < to; k++ {
				l.from[r][k] = len(part)
				if r < len(p.resources) {
					part, l.n[r][k] = p.totalAt(r, k, p.rec.Instant(k), part)
					if fromLoad {
						part = part[:l.from[r][k]]
						for _, c := range names {
							v, ok := m.Load[c].At(k)
							if !ok {
								v = 0
							}
							part = append(part, v)
						}
					}
				} else {
					part, l.n[r][k] = p.podsTotalAt(r-len(p.resources), k, p.rec.Instant(k), part)
				}
			}
			parts[j] = part
		})
		size := 0
		for _, part := range parts {
			size += len(part)
		}
		if size > 0 {
			l.totals[r] = make([]float64, 0, size)
		}
		for j, span := range spans {
			base := len(l.totals[r])
			for k := span[0]; k < span[1]; k++ {
				l.from[r][k] += base
			}
			l.totals[r] = append(l.totals[r], parts[j]...)
		}
		l.from[r][p.rec.Len] = len(l.totals[r])
		if m != nil && m.Served != nil {
			l.nc = len(names)
			l.served[r] = make([]float64, p.rec.Len*len(names))
			eachSpan(spans, func(_, from, to int) {
				for k := from; k < to; k++ {
					for c, name := range names {
						v, ok := m.Served[name].At(k)
						if !ok {
							v = math.NaN()
						}
						l.served[r][k*len(names)+c] = v
					}
				}
			})
		}
	}
	// held says a total is held over the workload's own rescales
	// (steadyTotals): that of a resource not read from the counters, or of
	// a Pods metric.
	held := len(p.pods) > 0
	for _, m := range p.resources {
		held = held || m.Load == nil
	}
	if p.opts.LoadModel == explain.LoadConstantTotal && !held {
		l.steady = slices.Clone(l.totals)
	}
	if p.opts.LoadModel == explain.LoadConstantTotal && held {
		// The workload's own rescales: its replica count (the store's
		// record of it, else the pods it ran) or the pods that existed
		// changed since the instant before.
		actual, exist := make([]int32, p.rec.Len), make([]int, p.rec.Len)
		eachSpan(spans, func(_, from, to int) {
			for k := from; k < to; k++ {
				t := p.rec.Instant(k)
				for i := range p.rec.Pods {
					if p.rec.Pods[i].Exists(t) {
						exist[k]++
					}
				}
				actual[k], _ = p.actualAt(k)
			}
		})
		rescaled := make([]bool, p.rec.Len)
		for k := 1; k < len(rescaled); k++ {
			rescaled[k] = actual[k] != actual[k-1] || exist[k] != exist[k-1]
		}
		l.steady = steadyTotals(l, rescaled, p.rec.SampleWindow, p.rec.Step)
		// A resource read from the counters has no such dips: a
		// kubelet's counter is the CPU time a container used, up to any
		// moment. (From 2026-12-02 04:40 to 08:00 the counters' totals
		// were held too: the e2e's kwok charged a pod's new usage back to
		// the last read of its counter, and a new pod's first share to
		// the read after its first, which left dips at the recorded
		// workload's rescales. The e2e's driver now reads kwok's counters
		// just before it changes a usage, as a kubelet's run on, and the
		// hold hid the real falls that came within a resolution of the
		// workload's own rescale: a kept run's candidate stepped down 21 s
		// after the controller running it.)
		for r, m := range p.resources {
			if m.Load != nil {
				l.steady[r] = l.totals[r]
			}
		}
	}
	return l
}

// containerNames are the names of the containers whose usage a pod of the
// replay reports, in its PodMetrics' order.
func (p *replayRun) containerNames() []string {
	pm := podMetricsFor(&p.template)
	out := make([]string, len(pm.Containers))
	for i, c := range pm.Containers {
		out[i] = c.Name
	}
	return out
}

// servedAt is the load the pods served over instant k's sync interval,
// for a resource whose load comes from the counters: of container c, or of
// them all with c < 0 (has false otherwise, or when nothing was served).
func (l *recordedLoad) servedAt(r, k, c int) (float64, bool) {
	if r >= len(l.served) || l.served[r] == nil {
		return 0, false
	}
	vals := l.served[r][k*l.nc : (k+1)*l.nc]
	if c >= 0 {
		if c >= len(vals) || math.IsNaN(vals[c]) {
			return 0, false
		}
		return vals[c], true
	}
	total, seen := 0.0, false
	for _, v := range vals {
		if !math.IsNaN(v) {
			total, seen = total+v, true
		}
	}
	return total, seen
}

// steadyTotals takes out of the recorded totals the dips that the
// recorded workload's own rescales leave in them. The total is a sum of
// samples, and a sample trails the load by up to a metrics resolution:
// when the workload removes a pod, the pods it keeps report their old,
// smaller share until their samples catch up; when it adds one, the new
// pod takes its share at once, the others' samples soon show theirs
// smaller, and the new pod's own first sample comes last (the store may
// not know the pod before it). Meanwhile the sum is below the load, though
// the demand did not change, and a candidate with its own pod count would
// replay the dip as a fall of the load. So, for a resolution and a step
// after the workload rescaled (rescaled[k]: its replica count or its pods
// changed) or the number of pods with a sample changed, each total is the
// largest of the instants since the one before the change. A real fall
// at such a moment is seen up to that long late.
func steadyTotals(l *recordedLoad, rescaled []bool, resolution, step time.Duration) [][]float64 {
	hold := 1
	if step > 0 {
		hold = int((resolution+step-1)/step) + 1
	}
	steady := make([][]float64, len(l.totals))
	for r := range l.totals {
		steady[r] = slices.Clone(l.totals[r])
		n := l.n[r]
		for k := 1; k < len(n); k++ {
			// The earliest change within hold of k.
			first := -1
			for j := max(1, k-hold+1); j <= k; j++ {
				if n[j] != n[j-1] || rescaled[j] {
					first = j
					break
				}
			}
			if first < 0 {
				continue
			}
			out := steady[r][l.from[r][k]:l.from[r][k+1]]
			for i := first - 1; i < k; i++ {
				prev := l.totals[r][l.from[r][i]:l.from[r][i+1]]
				for c := range min(len(out), len(prev)) {
					out[c] = max(out[c], prev[c])
				}
			}
		}
	}
	return steady
}

// podsTotalAt returns the real pods' total of Pods metric j at k, and how
// many had a sample (every real pod that existed), appended to buf; none
// is appended without a sample.
func (p *replayRun) podsTotalAt(j, k int, t time.Time, buf []float64) ([]float64, int) {
	var total float64
	n := 0
	for i := range p.rec.Pods {
		if v, ok := p.podsSeries[j][i].At(k); ok && p.rec.Pods[i].Exists(t) {
			total += v
			n++
		}
	}
	if n == 0 {
		return buf, 0
	}
	return append(buf, total), n
}

func (l *recordedLoad) at(r, k int) ([]float64, int) {
	totals := l.totals
	if l.steady != nil {
		totals = l.steady
	}
	return totals[r][l.from[r][k]:l.from[r][k+1]:l.from[r][k+1]], l.n[r][k]
}

// sampleShare is the share of the load each ready pod of the replay
// served over the window of the sample read at instant k: the mean of
// 1/n over the window, n being the replay's ready pods from moment to
// moment (shareOver). A sample shows the load of its window, so after a
// replay's own scale-down its kept pods report their old, smaller share
// until their samples' windows have passed it, after a scale-up their
// old, larger one, as the controller's samples do; a window that spans
// the change shows a mix. Without a window (a recording of grid samples
// whose window is not known) it is the share at the sync.
func (p *replayRun) sampleShare(k int) float64 {
	end := p.rec.SampleTime(k)
	if p.rec.SampleWindow <= 0 {
		return 1 / float64(max(p.readyNow, 1))
	}
	return p.shareOver(end.Add(-p.rec.SampleWindow), end)
}

// shareOver is the mean over [from, to) of 1/n, n being the replay's
// count of ready pods at each moment as its marks give it (before the
// first mark, and with no mark at all, the count at the sync being
// built).
func (p *replayRun) shareOver(from, to time.Time) float64 {
	span := to.Sub(from)
	if span <= 0 {
		return 1 / float64(max(p.countAt(to), 1))
	}
	sum := 0.0
	at := from
	for at.Before(to) {
		n, next := p.countFrom(at)
		if next.IsZero() || next.After(to) {
			next = to
		}
		sum += next.Sub(at).Seconds() / float64(max(n, 1))
		at = next
	}
	return sum / span.Seconds()
}

// countAt is the replay's count of ready pods at t.
func (p *replayRun) countAt(t time.Time) int {
	n, _ := p.countFrom(t)
	return n
}

// countFrom is the replay's count of ready pods at t and when it next
// changes (zero: not before the last mark).
func (p *replayRun) countFrom(t time.Time) (int, time.Time) {
	n := p.readyNow
	var next time.Time
	for i := len(p.marks) - 1; i >= 0; i-- {
		if !p.marks[i].at.After(t) {
			n = p.marks[i].n
			break
		}
		next = p.marks[i].at
	}
	return n, next
}

// mark notes that the replay runs n ready pods from at on (a mark at or
// after at is replaced: the later knowledge wins), and drops the marks no
// sample's window or sync interval reaches back to any more.
func (p *replayRun) mark(at time.Time, n int) {
	for len(p.marks) > 0 && !p.marks[len(p.marks)-1].at.Before(at) {
		p.marks = p.marks[:len(p.marks)-1]
	}
	p.marks = append(p.marks, shareMark{at: at, n: n})
	horizon := at.Add(-2*p.rec.SampleWindow - 2*p.rec.Step)
	drop := 0
	for drop+1 < len(p.marks) && !p.marks[drop+1].at.After(horizon) {
		drop++
	}
	if drop > 0 {
		p.marks = append(p.marks[:0], p.marks[drop:]...)
	}
}

// markDecision notes what a sync's decision does to the count of ready
// pods between this sync and the next: a scale-down takes pods out of the
// load at once (the pods it removes are ready ones, at most), a scale-up
// adds them once they are ready (PodStartup after it; a start-up longer
// than a sync is left to the next syncs' marks).
func (p *replayRun) markDecision(d *explain.Decision) {
	if !d.Rescale {
		return
	}
	switch {
	case d.DesiredReplicas < d.CurrentReplicas:
		p.mark(d.Now, min(p.readyNow, int(d.DesiredReplicas)))
	case d.DesiredReplicas > d.CurrentReplicas && p.opts.PodStartup < p.rec.Step:
		p.mark(d.Now.Add(p.opts.PodStartup), p.readyNow+int(d.DesiredReplicas-d.CurrentReplicas))
	}
}

// usageQuantity is a recorded usage as metrics-server reports it: cpu in
// nanocores (from cores), memory in bytes.
func usageQuantity(res corev1.ResourceName, v float64) resource.Quantity {
	if res == corev1.ResourceCPU {
		return *resource.NewScaledQuantity(int64(math.Round(v*1e9)), resource.Nano)
	}
	return *resource.NewQuantity(int64(math.Round(v)), resource.BinarySI)
}

// fillPods adds the samples of Pods metric j: the recorded ones when the
// pods are the real ones, else spread by the load model.
func (p *replayRun) fillPods(j, k int, exact bool, ts metav1.Time) {
	m := p.pods[j]
	add := func(pod *corev1.Pod, v float64) {
		p.snap.CustomMetrics = append(p.snap.CustomMetrics, custommetricsv1beta2.MetricValue{
			DescribedObject: corev1.ObjectReference{Kind: "Pod", APIVersion: "/v1", Name: pod.Name, Namespace: pod.Namespace},
			Metric:          custommetricsv1beta2.MetricIdentifier{Name: m.Name},
			Timestamp:       ts, Value: *resource.NewMilliQuantity(int64(math.Round(v*1000)), resource.DecimalSI),
		})
	}
	if exact {
		for _, sp := range p.cur {
			if v, ok := p.podsSeries[j][sp.real].At(k); ok && sp.reports {
				add(sp.pod, v)
			}
		}
		return
	}
	if p.load == nil {
		p.load = p.totalLoad()
	}
	totals, n := p.load.at(len(p.resources)+j, k)
	if len(totals) == 0 {
		return
	}
	total := totals[0]
	share := p.sampleShare(k)
	if n == 0 || share == 0 {
		return
	}
	for _, sp := range p.cur {
		if !sp.reports {
			continue
		}
		v := total / float64(n)
		if p.opts.LoadModel == explain.LoadConstantTotal {
			v = total * share
		}
		add(sp.pod, v)
	}
}

// fillTotal adds the value of an Object or External metric at k, or the
// error the controller would meet without one.
func (p *replayRun) fillTotal(m *recording.Metric, k int, ts metav1.Time) {
	v, ok := m.Total.At(k)
	if !ok {
		if p.snap.APIErrors == nil {
			p.snap.APIErrors = map[string]string{}
		}
		p.snap.APIErrors[m.Kind+":"+m.Name] = fmt.Sprintf("no recorded value at %s (query %s)", p.rec.Instant(k).UTC().Format(time.RFC3339), m.Query)
		return
	}
	q := *resource.NewMilliQuantity(int64(math.Round(v*1000)), resource.DecimalSI)
	if m.Kind == recording.KindExternal {
		p.snap.ExternalMetrics = append(p.snap.ExternalMetrics, externalmetricsv1beta1.ExternalMetricValue{MetricName: m.Name, Timestamp: ts, Value: q})
		return
	}
	for _, spec := range p.snap.HPA.Spec.Metrics {
		if o := spec.Object; o != nil && spec.Type == autoscalingv2.ObjectMetricSourceType && o.Metric.Name == m.Name {
			p.snap.CustomMetrics = append(p.snap.CustomMetrics, custommetricsv1beta2.MetricValue{
				DescribedObject: corev1.ObjectReference{Kind: o.DescribedObject.Kind, APIVersion: o.DescribedObject.APIVersion, Name: o.DescribedObject.Name, Namespace: p.snap.HPA.Namespace},
				Metric:          custommetricsv1beta2.MetricIdentifier{Name: m.Name},
				Timestamp:       ts, Value: q,
			})
		}
	}
}

// eachSpan runs f over each span of spans at once (j its index, [from,
// to) its instants), and returns when all are done.
func eachSpan(spans [][2]int, f func(j, from, to int)) {
	if len(spans) == 1 {
		f(0, spans[0][0], spans[0][1])
		return
	}
	var wg sync.WaitGroup
	for j, span := range spans {
		wg.Go(func() { f(j, span[0], span[1]) })
	}
	wg.Wait()
}
