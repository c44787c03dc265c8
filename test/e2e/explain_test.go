// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/cli"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// runResult is one run of the plugin.
type runResult struct {
	stdout, stderr []byte
	code           int
	start, end     time.Time
}

// runner runs the plugin with args.
type runner func(args []string) runResult

// inProcessCalls counts the API calls the in-process runs reported (-v 1),
// for the audit check at the end of TestAgreement.
var inProcessCalls atomic.Int64

// inProcess runs the plugin in this process, through cli.Main, as a user's
// shell would run the binary. Its requests carry client-go's default user
// agent ("e2e.test/..."), which the suite's own client does not use.
func inProcess(args []string) runResult {
	var out, errb bytes.Buffer
	r := runResult{start: time.Now()}
	r.code = cli.Main(args, genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errb})
	r.end = time.Now()
	r.stdout, r.stderr = out.Bytes(), errb.Bytes()
	noteOutputSchema(args, r)
	if n, ok := apiCallCount(r.stderr); ok {
		inProcessCalls.Add(int64(n))
	}
	return r
}

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

// pluginBinary builds cmd/kubectl-hpa once per run into a temporary
// directory.
func pluginBinary() (string, error) {
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "kubectl-hpa-e2e-")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "kubectl-hpa")
		c := exec.Command("go", "build", "-o", binaryPath, "./cmd/kubectl-hpa")
		c.Dir = env.repoRoot
		c.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := c.CombinedOutput(); err != nil {
			binaryErr = fmt.Errorf("go build ./cmd/kubectl-hpa: %w\n%s", err, out)
		}
	})
	return binaryPath, binaryErr
}

// binary returns a runner that executes the built plugin.
func binary(path string) runner {
	return func(args []string) runResult {
		var out, errb bytes.Buffer
		c := exec.Command(path, args...)
		c.Stdout, c.Stderr = &out, &errb
		r := runResult{start: time.Now()}
		err := c.Run()
		r.end = time.Now()
		r.stdout, r.stderr = out.Bytes(), errb.Bytes()
		defer func() { noteOutputSchema(args, r) }()
		if err != nil {
			r.code = -1
			if ee, ok := err.(*exec.ExitError); ok { //nolint:errorlint // exec.Cmd.Run returns *ExitError unwrapped
				r.code = ee.ExitCode()
			}
		}
		return r
	}
}

// explainArgs are the arguments of a live explain of HPA NAME. The
// controller's flags are the defaults except the sync period, which only
// shapes projections; it is passed so the replay describes this cluster.
func explainArgs(ns, name, kubeconfig string) []string {
	return []string{
		"explain", name, "-n", ns, "-o", "json", "--kubeconfig", kubeconfig,
		"--sync-period", syncPeriod.String(), "-v", "2",
	}
}

var apiCallsRE = regexp.MustCompile(`(?m)^API calls: (\d+)$`)

// apiCallCount reads the "API calls: N" line that -v prints on stderr.
func apiCallCount(stderr []byte) (int, bool) {
	m := apiCallsRE.FindSubmatch(stderr)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(string(m[1]))
	return n, err == nil
}

// replayed is one explain run and the HPA as the controller left it around
// the run.
type replayed struct {
	D      *explain.Decision
	Run    runResult
	HPA    *autoscalingv2.HorizontalPodAutoscaler
	Stderr string
}

// replay runs explain on HPA NAME once the controller is not writing: the
// HPA is read before and after the run, and the run is repeated (at most 5
// times) if the controller wrote its status in between, because then we
// could not tell which status the replay should match.
func (s *scenario) replay(name string, run runner, kubeconfig string) *replayed {
	s.t.Helper()
	if kubeconfig == "" {
		kubeconfig = env.kubeconfig
	}
	for i := 0; i < 5; i++ {
		before, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(s.ns).Get(s.ctx, name, metav1.GetOptions{})
		if err != nil {
			s.t.Fatal(err)
		}
		r := run(explainArgs(s.ns, name, kubeconfig))
		if r.code != 0 {
			s.t.Fatalf("explain %s/%s exited %d\nstderr:\n%s\nstdout:\n%s", s.ns, name, r.code, r.stderr, r.stdout)
		}
		after, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(s.ns).Get(s.ctx, name, metav1.GetOptions{})
		if err != nil {
			s.t.Fatal(err)
		}
		if before.ResourceVersion != after.ResourceVersion {
			s.t.Logf("the controller wrote the HPA during explain (resourceVersion %s -> %s); running it again", before.ResourceVersion, after.ResourceVersion)
			continue
		}
		var d explain.Decision
		if err := json.Unmarshal(r.stdout, &d); err != nil {
			s.t.Fatalf("explain -o json printed something that is not a decision: %v\n%s", err, r.stdout)
		}
		return &replayed{D: &d, Run: r, HPA: after, Stderr: string(r.stderr)}
	}
	s.t.Fatalf("the controller kept writing HPA %s during every explain", name)
	return nil
}

