// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/metricsource"
)

// The vocabulary: how every view words each concept of the decision model.
// The views (text, styled, list, whatif) lay these words out; none words a
// concept on its own, and none reads a controller reason except through
// DecidedBy and the constants of pkg/explain.

// Placeholders, as kubectl describe prints them.
const (
	unknown = "<unknown>"
	none    = "<none>"
	unset   = "<unset>"
)

func orNone(s string) string {
	if s == "" {
		return none
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return unknown
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func objectName(prefix, name string) string {
	if prefix == "" && name == "" {
		return unknown
	}
	return orUnknown(prefix) + "/" + orUnknown(name)
}

func int32Or(p *int32, alt string) string {
	if p == nil {
		return alt
	}
	return strconv.Itoa(int(*p))
}

// ---- numbers ----

func fixed2(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

func formatFull(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// formatFloat prints a ratio with two decimals.
func formatFloat(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fixed2(x)
}

// ratio4 prints a ratio as an operand of ceil(ratio × base).
func ratio4(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

func percent(v int32) string { return fmt.Sprintf("%d%%", v) }

func percentOr(p *int32, alt string) string {
	if p == nil {
		return alt
	}
	return percent(*p)
}

func samplesWords(n int) string {
	if n == 1 {
		return "1 sample"
	}
	return fmt.Sprintf("%d samples", n)
}

// ---- values and their units ----

// milli prints a milli-value in the metric's unit: bytes as a binary
// quantity, everything else in milli-units (as kubectl top does for cpu),
// so the numbers of one line share a unit.
func milli(v int64, u explain.MetricUnit) string {
	if u == explain.MetricUnitBytes {
		return resource.NewMilliQuantity(v, resource.BinarySI).String()
	}
	if v == 0 {
		return "0"
	}
	return strconv.FormatInt(v, 10) + "m"
}

func milliOr(v *int64, u explain.MetricUnit, alt string) string {
	if v == nil {
		return alt
	}
	return milli(*v, u)
}

// qty prints a quantity in the metric's unit.
func qty(q *resource.Quantity, u explain.MetricUnit) string {
	if q == nil {
		return unknown
	}
	if u == explain.MetricUnitBytes {
		return milli(q.MilliValue(), u)
	}
	return q.String()
}

// statusValueWords is a metric's current value: "104% (522m)", or the value.
func statusValueWords(m *explain.MetricResult) string {
	switch {
	case m.Utilization != nil && m.Value != nil:
		return fmt.Sprintf("%s (%s)", percent(*m.Utilization), qty(m.Value, m.Unit))
	case m.Utilization != nil:
		return percent(*m.Utilization)
	case m.Value != nil && fromZero(m):
		return fmt.Sprintf("%s at 0 replicas (no per-pod value)", plainMilli(m.Usage.SumMilli, m.Unit))
	case m.Value != nil:
		return qty(m.Value, m.Unit)
	default:
		return unknown
	}
}

// fromZero reports whether a metric's per-pod value divided by zero
// replicas.
func fromZero(m *explain.MetricResult) bool {
	return m.Usage != nil && m.Usage.RatioUndefined == explain.RatioFromZero
}

// statusValueNote is the plain view's status value: for a per-pod value at
// zero replicas, also what the controller writes.
func statusValueNote(m *explain.MetricResult) string {
	if m.Value != nil && fromZero(m) {
		return fmt.Sprintf("%s, the int64 conversion of %s / 0 replicas, which is not a number", qty(m.Value, m.Unit), plainMilli(m.Usage.SumMilli, m.Unit))
	}
	return statusValueWords(m)
}

// currentValueWords is one entry of status.currentMetrics, as kubectl
// describe prints it.
func currentValueWords(s *autoscalingv2.MetricStatus, u explain.MetricUnit) string {
	cur := metricsource.Current(s)
	if cur == nil {
		return unknown
	}
	switch {
	case cur.AverageUtilization != nil && cur.AverageValue != nil:
		return fmt.Sprintf("%s (%s)", percent(*cur.AverageUtilization), qty(cur.AverageValue, u))
	case cur.AverageUtilization != nil:
		return percent(*cur.AverageUtilization)
	case cur.AverageValue != nil:
		return qty(cur.AverageValue, u) + " (avg)"
	case cur.Value != nil:
		return qty(cur.Value, u)
	default:
		return unknown
	}
}

// ---- targets ----

// targetForm is how much a target says.
type targetForm int

const (
	// targetLong: "60% average utilization (of request)", "8 average value".
	targetLong targetForm = iota
	// targetShort: "60%", "8 (avg)", as describe's "current / target".
	targetShort
	// targetPerPod: "60% of request", "8 per pod".
	targetPerPod
)

// targetWords words a metric's target.
func targetWords(m *explain.MetricResult, form targetForm) string {
	average := m.TargetType == string(autoscalingv2.AverageValueMetricType)
	switch {
	case m.TargetUtilization != nil:
		return percent(*m.TargetUtilization) + [...]string{" average utilization (of request)", "", " of request"}[form]
	case m.TargetValue != nil && average:
		return qty(m.TargetValue, m.Unit) + [...]string{" average value", " (avg)", " per pod"}[form]
	case m.TargetValue != nil:
		return qty(m.TargetValue, m.Unit) + [...]string{" value", "", ""}[form]
	case m.TargetType != "" && form == targetLong:
		return m.TargetType + " " + unset
	default:
		return unknown
	}
}

// ---- metrics ----

// metricName is the shortest name of a metric: the resource or the metric
// name.
func metricName(m *explain.MetricResult) string {
	if n := m.Source.Resource + m.Source.MetricName; n != "" {
		return clean(n)
	}
	return shortName(m.Name)
}

// shortName shortens the controller's display name of a metric ("cpu
// resource utilization (percentage of request)", "pods metric x",
// "external metric x(selector)") when the structured source is not there.
func shortName(name string) string { return explain.ShortMetricName(clean(name)) }

// metricLabel names a metric: the resource or the metric name, with the
// container, object or selector it belongs to (explain.MetricResult.Label).
func metricLabel(m *explain.MetricResult) string { return clean(m.Label()) }

// displayName is the controller's name of a metric with the selector as
// kubectl prints one (explain.MetricResult.DisplayName).
func displayName(m *explain.MetricResult) string { return clean(orUnknown(m.DisplayName())) }

// winningName is the display name of the recommendation's winning metric.
func winningName(d *explain.Decision) string {
	r := d.Recommendation
	switch {
	case r == nil || r.WinningMetric == "":
		return ""
	case r.WinningIndex >= 0 && r.WinningIndex < len(d.Metrics):
		return displayName(&d.Metrics[r.WinningIndex])
	}
	return clean(r.WinningMetric)
}

// winner returns the metric a decision's DecidedBy names, if any.
func winner(d *explain.Decision) *explain.MetricResult {
	if i := d.DecidedBy.MetricIndex; i != nil && *i >= 0 && *i < len(d.Metrics) {
		return &d.Metrics[*i]
	}
	return nil
}

// utilizationWords is a metric's utilization, or unknown.
func utilizationWords(m *explain.MetricResult) string { return percentOr(m.Utilization, unknown) }

// ratioWords is "104% / 60% = 1.73" or "10250m / 8 = 1.28", or why there
// is no ratio.
func ratioWords(m *explain.MetricResult, u *explain.Usage) string {
	if !u.Ratio.Finite() {
		return undefinedRatioWords(m, u)
	}
	if u.RequestSumMilli != nil {
		return fmt.Sprintf("%s / %d%% = %s", utilizationWords(m), u.TargetMilli, formatFloat(float64(u.Ratio)))
	}
	return fmt.Sprintf("%s / %s = %s", milli(u.AverageMilli, m.Unit), milli(u.TargetMilli, m.Unit), formatFloat(float64(u.Ratio)))
}

// undefinedRatioWords says why a usage has no ratio, and for a scale from
// zero what the calculator does instead: "none at 0 replicas; from zero,
// 35 over a target of 10 per pod → 4 replicas".
func undefinedRatioWords(m *explain.MetricResult, u *explain.Usage) string {
	switch u.RatioUndefined {
	case explain.RatioFromZero:
		s := fmt.Sprintf("none at 0 replicas; from zero, %s over a target of %s per pod", plainMilli(u.SumMilli, m.Unit), plainMilli(u.TargetMilli, m.Unit))
		if m.ProposedReplicas != nil {
			s += " → " + replicaCount(*m.ProposedReplicas)
		}
		return s
	case explain.RatioZeroTarget:
		return "none: the target is 0"
	default:
		return "not a number (" + formatFloat(float64(u.Ratio)) + ")"
	}
}

// plainMilli prints a milli-value as a quantity: 35000 → "35", 1500 →
// "1500m"; bytes in binary units.
func plainMilli(v int64, u explain.MetricUnit) string {
	if u == explain.MetricUnitBytes {
		return milli(v, u)
	}
	return resource.NewMilliQuantity(v, resource.DecimalSI).String()
}

// baseWords names what a ratio is applied to.
func baseWords(kind string) string {
	switch kind {
	case "readyPods":
		return "ready pods"
	case "runningReadyPods":
		return "running and ready pods"
	case "specReplicas":
		return "current replicas (scale spec.replicas)"
	case "statusReplicas":
		return "replicas (scale status.replicas)"
	case "":
		return "replicas"
	default:
		return kind
	}
}

// toleranceWords prints "0.90 ≤ 1.43 ≤ 1.10? no". When two decimals would
// make the ratio look equal to a bound it is not equal to, every number is
// printed in full.
func toleranceWords(lower, ratio, upper float64, within bool) string {
	return toleranceTest(lower, ratio, upper) + "? " + yesNo(within)
}

// checkWords prints the tolerance test of tc applied to ratio, in the form
// the replayed controller uses: "0.90 ≤ 1.43 ≤ 1.10? no", or for v1.32 and
// older "|1 − 1.10| = 0.10000000000000009 ≤ 0.1? no".
func checkWords(tc *explain.ToleranceCheck, ratio explain.Ratio, within bool) string {
	if !ratio.Finite() {
		return noRatioTest
	}
	return checkTest(tc, float64(ratio)) + "? " + yesNo(within)
}

// noRatioTest is the tolerance test of a ratio that is not a number: it
// fails, as every comparison with NaN or ±Inf against the band does.
const noRatioTest = "fails: there is no ratio to test, so the count is computed"

// checkTest prints the test of tc applied to ratio without its answer.
func checkTest(tc *explain.ToleranceCheck, ratio float64) string {
	if tc.Test != explain.ToleranceAbsolute {
		return toleranceTest(tc.Lower, ratio, tc.Upper)
	}
	dev := math.Abs(1.0 - ratio)
	r, d, t := fixed2(ratio), fixed2(dev), formatFull(tc.ScaleUp)
	if d == fixed2(tc.ScaleUp) && dev != tc.ScaleUp {
		r, d = formatFull(ratio), formatFull(dev)
	}
	return "|1 − " + r + "| = " + d + " ≤ " + t
}

// toleranceTest prints "0.90 ≤ 1.43 ≤ 1.10".
func toleranceTest(lower, ratio, upper float64) string {
	l, r, u := toleranceNumbers(lower, ratio, upper)
	return l + " ≤ " + r + " ≤ " + u
}

// toleranceBand prints "1.43 outside [0.90, 1.10]".
func toleranceBand(tc *explain.ToleranceCheck) string {
	if !tc.Ratio.Finite() {
		return fmt.Sprintf("no ratio, outside [%s, %s]", fixed2(tc.Lower), fixed2(tc.Upper))
	}
	l, r, u := toleranceNumbers(tc.Lower, float64(tc.Ratio), tc.Upper)
	where := "outside"
	if tc.Within {
		where = "within"
	}
	if tc.Test == explain.ToleranceAbsolute {
		return fmt.Sprintf("%s (%s)", checkTest(tc, float64(tc.Ratio)), where)
	}
	return fmt.Sprintf("%s %s [%s, %s]", r, where, l, u)
}

// toleranceNumbers prints the three numbers of a tolerance test.
func toleranceNumbers(lower, ratio, upper float64) (l, r, u string) {
	l, r, u = fixed2(lower), fixed2(ratio), fixed2(upper)
	if (l == r && lower != ratio) || (u == r && upper != ratio) {
		l, r, u = formatFull(lower), formatFull(ratio), formatFull(upper)
	}
	return l, r, u
}

// toleranceSource is " (tolerance 0.1 down, 0.1 up; --flag)".
func toleranceSource(tc *explain.ToleranceCheck) string {
	s := fmt.Sprintf(" (tolerance %s down, %s up", formatFull(tc.ScaleDown), formatFull(tc.ScaleUp))
	if tc.Source != "" {
		s += "; " + tc.Source
	}
	return s + ")"
}

// missingWords says what missing pods counted as in a fill-in.
func missingWords(with string) string {
	switch with {
	case "absent", "":
		return "not counted (no missing pods)"
	default:
		return with
	}
}

// filledWords says what missing pods counted as, in a sentence.
func filledWords(with string) string {
	switch with {
	case "request":
		return "100% of request"
	case "target":
		return "the target"
	default:
		return with
	}
}

func proposalWords(m *explain.MetricResult) string {
	if m.ProposedReplicas == nil {
		return none + " (invalid metric)"
	}
	return replicaCount(*m.ProposedReplicas)
}

func replicaCount(n int32) string {
	if n == 1 {
		return "1 replica"
	}
	return fmt.Sprintf("%d replicas", n)
}

// proposalArithmetic writes out how a proposal follows from the operands
// the engine recorded: the fill-in's ceil(new ratio × samples), the usage's
// ceil(ratio × base), or the replicas kept; otherwise it states it.
func proposalArithmetic(m *explain.MetricResult, current int32) string {
	p := *m.ProposedReplicas
	if f := m.FillIn; f != nil {
		switch {
		case (f.Within || f.DirectionFlip) && p == current:
			return fmt.Sprintf("keep %d", p)
		case f.NewReplicas != nil && f.WrongWay && p == current:
			return fmt.Sprintf("ceil(%s × %d) = %d moves against the ratio: keep %d", ratio4(float64(f.NewRatio)), f.Samples, *f.NewReplicas, p)
		case f.NewReplicas != nil && *f.NewReplicas == p:
			return fmt.Sprintf("ceil(%s × %d pods) = %d", ratio4(float64(f.NewRatio)), f.Samples, p)
		}
		return proposalWords(m)
	}
	if tc := m.Tolerance; tc != nil && tc.Within && p == current {
		return fmt.Sprintf("keep %d", p)
	}
	if u := m.Usage; u != nil && u.Replicas != nil && *u.Replicas == p {
		return fmt.Sprintf("ceil(%s × %d %s) = %d", ratio4(float64(u.Ratio)), u.ReplicaBase, baseWords(u.ReplicaBaseKind), p)
	}
	return proposalWords(m)
}

// ---- pods ----

// podClasses is the order the pod classes are counted in.
var podClasses = []string{explain.PodReady, explain.PodUnready, explain.PodMissing, explain.PodIgnored, explain.PodSuperfluous}

// classCounts says "4 ready, 2 missing" for the entries.
func classCounts(entries []explain.PodEntry) string {
	count := map[string]int{}
	for _, e := range entries {
		count[e.Class]++
	}
	var parts []string
	for _, c := range podClasses {
		if count[c] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[c], c))
			delete(count, c)
		}
	}
	for _, e := range entries {
		if count[e.Class] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[e.Class], orUnknown(e.Class)))
			delete(count, e.Class)
		}
	}
	return strings.Join(parts, ", ")
}

