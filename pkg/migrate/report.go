// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import "encoding/json"

// APIVersion and Kind of the document -o json|yaml prints.
const (
	APIVersion = "kubectl-hpa.io/v1alpha1"
	Kind       = "MigrationReport"
)

// Mode is what the run did with the plan.
type Mode string

// Modes.
const (
	// ModePlan only printed the plan (the default).
	ModePlan Mode = "plan"
	// ModeDryRun sent every write with dryRun=All.
	ModeDryRun Mode = "dry-run"
	// ModeApply carried the plan out.
	ModeApply Mode = "apply"
)

// Outcome sums up a run.
type Outcome string

// Outcomes.
const (
	OutcomePlanned     Outcome = "planned"
	OutcomeNothingToDo Outcome = "nothing-to-do"
	OutcomeDryRun      Outcome = "dry-run-accepted"
	OutcomeMigrated    Outcome = "migrated"
	OutcomeFailed      Outcome = "verification-failed"
)

// Report is the plan, and after Execute what was done. Its field names are
// the -o json|yaml contract.
type Report struct {
	APIVersion string  `json:"apiVersion"`
	Kind       string  `json:"kind"`
	Mode       Mode    `json:"mode"`
	Outcome    Outcome `json:"outcome"`

	Target TargetInfo `json:"target"`
	HPA    HPAInfo    `json:"hpa"`
	// LastApplied is the client-side apply annotation; nil when the object
	// has none.
	LastApplied *LastAppliedInfo `json:"lastApplied,omitempty"`
	// Owners are the managedFields entries that own the replica count.
	Owners []Owner `json:"owners"`
	Tools  []Tool  `json:"tools,omitempty"`
	// Risks say what the next apply without the field would do today.
	Risks []string `json:"risks,omitempty"`

	FieldManager string `json:"fieldManager"`
	Steps        []Step `json:"steps"`
	// NothingToDo says why there are no steps.
	NothingToDo []string `json:"nothingToDo,omitempty"`

	Verification *Verification `json:"verification,omitempty"`
	// Outside is what is left to do outside the cluster.
	Outside   []Advice         `json:"outside,omitempty"`
	Manifests []ManifestChange `json:"manifests,omitempty"`
	// ManifestDiffs are the edits of the manifest files, as unified diffs.
	ManifestDiffs []ManifestDiff `json:"manifestDiffs,omitempty"`
	Warnings      []string       `json:"warnings,omitempty"`
}

// ManifestDiff is the edit of one manifest file.
type ManifestDiff struct {
	File string `json:"file"`
	Diff string `json:"diff"`
	// Written says whether the file was saved (--write).
	Written bool `json:"written"`
}

// TargetInfo is the object whose replica count is handed over.
type TargetInfo struct {
	APIVersion   string `json:"apiVersion"`
	Kind         string `json:"kind"`
	Resource     string `json:"resource"`
	Namespace    string `json:"namespace"`
	Name         string `json:"name"`
	ReplicasPath string `json:"replicasPath"`
	// ReplicasPathSource says where ReplicasPath comes from.
	ReplicasPathSource string `json:"replicasPathSource"`
	// Replicas is the live value; nil when the field is not set.
	Replicas        *int64 `json:"replicas"`
	ResourceVersion string `json:"resourceVersion"`
}

// HPAInfo is the HorizontalPodAutoscaler that takes the replica count over.
type HPAInfo struct {
	Name            string `json:"name"`
	MinReplicas     *int32 `json:"minReplicas,omitempty"`
	MaxReplicas     int32  `json:"maxReplicas"`
	CurrentReplicas int32  `json:"currentReplicas"`
	DesiredReplicas int32  `json:"desiredReplicas"`
}

// LastAppliedInfo is what the client-side apply annotation says about the
// replica count.
type LastAppliedInfo struct {
	SetsReplicas bool `json:"setsReplicas"`
	// Replicas is the value it holds, as written there.
	Replicas string `json:"replicas,omitempty"`
}

// StepAction names what a step does.
type StepAction string

// Step actions.
const (
	// ActionRewriteLastApplied removes the field from the client-side apply
	// annotation.
	ActionRewriteLastApplied StepAction = "rewrite-last-applied"
	// ActionApplyReplicas applies the field at its live value with
	// FieldManager, which then co-owns it.
	ActionApplyReplicas StepAction = "apply-replicas"
	// ActionReleaseOwnership removes the field from the managedFields
	// entries of the other appliers.
	ActionReleaseOwnership StepAction = "release-ownership"
)

// Step is one write.
type Step struct {
	Number  int        `json:"number"`
	Action  StepAction `json:"action"`
	Title   string     `json:"title"`
	Why     string     `json:"why"`
	Request Request    `json:"request"`
	// Before and After are the annotation's value (rewrite-last-applied).
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	// Changes list what the request changes, in words.
	Changes []string `json:"changes,omitempty"`
	// ReplicasAfter is the live replica count once the step is done.
	ReplicasAfter int64 `json:"replicasAfter"`
	// OwnersAfter are the owners of the field once the step is done.
	OwnersAfter []string `json:"ownersAfter"`
	// Result is set by Execute: done, dry-run, skipped.
	Result string `json:"result,omitempty"`
	// Note explains a skipped step.
	Note string `json:"note,omitempty"`
}

// Request is the exact request of a step.
type Request struct {
	Verb      string `json:"verb"`
	Resource  string `json:"resource"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// PatchType is the Content-Type of the patch.
	PatchType    string `json:"patchType"`
	FieldManager string `json:"fieldManager"`
	// Force is server-side apply's force flag.
	Force *bool `json:"force,omitempty"`
	// Precondition says which resourceVersion the request requires.
	Precondition string `json:"precondition"`
	DryRun       bool   `json:"dryRun,omitempty"`
	// Body is the request body. In a plan, a step whose body depends on an
	// earlier step's response carries a placeholder there instead.
	Body json.RawMessage `json:"body,omitempty"`
}

// Result values of a step.
const (
	ResultDone    = "done"
	ResultDryRun  = "accepted (dry run, nothing persisted)"
	ResultSkipped = "skipped"
)

// Verification is what the object looked like after the steps.
type Verification struct {
	OK bool `json:"ok"`
	// Replicas is the replica count read back.
	Replicas *int64 `json:"replicas"`
	// Owners are the owners of the field read back.
	Owners []string `json:"owners"`
	// LastAppliedSetsReplicas says whether the annotation still sets it.
	LastAppliedSetsReplicas bool     `json:"lastAppliedSetsReplicas"`
	Checks                  []string `json:"checks"`
	Problems                []string `json:"problems,omitempty"`
}

// Advice is one thing to do outside the cluster.
type Advice struct {
	// About is who it is for: "manifest", "kubectl", a tool name.
	About string `json:"about"`
	Text  string `json:"text"`
	// Snippet is an example, when one helps.
	Snippet string `json:"snippet,omitempty"`
}

// ManifestChange is a local manifest that sets the replica count.
type ManifestChange struct {
	File string `json:"file"`
	Line int    `json:"line"`
	// Object is "Kind namespace/name" as the manifest says it.
	Object string `json:"object"`
	// Action is "remove" (the target: the field is removed), "flag"
	// (another object that sets it), "skip" (the target, but the field
	// could not be removed safely).
	Action   string `json:"action"`
	Replicas string `json:"replicas,omitempty"`
	Note     string `json:"note,omitempty"`
}

// Manifest change actions.
const (
	ManifestRemove = "remove"
	ManifestFlag   = "flag"
	ManifestSkip   = "skip"
)
