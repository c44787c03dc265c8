// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package keda

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the cron vectors name zones; tests may embed the database

	"github.com/expr-lang/expr"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// vector is one test vector; testdata/vectors/README.md describes the
// schema of each level.
type vector struct {
	ID       string   `json:"id"`
	Source   string   `json:"source"`
	Versions []string `json:"versions"`
	Level    string   `json:"level"`
	Notes    string   `json:"notes"`

	Now             time.Time     `json:"now"`
	ScaledObject    *ScaledObject `json:"scaledObject"`
	CurrentReplicas int32         `json:"currentReplicas"`
	// executor
	IsActive       bool          `json:"isActive"`
	IsError        bool          `json:"isError"`
	ActiveTriggers []string      `json:"activeTriggers"`
	HPACondition   *HPACondition `json:"hpaCondition"`
	HPAName        string        `json:"hpaName"`
	// state
	Results []struct {
		MetricName string        `json:"metricName"`
		Result     TriggerResult `json:"result"`
	} `json:"results"`
	// fallback
	MetricName string                     `json:"metricName"`
	Target     autoscalingv2.MetricTarget `json:"target"`
	Result     TriggerResult              `json:"result"`
	// scaler, quantity, modifiers
	Value        json.RawMessage   `json:"value"`
	Check        string            `json:"check"`
	Namespace    string            `json:"namespace"`
	TriggerIndex int               `json:"triggerIndex"`
	Trigger      *ScaleTrigger     `json:"trigger"`
	AuthParams   map[string]string `json:"authParams"`
	Pods         []corev1.Pod      `json:"pods"`
	GroupByNode  bool              `json:"groupByNode"`
	Formula      *string           `json:"formula"`
	Compile      string            `json:"compile"`
	Inputs       []struct {
		Trigger    string  `json:"trigger"`
		MetricName string  `json:"metricName"`
		Value      float64 `json:"value"`
	} `json:"inputs"`
	MetricType string `json:"metricType"`

	Expect json.RawMessage `json:"expect"`
}

// condExpect is an expected condition; empty fields are not compared.
type condExpect struct {
	Status  string  `json:"status"`
	Reason  string  `json:"reason"`
	Message *string `json:"message"`
}

// vectorFiles are the files of testdata/vectors, each with its level.
var vectorFiles = []string{
	"executor.json", "hpa_health.json", "state.json", "fallback.json", "modifiers.json",
	"object.json", "scalers.json", "quantity.json", "controller.json",
}

// loadVectors reads one vector file.
func loadVectors(t *testing.T, file string) []vector {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "vectors", file))
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(vs) == 0 {
		t.Fatalf("%s: no vectors", file)
	}
	return vs
}

// TestVectors replays every vector with the switches of each KEDA release
// whose tests hold it.
func TestVectors(t *testing.T) {
	total := 0
	for _, file := range vectorFiles {
		for _, v := range loadVectors(t, file) {
			if len(v.Versions) == 0 {
				t.Fatalf("%s: no versions", v.ID)
			}
			for _, ver := range v.Versions {
				version := MustParseVersion(ver)
				if version.Proven() != version {
					t.Fatalf("%s: %s is not a proven release", v.ID, ver)
				}
				total++
				t.Run(ver+"/"+v.ID, func(t *testing.T) {
					run := levels[v.Level]
					if run == nil {
						t.Fatalf("unknown level %q", v.Level)
					}
					run(t, v, version)
				})
			}
		}
	}
	t.Logf("%d vector runs", total)
}

// levels replays each level.
var levels = map[string]func(t *testing.T, v vector, ver Version){
	"executor":     runExecutor,
	"hpaHealth":    runHPAHealth,
	"state":        runState,
	"fallback":     runFallback,
	"formulaInput": runFormulaInput,
	"composite":    runComposite,
	"object":       runObject,
	"scaler":       runScaler,
	"workloadPods": runWorkloadPods,
	"targetType":   runTargetType,
	"quantity":     runQuantity,
	"controller":   runController,
}

