// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	fakediscovery "k8s.io/client-go/discovery/fake"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/restmapper"
	clienttesting "k8s.io/client-go/testing"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/migrate"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

func runMigrateFlags(t *testing.T, args ...string) (*MigrateOptions, error) {
	t.Helper()
	streams, _, _, _ := genericiooptions.NewTestIOStreams()
	var got *MigrateOptions
	c := NewCmdMigrate(streams, nil, func(o *MigrateOptions) error {
		got = o
		return nil
	})
	c.SetArgs(args)
	c.SetOut(&bytes.Buffer{})
	c.SetErr(&bytes.Buffer{})
	c.SilenceErrors = true
	c.SilenceUsage = true
	return got, c.Execute()
}

func TestMigrate_flags(t *testing.T) {
	o, err := runMigrateFlags(t, "deploy/web", "-n", "shop", "-f", "a.yaml,dir", "-R", "--write", "-o", "yaml")
	if err != nil {
		t.Fatal(err)
	}
	if o.Type != "deploy" || o.Name != "web" || o.Namespace != "shop" || strings.Join(o.Input.Filenames, " ") != "a.yaml dir" ||
		!o.Input.Recursive || !o.Input.Write || o.Format() != render.FormatYAML || o.Execute() || o.ServerDryRun() {
		t.Errorf("options = %+v", o)
	}
	for _, tc := range []struct {
		args            []string
		execute, dryRun bool
	}{
		{[]string{"deploy/web"}, false, false},
		{[]string{"deploy/web", "--apply"}, true, false},
		{[]string{"deploy/web", "--dry-run=server"}, true, true},
		{[]string{"deploy/web", "--dry-run"}, true, true},
		{[]string{"deploy/web", "--apply", "--dry-run=server"}, true, true},
		{[]string{"deploy/web", "--dry-run=client"}, false, false},
		{[]string{"deploy/web", "--apply", "--dry-run=none"}, true, false},
	} {
		o, err := runMigrateFlags(t, tc.args...)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if o.Execute() != tc.execute || o.ServerDryRun() != tc.dryRun {
			t.Errorf("%v: execute %v dry-run %v", tc.args, o.Execute(), o.ServerDryRun())
		}
	}
}

func TestMigrate_badFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "migrate takes exactly one TYPE/NAME"},
		{[]string{"web"}, `"web" is not TYPE/NAME`},
		{[]string{"deploy/web", "deploy/api"}, "exactly one TYPE/NAME"},
		{[]string{"deploy/web", "--write"}, "--write saves the manifests given with -f"},
		{[]string{"deploy/web", "--dry-run=maybe"}, `--dry-run: "maybe" is not one of none, client, server`},
		{[]string{"deploy/web", "--apply", "--dry-run=client"}, "contradict"},
		{[]string{"deploy/web", "-o", "xml"}, `unknown output format "xml"`},
	} {
		_, err := runMigrateFlags(t, tc.args...)
		var fe *FlagError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &fe) {
			t.Errorf("%v: err = %v, want a FlagError with %q", tc.args, err, tc.want)
		}
	}
}

// fakeCluster serves the Deployment of ../migrate/testdata/objects/NAME.yaml
// and, with hpa, an HPA that targets it.
func fakeCluster(t *testing.T, name string, hpa bool) (*migrate.Clients, *unstructured.Unstructured, *dynamicfake.FakeDynamicClient) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "migrate", "testdata", "objects", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(j); err != nil {
		t.Fatal(err)
	}
	c, dyn := fakeClusterOf(t, obj, hpa)
	return c, obj, dyn
}

// fakeClusterOf serves obj, a Deployment, and with hpa an HPA that targets
// it.
func fakeClusterOf(t *testing.T, obj *unstructured.Unstructured, hpa bool) (*migrate.Clients, *dynamicfake.FakeDynamicClient) {
	t.Helper()
	var objs []runtime.Object
	if hpa {
		h := &autoscalingv2.HorizontalPodAutoscaler{}
		h.Name, h.Namespace = obj.GetName(), obj.GetNamespace()
		h.Spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: obj.GetName()}
		h.Spec.MaxReplicas = 10
		objs = append(objs, h)
	}
	kube := kubefake.NewClientset(objs...)
	kube.PrependReactor("create", "selfsubjectaccessreviews", func(a clienttesting.Action) (bool, runtime.Object, error) {
		r := a.(clienttesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview).DeepCopy()
		r.Status.Allowed = true
		return true, r, nil
	})
	disc := kube.Discovery().(*fakediscovery.FakeDiscovery)
	disc.Resources = []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{{Name: "configmaps", Kind: "ConfigMap", Namespaced: true, Verbs: []string{"get"}}}},
		{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{
			{Name: "deployments", Kind: "Deployment", Namespaced: true, ShortNames: []string{"deploy"}, Verbs: []string{"get"}},
			{Name: "deployments/scale", Kind: "Scale", Group: "autoscaling", Version: "v1", Namespaced: true},
		}},
	}
	groups, err := restmapper.GetAPIGroupResources(disc)
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewShortcutExpander(restmapper.NewDiscoveryRESTMapper(groups), disc, nil)
	dyn := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme(), obj.DeepCopy())
	return &migrate.Clients{Dynamic: dyn, Kube: kube, Mapper: mapper, Discovery: disc}, dyn
}

