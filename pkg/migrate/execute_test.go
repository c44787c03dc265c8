// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

// fakeClients serves obj through a fake dynamic client; allowed answers the
// SelfSubjectAccessReview.
func fakeClients(t *testing.T, obj *unstructured.Unstructured, allowed bool) (*Clients, *dynamicfake.FakeDynamicClient) {
	t.Helper()
	dyn := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme(), obj.DeepCopy())
	kube := kubefake.NewClientset()
	kube.PrependReactor("create", "selfsubjectaccessreviews", func(a clienttesting.Action) (bool, runtime.Object, error) {
		r := a.(clienttesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		if r.Spec.ResourceAttributes.Verb != "patch" || r.Spec.ResourceAttributes.Resource != "deployments" {
			t.Errorf("access review = %+v", r.Spec.ResourceAttributes)
		}
		r = r.DeepCopy()
		r.Status.Allowed = allowed
		if !allowed {
			r.Status.Reason = "no RBAC policy matched"
		}
		return true, r, nil
	})
	return &Clients{Dynamic: dyn, Kube: kube}, dyn
}

func patches(dyn *dynamicfake.FakeDynamicClient) []clienttesting.PatchAction {
	var out []clienttesting.PatchAction
	for _, a := range dyn.Actions() {
		if p, ok := a.(clienttesting.PatchAction); ok {
			out = append(out, p)
		}
	}
	return out
}

// The client-side flow: one merge patch of the annotation, verified.
func TestExecute_lastApplied(t *testing.T) {
	st := fixtureState(t, "kubectl-csa")
	r, err := BuildPlan(st)
	if err != nil {
		t.Fatal(err)
	}
	c, dyn := fakeClients(t, st.Object, true)
	if err := Execute(context.Background(), c, st, r, ExecuteOptions{}); err != nil {
		t.Fatal(err)
	}
	ps := patches(dyn)
	if len(ps) != 1 || ps[0].GetPatchType() != types.MergePatchType {
		t.Fatalf("patches = %+v", ps)
	}
	if r.Outcome != OutcomeMigrated || r.Steps[0].Result != ResultDone || r.Verification == nil || !r.Verification.OK {
		t.Errorf("outcome %q, step %+v, verification %+v", r.Outcome, r.Steps[0], r.Verification)
	}
	got, err := dyn.Resource(st.Target.Resource).Namespace(st.Target.Namespace).Get(context.Background(), st.Target.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ann := got.GetAnnotations()[LastAppliedAnnotation]; ann != r.Steps[0].After {
		t.Errorf("annotation = %s", ann)
	}
	if n, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas"); n != 4 {
		t.Errorf("replicas = %d", n)
	}
}