// expect decodes a vector's expectations.
func expect[T any](t *testing.T, v vector) T {
	t.Helper()
	var out T
	if err := json.Unmarshal(v.Expect, &out); err != nil {
		t.Fatalf("%s: expect: %v", v.ID, err)
	}
	return out
}

// harness builds a replay of v's object without Evaluate's checks (the
// executor and state vectors hold objects upstream builds by hand).
func harness(v vector, ver Version) *replay {
	in := Input{
		ScaledObject: v.ScaledObject, Now: v.Now, CurrentReplicas: v.CurrentReplicas, HPACondition: v.HPACondition,
		Version: ver, LoadLocation: time.LoadLocation,
	}
	for _, r := range v.Results {
		in.Triggers = append(in.Triggers, r.Result)
	}
	r := &replay{in: in, so: v.ScaledObject, sw: ver.Switches(), health: map[string]HealthStatus{}}
	for k, h := range v.ScaledObject.Status.Health {
		r.health[k] = h
	}
	r.describe()
	return r
}

// checkConditions compares the expected conditions with out's.
func checkConditions(t *testing.T, out *explain.KEDA, want map[string]condExpect) {
	t.Helper()
	for typ, w := range want {
		got := findCondition(out, typ)
		if got == nil {
			t.Errorf("condition %s: not written, want %+v", typ, w)
			continue
		}
		if w.Status != "" && got.Status != w.Status || w.Reason != "" && got.Reason != w.Reason || w.Message != nil && got.Message != *w.Message {
			t.Errorf("condition %s = %+v, want %+v (message %v)", typ, *got, w, deref(w.Message, "<any>"))
		}
	}
}

func findCondition(out *explain.KEDA, typ string) *explain.KEDACondition {
	for i := range out.Conditions {
		if out.Conditions[i].Type == typ {
			return &out.Conditions[i]
		}
	}
	return nil
}

func runExecutor(t *testing.T, v vector, ver Version) {
	t.Helper()
	want := expect[struct {
		ScaledTo          *int32                `json:"scaledTo"`
		Conditions        map[string]condExpect `json:"conditions"`
		NotTrue           []string              `json:"notTrue"`
		LastActiveTimeSet *bool                 `json:"lastActiveTimeSet"`
		Events            []explain.Event       `json:"events"`
	}](t, v)
	r := harness(v, ver)
	r.execute(pollState{active: v.IsActive, isError: v.IsError, activeMetrics: v.ActiveTriggers})
	out := r.out
	if got := out.KEDAScaleTo; (got == nil) != (want.ScaledTo == nil) || got != nil && *got != *want.ScaledTo {
		t.Errorf("scaled to %v, want %v", fmtPtr(got), fmtPtr(want.ScaledTo))
	}
	checkConditions(t, out, want.Conditions)
	for _, typ := range want.NotTrue {
		if c := findCondition(out, typ); c != nil && c.Status == "True" {
			t.Errorf("condition %s is True", typ)
		}
	}
	if want.LastActiveTimeSet != nil {
		set := out.LastActiveTimeAfter != nil && out.LastActiveTimeAfter.Equal(v.Now)
		if set != *want.LastActiveTimeSet {
			t.Errorf("lastActiveTime set = %v, want %v", set, *want.LastActiveTimeSet)
		}
	}
	if want.Events != nil && !slices.Equal(out.Events, want.Events) {
		t.Errorf("events = %+v, want %+v", out.Events, want.Events)
	}
}

func runHPAHealth(t *testing.T, v vector, _ Version) {
	t.Helper()
	want := expect[struct{ Status, Reason, Message string }](t, v)
	s, r, m := hpaHealth(v.HPAName, v.HPACondition)
	if s != want.Status || want.Status != "" && (r != want.Reason || m != want.Message) {
		t.Errorf("HPAActive = (%q, %q, %q), want (%q, %q, %q)", s, r, m, want.Status, want.Reason, want.Message)
	}
}

