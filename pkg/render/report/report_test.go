// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package report_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/internal/reportfixture"
	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render/report"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func TestGolden(t *testing.T) {
	for name, write := range map[string]func(io.Writer) error{
		"tune":     func(w io.Writer) error { return report.WriteTune(w, reportfixture.Tune()) },
		"backtest": func(w io.Writer) error { return report.WriteBacktest(w, reportfixture.Backtest()) },
	} {
		t.Run(name, func(t *testing.T) {
			var a, b bytes.Buffer
			if err := write(&a); err != nil {
				t.Fatal(err)
			}
			if err := write(&b); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatal("two writes of the same report differ")
			}
			testutil.AssertGolden(t, a.Bytes(), *update)
		})
	}
}

// The page is well-formed (every element closed, as XML reads it), holds
// no script and loads nothing: no src, no href, no url(), no @import.
func TestSelfContained(t *testing.T) {
	for name, write := range map[string]func(io.Writer) error{
		"tune":     func(w io.Writer) error { return report.WriteTune(w, reportfixture.Tune()) },
		"backtest": func(w io.Writer) error { return report.WriteBacktest(w, reportfixture.Backtest()) },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatal(err)
		}
		page := buf.String()
		for _, bad := range []string{"<script", " src=", " href=", "url(", "@import", "http://www.w3.org/1999/xlink"} {
			if strings.Contains(page, bad) {
				t.Errorf("%s: the page holds %q", name, bad)
			}
		}
		i := strings.Index(page, "<body>")
		if i < 0 {
			t.Fatalf("%s: no <body>", name)
		}
		body := page[i:]
		body = strings.TrimSuffix(body, "</html>\n")
		d := xml.NewDecoder(strings.NewReader(body))
		d.Strict, d.Entity = true, xml.HTMLEntity
		svgs := 0
		for {
			tok, err := d.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: not well-formed: %v", name, err)
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "svg" {
				svgs++
			}
		}
		want := map[string]int{"tune": 4, "backtest": 3}[name]
		if svgs != want {
			t.Errorf("%s: %d charts, want %d", name, svgs, want)
		}
	}
}

// What the reader needs to find is there: the charts' titles, the
// recommendation's command, every frontier candidate and the picked one
// in the table, and the failed candidate counted.
func TestTuneContents(t *testing.T) {
	r := reportfixture.Tune()
	var buf bytes.Buffer
	if err := report.WriteTune(&buf, r); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	i := strings.Index(page, `<table id="candidates-table">`)
	if i < 0 {
		t.Fatal("no candidates table")
	}
	table, _, _ := strings.Cut(page[i:], "</table>")
	rows := regexp.MustCompile(`<tr[^>]*><td class="n">(\d+)</td>`).FindAllStringSubmatch(table, -1)
	var got []string
	for _, m := range rows {
		got = append(got, m[1])
	}
	// The frontier, the current setting (6) and the picked one (1), in
	// the candidates' order.
	want := []string{"0", "1", "2", "3", "5", "6", "7", "9", "10"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("the table's candidates are %v, want %v", got, want)
	}
	for _, s := range []string{
		`<tr class="recommended"><td class="n">5</td><td>recommended</td>`,
		`<tr class="current"><td class="n">6</td><td>current, off the frontier</td>`,
		"1 candidate could not be replayed",
		"kubectl patch hpa web -n shop --type merge -p &#39;{&#34;spec&#34;",
		`<title id="chart-frontier-title">`, `<title id="chart-replicas-title">`, `<title id="chart-load-0-title">`, `<title id="chart-load-1-title">`,
		`class="series s-pick-0"`, `>candidate #1</text>`, `class="label recommended"`, `class="label current"`,
		"<code>--report-candidate</code>",
	} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
	// Eleven candidates have figures: each is a point of the scatter.
	if n := len(regexp.MustCompile(`<circle class="(candidate|frontier)"[^>]*><title>`).FindAllString(page, -1)); n != 11 {
		t.Errorf("%d candidate points, want 11", n)
	}
}

func TestWriteRefusesNothing(t *testing.T) {
	if err := report.WriteTune(io.Discard, report.Tune{}); err == nil {
		t.Error("WriteTune without a tune: no error")
	}
	if err := report.WriteBacktest(io.Discard, report.Backtest{}); err == nil {
		t.Error("WriteBacktest without a backtest: no error")
	}
}

// The fleet's page: the same bytes at every write (its golden), well
// formed, no script, nothing loaded; its only links are the HPAs' own
// reports, files beside it; the charts are the savings and one cost
// against risk per cost unit, and every HPA has its row.
func TestFleetReport(t *testing.T) {
	doc := reportfixture.Fleet()
	r := report.Fleet{Doc: doc, Reports: map[string]string{report.Key(doc.Items[0].Context, explain.ObjectRef{Namespace: "shop", Name: "web"}): "fleet-shop-web.html"}}
	var a, b bytes.Buffer
	if err := report.WriteFleet(&a, r); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteFleet(&b, r); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two writes of the same report differ")
	}
	testutil.AssertGolden(t, a.Bytes(), *update)
	page := a.String()
	for _, bad := range []string{"<script", " src=", "url(", "@import", "://www.w3.org/1999/xlink"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	if strings.Count(page, " href=") != 1 || !strings.Contains(page, `<a href="fleet-shop-web.html">shop/web</a>`) {
		t.Errorf("the page's links are not the one report beside it")
	}
	i := strings.Index(page, "<body>")
	d := xml.NewDecoder(strings.NewReader(strings.TrimSuffix(page[i:], "</html>\n")))
	d.Strict, d.Entity = true, xml.HTMLEntity
	svgs := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "svg" {
			svgs++
		}
	}
	if svgs != 1+len(doc.Totals) {
		t.Errorf("%d charts, want the savings and %d cost against risk", svgs, len(doc.Totals))
	}
	for _, it := range doc.Items {
		if !strings.Contains(page, it.HPA.Namespace+"/"+it.HPA.Name+"</") {
			t.Errorf("no row of %s/%s", it.HPA.Namespace, it.HPA.Name)
		}
	}
	if err := report.WriteFleet(&a, report.Fleet{}); err == nil {
		t.Error("a fleet report of nothing was written")
	}
}
