// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Text renders the plain, width-independent text view of d: the steps of
// the sync in order, with their numbers. Of the options it only uses Pods.
func Text(d *explain.Decision, opts Options) []byte {
	t := &textView{d: d, opts: opts}
	t.header()
	t.keda(d.KEDA)
	t.settings()
	t.state("Controller state before this sync", d.StateBefore)
	t.assumptions()
	t.steps()
	t.conditions()
	t.events()
	t.metricsStatus()
	t.statusWrite()
	t.agreement()
	t.flush()
	return []byte(t.b.String())
}

type textView struct {
	b    strings.Builder
	d    *explain.Decision
	opts Options
	step int
	// pending holds the lines of the current section; fields at the same
	// indent are aligned across the whole section, as kubectl describe does.
	pending []entry
}

type field struct{ key, value string }

type entryKind int

const (
	rawLine entryKind = iota
	fieldLine
	continuation
)

type entry struct {
	kind   entryKind
	indent int
	key    string
	text   string
}

func (t *textView) line(indent int, s string) {
	t.pending = append(t.pending, entry{kind: rawLine, indent: indent, text: s})
}

func (t *textView) blank() { t.line(0, "") }

// fields adds "Key:  value" lines.
func (t *textView) fields(indent int, fs ...field) {
	for _, f := range fs {
		t.pending = append(t.pending, entry{kind: fieldLine, indent: indent, key: f.key, text: f.value})
	}
}

// fieldsKeepEmpty is fields, with empty keys continuing the previous one.
func (t *textView) fieldsKeepEmpty(indent int, fs []field) {
	for _, f := range fs {
		k := fieldLine
		if f.key == "" {
			k = continuation
		}
		t.pending = append(t.pending, entry{kind: k, indent: indent, key: f.key, text: f.value})
	}
}

// flush writes the pending section.
func (t *textView) flush() {
	width := map[int]int{}
	for _, e := range t.pending {
		if e.kind != rawLine {
			width[e.indent] = max(width[e.indent], len(e.key)+1)
		}
	}
	for _, e := range t.pending {
		var s string
		switch e.kind {
		case fieldLine:
			s = e.key + ":" + strings.Repeat(" ", width[e.indent]-len(e.key)-1+2) + e.text
		case continuation:
			s = strings.Repeat(" ", width[e.indent]+2) + e.text
		default:
			s = e.text
		}
		s = strings.TrimRight(strings.Repeat("  ", e.indent)+s, " ")
		t.b.WriteString(s + "\n")
	}
	t.pending = t.pending[:0]
}

// table adds rows under an underlined header, columns separated by two
// spaces, like the Events table of kubectl describe.
func (t *textView) table(indent int, header []string, rows [][]string) {
	tb := &table{}
	tb.row(header...)
	tb.row(underline(header)...)
	for _, r := range rows {
		tb.row(r...)
	}
	for _, l := range tb.lines() {
		t.line(indent, l)
	}
}

// when words a timestamp with its offset from the decision's now.
func (t *textView) when(ts time.Time) string { return timeWords(ts, t.d.Now, timeFull) }

func (t *textView) section(title string) {
	if strings.HasSuffix(title, ")") && strings.Contains(title, ": (") {
		t.flush()
		t.blank()
		t.line(0, title)
		return
	}
	t.flush()
	t.blank()
	t.line(0, title+":")
}

func (t *textView) startStep(title string) {
	t.flush()
	t.step++
	t.blank()
	t.line(0, fmt.Sprintf("Step %d. %s", t.step, title))
}