// classCount is the number of pods of a class.
func classCount(p *explain.PodAccounting, class string) int {
	switch class {
	case explain.PodReady:
		return p.Ready
	case explain.PodUnready:
		return p.Unready
	case explain.PodMissing:
		return p.Missing
	case explain.PodIgnored:
		return p.Ignored
	case explain.PodSuperfluous:
		return p.Superfluous
	default:
		return 0
	}
}

// hiddenPodsLine summarizes the rows visiblePods left out in PodsAuto
// mode, and says how to list them (listPods: Options.ListPods).
func hiddenPodsLine(hidden []explain.PodEntry, listPods string) string {
	line := fmt.Sprintf("… and %d more (%s)", len(hidden), classCounts(hidden))
	if listPods != "" {
		line += "; use " + listPods + " to list all"
	}
	return line
}

// ---- times ----

// timeForm is how a time reads.
type timeForm int

const (
	// timeFull: "2026-01-01T00:03:00Z (now+3m0s)", the plain view's.
	timeFull timeForm = iota
	// timeClock: "00:03:00Z (in 3m0s)" on the day of now, in full on
	// others, the styled view's.
	timeClock
	// timeOfDay: "00:03:00", for table cells.
	timeOfDay
)

func formatTime(ts time.Time) string {
	if ts.IsZero() {
		return unknown
	}
	return ts.UTC().Format(time.RFC3339Nano)
}

