// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/cli"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// The calculator and reconcile vectors, replayed through the offline CLI: each
// vector becomes the objects a user would pass with -f, and the JSON output
// is checked against the vector's expectations. The engine-level harness is
// pkg/engine/vectors_test.go; this one proves the file path (loader, API
// defaulting, flags, JSON encoding) loses nothing.

const vectorDir = "../engine/testdata/vectors"

type obj = map[string]any

type cliVector struct {
	// Version is the release directory the vector was read from.
	Version      string          `json:"-"`
	ID           string          `json:"id"`
	Source       string          `json:"source"`
	Now          time.Time       `json:"now"`
	FeatureGates map[string]bool `json:"featureGates"`
	// EmulationVersion: the feature gates emulated this older minor.
	EmulationVersion string `json:"emulationVersion"`
	Controller       struct {
		Tolerance               *float64 `json:"tolerance"`
		CPUInitializationPeriod string   `json:"cpuInitializationPeriod"`
		InitialReadinessDelay   string   `json:"initialReadinessDelay"`
		DownscaleStabilization  string   `json:"downscaleStabilization"`
	} `json:"controller"`
	Calculator *struct {
		Tolerances struct {
			ScaleDown float64 `json:"scaleDown"`
			ScaleUp   float64 `json:"scaleUp"`
		} `json:"tolerances"`
	} `json:"calculator"`
	HPA    obj `json:"hpa"`
	Target *struct {
		APIVersion     string   `json:"apiVersion"`
		Kind           string   `json:"kind"`
		Name           string   `json:"name"`
		SpecReplicas   int32    `json:"specReplicas"`
		StatusReplicas int32    `json:"statusReplicas"`
		Selector       string   `json:"selector"`
		GetError       string   `json:"getError"`
		UpdateResults  []string `json:"updateResults"`
	} `json:"target"`
	Pods            []obj             `json:"pods"`
	PodMetrics      []obj             `json:"podMetrics"`
	CustomMetrics   []obj             `json:"customMetrics"`
	ExternalMetrics []obj             `json:"externalMetrics"`
	MetricErrors    map[string]string `json:"metricErrors"`
	State           *struct {
		RecommendationsInitialized bool  `json:"recommendationsInitialized"`
		Recommendations            []obj `json:"recommendations"`
		OtherHPAs                  []struct {
			Namespace string `json:"namespace"`
			Name      string `json:"name"`
			Selector  string `json:"selector"`
		} `json:"otherHPAs"`
	} `json:"state"`
	Expect json.RawMessage `json:"expect"`
}

// readCLIVectors reads file from every release directory (v1.X.Y) that has it.
func readCLIVectors(t *testing.T, file string) []cliVector {
	t.Helper()
	entries, err := os.ReadDir(vectorDir)
	if err != nil {
		t.Fatal(err)
	}
	var vs []cliVector
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "v1.") {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(vectorDir, e.Name(), file))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var one []cliVector
		if err := json.Unmarshal(raw, &one); err != nil {
			t.Fatal(err)
		}
		for i := range one {
			one[i].Version = e.Name()
		}
		vs = append(vs, one...)
	}
	return vs
}

// countVersion counts the vectors of one release.
func countVersion(vs []cliVector, version string) int {
	n := 0
	for _, v := range vs {
		if v.Version == version {
			n++
		}
	}
	return n
}