func (t *textView) header() {
	d := t.d
	tg := d.Target
	ref := objectName(tg.Kind, tg.Name)
	if tg.APIVersion != "" {
		ref += " (" + tg.APIVersion + ")"
	}
	fs := []field{
		{"Name", objectName(d.HPA.Namespace, d.HPA.Name)},
		{"Reference", ref},
		{"Now", formatTime(d.Now)},
		{"Selector", orNone(tg.Selector)},
		{"Current replicas", fmt.Sprintf("%d (scale spec.replicas; status.replicas %d)", d.CurrentReplicas, tg.StatusReplicas)},
		{"Min replicas", strconv.Itoa(int(tg.MinReplicas))},
		{"Max replicas", strconv.Itoa(int(tg.MaxReplicas))},
	}
	if tg.GetError != "" {
		fs = append(fs, field{"Scale GET error", tg.GetError})
	}
	fs = append(fs,
		field{"Outcome", orUnknown(string(d.Outcome))},
		field{"Desired replicas", t.desiredWords()},
		field{"Summary", orNone(d.Summary)},
	)
	t.fields(0, fs...)
}

func (t *textView) desiredWords() string {
	d := t.d
	switch {
	case d.Rescale:
		return fmt.Sprintf("%d (scale %d → %d)", d.DesiredReplicas, d.CurrentReplicas, d.DesiredReplicas)
	default:
		return fmt.Sprintf("%d (no rescale)", d.DesiredReplicas)
	}
}

func (t *textView) settings() {
	s := t.d.Settings
	t.section("Controller settings")
	gates := none
	if len(s.FeatureGates) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(s.FeatureGates)) {
			parts = append(parts, fmt.Sprintf("%s=%t", k, s.FeatureGates[k]))
		}
		gates = strings.Join(parts, ", ")
	}
	version := orUnknown(s.ControllerVersion)
	if s.ControllerVersionSource != "" {
		version += " (" + s.ControllerVersionSource + ")"
	}
	t.fields(1,
		field{"Controller version", version},
		field{"Tolerance", strconv.FormatFloat(s.Tolerance, 'f', -1, 64)},
		field{"CPU initialization period", orUnknown(s.CPUInitializationPeriod)},
		field{"Initial readiness delay", orUnknown(s.InitialReadinessDelay)},
		field{"Downscale stabilization", orUnknown(s.DownscaleStabilization)},
		field{"Sync period", orUnknown(s.SyncPeriod)},
		field{"Feature gates", gates},
	)
	if s.Source != "" {
		t.fields(1, field{"Source", s.Source})
	}
}

func (t *textView) state(title string, st explain.ControllerState) {
	prov := string(st.Provenance)
	if prov == "" {
		prov = "provenance unknown"
	}
	t.section(fmt.Sprintf("%s (%s)", title, prov))
	hist := "no (the controller holds no history for this HPA)"
	if st.RecommendationsInitialized {
		hist = "yes"
	}
	t.fields(1, field{"Has history", hist})
	t.recommendations(1, st.Recommendations)
	t.scaleEvents(1, "Scale-up events", st.ScaleUpEvents)
	t.scaleEvents(1, "Scale-down events", st.ScaleDownEvents)
	if len(st.Notes) > 0 {
		t.line(1, "Notes:")
		for _, n := range st.Notes {
			t.line(2, "- "+n)
		}
	}
}

func (t *textView) recommendations(indent int, recs []explain.TimestampedRecommendation) {
	if len(recs) == 0 {
		t.fields(indent, field{"Recommendations", none})
		return
	}
	t.line(indent, "Recommendations:")
	rows := make([][]string, 0, len(recs))
	for _, r := range recs {
		rows = append(rows, []string{t.when(r.Timestamp), strconv.Itoa(int(r.Replicas))})
	}
	t.table(indent+1, []string{"TIMESTAMP", "REPLICAS"}, rows)
}

func (t *textView) scaleEvents(indent int, title string, evs []explain.ScaleEvent) {
	if len(evs) == 0 {
		t.fields(indent, field{title, none})
		return
	}
	t.line(indent, title+":")
	rows := make([][]string, 0, len(evs))
	for _, e := range evs {
		rows = append(rows, []string{t.when(e.Timestamp), strconv.Itoa(int(e.ReplicaChange)), yesNo(e.Outdated)})
	}
	t.table(indent+1, []string{"TIMESTAMP", "CHANGE", "OUTDATED"}, rows)
}

func (t *textView) assumptions() {
	t.section("Assumptions")
	if len(t.d.Assumptions) == 0 {
		t.line(1, none)
		return
	}
	for _, a := range t.d.Assumptions {
		t.line(1, "- "+a)
	}
}