// difference is one field where the replay and the controller's status
// differ, as this suite sees it (independently of the plugin's own
// agreement check, which is asserted too).
type difference struct {
	field, controller, replay string
}

func (d difference) String() string {
	return fmt.Sprintf("%s: controller %s, replay %s", d.field, d.controller, d.replay)
}

// compareStatus compares desiredReplicas, the conditions (type, status,
// reason) and currentMetrics of the replay with the controller's status.
func compareStatus(d *explain.Decision, st *autoscalingv2.HorizontalPodAutoscalerStatus) []difference {
	var out []difference
	if d.DesiredReplicas != st.DesiredReplicas {
		out = append(out, difference{"desiredReplicas", fmt.Sprint(st.DesiredReplicas), fmt.Sprint(d.DesiredReplicas)})
	}
	ctrl := map[string]string{}
	for _, c := range st.Conditions {
		ctrl[string(c.Type)] = string(c.Status) + "/" + c.Reason
	}
	rep := map[string]string{}
	for _, c := range d.Conditions {
		rep[c.Type] = c.Status + "/" + c.Reason
	}
	for typ, want := range ctrl {
		if got, ok := rep[typ]; !ok || got != want {
			out = append(out, difference{"condition " + typ, want, orNone(got)})
		}
	}
	for typ, got := range rep {
		if _, ok := ctrl[typ]; !ok {
			out = append(out, difference{"condition " + typ, "<none>", got})
		}
	}
	if !equality.Semantic.DeepEqual(nilIfEmpty(st.CurrentMetrics), nilIfEmpty(d.CurrentMetrics)) {
		out = append(out, difference{"currentMetrics", jsonString(st.CurrentMetrics), jsonString(d.CurrentMetrics)})
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

func nilIfEmpty(m []autoscalingv2.MetricStatus) []autoscalingv2.MetricStatus {
	if len(m) == 0 {
		return nil
	}
	return m
}

// maxExplainAttempts bounds the re-runs of explainAgrees.
const maxExplainAttempts = 3

// explainAgrees runs explain on HPA NAME (in-process) and asserts that the
// replay agrees with the status the controller wrote: desiredReplicas, the
// conditions' type/status/reason and currentMetrics, by this suite's own
// comparison and by the plugin's agreement check.
//
// Why it may run explain again: the controller read the metrics at its last
// sync, we read them a moment later, and metrics-server refreshes its samples
// every 10 s. If only currentMetrics differ (desiredReplicas and every
// condition agree), the samples may have moved in between; then the
// controller writes the new values at its next sync. We wait for that write
// (at most three sync periods) and run explain again, right after it, at most
// maxExplainAttempts times in all. Every re-run is logged. If the controller
// does not write, it computed the same status from the current samples, so
// the difference is real and the test fails. Any other difference fails at
// once.
func (s *scenario) explainAgrees(name string) *explain.Decision {
	s.t.Helper()
	return s.explainAgreesWith(name, inProcess, "")
}

func (s *scenario) explainAgreesWith(name string, run runner, kubeconfig string) *explain.Decision {
	s.t.Helper()
	for attempt := 1; ; attempt++ {
		r := s.replay(name, run, kubeconfig)
		diffs := compareStatus(r.D, &r.HPA.Status)
		if len(diffs) == 0 {
			if !r.D.Agreement.Checked || !r.D.Agreement.Agrees {
				s.t.Fatalf("the replay matches the controller's status, but the plugin's agreement check says checked=%v agrees=%v: %s",
					r.D.Agreement.Checked, r.D.Agreement.Agrees, jsonString(r.D.Agreement.Differences))
			}
			if attempt > 1 {
				s.t.Logf("explain agreed with the controller on attempt %d", attempt)
			}
			return r.D
		}
		metricsOnly := len(diffs) == 1 && diffs[0].field == "currentMetrics"
		if metricsOnly && attempt < maxExplainAttempts {
			s.t.Logf("attempt %d: only currentMetrics differ (%s); waiting for the controller's next status write", attempt, diffs[0])
			if s.waitStatusWrite(name, r.HPA.ResourceVersion, 3*syncPeriod) {
				continue
			}
			s.t.Logf("the controller wrote nothing for %v: it computes the status it already has", 3*syncPeriod)
		}
		s.t.Logf("explain output:\n%s", r.Run.stdout)
		s.t.Fatalf("explain disagrees with the controller (attempt %d):\n  %s\nplugin's agreement: %s",
			attempt, joinDiffs(diffs), jsonString(r.D.Agreement))
	}
}

func joinDiffs(ds []difference) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.String()
	}
	return strings.Join(parts, "\n  ")
}

