// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	sigsyaml "sigs.k8s.io/yaml"
)

// readOnlyAndRBAC is item 5: the built binary, run as the admin and as a
// ServiceAccount bound to docs/rbac.yaml, makes only get and list requests
// (as the apiserver's audit log records them), and explain still works when
// the events are forbidden.
//
// The HPA reads every kind of input: CPU (metrics.k8s.io), a Pods and an
// Object metric (custom.metrics.k8s.io), an External metric, the pods, the
// scale subresource and the events. Every metric is on target, so it
// settles at 2 without rescaling.
func readOnlyAndRBAC(s *scenario) {
	t := s.t
	s.writeExternal("queue-depth", "queue=orders", "200")
	s.writeObjectMetric("deployments", "web", "requests-per-second", "100")
	s.deploy("web", 2, map[string]string{annCPU: "150500u"})
	for _, p := range s.waitPods("web", 2) {
		s.writePodMetric(p.Name, "packets-per-second", "100")
	}
	s.createHPA(hpaFor("web", 1, 10, noWindows(),
		cpuUtilization(50),
		podsAverage("packets-per-second", "100"),
		objectMetric("apps/v1", "Deployment", "web", "requests-per-second", "100", false),
		externalMetric("queue-depth", map[string]string{"queue": "orders"}, "100", true)))
	s.settle("web", settleOptions{}, desired(2), metricUtilization(0, 30), metricCurrent(1, "100"),
		metricCurrent(2, "100"), metricCurrent(3, "100"))

	bin, err := pluginBinary()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("admin-binary", func(t *testing.T) {
		s := s.sub(t)
		r := s.explainAgreesWithRun("web", binary(bin), env.kubeconfig)
		evs := s.auditOfRun(r, func(e *auditEvent) bool { return strings.HasPrefix(e.UserAgent, "kubectl-hpa/") },
			`"userAgent":"kubectl-hpa/`)
		for _, e := range nonReads(evs) {
			t.Errorf("explain made a request that is not a read: %s", &e)
		}
	})

	role, nsRoles := readRBAC(t)
	t.Run("serviceaccount", func(t *testing.T) {
		s := s.sub(t)
		user, kubeconfig := s.serviceAccount("hpa-reader", role, nsRoles, "")
		r := s.explainAgreesWithRun("web", binary(bin), kubeconfig)
		if strings.Contains(r.Stderr, "Warning") {
			t.Errorf("explain warned with the full role:\n%s", r.Stderr)
		}
		evs := s.auditOfRun(r, func(e *auditEvent) bool { return e.User.Username == user }, `"username":"`+user+`"`)
		for _, e := range evs {
			if !readOnlyVerbs[e.Verb] {
				t.Errorf("request that is not a read: %s", &e)
			}
			if e.Stage == "ResponseComplete" && e.code() >= 400 {
				t.Errorf("request refused with the role of docs/rbac.yaml: %s", &e)
			}
		}
	})

	t.Run("serviceaccount-without-events", func(t *testing.T) {
		s := s.sub(t)
		user, kubeconfig := s.serviceAccount("hpa-reader-no-events", withoutEvents(role), nsRoles, "events")
		r := s.explainAgreesWithRun("web", binary(bin), kubeconfig)
		if !strings.Contains(r.Stderr, "could not read the HPA's events (forbidden)") {
			t.Errorf("explain does not say it could not read the events; stderr:\n%s", r.Stderr)
		}
		evs := s.auditOfRun(r, func(e *auditEvent) bool { return e.User.Username == user }, `"username":"`+user+`"`)
		var refused []string
		for _, e := range evs {
			if !readOnlyVerbs[e.Verb] {
				t.Errorf("request that is not a read: %s", &e)
			}
			if e.Stage == "ResponseComplete" && e.code() >= 400 {
				refused = append(refused, e.String())
				if e.code() != 403 || !strings.Contains(e.RequestURI, "/events") {
					t.Errorf("refused request other than the events list: %s", &e)
				}
			}
		}
		if len(refused) == 0 {
			t.Errorf("the audit log shows no refused events request")
		}
	})
}

