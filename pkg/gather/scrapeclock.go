// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

// metrics-server reads every kubelet on a ticker of its --metric-resolution,
// so the moments of its scrapes keep one phase for as long as its process
// runs. The CPU sample it serves for a pod is the rate of the container's
// counter between its last two reads of it: the PodMetrics window is the
// span between them and the timestamp the later one. A replay over recorded
// load needs both figures: the span (the resolution) and the phase (one
// scrape moment, and how far off it may be). ReadScrapeClock reads them off
// the live cluster with GETs and LISTs only.

// Each node's scrape starts after a random delay below 8 ms per scraped
// node, never more than 4 s, so that the kubelets are not all asked at the
// same instant. A pod's sample may therefore be taken up to that long after
// the tick the phase is made of.
const (
	staggerPerNode = 8 * time.Millisecond
	staggerCap     = 4 * time.Second
)

// resolutionSlack is how close to whole seconds a window must be to be
// taken for a --metric-resolution of whole seconds (2%: a 10s resolution
// reads as windows of 9.8s to 10.2s).
const resolutionSlack = 0.02

// wholeSecondHalf is half the one-second span a whole-second timestamp
// leaves open: PodMetrics timestamps lose their fraction on the wire, in
// JSON and in protobuf alike.
const wholeSecondHalf = 500 * time.Millisecond

// ScrapeClock is metrics-server's timing as read off the live cluster:
// how long its samples span, how often it scrapes, and when one scrape
// happened. Each figure says where it came from.
type ScrapeClock struct {
	// Window is the median PodMetrics window of the pods read: the time
	// between the two scrapes a CPU sample is the rate over.
	Window time.Duration
	// Windows is how many PodMetrics the median is of.
	Windows int
	// Resolution is metrics-server's --metric-resolution as best known: the
	// flag as read from its pod when readable, else the window rounded to
	// whole seconds when it is within 2% of them, else the window itself.
	Resolution     time.Duration
	ResolutionFrom string
	// Anchor is one scrape moment (when polled, the moment metrics-server
	// stored the scrape, a few milliseconds after its reads): the others
	// are Resolution apart, for as long as metrics-server runs. Spread is how far off Anchor may be
	// either way: half a second from whole-second timestamps, or half the
	// gap between two polls, plus metrics-server's per-node stagger when
	// the node count is known.
	Anchor     time.Time
	Spread     time.Duration
	AnchorFrom string
	// Polled says that Anchor was seen as the change of a PodMetrics
	// timestamp while polling it; otherwise it is worked out of a
	// whole-second timestamp.
	Polled bool
	// Nodes is the number of nodes metrics-server's stagger was bounded
	// with (0: not known, and the stagger is not in Spread).
	Nodes int
	// MetricsServer is metrics-server's pod, nil when none could be read
	// (it runs outside the cluster, elsewhere than kube-system, or reading
	// pods there is forbidden).
	MetricsServer *MetricsServerPod
	// Detail says all of the above in plain words, for the output.
	Detail string
}

// MetricsServerPod is what a metrics-server pod tells of its scrapes.
type MetricsServerPod struct {
	// Pod is "namespace/name".
	Pod string
	// Started is when the metrics-server container last started (when its
	// status does not say, the pod's start): its ticker, and so the phase
	// of its scrapes, holds from then on. Zero when unknown.
	Started time.Time
	// Resolution is --metric-resolution from the container's command line;
	// 0 when the flag is not there (the built-in default, which differs
	// between versions of metrics-server, applies then).
	Resolution time.Duration
	// Running is how many running metrics-server pods there are. Each one
	// scrapes on a ticker of its own, at its own phase, and the API answers
	// from any of them.
	Running int
}

