// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// The views of explain --watch: on a terminal, a frame redrawn in place
// (WatchFrame); piped, one line per replayed sync that changed something,
// as kubectl get -w prints (WatchLines); with -o json|yaml, a stream of
// Explanation documents (WatchEncoder).

// WatchLines writes one line per HPA whose row changed since the last line
// written for it: the time of the sync, then the columns of the many-HPA
// list. The header comes once, before the first line.
type WatchLines struct {
	w             io.Writer
	allNamespaces bool
	header        bool
	last          map[string]string
}

// NewWatchLines returns the piped view of a watch.
func NewWatchLines(w io.Writer, allNamespaces bool) *WatchLines {
	return &WatchLines{w: w, allNamespaces: allNamespaces, last: map[string]string{}}
}

// watchTimeWidth is the width of the TIME column before the list's.
const watchTimeWidth = 20

// Update writes the lines of the decisions of one replay.
func (l *WatchLines) Update(at time.Time, ds []*explain.Decision) error {
	widths := []int{watchTimeWidth}
	cols := listWidths
	if !l.allNamespaces {
		cols = cols[1:]
	}
	for i, h := range listHeader(l.allNamespaces)[:len(cols)] {
		widths = append(widths, max(cols[i], len(h)))
	}
	right := make([]bool, len(widths))
	var b strings.Builder
	for _, d := range ds {
		row := listRow(d, l.allNamespaces)
		key := d.HPA.Namespace + "/" + d.HPA.Name
		text := strings.Join(row, "\x00")
		if l.last[key] == text {
			continue
		}
		l.last[key] = text
		if !l.header {
			l.header = true
			b.WriteString(alignRow(append([]string{"TIME"}, listHeader(l.allNamespaces)...), widths, right) + "\n")
		}
		b.WriteString(alignRow(append([]string{at.UTC().Format(time.RFC3339)}, row...), widths, right) + "\n")
	}
	_, err := io.WriteString(l.w, b.String())
	return err
}

// WatchEncoder writes a stream of Explanation documents, one per HPA and
// replayed sync: JSON documents one after the other, or YAML documents
// separated by "---".
type WatchEncoder struct {
	w io.Writer
	f Format
}

// NewWatchEncoder returns the -o json|yaml view of a watch.
func NewWatchEncoder(w io.Writer, f Format) *WatchEncoder { return &WatchEncoder{w: w, f: f} }

// Update writes the decisions of one replay.
func (e *WatchEncoder) Update(ds []*explain.Decision) error {
	for _, d := range ds {
		if e.f == FormatYAML {
			if _, err := io.WriteString(e.w, "---\n"); err != nil {
				return err
			}
		}
		if err := Encode(e.w, e.f, d); err != nil {
			return err
		}
	}
	return nil
}

// WatchFrame is the terminal view of a watch at now: for one HPA, the
// verdict, its metrics against their targets, the stabilization window with
// a countdown to the earliest scale-down, the headroom of the scaling
// policies and the rescales inside the policy periods; for many, one row per HPA. It fits in
// width × height (0: no limit) and is meant to be redrawn in place.
func WatchFrame(w io.Writer, ds []*explain.Decision, now time.Time, allNamespaces bool, opts Options, height int) string {
	width := opts.Width
	if width <= 0 {
		width = DefaultWidth
	}
	th := newTheme(w, opts.Palette)
	if !opts.Color {
		th = plainTheme()
	}
	var lines []string
	if len(ds) == 1 && !allNamespaces {
		lines = watchOne(th, ds[0], now)
	} else {
		lines = watchMany(th, ds, now, allNamespaces)
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "…")
	}
	if height > 0 && len(lines) > height {
		more := len(lines) - height + 1
		lines = append(lines[:height-1], paint(th.dim, fmt.Sprintf("… %d more lines (make the terminal taller)", more)))
	}
	return strings.Join(lines, "\n") + "\n"
}

