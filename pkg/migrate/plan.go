// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// BuildPlan works out the steps that hand the replica count of st.Object
// over to its HPA. It reads nothing and writes nothing.
func BuildPlan(st *State) (*Report, error) {
	t, obj := st.Target, st.Object
	r := &Report{
		APIVersion:   APIVersion,
		Kind:         Kind,
		Mode:         ModePlan,
		Outcome:      OutcomePlanned,
		FieldManager: FieldManager,
		Steps:        []Step{},
		Target: TargetInfo{
			APIVersion:         obj.GetAPIVersion(),
			Kind:               obj.GetKind(),
			Resource:           t.ResourceName(),
			Namespace:          t.Namespace,
			Name:               t.Name,
			ReplicasPath:       t.PathString(),
			ReplicasPathSource: t.PathSource,
			ResourceVersion:    obj.GetResourceVersion(),
		},
	}
	if h := st.HPA; h != nil {
		r.HPA = HPAInfo{
			Name: h.Name, MinReplicas: h.Spec.MinReplicas, MaxReplicas: h.Spec.MaxReplicas,
			CurrentReplicas: h.Status.CurrentReplicas, DesiredReplicas: h.Status.DesiredReplicas,
		}
	}
	live, ok, err := liveReplicas(obj, t.ReplicasPath)
	if err != nil {
		return nil, err
	}
	if ok {
		r.Target.Replicas = &live
	}

	la, err := readLastApplied(obj, t.ReplicasPath)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.describe(), err)
	}
	if la != nil {
		r.LastApplied = &LastAppliedInfo{SetsReplicas: la.sets, Replicas: la.value}
	}
	owners, err := ReplicaOwners(obj.GetManagedFields(), t.ReplicasPath)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.describe(), err)
	}
	r.Owners = owners
	if r.Owners == nil {
		r.Owners = []Owner{}
	}
	r.Tools = DetectTools(obj)

	if !ok {
		r.Outcome = OutcomeNothingToDo
		r.NothingToDo = []string{fmt.Sprintf("%s is not set on the object: there is no replica count to hand over", t.PathString())}
		r.Outside = outsideAdvice(r, la)
		return r, nil
	}

	path := t.PathString()
	hpaOwns := hasRole(owners, RoleHPA)
	apps := appliers(owners)
	handOver := len(apps) > 0 && !hpaOwns
	r.Risks = risks(r, la, apps, hpaOwns)

	rv := obj.GetResourceVersion()
	firstWrite := true
	precondition := func() (string, string) {
		if firstWrite {
			firstWrite = false
			return rv, "resourceVersion " + rv + " (the object as read)"
		}
		n := len(r.Steps)
		ph := fmt.Sprintf("<returned by step %d>", n)
		return ph, fmt.Sprintf("the resourceVersion step %d returns", n)
	}
	owned := ownerNames(owners)

	if la != nil && la.sets {
		v, pre := precondition()
		body, err := lastAppliedPatch(v, la.after)
		if err != nil {
			return nil, err
		}
		r.Steps = append(r.Steps, Step{
			Number: len(r.Steps) + 1,
			Action: ActionRewriteLastApplied,
			Title:  "Rewrite the last-applied-configuration annotation without " + path,
			Why: fmt.Sprintf("kubectl apply (client-side) patches what the annotation holds and the manifest does not: with %s in the annotation, "+
				"applying a manifest without it deletes the field and the API server defaults it (to 1 for the built-in workloads)", path),
			Request: Request{
				Verb: "PATCH", Resource: t.ResourceName(), Namespace: t.Namespace, Name: t.Name,
				PatchType: string(types.MergePatchType), FieldManager: FieldManager, Precondition: pre, Body: body,
			},
			Before: la.raw,
			After:  la.after,
			Changes: []string{
				fmt.Sprintf("annotation %s: %s (%s) removed; the rest of the annotation unchanged", LastAppliedAnnotation, path, la.value),
				"nothing else: the patch holds only this annotation and the resourceVersion precondition",
			},
			ReplicasAfter: live,
			OwnersAfter:   owned,
		})
	}

	if handOver {
		after := append([]Owner{}, owners...)
		// A run stopped after the apply: the co-ownership is there already.
		if !hasRole(owners, RoleMigrate) {
			v, pre := precondition()
			body, err := applyBody(obj, t.ReplicasPath, live, v)
			if err != nil {
				return nil, err
			}
			after = append(after, Owner{Manager: FieldManager, Operation: "Apply", Role: RoleMigrate})
			r.Steps = append(r.Steps, Step{
				Number: len(r.Steps) + 1,
				Action: ActionApplyReplicas,
				Title:  fmt.Sprintf("Co-own %s at its live value (%d) with the field manager %s", path, live, FieldManager),
				Why: fmt.Sprintf("server-side apply deletes a field its applier stops applying only when no other manager owns it; "+
					"applying the same value makes %s a co-owner without changing it (same value: no conflict, no force)", FieldManager),
				Request: Request{
					Verb: "PATCH", Resource: t.ResourceName(), Namespace: t.Namespace, Name: t.Name,
					PatchType: string(types.ApplyPatchType), FieldManager: FieldManager, Force: new(bool), Precondition: pre, Body: body,
				},
				Changes: []string{
					fmt.Sprintf("managedFields: %s (Apply) owns %s", FieldManager, path),
					fmt.Sprintf("%s stays %d: the body sets it to the value read, and the precondition guarantees it is still that value", path, live),
				},
				ReplicasAfter: live,
				OwnersAfter:   ownerNames(after),
			})
		}

		v, pre := precondition()
		var changes []string
		for _, a := range apps {
			changes = append(changes, fmt.Sprintf("managedFields entry %s: f:%s removed; its other fields unchanged", a, strings.Join(t.ReplicasPath, ".f:")))
		}
		changes = append(changes, "every other managedFields entry, and every field of the object, unchanged")
		released := []Owner{}
		for _, o := range after {
			if o.Role != RoleApplier {
				released = append(released, o)
			}
		}
		names := make([]string, 0, len(apps))
		for _, a := range apps {
			names = append(names, a.Manager)
		}
		from := "the object's managedFields as read"
		if len(r.Steps) > 0 {
			from = "the managedFields step " + strconv.Itoa(len(r.Steps)) + " returns"
		}
		ph, _ := marshal([]map[string]any{
			{"op": "replace", "path": "/metadata/resourceVersion", "value": v},
			{"op": "replace", "path": "/metadata/managedFields", "value": "<" + from + ", with the changes below>"},
		})
		r.Steps = append(r.Steps, Step{
			Number: len(r.Steps) + 1,
			Action: ActionReleaseOwnership,
			Title:  fmt.Sprintf("Release the claim of %s on %s", strings.Join(names, ", "), path),
			Why: fmt.Sprintf("the hand-over ends with %s no longer owning %s: an apply without the field then changes nothing, "+
				"and one that still sets another value conflicts with %s instead of resetting the count", strings.Join(names, ", "), path, FieldManager),
			Request: Request{
				Verb: "PATCH", Resource: t.ResourceName(), Namespace: t.Namespace, Name: t.Name,
				PatchType: string(types.JSONPatchType), FieldManager: FieldManager, Precondition: pre, Body: ph,
			},
			Changes:       changes,
			ReplicasAfter: live,
			OwnersAfter:   ownerNames(released),
		})
	}

	if len(r.Steps) == 0 {
		r.Outcome = OutcomeNothingToDo
		r.NothingToDo = nothingToDo(la, owners, hpaOwns, path)
	}
	r.Outside = outsideAdvice(r, la)
	return r, nil
}

