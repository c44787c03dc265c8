// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
)

// TestPlan renders the plan of each captured object as text and JSON
// (golden files under testdata/TestPlan; go test -update rewrites them).
func TestPlan(t *testing.T) {
	tests := []struct {
		fixture string
		actions []StepAction
	}{
		// kubectl apply, the HPA scaled it: only the annotation is a risk.
		{"kubectl-csa", []StepAction{ActionRewriteLastApplied}},
		// kubectl apply, the HPA has not written yet.
		{"csa-no-hpa-write", []StepAction{ActionRewriteLastApplied}},
		// kubectl apply --server-side, the HPA has not written yet: the race.
		{"kubectl-ssa", []StepAction{ActionApplyReplicas, ActionReleaseOwnership}},
		// The HPA already owns the field: nothing to hand over.
		{"ssa-hpa-owned", nil},
		// A run stopped after the apply: a second run only releases.
		{"ssa-coowned", []StepAction{ActionReleaseOwnership}},
		// Done: a second run does nothing.
		{"ssa-migrated", nil},
		{"helm-like", nil},
		{"argocd-like", []StepAction{ActionRewriteLastApplied}},
		{"argocd-ssa", []StepAction{ActionApplyReplicas, ActionReleaseOwnership}},
		{"flux-like", []StepAction{ActionApplyReplicas, ActionReleaseOwnership}},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			r, err := BuildPlan(fixtureState(t, tc.fixture))
			if err != nil {
				t.Fatal(err)
			}
			var got []StepAction
			for _, s := range r.Steps {
				got = append(got, s.Action)
				if s.ReplicasAfter != *r.Target.Replicas {
					t.Errorf("step %d leaves %d replicas, the live count is %d", s.Number, s.ReplicasAfter, *r.Target.Replicas)
				}
			}
			if strings.Join(actionStrings(got), ",") != strings.Join(actionStrings(tc.actions), ",") {
				t.Errorf("steps = %v, want %v", got, tc.actions)
			}
			if len(r.Steps) == 0 && (r.Outcome != OutcomeNothingToDo || len(r.NothingToDo) == 0) {
				t.Errorf("no steps, but outcome %q and reasons %q", r.Outcome, r.NothingToDo)
			}
			t.Run("text", func(t *testing.T) {
				var b bytes.Buffer
				if err := WriteText(&b, r, func(o Option) string { return "--" + string(o) }); err != nil {
					t.Fatal(err)
				}
				testutil.AssertGolden(t, b.Bytes(), *update)
			})
			t.Run("json", func(t *testing.T) {
				// The encoding cmd applies (render.Encode): indented JSON.
				b, err := json.MarshalIndent(r, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				testutil.AssertGolden(t, append(b, '\n'), *update)
			})
		})
	}
}

func actionStrings(a []StepAction) []string {
	out := make([]string, 0, len(a))
	for _, s := range a {
		out = append(out, string(s))
	}
	return out
}

// The apply body holds the identity, the precondition and the replica count
// at its live value, and nothing else.
func TestPlan_applyBody(t *testing.T) {
	r, err := BuildPlan(fixtureState(t, "kubectl-ssa"))
	if err != nil {
		t.Fatal(err)
	}
	s := r.Steps[0]
	want := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"kubectl-ssa-fresh","namespace":"mig-scratch","resourceVersion":"` +
		r.Target.ResourceVersion + `"},"spec":{"replicas":3}}`
	if string(s.Request.Body) != want {
		t.Errorf("body = %s\nwant   %s", s.Request.Body, want)
	}
	if s.Request.Force == nil || *s.Request.Force || s.Request.FieldManager != FieldManager {
		t.Errorf("request = %+v", s.Request)
	}
	if got := strings.Join(r.Steps[1].OwnersAfter, ","); got != "kubectl-hpa-migrate (Apply)" {
		t.Errorf("owners after the release = %q", got)
	}
}

// The annotation patch holds the annotation and the precondition only.
func TestPlan_lastAppliedPatch(t *testing.T) {
	r, err := BuildPlan(fixtureState(t, "kubectl-csa"))
	if err != nil {
		t.Fatal(err)
	}
	var patch map[string]map[string]any
	if err := json.Unmarshal(r.Steps[0].Request.Body, &patch); err != nil {
		t.Fatal(err)
	}
	if len(patch) != 1 || len(patch["metadata"]) != 2 || patch["metadata"]["resourceVersion"] != r.Target.ResourceVersion {
		t.Errorf("patch = %s", r.Steps[0].Request.Body)
	}
	ann := patch["metadata"]["annotations"].(map[string]any)
	if len(ann) != 1 || ann[LastAppliedAnnotation] != r.Steps[0].After || strings.Contains(r.Steps[0].After, "replicas") {
		t.Errorf("annotations = %v", ann)
	}
}

// A custom resource whose CRD names another field: the plan uses it.
func TestPlan_customReplicasPath(t *testing.T) {
	st := fixtureState(t, "kubectl-ssa")
	obj := st.Object
	spec := obj.Object["spec"].(map[string]any)
	spec["size"] = spec["replicas"]
	delete(spec, "replicas")
	// Rename the owned field the same way.
	mf := obj.GetManagedFields()
	for i := range mf {
		mf[i].FieldsV1 = metav1.NewFieldsV1(strings.ReplaceAll(mf[i].FieldsV1.GetRawString(), `"f:replicas"`, `"f:size"`))
	}
	obj.SetManagedFields(mf)
	st.Target.ReplicasPath = []string{"spec", "size"}
	st.Target.PathSource = "specReplicasPath .spec.size of CustomResourceDefinition widgets.example.com (version v1)"
	r, err := BuildPlan(st)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 2 || !strings.Contains(string(r.Steps[0].Request.Body), `"spec":{"size":3}`) {
		t.Fatalf("steps = %+v", r.Steps)
	}
	if r.Target.ReplicasPath != "spec.size" {
		t.Errorf("path = %q", r.Target.ReplicasPath)
	}
}

func TestPlan_unsetReplicas(t *testing.T) {
	st := fixtureState(t, "kubectl-ssa")
	delete(st.Object.Object["spec"].(map[string]any), "replicas")
	r, err := BuildPlan(st)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 0 || r.Outcome != OutcomeNothingToDo || r.Target.Replicas != nil {
		t.Errorf("report = %+v", r)
	}
}

func TestPlan_badAnnotation(t *testing.T) {
	st := fixtureState(t, "kubectl-csa")
	ann := st.Object.GetAnnotations()
	ann[LastAppliedAnnotation] = "{not json"
	st.Object.SetAnnotations(ann)
	_, err := BuildPlan(st)
	if err == nil || !strings.Contains(err.Error(), `deployments.apps "kubectl-csa" in namespace "mig-scratch"`) ||
		!strings.Contains(err.Error(), "edit-last-applied") {
		t.Errorf("err = %v", err)
	}
}
