// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd_test

import (
	"strings"
	"testing"
)

func TestSchemaCmd(t *testing.T) {
	code, out, stderr := mainArgs("schema")
	if code != 0 || !strings.HasPrefix(out, "explanation  explain NAME -o json") || strings.Count(out, "\n") != 10 {
		t.Errorf("schema: exit %d, stdout:\n%s\nstderr: %s", code, out, stderr)
	}
	code, out, _ = mainArgs("schema", "version")
	if code != 0 || !strings.Contains(out, `"$id": "https://kubectl-hpa.io/schema/v1alpha1/version.json"`) {
		t.Errorf("schema version: exit %d:\n%s", code, out)
	}
	code, out, stderr = mainArgs("schema", "explanations")
	if code != 1 || out != "" || stderr != "error: unknown schema kind \"explanations\" (want one of: explanation, list, whatif, watch, keda, migrate, version, summaries, tune, fleet)\n" {
		t.Errorf("unknown kind: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, _ = mainArgs("__complete", "schema", "")
	if code != 0 || !strings.HasPrefix(out, "explanation\texplain NAME -o json: the replay of one HPA (Explanation)\nlist\t") || !strings.Contains(out, "\n:4\n") {
		t.Errorf("completion: exit %d:\n%s", code, out)
	}
	code, out, _ = mainArgs("__complete", "schema", "list", "")
	if code != 0 || out != ":4\n" {
		t.Errorf("completion after a KIND: exit %d:\n%q", code, out)
	}
}
