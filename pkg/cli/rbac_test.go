// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"
)

// rbacRule is one rule of docs/rbac.yaml or docs/rbac-migrate.yaml.
type rbacRule struct {
	file string
	// role and index name it in the test's output.
	role  string
	index int
	rule  rbacv1.PolicyRule
}

func (r rbacRule) String() string {
	return fmt.Sprintf("%s %s rule %d (%s %s %s)", r.file, r.role, r.index, strings.Join(r.rule.Verbs, ","), strings.Join(r.rule.APIGroups, ","), strings.Join(r.rule.Resources, ","))
}

// readRBAC parses the roles of the docs' RBAC files, so that a rule added
// there is tested here without a change.
func readRBAC(t *testing.T) []rbacRule {
	t.Helper()
	var out []rbacRule
	for _, file := range []string{"rbac.yaml", "rbac-migrate.yaml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range strings.Split(string(b), "\n---\n") {
			var role rbacv1.ClusterRole
			if err := yaml.UnmarshalStrict([]byte(doc), &role); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if len(role.Rules) == 0 {
				t.Fatalf("%s: role %q has no rules", file, role.Name)
			}
			for i, r := range role.Rules {
				out = append(out, rbacRule{file: file, role: role.Name, index: i + 1, rule: r})
			}
		}
	}
	return out
}

// request is what RBAC sees of an API request.
type request struct {
	verb, group, resource, subresource, namespace, name string
}

// resourceRequest parses a request to the API server's resource paths;
// false for discovery and /version, which every authenticated user may
// read.
func resourceRequest(r *http.Request) (request, bool) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	var q request
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		parts = parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		q.group = parts[1]
		parts = parts[3:]
	default:
		return q, false
	}
	if len(parts) >= 2 && parts[0] == "namespaces" && len(parts) != 2 {
		q.namespace = parts[1]
		parts = parts[2:]
	}
	q.resource = parts[0]
	if len(parts) > 1 {
		q.name = parts[1]
	}
	if len(parts) > 2 {
		q.subresource = parts[2]
	}
	switch r.Method {
	case http.MethodGet:
		switch {
		case r.URL.Query().Get("watch") == "true":
			q.verb = "watch"
		case q.name == "":
			q.verb = "list"
		default:
			q.verb = "get"
		}
	case http.MethodPatch:
		q.verb = "patch"
	case http.MethodPost:
		q.verb = "create"
	case http.MethodPut:
		q.verb = "update"
	case http.MethodDelete:
		q.verb = "delete"
	}
	return q, true
}

// permits says whether rule grants q, as RBAC matches them.
func permits(rule rbacv1.PolicyRule, q request) bool {
	has := func(list []string, v string) bool { return slices.Contains(list, "*") || slices.Contains(list, v) }
	res := q.resource
	if q.subresource != "" {
		res += "/" + q.subresource
	}
	resOK := slices.Contains(rule.Resources, "*") || slices.Contains(rule.Resources, res) ||
		(q.subresource != "" && slices.Contains(rule.Resources, "*/"+q.subresource))
	nameOK := len(rule.ResourceNames) == 0 || slices.Contains(rule.ResourceNames, q.name)
	return has(rule.Verbs, q.verb) && has(rule.APIGroups, q.group) && resOK && nameOK
}

// forbidden is the API server's answer to a request RBAC refuses.
func forbidden(w http.ResponseWriter, q request) {
	res := q.resource
	if q.subresource != "" {
		res += "/" + q.subresource
	}
	kind := q.resource
	if q.group != "" {
		kind += "." + q.group
	}
	what := kind
	if q.name != "" {
		what = fmt.Sprintf("%s %q", kind, q.name)
	}
	where := "at the cluster scope"
	if q.namespace != "" {
		where = fmt.Sprintf("in the namespace %q", q.namespace)
	}
	msg := fmt.Sprintf(`%s is forbidden: User "jane" cannot %s resource %q in API group %q %s`, what, q.verb, res, q.group, where)
	body, _ := json.Marshal(map[string]any{
		"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure", "message": msg, "reason": "Forbidden",
		"details": map[string]any{"name": q.name, "group": q.group, "kind": q.resource}, "code": 403,
	})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusForbidden)
	_, _ = w.Write(body)
}