func runState(t *testing.T, v vector, ver Version) {
	t.Helper()
	want := expect[struct {
		IsActive         bool     `json:"isActive"`
		IsError          bool     `json:"isError"`
		IsFallbackActive *bool    `json:"isFallbackActive"`
		ActiveTriggers   []string `json:"activeTriggers"`
		Source           string   `json:"source"`
	}](t, v)
	r := harness(v, ver)
	r.scalers, _ = buildAll(r.so, r.sw, time.LoadLocation)
	// The mocked scalers' metric names (upstream's mocks carry no index).
	for i, res := range v.Results {
		if !r.scalers[i].replayed {
			r.scalers[i].metricName = res.MetricName
		}
	}
	r.describeTriggers()
	st, err := r.poll()
	if err != nil {
		t.Fatal(err)
	}
	if st.active != want.IsActive || st.isError != want.IsError {
		t.Errorf("active, error = %v, %v; want %v, %v", st.active, st.isError, want.IsActive, want.IsError)
	}
	if want.IsFallbackActive != nil && st.fallbackActive != *want.IsFallbackActive {
		t.Errorf("fallback active = %v, want %v", st.fallbackActive, *want.IsFallbackActive)
	}
	if want.ActiveTriggers != nil && !slices.Equal(st.activeMetrics, want.ActiveTriggers) && (len(st.activeMetrics) != 0 || len(want.ActiveTriggers) != 0) {
		t.Errorf("active triggers = %v, want %v", st.activeMetrics, want.ActiveTriggers)
	}
	if want.Source != "" && r.out.Polling.Source != want.Source {
		t.Errorf("source = %s, want %s", r.out.Polling.Source, want.Source)
	}
}

func runFallback(t *testing.T, v vector, _ Version) {
	t.Helper()
	want := expect[struct {
		Value             *float64      `json:"value"`
		Error             string        `json:"error"`
		Health            *HealthStatus `json:"health"`
		FallbackCondition string        `json:"fallbackCondition"`
	}](t, v)
	so := v.ScaledObject
	var raw *resource.Quantity
	var err error
	if v.Result.Error != "" {
		err = errString(v.Result.Error)
	} else {
		q, qerr := quantityFromFloat(*v.Result.Value)
		if qerr != nil {
			t.Fatal(qerr)
		}
		raw = &q
	}
	in := FallbackInput{Target: v.Target, CurrentReplicas: v.CurrentReplicas}
	o := observe(so, v.MetricName, raw, raw != nil, err, failures(so.Status.Health, v.MetricName), true, in)
	if want.Value != nil {
		if o.value == nil || o.value.AsApproximateFloat64() != *want.Value {
			t.Errorf("value = %v, want %v (error %v)", o.value, *want.Value, o.outErr)
		}
	}
	if want.Error != "" && (o.outErr == nil || o.outErr.Error() != want.Error) {
		t.Errorf("error = %v, want %q", o.outErr, want.Error)
	}
	if want.Error == "" && want.Value != nil && o.outErr != nil {
		t.Errorf("unexpected error %v", o.outErr)
	}
	health := map[string]HealthStatus{}
	for k, h := range so.Status.Health {
		health[k] = h
	}
	if o.counted {
		health[v.MetricName] = HealthStatus{NumberOfFailures: ptr(o.failuresAfter), Status: o.healthStatus()}
	}
	if want.Health != nil {
		got := health[v.MetricName]
		if deref(got.NumberOfFailures, -1) != deref(want.Health.NumberOfFailures, -2) || got.Status != want.Health.Status {
			t.Errorf("health = %d %s, want %d %s", deref(got.NumberOfFailures, -1), got.Status, deref(want.Health.NumberOfFailures, -2), want.Health.Status)
		}
	}
	if want.FallbackCondition != "" {
		got := "False"
		if fallbackExceeded(so, health) {
			got = "True"
		}
		if got != want.FallbackCondition {
			t.Errorf("Fallback condition = %s, want %s", got, want.FallbackCondition)
		}
	}
}

func runFormulaInput(t *testing.T, v vector, _ Version) {
	t.Helper()
	want := expect[struct {
		Nil bool `json:"nil"`
	}](t, v)
	val, _ := strconv.ParseFloat(string(v.Value), 64)
	got := formulaInput(v.ScaledObject, v.ScaledObject.Status.Health, v.MetricName, val)
	if (got == nil) != want.Nil || got != nil && got.(float64) != val {
		t.Errorf("formula input = %v, want nil=%v", got, want.Nil)
	}
}