// timeWords words ts, with its offset from now in the longer forms.
func timeWords(ts, now time.Time, form timeForm) string {
	if form == timeOfDay {
		return ts.UTC().Format(time.TimeOnly)
	}
	s := formatTime(ts)
	if ts.IsZero() || now.IsZero() {
		return s
	}
	diff := ts.Sub(now)
	// A live clock has nanoseconds no reader needs: milliseconds at most.
	if diff >= time.Millisecond || diff <= -time.Millisecond {
		diff = diff.Round(time.Millisecond)
	}
	if form == timeFull {
		switch {
		case diff == 0:
			return s + " (now)"
		case diff < 0:
			return s + " (now-" + (-diff).String() + ")"
		default:
			return s + " (now+" + diff.String() + ")"
		}
	}
	if y, m, d := ts.UTC().Date(); y == now.UTC().Year() && m == now.UTC().Month() && d == now.UTC().Day() {
		s = ts.UTC().Format("15:04:05.999999999Z")
	}
	switch {
	case diff > 0:
		return s + " (in " + diff.String() + ")"
	case diff < 0:
		return s + " (" + (-diff).String() + " ago)"
	default:
		return s + " (now)"
	}
}

// ---- what decided the replicas ----

// policyWords names a scaling policy: "Pods 4/60s", "Percent 50%/60s".
func policyWords(p *explain.PolicyLimit) string {
	if p.Type == string(autoscalingv2.PercentScalingPolicy) {
		return fmt.Sprintf("%s %d%%/%ds", p.Type, p.Value, p.PeriodSeconds)
	}
	return fmt.Sprintf("%s %d/%ds", p.Type, p.Value, p.PeriodSeconds)
}