// risks say what the next apply without the field would do before the
// migration.
func risks(r *Report, la *lastApplied, apps []Owner, hpaOwns bool) []string {
	path := r.Target.ReplicasPath
	var out []string
	if la != nil && la.sets {
		out = append(out, fmt.Sprintf("the last-applied-configuration annotation sets %s to %s: a client-side kubectl apply of a manifest without it would delete the field, and the API server would default it (to 1 for the built-in workloads)", path, la.value))
	}
	if len(apps) > 0 && !hpaOwns {
		names := make([]string, 0, len(apps))
		for _, a := range apps {
			names = append(names, a.Manager)
		}
		out = append(out, fmt.Sprintf("only server-side appliers (%s) own %s: the first of their applies without it would delete the field, and the API server would default it (to 1 for the built-in workloads)", strings.Join(names, ", "), path))
	}
	return out
}

func nothingToDo(la *lastApplied, owners []Owner, hpaOwns bool, path string) []string {
	var out []string
	switch {
	case la == nil:
		out = append(out, "no last-applied-configuration annotation: the object is not managed by kubectl client-side apply")
	case !la.sets:
		out = append(out, fmt.Sprintf("the last-applied-configuration annotation does not set %s", path))
	}
	switch {
	case hpaOwns && len(appliers(owners)) > 0:
		out = append(out, fmt.Sprintf("the HPA controller already owns %s (it wrote the scale subresource): the appliers that co-own it can drop it, the value stays; nothing to hand over", path))
	case hpaOwns:
		out = append(out, fmt.Sprintf("the HPA controller already owns %s (it wrote the scale subresource): nothing to hand over", path))
	case hasRole(owners, RoleMigrate):
		out = append(out, fmt.Sprintf("%s owns %s and no server-side applier does: the hand-over is done", FieldManager, path))
	default:
		out = append(out, fmt.Sprintf("no server-side applier owns %s: leaving it out of an apply does not delete it", path))
	}
	return out
}