func runComposite(t *testing.T, v vector, _ Version) {
	t.Helper()
	want := expect[struct {
		MilliValue *int64 `json:"milliValue"`
		Error      bool   `json:"error"`
	}](t, v)
	so := v.ScaledObject
	var f *formula
	switch {
	case v.Formula == nil:
	case v.Compile == "raw":
		program, err := expr.Compile(*v.Formula)
		if err != nil {
			t.Fatal(err)
		}
		f = &formula{evaluated: *v.Formula, program: program}
	default:
		var err error
		if f, err = compileFormula(so); err != nil {
			t.Fatal(err)
		}
	}
	data := map[string]any{}
	for _, in := range v.Inputs {
		data[in.Trigger] = formulaInput(so, so.Status.Health, in.MetricName, in.Value)
	}
	q, err := f.compositeValue(so, data)
	if want.Error != (err != nil) {
		t.Fatalf("error = %v, want error %v", err, want.Error)
	}
	if want.MilliValue != nil && q.MilliValue() != *want.MilliValue {
		t.Errorf("composite = %dm, want %dm", q.MilliValue(), *want.MilliValue)
	}
}

// objectExpect is the expectation of an object vector.
type objectExpect struct {
	Bool          *bool  `json:"bool"`
	Nil           bool   `json:"nil"`
	Int           *int32 `json:"int"`
	Error         *bool  `json:"error"`
	ErrorContains string `json:"errorContains"`
	Min           *int32 `json:"min"`
	Max           *int32 `json:"max"`
	Idle          *bool  `json:"idle"`
}

func runObject(t *testing.T, v vector, _ Version) {
	t.Helper()
	want := expect[objectExpect](t, v)
	so := v.ScaledObject
	checkBool := func(got bool) {
		if got != *want.Bool {
			t.Errorf("%s = %v, want %v", v.Check, got, *want.Bool)
		}
	}
	checkErr := func(err error) {
		if (err != nil) != *want.Error || err != nil && !strings.Contains(err.Error(), want.ErrorContains) {
			t.Errorf("%s: error %v, want error %v containing %q", v.Check, err, *want.Error, want.ErrorContains)
		}
	}
	p := Pause(so)
	switch v.Check {
	case "hasPausedAnnotation":
		_, a := p.Annotations[AnnotationPaused]
		_, b := p.Annotations[AnnotationPausedReplicas]
		checkBool(a || b)
	case "needToBePaused":
		checkBool(p.Paused)
	case "pausedReplicaCount":
		switch {
		case want.Error != nil:
			if (p.PausedReplicasError != "") != *want.Error {
				t.Errorf("paused replicas error %q", p.PausedReplicasError)
			}
		case want.Nil:
			if p.PausedReplicas != nil || p.PausedReplicasError != "" {
				t.Errorf("paused replicas %v %q, want none", fmtPtr(p.PausedReplicas), p.PausedReplicasError)
			}
		default:
			if p.PausedReplicas == nil || *p.PausedReplicas != *want.Int {
				t.Errorf("paused replicas %v, want %d", fmtPtr(p.PausedReplicas), *want.Int)
			}
		}
	case "usesModifiers":
		checkBool(so.UsesModifiers())
	case "pollingRelevant":
		checkBool(so.pollingRelevant())
	case "usesHPAObservations":
		checkBool(so.usesHPAObservations())
	case "replicaCountBounds":
		checkErr(checkReplicaCountBounds(so))
	case "fallbackValid":
		checkErr(checkFallbackValid(so))
	case "hpaReplicas":
		if so.hpaMinReplicas() != *want.Min || so.hpaMaxReplicas() != *want.Max {
			t.Errorf("HPA replicas %d-%d, want %d-%d", so.hpaMinReplicas(), so.hpaMaxReplicas(), *want.Min, *want.Max)
		}
	case "idleOrMinimum":
		idle, n := so.idleOrMinimum()
		if idle != *want.Idle || n != *want.Int {
			t.Errorf("idle or minimum = %v %d, want %v %d", idle, n, *want.Idle, *want.Int)
		}
	default:
		t.Fatalf("unknown check %q", v.Check)
	}
}