// policyArithmetic writes a policy's limit out from the replicas at the
// start of its period: "6 + 4 = 10", "6 × 1.5 = 9".
func policyArithmetic(p *explain.PolicyLimit, direction string) string {
	sign, factor := "+", 1+float64(p.Value)/100
	if direction == "down" {
		sign, factor = "−", 1-float64(p.Value)/100
	}
	switch {
	case direction != "up" && direction != "down":
	case p.Type == string(autoscalingv2.PodsScalingPolicy):
		return fmt.Sprintf("%d %s %d = %d", p.PeriodStart, sign, p.Value, p.Limit)
	case p.Type == string(autoscalingv2.PercentScalingPolicy):
		return fmt.Sprintf("%d × %s = %d", p.PeriodStart, formatFull(factor), p.Limit)
	}
	return "limit " + strconv.Itoa(int(p.Limit))
}

// holding reports whether a stabilization window decided.
func holding(k explain.DecisionKind) bool {
	return k == explain.DecidedByScaleUpStabilization || k == explain.DecidedByScaleDownStabilization
}

// limiting reports whether a rate limit or a bound decided.
func limiting(k explain.DecisionKind) bool {
	switch k {
	case explain.DecidedByScaleUpRateLimit, explain.DecidedByScaleDownRateLimit, explain.DecidedByMinReplicas, explain.DecidedByMaxReplicas:
		return true
	default:
		return false
	}
}