// objects turns a vector into the documents of an offline snapshot.
func (v *cliVector) objects() []any {
	meta := v.HPA["metadata"].(map[string]any)
	ns, name := meta["namespace"].(string), meta["name"].(string)
	items := []any{v.HPA}
	errs := map[string]string{}
	for k, e := range v.MetricErrors {
		errs[k] = e
	}
	if t := v.Target; t != nil {
		if t.GetError != "" {
			errs["scale"] = t.GetError
		} else {
			items = append(items, obj{
				"apiVersion": "autoscaling/v1", "kind": "Scale",
				"metadata": obj{"name": t.Name, "namespace": ns},
				"spec":     obj{"replicas": t.SpecReplicas},
				"status":   obj{"replicas": t.StatusReplicas, "selector": t.Selector},
			})
		}
	}
	for _, p := range v.Pods {
		items = append(items, p)
	}
	for _, p := range v.PodMetrics {
		items = append(items, p)
	}
	for _, m := range v.CustomMetrics {
		items = append(items, m)
	}
	// As in the engine harness: the upstream fixtures answer any external
	// selector, so label-less items get the labels of the selector asking.
	extSel := map[string]map[string]any{}
	if spec, ok := v.HPA["spec"].(map[string]any); ok {
		ms, _ := spec["metrics"].([]any)
		for _, m := range ms {
			mm, _ := m.(map[string]any)
			if e, ok := mm["external"].(map[string]any); ok {
				met := e["metric"].(map[string]any)
				if sel, ok := met["selector"].(map[string]any); ok {
					if ml, ok := sel["matchLabels"].(map[string]any); ok {
						extSel[met["name"].(string)] = ml
					}
				}
			}
		}
	}
	for _, m := range v.ExternalMetrics {
		if labels, ok := extSel[m["metricName"].(string)]; ok && m["metricLabels"] == nil {
			m["metricLabels"] = labels
		}
		items = append(items, m)
	}
	if st := v.State; st != nil {
		recs := st.Recommendations
		if recs == nil {
			recs = []obj{}
		}
		items = append(items, obj{
			"apiVersion": "kubectl-hpa.io/v1alpha1", "kind": "ControllerState",
			"metadata":                   obj{"name": name, "namespace": ns},
			"recommendationsInitialized": st.RecommendationsInitialized,
			"recommendations":            recs,
		})
		for i, o := range st.OtherHPAs {
			target := fmt.Sprintf("other-target-%d", i)
			items = append(items,
				obj{
					"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
					"metadata": obj{"name": o.Name, "namespace": o.Namespace},
					"spec":     obj{"maxReplicas": 10, "scaleTargetRef": obj{"apiVersion": "v1", "kind": "ReplicationController", "name": target}},
				},
				obj{
					"apiVersion": "autoscaling/v1", "kind": "Scale",
					"metadata": obj{"name": target, "namespace": o.Namespace},
					"spec":     obj{"replicas": 1}, "status": obj{"replicas": 1, "selector": o.Selector},
				})
		}
	}
	if len(errs) > 0 {
		items = append(items, obj{"apiVersion": "kubectl-hpa.io/v1alpha1", "kind": "APIErrors", "metadata": obj{"name": name, "namespace": ns}, "errors": errs})
	}
	return items
}

type cliOutput struct {
	DesiredReplicas int32  `json:"desiredReplicas"`
	Rescale         bool   `json:"rescale"`
	Outcome         string `json:"outcome"`
	StatusChanged   bool   `json:"statusChanged"`
	Metrics         []struct {
		ProposedReplicas *int32             `json:"proposedReplicas"`
		Utilization      *int32             `json:"utilization"`
		Value            *resource.Quantity `json:"value"`
		Error            *string            `json:"error"`
	} `json:"metrics"`
	Conditions []struct {
		Type   string `json:"type"`
		Status string `json:"status"`
		Reason string `json:"reason"`
	} `json:"conditions"`
	Events         []map[string]string `json:"events"`
	CurrentMetrics []struct {
		Resource *struct {
			Name    string `json:"name"`
			Current struct {
				AverageUtilization *int32 `json:"averageUtilization"`
			} `json:"current"`
		} `json:"resource"`
	} `json:"currentMetrics"`
}

