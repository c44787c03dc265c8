// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
)

// The shell asks `kubectl hpa __complete explain <prefix>`; the answer lists
// the HPAs of the namespace, then the directive line.
func TestCompleteHPANames(t *testing.T) {
	var asked string
	defaultHPANames = func(_ context.Context, _ *action.Factory, ns string) ([]string, error) {
		asked = ns
		return []string{"api", "web", "worker"}, nil
	}
	t.Cleanup(func() { defaultHPANames = action.HPANames })

	out, _, err := runRoot(t, "", "__complete", "explain", "-n", "shop", "w")
	if err != nil {
		t.Fatal(err)
	}
	if asked != "shop" {
		t.Errorf("listed namespace %q, want shop", asked)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if strings.Join(lines, " ") != "web worker :4" {
		t.Errorf("completion output %q, want web, worker and the no-file directive (:4)", out)
	}

	// A name is already given: nothing more to complete.
	out, _, _ = runRoot(t, "", "__complete", "explain", "web", "")
	if strings.TrimSpace(out) != ":4" {
		t.Errorf("after a name: %q", out)
	}

	// No cluster: no suggestions, no error for the shell.
	defaultHPANames = func(context.Context, *action.Factory, string) ([]string, error) {
		return nil, errors.New("connection refused")
	}
	out, _, err = runRoot(t, "", "__complete", "explain", "-n", "shop", "")
	if err != nil || strings.TrimSpace(out) != ":4" {
		t.Errorf("without a cluster: %q, %v", out, err)
	}

	// Flag values.
	out, _, _ = runRoot(t, "", "__complete", "explain", "web", "-o", "")
	if !strings.HasPrefix(out, "text\njson\nyaml\n") {
		t.Errorf("-o completion: %q", out)
	}
}

// migrate completes TYPE/NAME with the workloads the HPAs scale.
func TestCompleteMigrateTargets(t *testing.T) {
	var asked string
	defaultHPATargets = func(_ context.Context, _ *action.Factory, ns string) ([]string, error) {
		asked = ns
		return []string{"deployment/api", "deployment/web", "statefulset/db"}, nil
	}
	t.Cleanup(func() { defaultHPATargets = action.HPATargets })

	out, _, err := runRoot(t, "", "__complete", "migrate", "-n", "shop", "deployment/")
	if err != nil {
		t.Fatal(err)
	}
	if asked != "shop" {
		t.Errorf("listed namespace %q, want shop", asked)
	}
	if got := strings.Join(strings.Split(strings.TrimSpace(out), "\n"), " "); got != "deployment/api deployment/web :4" {
		t.Errorf("completion output %q, want the two deployments and the no-file directive (:4)", out)
	}
	out, _, _ = runRoot(t, "", "__complete", "migrate", "deployment/web", "")
	if strings.TrimSpace(out) != ":4" {
		t.Errorf("after a target: %q", out)
	}
}
