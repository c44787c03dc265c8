// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// ExecuteOptions tune Execute.
type ExecuteOptions struct {
	// DryRun sends every write with dryRun=All: the API server admits and
	// validates it and persists nothing.
	DryRun bool
}

// Execute carries out the steps of r, in order, each with a resourceVersion
// precondition, then reads the object back and verifies it (r.Verification).
// It refuses before writing anything when the user may not patch the
// object. A failed step stops the run; the steps before it are each safe on
// their own, and running migrate again continues from there.
func Execute(ctx context.Context, c *Clients, st *State, r *Report, opts ExecuteOptions) error {
	t := st.Target
	r.Mode = ModeApply
	if opts.DryRun {
		r.Mode = ModeDryRun
	}
	if len(r.Steps) == 0 {
		r.Outcome = OutcomeNothingToDo
		return nil
	}
	if err := checkPatchAllowed(ctx, c, t); err != nil {
		return err
	}
	var dryRun []string
	if opts.DryRun {
		dryRun = []string{metav1.DryRunAll}
	}
	res := c.Dynamic.Resource(t.Resource).Namespace(t.Namespace)
	cur := st.Object
	done := ResultDone
	if opts.DryRun {
		done = ResultDryRun
	}
	for i := range r.Steps {
		s := &r.Steps[i]
		s.Request.DryRun = opts.DryRun
		rv := cur.GetResourceVersion()
		var (
			body []byte
			pt   types.PatchType
			po   = metav1.PatchOptions{FieldManager: FieldManager, DryRun: dryRun}
			err  error
		)
		switch s.Action {
		case ActionRewriteLastApplied:
			pt = types.MergePatchType
			body, err = lastAppliedPatch(rv, s.After)
		case ActionApplyReplicas:
			pt = types.ApplyPatchType
			po.Force = new(bool)
			body, err = applyBody(cur, t.ReplicasPath, *r.Target.Replicas, rv)
		case ActionReleaseOwnership:
			pt = types.JSONPatchType
			body, err = releasePatch(cur, t.ReplicasPath, rv)
		default:
			err = fmt.Errorf("unknown step action %q", s.Action)
		}
		if err != nil {
			return fmt.Errorf("step %d (%s): %w", s.Number, s.Action, err)
		}
		s.Request.Body = body
		s.Request.Precondition = "resourceVersion " + rv
		out, err := res.Patch(ctx, t.Name, pt, body, po)
		if err != nil {
			if s.Action == ActionApplyReplicas && isFieldConflict(err) {
				// The value changed between the read and the apply: the
				// precondition would have caught a change of the object, so
				// this is a manager that owns the field with another value.
				// If it is the HPA, it took the field over: nothing left to do;
				// if it is anyone else, they are named.
				skipped, rerr := hpaTookOver(ctx, c, t, r, i, cur)
				if rerr != nil {
					return rerr
				}
				if skipped {
					break
				}
			}
			return stepError(t, r, s, cur, err)
		}
		s.Result = done
		cur = out
	}
	r.Outcome = OutcomeMigrated
	if opts.DryRun {
		r.Outcome = OutcomeDryRun
	} else {
		fresh, err := res.Get(ctx, t.Name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("read %s back to verify it: %w", t.describe(), err)
		}
		second, err := FindSecondWrite(t, cur, fresh)
		if err != nil {
			return err
		}
		cur = fresh
		if second != nil {
			r.Verification = verify(cur, t, r)
			r.Verification.OK = false
			// The cause first: the problems it explains follow.
			r.Verification.Problems = append([]string{"after the last step, " + second.describe(t.PathString())}, r.Verification.Problems...)
			r.Outcome = OutcomeFailed
			return nil
		}
	}
	r.Verification = verify(cur, t, r)
	if !r.Verification.OK {
		r.Outcome = OutcomeFailed
	}
	return nil
}