func runVectorCLI(t *testing.T, v *cliVector, tolerance *float64) cliOutput {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "snapshot.json")
	raw, err := json.MarshalIndent(obj{"apiVersion": "v1", "kind": "List", "items": v.objects()}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	meta := v.HPA["metadata"].(map[string]any)
	args := []string{
		"explain", meta["name"].(string), "-n", meta["namespace"].(string), "-f", file, "-o", "json",
		"--now", v.Now.Add(time.Microsecond).Format(time.RFC3339Nano),
		// Upstream's unit tests build objects no API server validated.
		"--skip-validation",
	}
	c := v.Controller
	if tolerance == nil {
		tolerance = c.Tolerance
	}
	if tolerance != nil {
		args = append(args, fmt.Sprintf("--tolerance=%v", *tolerance))
	}
	for flag, val := range map[string]string{"--cpu-initialization-period": c.CPUInitializationPeriod, "--initial-readiness-delay": c.InitialReadinessDelay, "--downscale-stabilization": c.DownscaleStabilization} {
		if val != "" {
			args = append(args, flag+"="+val)
		}
	}
	// Each vector replays the release whose upstream tests it comes from.
	args = append(args, "--controller-version="+v.Version)
	if len(v.FeatureGates) > 0 {
		var gates []string
		for g, on := range v.FeatureGates {
			gates = append(gates, fmt.Sprintf("%s=%v", g, on))
		}
		args = append(args, "--feature-gates="+strings.Join(gates, ","))
	}
	if v.Target != nil {
		if e := engine.ScaleUpdateOutcome(v.Target.UpdateResults, profile.Default(profile.MustParse(v.Version)).Switches); e != "" {
			args = append(args, "--assume-scale-update-error="+e)
		}
	}
	var out, errOut bytes.Buffer
	code := cli.Main(args, genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	if code != 0 {
		t.Fatalf("%s: exit %d: %s\nargs: %v", v.ID, code, errOut.String(), args)
	}
	var got cliOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%s: output is not JSON: %v\n%s", v.ID, err, out.String())
	}
	return got
}

func TestVectorsThroughCLIReconcile(t *testing.T) {
	vs := readCLIVectors(t, "reconcile.json")
	if n := countVersion(vs, "v1.36.3"); n != 84 {
		t.Fatalf("%d v1.36.3 reconcile vectors, want 84", n)
	}
	for i := range vs {
		v := &vs[i]
		t.Run(v.Version+"/"+v.ID, func(t *testing.T) {
			var exp struct {
				DesiredReplicas *int32 `json:"desiredReplicas"`
				Conditions      []struct {
					Type, Status, Reason string
				} `json:"conditions"`
				ScaleUpdated  *bool                `json:"scaleUpdated"`
				Utilization   *int32               `json:"utilization"`
				Events        *[]map[string]string `json:"events"`
				StatusUpdated *bool                `json:"statusUpdated"`
			}
			if err := json.Unmarshal(v.Expect, &exp); err != nil {
				t.Fatal(err)
			}
			if v.EmulationVersion != "" {
				// The CLI replays a release with that release's gates; it has
				// no --emulated-version (the vector turns off a gate locked at
				// its release). pkg/engine replays it with profile.NewEmulated.
				t.Skipf("%s: feature gates emulate v%s; the CLI has no emulated version", v.ID, v.EmulationVersion)
			}
			got := runVectorCLI(t, v, nil)
			where := v.ID + " (" + v.Source + ")"
			if exp.DesiredReplicas != nil && got.DesiredReplicas != *exp.DesiredReplicas {
				t.Errorf("%s: desiredReplicas %d, want %d", where, got.DesiredReplicas, *exp.DesiredReplicas)
			}
			if exp.Conditions != nil {
				var g, w []string
				for _, c := range got.Conditions {
					g = append(g, c.Type+"/"+c.Status+"/"+c.Reason)
				}
				for _, c := range exp.Conditions {
					w = append(w, c.Type+"/"+c.Status+"/"+c.Reason)
				}
				if strings.Join(g, " ") != strings.Join(w, " ") {
					t.Errorf("%s: conditions\n got  %v\n want %v", where, g, w)
				}
			}
			if exp.ScaleUpdated != nil {
				updated := got.Rescale && got.Outcome != "FailedUpdateScale"
				if updated != *exp.ScaleUpdated {
					t.Errorf("%s: scale updated %v, want %v", where, updated, *exp.ScaleUpdated)
				}
			}
			if exp.Utilization != nil {
				var u *int32
				for _, m := range got.CurrentMetrics {
					if m.Resource != nil && m.Resource.Name == "cpu" {
						u = m.Resource.Current.AverageUtilization
					}
				}
				if u == nil || *u != *exp.Utilization {
					t.Errorf("%s: utilization %v, want %d", where, u, *exp.Utilization)
				}
			}
			if exp.Events != nil {
				g, _ := json.Marshal(got.Events)
				w, _ := json.Marshal(*exp.Events)
				if !bytes.Equal(g, w) {
					t.Errorf("%s: events\n got  %s\n want %s", where, g, w)
				}
			}
			if exp.StatusUpdated != nil && got.StatusChanged != *exp.StatusUpdated {
				t.Errorf("%s: status changed %v, want %v", where, got.StatusChanged, *exp.StatusUpdated)
			}
		})
	}
}