// sub returns the scenario for a subtest.
func (s *scenario) sub(t *testing.T) *scenario {
	t.Helper()
	return &scenario{t: t, ctx: s.ctx, ns: s.ns, written: s.written}
}

// explainAgreesWithRun is explainAgreesWith, returning the run too.
func (s *scenario) explainAgreesWithRun(name string, run runner, kubeconfig string) *replayed {
	s.t.Helper()
	var last *replayed
	wrapped := func(args []string) runResult {
		r := run(args)
		last = &replayed{Run: r, Stderr: string(r.stderr)}
		return r
	}
	s.explainAgreesWith(name, wrapped, kubeconfig)
	s.t.Logf("explain stderr:\n%s", last.Stderr)
	return last
}

// auditOfRun returns the audit events (every stage) of one run: those keep
// selects, received while it ran. It waits until the log holds at least the
// number of API calls the plugin reported (-v), and checks that it does.
func (s *scenario) auditOfRun(r *replayed, keep func(*auditEvent) bool, quick string) []auditEvent {
	s.t.Helper()
	n, ok := apiCallCount(r.Run.stderr)
	if !ok {
		s.t.Fatalf("explain -v printed no call count:\n%s", r.Stderr)
	}
	evs, err := waitAudit(quick, n, func(e *auditEvent) bool {
		return keep(e) && inWindow(e, r.Run.start, r.Run.end)
	})
	if err != nil {
		s.t.Fatal(err)
	}
	done := completed(evs)
	s.t.Logf("audit log: %d requests in the run's window; the plugin reported %d API calls", len(done), n)
	if len(done) < n {
		s.t.Errorf("the audit log holds %d of the run's requests, fewer than the %d it reported", len(done), n)
	}
	for _, e := range done {
		s.t.Logf("  %s %s -> %d", e.Verb, e.RequestURI, e.code())
	}
	return evs
}

// readRBAC reads docs/rbac.yaml: its ClusterRole (exactly one) and its
// namespaced Roles (the optional read of the controller's flags).
func readRBAC(t *testing.T) (*rbacv1.ClusterRole, []rbacv1.Role) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(env.repoRoot, "docs", "rbac.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var (
		cr    *rbacv1.ClusterRole
		roles []rbacv1.Role
	)
	docs := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
	for {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("docs/rbac.yaml: %v", err)
		}
		var meta metav1.TypeMeta
		if err := sigsyaml.Unmarshal(doc, &meta); err != nil {
			t.Fatalf("docs/rbac.yaml: %v", err)
		}
		switch meta.Kind {
		case "ClusterRole":
			if cr != nil {
				t.Fatal("docs/rbac.yaml holds more than one ClusterRole")
			}
			cr = &rbacv1.ClusterRole{}
			if err := sigsyaml.UnmarshalStrict(doc, cr); err != nil {
				t.Fatalf("docs/rbac.yaml: %v", err)
			}
		case "Role":
			var r rbacv1.Role
			if err := sigsyaml.UnmarshalStrict(doc, &r); err != nil {
				t.Fatalf("docs/rbac.yaml: %v", err)
			}
			roles = append(roles, r)
		case "":
		default:
			t.Fatalf("docs/rbac.yaml: unexpected kind %q", meta.Kind)
		}
	}
	if cr == nil {
		t.Fatal("docs/rbac.yaml holds no ClusterRole")
	}
	return cr, roles
}

// withoutEvents returns role without any access to events.
func withoutEvents(role *rbacv1.ClusterRole) *rbacv1.ClusterRole {
	out := role.DeepCopy()
	out.Rules = nil
	for _, r := range role.Rules {
		var res []string
		for _, x := range r.Resources {
			if x != "events" {
				res = append(res, x)
			}
		}
		if len(res) > 0 {
			r.Resources = res
			out.Rules = append(out.Rules, r)
		}
	}
	return out
}