// runMigrate runs the migrate command on the fake cluster.
func runMigrate(t *testing.T, c *migrate.Clients, args ...string) (string, string, error) {
	t.Helper()
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	cmd := NewCmdMigrate(streams, nil, func(o *MigrateOptions) error {
		o.Clients.MigrateClients = c
		return o.Run(context.Background())
	})
	cmd.SetArgs(args)
	cmd.SilenceErrors = true
	cmd.SilenceUsage = true
	err := cmd.Execute()
	return out.String(), errOut.String(), err
}

func TestMigrate_run(t *testing.T) {
	c, obj, dyn := fakeCluster(t, "kubectl-csa", true)
	dir := t.TempDir()
	manifest := filepath.Join(dir, "web.yaml")
	src := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: kubectl-csa\n  namespace: mig-scratch\nspec:\n  replicas: 3 # launch\n  selector: {}\n"
	if err := os.WriteFile(manifest, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}

	// The plan writes nothing, neither to the cluster nor to the files.
	out, _, err := runMigrate(t, c, "deployment/kubectl-csa", "-n", "mig-scratch", "-f", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Plan: 1 step; nothing has been written", "-  replicas: 3 # launch", "not saved; --write saves it"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan output lacks %q:\n%s", want, out)
		}
	}
	for _, a := range dyn.Actions() {
		if a.GetVerb() != "get" {
			t.Errorf("the plan made a %s request", a.GetVerb())
		}
	}
	if b, _ := os.ReadFile(manifest); string(b) != src {
		t.Errorf("the plan changed the manifest")
	}

	// --apply --write: the annotation is rewritten, the manifest saved.
	out, errOut, err := runMigrate(t, c, "deployment/kubectl-csa", "-n", "mig-scratch", "-f", manifest, "--apply", "--write", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var r migrate.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if r.Kind != migrate.Kind || r.Mode != migrate.ModeApply || r.Outcome != migrate.OutcomeMigrated || r.Verification == nil || !r.Verification.OK ||
		len(r.ManifestDiffs) != 1 || !r.ManifestDiffs[0].Written {
		t.Errorf("report = %s", out)
	}
	if !strings.Contains(errOut, "Wrote "+manifest) {
		t.Errorf("stderr = %q", errOut)
	}
	if b, _ := os.ReadFile(manifest); string(b) != strings.Replace(src, "  replicas: 3 # launch\n", "", 1) {
		t.Errorf("manifest = %s", b)
	}
	live, _ := dyn.Resource(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}).Namespace("mig-scratch").Get(context.Background(), obj.GetName(), metav1.GetOptions{})
	if strings.Contains(live.GetAnnotations()[migrate.LastAppliedAnnotation], "replicas") {
		t.Errorf("annotation not rewritten")
	}

	// A second run: nothing to do.
	out, _, err = runMigrate(t, c, "deployment/kubectl-csa", "-n", "mig-scratch", "--apply")
	if err != nil || !strings.Contains(out, "Nothing to do") {
		t.Errorf("second run: %v\n%s", err, out)
	}
}

func TestMigrate_refusals(t *testing.T) {
	c, _, _ := fakeCluster(t, "kubectl-csa", false)
	_, _, err := runMigrate(t, c, "deployment/kubectl-csa", "-n", "mig-scratch", "--apply")
	if err == nil || !strings.HasPrefix(err.Error(), `no HorizontalPodAutoscaler in namespace "mig-scratch" targets Deployment "kubectl-csa"`) {
		t.Errorf("no HPA: %v", err)
	}
	_, _, err = runMigrate(t, c, "configmap/kubectl-csa", "-n", "mig-scratch")
	if err == nil || !strings.Contains(err.Error(), "is not scalable") {
		t.Errorf("configmap: %v", err)
	}
	_, _, err = runMigrate(t, c, "deployment/nope", "-n", "mig-scratch")
	if err == nil || !strings.Contains(err.Error(), `read deployments.apps "nope" in namespace "mig-scratch"`) {
		t.Errorf("missing: %v", err)
	}
}