// clusterJSON is what the fake API server knows, by path: the HPA web of
// shop, the Deployment it scales (applied server-side by kubectl), its
// scale, its pods (none), and the discovery documents migrate and explain
// need.
var clusterJSON = map[string]string{
	"/api":                 `{"kind":"APIVersions","versions":["v1"]}`,
	"/apis":                `{"kind":"APIGroupList","apiVersion":"v1","groups":[{"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}},{"name":"autoscaling","versions":[{"groupVersion":"autoscaling/v2","version":"v2"}],"preferredVersion":{"groupVersion":"autoscaling/v2","version":"v2"}}]}`,
	"/api/v1":              `{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod","verbs":["get","list"]},{"name":"events","singularName":"event","namespaced":true,"kind":"Event","verbs":["get","list"]}]}`,
	"/apis/apps/v1":        `{"kind":"APIResourceList","groupVersion":"apps/v1","resources":[{"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment","shortNames":["deploy"],"verbs":["get","list","patch"]},{"name":"deployments/scale","singularName":"","namespaced":true,"group":"autoscaling","version":"v1","kind":"Scale","verbs":["get","patch","update"]},{"name":"replicasets","singularName":"replicaset","namespaced":true,"kind":"ReplicaSet","verbs":["get","list"]}]}`,
	"/apis/autoscaling/v2": `{"kind":"APIResourceList","groupVersion":"autoscaling/v2","resources":[{"name":"horizontalpodautoscalers","singularName":"horizontalpodautoscaler","namespaced":true,"kind":"HorizontalPodAutoscaler","shortNames":["hpa"],"verbs":["get","list"]}]}`,
	"/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers/web": hpaJSON,
	"/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers":     `{"kind":"HorizontalPodAutoscalerList","apiVersion":"autoscaling/v2","metadata":{"resourceVersion":"1"},"items":[` + hpaJSON + `]}`,
	"/apis/autoscaling/v2/horizontalpodautoscalers":                     `{"kind":"HorizontalPodAutoscalerList","apiVersion":"autoscaling/v2","metadata":{"resourceVersion":"1"},"items":[` + hpaJSON + `]}`,
	"/apis/apps/v1/namespaces/shop/deployments/web":                     deploymentJSON,
	"/apis/apps/v1/namespaces/shop/deployments/web/scale":               `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"web","namespace":"shop","resourceVersion":"7"},"spec":{"replicas":2},"status":{"replicas":2,"selector":"app=web"}}`,
	"/api/v1/namespaces/shop/pods":                                      `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}`,
	"/api/v1/namespaces/shop/events":                                    `{"kind":"EventList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}`,
	"/apis/apps/v1/namespaces/shop/replicasets":                         `{"kind":"ReplicaSetList","apiVersion":"apps/v1","metadata":{"resourceVersion":"1"},"items":[]}`,
	"/version": `{"major":"1","minor":"34","gitVersion":"v1.34.0"}`,
}

const deploymentJSON = `{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"shop","resourceVersion":"7","managedFields":[{"manager":"kubectl","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{},"f:selector":{}}}}]},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"fake"}]}}}}`

