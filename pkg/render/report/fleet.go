// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Fleet is what the report of a tune of many HPAs draws.
type Fleet struct {
	Doc *explain.TuneFleet
	// Reports name each HPA's own tune report, a file beside the page
	// (relative to it), where one was written.
	Reports map[string]string
}

// fleetBarH is the height of one HPA's bar in the savings chart.
const fleetBarH = 22

// WriteFleet writes the report of a tune of many HPAs: the totals, the
// savings ranked as bars, the fleet's cost against risk as it is and
// recommended, and one row per HPA with its recommendation, linking to
// its own tune report where there is one.
func WriteFleet(w io.Writer, r Fleet) error {
	d := r.Doc
	if d == nil {
		return fmt.Errorf("report: no fleet to write")
	}
	b := &strings.Builder{}
	head(b, "Tune of many HPAs")
	fmt.Fprintf(b, "<header>\n<h1>Tune of %d HPAs, ranked by saving</h1>\n", len(d.Items))
	fmt.Fprintf(b, "<p class=\"period\">%s → %s UTC (%s). A recommendation stands where the HPA's as-is replay held its recorded replica count at least %s of the period.</p>\n</header>\n",
		esc(stamp(d.Start)), esc(stamp(d.End)), esc(shortDuration(d.End.Sub(d.Start))), pct(d.MinFidelity))

	b.WriteString("<section id=\"totals\">\n<h2>Totals</h2>\n")
	tt := &table{id: "totals-table", head: []string{"cost unit", "HPAs", "recommendations", "as they are", "recommended", "saved"}, numeric: []int{1, 2, 3, 4, 5}}
	for _, t := range d.Totals {
		tt.add("", t.CostUnit, fmt.Sprint(t.HPAs), fmt.Sprint(t.Recommended), num(t.AsIs), num(t.WithRecommendations), num(t.Saving))
	}
	tt.write(b)
	b.WriteString("</section>\n")

	savingsChart(b, d)

	b.WriteString("<section id=\"cost-risk\">\n<h2>Cost against risk</h2>\n")
	for _, unit := range fleetUnits(d) {
		c := &scatterChart{
			id: "chart-fleet-" + strings.ReplaceAll(unit, " ", "-"), title: "The HPAs' cost in " + unit + " against their time above the bound",
			xLabel: "cost (" + unit + ")", yLabel: "time above the bound (% of the period)",
			legend: []legendItem{{name: "as it is", class: "current"}, {name: "recommended", class: "recommended"}},
		}
		n := 0
		for _, it := range d.Items {
			if it.CostUnit != unit || it.AsIs == nil {
				continue
			}
			n++
			name := it.HPA.Namespace + "/" + it.HPA.Name
			c.spots = append(c.spots, spot{x: it.AsIs.Cost, y: it.AsIs.Risk * 100, class: "current", r: 6, title: name + " as it is: " + num(it.AsIs.Cost) + " " + unit + ", " + pct(it.AsIs.Risk) + " above the bound"})
			if rec := it.Recommended; rec != nil {
				c.spots = append(c.spots, spot{x: rec.Cost, y: rec.Risk * 100, class: "recommended", r: 8, title: name + " recommended: " + num(rec.Cost) + " " + unit + ", " + pct(rec.Risk) + " above the bound", label: it.HPA.Name, up: true})
			}
		}
		c.desc = fmt.Sprintf("Each of the %d HPAs costed in %s by its cost and its share of the period above the bound, as it is and, where there is one, with its recommendation.", n, unit)
		c.write(b)
	}
	b.WriteString("</section>\n")

	b.WriteString("<section id=\"hpas\">\n<h2>The HPAs</h2>\n<table id=\"fleet-table\">\n<thead><tr><th>HPA</th><th class=\"n\">cost</th><th class=\"n\">recommended</th><th class=\"n\">saving</th><th class=\"n\">above bound</th><th class=\"n\">replay held</th><th>recommendation</th></tr></thead>\n<tbody>\n")
	for _, it := range d.Items {
		name := esc(it.HPA.Namespace + "/" + it.HPA.Name)
		if f, ok := r.Reports[Key(it.Context, it.HPA)]; ok {
			name = `<a href="` + esc(f) + `">` + name + "</a>"
		}
		cost, rec, saving, risk, held := "-", "-", "-", "-", "-"
		if a := it.AsIs; a != nil {
			cost, risk = num(a.Cost)+" "+esc(it.CostUnit), pct(a.Risk)
		}
		if x := it.Recommended; x != nil {
			rec, saving, risk = num(x.Cost), num(it.Saving)+" ("+pct(it.SavingFraction)+")", risk+" → "+pct(x.Risk)
		}
		if f := it.Fidelity; f != nil {
			held = fmt.Sprintf("%s, %d/%d", pct(f.Equal), f.Matched, f.Rescales)
		}
		what := esc(string(it.Status)) + ": " + esc(it.Reason)
		if it.Status == explain.FleetRecommended {
			what = esc(strings.Join(it.Changes, "; ")) + "<pre class=\"command\">" + esc(it.Command) + "</pre>"
		}
		fmt.Fprintf(b, "<tr class=\"%s\"><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"what\">%s</td></tr>\n",
			esc(string(it.Status)), name, cost, rec, saving, risk, held, what)
	}
	b.WriteString("</tbody>\n</table>\n</section>\n")
	notes(b, d.Notes)
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// savingsChart draws the recommendations' savings as bars, one per HPA
// in the table's order, as a share of each HPA's cost (the units of two
// HPAs may differ; a share compares).
func savingsChart(b *strings.Builder, d *explain.TuneFleet) {
	b.WriteString("<section id=\"savings\">\n<h2>Savings</h2>\n")
	var rows []explain.FleetItem
	for _, it := range d.Items {
		if it.Status == explain.FleetRecommended {
			rows = append(rows, it)
		}
	}
	if len(rows) == 0 {
		b.WriteString("<p>No recommendation saves anything.</p>\n</section>\n")
		return
	}
	const left, right = 260.0, 230.0
	width := float64(chartW)
	h := 30 + fleetBarH*len(rows)
	openSVG(b, "chart-savings", h, "The saving of each recommendation, as a share of its HPA's cost",
		fmt.Sprintf("One bar per HPA with a recommendation (%d), ranked as the table, its length the share of the HPA's cost the recommendation saves.", len(rows)))
	top := 0.0
	for _, it := range rows {
		top = max(top, it.SavingFraction)
	}
	if top <= 0 {
		top = 1
	}
	for i, it := range rows {
		y := 20 + float64(i*fleetBarH)
		wBar := (width - left - right) * max(it.SavingFraction, 0) / top
		name := it.HPA.Namespace + "/" + it.HPA.Name
		fmt.Fprintf(b, `<text class="tick" x="%s" y="%s" text-anchor="end">%s</text>`, px(left-8), px(y+14), esc(name))
		fmt.Fprintf(b, `<rect class="bar" x="%s" y="%s" width="%s" height="%s"><title>%s</title></rect>`, px(left), px(y+3), px(wBar), px(fleetBarH-6),
			esc(name+": "+num(it.Saving)+" "+it.CostUnit+" ("+pct(it.SavingFraction)+")"))
		fmt.Fprintf(b, `<text class="tick" x="%s" y="%s">%s</text>`+"\n", px(left+wBar+6), px(y+14), esc(pct(it.SavingFraction)+", "+num(it.Saving)+" "+it.CostUnit))
	}
	b.WriteString("</svg>\n</section>\n")
}

// fleetUnits are the cost units of a fleet's HPAs, as its totals list them.
func fleetUnits(d *explain.TuneFleet) []string {
	var out []string
	for _, t := range d.Totals {
		out = append(out, t.CostUnit)
	}
	return out
}

// Key is an HPA's key in Fleet.Reports: its context, namespace and
// name.
func Key(context string, ref explain.ObjectRef) string {
	return context + "/" + ref.Namespace + "/" + ref.Name
}