func (t *textView) steps() {
	if s := t.d.Selector; s != nil {
		t.startStep("Selector check")
		conflicts := none
		if len(s.ConflictingHPAs) > 0 {
			conflicts = strings.Join(s.ConflictingHPAs, ", ")
		}
		fs := []field{
			{"Selector", orNone(s.Selector)},
			{"Valid", yesNo(s.Valid)},
			{"Pods selected", strconv.Itoa(s.PodsSelected)},
			{"Conflicting HPAs", conflicts},
		}
		if s.Error != "" {
			fs = append(fs, field{"Error", s.Error})
		}
		t.fields(1, fs...)
	}
	t.metrics()
	t.recommendation()
	t.normalization()
	t.result()
}

func (t *textView) metrics() {
	ms := t.d.Metrics
	invalid := 0
	for _, m := range ms {
		if m.Error != nil {
			invalid++
		}
	}
	title := fmt.Sprintf("Metrics (%d", len(ms))
	if invalid > 0 {
		title += fmt.Sprintf(", %d invalid", invalid)
	}
	title += ")"
	if shortCircuited(t.d) {
		title += fmt.Sprintf(": not used, %s decided the outcome", t.d.Outcome)
	}
	t.startStep(title)
	if len(ms) == 0 {
		t.line(1, none)
		return
	}
	for i := range ms {
		if i > 0 {
			t.blank()
		}
		t.metric(&ms[i], len(ms), shortCircuited(t.d))
	}
}

func (t *textView) metric(m *explain.MetricResult, total int, short bool) {
	t.line(1, fmt.Sprintf("Metric %d/%d: %s %s", m.Index+1, total, orUnknown(m.Type), displayName(m)))
	fs := []field{{"Target", targetWords(m, targetLong)}}
	if m.Calculation != "" {
		fs = append(fs, field{"Calculation", m.Calculation})
	}
	t.fields(2, fs...)
	if p := m.Pods; p != nil {
		t.pods(p, m.Unit)
	}
	var rest []field
	if u := m.Usage; u != nil {
		rest = append(rest, field{"Usage", usageWords(m, u)}, field{"Ratio", appliedWords(m, u)})
	}
	if tc := m.Tolerance; tc != nil {
		rest = append(rest, field{"Tolerance", checkWords(tc, tc.Ratio, tc.Within) + toleranceSource(tc)})
	}
	t.fields(2, rest...)
	if f := m.FillIn; f != nil {
		t.fillIn(m, f)
	}
	end := []field{{"Proposal", proposalWords(m)}, {"Status value", statusValueNote(m)}}
	if m.Error != nil {
		msg := *m.Error
		if m.ErrorReason != "" {
			msg = m.ErrorReason + ": " + msg
		}
		end = append(end, field{"Error", msg})
	}
	end = append(end, field{"Used", usedWords(m, short)})
	if m.Timestamp != nil && !m.Timestamp.IsZero() {
		end = append(end, field{"Metric timestamp", t.when(*m.Timestamp)})
	}
	t.fields(2, end...)
	if len(m.Steps) > 0 {
		t.line(2, "Steps:")
		for _, s := range m.Steps {
			t.line(3, "- "+s)
		}
	}
}

func (t *textView) pods(p *explain.PodAccounting, unit explain.MetricUnit) {
	counts := fmt.Sprintf("%d listed: %d ready, %d unready, %d missing, %d ignored", p.Listed, p.Ready, p.Unready, p.Missing, p.Ignored)
	if p.Superfluous > 0 {
		counts += fmt.Sprintf("; %d metric(s) for pods not listed", p.Superfluous)
	}
	t.fields(2, field{"Pods", counts})
	shown, hidden := visiblePods(p.Entries, t.opts.Pods)
	if len(shown) == 0 {
		return
	}
	rows := make([][]string, 0, len(shown))
	for _, e := range shown {
		rows = append(rows, []string{e.Name, e.Class, milliOr(e.UsageMilli, unit, "-"), milliOr(e.RequestMilli, unit, "-"), milliOr(e.FillInMilli, unit, "-"), e.Reason})
	}
	t.table(3, []string{"POD", "CLASS", "USAGE", "REQUEST", "FILL-IN", "REASON"}, rows)
	if len(hidden) > 0 {
		t.line(3, hiddenPodsLine(hidden, t.opts.ListPods))
	}
}