// waitStatusWrite waits until HPA NAME's resourceVersion moves from rv.
func (s *scenario) waitStatusWrite(name, rv string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		h, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(s.ns).Get(s.ctx, name, metav1.GetOptions{})
		if err == nil && h.ResourceVersion != rv {
			return true
		}
		time.Sleep(200 * time.Millisecond)
	}
	return false
}

// metricByIndex returns the replay of spec.metrics[i].
func (s *scenario) metricByIndex(d *explain.Decision, i int) *explain.MetricResult {
	s.t.Helper()
	for k := range d.Metrics {
		if d.Metrics[k].Index == i {
			return &d.Metrics[k]
		}
	}
	s.t.Fatalf("the replay has no metric #%d: %s", i, jsonString(d.Metrics))
	return nil
}

// proposed returns a metric's proposal, failing if it has none.
func (s *scenario) proposed(m *explain.MetricResult) int32 {
	s.t.Helper()
	if m.ProposedReplicas == nil {
		s.t.Fatalf("metric #%d (%s) has no proposal; error: %v", m.Index, m.Name, deref(m.Error))
	}
	return *m.ProposedReplicas
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// --- the audit log -------------------------------------------------------------

// auditEvent is the part of an audit.k8s.io/v1 Event the suite reads.
type auditEvent struct {
	AuditID    string `json:"auditID"`
	Stage      string `json:"stage"`
	Verb       string `json:"verb"`
	RequestURI string `json:"requestURI"`
	UserAgent  string `json:"userAgent"`
	User       struct {
		Username string `json:"username"`
	} `json:"user"`
	ResponseStatus *struct {
		Code int `json:"code"`
	} `json:"responseStatus"`
	RequestReceivedTimestamp time.Time `json:"requestReceivedTimestamp"`
	ObjectRef                *struct {
		Namespace string `json:"namespace"`
	} `json:"objectRef"`
}

// inOwnNamespaces reports whether e concerns a namespace of the test whose
// scenarios are named with prefix (e2e-PREFIX...), or no namespace at all
// (a cluster-scoped or all-namespaces request). The top-level tests run
// beside each other and the plugin's binary identifies itself the same way
// in all of them (TestWatch's watches, TestMigrate's writes): a test's
// audit of its own runs leaves out the requests in other tests'
// namespaces.
func (e *auditEvent) inOwnNamespaces(prefix string) bool {
	return e.ObjectRef == nil || e.ObjectRef.Namespace == "" || strings.HasPrefix(e.ObjectRef.Namespace, "e2e-"+prefix)
}

func (e *auditEvent) code() int {
	if e.ResponseStatus == nil {
		return 0
	}
	return e.ResponseStatus.Code
}

func (e *auditEvent) String() string {
	return fmt.Sprintf("%s %s -> %d (%s, %s)", e.Verb, e.RequestURI, e.code(), e.User.Username, e.UserAgent)
}

// readAudit returns the audit events (every stage) that keep returns true
// for. quick is a substring every wanted line contains, to skip decoding the
// rest.
func readAudit(quick string, keep func(*auditEvent) bool) ([]auditEvent, error) {
	f, err := os.Open(env.auditLog)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []auditEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	q := []byte(quick)
	for sc.Scan() {
		line := sc.Bytes()
		if len(q) > 0 && !bytes.Contains(line, q) {
			continue
		}
		var e auditEvent
		if err := json.Unmarshal(line, &e); err != nil {
			continue // a line cut by rotation
		}
		if keep(&e) {
			out = append(out, e)
		}
	}
	return out, sc.Err()
}

// completed keeps one event per request: its ResponseComplete stage.
func completed(evs []auditEvent) []auditEvent {
	var out []auditEvent
	for _, e := range evs {
		if e.Stage == "ResponseComplete" {
			out = append(out, e)
		}
	}
	return out
}

// readOnlyVerbs are the only verbs the plugin may use.
var readOnlyVerbs = map[string]bool{"get": true, "list": true}

// nonReads returns the events whose verb is not get or list.
func nonReads(evs []auditEvent) []auditEvent {
	var out []auditEvent
	for _, e := range evs {
		if !readOnlyVerbs[e.Verb] {
			out = append(out, e)
		}
	}
	return out
}

// waitAudit polls the audit log until at least n ResponseComplete events
// match (the apiserver may write an event just after the response reached
// the client) or 10 s pass, and returns all matching events (every stage).
func waitAudit(quick string, n int, keep func(*auditEvent) bool) ([]auditEvent, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		evs, err := readAudit(quick, keep)
		if err != nil {
			return nil, err
		}
		if len(completed(evs)) >= n || time.Now().After(deadline) {
			return evs, nil
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// inWindow keeps events received between start and end (with a second of
// slack for clock rounding; the apiserver runs on this machine).
func inWindow(e *auditEvent, start, end time.Time) bool {
	t := e.RequestReceivedTimestamp
	return !t.Before(start.Add(-time.Second)) && !t.After(end.Add(time.Second))
}