// The server-side flow: apply (simulated: the fake has no field manager),
// then the JSON patch of managedFields, computed from the apply's response.
func TestExecute_handOver(t *testing.T) {
	st := fixtureState(t, "kubectl-ssa")
	r, err := BuildPlan(st)
	if err != nil {
		t.Fatal(err)
	}
	c, dyn := fakeClients(t, st.Object, true)
	gvr := st.Target.Resource
	dyn.PrependReactor("patch", "deployments", func(a clienttesting.Action) (bool, runtime.Object, error) {
		p := a.(clienttesting.PatchAction)
		if p.GetPatchType() != types.ApplyPatchType {
			return false, nil, nil
		}
		obj, err := dyn.Tracker().Get(gvr, p.GetNamespace(), p.GetName())
		if err != nil {
			return true, nil, err
		}
		u := obj.(*unstructured.Unstructured).DeepCopy()
		mf := append(u.GetManagedFields(), metav1.ManagedFieldsEntry{
			Manager: FieldManager, Operation: metav1.ManagedFieldsOperationApply, APIVersion: "apps/v1",
			FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:replicas":{}}}`),
		})
		u.SetManagedFields(mf)
		u.SetResourceVersion("2000")
		if err := dyn.Tracker().Update(gvr, u, u.GetNamespace()); err != nil {
			return true, nil, err
		}
		return true, u, nil
	})
	if err := Execute(context.Background(), c, st, r, ExecuteOptions{}); err != nil {
		t.Fatal(err)
	}
	ps := patches(dyn)
	if len(ps) != 2 || ps[0].GetPatchType() != types.ApplyPatchType || ps[1].GetPatchType() != types.JSONPatchType {
		t.Fatalf("patches = %+v", ps)
	}
	var ops []struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(ps[1].GetPatch(), &ops); err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].Path != "/metadata/resourceVersion" || string(ops[0].Value) != `"2000"` || ops[1].Path != "/metadata/managedFields" {
		t.Fatalf("JSON patch = %s", ps[1].GetPatch())
	}
	if !r.Verification.OK || r.Outcome != OutcomeMigrated {
		t.Errorf("verification %+v", r.Verification)
	}
	if got := strings.Join(r.Verification.Owners, ","); got != "kubectl-hpa-migrate (Apply)" {
		t.Errorf("owners after = %q", got)
	}
	// kubectl's entry keeps every other field.
	got, _ := dyn.Tracker().Get(gvr, st.Target.Namespace, st.Target.Name)
	for _, e := range got.(*unstructured.Unstructured).GetManagedFields() {
		if raw := e.FieldsV1.GetRawString(); e.Manager == "kubectl" && (!strings.Contains(raw, `"f:selector"`) || strings.Contains(raw, `"f:replicas"`)) {
			t.Errorf("kubectl's entry = %s", raw)
		}
	}
	// A second run has nothing to do and writes nothing.
	st2 := &State{Target: st.Target, Object: got.(*unstructured.Unstructured), HPA: st.HPA}
	r2, err := BuildPlan(st2)
	if err != nil {
		t.Fatal(err)
	}
	if err := Execute(context.Background(), c, st2, r2, ExecuteOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(r2.Steps) != 0 || r2.Outcome != OutcomeNothingToDo || len(patches(dyn)) != 2 {
		t.Errorf("second run: steps %d, outcome %q, %d patches", len(r2.Steps), r2.Outcome, len(patches(dyn)))
	}
}

func TestExecute_resourceVersionConflict(t *testing.T) {
	st := fixtureState(t, "kubectl-csa")
	r, _ := BuildPlan(st)
	c, dyn := fakeClients(t, st.Object, true)
	dyn.PrependReactor("patch", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(schema.GroupResource{Group: "apps", Resource: "deployments"}, "kubectl-csa",
			errorString("the object has been modified; please apply your changes to the latest version and try again"))
	})
	err := Execute(context.Background(), c, st, r, ExecuteOptions{})
	want := `step 1 (rewrite-last-applied): deployments.apps "kubectl-csa" in namespace "mig-scratch" changed since it was read (resourceVersion precondition failed), so the step wrote nothing; nothing was written; run kubectl hpa migrate again`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestExecute_forbidden(t *testing.T) {
	st := fixtureState(t, "kubectl-csa")
	r, _ := BuildPlan(st)
	c, dyn := fakeClients(t, st.Object, false)
	err := Execute(context.Background(), c, st, r, ExecuteOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), `not allowed to patch deployments.apps "kubectl-csa" in namespace "mig-scratch" (no RBAC policy matched)`) {
		t.Errorf("err = %v", err)
	}
	if len(patches(dyn)) != 0 {
		t.Errorf("patched although not allowed")
	}
	// Without an access review, the write's own 403 is reported.
	c.Kube = nil
	dyn.PrependReactor("patch", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "kubectl-csa", errorString("denied"))
	})
	err = Execute(context.Background(), c, st, r, ExecuteOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), `step 1 (rewrite-last-applied): not allowed to patch deployments.apps "kubectl-csa"`) {
		t.Errorf("err = %v", err)
	}
}