// With -f -, migrate is a filter: the manifest read from stdin comes out
// edited on stdout, whole (a List keeps its other items and comments), and
// the report goes to stderr.
func TestMigrate_stdin(t *testing.T) {
	c, _, _ := fakeCluster(t, "kubectl-csa", true)
	src := "apiVersion: v1\nkind: List\nitems:\n# the app\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: kubectl-csa\n    namespace: mig-scratch\n  spec:\n    replicas: 3 # launch\n    selector: {}\n- apiVersion: v1\n  kind: Service\n  metadata:\n    name: kubectl-csa\n"
	streams, in, out, errOut := genericiooptions.NewTestIOStreams()
	in.WriteString(src)
	cmd := NewCmdMigrate(streams, nil, func(o *MigrateOptions) error {
		o.Clients.MigrateClients = c
		return o.Run(context.Background())
	})
	cmd.SetArgs([]string{"deployment/kubectl-csa", "-n", "mig-scratch", "-f", "-"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(src, "    replicas: 3 # launch\n", "", 1); out.String() != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	for _, want := range []string{"Plan: 1 step", "-    replicas: 3 # launch", "<stdin>"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut.String(), "--write saves it") {
		t.Errorf("stderr suggests --write for stdin:\n%s", errOut)
	}

	if _, err := runMigrateFlags(t, "deploy/web", "-f", "-", "--write"); err == nil || !strings.Contains(err.Error(), "printed to standard output") {
		t.Errorf("--write with -f -: %v", err)
	}
}

// A controller writing the object's status between migrate's read and its
// write makes the resourceVersion precondition refuse the step: migrate
// reads and plans again, as a user running it again would, and says so; it
// gives up, naming the step, when the object keeps changing.
func TestMigrate_staleRead(t *testing.T) {
	conflict := apierrors.NewConflict(schema.GroupResource{Group: "apps", Resource: "deployments"}, "kubectl-csa",
		errors.New("the object has been modified; please apply your changes to the latest version and try again"))
	for _, tc := range []struct {
		name      string
		conflicts int
		wantErr   string
		wantWarn  string
		wantGets  int
	}{
		{name: "once", conflicts: 1, wantWarn: "changed between the read and the write 1 time(s) (step 1 refused, nothing written", wantGets: 3},
		{name: "twice", conflicts: 2, wantWarn: "changed between the read and the write 2 time(s)", wantGets: 4},
		{name: "always", conflicts: 100, wantErr: "step 1 (rewrite-last-applied): deployments.apps \"kubectl-csa\" in namespace \"mig-scratch\" changed since it was read (resourceVersion precondition failed), so the step wrote nothing; nothing was written; run kubectl hpa migrate again to plan from the current object (after 5 reads, each time changed before the write)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, dyn := fakeCluster(t, "kubectl-csa", true)
			n := 0
			dyn.PrependReactor("patch", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
				if n < tc.conflicts {
					n++
					return true, nil, conflict
				}
				return false, nil, nil
			})
			out, _, err := runMigrate(t, c, "deployment/kubectl-csa", "-n", "mig-scratch", "--apply", "-o", "json")
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err = %v\nwant %s", err, tc.wantErr)
				}
				if n != 5 {
					t.Errorf("%d patches refused, want 5 (one per read)", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var r migrate.Report
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("%v:\n%s", err, out)
			}
			if r.Outcome != migrate.OutcomeMigrated || r.Verification == nil || !r.Verification.OK {
				t.Errorf("outcome %q, verification %+v", r.Outcome, r.Verification)
			}
			if w := strings.Join(r.Warnings, "\n"); !strings.Contains(w, tc.wantWarn) {
				t.Errorf("warnings = %q, want %q", w, tc.wantWarn)
			}
			gets := 0
			for _, a := range dyn.Actions() {
				if a.GetVerb() == "get" && a.GetResource().Resource == "deployments" {
					gets++
				}
			}
			// One read per plan, and the read back that verifies.
			if gets != tc.wantGets {
				t.Errorf("%d reads of the Deployment, want %d", gets, tc.wantGets)
			}
		})
	}
}
