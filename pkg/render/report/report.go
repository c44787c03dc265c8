// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package report writes the HTML report of a tune (`kubectl hpa tune
// --report FILE.html`) and of a backtest (`whatif --since ... --report`):
// one self-contained page, its charts inline SVG and its style inline CSS,
// with no script and nothing fetched, so that it opens from a file:// URL
// anywhere. It is a view: it lays out explain's types and writes to an
// io.Writer; it computes no figure (every number comes from the replays)
// and its output depends on its input alone (a golden byte for byte).
package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Tune is what the report of a tune draws.
type Tune struct {
	Tune *explain.Tune
	// Backtest holds the actual curve and the as-is replay the candidates
	// are measured against.
	Backtest *explain.Backtest
	// Loads are the recorded load of each metric.
	Loads []explain.LoadCurve
	// Picked are the candidates the user asked to see beside the
	// recommendation, with their curves; PickOption is the option that
	// picks them, which the table names.
	Picked     []Picked
	PickOption string
}

// Picked is one candidate shown on its own: its index in
// Tune.Candidates and its replica curve.
type Picked struct {
	Index    int
	Replicas []explain.ReplicaPoint
}

// Backtest is what the report of a backtest draws.
type Backtest struct {
	// HPA is namespace/name.
	HPA      string
	Backtest *explain.Backtest
	Loads    []explain.LoadCurve
}

// The picked candidates' classes cycle through these.
var pickClasses = []string{"s-pick-0", "s-pick-1", "s-pick-2"}