// hpaTookOver re-reads the object after a field conflict of step i, whose
// write was based on cur. When the HPA controller owns the field now, the
// remaining steps are marked skipped; when another writer changed it, the
// error names them. Otherwise (the re-read failed, or it shows nothing
// new) the conflict itself is the answer: false and no error.
func hpaTookOver(ctx context.Context, c *Clients, t *Target, r *Report, i int, cur *unstructured.Unstructured) (bool, error) {
	obj, err := c.Dynamic.Resource(t.Resource).Namespace(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
	if err != nil {
		return false, nil
	}
	owners, err := ReplicaOwners(obj.GetManagedFields(), t.ReplicasPath)
	if err != nil {
		return false, nil
	}
	if !hasRole(owners, RoleHPA) {
		if w, err := FindSecondWrite(t, cur, obj); err == nil && w != nil {
			return false, newSecondWriterError(t, r, r.Steps[i].Number, w)
		}
		return false, nil
	}
	for j := i; j < len(r.Steps); j++ {
		r.Steps[j].Result = ResultSkipped
		r.Steps[j].Note = "the HPA controller wrote " + t.PathString() + " meanwhile and owns it now: nothing left to hand over"
	}
	return true, nil
}

// releasePatch is the JSON patch of step release-ownership: the
// resourceVersion as a precondition, and the managedFields of cur with the
// field removed from every applier other than FieldManager. Entries left
// without any field are dropped, as the API server does itself.
func releasePatch(cur *unstructured.Unstructured, path []string, rv string) ([]byte, error) {
	entries := cur.GetManagedFields()
	out := make([]metav1.ManagedFieldsEntry, 0, len(entries))
	for i := range entries {
		e := entries[i]
		if e.Operation == metav1.ManagedFieldsOperationApply && e.Manager != FieldManager {
			owns, err := entryOwns(&e, path)
			if err != nil {
				return nil, err
			}
			if owns {
				rest, left, err := withoutPath(e.FieldsV1.GetRawBytes(), path)
				if err != nil {
					return nil, fmt.Errorf("managedFields entry of %q: %w", e.Manager, err)
				}
				if !left {
					continue
				}
				e.FieldsV1 = metav1.NewFieldsV1(string(rest))
			}
		}
		out = append(out, e)
	}
	return marshal([]map[string]any{
		{"op": "replace", "path": "/metadata/resourceVersion", "value": rv},
		{"op": "replace", "path": "/metadata/managedFields", "value": out},
	})
}

// verify checks the object after the steps: the replica count never went
// down, the annotation no longer sets it, no applier other than
// FieldManager owns it, and someone who keeps it alive does.
func verify(obj *unstructured.Unstructured, t *Target, r *Report) *Verification {
	v := &Verification{OK: true}
	fail := func(format string, args ...any) {
		v.OK = false
		v.Problems = append(v.Problems, fmt.Sprintf(format, args...))
	}
	path := t.PathString()
	before := *r.Target.Replicas
	owners, ownersErr := ReplicaOwners(obj.GetManagedFields(), t.ReplicasPath)
	hpaOwns := hasRole(owners, RoleHPA)
	n, ok, err := liveReplicas(obj, t.ReplicasPath)
	switch {
	case err != nil:
		fail("%v", err)
	case !ok:
		fail("%s is no longer set", path)
	case n < before && hpaOwns:
		v.Replicas = &n
		v.Checks = append(v.Checks, fmt.Sprintf("%s is %d: the HPA controller, which owns it now, scaled it from %d meanwhile; migrate itself never wrote another value", path, n, before))
	case n < before:
		v.Replicas = &n
		fail("%s is %d, lower than the %d read before the first step", path, n, before)
	case n > before:
		v.Replicas = &n
		v.Checks = append(v.Checks, fmt.Sprintf("%s is %d: raised from %d meanwhile (by the HPA), never lowered", path, n, before))
	default:
		v.Replicas = &n
		v.Checks = append(v.Checks, fmt.Sprintf("%s is %d, unchanged", path, n))
	}
	la, err := readLastApplied(obj, t.ReplicasPath)
	switch {
	case err != nil:
		fail("%v", err)
	case la != nil && la.sets:
		v.LastAppliedSetsReplicas = true
		fail("the last-applied-configuration annotation still sets %s", path)
	case la != nil:
		v.Checks = append(v.Checks, "the last-applied-configuration annotation does not set "+path)
	}
	if ownersErr != nil {
		fail("%v", ownersErr)
	}
	v.Owners = ownerNames(owners)
	if v.Owners == nil {
		v.Owners = []string{}
	}
	if apps := appliers(owners); len(apps) > 0 && !hpaOwns {
		fail("server-side appliers still own %s, and nobody who would keep it does: %s", path, strings.Join(ownerNames(apps), ", "))
	}
	handedOver := false
	for _, s := range r.Steps {
		if s.Action == ActionApplyReplicas && s.Result != ResultSkipped {
			handedOver = true
		}
	}
	switch {
	case hpaOwns:
		v.Checks = append(v.Checks, "the HPA controller owns "+path)
	case hasRole(owners, RoleMigrate):
		v.Checks = append(v.Checks, fmt.Sprintf("%s owns %s; no other server-side applier does", FieldManager, path))
	case handedOver:
		fail("%s does not own %s after the hand-over", FieldManager, path)
	}
	return v
}

// checkPatchAllowed asks the API server whether the user may patch the
// object, so that a missing permission stops the run before its first
// write. When the question itself cannot be asked, the writes go ahead and
// their own answer decides.
func checkPatchAllowed(ctx context.Context, c *Clients, t *Target) error {
	if c.Kube == nil {
		return nil
	}
	review := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
		ResourceAttributes: &authorizationv1.ResourceAttributes{
			Namespace: t.Namespace, Verb: "patch", Group: t.Resource.Group, Resource: t.Resource.Resource, Name: t.Name,
		},
	}}
	res, err := c.Kube.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
	if err != nil {
		// Without an answer, the writes themselves decide.
		return nil
	}
	if res.Status.Allowed {
		return nil
	}
	why := ""
	if res.Status.Reason != "" {
		why = " (" + res.Status.Reason + ")"
	}
	return &NamedError{
		format: "not allowed to patch %s%s: migrate %s and %s need get and patch on it; nothing was written (without them, migrate only reads and prints the plan)",
		args:   []any{t.describe(), why, OptionApply, OptionDryRunServer},
	}
}

