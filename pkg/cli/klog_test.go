// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// hpaJSON is the HPA web of shop, its target a Deployment.
const hpaJSON = `{"kind":"HorizontalPodAutoscaler","apiVersion":"autoscaling/v2","metadata":{"name":"web","namespace":"shop","resourceVersion":"1"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"maxReplicas":3,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":60}}}]}}`

// captureStderr runs f with the process's standard error (where klog
// writes, whatever the command's streams) sent to a pipe, and returns what
// was written there.
func captureStderr(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	defer func() {
		os.Stderr = saved
	}()
	f()
	os.Stderr = saved
	_ = w.Close()
	return <-done
}

// Discovery (/api, /apis) failing while the HPA can be read: client-go's
// cached discovery logs the failure through klog ("E... memcache.go:...
// Couldn't get current server API group list"); the command's stderr holds
// its own lines only, and the process's stderr nothing besides. With the
// HPA's read failing too, that stderr is the one error line.
func TestKlogIsSilenced(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		// fails is a command that needs discovery: its error is then
		// stderr's one line.
		fails bool
	}{
		{"explain: the replay goes on without discovery", []string{"explain", "web"}, false},
		{"migrate: TYPE/NAME cannot be resolved", []string{"migrate", "deployment/web"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			discovery := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				switch {
				case r.URL.Path == "/api" || r.URL.Path == "/apis" || strings.HasPrefix(r.URL.Path, "/apis/") && strings.Count(r.URL.Path, "/") <= 3:
					discovery++
					w.WriteHeader(http.StatusInternalServerError)
					_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"etcdserver: leader changed","reason":"InternalError","code":500}`))
				case r.URL.Path == "/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers/web":
					_, _ = w.Write([]byte(hpaJSON))
				default:
					w.WriteHeader(http.StatusNotFound)
					_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`))
				}
			}))
			defer srv.Close()
			var out, errOut bytes.Buffer
			var code int
			process := captureStderr(t, func() {
				code = Main(append(tc.args, "-n", "shop", "--server", srv.URL, "--kubeconfig", os.DevNull), genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
			})
			t.Logf("exit %d, %d discovery requests\nstdout:\n%s\nstderr:\n%s\nprocess stderr:\n%s", code, discovery, out.String(), errOut.String(), process)
			if discovery == 0 {
				t.Error("no discovery request was made: the test does not test what it says")
			}
			if process != "" {
				t.Errorf("the process's stderr got %q", process)
			}
			lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
			if tc.fails {
				if code != ExitError || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") {
					t.Errorf("exit %d, stderr %q: want 1 and one error line", code, errOut.String())
				}
				return
			}
			if code != ExitOK || !strings.Contains(out.String(), "web") {
				t.Errorf("exit %d, stdout %q", code, out.String())
			}
			for _, l := range lines {
				if strings.Contains(l, "memcache.go") || strings.Contains(l, "API group list") {
					t.Errorf("stderr line %q", l)
				}
			}
		})
	}
}