// ScrapeClockOptions tune ReadScrapeClock.
type ScrapeClockOptions struct {
	// Poll asks for the scrape moment to be found by polling one pod's
	// PodMetrics until its timestamp changes (up to MaxWait), rather than
	// from whole-second timestamps only.
	Poll bool
	// Every is the time between two polls (default 100 ms).
	Every time.Duration
	// MaxWait bounds the poll (default the window and 2 s more: a change
	// comes once per window).
	MaxWait time.Duration
	// Nodes, when positive, is the number of nodes metrics-server scrapes.
	// Otherwise the nodes are counted with a LIST of one item (or, when that
	// is forbidden, of NodeMetrics); unknown when neither can be read.
	Nodes int
	// Now and Sleep stand in for the clock in tests (default time.Now and a
	// sleep that ends early, with ctx's error, when ctx is done).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// ReadScrapeClock reads metrics-server's window and the phase of its
// scrapes. It lists the PodMetrics of namespace ("" for every namespace)
// and keeps those of pods (every pod of the namespace when pods is empty,
// or when none of pods has metrics); with o.Poll it then polls one of
// them with GET until its timestamp changes. It makes GET and LIST
// requests only. An error means the metrics API did not answer or had no
// PodMetrics with a window (the message says which, in one line), or that
// ctx ended; the caller then falls back to assumed values.
func ReadScrapeClock(ctx context.Context, c *Clients, namespace string, pods []string, o ScrapeClockOptions) (ScrapeClock, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleepCtx
	}
	if o.Every <= 0 {
		o.Every = 100 * time.Millisecond
	}
	if err := ctx.Err(); err != nil {
		return ScrapeClock{}, err
	}
	list, err := c.Metrics.MetricsV1beta1().PodMetricses(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		if ctx.Err() != nil {
			return ScrapeClock{}, ctx.Err()
		}
		return ScrapeClock{}, fmt.Errorf("the resource metrics API (metrics.k8s.io) did not answer a list of PodMetrics%s: %s", inNamespace(namespace), shortErr(err))
	}
	used, fellBack := pickPodMetrics(list.Items, pods)
	if len(used) == 0 {
		return ScrapeClock{}, fmt.Errorf("the resource metrics API (metrics.k8s.io) has no PodMetrics with a window%s: metrics-server has no sample of its pods yet", inNamespace(namespace))
	}

	var sc ScrapeClock
	var notes []string
	if fellBack {
		notes = append(notes, fmt.Sprintf("none of the %d pods asked about has metrics, so the window is that of the other pods%s", len(pods), inNamespace(namespace)))
	}
	windows := make([]time.Duration, len(used))
	for i, pm := range used {
		windows[i] = pm.Window.Duration
	}
	sc.Window, sc.Windows = medianDuration(windows), len(used)

	sc.Nodes = o.Nodes
	if sc.Nodes <= 0 {
		sc.Nodes = countNodes(ctx, c)
	}
	ms, msNote := readMetricsServerPod(ctx, c)
	if err := ctx.Err(); err != nil {
		return ScrapeClock{}, err
	}
	sc.MetricsServer = ms
	sc.Resolution, sc.ResolutionFrom = resolutionOf(sc.Window, sc.Windows, ms)
	resolutionShort := sc.ResolutionFrom
	if ms == nil || ms.Resolution <= 0 {
		resolutionShort = "the window"
		if sc.Resolution%time.Second == 0 {
			resolutionShort += " to whole seconds"
		} else {
			resolutionShort += " as it is, not within 2% of whole seconds"
		}
	}
	if ms != nil && ms.Resolution > 0 && !within(sc.Window, ms.Resolution, 0.1) {
		notes = append(notes, fmt.Sprintf("the windows (%s) are not the flag's %s: some scrapes may have failed or the flag changed since", roundDuration(sc.Window), ms.Resolution))
	}
	if ms != nil && ms.Running > 1 {
		notes = append(notes, fmt.Sprintf("%d metrics-server pods run, each scraping at a phase of its own, and the API answers from any of them: the phase read is one of theirs", ms.Running))
	}

	// The anchor out of whole seconds: the latest sample's timestamp is the
	// start of the second its scrape fell in.
	latest := latestPodMetrics(used)
	stagger := staggerBound(sc.Nodes)
	sc.Anchor = latest.Timestamp.Add(wholeSecondHalf)
	sc.Spread = wholeSecondHalf + stagger
	sc.AnchorFrom = fmt.Sprintf("the whole-second timestamp of %s's PodMetrics, the latest of %d", podRef(latest, namespace), sc.Windows)
	seen, spreadOf := fmt.Sprintf("from the whole-second timestamp of %s's PodMetrics", podRef(latest, namespace)), "±500ms of the timestamp's whole second"

	if o.Poll {
		maxWait := o.MaxWait
		if maxWait <= 0 {
			maxWait = sc.Window + 2*time.Second
		}
		p, err := pollScrape(ctx, c, latest, o.Every, maxWait, o.Now, o.Sleep)
		if err != nil {
			return ScrapeClock{}, err
		}
		switch {
		case p.note != "":
			notes = append(notes, p.note)
		case p.half >= wholeSecondHalf:
			notes = append(notes, fmt.Sprintf("the change of %s's timestamp was seen only within ±%s (slow answers), no closer than its whole-second timestamp gives it", podRef(latest, namespace), roundDuration(p.half)))
		default:
			sc.Polled = true
			sc.Anchor = p.at
			sc.Spread = p.half + stagger
			sc.AnchorFrom = fmt.Sprintf("the change of %s's PodMetrics timestamp, polled every %s", podRef(latest, namespace), o.Every)
			seen = fmt.Sprintf("seen as the change of %s's timestamp, polled every %s", podRef(latest, namespace), o.Every)
			spreadOf = fmt.Sprintf("±%s between two polls", roundDuration(p.half))
			if skew := p.at.Sub(p.stamp); skew < -time.Second || skew > 2*time.Second+stagger {
				notes = append(notes, fmt.Sprintf("the change was seen %s off the new sample's timestamp (%s): this machine's clock and the cluster's seem to differ, and the anchor is in this machine's", roundDuration(skew), clockTime(p.stamp)))
			}
		}
	}
	how := fmt.Sprintf("a scrape at %s ±%s", clockTime(sc.Anchor), roundDuration(sc.Spread))
	if sc.Nodes > 0 {
		how += fmt.Sprintf(" (%s and metrics-server's per-node stagger of up to %s over %s)", spreadOf, stagger, plural(sc.Nodes, "node"))
	} else {
		notes = append(notes, "the node count is not readable, so metrics-server's per-node stagger (up to 8ms a node, 4s at most) is not in the spread")
	}
	how += ", " + seen

	parts := []string{fmt.Sprintf("window %s of %d PodMetrics (resolution %s: %s)", roundDuration(sc.Window), sc.Windows, sc.Resolution, resolutionShort)}
	parts = append(parts, how)
	if ms != nil {
		s := "metrics-server is " + ms.Pod
		if !ms.Started.IsZero() {
			s += fmt.Sprintf(", scraping at this phase since it started at %s", ms.Started.UTC().Format(time.RFC3339))
		}
		if ms.Resolution > 0 {
			s += fmt.Sprintf(", --metric-resolution=%s", ms.Resolution)
		} else {
			s += ", without --metric-resolution on its command line"
		}
		parts = append(parts, s)
	} else if msNote != "" {
		notes = append(notes, msNote)
	}
	sc.Detail = strings.Join(append(parts, notes...), "; ")
	return sc, nil
}