// The HPA writes the field between the read and the apply: the apply
// conflicts with kube-controller-manager, and there is nothing left to do.
func TestExecute_hpaWinsTheRace(t *testing.T) {
	st := fixtureState(t, "kubectl-ssa")
	r, _ := BuildPlan(st)
	c, dyn := fakeClients(t, st.Object, true)
	gvr := st.Target.Resource
	dyn.PrependReactor("patch", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		obj, _ := dyn.Tracker().Get(gvr, st.Target.Namespace, st.Target.Name)
		u := obj.(*unstructured.Unstructured).DeepCopy()
		_ = unstructured.SetNestedField(u.Object, int64(5), "spec", "replicas")
		var mf []metav1.ManagedFieldsEntry
		for _, e := range u.GetManagedFields() {
			if e.Manager == "kubectl" {
				rest, _, _ := withoutPath(e.FieldsV1.GetRawBytes(), []string{"spec", "replicas"})
				e.FieldsV1 = metav1.NewFieldsV1(string(rest))
			}
			mf = append(mf, e)
		}
		mf = append(mf, metav1.ManagedFieldsEntry{
			Manager: HPAControllerManager, Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "scale", APIVersion: "apps/v1",
			FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:replicas":{}}}`),
		})
		u.SetManagedFields(mf)
		_ = dyn.Tracker().Update(gvr, u, u.GetNamespace())
		conflict := apierrors.NewConflict(schema.GroupResource{Group: "apps", Resource: "deployments"}, "kubectl-ssa-fresh", errorString("Apply failed with 1 conflict"))
		conflict.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: metav1.CauseTypeFieldManagerConflict, Message: `conflict with "kube-controller-manager" using apps/v1`, Field: ".spec.replicas"}}
		return true, nil, conflict
	})
	if err := Execute(context.Background(), c, st, r, ExecuteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Steps {
		if s.Result != ResultSkipped {
			t.Errorf("step %d: %q", s.Number, s.Result)
		}
	}
	if !r.Verification.OK || *r.Verification.Replicas != 5 {
		t.Errorf("verification = %+v", r.Verification)
	}
}

// Another writer (kubectl scale) sets the field between the read and the
// apply, and the API server answers the apply with the field conflict: the
// object is read again, and the error names the writer and its value.
func TestExecute_secondWriterWinsTheRace(t *testing.T) {
	st := fixtureState(t, "kubectl-ssa")
	r, _ := BuildPlan(st)
	c, dyn := fakeClients(t, st.Object, true)
	gvr := st.Target.Resource
	dyn.PrependReactor("patch", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		obj, _ := dyn.Tracker().Get(gvr, st.Target.Namespace, st.Target.Name)
		u := obj.(*unstructured.Unstructured).DeepCopy()
		_ = unstructured.SetNestedField(u.Object, int64(1), "spec", "replicas")
		u.SetManagedFields(append(u.GetManagedFields(), metav1.ManagedFieldsEntry{
			Manager: "kubectl", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "scale", APIVersion: "apps/v1",
			FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:replicas":{}}}`),
		}))
		_ = dyn.Tracker().Update(gvr, u, u.GetNamespace())
		conflict := apierrors.NewConflict(schema.GroupResource{Group: "apps", Resource: "deployments"}, st.Target.Name, errorString("Apply failed with 1 conflict"))
		conflict.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: metav1.CauseTypeFieldManagerConflict, Message: `conflict with "kubectl" with subresource "scale"`, Field: ".spec.replicas"}}
		return true, nil, conflict
	})
	err := Execute(context.Background(), c, st, r, ExecuteOptions{})
	var sw *SecondWriterError
	if !errors.As(err, &sw) {
		t.Fatalf("err = %v, want a *SecondWriterError", err)
	}
	want := "kubectl (Update, subresource scale) set spec.replicas to 1 (it was 3); migrate stopped before step 1 (apply-replicas)"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v\nwant it to hold %s", err, want)
	}
	if len(patches(dyn)) != 1 {
		t.Errorf("%d patches, want the one refused", len(patches(dyn)))
	}
}