func (t *textView) fillIn(m *explain.MetricResult, f *explain.FillIn) {
	t.line(2, "Fill-in:")
	unready := "not counted"
	if f.UnreadyFilledAsZero {
		unready = "0"
	}
	fs := []field{
		{"Why", orNone(f.Reason)},
		{"Missing pods counted as", missingWords(f.MissingFilledWith)},
		{"Unready pods counted as", unready},
	}
	switch {
	case f.NewUtilization != nil:
		fs = append(fs, field{"New utilization", fmt.Sprintf("%d%%", *f.NewUtilization)})
	case f.NewAverageMilli != nil:
		fs = append(fs, field{"New average", milli(*f.NewAverageMilli, m.Unit)})
	}
	ratio := formatFloat(float64(f.NewRatio))
	if tc := m.Tolerance; tc != nil {
		ratio = checkWords(tc, f.NewRatio, f.Within)
	} else {
		ratio += ", within tolerance? " + yesNo(f.Within)
	}
	fs = append(fs,
		field{"New ratio", ratio + fmt.Sprintf(" (%d samples)", f.Samples)},
		field{"Direction flipped", yesNo(f.DirectionFlip)},
	)
	if f.NewReplicas != nil {
		nr := strconv.Itoa(int(*f.NewReplicas))
		if f.WrongWay {
			nr += " (moves against the ratio: ignored)"
		}
		fs = append(fs, field{"New replicas", nr})
	}
	fs = append(fs, field{"Result", strconv.Itoa(int(f.Result))})
	t.fields(3, fs...)
}

func (t *textView) recommendation() {
	r := t.d.Recommendation
	if r == nil {
		return
	}
	title := "Combined recommendation"
	if shortCircuited(t.d) {
		title += fmt.Sprintf(": not used, %s decided the outcome", t.d.Outcome)
	}
	t.startStep(title)
	var props []string
	for _, m := range t.d.Metrics {
		v := "invalid"
		if m.ProposedReplicas != nil {
			v = strconv.Itoa(int(*m.ProposedReplicas))
		}
		props = append(props, fmt.Sprintf("%s = %s", displayName(&m), v))
	}
	fs := make([]field, 0, 6)
	for i, p := range props {
		k := ""
		if i == 0 {
			k = "Proposals"
		}
		fs = append(fs, field{k, p})
	}
	replicas := none + " (no valid proposal)"
	if r.Failed {
		replicas = none + " (the sync failed)"
	}
	if r.Replicas >= 0 {
		replicas = strconv.Itoa(int(r.Replicas))
		if name := winningName(t.d); name != "" {
			replicas += fmt.Sprintf(" (largest, from %s)", name)
		}
	}
	fs = append(fs,
		field{"Recommendation", replicas},
		field{"Invalid metrics", fmt.Sprintf("%d of %d", r.Invalid, r.Total)},
	)
	if r.Error != "" {
		fs = append(fs, field{"Error", r.Error})
	}
	rule := "no invalid metric"
	switch {
	case r.Failed:
		rule = "sync fails"
		if r.FailureRule != "" {
			rule += ": " + r.FailureRule
		}
	case r.Invalid > 0:
		rule = "invalid metrics do not block a scale-up or no change: the recommendation stands"
	}
	fs = append(fs, field{"Invalid-metric rule", rule})
	t.fieldsKeepEmpty(1, fs)
}