// sleepCtx waits d, or until ctx is done (then with ctx's error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// pickPodMetrics keeps the PodMetrics of the named pods that have a
// window, sorted by namespace and name. When names is empty, or none of
// the named pods has metrics, it keeps every pod's, and fellBack says the
// latter happened.
func pickPodMetrics(items []metricsv1beta1.PodMetrics, names []string) (used []*metricsv1beta1.PodMetrics, fellBack bool) {
	var all []*metricsv1beta1.PodMetrics
	for i := range items {
		if items[i].Window.Duration > 0 {
			all = append(all, &items[i])
		}
	}
	slices.SortFunc(all, func(a, b *metricsv1beta1.PodMetrics) int {
		if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	if len(names) == 0 {
		return all, false
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	for _, pm := range all {
		if want[pm.Name] {
			used = append(used, pm)
		}
	}
	if len(used) == 0 {
		return all, len(all) > 0
	}
	return used, false
}

// medianDuration is the median of ds (the mean of the middle two when
// their number is even); 0 for none. It sorts ds.
func medianDuration(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	m := len(ds) / 2
	if len(ds)%2 == 1 {
		return ds[m]
	}
	return ds[m-1] + (ds[m]-ds[m-1])/2
}

// resolutionOf is the --metric-resolution the window of n PodMetrics
// points to, and where it came from: the flag read off metrics-server's
// pod beats the window, which is taken to whole seconds when it lies
// within resolutionSlack of them.
func resolutionOf(window time.Duration, n int, ms *MetricsServerPod) (time.Duration, string) {
	if ms != nil && ms.Resolution > 0 {
		return ms.Resolution, "--metric-resolution of " + ms.Pod
	}
	of := fmt.Sprintf("the median window of %d PodMetrics", n)
	if whole := window.Round(time.Second); whole > 0 && within(window, whole, resolutionSlack) {
		return whole, of + ", to whole seconds"
	}
	return roundDuration(window), of + ", not within 2% of whole seconds"
}

// within says whether d is within frac of ref.
func within(d, ref time.Duration, frac float64) bool {
	return math.Abs(float64(d-ref)) <= frac*float64(ref)
}

// staggerBound is how much later than its tick metrics-server may scrape a
// node when it scrapes that many nodes; 0 when the count is unknown.
func staggerBound(nodes int) time.Duration {
	if nodes <= 0 {
		return 0
	}
	return min(time.Duration(nodes)*staggerPerNode, staggerCap)
}

// latestPodMetrics is the PodMetrics with the latest timestamp, the first
// in used's order among equals: its node answered the last scrape.
func latestPodMetrics(used []*metricsv1beta1.PodMetrics) *metricsv1beta1.PodMetrics {
	latest := used[0]
	for _, pm := range used[1:] {
		if pm.Timestamp.After(latest.Timestamp.Time) {
			latest = pm
		}
	}
	return latest
}

// polled is what a poll of one PodMetrics saw.
type polled struct {
	// at is the middle of the span the timestamp changed in, and half is
	// half its width.
	at   time.Time
	half time.Duration
	// stamp is the new timestamp.
	stamp time.Time
	// note, when set, says why no change was seen.
	note string
}

// pollScrape GETs pm's PodMetrics every `every` until its timestamp
// changes, for at most maxWait. metrics-server stores a scrape's samples
// a few milliseconds after it reads them, so the change falls between
// the sending of the last GET that saw the old timestamp and the answer
// to the first that saw the new one: that span, measured with now, is
// what is returned. A GET that fails ends the poll with a note; only the
// end of ctx is an error.
func pollScrape(ctx context.Context, c *Clients, pm *metricsv1beta1.PodMetrics, every, maxWait time.Duration, now func() time.Time, sleep func(context.Context, time.Duration) error) (polled, error) {
	get := c.Metrics.MetricsV1beta1().PodMetricses(pm.Namespace)
	start := now()
	var (
		old      metav1.Time
		lastSent time.Time
		seen     bool
	)
	for {
		sent := now()
		cur, err := get.Get(ctx, pm.Name, metav1.GetOptions{})
		answered := now()
		if err != nil {
			if ctx.Err() != nil {
				return polled{}, ctx.Err()
			}
			return polled{note: fmt.Sprintf("the poll of %s/%s's PodMetrics failed (%s), so the scrape moment is that of the whole-second timestamps", pm.Namespace, pm.Name, shortErr(err))}, nil
		}
		switch {
		case !seen:
			old, seen = cur.Timestamp, true
		case !cur.Timestamp.Equal(&old):
			half := answered.Sub(lastSent) / 2
			return polled{at: lastSent.Add(half), half: half, stamp: cur.Timestamp.Time}, nil
		}
		lastSent = sent
		if answered.Sub(start) >= maxWait {
			return polled{note: fmt.Sprintf("%s/%s's PodMetrics timestamp did not change in %s of polling, so the scrape moment is that of the whole-second timestamps", pm.Namespace, pm.Name, roundDuration(answered.Sub(start)))}, nil
		}
		if err := sleep(ctx, every); err != nil {
			return polled{}, err
		}
	}
}

// countNodes counts the nodes with a LIST of one (the server says how many
// remain), or, when that is forbidden or does not say, with a LIST of
// NodeMetrics (the nodes metrics-server scraped last time). 0 when neither
// tells.
func countNodes(ctx context.Context, c *Clients) int {
	if c.Kube != nil {
		l, err := c.Kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{Limit: 1})
		if err == nil {
			switch {
			case l.Continue == "":
				return len(l.Items)
			case l.RemainingItemCount != nil:
				return len(l.Items) + int(*l.RemainingItemCount)
			}
		}
	}
	if ctx.Err() != nil {
		return 0
	}
	nm, err := c.Metrics.MetricsV1beta1().NodeMetricses().List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0
	}
	return len(nm.Items)
}

// metricsServerNamespace is where metrics-server's pod is looked for.
const metricsServerNamespace = "kube-system"

// readMetricsServerPod reads metrics-server's pod in kube-system: those
// labelled k8s-app=metrics-server (its manifests' label), else those whose
// name starts with metrics-server. nil with a note when none is readable;
// a forbidden read is no error, only a note.
func readMetricsServerPod(ctx context.Context, c *Clients) (*MetricsServerPod, string) {
	if c.Kube == nil {
		return nil, ""
	}
	pods := c.Kube.CoreV1().Pods(metricsServerNamespace)
	var found []*corev1.Pod
	l, err := pods.List(ctx, metav1.ListOptions{LabelSelector: "k8s-app=metrics-server"})
	if err == nil {
		found = liveMetricsServers(l.Items, false)
	}
	if err == nil && len(found) == 0 {
		if l, err = pods.List(ctx, metav1.ListOptions{}); err == nil {
			found = liveMetricsServers(l.Items, true)
		}
	}
	switch {
	case apierrors.IsForbidden(err):
		return nil, "metrics-server's pod is not readable (listing the pods of kube-system is forbidden), so its flags and start are not known"
	case err != nil:
		return nil, fmt.Sprintf("metrics-server's pod could not be read (%s)", shortErr(err))
	}
	if len(found) == 0 {
		return nil, "no metrics-server pod in kube-system (it may run elsewhere), so its flags and start are not known"
	}
	p := found[0]
	out := &MetricsServerPod{Pod: p.Namespace + "/" + p.Name}
	for _, q := range found {
		if q.Status.Phase == corev1.PodRunning {
			out.Running++
		}
	}
	if p.Status.StartTime != nil {
		out.Started = p.Status.StartTime.Time
	}
	ctr := metricsServerContainer(p)
	if ctr == nil {
		return out, ""
	}
	for _, st := range p.Status.ContainerStatuses {
		if st.Name == ctr.Name && st.State.Running != nil && !st.State.Running.StartedAt.IsZero() {
			out.Started = st.State.Running.StartedAt.Time
		}
	}
	out.Resolution = metricResolutionFlag(append(append([]string{}, ctr.Command...), ctr.Args...))
	return out, ""
}

// liveMetricsServers are the metrics-server pods of items that are not
// being deleted, the running ones first: those named metrics-server* when
// byName is set, else those labelled k8s-app=metrics-server.
func liveMetricsServers(items []corev1.Pod, byName bool) []*corev1.Pod {
	var out []*corev1.Pod
	for i := range items {
		p := &items[i]
		if p.DeletionTimestamp != nil || (byName && !strings.HasPrefix(p.Name, "metrics-server")) {
			continue
		}
		if !byName && p.Labels["k8s-app"] != "metrics-server" {
			continue
		}
		out = append(out, p)
	}
	slices.SortStableFunc(out, func(a, b *corev1.Pod) int {
		ra, rb := a.Status.Phase == corev1.PodRunning, b.Status.Phase == corev1.PodRunning
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// metricsServerContainer is the container of p that runs metrics-server:
// the one whose command line has --metric-resolution, else the one named
// or run as metrics-server, else the only one.
func metricsServerContainer(p *corev1.Pod) *corev1.Container {
	var named *corev1.Container
	for i := range p.Spec.Containers {
		ctr := &p.Spec.Containers[i]
		args := append(append([]string{}, ctr.Command...), ctr.Args...)
		if metricResolutionFlag(args) > 0 {
			return ctr
		}
		if named == nil && (strings.Contains(ctr.Name, "metrics-server") || slices.ContainsFunc(args, func(a string) bool { return strings.HasSuffix(a, "metrics-server") })) {
			named = ctr
		}
	}
	if named == nil && len(p.Spec.Containers) == 1 {
		named = &p.Spec.Containers[0]
	}
	return named
}

// metricResolutionFlag reads --metric-resolution from a command line, in
// the forms --metric-resolution=15s and --metric-resolution 15s, also
// inside one shell string ("sh -c 'metrics-server --metric-resolution=15s'").
// 0 when it is not there or does not parse.
func metricResolutionFlag(args []string) time.Duration {
	var words []string
	for _, a := range args {
		words = append(words, strings.Fields(a)...)
	}
	const flag = "--metric-resolution"
	for i, w := range words {
		w = strings.Trim(w, `'"`)
		var val string
		switch {
		case strings.HasPrefix(w, flag+"="):
			val = strings.TrimPrefix(w, flag+"=")
		case w == flag && i+1 < len(words):
			val = words[i+1]
		default:
			continue
		}
		if d, err := time.ParseDuration(strings.Trim(val, `'"`)); err == nil && d > 0 {
			return d
		}
	}
	return 0
}

// inNamespace is " in namespace NS", or " in any namespace" for "".
func inNamespace(ns string) string {
	if ns == "" {
		return " in any namespace"
	}
	return fmt.Sprintf(" in namespace %q", ns)
}

// podRef names a pod: its name alone within the namespace asked about,
// namespace/name otherwise.
func podRef(pm *metricsv1beta1.PodMetrics, namespace string) string {
	if namespace != "" && pm.Namespace == namespace {
		return pm.Name
	}
	return pm.Namespace + "/" + pm.Name
}

// plural is "1 node", "3 nodes".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// clockTime prints an instant as a time of day in UTC, to the hundredth
// of a second.
func clockTime(t time.Time) string { return t.UTC().Format("15:04:05.00") + " UTC" }

// roundDuration keeps a duration to the millisecond, as it is printed.
func roundDuration(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