// limiterWords names the step that bounded the value: "maxReplicas",
// "scale-up policy Pods 4/60s", "scale-down rate limit", "scale-down
// stabilization", "scale-from-zero floor"; "" when the metrics decided.
func limiterWords(db *explain.DecidedBy) string {
	switch db.Kind {
	case explain.DecidedByMinReplicas:
		return "minReplicas"
	case explain.DecidedByMaxReplicas:
		return "maxReplicas"
	case explain.DecidedByScaleUpRateLimit, explain.DecidedByScaleDownRateLimit:
		dir := "scale-up"
		if db.Kind == explain.DecidedByScaleDownRateLimit {
			dir = "scale-down"
		}
		if db.Policy != nil {
			return dir + " policy " + policyWords(db.Policy)
		}
		return dir + " rate limit"
	case explain.DecidedByScaleUpStabilization:
		return "scale-up stabilization"
	case explain.DecidedByScaleDownStabilization:
		return "scale-down stabilization"
	case explain.DecidedByScaleFromZero:
		return "scale-from-zero floor"
	case explain.DecidedByMetric, explain.DecidedByTolerance, explain.DecidedByFailure, explain.DecidedByDisabled:
	}
	return ""
}

// boundWords says how a bounding step set the replicas: "held by
// scale-down stabilization until …", "held at 8 by …" (while rescaling),
// "limited to 7 by scale-up policy Pods 4/60s", "raised to minReplicas 1
// from zero"; "" when the metrics decided.
func boundWords(d *explain.Decision, form timeForm) string {
	db := &d.DecidedBy
	switch {
	case holding(db.Kind):
		s := "held by " + limiterWords(db)
		if d.Rescale {
			s = fmt.Sprintf("held at %d by %s", db.Replicas, limiterWords(db))
		}
		if db.HeldUntil != nil {
			s += " until " + timeWords(*db.HeldUntil, d.Now, form)
		}
		return s
	case limiting(db.Kind):
		return fmt.Sprintf("limited to %d by %s", db.Replicas, limiterWords(db))
	case db.Kind == explain.DecidedByScaleFromZero:
		return fmt.Sprintf("raised to minReplicas %d from zero", db.Replicas)
	}
	return ""
}

