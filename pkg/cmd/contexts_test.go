// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	kubefake "k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"

	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
)

// explain -A over three contexts: two clusters' rows under a CONTEXT
// column, in the contexts' order, and one that cannot be reached, said on
// stderr and in the exit code once the list is out.
func TestExplainManyContexts(t *testing.T) {
	run := func(t *testing.T, args ...string) (string, string, error) {
		t.Helper()
		streams, _, out, errOut := genericiooptions.NewTestIOStreams()
		c := NewCmdExplain(streams, nil, func(o *ExplainOptions) error {
			down := manyProblemsCluster()
			kube := kubefake.NewClientset()
			kube.PrependReactor("list", "horizontalpodautoscalers", func(core.Action) (bool, apiruntime.Object, error) {
				return true, nil, errors.New("dial tcp 10.0.0.9:443: connect: connection refused")
			})
			down.Kube = kube
			o.Clients.ContextFactories = map[string]*action.Factory{
				"prod-us": {GatherClients: manyProblemsCluster()},
				"prod-eu": {GatherClients: manyProblemsCluster()},
				"staging": {GatherClients: down},
			}
			return o.Run(context.Background())
		})
		c.SetArgs(append([]string{"--controller-version", "1.37"}, args...))
		c.SilenceErrors, c.SilenceUsage = true, true
		err := c.Execute()
		return out.String(), errOut.String(), err
	}
	out, errOut, err := run(t, "-A", "--all-contexts", "--parallel", "2")
	testutil.AssertGolden(t, []byte(out), *update)
	if err == nil || err.Error() != "1 of 3 contexts could not be read: staging" {
		t.Errorf("error %v, want the unreachable context named", err)
	}
	if !strings.Contains(errOut, "error: context staging: ") || !strings.Contains(errOut, "connection refused") {
		t.Errorf("stderr does not say why staging could not be read:\n%s", errOut)
	}
	// JSON: each item names its context.
	out, _, err = run(t, "-A", "--contexts", "prod-eu,prod-us", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Items []struct {
			Context string `json:"context"`
			HPA     struct{ Name string }
		}
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range list.Items {
		got = append(got, it.Context+"/"+it.HPA.Name)
	}
	if strings.Join(got, " ") != "prod-eu/a prod-eu/b prod-us/a prod-us/b" {
		t.Errorf("items %v", got)
	}
	// A NAME reads one HPA of one cluster.
	if _, _, err := run(t, "web", "--all-contexts"); err == nil || !strings.Contains(err.Error(), "a NAME cannot be combined with --contexts") {
		t.Errorf("NAME with --all-contexts: %v", err)
	}
}