// scalerObject is a ScaledObject holding v's trigger at its index (the
// triggers before it are cpu triggers, which change no metric name).
func scalerObject(v vector) *ScaledObject {
	so := &ScaledObject{}
	so.Name, so.Namespace = "so", v.Namespace
	so.Spec.ScaleTargetRef = &ScaleTarget{Name: "app"}
	for range v.TriggerIndex {
		so.Spec.Triggers = append(so.Spec.Triggers, ScaleTrigger{Type: TypeCPU, MetricType: autoscalingv2.UtilizationMetricType, Metadata: map[string]string{"value": "50"}})
	}
	so.Spec.Triggers = append(so.Spec.Triggers, *v.Trigger)
	return so
}

func runScaler(t *testing.T, v vector, ver Version) {
	t.Helper()
	want := expect[struct {
		Error      *bool    `json:"error"`
		MetricName string   `json:"metricName"`
		Active     *bool    `json:"active"`
		Value      *float64 `json:"value"`
		Type       string   `json:"type"`
		Resource   string   `json:"resource"`
		TargetType string   `json:"targetType"`
		Container  string   `json:"container"`
	}](t, v)
	so := scalerObject(v)
	s := buildScaler(so, v.TriggerIndex, ver.Switches(), time.LoadLocation)
	switch v.Check {
	case "parse":
		if (s.err != nil) != *want.Error {
			t.Errorf("build error = %v, want error %v", s.err, *want.Error)
		}
	case "metricName":
		if s.err != nil || s.metricName != want.MetricName {
			t.Errorf("metric name = %q (error %v), want %q", s.metricName, s.err, want.MetricName)
		}
	case "resourceSpec":
		m := s.spec
		var name corev1.ResourceName
		var target autoscalingv2.MetricTarget
		container := ""
		switch {
		case m.Resource != nil:
			name, target = m.Resource.Name, m.Resource.Target
		case m.ContainerResource != nil:
			name, target, container = m.ContainerResource.Name, m.ContainerResource.Target, m.ContainerResource.Container
		}
		if string(m.Type) != want.Type || string(name) != want.Resource || string(target.Type) != want.TargetType || container != want.Container {
			t.Errorf("spec = %+v, want %+v", m, want)
		}
	case "activity":
		now := v.Now
		if now.IsZero() {
			now = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
		}
		in := Input{
			ScaledObject: so, Now: now, CurrentReplicas: 1, Version: ver, LoadLocation: time.LoadLocation,
			Triggers: make([]TriggerResult, len(so.Spec.Triggers)),
		}
		if len(v.Value) > 0 {
			f, err := strconv.ParseFloat(string(v.Value), 64)
			if err != nil {
				t.Fatal(err)
			}
			in.Triggers[v.TriggerIndex].Value = &f
		}
		k, err := Evaluate(in)
		if err != nil {
			t.Fatal(err)
		}
		tr := k.Triggers[v.TriggerIndex]
		if want.Active != nil && tr.Active != *want.Active {
			t.Errorf("active = %v, want %v (%+v)", tr.Active, *want.Active, tr)
		}
		if want.Value != nil && (tr.Value == nil || *tr.Value != *want.Value) {
			t.Errorf("value = %v, want %v", fmtPtr(tr.Value), *want.Value)
		}
	default:
		t.Fatalf("unknown check %q", v.Check)
	}
}