// missingPodsWords is "metric missing on 2/5 pods", when a metric lacks
// samples.
func missingPodsWords(m *explain.MetricResult) string {
	if p := m.Pods; p != nil && p.Missing > 0 {
		return fmt.Sprintf("metric missing on %d/%d pods", p.Missing, p.Listed)
	}
	return ""
}

// ShortReason names, in a few words, the step that decided the replicas,
// from the decision's DecidedBy.
func ShortReason(d *explain.Decision) string {
	db := &d.DecidedBy
	switch db.Kind {
	case explain.DecidedByDisabled:
		return "target at 0 replicas: autoscaling disabled"
	case explain.DecidedByFailure:
		return failureWords(d)
	case explain.DecidedByMaxReplicas:
		if shortCircuited(d) {
			return "replicas above maxReplicas"
		}
	case explain.DecidedByMinReplicas:
		if shortCircuited(d) {
			return "replicas below minReplicas"
		}
	case explain.DecidedByMetric, explain.DecidedByTolerance:
		return metricDecidedWords(d)
	default:
		// A hold, a rate limit or the scale-from-zero floor.
	}
	if s := boundWords(d, timeOfDay); s != "" {
		return s
	}
	return metricDecidedWords(d)
}

// failureWords says why a sync failed, in a few words.
func failureWords(d *explain.Decision) string {
	switch d.Outcome {
	case explain.OutcomeFailedGetScale:
		return "cannot read the target's scale"
	case explain.OutcomeInvalidSelector:
		return "unusable selector"
	case explain.OutcomeFailedUpdateScale:
		return "scale update fails"
	default:
	}
	if m := winner(d); m != nil {
		if s := missingPodsWords(m); s != "" {
			return s
		}
		return "metric failed: " + d.DecidedBy.Reason
	}
	return "metrics failed"
}