func (t *textView) normalization() {
	n := t.d.Normalization
	if n == nil {
		return
	}
	t.startStep(fmt.Sprintf("Normalization (%s path)", orUnknown(n.Path)))
	t.fields(1, field{"Input", strconv.Itoa(int(n.Input))})

	st := n.Stabilization
	t.line(1, "Stabilization:")
	win := fmt.Sprintf("scale-down %ds", st.DownWindowSeconds)
	if n.Path != "legacy" {
		win = fmt.Sprintf("scale-up %ds, ", st.UpWindowSeconds) + win
	}
	if st.DownWindowSource != "" {
		win += "; scale-down window from " + st.DownWindowSource
	}
	t.fields(2, field{"Windows", win})
	if len(st.Considered) == 0 {
		t.fields(2, field{"Recommendations", none})
	} else {
		t.line(2, "Recommendations:")
		rows := make([][]string, 0, len(st.Considered))
		for _, c := range st.Considered {
			note := ""
			if c.Seeded {
				note = "seeded by a fresh controller"
			}
			rows = append(rows, []string{t.when(c.Timestamp), strconv.Itoa(int(c.Replicas)), yesNo(c.InUp), yesNo(c.InDown), note})
		}
		hdr := []string{"TIMESTAMP", "REPLICAS", "IN UP WINDOW", "IN DOWN WINDOW", "NOTE"}
		if n.Path == "legacy" {
			for i := range rows {
				rows[i] = slices.Delete(rows[i], 2, 3)
			}
			hdr = slices.Delete(hdr, 2, 3)
		}
		t.table(3, hdr, rows)
	}
	var sf []field
	if n.Path != "legacy" {
		sf = append(sf, field{"Lowest in scale-up window", int32Or(st.UpRecommendation, none)})
	}
	sf = append(sf,
		field{"Highest in scale-down window", strconv.Itoa(int(st.DownRecommendation))},
		field{"Result", fmt.Sprintf("%d (%s)", st.Result, orNone(st.Reason))},
	)
	if st.HeldUntil != nil {
		sf = append(sf, field{"Held until", t.when(*st.HeldUntil)})
	}
	t.fields(2, sf...)

	l := n.Limits
	t.line(1, "Rate limits and bounds:")
	lf := []field{{"Direction", orNone(l.Direction)}}
	if l.SelectPolicy != "" {
		lf = append(lf, field{"Select policy", l.SelectPolicy})
	}
	t.fields(2, lf...)
	if len(l.Policies) > 0 {
		t.line(2, "Policies:")
		rows := make([][]string, 0, len(l.Policies))
		for _, p := range l.Policies {
			sel := ""
			if p.Selected {
				sel = "yes"
			}
			rows = append(rows, []string{
				p.Type, strconv.Itoa(int(p.Value)), fmt.Sprintf("%ds", p.PeriodSeconds),
				strconv.Itoa(int(p.AddedInPeriod)), strconv.Itoa(int(p.RemovedInPeriod)), strconv.Itoa(int(p.PeriodStart)),
				strconv.Itoa(int(p.Limit)), sel,
			})
		}
		t.table(3, []string{"TYPE", "VALUE", "PERIOD", "ADDED", "REMOVED", "PERIOD START", "LIMIT", "SELECTED"}, rows)
	}
	result := fmt.Sprintf("%d (%s)", l.Result, orNone(l.Reason))
	if l.Limited {
		result += " LIMITED"
	}
	t.fields(2,
		field{"Rate limit", int32Or(l.RateLimit, none)},
		field{"Bound", int32Or(l.Bound, none)},
		field{"Min/Max replicas", fmt.Sprintf("%d / %d", l.Min, l.Max)},
		field{"Result", result},
	)
	fs := []field{}
	if n.ScaleFromZeroFloor {
		fs = append(fs, field{"Scale-from-zero floor", "raised the result to minReplicas"})
	}
	fs = append(fs, field{"Result", strconv.Itoa(int(n.Result))})
	t.fields(1, fs...)
}

func (t *textView) result() {
	d := t.d
	t.startStep("Result")
	rescale := "no"
	if d.Rescale {
		rescale = fmt.Sprintf("yes, %d → %d", d.CurrentReplicas, d.DesiredReplicas)
		if d.RescaleReason != "" {
			rescale += " (reason: " + d.RescaleReason + ")"
		}
	}
	t.fields(1,
		field{"Outcome", orUnknown(string(d.Outcome))},
		field{"Desired replicas", strconv.Itoa(int(d.DesiredReplicas)) + " (status.desiredReplicas)"},
		field{"Rescale", rescale},
	)
	t.state("Controller state after this sync", d.StateAfter)
}