func TestVectorsThroughCLICalculator(t *testing.T) {
	vs := readCLIVectors(t, "replica_calculator.json")
	if n := countVersion(vs, "v1.36.3"); n != 57 {
		t.Fatalf("%d v1.36.3 calculator vectors, want 57", n)
	}
	for i := range vs {
		v := &vs[i]
		t.Run(v.Version+"/"+v.ID, func(t *testing.T) {
			var exp struct {
				MetricReplicas *int32 `json:"metricReplicas"`
				Utilization    *int32 `json:"utilization"`
				RawValueMilli  *int64 `json:"rawValueMilli"`
				UsageMilli     *int64 `json:"usageMilli"`
				Error          string `json:"error"`
			}
			if err := json.Unmarshal(v.Expect, &exp); err != nil {
				t.Fatal(err)
			}
			tol := v.Calculator.Tolerances.ScaleDown
			if v.Calculator.Tolerances.ScaleUp != tol {
				// The calculator takes per-direction tolerances whatever the
				// gates; a reconcile passes spec.behavior's only with
				// HPAConfigurableTolerance on (off in the v1.33/v1.34 tests),
				// so the synthesised HPA is replayed with the gate on.
				gates := maps.Clone(v.FeatureGates)
				if gates == nil {
					gates = map[string]bool{}
				}
				gates["HPAConfigurableTolerance"] = true
				v.FeatureGates = gates
			}
			got := runVectorCLI(t, v, &tol)
			where := v.ID + " (" + v.Source + ")"
			if len(got.Metrics) != 1 {
				t.Fatalf("%s: %d metrics in output", where, len(got.Metrics))
			}
			m := got.Metrics[0]
			if exp.Error != "" {
				if m.Error == nil {
					t.Fatalf("%s: no error, want one containing %q", where, exp.Error)
				}
				return
			}
			if m.Error != nil {
				t.Fatalf("%s: error %s", where, *m.Error)
			}
			if m.ProposedReplicas == nil || *m.ProposedReplicas != *exp.MetricReplicas {
				t.Errorf("%s: proposed %s, want %d", where, fmtPtr(m.ProposedReplicas), *exp.MetricReplicas)
			}
			if exp.Utilization != nil && (m.Utilization == nil || *m.Utilization != *exp.Utilization) {
				t.Errorf("%s: utilization %v, want %d", where, m.Utilization, *exp.Utilization)
			}
			want := exp.RawValueMilli
			if want == nil {
				want = exp.UsageMilli
			}
			if want != nil && (m.Value == nil || m.Value.MilliValue() != *want) {
				t.Errorf("%s: value %v, want %dm", where, m.Value, *want)
			}
		})
	}
}

func fmtPtr[T any](p *T) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}