// metricDecidedWords says how the metrics decided: "scaling on cpu",
// "within tolerance", "at target".
func metricDecidedWords(d *explain.Decision) string {
	m := winner(d)
	if m != nil {
		if s := missingPodsWords(m); s != "" {
			return s
		}
	}
	switch {
	case d.Rescale && m != nil:
		return "scaling on " + metricName(m)
	case d.Rescale:
		return "scaling"
	case d.DecidedBy.Kind == explain.DecidedByTolerance:
		return "within tolerance"
	default:
		return "at target"
	}
}

// shortCircuited reports whether an early branch decided the outcome, so
// the metric proposals were computed for the explanation only.
func shortCircuited(d *explain.Decision) bool {
	switch d.Outcome {
	case explain.OutcomeScalingDisabled, explain.OutcomeAboveMax, explain.OutcomeBelowMin:
		return true
	default:
		return false
	}
}

// notCheckedWords says why the agreement was not checked, def when the
// decision does not say.
func notCheckedWords(a explain.Agreement, def string) string {
	if a.NotChecked != "" {
		return clean(a.NotChecked)
	}
	return def
}

// agreementWord is the agreement in one word, with the fields that differ:
// "stale" instead of "differs" when the controller does not seem to be
// syncing the HPA.
func agreementWord(a explain.Agreement) string {
	switch {
	case !a.Checked:
		return "-"
	case a.Agrees:
		return "agrees"
	}
	fields := make([]string, 0, len(a.Differences))
	for _, d := range a.Differences {
		fields = append(fields, d.Field)
	}
	word := "differs"
	if stale(a) {
		word = "stale"
	}
	return word + " (" + strings.Join(fields, ", ") + ")"
}

// stale says whether the agreement calls the HPA's status stale.
func stale(a explain.Agreement) bool { return a.Sync != nil && a.Sync.Stale }

// staleWords is the stale-status verdict: "the controller does not seem to
// be syncing this HPA: its status was last written at 14:02:11Z (3m20s
// ago, 13 sync periods of 15s) and differs from what the controller would
// write now", with the newest sign of a sync when it is not the status
// write.
func staleWords(sc *explain.SyncCheck, now time.Time, form timeForm) string {
	periods := fmt.Sprintf("%d sync periods of %s", sc.Periods, clean(sc.SyncPeriod))
	if sc.SyncPeriodAssumed {
		periods += ", assumed"
	}
	written := timeWords(sc.StatusWritten, now, form)
	s := "the controller does not seem to be syncing this HPA: its status was last written at "
	if sc.LastSeenFrom == explain.SyncSignStatusWrite || sc.LastSeen.Equal(sc.StatusWritten) {
		return s + withinParens(written, periods) + " and differs from what the controller would write now"
	}
	return s + written + ", " + syncSignWords(sc.LastSeenFrom) + " at " + withinParens(timeWords(sc.LastSeen, now, form), periods) +
		", and the status differs from what the controller would write now"
}

// withinParens adds more to the parenthesis that ends s ("… (3m20s ago)"
// → "… (3m20s ago, more)"), or opens one.
func withinParens(s, more string) string {
	if strings.HasSuffix(s, ")") {
		return strings.TrimSuffix(s, ")") + ", " + more + ")"
	}
	return s + " (" + more + ")"
}