func watchMany(th *theme, ds []*explain.Decision, now time.Time, allNamespaces bool) []string {
	var t table
	t.row(listHeader(allNamespaces)...)
	for _, d := range ds {
		t.row(listRow(d, allNamespaces)...)
	}
	lines := t.lines()
	lines[0] = paint(th.bold, lines[0])
	return append([]string{paint(th.dim, fmt.Sprintf("%d HPAs · %s · every sync replayed; Ctrl-C to stop", len(ds), now.UTC().Format(time.TimeOnly)+"Z"))}, lines...)
}

func watchOne(th *theme, d *explain.Decision, now time.Time) []string {
	var lines []string
	add := func(s string) { lines = append(lines, strings.TrimRight(s, " ")) }
	label, tn := watchVerdict(d)
	add(paint(th.badge[tn], " "+label+" ") + " " + paint(th.bold, objectName(d.HPA.Namespace, d.HPA.Name)) + "  " +
		paint(th.tone(tn).Bold(true), fmt.Sprintf("%d → %d", d.CurrentReplicas, d.DesiredReplicas)) + "  " + ShortReason(d))
	tg := d.Target
	ctx := []string{objectName(tg.Kind, tg.Name), fmt.Sprintf("min %d, max %d", tg.MinReplicas, tg.MaxReplicas)}
	if v := d.Settings.ControllerVersion; v != "" {
		ctx = append(ctx, "controller "+v)
	}
	// Whole seconds: the frame is redrawn every second.
	synced := timeWords(d.Now, now, timeOfDay) + "Z (" + now.Sub(d.Now).Round(time.Second).String() + " ago)"
	ctx = append(ctx, "synced "+synced, "history: "+historyCoverage(d.StateBefore))
	add(paint(th.dim, strings.Join(ctx, " · ")))

	add("")
	add(paint(th.bold, "Metrics") + paint(th.dim, "  ( current / target → proposal )"))
	var mt table
	for i := range d.Metrics {
		m := &d.Metrics[i]
		value := statusValueWords(m)
		prop := int32Or(m.ProposedReplicas, "failed")
		if m.Winner {
			prop = paint(th.bold, prop+" ◀")
		}
		mt.row("  "+metricName(m), value+" / "+targetWords(m, targetShort), "→ "+prop)
	}
	lines = append(lines, mt.lines()...)

	if n := d.Normalization; n != nil {
		st := n.Stabilization
		add("")
		add(paint(th.bold, "Stabilization"))
		down := fmt.Sprintf("  scale-down window %ds: highest recent recommendation %d", st.DownWindowSeconds, st.DownRecommendation)
		if st.UpRecommendation != nil {
			down += fmt.Sprintf(" · scale-up window %ds: lowest %d", st.UpWindowSeconds, *st.UpRecommendation)
		}
		add(down)
		if st.HeldUntil != nil {
			left := st.HeldUntil.Sub(now)
			when := timeWords(*st.HeldUntil, now, timeOfDay) + "Z"
			if left > 0 {
				add(paint(th.tone(toneWarn), fmt.Sprintf("  held at %d: earliest change at %s, in %s", st.Result, when, left.Round(time.Second))))
			} else {
				add(paint(th.tone(toneOK), fmt.Sprintf("  the hold ended at %s: the next sync can change the replicas", when)))
			}
		} else {
			add(paint(th.dim, "  nothing held"))
		}
		add("")
		add(paint(th.bold, "Limits"))
		l := n.Limits
		head := fmt.Sprintf("  %s: min %d, max %d", orDash(l.Direction), l.Min, l.Max)
		if l.RateLimit != nil {
			head += fmt.Sprintf(", rate limit %d", *l.RateLimit)
		}
		add(head)
		for i := range l.Policies {
			p := &l.Policies[i]
			mark := " "
			if p.Selected {
				mark = "◀"
			}
			add(fmt.Sprintf("  %s %s: %s %s", policyWords(p), policyArithmetic(p, l.Direction), mark, paint(th.dim, fmt.Sprintf("(+%d −%d in the period)", p.AddedInPeriod, p.RemovedInPeriod))))
		}
	}

	add("")
	// The rescales the controller still counts: those inside the longest
	// scaling-policy period (older ones no longer limit anything).
	add(paint(th.bold, "Rescales in the policy periods"))
	type rescale struct {
		at     time.Time
		change string
	}
	var rs []rescale
	for _, e := range d.StateBefore.ScaleUpEvents {
		rs = append(rs, rescale{e.Timestamp, fmt.Sprintf("+%d", e.ReplicaChange)})
	}
	for _, e := range d.StateBefore.ScaleDownEvents {
		rs = append(rs, rescale{e.Timestamp, fmt.Sprintf("−%d", e.ReplicaChange)})
	}
	slices.SortFunc(rs, func(a, b rescale) int { return b.at.Compare(a.at) })
	if len(rs) == 0 {
		add(paint(th.dim, "  none"))
	}
	for i, r := range rs {
		if i == 5 {
			break
		}
		add(fmt.Sprintf("  %s  %s  %s", timeWords(r.at, now, timeOfDay)+"Z", r.change, paint(th.dim, "("+now.Sub(r.at).Round(time.Second).String()+" ago)")))
	}
	return lines
}