// isFieldConflict says whether err is a server-side apply conflict between
// field managers (not a resourceVersion conflict).
func isFieldConflict(err error) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || !apierrors.IsConflict(err) {
		return false
	}
	if d := status.Status().Details; d != nil {
		for _, c := range d.Causes {
			if c.Type == metav1.CauseTypeFieldManagerConflict {
				return true
			}
		}
	}
	return false
}

// stepError turns a failed write into one line that says which step failed,
// why, and what was already written.
func stepError(t *Target, r *Report, s *Step, based *unstructured.Unstructured, err error) error {
	written := "nothing was written"
	if s.Number > 1 {
		written = fmt.Sprintf("steps 1 to %d were written, each safe on its own", s.Number-1)
		if s.Number == 2 {
			written = "step 1 was written, safe on its own"
		}
	}
	if r.Mode == ModeDryRun {
		written = "nothing was persisted (dry run)"
	}
	switch {
	case apierrors.IsConflict(err) && isFieldConflict(err):
		return fmt.Errorf("step %d (%s) of %s: %s changed between the read and the apply and another field manager owns it: %w; %s; run kubectl hpa migrate again",
			s.Number, s.Action, t.describe(), t.PathString(), err, written)
	case apierrors.IsConflict(err):
		return &StaleError{Step: s.Number, Based: based, Report: r, msg: fmt.Sprintf("step %d (%s): %s changed since it was read (resourceVersion precondition failed), so the step wrote nothing; %s; run kubectl hpa migrate again to plan from the current object",
			s.Number, s.Action, t.describe(), written)}
	case apierrors.IsForbidden(err):
		return fmt.Errorf("step %d (%s): not allowed to patch %s: %w; %s", s.Number, s.Action, t.describe(), err, written)
	case apierrors.IsInvalid(err):
		return fmt.Errorf("step %d (%s): the API server rejected the patch of %s: %w; %s", s.Number, s.Action, t.describe(), err, written)
	default:
		return fmt.Errorf("step %d (%s): patch %s: %w; %s", s.Number, s.Action, t.describe(), err, written)
	}
}

// StaleError is a step refused by its resourceVersion precondition: the
// object changed between the read and the write (a controller updating its
// status is enough), and the step wrote nothing. Planning again from a fresh
// read is always safe, since every step before it is safe on its own.
type StaleError struct {
	// Step is the number of the refused step; the steps before it were
	// written.
	Step int
	// Based is the object the refused step was based on (its
	// resourceVersion the precondition): the read, or the answer to the
	// step before. Report is the run's report.
	Based  *unstructured.Unstructured
	Report *Report
	msg    string
}

func (e *StaleError) Error() string { return e.msg }