func (t *textView) conditions() {
	t.section("Conditions (after this sync)")
	if len(t.d.Conditions) == 0 {
		t.line(1, none)
		return
	}
	rows := make([][]string, 0, len(t.d.Conditions))
	for _, c := range t.d.Conditions {
		rows = append(rows, []string{c.Type, c.Status, c.Reason, c.Message})
	}
	t.table(1, []string{"Type", "Status", "Reason", "Message"}, rows)
}

func (t *textView) events() {
	t.section("Events (this sync)")
	if len(t.d.Events) == 0 {
		t.line(1, none)
		return
	}
	rows := make([][]string, 0, len(t.d.Events))
	for _, e := range t.d.Events {
		rows = append(rows, []string{e.Type, e.Reason, e.Message})
	}
	t.table(1, []string{"Type", "Reason", "Message"}, rows)
}

// metricsStatus prints the "Metrics: ( current / target )" block of kubectl
// describe from status.currentMetrics after this sync.
func (t *textView) metricsStatus() {
	t.section("Metrics after this sync: ( current / target )")
	if len(t.d.Metrics) == 0 {
		t.line(1, none)
		return
	}
	var fs []field
	long := false
	for i := range t.d.Metrics {
		m := &t.d.Metrics[i]
		current := unknown
		if i < len(t.d.CurrentMetrics) {
			current = currentValueWords(&t.d.CurrentMetrics[i], m.Unit)
		}
		name := displayName(m)
		fs = append(fs, field{name, current + " / " + targetWords(m, targetShort)})
		long = long || len(name) > maxAlignedName
	}
	if !long {
		t.fields(1, fs...)
		return
	}
	// Very long names (external metrics print their selector) are not
	// worth aligning the others to.
	for _, f := range fs {
		t.line(1, f.key+":  "+f.value)
	}
}

// maxAlignedName is the longest metric name the status block aligns.
const maxAlignedName = 60

func (t *textView) statusWrite() {
	t.flush()
	t.blank()
	s := "no: the computed status equals the HPA's current status, nothing is written"
	if t.d.StatusChanged {
		s = "yes: the controller writes the HPA status this sync"
	}
	t.fields(0, field{"Status update", s})
}

// agreement compares the replay with the status the controller last wrote.
func (t *textView) agreement() {
	a := t.d.Agreement
	t.flush()
	t.blank()
	switch {
	case !a.Checked:
		t.fields(0, field{"Agreement", "not checked: " + notCheckedWords(a, "the HPA has no status from the controller yet")})
	case a.Agrees:
		t.fields(0, field{"Agreement", "agrees: desired replicas, conditions and current metrics match what the controller last wrote"})
	default:
		t.fields(0, field{"Agreement", fmt.Sprintf("differs from what the controller last wrote (%d difference(s))", len(a.Differences))})
		rows := make([][]string, 0, len(a.Differences))
		for _, d := range a.Differences {
			rows = append(rows, []string{d.Field, d.Controller, d.Replay})
		}
		t.table(2, []string{"FIELD", "CONTROLLER", "REPLAY"}, rows)
		for _, d := range a.Differences {
			if d.LikelyCause != "" {
				t.line(2, "- "+d.Field+": "+d.LikelyCause)
			}
		}
		if stale(a) {
			t.flush()
			t.fields(0, field{"Stale status", staleWords(a.Sync, t.d.Now, timeFull)})
		}
	}
}

// appliedWords is the ratio and what it applies to: "104% / 60% = 1.73,
// applied to 4 ready pods".
func appliedWords(m *explain.MetricResult, u *explain.Usage) string {
	s := ratioWords(m, u)
	if u.Ratio.Finite() && (u.ReplicaBaseKind != "" || u.ReplicaBase != 0) {
		s += fmt.Sprintf(", applied to %d %s", u.ReplicaBase, baseWords(u.ReplicaBaseKind))
	}
	return s
}
