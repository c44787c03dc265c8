// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/migrate"
)

// Issue 6: kubectl hpa migrate on the real apiserver and HPA controller.
// Every flow watches the replica count from before its first write to its
// end, and logs the sequence it saw.

var deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

func TestMigrate(t *testing.T) {
	// Beside the other top-level tests: its namespaces are its own, and the
	// read-only checks of the tests beside it leave its namespaces out
	// (inOwnNamespaces).
	t.Parallel()
	for _, sc := range []struct {
		name string
		run  func(*scenario)
	}{
		{"mig-csa", func(s *scenario) { migClientSide(s, true) }},
		{"mig-csa-control", func(s *scenario) { migClientSide(s, false) }},
		{"mig-ssa", func(s *scenario) { migServerSide(s, true) }},
		{"mig-ssa-control", func(s *scenario) { migServerSide(s, false) }},
		{"mig-hpa-owned", migHPAOwned},
		{"mig-crd", migCustomResource},
		{"mig-refusals", migRefusals},
	} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			began := time.Now()
			sc.run(newScenario(t, sc.name))
			t.Logf("scenario %s took %v", sc.name, time.Since(began).Round(time.Second))
		})
	}
}

// --- helpers -------------------------------------------------------------------

// webManifest is Deployment web with CPU usage cpu per pod; replicas < 0
// leaves spec.replicas out.
func webManifest(ns string, replicas int, cpu string) string {
	r := ""
	if replicas >= 0 {
		r = fmt.Sprintf("  replicas: %d # set at launch\n", replicas)
	}
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: %s
spec:
%s  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
      annotations:
        %s: %s
    spec:
      containers:
      - name: app
        image: fake
        resources:
          requests:
            cpu: 500m
            memory: 128Mi
`, ns, r, annCPU, cpu)
}

// kubectl runs kubectl on the scenario's namespace with stdin.
func (s *scenario) kubectl(stdin string, args ...string) string {
	s.t.Helper()
	args = append([]string{"--kubeconfig", env.kubeconfig, "-n", s.ns}, args...)
	c := exec.CommandContext(s.ctx, "kubectl", args...)
	c.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		s.t.Fatalf("kubectl %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	s.t.Logf("kubectl %s: %s", strings.Join(args[4:], " "), strings.TrimSpace(out.String()))
	return out.String()
}

// migrate runs kubectl hpa migrate in this process, on the scenario's
// namespace.
func (s *scenario) migrate(args ...string) runResult {
	s.t.Helper()
	args = append(append([]string{"migrate"}, args...), "--kubeconfig", env.kubeconfig, "-n", s.ns)
	r := inProcess(args)
	s.t.Logf("kubectl hpa %s -> exit %d\nstderr: %s", strings.Join(args, " "), r.code, r.stderr)
	return r
}

// migrateJSON runs migrate with -o json, requires exit 0 and decodes the
// report.
func (s *scenario) migrateJSON(args ...string) *migrate.Report {
	s.t.Helper()
	r := s.migrate(append(args, "-o", "json")...)
	if r.code != 0 {
		s.t.Fatalf("migrate %v: exit %d\n%s", args, r.code, r.stderr)
	}
	var rep migrate.Report
	if err := json.Unmarshal(r.stdout, &rep); err != nil {
		s.t.Fatalf("migrate %v: %v\n%s", args, err, r.stdout)
	}
	return &rep
}

// refused runs migrate, which must fail with exit 1 and one "error: " line
// containing want, and writes nothing.
func (s *scenario) refused(want string, args ...string) {
	s.t.Helper()
	before := s.fingerprint("web")
	r := s.migrate(args...)
	msg := strings.TrimSpace(string(r.stderr))
	if r.code != 1 || !strings.HasPrefix(msg, "error: ") || strings.Count(msg, "\n") > 1 || !strings.Contains(msg, want) {
		s.t.Errorf("migrate %v: exit %d, stderr %q; want exit 1 and one error line with %q", args, r.code, msg, want)
	}
	if strings.Contains(msg, "panic") || strings.Contains(msg, "internal error") {
		s.t.Errorf("migrate %v: %s", args, msg)
	}
	if len(r.stdout) != 0 {
		s.t.Errorf("migrate %v printed on stdout:\n%s", args, r.stdout)
	}
	if after := s.fingerprint("web"); after != before {
		s.t.Errorf("migrate %v was refused but deployment web changed:\n%s\n->\n%s", args, before, after)
	}
}

// fingerprint is what migrate could change on Deployment NAME: its
// generation (any spec change), the last-applied annotation, and the
// managedFields entries outside the status. The controllers keep writing
// the status, so the resourceVersion is no good for this.
func (s *scenario) fingerprint(name string) string {
	u, err := dyn(s).Resource(deploymentsGVR).Namespace(s.ns).Get(s.ctx, name, metav1.GetOptions{})
	if err != nil {
		return "<none>"
	}
	var managers []string
	for _, e := range u.GetManagedFields() {
		if e.Subresource != "status" {
			managers = append(managers, e.Manager+"/"+string(e.Operation)+"/"+e.Subresource+" "+e.FieldsV1.GetRawString())
		}
	}
	return fmt.Sprintf("generation %d\nlast-applied %s\nmanagedFields %v", u.GetGeneration(), u.GetAnnotations()[migrate.LastAppliedAnnotation], managers)
}

// resourceVersion of an object, "" when it does not exist.
func (s *scenario) resourceVersion(gvr schema.GroupVersionResource, name string) string {
	u, err := dyn(s).Resource(gvr).Namespace(s.ns).Get(s.ctx, name, metav1.GetOptions{})
	if err != nil {
		return ""
	}
	return u.GetResourceVersion()
}

// owners returns the owners of the replica field of an object, as migrate
// sees them ("manager (Operation[, subresource S])").
func (s *scenario) owners(gvr schema.GroupVersionResource, name string, path ...string) (int64, []string) {
	s.t.Helper()
	u, err := dyn(s).Resource(gvr).Namespace(s.ns).Get(s.ctx, name, metav1.GetOptions{})
	if err != nil {
		s.t.Fatal(err)
	}
	n, _, _ := unstructured.NestedInt64(u.Object, path...)
	list, err := migrate.ReplicaOwners(u.GetManagedFields(), path)
	if err != nil {
		s.t.Fatal(err)
	}
	var out []string
	for _, o := range list {
		out = append(out, o.String())
	}
	return n, out
}

// replicaWatch records every replica count the apiserver reports for one
// object, from its start to the end of the scenario.
type replicaWatch struct {
	mu   sync.Mutex
	seen []int64
	// events are "value@resourceVersion".
	events []string
	done   chan struct{}
}

// watchReplicas watches the field path of object NAME (which may not exist
// yet), and restarts the watch from the last resourceVersion if the
// apiserver closes it.
func (s *scenario) watchReplicas(gvr schema.GroupVersionResource, name string, path ...string) *replicaWatch {
	s.t.Helper()
	w := &replicaWatch{done: make(chan struct{})}
	d := dyn(s)
	ctx, cancel := context.WithCancel(s.ctx)
	s.t.Cleanup(cancel)
	opts := metav1.ListOptions{FieldSelector: "metadata.name=" + name}
	start := func() (watch.Interface, error) { return d.Resource(gvr).Namespace(s.ns).Watch(ctx, opts) }
	wi, err := start()
	if err != nil {
		s.t.Fatalf("watch %s %s: %v", gvr.Resource, name, err)
	}
	go func() {
		defer close(w.done)
		for {
			for ev := range wi.ResultChan() {
				u, ok := ev.Object.(*unstructured.Unstructured)
				if !ok {
					continue
				}
				opts.ResourceVersion = u.GetResourceVersion()
				n, found, _ := unstructured.NestedInt64(u.Object, path...)
				if !found || ev.Type == watch.Deleted {
					continue
				}
				w.mu.Lock()
				if len(w.seen) == 0 || w.seen[len(w.seen)-1] != n {
					w.seen = append(w.seen, n)
				}
				w.events = append(w.events, fmt.Sprintf("%d@%s", n, u.GetResourceVersion()))
				w.mu.Unlock()
			}
			if ctx.Err() != nil {
				return
			}
			if wi, err = start(); err != nil {
				return
			}
		}
	}()
	return w
}

// values is the sequence of distinct consecutive values seen so far.
func (w *replicaWatch) values() []int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]int64(nil), w.seen...)
}

// waitFor waits until the watch has seen value n (after the first index
// from), and returns the index where it was seen.
func (s *scenario) waitFor(w *replicaWatch, n int64, from int, timeout time.Duration) int {
	s.t.Helper()
	idx := -1
	s.poll(fmt.Sprintf("replica count %d", n), timeout, func() error {
		vs := w.values()
		for i := from; i < len(vs); i++ {
			if vs[i] == n {
				idx = i
				return nil
			}
		}
		return fmt.Errorf("seen %v", vs)
	})
	return idx
}

// hold watches for d and fails if the count goes below low meanwhile.
func (s *scenario) hold(w *replicaWatch, low int64, from int, d time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		vs := w.values()
		for i := from; i < len(vs); i++ {
			if vs[i] < low {
				s.t.Fatalf("the replica count dropped to %d (sequence %v)", vs[i], vs)
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// neverBelow fails if any value after index from is below low.
func neverBelow(t *testing.T, vs []int64, low int64, from int) {
	t.Helper()
	for i := from; i < len(vs); i++ {
		if vs[i] < low {
			t.Errorf("the replica count went down to %d after reaching %d: sequence %v", vs[i], low, vs)
			return
		}
	}
}

func stepActions(r *migrate.Report) string {
	var out []string
	for _, st := range r.Steps {
		out = append(out, string(st.Action))
	}
	return strings.Join(out, ",")
}

// --- the flows -------------------------------------------------------------------

// migClientSide: kubectl apply (client-side) of a manifest with replicas 3;
// the pods use 80% of their CPU request against a 50% target, so the HPA
// scales to its maximum, 5. With migrate --apply, the manifest applied
// again without replicas keeps 5; the control, the same apply without
// migrate, drops the Deployment to 1 (the field is deleted and defaulted).
func migClientSide(s *scenario, withMigrate bool) {
	t := s.t
	w := s.watchReplicas(deploymentsGVR, "web", "spec", "replicas")
	s.kubectl(webManifest(s.ns, 3, "400500u"), "apply", "-f", "-")
	s.createHPA(hpaFor("web", 1, 5, noWindows(), cpuUtilization(50)))
	at5 := s.waitFor(w, 5, 0, 3*time.Minute)
	n, owners := s.owners(deploymentsGVR, "web", "spec", "replicas")
	t.Logf("after the HPA's scale-up: spec.replicas %d, owners %v", n, owners)
	if strings.Join(owners, ",") != "kube-controller-manager (Update, subresource scale)" {
		t.Errorf("owners after the HPA's scale-up = %v, want the HPA controller's scale entry", owners)
	}

	if withMigrate {
		plan := s.migrateJSON("deployment/web")
		if stepActions(plan) != string(migrate.ActionRewriteLastApplied) || plan.LastApplied == nil || plan.LastApplied.Replicas != "3" {
			t.Fatalf("plan: steps %q, last applied %+v", stepActions(plan), plan.LastApplied)
		}
		rep := s.migrateJSON("deployment/web", "--apply")
		if rep.Outcome != migrate.OutcomeMigrated || rep.Verification == nil || !rep.Verification.OK || rep.Steps[0].Result != migrate.ResultDone {
			t.Fatalf("migrate --apply: outcome %q, verification %+v", rep.Outcome, rep.Verification)
		}
		again := s.migrateJSON("deployment/web", "--apply")
		if again.Outcome != migrate.OutcomeNothingToDo || len(again.Steps) != 0 {
			t.Errorf("second run: outcome %q, steps %q", again.Outcome, stepActions(again))
		}
	}

	s.kubectl(webManifest(s.ns, -1, "400500u"), "apply", "-f", "-")
	if withMigrate {
		// Three sync periods of the HPA and the Deployment controller.
		s.hold(w, 5, at5, 3*syncPeriod)
		vs := w.values()
		t.Logf("replica counts seen (client-side apply, with migrate): %v", vs)
		neverBelow(t, vs, 5, at5)
		if n, _ := s.owners(deploymentsGVR, "web", "spec", "replicas"); n != 5 {
			t.Errorf("spec.replicas = %d after the apply without replicas, want 5", n)
		}
		return
	}
	s.waitFor(w, 1, at5, time.Minute)
	t.Logf("replica counts seen (client-side apply, control without migrate): %v", w.values())
}

// migServerSide: kubectl apply --server-side --field-manager=mine with
// replicas 3, and an HPA whose CPU metric sits at its target: the
// controller computes 3 and never writes the field (the race the
// documentation warns about). With migrate --apply (after a server-side dry
// run that must persist nothing), applying again without replicas keeps 3;
// the control drops to 1.
func migServerSide(s *scenario, withMigrate bool) {
	t := s.t
	w := s.watchReplicas(deploymentsGVR, "web", "spec", "replicas")
	s.kubectl(webManifest(s.ns, 3, "250500u"), "apply", "--server-side", "--field-manager=mine", "-f", "-")
	s.createHPA(hpaFor("web", 1, 10, noWindows(), cpuUtilization(50)))
	s.settle("web", settleOptions{}, desired(3), metricUtilization(0, 50), samplesForAllPods(s))
	n, owners := s.owners(deploymentsGVR, "web", "spec", "replicas")
	t.Logf("before: spec.replicas %d, owners %v", n, owners)
	if strings.Join(owners, ",") != "mine (Apply)" {
		t.Fatalf("owners = %v, want only mine (Apply): the controller must not have written the field", owners)
	}

	if withMigrate {
		rv := s.resourceVersion(deploymentsGVR, "web")
		dry := s.migrateJSON("deployment/web", "--dry-run=server")
		if dry.Outcome != migrate.OutcomeDryRun || !dry.Verification.OK || stepActions(dry) != "apply-replicas,release-ownership" {
			t.Fatalf("dry run: outcome %q, steps %q, verification %+v", dry.Outcome, stepActions(dry), dry.Verification)
		}
		if after := s.resourceVersion(deploymentsGVR, "web"); after != rv {
			t.Fatalf("the dry run changed the Deployment: resourceVersion %s -> %s", rv, after)
		}
		rep := s.migrateJSON("deployment/web", "--apply")
		if rep.Outcome != migrate.OutcomeMigrated || !rep.Verification.OK {
			t.Fatalf("migrate --apply: outcome %q, verification %+v", rep.Outcome, rep.Verification)
		}
		for _, st := range rep.Steps {
			t.Logf("step %d %s: %s\n  body: %s", st.Number, st.Action, st.Result, st.Request.Body)
		}
		n, owners = s.owners(deploymentsGVR, "web", "spec", "replicas")
		t.Logf("after migrate: spec.replicas %d, owners %v", n, owners)
		if n != 3 || strings.Join(owners, ",") != "kubectl-hpa-migrate (Apply)" {
			t.Errorf("after migrate: spec.replicas %d, owners %v; want 3, kubectl-hpa-migrate (Apply) only", n, owners)
		}
		if again := s.migrateJSON("deployment/web", "--apply"); again.Outcome != migrate.OutcomeNothingToDo {
			t.Errorf("second run: outcome %q, steps %q", again.Outcome, stepActions(again))
		}
	}

	s.kubectl(webManifest(s.ns, -1, "250500u"), "apply", "--server-side", "--field-manager=mine", "-f", "-")
	if withMigrate {
		s.hold(w, 3, 0, 3*syncPeriod)
		vs := w.values()
		t.Logf("replica counts seen (server-side apply, with migrate): %v", vs)
		neverBelow(t, vs, 3, 0)
		n, owners = s.owners(deploymentsGVR, "web", "spec", "replicas")
		t.Logf("after the apply without replicas: spec.replicas %d, owners %v", n, owners)
		if n != 3 {
			t.Errorf("spec.replicas = %d, want 3", n)
		}
		return
	}
	s.waitFor(w, 1, 0, time.Minute)
	t.Logf("replica counts seen (server-side apply, control without migrate): %v", w.values())
}

// migHPAOwned: the HPA has written the field (its minimum is above the
// applied count): it owns it through its scale subresource entry, and
// migrate says there is nothing to hand over, writes nothing, and an apply
// without replicas keeps the count.
func migHPAOwned(s *scenario) {
	t := s.t
	w := s.watchReplicas(deploymentsGVR, "web", "spec", "replicas")
	s.kubectl(webManifest(s.ns, 3, cpuIdle), "apply", "--server-side", "--field-manager=mine", "-f", "-")
	s.createHPA(hpaFor("web", 4, 10, noWindows(), cpuUtilization(50)))
	at4 := s.waitFor(w, 4, 0, time.Minute)
	s.poll("the HPA controller's scale entry", 30*time.Second, func() error {
		if _, owners := s.owners(deploymentsGVR, "web", "spec", "replicas"); strings.Join(owners, ",") != "kube-controller-manager (Update, subresource scale)" {
			return fmt.Errorf("owners %v", owners)
		}
		return nil
	})
	rv := s.resourceVersion(deploymentsGVR, "web")
	rep := s.migrateJSON("deployment/web", "--apply")
	t.Logf("migrate: outcome %s: %q", rep.Outcome, rep.NothingToDo)
	if rep.Outcome != migrate.OutcomeNothingToDo || len(rep.Steps) != 0 || !strings.Contains(strings.Join(rep.NothingToDo, " "), "the HPA controller already owns spec.replicas") {
		t.Errorf("outcome %q, steps %q, reasons %q", rep.Outcome, stepActions(rep), rep.NothingToDo)
	}
	text := s.migrate("deployment/web")
	if !strings.Contains(string(text.stdout), "Nothing to do") || !strings.Contains(string(text.stdout), "nothing to hand over") {
		t.Errorf("text output:\n%s", text.stdout)
	}
	if after := s.resourceVersion(deploymentsGVR, "web"); after != rv {
		// The Deployment controller may write the status; migrate writes
		// nothing: compare what migrate would have changed.
		if _, owners := s.owners(deploymentsGVR, "web", "spec", "replicas"); strings.Contains(strings.Join(owners, ","), migrate.FieldManager) {
			t.Errorf("migrate wrote although there was nothing to hand over: owners %v", owners)
		}
	}
	s.kubectl(webManifest(s.ns, -1, cpuIdle), "apply", "--server-side", "--field-manager=mine", "-f", "-")
	s.hold(w, 4, at4, 2*syncPeriod)
	vs := w.values()
	t.Logf("replica counts seen (HPA already owns the field): %v", vs)
	neverBelow(t, vs, 4, at4)
}

// migCustomResource: a custom resource whose CRD puts the replica count in
// .spec.size. migrate reads the path from the CRD, hands it over, and an
// apply without it keeps it; once the HPA writes through the scale
// subresource, its entry names .spec.size and there is nothing to do.
func migCustomResource(s *scenario) {
	t := s.t
	group := "mig-" + env.runID + ".kubectl-hpa.io"
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "gizmos." + group},
		"spec": map[string]any{
			"group": group, "scope": "Namespaced",
			"names": map[string]any{"plural": "gizmos", "singular": "gizmo", "kind": "Gizmo", "listKind": "GizmoList"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"spec": map[string]any{"type": "object", "properties": map[string]any{
							"size":  map[string]any{"type": "integer"},
							"color": map[string]any{"type": "string"},
						}},
						"status": map[string]any{"type": "object", "properties": map[string]any{
							"size":     map[string]any{"type": "integer"},
							"selector": map[string]any{"type": "string"},
						}},
					},
				}},
				"subresources": map[string]any{
					"status": map[string]any{},
					"scale":  map[string]any{"specReplicasPath": ".spec.size", "statusReplicasPath": ".status.size", "labelSelectorPath": ".status.selector"},
				},
			}},
		},
	}}
	d := dyn(s)
	if _, err := d.Resource(crdGVR).Create(s.ctx, crd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create CRD: %v", err)
	}
	t.Cleanup(func() { _ = d.Resource(crdGVR).Delete(context.Background(), crd.GetName(), metav1.DeleteOptions{}) })
	gvr := schema.GroupVersionResource{Group: group, Version: "v1", Resource: "gizmos"}
	manifest := func(size int) string {
		m := fmt.Sprintf("apiVersion: %s/v1\nkind: Gizmo\nmetadata:\n  name: g\nspec:\n  color: blue\n", group)
		if size >= 0 {
			m += fmt.Sprintf("  size: %d\n", size)
		}
		return m
	}
	s.poll("the Gizmo API", 60*time.Second, func() error {
		_, err := d.Resource(gvr).Namespace(s.ns).List(s.ctx, metav1.ListOptions{})
		return err
	})
	w := s.watchReplicas(gvr, "g", "spec", "size")
	s.kubectl(manifest(3), "apply", "--server-side", "--field-manager=mine", "-f", "-")
	// No status.selector: the controller cannot read metrics for it and
	// never writes the field.
	h := hpaFor("g", 1, 10, noWindows(), cpuUtilization(50))
	h.Spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference{APIVersion: group + "/v1", Kind: "Gizmo", Name: "g"}
	s.createHPA(h)
	s.poll("the HPA's first status", time.Minute, func() error {
		got, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(s.ns).Get(s.ctx, "g", metav1.GetOptions{})
		if err != nil || len(got.Status.Conditions) == 0 {
			return errors.New("no conditions yet")
		}
		return nil
	})

	plan := s.migrateJSON("gizmos." + group + "/g")
	if plan.Target.ReplicasPath != "spec.size" || stepActions(plan) != "apply-replicas,release-ownership" {
		t.Fatalf("plan: path %q (%s), steps %q", plan.Target.ReplicasPath, plan.Target.ReplicasPathSource, stepActions(plan))
	}
	var body bytes.Buffer
	if err := json.Compact(&body, plan.Steps[0].Request.Body); err != nil || !strings.Contains(body.String(), `"spec":{"size":3}`) {
		t.Errorf("apply body = %s (%v)", plan.Steps[0].Request.Body, err)
	}
	rep := s.migrateJSON("gizmo/g", "--apply")
	if rep.Outcome != migrate.OutcomeMigrated || !rep.Verification.OK {
		t.Fatalf("migrate --apply: outcome %q, verification %+v", rep.Outcome, rep.Verification)
	}
	s.kubectl(manifest(-1), "apply", "--server-side", "--field-manager=mine", "-f", "-")
	s.hold(w, 3, 0, 2*syncPeriod)
	n, owners := s.owners(gvr, "g", "spec", "size")
	t.Logf("after the apply without size: spec.size %d, owners %v", n, owners)
	if n != 3 {
		t.Errorf("spec.size = %d, want 3", n)
	}

	// The HPA's minimum goes above 3: it writes the scale subresource.
	patch := []byte(`{"spec":{"minReplicas":4}}`)
	if _, err := env.kube.AutoscalingV2().HorizontalPodAutoscalers(s.ns).Patch(s.ctx, "g", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	s.waitFor(w, 4, 0, time.Minute)
	n, owners = s.owners(gvr, "g", "spec", "size")
	t.Logf("after the HPA wrote the scale subresource: spec.size %d, owners %v", n, owners)
	if strings.Join(owners, ",") != "kube-controller-manager (Update, subresource scale)" {
		t.Errorf("owners of spec.size = %v, want the HPA controller's scale entry", owners)
	}
	if again := s.migrateJSON("gizmo/g", "--apply"); again.Outcome != migrate.OutcomeNothingToDo {
		t.Errorf("after the HPA wrote: outcome %q, steps %q", again.Outcome, stepActions(again))
	}
	vs := w.values()
	t.Logf("spec.size seen (custom resource): %v", vs)
	neverBelow(t, vs, 3, 0)
}

// migRefusals: no HPA, not scalable, a user who may only read, a
// resourceVersion conflict, several HPAs. Each refusal is one error line,
// exit 1, and nothing written.
func migRefusals(s *scenario) {
	t := s.t
	s.kubectl(webManifest(s.ns, 2, cpuIdle), "apply", "-f", "-")
	s.refused(`no HorizontalPodAutoscaler in namespace "`+s.ns+`" targets Deployment "web"`, "deployment/web", "--apply")

	if _, err := env.kube.CoreV1().ConfigMaps(s.ns).Create(s.ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "web"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	s.refused(`configmaps "web" in namespace "`+s.ns+`" is not scalable`, "configmap/web", "--apply")
	s.refused(`services "web" in namespace "`+s.ns+`" is not scalable`, "service/web")
	s.refused(`the server does not know the resource type "frobnicators"`, "frobnicators/web")

	s.createHPA(hpaFor("web", 1, 10, noWindows(), cpuUtilization(50)))

	t.Run("read-only-user", func(t *testing.T) {
		s := s.sub(t)
		user := "e2e-migrate-reader-" + env.runID
		s.readOnlyUser(user)
		// Reading is enough for the plan...
		if r := s.migrate("deployment/web", "--as", user); r.code != 0 || !bytes.Contains(r.stdout, []byte("Plan: 1 step")) {
			t.Errorf("plan as %s: exit %d\n%s%s", user, r.code, r.stdout, r.stderr)
		}
		// ...not for --apply, which refuses before its first write.
		s.refused(`not allowed to patch deployments.apps "web" in namespace "`+s.ns+`"`, "deployment/web", "--apply", "--as", user)
		s.refused(`not allowed to patch deployments.apps "web"`, "deployment/web", "--dry-run=server", "--as", user)
	})

	t.Run("resource-version-conflict", func(t *testing.T) {
		s := s.sub(t)
		c := migClients(t)
		tg, err := migrate.Resolve(s.ctx, c, "deployment", "web", s.ns)
		if err != nil {
			t.Fatal(err)
		}
		st, err := migrate.Inspect(s.ctx, c, tg)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := migrate.BuildPlan(st)
		if err != nil {
			t.Fatal(err)
		}
		// Someone changes the object between the read and the write.
		patch := []byte(`{"metadata":{"labels":{"changed":"meanwhile"}}}`)
		if _, err := env.kube.AppsV1().Deployments(s.ns).Patch(s.ctx, "web", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		before := s.resourceVersion(deploymentsGVR, "web")
		err = migrate.Execute(s.ctx, c, st, plan, migrate.ExecuteOptions{})
		t.Logf("Execute on a stale read: %v", err)
		if err == nil || !strings.Contains(err.Error(), "changed since it was read (resourceVersion precondition failed)") {
			t.Errorf("err = %v", err)
		}
		if after := s.resourceVersion(deploymentsGVR, "web"); after != before {
			t.Errorf("the stale write went through: resourceVersion %s -> %s", before, after)
		}
	})

	// The role of docs/rbac-migrate.yaml is enough for --apply.
	t.Run("role-of-docs", func(t *testing.T) {
		s := s.sub(t)
		user := "e2e-migrate-docs-role-" + env.runID
		s.docsRoleUser(user)
		rep := s.migrateJSON("deployment/web", "--apply", "--as", user)
		if rep.Outcome != migrate.OutcomeMigrated || rep.Verification == nil || !rep.Verification.OK {
			t.Errorf("migrate --apply as %s (bound to docs/rbac-migrate.yaml): outcome %q, verification %+v", user, rep.Outcome, rep.Verification)
		}
	})

	second := hpaFor("web-extra", 1, 10, noWindows(), cpuUtilization(80))
	second.Spec.ScaleTargetRef.Name = "web"
	s.createHPA(second)
	s.refused(`2 HorizontalPodAutoscalers in namespace "`+s.ns+`" target Deployment "web" (web, web-extra)`, "deployment/web", "--apply")
}

// readOnlyUser lets user get and list Deployments and HPAs of the namespace
// (and nothing else), and waits until the authorizer knows it.
func (s *scenario) readOnlyUser(user string) {
	s.t.Helper()
	role := &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: "migrate-reader"},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{"apps"}, Resources: []string{"deployments"}, Verbs: []string{"get", "list", "watch"}},
			{APIGroups: []string{"autoscaling"}, Resources: []string{"horizontalpodautoscalers"}, Verbs: []string{"get", "list", "watch"}},
		},
	}
	if _, err := env.kube.RbacV1().Roles(s.ns).Create(s.ctx, role, metav1.CreateOptions{}); err != nil {
		s.t.Fatal(err)
	}
	s.bindUser(user, "migrate-reader", rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: role.Name},
		authorizationv1.ResourceAttributes{Verb: "list", Group: "autoscaling", Resource: "horizontalpodautoscalers"})
}

// docsRoleUser binds the ClusterRole of docs/rbac-migrate.yaml (under a name
// unique to the run) to user in the namespace, and waits until the
// authorizer knows it.
func (s *scenario) docsRoleUser(user string) {
	s.t.Helper()
	data, err := os.ReadFile(filepath.Join(env.repoRoot, "docs", "rbac-migrate.yaml"))
	if err != nil {
		s.t.Fatal(err)
	}
	var cr rbacv1.ClusterRole
	if err := yaml.UnmarshalStrict(data, &cr); err != nil {
		s.t.Fatalf("docs/rbac-migrate.yaml: %v", err)
	}
	cr.Name += "-" + env.runID
	if _, err := env.kube.RbacV1().ClusterRoles().Create(s.ctx, &cr, metav1.CreateOptions{}); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() {
		_ = env.kube.RbacV1().ClusterRoles().Delete(context.Background(), cr.Name, metav1.DeleteOptions{})
	})
	s.bindUser(user, "migrate-docs-role", rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: cr.Name},
		authorizationv1.ResourceAttributes{Verb: "patch", Group: "apps", Resource: "deployments"})
}

// bindUser binds role to user in the namespace (RoleBinding name), and
// waits until the authorizer allows user what probe asks.
func (s *scenario) bindUser(user, name string, role rbacv1.RoleRef, probe authorizationv1.ResourceAttributes) {
	s.t.Helper()
	rb := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    role,
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: user}},
	}
	if _, err := env.kube.RbacV1().RoleBindings(s.ns).Create(s.ctx, rb, metav1.CreateOptions{}); err != nil {
		s.t.Fatal(err)
	}
	probe.Namespace = s.ns
	s.poll("RBAC for "+user, 30*time.Second, func() error {
		r, err := env.kube.AuthorizationV1().SubjectAccessReviews().Create(s.ctx, &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
			User: user, Groups: []string{"system:authenticated"}, ResourceAttributes: &probe,
		}}, metav1.CreateOptions{})
		if err != nil {
			return err
		}
		if !r.Status.Allowed {
			return errors.New("not allowed yet")
		}
		return nil
	})
}

// migClients are migrate's clients for the suite's admin user.
func migClients(t *testing.T) *migrate.Clients {
	t.Helper()
	d, err := dynamic.NewForConfig(env.cfg)
	if err != nil {
		t.Fatal(err)
	}
	disc := memory.NewMemCacheClient(env.kube.Discovery())
	mapper := restmapper.NewShortcutExpander(restmapper.NewDeferredDiscoveryRESTMapper(disc), disc, nil)
	return &migrate.Clients{Dynamic: d, Kube: env.kube, Mapper: mapper, Discovery: disc}
}