// WriteTune writes the report of a tune.
func WriteTune(w io.Writer, r Tune) error {
	t := r.Tune
	if t == nil || r.Backtest == nil {
		return fmt.Errorf("report: no tune to write")
	}
	b := &strings.Builder{}
	head(b, "Tune of HPA "+t.HPA)
	fmt.Fprintf(b, "<header>\n<h1>Tune of HPA %s</h1>\n", esc(t.HPA))
	period(b, t.Start, t.End, t.SyncPeriod, t.Source, t.LoadModel)
	var bounds []string
	for _, bd := range t.Bounds {
		bounds = append(bounds, bd.Metric+" above "+bd.Bound)
	}
	fmt.Fprintf(b, "<p>Cost in %s; risk: the share of the period with %s. %d of the grid's %d settings replayed exactly, each over the whole period.</p>\n</header>\n",
		esc(t.CostUnit), esc(orUnknown(strings.Join(bounds, ", or "))), t.Replayed, t.GridSize)

	rec := candidate(t, t.Recommended)
	b.WriteString("<section id=\"summary\">\n<h2>Summary</h2>\n")
	tb := &table{id: "summary-table", head: []string{"", "cost (" + t.CostUnit + ")", "pod-hours", "above bound", "rescales/h", "longest lag"}, numeric: []int{1, 2, 3, 4}}
	actualCost := ""
	if c := t.Actual.CoreHours; c != nil && t.CostUnit == "core-hours" {
		actualCost = num(*c)
	}
	tb.add("", "actual", actualCost, num(t.Actual.PodHours), "", num(t.Actual.RescalesPerHour), "")
	tb.add("", "as-is (replayed)", num(t.Reference.Cost), num(t.Reference.PodHours), pct(t.Reference.Risk), num(t.Reference.RescalesPerHour), orDash(t.Reference.LongestLag))
	if rec != nil {
		f := rec.Figures
		tb.add("", "recommended", num(f.Cost), num(f.PodHours), pct(f.Risk), num(f.RescalesPerHour), orDash(f.LongestLag))
	}
	tb.write(b)
	if rr := t.Recommendation; rr != nil && rec != nil {
		if len(rr.Changes) == 0 {
			b.WriteString("<p class=\"recommendation\">Recommendation: keep the HPA as it is (no candidate within the bound costs less).</p>\n")
		} else {
			fmt.Fprintf(b, "<p class=\"recommendation\">Recommendation: %s cheaper (%s %s less), at most %s of the period above the bound (as-is: %s).</p>\n<ul class=\"changes\">\n",
				pct(rr.SavingFraction), num(rr.Saving), esc(t.CostUnit), pct(rec.Figures.Risk), pct(t.Reference.Risk))
			for _, c := range rr.Changes {
				fmt.Fprintf(b, "<li>%s</li>\n", esc(c))
			}
			fmt.Fprintf(b, "</ul>\n<p>Apply it:</p>\n<pre class=\"command\">%s</pre>\n", esc(rr.Command))
		}
	} else {
		fmt.Fprintf(b, "<p class=\"recommendation\">No recommendation: no candidate kept the time above the bound within %s of the period.</p>\n", pct(t.RiskBound))
	}
	b.WriteString("</section>\n")

	loadSection(b, r.Loads, t.Start, t.End)

	b.WriteString("<section id=\"replicas\">\n<h2>Replicas</h2>\n")
	rc := &timeChart{
		id: "chart-replicas", title: "Replicas of HPA " + t.HPA, yLabel: "replicas", start: t.Start, end: t.End, minStep: 1,
	}
	rc.series = append(rc.series, replicaSeries("actual", "s-actual", r.Backtest.Actual.Replicas), replicaSeries("as-is (replayed)", "s-asis", r.Backtest.AsIs.Replicas))
	names := []string{"the actual count", "the as-is replay"}
	if rec != nil {
		rc.series = append(rc.series, replicaSeries("recommended", "s-rec", rec.Replicas))
		names = append(names, "the recommendation")
	}
	for i, p := range r.Picked {
		name := fmt.Sprintf("candidate #%d", p.Index)
		rc.series = append(rc.series, replicaSeries(name, pickClasses[i%len(pickClasses)], p.Replicas))
		names = append(names, name)
	}
	rc.desc = fmt.Sprintf("The replica count over the period, a step line each: %s.", andList(names))
	rc.write(b)
	b.WriteString("</section>\n")

	frontierSection(b, r)
	candidatesSection(b, r)
	notes(b, t.Notes)
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteBacktest writes the report of a backtest: the load, and the
// actual count against the as-is replay and the replay with the changes.
func WriteBacktest(w io.Writer, r Backtest) error {
	bt := r.Backtest
	if bt == nil {
		return fmt.Errorf("report: no backtest to write")
	}
	b := &strings.Builder{}
	head(b, "Backtest of HPA "+r.HPA)
	fmt.Fprintf(b, "<header>\n<h1>Backtest of HPA %s</h1>\n", esc(r.HPA))
	period(b, bt.Start, bt.End, bt.SyncPeriod, bt.Source, bt.LoadModel)
	b.WriteString("</header>\n")

	b.WriteString("<section id=\"summary\">\n<h2>Summary</h2>\n")
	tb := &table{id: "summary-table", head: []string{"", "pod-hours", "core-hours", "above bound", "rescales", "rescales/h", "peak", "longest lag"}, numeric: []int{1, 2, 3, 4, 5, 6}}
	paths := []*explain.BacktestPath{&bt.Actual, &bt.AsIs}
	if bt.Changed != nil {
		paths = append(paths, bt.Changed)
	}
	for _, p := range paths {
		s := &p.Summary
		core := ""
		if s.CoreHours != nil {
			core = num(*s.CoreHours)
		}
		tb.add("", pathName(p.Name), num(s.PodHours), core, boundWords(s.AboveBound), strconv.Itoa(s.Rescales), num(s.RescalesPerHour), strconv.Itoa(int(s.PeakReplicas)), orDash(s.LongestLag))
	}
	tb.write(b)
	if len(bt.Changes) > 0 {
		b.WriteString("<p>The changes replayed:</p>\n<ul class=\"changes\">\n")
		for _, c := range bt.Changes {
			fmt.Fprintf(b, "<li>%s</li>\n", esc(c))
		}
		b.WriteString("</ul>\n")
	}
	b.WriteString("</section>\n")

	loadSection(b, r.Loads, bt.Start, bt.End)

	b.WriteString("<section id=\"replicas\">\n<h2>Replicas</h2>\n")
	rc := &timeChart{id: "chart-replicas", title: "Replicas of HPA " + r.HPA, yLabel: "replicas", start: bt.Start, end: bt.End, minStep: 1}
	rc.series = append(rc.series, replicaSeries("actual", "s-actual", bt.Actual.Replicas), replicaSeries("as-is (replayed)", "s-asis", bt.AsIs.Replicas))
	names := []string{"the actual count", "the as-is replay"}
	if bt.Changed != nil {
		rc.series = append(rc.series, replicaSeries("with the changes", "s-rec", bt.Changed.Replicas))
		names = append(names, "the replay with the changes")
	}
	rc.desc = fmt.Sprintf("The replica count over the period, a step line each: %s.", andList(names))
	rc.write(b)
	b.WriteString("</section>\n")

	var all []string
	all = append(all, bt.Notes...)
	for _, s := range bt.Reconstructed {
		all = append(all, "reconstructed: "+s)
	}
	notes(b, all)
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// style is the page's whole style sheet.
const style = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;margin:0;background:#fff}
main{max-width:1000px;margin:0 auto;padding:16px 24px 40px}
h1{font-size:1.5em;margin:.4em 0}h2{font-size:1.2em;margin:1.4em 0 .5em;border-bottom:1px solid #e5e7eb;padding-bottom:.2em}
p{line-height:1.45}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}
th,td{padding:3px 10px;border-bottom:1px solid #e5e7eb;text-align:left;white-space:nowrap}
th{background:#f9fafb}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
tr.recommended td{background:#ecfdf5}tr.current td{background:#eff6ff}
pre.command{background:#f3f4f6;padding:8px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
svg.chart{width:100%;height:auto;display:block;margin:.5em 0 1em;font-family:system-ui,sans-serif;font-size:12px}
svg .grid{stroke:#e5e7eb;stroke-width:1}svg .frame{fill:none;stroke:#9ca3af;stroke-width:1}
svg .tick{fill:#4b5563}svg .axis-title{fill:#374151;font-weight:600}svg .legend text{fill:#1f2937}
svg path.series{fill:none;stroke-width:2;stroke-linejoin:round}
svg .s-load{stroke:#2563eb;stroke-width:1.5}
svg .s-target{stroke:#6b7280;stroke-dasharray:6 4}
svg .s-bound{stroke:#dc2626;stroke-dasharray:6 4}
svg .s-actual{stroke:#6b7280;stroke-width:2.5}
svg .s-asis{stroke:#2563eb;stroke-dasharray:7 3}
svg .s-rec{stroke:#16a34a}
svg .s-pick-0{stroke:#d97706}svg .s-pick-1{stroke:#9333ea}svg .s-pick-2{stroke:#db2777}
svg .s-frontier{stroke:#2563eb;stroke-width:1.5}
svg circle.candidate{fill:#9ca3af;fill-opacity:.6}
svg circle.frontier{fill:#2563eb}
svg circle.current{fill:none;stroke:#111827;stroke-width:2.5}
svg circle.recommended{fill:none;stroke:#16a34a;stroke-width:3}
svg circle.pick{fill:none;stroke:#d97706;stroke-width:2.5}
svg text.label{font-weight:600}svg text.current{fill:#111827}svg text.recommended{fill:#15803d}svg text.pick{fill:#b45309}
svg rect.bar{fill:#16a34a}td.what{white-space:normal}td.what pre.command{margin:.3em 0 0;font-size:.85em}
`

func head(b *strings.Builder, title string) {
	fmt.Fprintf(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", esc(title), style)
}

func period(b *strings.Builder, start, end time.Time, sync, source, model string) {
	fmt.Fprintf(b, "<p class=\"period\">%s → %s UTC (%s), a sync every %s; recorded load: %s; load model %s.</p>\n",
		esc(stamp(start)), esc(stamp(end)), esc(shortDuration(end.Sub(start))), esc(sync), esc(orUnknown(source)), esc(model))
}

// loadSection draws one chart per metric: the recorded load, the target
// and the service bound.
func loadSection(b *strings.Builder, loads []explain.LoadCurve, start, end time.Time) {
	b.WriteString("<section id=\"load\">\n<h2>Load</h2>\n")
	if len(loads) == 0 {
		b.WriteString("<p>No recorded load to draw.</p>\n")
	}
	for i, l := range loads {
		unit := l.Unit
		label := l.Metric
		if unit != "" {
			label += " (" + unit + ")"
		}
		c := &timeChart{id: fmt.Sprintf("chart-load-%d", i), title: "Load of " + l.Metric, yLabel: label, start: start, end: end}
		pts := make([]tpoint, len(l.Points))
		for k, p := range l.Points {
			pts[k] = tpoint{p.Time, p.Value}
		}
		c.series = append(c.series, series{name: "recorded " + l.Metric + " per ready pod", class: "s-load", kind: line, points: pts})
		if l.Unit == "" {
			c.series[0].name = "recorded " + l.Metric
		}
		desc := fmt.Sprintf("The recorded %s over the period", label)
		if l.Target > 0 {
			c.series = append(c.series, series{name: "target " + num(l.Target), class: "s-target", kind: level, value: l.Target})
			desc += ", against the HPA's target of " + num(l.Target)
		}
		if l.Bound > 0 {
			c.series = append(c.series, series{name: "bound " + num(l.Bound), class: "s-bound", kind: level, value: l.Bound})
			desc += " and the service bound of " + num(l.Bound)
			if l.BoundWords != "" {
				desc += " (" + l.BoundWords + ")"
			}
		}
		c.desc = desc + "."
		c.write(b)
	}
	b.WriteString("</section>\n")
}

// frontierSection draws every candidate's cost against its risk, the
// frontier joined, the HPA's own setting and the recommendation marked.
func frontierSection(b *strings.Builder, r Tune) {
	t := r.Tune
	b.WriteString("<section id=\"frontier\">\n<h2>Cost against risk</h2>\n")
	c := &scatterChart{
		id: "chart-frontier", title: "Cost against risk of the candidates of HPA " + t.HPA,
		xLabel: "cost (" + t.CostUnit + ")", yLabel: "time above the bound (% of the period)", lineClass: "s-frontier",
	}
	var front []xy
	n := 0
	for i := range t.Candidates {
		cd := &t.Candidates[i]
		if cd.Figures == nil {
			continue
		}
		n++
		class, r := "candidate", 3.0
		if cd.Frontier {
			class, r = "frontier", 4.5
			front = append(front, xy{cd.Figures.Cost, cd.Figures.Risk * 100})
		}
		c.spots = append(c.spots, spot{x: cd.Figures.Cost, y: cd.Figures.Risk * 100, class: class, r: r, title: candidateTitle(t, i)})
	}
	slices.SortStableFunc(front, func(a, b xy) int {
		if a.x != b.x {
			return cmpFloat(a.x, b.x)
		}
		return cmpFloat(b.y, a.y)
	})
	c.through = front
	c.legend = []legendItem{{name: "candidate", class: "candidate"}, {name: "frontier", class: "frontier"}}
	cur := candidate(t, t.Current)
	if cur != nil {
		c.spots = append(c.spots, spot{x: cur.Figures.Cost, y: cur.Figures.Risk * 100, class: "current", r: 8, title: "the HPA's own setting: " + candidateTitle(t, t.Current), label: "current"})
	} else {
		c.spots = append(c.spots, spot{x: t.Reference.Cost, y: t.Reference.Risk * 100, class: "current", r: 8, title: "the HPA as it is (replayed)", label: "current"})
	}
	c.legend = append(c.legend, legendItem{name: "current setting", class: "current"})
	if rec := candidate(t, t.Recommended); rec != nil {
		c.spots = append(c.spots, spot{x: rec.Figures.Cost, y: rec.Figures.Risk * 100, class: "recommended", r: 11, title: "recommended: " + candidateTitle(t, t.Recommended), label: "recommended", up: true})
		c.legend = append(c.legend, legendItem{name: "recommended", class: "recommended"})
	}
	for _, p := range r.Picked {
		if pc := candidate(t, p.Index); pc != nil {
			c.spots = append(c.spots, spot{x: pc.Figures.Cost, y: pc.Figures.Risk * 100, class: "pick", r: 7, title: candidateTitle(t, p.Index), label: fmt.Sprintf("#%d", p.Index), up: true})
		}
	}
	if len(r.Picked) > 0 {
		c.legend = append(c.legend, legendItem{name: "picked", class: "pick"})
	}
	c.desc = fmt.Sprintf("Each of the %d replayed candidates by its cost in %s and its share of the period above the bound; the %d frontier candidates joined; the HPA's own setting and the recommendation marked.", n, t.CostUnit, len(front))
	c.write(b)
	b.WriteString("</section>\n")
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// candidatesSection is the table of the frontier, as the text report
// has it, with the HPA's own setting and the picked candidates when they
// are not on it, each numbered by its index in the -o json candidates.
func candidatesSection(b *strings.Builder, r Tune) {
	t := r.Tune
	b.WriteString("<section id=\"candidates\">\n<h2>Candidates</h2>\n")
	b.WriteString("<p>The frontier: no other candidate is cheaper without more time above the bound; and the HPA's own setting. # is the candidate's index in <code>-o json</code>'s <code>candidates</code>")
	if r.PickOption != "" {
		fmt.Fprintf(b, ", which <code>%s</code> takes to draw it", esc(r.PickOption))
	}
	b.WriteString(".</p>\n")
	head := []string{"#", "", "cost", "above bound", "rescales/h", "longest lag"}
	for _, ax := range t.Space {
		head = append(head, ax.Name)
	}
	tb := &table{id: "candidates-table", head: head, numeric: []int{0, 2, 3, 4}}
	picked := map[int]bool{}
	for _, p := range r.Picked {
		picked[p.Index] = true
	}
	for i := range t.Candidates {
		cd := &t.Candidates[i]
		if cd.Figures == nil || !(cd.Frontier || i == t.Current || picked[i]) {
			continue
		}
		var roles []string
		class := ""
		if i == t.Recommended {
			roles, class = append(roles, "recommended"), "recommended"
		}
		if i == t.Current {
			roles = append(roles, "current")
			if class == "" {
				class = "current"
			}
		}
		if picked[i] {
			roles = append(roles, "picked")
		}
		if !cd.Frontier {
			roles = append(roles, "off the frontier")
		}
		f := cd.Figures
		row := []string{strconv.Itoa(i), strings.Join(roles, ", "), num(f.Cost), pct(f.Risk), num(f.RescalesPerHour), orDash(f.LongestLag)}
		tb.add(class, append(row, cd.Values...)...)
	}
	tb.write(b)
	failed := 0
	for _, cd := range t.Candidates {
		if cd.Error != "" {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(b, "<p>%d %s could not be replayed; -o json lists why.</p>\n", failed, map[bool]string{true: "candidate", false: "candidates"}[failed == 1])
	}
	b.WriteString("</section>\n")
}

func notes(b *strings.Builder, ns []string) {
	if len(ns) == 0 {
		return
	}
	b.WriteString("<section id=\"notes\">\n<h2>Notes</h2>\n<ul>\n")
	for _, n := range ns {
		fmt.Fprintf(b, "<li>%s</li>\n", esc(n))
	}
	b.WriteString("</ul>\n</section>\n")
}

// candidate returns the candidate at i when it has figures, else nil.
func candidate(t *explain.Tune, i int) *explain.TuneCandidate {
	if i < 0 || i >= len(t.Candidates) || t.Candidates[i].Figures == nil {
		return nil
	}
	return &t.Candidates[i]
}

// candidateTitle words a candidate for its tooltip: its index, figures
// and setting.
func candidateTitle(t *explain.Tune, i int) string {
	cd := &t.Candidates[i]
	var vals []string
	for a, v := range cd.Values {
		if a < len(t.Space) {
			vals = append(vals, t.Space[a].Name+"="+v)
		}
	}
	return fmt.Sprintf("#%d: %s %s, %s above the bound; %s", i, num(cd.Figures.Cost), t.CostUnit, pct(cd.Figures.Risk), strings.Join(vals, ", "))
}

func replicaSeries(name, class string, pts []explain.ReplicaPoint) series {
	s := series{name: name, class: class, kind: step, points: make([]tpoint, len(pts))}
	for i, p := range pts {
		s.points[i] = tpoint{p.Time, float64(p.Replicas)}
	}
	return s
}

// table is an HTML table; numeric columns are right-aligned.
type table struct {
	id      string
	head    []string
	numeric []int
	rows    [][]string
	classes []string
}

func (t *table) add(class string, cells ...string) {
	t.rows = append(t.rows, cells)
	t.classes = append(t.classes, class)
}

func (t *table) write(b *strings.Builder) {
	fmt.Fprintf(b, "<table id=\"%s\">\n<thead><tr>", t.id)
	for i, h := range t.head {
		fmt.Fprintf(b, "<th%s>%s</th>", t.align(i), esc(h))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for r, row := range t.rows {
		if t.classes[r] != "" {
			fmt.Fprintf(b, "<tr class=\"%s\">", t.classes[r])
		} else {
			b.WriteString("<tr>")
		}
		for i, c := range row {
			fmt.Fprintf(b, "<td%s>%s</td>", t.align(i), esc(c))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
}

func (t *table) align(i int) string {
	if slices.Contains(t.numeric, i) {
		return ` class="n"`
	}
	return ""
}

func pathName(n string) string {
	switch n {
	case "as-is":
		return "as-is (replayed)"
	case "changed":
		return "with the changes"
	}
	return n
}

// boundWords is a summary's time above the bound: the worst metric's
// share of the period.
func boundWords(bs []explain.BoundTime) string {
	if len(bs) == 0 {
		return ""
	}
	worst := 0.0
	for _, bt := range bs {
		worst = math.Max(worst, bt.Fraction)
	}
	return pct(worst)
}

func andList(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") }

// shortDuration words a period's length as the text report does (1h30m,
// 168h).
func shortDuration(d time.Duration) string {
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
