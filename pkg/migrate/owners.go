// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Role says what a field manager's ownership of the replica count means for
// the hand-over.
type Role string

// Roles.
const (
	// RoleHPA is the HPA controller, writing through the scale subresource.
	RoleHPA Role = "hpa"
	// RoleScaler is another writer of the scale subresource (kubectl scale,
	// an operator). Like every Update owner it keeps the field alive.
	RoleScaler Role = "scaler"
	// RoleApplier owns the field through server-side apply: the day it
	// applies a configuration without the field, the field is deleted
	// unless another manager owns it too.
	RoleApplier Role = "applier"
	// RoleUpdater owns the field through an update or a patch (client-side
	// apply, Helm 3, kubectl edit). Leaving the field out of a later update
	// never deletes it; only an explicit deletion does.
	RoleUpdater Role = "updater"
	// RoleMigrate is FieldManager: the hand-over itself.
	RoleMigrate Role = "migrate"
)

// Owner is one managedFields entry that owns the replica count.
type Owner struct {
	Manager     string `json:"manager"`
	Operation   string `json:"operation"`
	Subresource string `json:"subresource,omitempty"`
	// Time is when the entry last changed, as the API server recorded it
	// (it leaves it out for some entries).
	Time string `json:"time,omitempty"`
	Role Role   `json:"role"`
	// Known names the tool the manager name belongs to, when it is a
	// well-known one.
	Known string `json:"known,omitempty"`
}

// String is "manager (Operation[, subresource S])".
func (o Owner) String() string {
	s := o.Manager + " (" + o.Operation
	if o.Subresource != "" {
		s += ", subresource " + o.Subresource
	}
	return s + ")"
}

// knownManagers maps field manager names to the tool that uses them.
var knownManagers = map[string]string{
	"kubectl-client-side-apply":     "kubectl apply (client-side)",
	"kubectl-edit":                  "kubectl edit",
	"kubectl-patch":                 "kubectl patch",
	"kubectl-scale":                 "kubectl scale",
	"kubectl-create":                "kubectl create",
	"kubectl-replace":               "kubectl replace",
	"kubectl-hpa-migrate":           "kubectl hpa migrate (this hand-over)",
	"kube-controller-manager":       "kube-controller-manager",
	"helm":                          "Helm",
	"argocd-controller":             "Argo CD",
	"argocd-application-controller": "Argo CD",
	"kustomize-controller":          "Flux (kustomize-controller)",
	"helm-controller":               "Flux (helm-controller)",
}

// knownManager names the tool behind a field manager name, or "".
func knownManager(name string) string {
	return knownEntry(name, "", "")
}

// knownEntry names the tool behind a managedFields entry, or "".
func knownEntry(name string, op metav1.ManagedFieldsOperationType, subresource string) string {
	if name == "kubectl" {
		switch {
		case subresource == "scale":
			return "kubectl scale"
		case op == metav1.ManagedFieldsOperationApply:
			return "kubectl apply --server-side"
		default:
			return "kubectl"
		}
	}
	if k, ok := knownManagers[name]; ok {
		return k
	}
	if strings.HasPrefix(name, "pulumi-kubernetes") {
		return "Pulumi"
	}
	return ""
}

// ReplicaOwners returns the managedFields entries that own the field at path
// (like ["spec", "replicas"]), in the order the object lists them.
func ReplicaOwners(entries []metav1.ManagedFieldsEntry, path []string) ([]Owner, error) {
	var out []Owner
	for i := range entries {
		e := &entries[i]
		owns, err := entryOwns(e, path)
		if err != nil {
			return nil, err
		}
		if !owns {
			continue
		}
		o := Owner{
			Manager:     e.Manager,
			Operation:   string(e.Operation),
			Subresource: e.Subresource,
			Role:        roleOf(e),
			Known:       knownEntry(e.Manager, e.Operation, e.Subresource),
		}
		if e.Time != nil {
			o.Time = e.Time.UTC().Format("2006-01-02T15:04:05Z")
		}
		if o.Role == RoleHPA {
			o.Known = "the HPA controller (kube-controller-manager, through the scale subresource)"
		}
		out = append(out, o)
	}
	return out, nil
}

func roleOf(e *metav1.ManagedFieldsEntry) Role {
	switch {
	case e.Manager == FieldManager:
		return RoleMigrate
	case e.Subresource == "scale" && e.Manager == HPAControllerManager:
		return RoleHPA
	case e.Subresource == "scale":
		return RoleScaler
	case e.Operation == metav1.ManagedFieldsOperationApply:
		return RoleApplier
	default:
		return RoleUpdater
	}
}

// entryOwns says whether the entry's field set holds path.
func entryOwns(e *metav1.ManagedFieldsEntry, path []string) (bool, error) {
	if e.FieldsV1 == nil || len(e.FieldsV1.GetRawBytes()) == 0 {
		return false, nil
	}
	var set map[string]any
	if err := json.Unmarshal(e.FieldsV1.GetRawBytes(), &set); err != nil {
		return false, fmt.Errorf("managedFields entry of %q: fieldsV1 is not JSON: %w", e.Manager, err)
	}
	cur := set
	for i, seg := range path {
		v, ok := cur["f:"+seg]
		if !ok {
			return false, nil
		}
		if i == len(path)-1 {
			return true, nil
		}
		next, ok := v.(map[string]any)
		if !ok {
			return false, nil
		}
		cur = next
	}
	return false, nil
}

// withoutPath returns the field set raw without path, pruning the parents
// the removal leaves empty (an empty parent would mean owning the parent
// itself), and whether anything is left.
func withoutPath(raw []byte, path []string) ([]byte, bool, error) {
	var set map[string]any
	if err := json.Unmarshal(raw, &set); err != nil {
		return nil, false, err
	}
	var remove func(m map[string]any, p []string) bool
	remove = func(m map[string]any, p []string) bool {
		key := "f:" + p[0]
		if len(p) == 1 {
			delete(m, key)
			return true
		}
		child, ok := m[key].(map[string]any)
		if !ok || !remove(child, p[1:]) {
			return false
		}
		if len(child) == 0 {
			delete(m, key)
		}
		return true
	}
	remove(set, path)
	if len(set) == 0 {
		return nil, false, nil
	}
	b, err := json.Marshal(set)
	return b, true, err
}

// hasRole says whether any owner has role r.
func hasRole(owners []Owner, r Role) bool {
	for _, o := range owners {
		if o.Role == r {
			return true
		}
	}
	return false
}

// appliers returns the owners that hold the field through server-side
// apply, other than migrate itself.
func appliers(owners []Owner) []Owner {
	var out []Owner
	for _, o := range owners {
		if o.Role == RoleApplier {
			out = append(out, o)
		}
	}
	return out
}

// ownerNames lists "manager (Operation)" for owners, sorted.
func ownerNames(owners []Owner) []string {
	out := make([]string, 0, len(owners))
	for _, o := range owners {
		out = append(out, o.String())
	}
	sort.Strings(out)
	return out
}
