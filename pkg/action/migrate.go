// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/migrate"
)

// MigrateConfig is one hand-over of a workload's replica count to its HPA.
type MigrateConfig struct {
	Clients *Factory
	// Type and Name are the TYPE/NAME argument; Namespace is -n ("" means
	// the kubeconfig context's).
	Type, Name, Namespace string
	// Filenames are manifests to edit (-f), walked recursively with
	// Recursive.
	Filenames []string
	Recursive bool
	// Execute carries the plan out; with DryRun every write is sent with
	// dryRun=All.
	Execute, DryRun bool
	// Write saves the edited manifests.
	Write bool
	// Stdin is read for the manifest named "-" in Filenames.
	Stdin io.Reader
}

// MigrateResult is the report, and what was done besides.
type MigrateResult struct {
	Report *migrate.Report
	// Written lists the manifests saved.
	Written []string
	// StdinManifest is the manifest read from stdin (-f -), edited when it
	// describes the target, else as read; nil without -f -.
	StdinManifest []byte
	Warnings      []string
	// Failed is set when the verification after the steps failed; the
	// report is still complete and should be shown.
	Failed error
}

// Migrate inspects the target, plans the hand-over, carries it out when
// asked, and edits the manifests.
func Migrate(ctx context.Context, cfg MigrateConfig) (*MigrateResult, error) {
	if err := CheckName(cfg.Type, cfg.Name); err != nil {
		return nil, err
	}
	ns := cfg.Namespace
	if ns == "" {
		var err error
		if ns, err = cfg.Clients.Namespace(); err != nil {
			return nil, err
		}
	}
	if err := CheckNamespace(ns); err != nil {
		return nil, err
	}
	clients, err := cfg.Clients.Migrate()
	if err != nil {
		return nil, err
	}
	target, err := migrate.Resolve(ctx, clients, cfg.Type, cfg.Name, ns)
	if err != nil {
		return nil, forbiddenHint(err)
	}
	// The manifests are read before anything is written, so that a bad file
	// stops the run while the cluster is untouched.
	var files []migrate.ManifestFile
	if len(cfg.Filenames) > 0 {
		if files, err = migrate.ReadManifests(cfg.Filenames, cfg.Recursive, cfg.Stdin); err != nil {
			return nil, err
		}
	}
	st, report, err := planAndExecute(ctx, clients, target, cfg)
	if err != nil {
		return nil, forbiddenHint(err)
	}
	res := &MigrateResult{Report: report}

	var edits []migrate.FileEdit
	if len(cfg.Filenames) > 0 {
		for _, f := range files {
			if f.Stdin {
				res.StdinManifest = f.Data
			}
		}
		var changes []migrate.ManifestChange
		var warnings []string
		edits, changes, warnings = migrate.EditManifests(files, manifestTarget(st))
		report.Manifests = changes
		report.Warnings = append(report.Warnings, warnings...)
		if len(changes) == 0 {
			report.Warnings = append(report.Warnings, fmt.Sprintf("no manifest in the given files sets a replica count; none describes %s with it", target.Ref()))
		}
	}
	for _, e := range edits {
		if e.Stdin {
			res.StdinManifest = e.After
		}
	}
	if cfg.Write && len(edits) > 0 {
		if err := migrate.WriteEdits(edits); err != nil {
			return nil, err
		}
		for _, e := range edits {
			if !e.Stdin {
				res.Written = append(res.Written, e.Path)
			}
		}
		if len(report.Steps) > 0 && (!cfg.Execute || cfg.DryRun) {
			var opt MigrateInput
			res.Warnings = append(res.Warnings, fmt.Sprintf("the saved manifests no longer set %s: do not apply them before the hand-over is done (run this command with %s first)", target.PathString(), opt.flag(&opt.Apply)))
		}
	}
	if len(cfg.Filenames) > 0 {
		report.ManifestDiffs = make([]migrate.ManifestDiff, 0, len(edits))
		for _, e := range edits {
			report.ManifestDiffs = append(report.ManifestDiffs, migrate.ManifestDiff{File: e.Path, Diff: e.Diff, Written: cfg.Write && !e.Stdin})
		}
	}
	if v := report.Verification; v != nil && !v.OK {
		res.Failed = fmt.Errorf("verification of %s failed after the steps: %s", target.Ref(), strings.Join(v.Problems, "; "))
	}
	return res, nil
}

