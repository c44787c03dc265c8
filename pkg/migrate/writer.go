// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// SecondWrite is a change of the replica count, or of who owns it, made by
// someone other than migrate and the HPA controller between two reads of
// migrate: a CI job's kubectl scale, an apply of a manifest that still
// sets the field.
type SecondWrite struct {
	// Writers are the managedFields entries that own the field after the
	// change and are new, or wrote again, since the read before it. Empty
	// when the field was changed and nobody owns it now (deleted).
	Writers []Owner
	// Before and After are the field's values; ok is false when it is not
	// set.
	Before, After     int64
	BeforeOK, AfterOK bool
}

// ownerKey names a managedFields entry: one per manager, operation and
// subresource, as the API server keeps them.
func ownerKey(o Owner) string { return o.Manager + "\x00" + o.Operation + "\x00" + o.Subresource }

// expectedWriter says whether a write by o is part of the hand-over:
// migrate's own, or the HPA controller's (kube-controller-manager), which
// is the field's owner-to-be and may scale at any time.
func expectedWriter(o Owner) bool {
	return o.Manager == FieldManager || o.Manager == HPAControllerManager
}

// FindSecondWrite compares before, the object as migrate last knew it (its
// read, or the answer to its last write), with after, a later read. It
// returns nil when the replica count and the set of its owners are as they
// were, or were changed by migrate or the HPA controller only; a write to
// other fields (a status update, a label) is not one. Otherwise it names
// who wrote the field.
func FindSecondWrite(t *Target, before, after *unstructured.Unstructured) (*SecondWrite, error) {
	b, bok, err := liveReplicas(before, t.ReplicasPath)
	if err != nil {
		return nil, err
	}
	a, aok, err := liveReplicas(after, t.ReplicasPath)
	if err != nil {
		return nil, err
	}
	ob, err := ReplicaOwners(before.GetManagedFields(), t.ReplicasPath)
	if err != nil {
		return nil, err
	}
	oa, err := ReplicaOwners(after.GetManagedFields(), t.ReplicasPath)
	if err != nil {
		return nil, err
	}
	prev := make(map[string]Owner, len(ob))
	for _, o := range ob {
		prev[ownerKey(o)] = o
	}
	valueChanged := bok != aok || b != a
	ownersChanged := len(ob) != len(oa)
	var writers []Owner
	for _, o := range oa {
		p, had := prev[ownerKey(o)]
		if !had {
			ownersChanged = true
		}
		if !had || p.Time != o.Time {
			writers = append(writers, o)
		}
	}
	if !valueChanged && !ownersChanged {
		return nil, nil
	}
	if !valueChanged && len(writers) == 0 {
		// Owners only went away (an applier that stopped applying the
		// field): the value stays, and the next plan starts from there.
		return nil, nil
	}
	if valueChanged && len(writers) == 0 {
		// The value changed under an owner whose entry kept its time (the
		// API server leaves the time out of some entries): each owner is a
		// suspect.
		writers = oa
	}
	foreign := writers[:0:0]
	for _, o := range writers {
		if !expectedWriter(o) {
			foreign = append(foreign, o)
		}
	}
	if len(foreign) == 0 && len(writers) > 0 {
		return nil, nil
	}
	return &SecondWrite{Writers: foreign, Before: b, BeforeOK: bok, After: a, AfterOK: aok}, nil
}

// describe says who did what, for the error: "kubectl (Update, subresource
// scale) set spec.replicas to 3 (it was 4)".
func (w *SecondWrite) describe(path string) string {
	who := "someone no managedFields entry names"
	if len(w.Writers) > 0 {
		names := make([]string, 0, len(w.Writers))
		for _, o := range w.Writers {
			names = append(names, o.String())
		}
		who = strings.Join(names, " and ")
	}
	was := "unset"
	if w.BeforeOK {
		was = strconv.FormatInt(w.Before, 10)
	}
	switch {
	case !w.AfterOK:
		return fmt.Sprintf("%s removed %s (it was %s)", who, path, was)
	case w.BeforeOK && w.After == w.Before:
		return fmt.Sprintf("%s took %s over at its value, %d", who, path, w.After)
	default:
		return fmt.Sprintf("%s set %s to %d (it was %s)", who, path, w.After, was)
	}
}

// SecondWriterError stops a run at the first sign of another writer of
// the replica count: going on would hand over a count someone else is
// still setting, and undo nothing of theirs. migrate wrote no count of its
// own; what it wrote before stays safe on its own.
type SecondWriterError struct {
	Write *SecondWrite
	msg   string
}

func (e *SecondWriterError) Error() string { return e.msg }

// newSecondWriterError words w for the run stopped before step (0: after
// the last step, at the read back).
func newSecondWriterError(t *Target, r *Report, step int, w *SecondWrite) *SecondWriterError {
	path := t.PathString()
	where := "after its last step"
	written := "every step was written, each safe on its own"
	if step > 0 && step <= len(r.Steps) {
		s := r.Steps[step-1]
		where = fmt.Sprintf("before step %d (%s)", step, s.Action)
		switch {
		case r.Mode == ModeDryRun:
			written = "nothing was persisted (dry run)"
		case step == 1:
			written = "nothing was written"
		case step == 2:
			written = "step 1 was written, safe on its own"
		default:
			written = fmt.Sprintf("steps 1 to %d were written, each safe on its own", step-1)
		}
	}
	return &SecondWriterError{Write: w, msg: fmt.Sprintf(
		"%s: another writer changed %s while migrate ran: %s; migrate stopped %s and never wrote a replica count of its own: %s; stop that writer (a CI job's kubectl scale, an apply of a manifest that still sets %s), then run kubectl hpa migrate again",
		t.describe(), path, w.describe(path), where, written, path)}
}

// CheckSecondWriter is the question a run asks when a step was refused
// because the object changed (stale): fresh is the object read again. It
// returns a *SecondWriterError when the change was another writer's
// replica count, nil when planning again from fresh is safe.
func CheckSecondWriter(t *Target, stale *StaleError, fresh *unstructured.Unstructured) error {
	if stale == nil || stale.Based == nil || stale.Report == nil {
		return nil
	}
	w, err := FindSecondWrite(t, stale.Based, fresh)
	if err != nil || w == nil {
		return err
	}
	return newSecondWriterError(t, stale.Report, stale.Step, w)
}