// syncSignWords names a sign of a sync other than the status write.
func syncSignWords(from explain.SyncSign) string {
	switch from {
	case explain.SyncSignEvent:
		return "its last event"
	case explain.SyncSignCondition:
		return "a condition's last transition"
	case explain.SyncSignLastScale:
		return "its last rescale"
	default:
		return "its last write"
	}
}

// changeWords is "3 → 5", or "3" without a rescale.
func changeWords(d *explain.Decision) string {
	if d.Rescale {
		return fmt.Sprintf("%d → %d", d.CurrentReplicas, d.DesiredReplicas)
	}
	return strconv.Itoa(int(d.CurrentReplicas))
}

// historyWords says whether the controller had history, and where the
// state came from.
func historyWords(st explain.ControllerState) string {
	prov := string(st.Provenance)
	if prov == "" {
		prov = "provenance unknown"
	}
	if !st.RecommendationsInitialized {
		return "history: none (" + prov + ")"
	}
	return "history: " + prov
}

// usageWords is the plain view's usage: "sum 2090m over 4 samples,
// requests 2000m → utilization 104% (average 522m)".
func usageWords(m *explain.MetricResult, u *explain.Usage) string {
	if u.RatioUndefined == explain.RatioFromZero {
		return fromZeroUsage(m, u)
	}
	if u.RequestSumMilli != nil {
		return fmt.Sprintf("sum %s over %s, requests %s → utilization %s (average %s)",
			milli(u.SumMilli, m.Unit), samplesWords(u.Count), milli(*u.RequestSumMilli, m.Unit), utilizationWords(m), milli(u.AverageMilli, m.Unit))
	}
	if u.Count == 1 && u.SumMilli == u.AverageMilli {
		return "value " + milli(u.AverageMilli, m.Unit)
	}
	return fmt.Sprintf("sum %s over %s → %s", milli(u.SumMilli, m.Unit), samplesWords(u.Count), milli(u.AverageMilli, m.Unit))
}

// fromZeroUsage is the usage of a per-pod target at zero replicas: "sum 35
// over 2 series; no per-pod average at 0 replicas".
func fromZeroUsage(m *explain.MetricResult, u *explain.Usage) string {
	what := "value " + plainMilli(u.SumMilli, m.Unit)
	if u.Count != 1 {
		what = fmt.Sprintf("sum %s over %d series", plainMilli(u.SumMilli, m.Unit), u.Count)
	}
	return what + "; no per-pod average at 0 replicas"
}

// usageArithmetic is the styled view's usage: "2090m used / 2000m
// requested = 104%", "(4 samples)".
func usageArithmetic(m *explain.MetricResult, u *explain.Usage) []string {
	if u.RatioUndefined == explain.RatioFromZero {
		return []string{fromZeroUsage(m, u)}
	}
	if u.RequestSumMilli != nil {
		return []string{fmt.Sprintf("%s used / %s requested = %s", milli(u.SumMilli, m.Unit), milli(*u.RequestSumMilli, m.Unit), utilizationWords(m)), "(" + samplesWords(u.Count) + ")"}
	}
	if u.Count == 1 && u.SumMilli == u.AverageMilli {
		return []string{"value " + milli(u.AverageMilli, m.Unit)}
	}
	return []string{fmt.Sprintf("%s / %s = %s", milli(u.SumMilli, m.Unit), samplesWords(u.Count), milli(u.AverageMilli, m.Unit))}
}

// usedWords says whether a metric's proposal counted.
func usedWords(m *explain.MetricResult, short bool) string {
	switch {
	case m.Winner:
		return "yes (the largest proposal)"
	case m.Error != nil:
		return "no (invalid)"
	case m.Used:
		return "yes"
	case short:
		return "no (not used: a short-circuit decided the outcome)"
	default:
		return "no"
	}
}
