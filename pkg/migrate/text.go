// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the report for people: what was found, the numbered
// steps with their exact requests, what is left to do outside the cluster,
// and the manifest diffs. name words the options the text mentions.
func WriteText(w io.Writer, r *Report, name OptionName) error {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", named(name, args)...) }
	t := r.Target
	path := t.ReplicasPath

	p("%s %s/%s → HorizontalPodAutoscaler %s", t.Kind, t.Namespace, t.Name, r.HPA.Name)
	live := "<unset>"
	if t.Replicas != nil {
		live = fmt.Sprint(*t.Replicas)
	}
	p("  %-22s %s (live, resourceVersion %s)", path, live, t.ResourceVersion)
	if path != "spec.replicas" || !strings.HasPrefix(t.ReplicasPathSource, "the built-in") {
		p("  %-22s %s", "replicas path", t.ReplicasPathSource)
	}
	minR := "<unset>"
	if r.HPA.MinReplicas != nil {
		minR = fmt.Sprint(*r.HPA.MinReplicas)
	}
	p("  %-22s min %s, max %d, current %d, desired %d", "HPA "+r.HPA.Name, minR, r.HPA.MaxReplicas, r.HPA.CurrentReplicas, r.HPA.DesiredReplicas)
	p("")

	p("Who sets %s", path)
	switch la := r.LastApplied; {
	case la == nil:
		p("  %-22s <none> (not applied with kubectl client-side apply)", "last-applied-config")
	case la.SetsReplicas:
		p("  %-22s sets it to %s", "last-applied-config", la.Replicas)
	default:
		p("  %-22s does not set it", "last-applied-config")
	}
	if len(r.Owners) == 0 {
		p("  %-22s <none>", "managedFields")
	}
	for i, o := range r.Owners {
		label := ""
		if i == 0 {
			label = "managedFields"
		}
		line := fmt.Sprintf("  %-22s %s  %s", label, o.String(), roleText(o.Role))
		if o.Known != "" && o.Role != RoleHPA && o.Role != RoleMigrate {
			line += " [" + o.Known + "]"
		}
		p("%s", line)
	}
	if len(r.Tools) == 0 {
		p("  %-22s <none detected>", "delivery tools")
	}
	for i, tool := range r.Tools {
		label := ""
		if i == 0 {
			label = "delivery tools"
		}
		p("  %-22s %s: %s", label, tool.Name, strings.Join(tool.Evidence, "; "))
	}
	for _, risk := range r.Risks {
		p("  risk: %s", risk)
	}
	p("")

	writeSteps(p, r)

	if v := r.Verification; v != nil {
		status := "OK"
		if !v.OK {
			status = "FAILED"
		}
		p("Verification (object read back): %s", status)
		for _, c := range v.Checks {
			p("  ok: %s", c)
		}
		for _, c := range v.Problems {
			p("  problem: %s", c)
		}
		owners := "<none>"
		if len(v.Owners) > 0 {
			owners = strings.Join(v.Owners, ", ")
		}
		p("  owners of %s: %s", path, owners)
		p("")
	}

	if len(r.Outside) > 0 {
		p("Still to do outside the cluster")
		for _, a := range r.Outside {
			p("  - %s: %s", a.About, a.Text)
			if a.Snippet != "" {
				for _, l := range strings.Split(a.Snippet, "\n") {
					p("        %s", l)
				}
			}
		}
		p("")
	}

	if len(r.Manifests) > 0 {
		p("Manifests")
		for _, m := range r.Manifests {
			p("  %s:%d: %s sets %s to %s: %s", m.File, m.Line, m.Object, path, m.Replicas, manifestText(m))
		}
		for _, d := range r.ManifestDiffs {
			p("")
			switch {
			case d.Written:
				p("Saved %s:", d.File)
			case d.File == StdinPath:
				p("Diff of %s (the edited manifest is printed to standard output):", d.File)
			default:
				p("Diff of %s (not saved; %s saves it):", d.File, OptionWrite)
			}
			b.WriteString(d.Diff)
		}
		p("")
	}
	for _, wn := range r.Warnings {
		p("Warning: %s", wn)
	}
	out := strings.TrimRight(b.String(), "\n") + "\n"
	_, err := io.WriteString(w, out)
	return err
}

func writeSteps(p func(string, ...any), r *Report) {
	path := r.Target.ReplicasPath
	n := len(r.Steps)
	switch {
	case n == 0:
		p("Nothing to do")
		for _, why := range r.NothingToDo {
			p("  - %s", why)
		}
		p("")
		return
	case r.Mode == ModePlan:
		p("Plan: %d %s; nothing has been written (%s carries it out, %s has the API server check it)", n, plural(n, "step", "steps"), OptionApply, OptionDryRunServer)
	case r.Mode == ModeDryRun:
		p("Dry run: %d %s sent with dryRun=All; the API server accepted them and persisted nothing", n, plural(n, "step", "steps"))
	default:
		p("Applied: %d %s", n, plural(n, "step", "steps"))
	}
	for _, s := range r.Steps {
		p("")
		p("  %d. %s", s.Number, s.Title)
		p("     why: %s", s.Why)
		req := s.Request
		kind := map[string]string{
			"application/merge-patch+json": "JSON merge patch",
			"application/apply-patch+yaml": "server-side apply",
			"application/json-patch+json":  "JSON patch",
		}[req.PatchType]
		force := ""
		if req.Force != nil {
			force = fmt.Sprintf(", force=%v", *req.Force)
		}
		dry := ""
		if req.DryRun {
			dry = ", dryRun=All"
		}
		p("     request: %s %s/%s -n %s, %s (%s), fieldManager=%s%s%s", req.Verb, req.Resource, req.Name, req.Namespace, kind, req.PatchType, req.FieldManager, force, dry)
		p("     precondition: %s", req.Precondition)
		if len(req.Body) > 0 {
			p("     body: %s", string(req.Body))
		}
		if s.Before != "" || s.After != "" {
			p("     annotation before: %s", strings.TrimSuffix(s.Before, "\n"))
			p("     annotation after:  %s", strings.TrimSuffix(s.After, "\n"))
		}
		for _, c := range s.Changes {
			p("     change: %s", c)
		}
		p("     %s after this step: %d (unchanged)", path, s.ReplicasAfter)
		owners := "<none>"
		if len(s.OwnersAfter) > 0 {
			owners = strings.Join(s.OwnersAfter, ", ")
		}
		p("     owners of %s after this step: %s", path, owners)
		if s.Result != "" {
			res := s.Result
			if s.Note != "" {
				res += ": " + s.Note
			}
			p("     result: %s", res)
		}
	}
	p("")
}

func manifestText(m ManifestChange) string {
	var s string
	switch m.Action {
	case ManifestRemove:
		s = "removed (see the diff)"
	case ManifestFlag:
		s = "left alone"
	case ManifestSkip:
		s = "not edited"
	}
	if m.Note != "" {
		s += ": " + m.Note
	}
	return s
}

func roleText(r Role) string {
	switch r {
	case RoleHPA:
		return "the HPA controller"
	case RoleScaler:
		return "writes the scale subresource; keeps the field alive"
	case RoleApplier:
		return "server-side apply: an apply without the field deletes it, unless another manager owns it"
	case RoleUpdater:
		return "update or patch: leaving the field out does not delete it"
	case RoleMigrate:
		return "this hand-over"
	default:
		return string(r)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
