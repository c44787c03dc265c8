// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/migrate"
)

var deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

// write is one change of spec.replicas the simulated API server made.
type write struct {
	by             string
	before, after  int64
	beforeOK, isOK bool
}

// apiSim makes the fake dynamic client's patches of one Deployment behave
// as the API server's do for migrate, which the fake's object tracker does
// not: a write whose resourceVersion is not the object's is refused with a
// 409, every write gives the object a new resourceVersion, and a
// server-side apply of spec.replicas makes its manager a co-owner at the
// same value (a field conflict at another). Other writers are simulated
// with scale. Every write to spec.replicas is recorded.
type apiSim struct {
	t        *testing.T
	dyn      *dynamicfake.FakeDynamicClient
	ns, name string
	rv       int
	clock    time.Time
	writes   []write
	// patches counts migrate's patches, refused or not.
	patches int
	// before runs before the n-th patch is looked at (1-based), after
	// once it is written: the second writer's hooks. kill, when it gives
	// an error for the n-th patch, ends the run there: before the write
	// reaches the server (killBefore), or after it was written and before
	// the answer came back.
	before, after func(n int)
	kill          func(n int) (afterWrite bool, err error)
}

func newAPISim(t *testing.T, dyn *dynamicfake.FakeDynamicClient, obj *unstructured.Unstructured) *apiSim {
	t.Helper()
	rv, err := strconv.Atoi(obj.GetResourceVersion())
	if err != nil {
		t.Fatal(err)
	}
	s := &apiSim{t: t, dyn: dyn, ns: obj.GetNamespace(), name: obj.GetName(), rv: rv, clock: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	dyn.PrependReactor("patch", "deployments", s.patch)
	return s
}

func (s *apiSim) get() *unstructured.Unstructured {
	s.t.Helper()
	o, err := s.dyn.Tracker().Get(deploymentsGVR, s.ns, s.name)
	if err != nil {
		s.t.Fatal(err)
	}
	return o.(*unstructured.Unstructured).DeepCopy()
}

// store saves u with a new resourceVersion, recording the change of
// spec.replicas from old by who.
func (s *apiSim) store(who string, old, u *unstructured.Unstructured) *unstructured.Unstructured {
	s.t.Helper()
	s.rv++
	u.SetResourceVersion(strconv.Itoa(s.rv))
	if err := s.dyn.Tracker().Update(deploymentsGVR, u, s.ns); err != nil {
		s.t.Fatal(err)
	}
	b, bok, _ := unstructured.NestedInt64(old.Object, "spec", "replicas")
	a, aok, _ := unstructured.NestedInt64(u.Object, "spec", "replicas")
	if b != a || bok != aok {
		s.writes = append(s.writes, write{by: who, before: b, after: a, beforeOK: bok, isOK: aok})
	}
	return u
}

// tick is the time of the next managedFields entry change.
func (s *apiSim) tick() *metav1.Time {
	s.clock = s.clock.Add(time.Second)
	return &metav1.Time{Time: s.clock}
}

// scale is another writer setting spec.replicas to n: an update (kubectl
// scale, a client-side apply, the HPA controller through the scale
// subresource) takes the field from every other owner when it changes it;
// an apply at the same value makes the manager a co-owner.
func (s *apiSim) scale(n int64, manager string, op metav1.ManagedFieldsOperationType, subresource string) {
	s.t.Helper()
	old := s.get()
	u := old.DeepCopy()
	cur, _, _ := unstructured.NestedInt64(u.Object, "spec", "replicas")
	if err := unstructured.SetNestedField(u.Object, n, "spec", "replicas"); err != nil {
		s.t.Fatal(err)
	}
	var mf []metav1.ManagedFieldsEntry
	for _, e := range u.GetManagedFields() {
		if e.Manager == manager && e.Operation == op && e.Subresource == subresource {
			continue
		}
		if cur != n && op == metav1.ManagedFieldsOperationUpdate {
			if rest, ok := dropReplicas(s.t, e.FieldsV1); ok {
				e.FieldsV1 = rest
			} else {
				continue
			}
		}
		mf = append(mf, e)
	}
	mf = append(mf, metav1.ManagedFieldsEntry{
		Manager: manager, Operation: op, Subresource: subresource, APIVersion: "apps/v1", Time: s.tick(),
		FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:replicas":{}}}`),
	})
	u.SetManagedFields(mf)
	s.store(manager, old, u)
}

// touch is a write to the status only (the Deployment controller's).
func (s *apiSim) touch() {
	old := s.get()
	u := old.DeepCopy()
	g, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	_ = unstructured.SetNestedField(u.Object, g+1, "status", "observedGeneration")
	s.store("status", old, u)
}

// dropReplicas is the field set without spec.replicas, and whether any
// field is left.
func dropReplicas(t *testing.T, f *metav1.FieldsV1) (*metav1.FieldsV1, bool) {
	t.Helper()
	if f == nil {
		return nil, true
	}
	var set map[string]any
	if err := json.Unmarshal(f.GetRawBytes(), &set); err != nil {
		t.Fatal(err)
	}
	if spec, ok := set["f:spec"].(map[string]any); ok {
		delete(spec, "f:replicas")
		if len(spec) == 0 {
			delete(set, "f:spec")
		}
	}
	if len(set) == 0 {
		return nil, false
	}
	b, _ := json.Marshal(set)
	return metav1.NewFieldsV1(string(b)), true
}

// patchRV is the resourceVersion a patch of migrate carries as its
// precondition.
func patchRV(t *testing.T, p clienttesting.PatchAction) string {
	t.Helper()
	if p.GetPatchType() == types.JSONPatchType {
		var ops []struct {
			Path  string `json:"path"`
			Value any    `json:"value"`
		}
		if err := json.Unmarshal(p.GetPatch(), &ops); err != nil {
			t.Fatal(err)
		}
		for _, op := range ops {
			if op.Path == "/metadata/resourceVersion" {
				v, _ := op.Value.(string)
				return v
			}
		}
		return ""
	}
	var doc struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(p.GetPatch(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Metadata.ResourceVersion
}

func (s *apiSim) patch(a clienttesting.Action) (bool, runtime.Object, error) {
	p := a.(clienttesting.PatchActionImpl)
	s.patches++
	n := s.patches
	if s.before != nil {
		s.before(n)
	}
	var afterWrite bool
	var killed error
	if s.kill != nil {
		if afterWrite, killed = s.kill(n); killed != nil && !afterWrite {
			return true, nil, killed
		}
	}
	old := s.get()
	rv := patchRV(s.t, p)
	if rv == "" {
		s.t.Errorf("patch %d (%s) carries no resourceVersion: %s", n, p.GetPatchType(), p.GetPatch())
	}
	if rv != old.GetResourceVersion() {
		return true, nil, apierrors.NewConflict(deploymentsGVR.GroupResource(), s.name,
			errors.New("the object has been modified; please apply your changes to the latest version and try again"))
	}
	var u *unstructured.Unstructured
	if p.GetPatchType() == types.ApplyPatchType {
		var body unstructured.Unstructured
		if err := body.UnmarshalJSON(p.GetPatch()); err != nil {
			s.t.Fatal(err)
		}
		want, _, _ := unstructured.NestedInt64(body.Object, "spec", "replicas")
		cur, _, _ := unstructured.NestedInt64(old.Object, "spec", "replicas")
		if want != cur {
			conflict := apierrors.NewConflict(deploymentsGVR.GroupResource(), s.name, errors.New("Apply failed with 1 conflict"))
			conflict.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: metav1.CauseTypeFieldManagerConflict, Field: ".spec.replicas"}}
			return true, nil, conflict
		}
		u = old.DeepCopy()
		u.SetManagedFields(append(u.GetManagedFields(), metav1.ManagedFieldsEntry{
			Manager: p.GetPatchOptions().FieldManager, Operation: metav1.ManagedFieldsOperationApply, APIVersion: "apps/v1", Time: s.tick(),
			FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:replicas":{}}}`),
		}))
	} else {
		_, obj, err := clienttesting.ObjectReaction(s.dyn.Tracker())(p)
		if err != nil {
			return true, nil, err
		}
		u = obj.(*unstructured.Unstructured).DeepCopy()
	}
	u = s.store(migrate.FieldManager, old, u)
	if s.after != nil {
		s.after(n)
	}
	if killed != nil {
		return true, nil, killed
	}
	return true, u, nil
}

// neverLowered fails when a write of migrate lowered spec.replicas or
// unset it.
func (s *apiSim) neverLowered() {
	s.t.Helper()
	for _, w := range s.writes {
		if w.by == migrate.FieldManager && (w.after < w.before || !w.isOK) {
			s.t.Errorf("migrate wrote spec.replicas %d (set %v) over %d: %+v", w.after, w.isOK, w.before, s.writes)
		}
	}
}

func replicasOf(t *testing.T, s *apiSim) int64 {
	t.Helper()
	n, _, _ := unstructured.NestedInt64(s.get().Object, "spec", "replicas")
	return n
}

// A second writer of spec.replicas while migrate runs (a CI job's kubectl
// scale, an apply of the manifest that still sets it): the write that
// follows it is refused by its resourceVersion precondition (or, for the
// apply, by the field conflict), migrate reads the object again, sees
// who set the field and stops with one line naming them and the value,
// never writing a count of its own. The HPA controller's write, and one
// to the status, are expected: migrate plans again and finishes.
func TestMigrate_secondWriter(t *testing.T) {
	const (
		update = metav1.ManagedFieldsOperationUpdate
		apply  = metav1.ManagedFieldsOperationApply
	)
	for _, tc := range []struct {
		name    string
		fixture string
		// at is the patch before which (or, with afterStep, after which)
		// the other writer writes.
		at        int
		afterStep bool
		other     func(s *apiSim)
		// want is "" when migrate finishes.
		want     []string
		wantWarn string
		// wantReplicas is the count at the end.
		wantReplicas int64
	}{
		{
			name: "kubectl scale between the read and the first write", fixture: "kubectl-ssa", at: 1,
			other: func(s *apiSim) { s.scale(2, "kubectl", update, "scale") },
			want: []string{
				`deployments.apps "kubectl-ssa-fresh" in namespace "mig-scratch": another writer changed spec.replicas while migrate ran: kubectl (Update, subresource scale) set spec.replicas to 2 (it was 3); migrate stopped before step 1 (apply-replicas) and never wrote a replica count of its own: nothing was written;`,
			},
			wantReplicas: 2,
		},
		{
			name: "an apply of the manifest with replicas: 5 between the read and the first write (client-side)", fixture: "kubectl-csa", at: 1,
			other: func(s *apiSim) { s.scale(5, "kubectl-client-side-apply", update, "") },
			want:  []string{`kubectl-client-side-apply (Update) set spec.replicas to 5 (it was 4); migrate stopped before step 1 (rewrite-last-applied)`},
			// Raised, and kept: migrate lowers nothing.
			wantReplicas: 5,
		},
		{
			name: "kubectl scale between step 1 and step 2", fixture: "kubectl-ssa", at: 1, afterStep: true,
			other:        func(s *apiSim) { s.scale(1, "kubectl", update, "scale") },
			want:         []string{`kubectl (Update, subresource scale) set spec.replicas to 1 (it was 3); migrate stopped before step 2 (release-ownership) and never wrote a replica count of its own: step 1 was written, safe on its own;`},
			wantReplicas: 1,
		},
		{
			name: "a server-side applier takes the field over at its value", fixture: "kubectl-csa", at: 1,
			other:        func(s *apiSim) { s.scale(4, "argocd-controller", apply, "") },
			want:         []string{`argocd-controller (Apply) took spec.replicas over at its value, 4; migrate stopped before step 1`},
			wantReplicas: 4,
		},
		{
			name: "kubectl scale after the last step", fixture: "kubectl-ssa", at: 2, afterStep: true,
			other: func(s *apiSim) { s.scale(2, "kubectl", update, "scale") },
			want: []string{
				`verification of Deployment mig-scratch/kubectl-ssa-fresh failed after the steps: after the last step, kubectl (Update, subresource scale) set spec.replicas to 2 (it was 3); spec.replicas is 2, lower than the 3 read before the first step`,
				`after the last step, kubectl (Update, subresource scale) set spec.replicas to 2 (it was 3)`,
			},
			wantReplicas: 2,
		},
		{
			name: "the HPA controller scales between the read and the first write", fixture: "kubectl-ssa", at: 1,
			other:    func(s *apiSim) { s.scale(6, migrate.HPAControllerManager, update, "scale") },
			wantWarn: "changed between the read and the write 1 time(s) (step 1 refused, nothing written",
			// It owns the field now: nothing left to hand over.
			wantReplicas: 6,
		},
		{
			name: "the HPA controller scales between step 1 and step 2", fixture: "kubectl-ssa", at: 1, afterStep: true,
			other:        func(s *apiSim) { s.scale(5, migrate.HPAControllerManager, update, "scale") },
			wantWarn:     "changed between the read and the write 1 time(s) (step 2 refused, the steps before it written",
			wantReplicas: 5,
		},
		{
			name: "a status update between the read and the first write", fixture: "kubectl-csa", at: 1,
			other:        (*apiSim).touch,
			wantWarn:     "changed between the read and the write 1 time(s)",
			wantReplicas: 4,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, obj, dyn := fakeCluster(t, tc.fixture, true)
			s := newAPISim(t, dyn, obj)
			hook := func(n int) {
				if n == tc.at {
					tc.other(s)
				}
			}
			if tc.afterStep {
				s.after = hook
			} else {
				s.before = hook
			}
			out, _, err := runMigrate(t, c, "deployment/"+obj.GetName(), "-n", obj.GetNamespace(), "--apply", "-o", "json")
			s.neverLowered()
			if got := replicasOf(t, s); got != tc.wantReplicas {
				t.Errorf("spec.replicas = %d, want %d (writes %+v)", got, tc.wantReplicas, s.writes)
			}
			if len(tc.want) > 0 {
				if err == nil {
					t.Fatalf("no error; writes %+v\n%s", s.writes, out)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error:\n%v\nwant it to hold:\n%s", err, w)
					}
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("error of more than one line: %q", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v (writes %+v)", err, s.writes)
			}
			var r migrate.Report
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("%v:\n%s", err, out)
			}
			if (r.Outcome != migrate.OutcomeMigrated && r.Outcome != migrate.OutcomeNothingToDo) || (r.Verification != nil && !r.Verification.OK) {
				t.Errorf("outcome %q, verification %+v", r.Outcome, r.Verification)
			}
			if w := strings.Join(r.Warnings, "\n"); !strings.Contains(w, tc.wantWarn) {
				t.Errorf("warnings = %q, want %q", w, tc.wantWarn)
			}
		})
	}
}

