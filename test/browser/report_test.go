// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build browser

// Package browser loads the HTML reports of tune and of a backtest
// (pkg/render/report) in a real browser, headless Chromium: the page
// parses into the charts and tables the code wrote, nothing on it logs to
// the console, and its screenshot shows the charts drawn. make
// test-browser runs it (hack/test/chromium.sh installs Debian's chromium
// when it is missing); KUBECTL_HPA_UPDATE_SCREENSHOTS=1 also writes the
// screenshots to docs/images for docs/tune.md.
package browser

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/internal/reportfixture"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render/report"
)

// repoRoot is the repository's root, from this package's directory.
const repoRoot = "../.."

// chromium returns the browser: $KUBECTL_HPA_CHROMIUM, else what
// hack/test/chromium.sh finds or installs.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("KUBECTL_HPA_CHROMIUM"); p != "" {
		return p
	}
	out, err := exec.Command(filepath.Join(repoRoot, "hack", "test", "chromium.sh")).Output()
	if err != nil {
		t.Fatalf("hack/test/chromium.sh: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// run runs headless Chromium on page with args and returns its output
// and its log (stderr, where --enable-logging puts the console).
func run(t *testing.T, browser, page string, args ...string) (stdout, log string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	all := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0",
	}, args...)
	all = append(all, "file://"+page)
	cmd := exec.CommandContext(ctx, browser, all...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", browser, strings.Join(all, " "), err, errb.String())
	}
	return out.String(), errb.String()
}

// consoleLine is how Chromium logs a page's console message or uncaught
// error with --enable-logging=stderr:
//
//	[pid:tid:time:INFO:CONSOLE:1] "Uncaught ReferenceError: f is not defined", source: file:///x.html (1)
var consoleLine = regexp.MustCompile(`:CONSOLE[:(]`)

func consoleMessages(log string) []string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if consoleLine.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// page is a report to load and what its DOM must hold.
type page struct {
	name  string
	write func(io.Writer) error
	// charts are the ids of the <svg> charts, each with at least paths
	// series paths and circles circles.
	charts []chart
	// rows are the table ids and how many body rows each has.
	rows map[string]int
	// colors are the series' strokes the screenshot must show.
	colors     map[string]rgb
	screenshot string
	height     int
}

type chart struct {
	id             string
	paths, circles int
}

type rgb struct{ r, g, b uint8 }

var (
	blue   = rgb{0x25, 0x63, 0xeb}
	green  = rgb{0x16, 0xa3, 0x4a}
	red    = rgb{0xdc, 0x26, 0x26}
	orange = rgb{0xd9, 0x77, 0x06}
	gray   = rgb{0x6b, 0x72, 0x80}
)

func pages() []page {
	return []page{
		{
			name:  "tune",
			write: func(w io.Writer) error { return report.WriteTune(w, reportfixture.Tune()) },
			charts: []chart{
				// recorded load, target, bound (and the legend's three)
				{"chart-load-0", 6, 0},
				{"chart-load-1", 6, 0},
				// actual, as-is, recommended, #1 (and the legend's four)
				{"chart-replicas", 8, 0},
				// the frontier's line; eleven candidates, the current,
				// the recommended and the picked marks (and the legend's
				// five)
				{"chart-frontier", 1, 11 + 3 + 5},
			},
			rows:       map[string]int{"summary-table": 3, "candidates-table": 9},
			colors:     map[string]rgb{"load and as-is": blue, "recommended": green, "bound": red, "picked": orange, "actual": gray},
			screenshot: "tune-report.png", height: 2700,
		},
		{
			name:  "backtest",
			write: func(w io.Writer) error { return report.WriteBacktest(w, reportfixture.Backtest()) },
			charts: []chart{
				{"chart-load-0", 6, 0},
				{"chart-load-1", 6, 0},
				// actual, as-is, with the changes
				{"chart-replicas", 6, 0},
			},
			rows:       map[string]int{"summary-table": 3},
			colors:     map[string]rgb{"load and as-is": blue, "with the changes": green, "bound": red, "actual": gray},
			screenshot: "backtest-report.png", height: 1750,
		},
		{
			name:  "fleet",
			write: func(w io.Writer) error { return report.WriteFleet(w, report.Fleet{Doc: reportfixture.Fleet()}) },
			charts: []chart{
				// the savings: bars, no series
				{"chart-savings", 0, 0},
				// three HPAs as they are, one recommended (and the
				// legend's two), per cost unit
				{"chart-fleet-core-hours", 0, 3 + 1 + 2},
				{"chart-fleet-pod-hours", 0, 1 + 1 + 2},
			},
			rows:       map[string]int{"totals-table": 2, "fleet-table": 5},
			colors:     map[string]rgb{"savings and recommended": green},
			screenshot: "fleet-report.png", height: 2000,
		},
	}
}