// watchVerdict is the badge of a watched HPA.
func watchVerdict(d *explain.Decision) (string, tone) {
	switch d.DecidedBy.Kind {
	case explain.DecidedByFailure:
		return "FAILED", toneBad
	case explain.DecidedByDisabled:
		return "DISABLED", toneWarn
	case explain.DecidedByScaleUpStabilization, explain.DecidedByScaleDownStabilization:
		if !d.Rescale {
			return "HELD", toneWarn
		}
	case explain.DecidedByScaleUpRateLimit, explain.DecidedByScaleDownRateLimit, explain.DecidedByMinReplicas, explain.DecidedByMaxReplicas:
		if !d.Rescale {
			return "LIMITED", toneWarn
		}
	case explain.DecidedByMetric, explain.DecidedByTolerance, explain.DecidedByScaleFromZero:
	}
	switch {
	case d.Rescale && d.DesiredReplicas > d.CurrentReplicas:
		return "SCALE UP", toneOK
	case d.Rescale:
		return "SCALE DOWN", toneOK
	}
	return "NO CHANGE", toneOK
}

// historyCoverage says how the watched history stands: observed over the
// whole window, or partly assumed.
func historyCoverage(st explain.ControllerState) string {
	words := string(st.Provenance)
	if words == "" {
		words = "assumed"
	}
	if len(st.Notes) > 0 && st.Provenance != explain.Observed {
		if i := strings.Index(st.Notes[0], ":"); i > 0 {
			return words + " (" + st.Notes[0][:i] + ")"
		}
	}
	return words
}

// LiveFrame redraws a watch's frame in place on a terminal: the cursor
// goes back to the top of the frame drawn last, which is cleared, and is
// hidden meanwhile; the last frame stays on the screen when the watch
// ends (Restore shows the cursor again).
type LiveFrame struct {
	W      io.Writer
	lines  int
	hidden bool
}

// Draw replaces the frame drawn last with s.
func (f *LiveFrame) Draw(s string) error {
	var prefix string
	if !f.hidden {
		prefix, f.hidden = "\x1b[?25l", true
	}
	if f.lines > 0 {
		prefix += fmt.Sprintf("\r\x1b[%dA\x1b[J", f.lines)
	}
	f.lines = strings.Count(s, "\n")
	_, err := io.WriteString(f.W, prefix+s)
	return err
}

// Restore shows the cursor again.
func (f *LiveFrame) Restore() {
	if f.hidden {
		_, _ = io.WriteString(f.W, "\x1b[?25h")
	}
}