// outsideAdvice says what is left to do outside the cluster.
func outsideAdvice(r *Report, la *lastApplied) []Advice {
	path := r.Target.ReplicasPath
	t := r.Target
	var out []Advice
	val := ""
	if la != nil && la.sets {
		val = " (" + la.value + " in the last applied configuration)"
	}
	when := "as things stand"
	if len(r.Steps) > 0 {
		when = "once the steps above are done"
	}
	out = append(out, Advice{About: "manifest", Text: fmt.Sprintf(
		"Remove %s from the configuration you apply (the manifest in Git, a kustomize patch, chart values)%s. While it is there, every apply sets the count back to that value, whatever the HPA decided; "+
			"%s, an apply without it keeps the live count.", path, val, when)})
	if la != nil {
		out = append(out, Advice{About: "kubectl", Text: "kubectl apply (client-side): apply the manifest without the field as usual; with the annotation rewritten, kubectl leaves the live count alone."})
	}
	for _, a := range appliers(r.Owners) {
		out = append(out, Advice{About: a.Manager, Text: fmt.Sprintf(
			"Server-side apply as %s: apply without %s as usual. If an apply fails with a conflict on %s with %s or %s, the field is still in that configuration: remove it there, do not force the conflict (--force-conflicts would take the count back).",
			a.Manager, path, path, FieldManager, HPAControllerManager)})
	}
	for _, tool := range r.Tools {
		switch tool.Name {
		case ToolHelm:
			out = append(out, Advice{
				About: ToolHelm, Text: fmt.Sprintf(
					"Change the chart so that it renders no %s while the HPA is on, then upgrade. Helm 3, and Helm 4 on a release installed client-side (--server-side=auto keeps the release's mode), "+
						"compute their patch from the previous release's manifest, not from the annotation or managedFields: the upgrade that drops the field sends it as null, and the API server resets the workload to 1 until the HPA's next sync. "+
						"No change in the cluster can prevent that null patch: make that one upgrade server-side (Helm 4: helm upgrade --server-side=true), where leaving a field out only gives up its ownership, or make it when a dip to 1 replica is acceptable.", path),
				Snippet: "{{- if not .Values.autoscaling.enabled }}\nreplicas: {{ .Values.replicaCount }}\n{{- end }}",
			})
		case ToolArgoCD:
			out = append(out, Advice{
				About: ToolArgoCD, Text: fmt.Sprintf(
					"Remove %s from the manifests in Git. If it has to stay there (a shared base, a chart you do not own), tell Argo CD to leave it alone instead: ignoreDifferences on /%s, "+
						"and the sync option RespectIgnoreDifferences=true, without which a sync still applies the Git value.", path, strings.ReplaceAll(path, ".", "/")),
				Snippet: fmt.Sprintf("spec:\n  ignoreDifferences:\n  - group: %s\n    kind: %s\n    jsonPointers:\n    - /%s\n  syncPolicy:\n    syncOptions:\n    - RespectIgnoreDifferences=true",
					groupOf(t.APIVersion), t.Kind, strings.ReplaceAll(path, ".", "/")),
			})
		case ToolFluxKustomize:
			out = append(out, Advice{About: ToolFluxKustomize, Text: fmt.Sprintf(
				"Remove %s from the manifests in Git (or the kustomize patch that sets it). kustomize-controller applies server-side: while the field is in Git, every reconciliation applies it again.", path)})
		case ToolFluxHelm:
			out = append(out, Advice{About: ToolFluxHelm, Text: fmt.Sprintf(
				"Change the HelmRelease's values (or the chart) so that %s is not rendered. helm-controller runs Helm, so the Helm note applies to its upgrades too.", path)})
		case ToolPulumi:
			out = append(out, Advice{About: ToolPulumi, Text: fmt.Sprintf(
				"Remove %s from the resource in the Pulumi program; Pulumi applies server-side under its own field manager.", path)})
		}
	}
	return out
}