func TestReportsInChromium(t *testing.T) {
	browser := chromium(t)
	for _, p := range pages() {
		t.Run(p.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, p.name+".html")
			var buf bytes.Buffer
			if err := p.write(&buf); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}

			dom, log := run(t, browser, file, "--dump-dom")
			if msgs := consoleMessages(log); len(msgs) > 0 {
				t.Errorf("the console logged:\n%s", strings.Join(msgs, "\n"))
			}
			checkDOM(t, dom, p)

			shot := filepath.Join(dir, p.screenshot)
			_, log = run(t, browser, file, fmt.Sprintf("--screenshot=%s", shot), fmt.Sprintf("--window-size=1280,%d", p.height))
			if msgs := consoleMessages(log); len(msgs) > 0 {
				t.Errorf("the console logged:\n%s", strings.Join(msgs, "\n"))
			}
			img := readPNG(t, shot)
			for what, c := range p.colors {
				if n := countColor(img, c); n < 200 {
					t.Errorf("the screenshot has %d pixels of %s's color %v: the chart was not drawn", n, what, c)
				}
			}
			if os.Getenv("KUBECTL_HPA_UPDATE_SCREENSHOTS") == "1" && !t.Failed() {
				b, err := os.ReadFile(shot)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(repoRoot, "docs", "images", p.screenshot), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// checkDOM checks the DOM Chromium built: every chart an <svg> with its
// title and its drawn elements (a path with an empty d draws nothing),
// every table its rows.
func checkDOM(t *testing.T, dom string, p page) {
	t.Helper()
	if !strings.Contains(dom, "</html>") {
		t.Fatalf("no DOM dumped:\n%.500s", dom)
	}
	for _, c := range p.charts {
		svg := element(dom, "svg", c.id)
		if svg == "" {
			t.Errorf("no <svg id=%q> in the DOM", c.id)
			continue
		}
		if !strings.Contains(svg, `<title id="`+c.id+`-title">`) || !strings.Contains(svg, `<desc id="`+c.id+`-desc">`) {
			t.Errorf("%s: no title or description", c.id)
		}
		paths := regexp.MustCompile(`<path class="series [^"]*" d="M[^"]+"`).FindAllString(svg, -1)
		if len(paths) != c.paths {
			t.Errorf("%s: %d drawn series paths, want %d", c.id, len(paths), c.paths)
		}
		if n := strings.Count(svg, "<circle "); n != c.circles {
			t.Errorf("%s: %d circles, want %d", c.id, n, c.circles)
		}
		if n := strings.Count(svg, `<text class="tick"`); n < 4 {
			t.Errorf("%s: %d axis ticks", c.id, n)
		}
	}
	for id, want := range p.rows {
		tb := element(dom, "table", id)
		body := tb[strings.Index(tb, "<tbody>")+1:]
		if n := strings.Count(body, "<tr"); tb == "" || n != want {
			t.Errorf("table %s: %d rows, want %d", id, n, want)
		}
	}
	if strings.Contains(dom, "<script") {
		t.Error("the DOM holds a script")
	}
}

// element returns the element <tag id="id" ...>...</tag> of the DOM (none
// of the report's nest in their own kind), or "".
func element(dom, tag, id string) string {
	i := strings.Index(dom, "<"+tag+` id="`+id+`"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(dom[i:], "</"+tag+">")
	if j < 0 {
		return ""
	}
	return dom[i : i+j]
}

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is no PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 1000 || b.Dy() < 1000 {
		t.Fatalf("the screenshot is %v", b)
	}
	return img
}

// countColor counts the pixels near c (anti-aliasing blends the edges of a
// stroke; its middle keeps the color).
func countColor(img image.Image, c rgb) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r>>8, c.r) && near(g>>8, c.g) && near(bl>>8, c.b) {
				n++
			}
		}
	}
	return n
}

func near(v uint32, w uint8) bool { return v+12 >= uint32(w) && v <= uint32(w)+12 }

// The checks can fail: a page whose script throws is caught by the
// console check, and a page without the charts by the screenshot's.
func TestChecksCatchABrokenPage(t *testing.T) {
	browser := chromium(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "broken.html")
	if err := os.WriteFile(file, []byte(`<!DOCTYPE html><html><head><title>broken</title></head><body><p>no charts</p><script>notDefined();</script></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "broken.png")
	_, log := run(t, browser, file, "--screenshot="+shot, "--window-size=1280,1200")
	msgs := consoleMessages(log)
	if len(msgs) == 0 || !strings.Contains(strings.Join(msgs, "\n"), "notDefined") {
		t.Errorf("the console check missed the script's error; the log:\n%s", log)
	}
	img := readPNG(t, shot)
	if n := countColor(img, green); n >= 200 {
		t.Errorf("a page without charts has %d pixels of a series' green", n)
	}
}