// forbiddingServer serves clusterJSON, refusing with 403 every request
// rule permits; hits lists the refused requests.
func forbiddingServer(t *testing.T, rule *rbacv1.PolicyRule) (*httptest.Server, func() []request) {
	t.Helper()
	var (
		mu   sync.Mutex
		hits []request
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q, ok := resourceRequest(r); ok && rule != nil && permits(*rule, q) {
			mu.Lock()
			hits = append(hits, q)
			mu.Unlock()
			forbidden(w, q)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if body, ok := clusterJSON[r.URL.Path]; ok {
			_, _ = w.Write([]byte(body))
			return
		}
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","code":404}`))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []request {
		mu.Lock()
		defer mu.Unlock()
		return append([]request(nil), hits...)
	}
}

// rbacCommands are the commands an identity of the docs' roles runs.
var rbacCommands = []struct {
	name string
	args []string
	// rbacFile is the file whose roles grant what the command needs.
	rbacFile string
}{
	{"explain", []string{"explain", "web", "-n", "shop"}, "rbac.yaml"},
	{"explain -A", []string{"explain", "-A"}, "rbac.yaml"},
	{"whatif", []string{"whatif", "web", "-n", "shop", "--max", "5"}, "rbac.yaml"},
	{"migrate plan", []string{"migrate", "deployment/web", "-n", "shop"}, "rbac-migrate.yaml"},
}

func runAgainst(t *testing.T, srv *httptest.Server, args []string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(append(append([]string(nil), args...), "--server", srv.URL, "--kubeconfig", os.DevNull), genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	return code, out.String(), errOut.String()
}

// required are the reads without which a command cannot answer, as
// "command: verb resource": a refusal of any other is an optional read
// the command does without.
var required = map[string]bool{
	"explain: get horizontalpodautoscalers":       true,
	"whatif: get horizontalpodautoscalers":        true,
	"explain -A: list horizontalpodautoscalers":   true,
	"migrate plan: get deployments":               true,
	"migrate plan: list horizontalpodautoscalers": true,
}

// silentRefusals are the optional reads whose refusal explain -A's table
// shows as the controller's own failure ("cannot read the target's
// scale", "metric failed: FailedGetResourceMetric") without saying the
// read was refused to the user: not yet fixed.
var silentRefusals = map[string]bool{
	"explain -A: get deployments":  true,
	"explain -A: list replicasets": true,
	"explain -A: list pods":        true,
}

// unexercised are the rules whose reads the fake cluster gives no command
// a reason to make (no HPA of it has that metric type; no custom
// resource), with why they are still granted.
var unexercised = map[string]string{
	"custom.metrics.k8s.io":   "Pods and Object metrics",
	"external.metrics.k8s.io": "External metrics",
	"apiregistration.k8s.io":  "KEDA's APIService, read when an HPA has an External metric",
	"apiextensions.k8s.io":    "a custom resource's CRD",
}

// An identity bound to the docs' roles minus one rule: every request that
// rule permits is refused with the API server's 403. A command that needs
// the read ends with one line that names the verb and the resource and
// points at the RBAC file, exit 1 (docs/exit-codes.md); one whose read is
// optional answers, exit 0, and says what it could not read.
func TestIdentityMissingOneRule(t *testing.T) {
	rules := readRBAC(t)
	exercised := map[string]bool{}
	for _, c := range rbacCommands {
		t.Run(c.name+", every rule granted", func(t *testing.T) {
			srv, _ := forbiddingServer(t, nil)
			code, _, errOut := runAgainst(t, srv, c.args)
			if code != ExitOK {
				t.Errorf("exit %d, stderr:\n%s", code, errOut)
			}
		})
		for _, r := range rules {
			t.Run(c.name+", without "+r.String(), func(t *testing.T) {
				srv, hits := forbiddingServer(t, &r.rule)
				code, out, errOut := runAgainst(t, srv, c.args)
				refused := hits()
				t.Logf("refused %v; exit %d, stderr:\n%s", refused, code, errOut)
				if len(refused) == 0 {
					if code != ExitOK {
						t.Errorf("exit %d without a refusal", code)
					}
					return
				}
				exercised[r.String()] = true
				need := false
				for _, q := range refused {
					need = need || required[c.name+": "+q.verb+" "+q.resource]
				}
				lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
				if !need {
					if code != ExitOK {
						t.Fatalf("exit %d for an optional read, stderr:\n%s", code, errOut)
					}
					for _, l := range lines {
						if l != "" && !strings.HasPrefix(l, "Warning: ") {
							t.Errorf("stderr line %q", l)
						}
					}
					if gap := silentRefusals[c.name+": "+refused[0].verb+" "+refused[0].resource]; gap && !strings.Contains(errOut+out, "forbidden") {
						t.Logf("not said (a known gap, docs/reliability.md): %s", out)
						return
					}
					if !strings.Contains(errOut+out, "forbidden") {
						t.Errorf("the refusal is said nowhere:\nstdout %s\nstderr %s", out, errOut)
					}
					return
				}
				if code != ExitError || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") {
					t.Fatalf("exit %d, stderr %q: want 1 and one error line", code, errOut)
				}
				q := refused[0]
				if want := fmt.Sprintf("cannot %s resource %q", q.verb, q.resource); !strings.Contains(lines[0], want) {
					t.Errorf("the error does not say %s: %s", want, lines[0])
				}
				if want := "(docs/" + c.rbacFile + " lists "; !strings.Contains(lines[0], want) {
					t.Errorf("the error does not point at %s: %s", c.rbacFile, lines[0])
				}
			})
		}
	}
	for _, r := range rules {
		if exercised[r.String()] {
			continue
		}
		why, ok := "", false
		for _, g := range r.rule.APIGroups {
			if w, known := unexercised[g]; known {
				why, ok = w, true
			}
		}
		if !ok {
			t.Errorf("%s: no command made a request it permits; give the fake cluster what it grants", r)
		} else {
			t.Logf("%s: not exercised by the fake cluster (%s)", r, why)
		}
	}
}