// staleAttempts bounds how often Migrate plans again after a step was
// refused because the object changed since it was read. A Deployment whose
// pods are starting has its status written every few hundred milliseconds,
// so one retry is common and several in a row are not.
const staleAttempts = 5

// planAndExecute reads the target, plans, and, when asked, carries the plan
// out. When a step is refused by its resourceVersion precondition (someone
// wrote the object between the read and the write, the step wrote nothing),
// it reads and plans again from the current object: exactly what the user
// would do by running migrate again, which is safe after any step. Unless
// that read shows another writer's replica count (not migrate's, not the
// HPA controller's): then it stops and names them.
func planAndExecute(ctx context.Context, clients *migrate.Clients, target *migrate.Target, cfg MigrateConfig) (*migrate.State, *migrate.Report, error) {
	var (
		retried []string
		stale   *migrate.StaleError
	)
	for attempt := 1; ; attempt++ {
		st, err := migrate.Inspect(ctx, clients, target)
		if err != nil {
			return nil, nil, err
		}
		// The object changed under the last attempt's step: when that was
		// another writer's replica count, planning again would hand over
		// what they are setting; stop and name them instead.
		if err := migrate.CheckSecondWriter(target, stale, st.Object); err != nil {
			return nil, nil, err
		}
		report, err := migrate.BuildPlan(st)
		if err != nil {
			return nil, nil, err
		}
		if !cfg.Execute {
			return st, report, nil
		}
		err = migrate.Execute(ctx, clients, st, report, migrate.ExecuteOptions{DryRun: cfg.DryRun})
		stale = nil
		if errors.As(err, &stale) && attempt < staleAttempts && ctx.Err() == nil {
			written := "nothing written"
			if stale.Step > 1 {
				written = "the steps before it written"
			}
			retried = append(retried, fmt.Sprintf("step %d refused, %s", stale.Step, written))
			continue
		}
		if err != nil {
			err = migrateFlagNamed(err)
			if len(retried) > 0 {
				err = fmt.Errorf("%w (after %d reads, each time changed before the write)", err, attempt)
			}
			return nil, nil, err
		}
		if len(retried) > 0 {
			report.Warnings = append(report.Warnings, fmt.Sprintf("%s changed between the read and the write %d time(s) (%s: someone else wrote it, a controller's status update is enough); each time migrate read it again and planned from the current object, and this report is of the last plan",
				target.Ref(), len(retried), strings.Join(retried, "; ")))
		}
		return st, report, nil
	}
}

// manifestTarget describes the target for the manifest edit, with the HPAs
// of its namespace for the other manifests.
func manifestTarget(st *migrate.State) migrate.ManifestTarget {
	t := st.Target
	return migrate.ManifestTarget{
		Group: t.Kind.Group, Kind: t.Kind.Kind, Namespace: t.Namespace, Name: t.Name, Path: t.ReplicasPath,
		ScaledByHPA: func(group, kind, namespace, name string) (bool, bool) {
			if namespace != t.Namespace {
				return false, false
			}
			for _, ref := range st.HPATargets {
				g, _, _ := strings.Cut(ref.APIVersion, "/")
				if !strings.Contains(ref.APIVersion, "/") {
					g = `""`
				}
				if ref.Kind == kind && ref.Name == name && g == group {
					return true, true
				}
			}
			return false, true
		},
	}
}

// forbiddenHint adds RBACMigrateHint to a refusal of the API server.
func forbiddenHint(err error) error {
	if apierrors.IsForbidden(err) {
		return fmt.Errorf("%w%s", err, RBACMigrateHint)
	}
	return err
}