func runWorkloadPods(t *testing.T, v vector, ver Version) {
	t.Helper()
	want := expect[struct {
		Active *bool    `json:"active"`
		Count  *float64 `json:"count"`
	}](t, v)
	v.Namespace = "default"
	so := scalerObject(v)
	n := CountWorkloadPods(v.Pods, v.GroupByNode)
	k, err := Evaluate(Input{
		ScaledObject: so, Now: time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC), CurrentReplicas: 1, Version: ver,
		Triggers: []TriggerResult{{Value: &n}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want.Active != nil && k.Triggers[0].Active != *want.Active {
		t.Errorf("active = %v (count %v), want %v", k.Triggers[0].Active, n, *want.Active)
	}
	if want.Count != nil && n != *want.Count {
		t.Errorf("count = %v, want %v", n, *want.Count)
	}
}

func runTargetType(t *testing.T, v vector, _ Version) {
	t.Helper()
	want := expect[struct {
		Error bool   `json:"error"`
		Type  string `json:"type"`
	}](t, v)
	got, err := externalTargetType(autoscalingv2.MetricTargetType(v.MetricType))
	if (err != nil) != want.Error || string(got) != want.Type {
		t.Errorf("target type = %q, %v; want %q, error %v", got, err, want.Type, want.Error)
	}
}

func runQuantity(t *testing.T, v vector, _ Version) {
	t.Helper()
	want := expect[struct {
		Zero     bool `json:"zero"`
		Positive bool `json:"positive"`
	}](t, v)
	var s string
	if err := json.Unmarshal(v.Value, &s); err != nil {
		t.Fatal(err)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	q, err := quantityFromFloat(f)
	if err != nil {
		t.Fatal(err)
	}
	if q.IsZero() != want.Zero || (q.AsApproximateFloat64() > 0) != want.Positive {
		t.Errorf("quantity of %v = %s", f, q.String())
	}
}

func runController(t *testing.T, v vector, ver Version) {
	t.Helper()
	want := expect[struct {
		Invalid      bool                    `json:"invalid"`
		InvalidField string                  `json:"invalidField"`
		HPAName      string                  `json:"hpaName"`
		MetricNames  []string                `json:"metricNames"`
		MinReplicas  *int32                  `json:"minReplicas"`
		MaxReplicas  *int32                  `json:"maxReplicas"`
		Ready        string                  `json:"ready"`
		Paused       string                  `json:"paused"`
		PausedIn     []string                `json:"pausedIn"`
		Annotations  map[string]string       `json:"annotations"`
		DownPolicy   string                  `json:"scaleDownSelectPolicy"`
		UpPolicy     string                  `json:"scaleUpSelectPolicy"`
		DownNotDis   bool                    `json:"scaleDownNotDisabled"`
		UpWindow     *int32                  `json:"scaleUpStabilizationWindowSeconds"`
		UpPeriods    []int32                 `json:"scaleUpPolicyPeriods"`
		BehaviorNil  bool                    `json:"behaviorNil"`
		HPADeleted   bool                    `json:"hpaDeleted"`
		Health       map[string]HealthStatus `json:"health"`
	}](t, v)
	so := v.ScaledObject
	if want.Invalid {
		err := Validate(so)
		if err == nil || !strings.Contains(err.Error(), ": "+want.InvalidField+":") {
			t.Errorf("validation error %v, want one on field %s", err, want.InvalidField)
		}
		return
	}
	if want.Health != nil {
		r := harness(v, ver)
		r.scalers, _ = buildAll(so, r.sw, nil)
		r.pruneHealth()
		if len(r.health) != len(want.Health) {
			t.Errorf("health = %v, want %v", r.health, want.Health)
		}
		for k, w := range want.Health {
			if g, ok := r.health[k]; !ok || deref(g.NumberOfFailures, -1) != deref(w.NumberOfFailures, -2) || g.Status != w.Status {
				t.Errorf("health[%s] = %+v, want %+v", k, g, w)
			}
		}
		return
	}
	res, err := BuildHPA(so, ver, nil)
	if err != nil {
		t.Fatal(err)
	}
	k, err := Evaluate(Input{ScaledObject: so, Now: v.Now, CurrentReplicas: 1, Version: ver})
	if err != nil {
		t.Fatal(err)
	}
	if want.HPADeleted && (res.HPA != nil || k.HPAActs) {
		t.Errorf("HPA kept (acts %v), want it deleted", k.HPAActs)
	}
	if want.Ready != "" {
		if c := findCondition(k, "Ready"); c == nil || c.Status != want.Ready {
			t.Errorf("Ready = %+v, want %s", c, want.Ready)
		}
	}
	if want.Paused != "" {
		want.PausedIn = []string{want.Paused}
	}
	if want.PausedIn != nil {
		if c := findCondition(k, "Paused"); c == nil || !slices.Contains(want.PausedIn, c.Status) {
			t.Errorf("Paused = %+v, want one of %v", c, want.PausedIn)
		}
	}
	hpa := res.HPA
	if hpa == nil {
		if want.HPAName != "" || want.MetricNames != nil || want.MinReplicas != nil {
			t.Fatalf("no HPA (%s)", res.Error)
		}
		return
	}
	if want.HPAName != "" && hpa.Name != want.HPAName {
		t.Errorf("HPA name = %s, want %s", hpa.Name, want.HPAName)
	}
	if want.MetricNames != nil {
		var names []string
		for _, m := range hpa.Spec.Metrics {
			names = append(names, m.External.Metric.Name)
		}
		if !slices.Equal(names, want.MetricNames) {
			t.Errorf("metrics = %v, want %v", names, want.MetricNames)
		}
	}
	if want.MinReplicas != nil && (*hpa.Spec.MinReplicas != *want.MinReplicas || hpa.Spec.MaxReplicas != *want.MaxReplicas) {
		t.Errorf("HPA replicas %d-%d, want %d-%d", *hpa.Spec.MinReplicas, hpa.Spec.MaxReplicas, *want.MinReplicas, *want.MaxReplicas)
	}
	if want.Annotations != nil && !mapsEqual(hpa.Annotations, want.Annotations) {
		t.Errorf("annotations = %v, want %v", hpa.Annotations, want.Annotations)
	}
	b := hpa.Spec.Behavior
	if want.BehaviorNil && b != nil {
		t.Errorf("behavior = %+v, want nil", b)
	}
	policy := func(r *autoscalingv2.HPAScalingRules) string {
		if r == nil || r.SelectPolicy == nil {
			return ""
		}
		return string(*r.SelectPolicy)
	}
	var up, down *autoscalingv2.HPAScalingRules
	if b != nil {
		up, down = b.ScaleUp, b.ScaleDown
	}
	if want.DownPolicy != "" && policy(down) != want.DownPolicy {
		t.Errorf("scaleDown selectPolicy = %q, want %q", policy(down), want.DownPolicy)
	}
	if want.DownNotDis && policy(down) == string(autoscalingv2.DisabledPolicySelect) {
		t.Errorf("scaleDown selectPolicy is Disabled")
	}
	if want.UpPolicy != "" && policy(up) != want.UpPolicy {
		t.Errorf("scaleUp selectPolicy = %q, want %q", policy(up), want.UpPolicy)
	}
	if want.UpWindow != nil && (up == nil || up.StabilizationWindowSeconds == nil || *up.StabilizationWindowSeconds != *want.UpWindow) {
		t.Errorf("scaleUp window = %+v, want %d", up, *want.UpWindow)
	}
	if want.UpPeriods != nil {
		var periods []int32
		if up != nil {
			for _, p := range up.Policies {
				periods = append(periods, p.PeriodSeconds)
			}
		}
		if !slices.Equal(periods, want.UpPeriods) {
			t.Errorf("scaleUp policy periods = %v, want %v", periods, want.UpPeriods)
		}
	}
}

// TestVectorCoverage pins the vector counts per file, so that a lost
// vector is noticed (README.md lists the same numbers).
func TestVectorCoverage(t *testing.T) {
	want := map[string]int{
		"executor.json": 21, "hpa_health.json": 9, "state.json": 11, "fallback.json": 14, "modifiers.json": 11,
		"object.json": 60, "scalers.json": 111, "quantity.json": 18, "controller.json": 28,
	}
	for _, f := range vectorFiles {
		if n := len(loadVectors(t, f)); n != want[f] {
			t.Errorf("%s: %d vectors, want %d", f, n, want[f])
		}
	}
}

// errString is an error with a fixed text.
type errString string

func (e errString) Error() string { return string(e) }

func fmtPtr[T any](p *T) any {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
	}
	return true
}