func groupOf(apiVersion string) string {
	if g, _, ok := strings.Cut(apiVersion, "/"); ok {
		return g
	}
	return `""`
}

// liveReplicas reads the integer at path.
func liveReplicas(obj *unstructured.Unstructured, path []string) (int64, bool, error) {
	v, ok, err := unstructured.NestedFieldNoCopy(obj.Object, path...)
	if err != nil || !ok || v == nil {
		// A path through something that is not an object: the field is not set.
		return 0, false, nil
	}
	switch n := v.(type) {
	case int64:
		return n, true, nil
	case int32:
		return int64(n), true, nil
	case int:
		return int64(n), true, nil
	case float64:
		if n == float64(int64(n)) {
			return int64(n), true, nil
		}
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i, true, nil
		}
	}
	return 0, false, fmt.Errorf("%s of %s %s/%s is %v, not an integer", strings.Join(path, "."), obj.GetKind(), obj.GetNamespace(), obj.GetName(), v)
}

// lastApplied is the client-side apply annotation, parsed.
type lastApplied struct {
	raw   string
	sets  bool
	value string
	// after is the annotation without the field.
	after string
}

// readLastApplied parses the annotation; nil when there is none.
func readLastApplied(obj *unstructured.Unstructured, path []string) (*lastApplied, error) {
	raw, ok := obj.GetAnnotations()[LastAppliedAnnotation]
	if !ok {
		return nil, nil
	}
	la := &lastApplied{raw: raw}
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("annotation %s is not a JSON object (%w): repair it with kubectl apply edit-last-applied", LastAppliedAnnotation, err)
	}
	cur := doc
	for i, seg := range path {
		v, ok := cur[seg]
		if !ok {
			return la, nil
		}
		if i == len(path)-1 {
			la.sets = true
			b, _ := json.Marshal(v)
			la.value = string(b)
			delete(cur, seg)
			break
		}
		next, ok := v.(map[string]any)
		if !ok {
			return la, nil
		}
		cur = next
	}
	// Encode as kubectl does: compact, keys sorted, with its final newline
	// when the original had one.
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	la.after = string(b)
	if strings.HasSuffix(raw, "\n") {
		la.after += "\n"
	}
	return la, nil
}

// lastAppliedPatch is the merge patch of step rewrite-last-applied: the
// annotation, and the resourceVersion as a precondition.
func lastAppliedPatch(rv, after string) ([]byte, error) {
	return marshal(map[string]any{"metadata": map[string]any{
		"resourceVersion": rv,
		"annotations":     map[string]string{LastAppliedAnnotation: after},
	}})
}

// applyBody is the server-side apply configuration of step apply-replicas:
// the object's identity, the resourceVersion as a precondition, and the
// replica count at its live value; nothing else.
func applyBody(obj *unstructured.Unstructured, path []string, replicas int64, rv string) ([]byte, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetAPIVersion(obj.GetAPIVersion())
	u.SetKind(obj.GetKind())
	u.SetName(obj.GetName())
	u.SetNamespace(obj.GetNamespace())
	u.SetResourceVersion(rv)
	if err := unstructured.SetNestedField(u.Object, replicas, path...); err != nil {
		return nil, err
	}
	return marshal(u.Object)
}

// marshal is compact JSON without HTML escaping, so that bodies read as
// they are sent.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