// serviceAccount creates ServiceAccount NAME, a copy of role under a name
// unique to this run bound to it in the scenario's namespace, a copy of each
// namespaced Role bound to it in that Role's namespace, and a kubeconfig
// with a token for the ServiceAccount (TokenRequest). It waits until the
// apiserver's authorizer knows the bindings, checking that the events are
// denied iff denied == "events". It returns the user name and the
// kubeconfig path.
func (s *scenario) serviceAccount(name string, role *rbacv1.ClusterRole, nsRoles []rbacv1.Role, denied string) (string, string) {
	s.t.Helper()
	t, ctx := s.t, s.ctx
	user := fmt.Sprintf("system:serviceaccount:%s:%s", s.ns, name)
	cr := role.DeepCopy()
	cr.ObjectMeta = metav1.ObjectMeta{Name: fmt.Sprintf("%s-e2e-%s-%s", role.Name, env.runID, name)}
	if _, err := env.kube.RbacV1().ClusterRoles().Create(ctx, cr, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.kube.RbacV1().ClusterRoles().Delete(ctx, cr.Name, metav1.DeleteOptions{}) })
	if _, err := env.kube.CoreV1().ServiceAccounts(s.ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	subjects := []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: s.ns}}
	if _, err := env.kube.RbacV1().RoleBindings(s.ns).Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: cr.Name},
		Subjects:   subjects,
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	type access struct {
		namespace, resource string
		allowed             bool
	}
	checks := []access{{s.ns, "pods", true}, {s.ns, "events", denied != "events"}}
	for _, r := range nsRoles {
		r := r.DeepCopy()
		r.ObjectMeta = metav1.ObjectMeta{Name: fmt.Sprintf("%s-e2e-%s-%s", r.Name, env.runID, name), Namespace: r.Namespace}
		if _, err := env.kube.RbacV1().Roles(r.Namespace).Create(ctx, r, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = env.kube.RbacV1().Roles(r.Namespace).Delete(ctx, r.Name, metav1.DeleteOptions{}) })
		if _, err := env.kube.RbacV1().RoleBindings(r.Namespace).Create(ctx, &rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: r.Name},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: r.Name},
			Subjects:   subjects,
		}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = env.kube.RbacV1().RoleBindings(r.Namespace).Delete(ctx, r.Name, metav1.DeleteOptions{}) })
		for _, rule := range r.Rules {
			for _, res := range rule.Resources {
				checks = append(checks, access{r.Namespace, res, true})
			}
		}
	}
	s.poll("the RoleBindings to take effect", 30*time.Second, func() error {
		for _, c := range checks {
			sar, err := env.kube.AuthorizationV1().SubjectAccessReviews().Create(ctx, &authorizationv1.SubjectAccessReview{
				Spec: authorizationv1.SubjectAccessReviewSpec{
					User:               user,
					Groups:             []string{"system:serviceaccounts", "system:serviceaccounts:" + s.ns, "system:authenticated"},
					ResourceAttributes: &authorizationv1.ResourceAttributes{Namespace: c.namespace, Verb: "list", Resource: c.resource},
				},
			}, metav1.CreateOptions{})
			if err != nil {
				return err
			}
			if sar.Status.Allowed != c.allowed {
				return fmt.Errorf("list %s in %s allowed=%v, want %v", c.resource, c.namespace, sar.Status.Allowed, c.allowed)
			}
		}
		return nil
	})
	tr, err := env.kube.CoreV1().ServiceAccounts(s.ns).CreateToken(ctx, name, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr[int64](3600)},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("TokenRequest for %s: %v", name, err)
	}
	kc := clientcmdapi.NewConfig()
	kc.Clusters["local"] = &clientcmdapi.Cluster{Server: env.cfg.Host, CertificateAuthorityData: env.cfg.CAData}
	if len(env.cfg.CAData) == 0 && env.cfg.CAFile != "" {
		kc.Clusters["local"].CertificateAuthority = env.cfg.CAFile
	}
	kc.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: tr.Status.Token}
	kc.Contexts[name] = &clientcmdapi.Context{Cluster: "local", AuthInfo: name, Namespace: s.ns}
	kc.CurrentContext = name
	path := filepath.Join(t.TempDir(), name+".kubeconfig")
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		t.Fatal(err)
	}
	return user, path
}