// killFixture is the Deployment of fixture, with add applied: a run of
// migrate on it takes steps steps.
type killFixture struct {
	fixture string
	steps   int
	add     func(*unstructured.Unstructured)
}

// migrate killed at each step and run again from the start: the rerun
// finishes (verified), a third run has nothing to do, and no write of
// either run lowered the count. A kill before a write leaves the object as
// the step before left it; a kill after it (the answer lost) leaves the
// step written, with a run that believes it failed.
func TestMigrate_killedAtEachStep(t *testing.T) {
	for _, kf := range []killFixture{
		{fixture: "kubectl-csa", steps: 1},
		{fixture: "ssa-coowned", steps: 1},
		{fixture: "kubectl-ssa", steps: 2},
		{fixture: "kubectl-ssa", steps: 3, add: func(u *unstructured.Unstructured) {
			// kubectl applied it client-side before moving to
			// server-side apply: the annotation still sets the field.
			u.SetAnnotations(map[string]string{migrate.LastAppliedAnnotation: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"kubectl-ssa","namespace":"mig-scratch"},"spec":{"replicas":3}}` + "\n"})
		}},
	} {
		for k := 1; k <= kf.steps; k++ {
			for _, afterWrite := range []bool{false, true} {
				name := fmt.Sprintf("%s, %d steps, killed before step %d", kf.fixture, kf.steps, k)
				if afterWrite {
					name = fmt.Sprintf("%s, %d steps, killed after step %d was written", kf.fixture, kf.steps, k)
				}
				t.Run(name, func(t *testing.T) {
					_, obj, _ := fakeCluster(t, kf.fixture, true)
					if kf.add != nil {
						kf.add(obj)
					}
					c, dyn := fakeClusterOf(t, obj, true)
					s := newAPISim(t, dyn, obj)
					start := replicasOf(t, s)
					killed := errors.New("killed")
					s.kill = func(n int) (bool, error) {
						if n == k {
							return afterWrite, killed
						}
						return false, nil
					}
					args := []string{"deployment/" + obj.GetName(), "-n", obj.GetNamespace(), "--apply", "-o", "json"}
					if _, _, err := runMigrate(t, c, args...); err == nil || !strings.Contains(err.Error(), "killed") {
						t.Fatalf("first run: %v", err)
					}
					if s.patches != k {
						t.Errorf("the killed run sent %d patches, want %d", s.patches, k)
					}
					s.kill = nil
					for run, want := range []migrate.Outcome{migrate.OutcomeMigrated, migrate.OutcomeNothingToDo} {
						if run == 0 && afterWrite && k == kf.steps {
							// The last step was written: the hand-over is done.
							want = migrate.OutcomeNothingToDo
						}
						out, _, err := runMigrate(t, c, args...)
						if err != nil {
							t.Fatalf("run %d after the kill: %v", run+1, err)
						}
						var r migrate.Report
						if err := json.Unmarshal([]byte(out), &r); err != nil {
							t.Fatalf("%v:\n%s", err, out)
						}
						if r.Outcome != want || (r.Verification != nil && !r.Verification.OK) {
							t.Errorf("run %d after the kill: outcome %q, want %q; verification %+v", run+1, r.Outcome, want, r.Verification)
						}
					}
					if got := replicasOf(t, s); got != start {
						t.Errorf("spec.replicas = %d, want %d", got, start)
					}
					s.neverLowered()
				})
			}
		}
	}
}