// FindSecondWrite tells a write of the field from one of migrate or the
// HPA controller, and from a write to other fields.
func TestFindSecondWrite(t *testing.T) {
	st := fixtureState(t, "kubectl-csa")
	entry := func(manager string, op metav1.ManagedFieldsOperationType, sub string, sec int) metav1.ManagedFieldsEntry {
		return metav1.ManagedFieldsEntry{
			Manager: manager, Operation: op, Subresource: sub, APIVersion: "apps/v1",
			Time:       &metav1.Time{Time: time.Date(2026, 12, 1, 0, 0, sec, 0, time.UTC)},
			FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:replicas":{}}}`),
		}
	}
	for _, tc := range []struct {
		name string
		// base, when set, changes the object read first.
		base, change func(u *unstructured.Unstructured)
		want         string
	}{
		{"a label", nil, func(u *unstructured.Unstructured) { u.SetLabels(map[string]string{"x": "y"}) }, ""},
		{"the HPA controller scales", nil, func(u *unstructured.Unstructured) {
			_ = unstructured.SetNestedField(u.Object, int64(7), "spec", "replicas")
			u.SetManagedFields(append(u.GetManagedFields(), entry(HPAControllerManager, metav1.ManagedFieldsOperationUpdate, "scale", 1)))
		}, ""},
		{"migrate co-owns", nil, func(u *unstructured.Unstructured) {
			u.SetManagedFields(append(u.GetManagedFields(), entry(FieldManager, metav1.ManagedFieldsOperationApply, "", 1)))
		}, ""},
		{"kubectl scale", nil, func(u *unstructured.Unstructured) {
			_ = unstructured.SetNestedField(u.Object, int64(2), "spec", "replicas")
			u.SetManagedFields(append(u.GetManagedFields(), entry("kubectl", metav1.ManagedFieldsOperationUpdate, "scale", 1)))
		}, "kubectl (Update, subresource scale) set spec.replicas to 2 (it was 4)"},
		{"the HPA and kubectl scale", nil, func(u *unstructured.Unstructured) {
			_ = unstructured.SetNestedField(u.Object, int64(2), "spec", "replicas")
			u.SetManagedFields(append(u.GetManagedFields(), entry(HPAControllerManager, metav1.ManagedFieldsOperationUpdate, "scale", 1), entry("kubectl", metav1.ManagedFieldsOperationUpdate, "scale", 2)))
		}, "kubectl (Update, subresource scale) set spec.replicas to 2 (it was 4)"},
		// An owner writing again without the time of its entry changing
		// (the API server leaves it out of some entries): every owner is a
		// suspect, and the HPA controller, the only owner here, is expected.
		{"a value changed under the HPA controller's entry", nil, func(u *unstructured.Unstructured) {
			_ = unstructured.SetNestedField(u.Object, int64(9), "spec", "replicas")
		}, ""},
		{"a value changed under another owner's entry", func(u *unstructured.Unstructured) {
			mf := u.GetManagedFields()
			mf[0].Manager, mf[0].Subresource = "ci-bot", ""
			u.SetManagedFields(mf)
		}, func(u *unstructured.Unstructured) {
			_ = unstructured.SetNestedField(u.Object, int64(9), "spec", "replicas")
		}, "ci-bot (Update) set spec.replicas to 9 (it was 4)"},
		{"the field removed", nil, func(u *unstructured.Unstructured) {
			unstructured.RemoveNestedField(u.Object, "spec", "replicas")
			u.SetManagedFields(nil)
		}, "someone no managedFields entry names removed spec.replicas (it was 4)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := st.Object.DeepCopy()
			if tc.base != nil {
				tc.base(before)
			}
			after := before.DeepCopy()
			tc.change(after)
			w, err := FindSecondWrite(st.Target, before, after)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if w != nil {
				got = w.describe(st.Target.PathString())
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestExecute_dryRun(t *testing.T) {
	st := fixtureState(t, "kubectl-csa")
	r, _ := BuildPlan(st)
	c, dyn := fakeClients(t, st.Object, true)
	var opts metav1.PatchOptions
	dyn.PrependReactor("patch", "deployments", func(a clienttesting.Action) (bool, runtime.Object, error) {
		opts = a.(clienttesting.PatchActionImpl).GetPatchOptions()
		u := st.Object.DeepCopy()
		ann := u.GetAnnotations()
		ann[LastAppliedAnnotation] = r.Steps[0].After
		u.SetAnnotations(ann)
		return true, u, nil
	})
	if err := Execute(context.Background(), c, st, r, ExecuteOptions{DryRun: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(opts.DryRun, ",") != metav1.DryRunAll || opts.FieldManager != FieldManager || !r.Steps[0].Request.DryRun || r.Steps[0].Result != ResultDryRun || r.Outcome != OutcomeDryRun || !r.Verification.OK {
		t.Errorf("dry run: %+v %+v", r.Steps[0], r.Verification)
	}
	// Nothing was read back: a dry run is verified on the responses.
	for _, a := range dyn.Actions() {
		if a.GetVerb() == "get" {
			t.Errorf("dry run read the object back")
		}
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }
