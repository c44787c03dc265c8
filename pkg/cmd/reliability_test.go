// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	reliabilityDir = "testdata/reliability"
	reliabilityNow = "2026-01-01T00:10:30Z"
	reliabilityDoc = "../../docs/reliability.md"
)

// reliabilityCase is one input of the validation catalogue: the command a
// user types on a fixture, and what kubectl-hpa prints on stderr.
type reliabilityCase struct {
	// file is the fixture under testdata/reliability, given after
	// target.yaml (and valid.yaml when it holds no HPA).
	file string
	// input says what is wrong (or special) with it, for the docs.
	input string
	// args follow "explain web -n shop -f ..." (or replace "explain").
	args []string
	// whatif runs whatif instead of explain.
	whatif bool
	// name is the HPA named on the command line ("web" when empty).
	name string
	// want is the whole of stderr for a refused input (exit 1); for an
	// accepted one (exit 0), a part of stderr ("" for no stderr at all).
	want     string
	accepted bool
}

var reliabilityCases = []reliabilityCase{
	// Replica bounds.
	{file: "max-zero", input: "`maxReplicas: 0`", want: `spec.maxReplicas: Required value: must be set and greater than 0`},
	{file: "max-negative", input: "`maxReplicas: -1`", want: `spec.maxReplicas: Invalid value: -1: must be greater than or equal to 1`},
	{file: "min-above-max", input: "`minReplicas: 12`, `maxReplicas: 10`", want: "spec.maxReplicas: Invalid value: 10: must be greater than or equal to `minReplicas`"},
	{file: "min-negative", input: "`minReplicas: -1`", want: `spec.minReplicas: Invalid value: -1: must be greater than or equal to 0`},
	{file: "min-zero", input: "`minReplicas: 0` with an External metric, replayed as v1.36 (HPAScaleToZero off)", args: []string{"--controller-version", "1.36"}, want: `spec.minReplicas: Invalid value: 0: must be greater than or equal to 1`},
	{file: "min-zero", input: "the same, replayed as v1.37 (HPAScaleToZero on by default)", accepted: true},
	{file: "min-zero-cpu-only", input: "`minReplicas: 0` with only a cpu metric (v1.37)", want: `spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas`},
	// Metadata and the scale target.
	{file: "name-invalid", name: "Web_1", input: "`metadata.name: Web_1`", want: `metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
	{file: "ref-kind-missing", input: "`scaleTargetRef` without `kind`", want: `spec.scaleTargetRef.kind: Required value`},
	{file: "ref-name-slash", input: "`scaleTargetRef.name: web/v2`", want: `spec.scaleTargetRef.name: Invalid value: "web/v2": may not contain '/'`},
	{file: "ref-no-group", input: "`scaleTargetRef.apiVersion: v1` for a Deployment", want: `spec.scaleTargetRef.apiVersion: Invalid value: "v1": apiVersion must specify API group`},
	// Metric sources.
	{file: "metric-type-missing", input: "a metric without `type`", want: `spec.metrics[0].type: Required value: must specify a metric source type`},
	{file: "metric-type-unknown", input: "`type: Cpu`", want: `spec.metrics[0].type: Unsupported value: "Cpu": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"`},
	{file: "metric-source-missing", input: "`type: Pods` with a `resource` block", want: `spec.metrics[0].pods: Required value: must populate information for the given metric source`},
	{file: "metric-two-sources", input: "`type: Resource` with `resource` and `pods` blocks", want: `spec.metrics[0].pods: Forbidden: must populate the given metric source only`},
	{file: "metric-name-missing", input: "a Pods metric with an empty name", want: `spec.metrics[0].pods.metric.name: Required value: must specify a metric name`},
	{file: "container-name-invalid", input: "ContainerResource `container: App_1`", want: `spec.metrics[0].containerResource.container: Invalid value: "App_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
	{file: "container-resource-pods", input: "ContainerResource `name: pods`", want: `spec.metrics[0].containerResource.name: Invalid value: "pods": must be a standard resource for containers`},
	// Targets.
	{file: "utilization-zero", input: "Utilization target of 0%", want: `spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0`},
	{
		file: "utilization-as-averagevalue", input: "`type: Utilization` with `averageValue: 300m` and no `averageUtilization` (the API server accepts it)", accepted: true,
		want: `spec.metrics[0].resource.target: type Utilization without averageUtilization: the controller uses averageValue 300m as a raw target, not a utilization (the API server accepts it)`,
	},
	{file: "target-type-unknown", input: "target `type: Percent`", want: `spec.metrics[0].resource.target.type: Invalid value: "Percent": must be either Utilization, Value, or AverageValue`},
	{file: "resource-both-targets", input: "Resource target with `averageUtilization` and `averageValue`", want: `spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization`},
	{file: "resource-no-target", input: "Resource target with neither", want: `spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization`},
	{file: "pods-averagevalue-zero", input: "Pods `averageValue: 0`", want: `spec.metrics[0].pods.target.averageValue: Invalid value: "0": must be positive`},
	{file: "pods-value-only", input: "Pods target `type: Value, value: 10`", want: `spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue`},
	{file: "object-value-negative", input: "Object `value: -1`", want: `spec.metrics[0].object.target.value: Invalid value: "-1": must be positive`},
	{file: "external-both-targets", input: "External target with `value` and `averageValue`", want: `spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target`},
	// Behavior.
	{file: "window-4000", input: "`stabilizationWindowSeconds: 4000`", want: `spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600`},
	{file: "window-negative", input: "`stabilizationWindowSeconds: -1`", want: `spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero`},
	{file: "policies-empty", input: "`policies: []`", want: `spec.behavior.scaleUp.policies: Required value: must specify at least one Policy`},
	{file: "policy-type-unknown", input: "policy `type: Replicas`", want: `spec.behavior.scaleUp.policies[0].type: Unsupported value: "Replicas": supported values: "Percent", "Pods"`},
	{file: "policy-value-zero", input: "policy `value: 0`", want: `spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero`},
	{file: "policy-period-zero", input: "policy without `periodSeconds`", want: `spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 0: must be greater than zero`},
	{file: "policy-period-2000", input: "policy `periodSeconds: 2000`", want: `spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 2000: must be less than or equal to 1800`},
	{file: "select-policy-unknown", input: "`selectPolicy: Maximum`", want: `spec.behavior.scaleUp.selectPolicy: Unsupported value: "Maximum": supported values: "Disabled", "Max", "Min"`},
	{file: "tolerance-negative", input: "`tolerance: \"-0.1\"` (v1.37)", want: `spec.behavior.scaleDown.tolerance: Invalid value: "-100m": must be greater than or equal to 0`},
	{file: "tolerance-negative", input: "the same, replayed as v1.32 (no per-HPA tolerance: the API server drops the field)", args: []string{"--controller-version", "1.32"}, accepted: true},
	// Older HPA versions: the fields as written.
	{file: "v1-cpu-zero", input: "autoscaling/v1 `targetCPUUtilizationPercentage: 0`", want: `spec.targetCPUUtilizationPercentage: Invalid value: 0: must be greater than 0`},
	{file: "v2beta1-utilization-zero", input: "autoscaling/v2beta1 `targetAverageUtilization: 0`", want: `spec.metrics[0].resource.targetAverageUtilization: Invalid value: 0: must be greater than 0`},
	{file: "v2beta1", input: "an autoscaling/v2beta1 HPA", accepted: true},
	{file: "v2beta2", input: "an autoscaling/v2beta2 HPA", accepted: true},
	// Other objects.
	{file: "scale-negative", input: "Scale `spec.replicas: -1`", want: `spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
	{file: "pod-request-negative", input: "pod with a `-500m` cpu request", want: `spec.containers[0].resources.requests[cpu]: Invalid value: "-500m": must be greater than or equal to 0`},
	{file: "podmetrics-usage-negative", input: "PodMetrics with a `-5m` cpu usage", want: `containers[0].usage[cpu]: Invalid value: "-5m": must be greater than or equal to 0`},
	{file: "podmetrics-window-negative", input: "PodMetrics `window: -15s`", want: `window: Invalid value: "-15s": must be greater than or equal to 0`},
	{file: "podmetrics-no-timestamp", input: "PodMetrics without `timestamp`", want: `timestamp: Required value: a metrics API always stamps its samples`},
	{file: "podmetrics-bad-timestamp", input: "PodMetrics `timestamp: yesterday`", want: `timestamp: invalid time "yesterday" (want RFC 3339, like "2026-01-02T15:04:05Z")`},
	{file: "custom-value-invalid", input: "custom MetricValue `value: ten`", want: `value: invalid quantity "ten"`},
	{file: "external-window-negative", input: "ExternalMetricValue `window: -30`", want: `window: Invalid value: -30: must be greater than or equal to 0`},
	{file: "sidecar-sample", input: "PodMetrics sample of a native sidecar (in `initContainers`, not `containers`)", accepted: true},
	// whatif edits of a valid HPA (min 2, max 10, cpu 60%).
	{file: "valid", whatif: true, input: "`whatif --min 0` (v1.36)", args: []string{"--min", "0", "--controller-version", "1.36"}, want: `--min 0: spec.minReplicas: Invalid value: 0: must be greater than or equal to 1`},
	{file: "valid", whatif: true, input: "`whatif --min 0` (v1.37, only a cpu metric)", args: []string{"--min", "0"}, want: `--min 0: spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas`},
	{file: "valid", whatif: true, input: "`whatif --max 0`", args: []string{"--max", "0"}, want: `--max 0: spec.maxReplicas: Required value: must be set and greater than 0`},
	{file: "valid", whatif: true, input: "`whatif --min 20`", args: []string{"--min", "20"}, want: "--min 20: spec.maxReplicas: Invalid value: 10: must be greater than or equal to `minReplicas`"},
	{file: "valid", whatif: true, input: "`whatif --min 12 --max 11`", args: []string{"--min", "12", "--max", "11"}, want: "--min/--max: spec.maxReplicas: Invalid value: 11: must be greater than or equal to `minReplicas`"},
	{file: "valid", whatif: true, input: "`whatif --behavior` with `selectPolicy: Fastest`", args: []string{"--behavior", reliabilityDir + "/behavior-select-unknown.yaml"}, want: `--behavior testdata/reliability/behavior-select-unknown.yaml: spec.behavior.scaleUp.selectPolicy: Unsupported value: "Fastest": supported values: "Disabled", "Max", "Min"`},
}

func (c reliabilityCase) command() []string {
	name := c.name
	if name == "" {
		name = "web"
	}
	verb := "explain"
	if c.whatif {
		verb = "whatif"
	}
	args := []string{verb, name, "-n", "shop", "-f", reliabilityDir + "/target.yaml", "-f", reliabilityDir + "/" + c.file + ".yaml"}
	if c.file != "valid" && !c.holdsHPA() {
		args = append(args, "-f", reliabilityDir+"/valid.yaml")
	}
	args = append(args, "--now", reliabilityNow, "--color", "never")
	return append(args, c.args...)
}

func (c reliabilityCase) holdsHPA() bool {
	data, err := os.ReadFile(filepath.Join(reliabilityDir, c.file+".yaml"))
	return err == nil && strings.Contains(string(data), "kind: HorizontalPodAutoscaler")
}

// TestReliabilityCatalogue runs every input of docs/reliability.md's
// validation catalogue through the command and checks the exact one-line
// error and exit status 1, or that the input is accepted.
func TestReliabilityCatalogue(t *testing.T) {
	refused := 0
	for _, c := range reliabilityCases {
		t.Run(c.file+" "+strings.Join(c.args, " "), func(t *testing.T) {
			code, out, stderr := mainArgs(c.command()...)
			if c.accepted {
				if code != 0 {
					t.Fatalf("exit %d, want 0: %s", code, stderr)
				}
				if (c.want == "" && stderr != "") || !strings.Contains(stderr, c.want) {
					t.Errorf("stderr %q, want %q", stderr, c.want)
				}
				return
			}
			if code != 1 {
				t.Errorf("exit %d, want 1 (stdout %q)", code, out)
			}
			if want := "error: " + c.wantPrefix() + c.want + "\n"; stderr != want {
				t.Errorf("stderr:\n got %q\nwant %q", stderr, want)
			}
		})
		if !c.accepted {
			refused++
		}
	}
	if refused < 25 {
		t.Errorf("the catalogue refuses %d inputs, want at least 25", refused)
	}
	t.Run("docs", func(t *testing.T) { checkReliabilityDoc(t) })
}

// wantPrefix is what precedes the validation message: the object, or for
// whatif the HPA.
func (c reliabilityCase) wantPrefix() string {
	if c.whatif {
		return "HPA shop/web: "
	}
	data, err := os.ReadFile(filepath.Join(reliabilityDir, c.file+".yaml"))
	if err != nil {
		return ""
	}
	var apiVersion, kind, name string
	for _, l := range strings.Split(string(data), "\n") {
		switch {
		case apiVersion == "" && strings.HasPrefix(l, "apiVersion: "):
			apiVersion = strings.TrimPrefix(l, "apiVersion: ")
		case kind == "" && strings.HasPrefix(l, "kind: "):
			kind = strings.TrimPrefix(l, "kind: ")
		case name == "" && strings.HasPrefix(l, "metadata: {name: "):
			name, _, _ = strings.Cut(strings.TrimPrefix(l, "metadata: {name: "), ",")
		}
	}
	obj := apiVersion + " " + kind
	if name != "" {
		obj += fmt.Sprintf(" %q", name)
	}
	line := 1
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "apiVersion: ") {
			line = i + 1
			break
		}
	}
	return fmt.Sprintf("%s/%s.yaml:%d (document 1): %s: ", reliabilityDir, c.file, line, obj)
}

// checkReliabilityDoc compares the catalogue section of docs/reliability.md
// with the table the cases make (-update rewrites it).
func checkReliabilityDoc(t *testing.T) {
	t.Helper()
	const start, end = "<!-- validation catalogue: owned by the validation work (pkg/validation) -->\n", "\n## Bounds"
	var b strings.Builder
	b.WriteString(start)
	b.WriteString("\nEach row is a fixture of [pkg/cmd/testdata/reliability](../pkg/cmd/testdata/reliability/),\n")
	b.WriteString("given after `target.yaml` (a Deployment `shop/web`, its pods and samples) to\n")
	b.WriteString("`kubectl hpa explain web -n shop -f target.yaml -f FIXTURE` (or `whatif`, with the flags shown),\n")
	b.WriteString("and what kubectl-hpa prints: a refused input exits 1 with this one line on stderr, after\n")
	b.WriteString("`error: FILE:LINE (document N): APIVERSION KIND \"NAME\": ` (whatif: `error: HPA shop/web: `).\n")
	b.WriteString("`TestReliabilityCatalogue` (pkg/cmd/reliability_test.go) runs every row and checks this table.\n\n")
	b.WriteString("| fixture | input | kubectl-hpa prints |\n| --- | --- | --- |\n")
	for _, c := range reliabilityCases {
		msg := "`" + c.want + "`"
		if strings.Contains(c.want, "`") {
			msg = "`` " + c.want + " ``"
		}
		switch {
		case c.accepted && c.want == "":
			msg = "accepted (exit 0)"
		case c.accepted:
			msg = "accepted, with the warning " + msg
		}
		input := c.input
		if len(c.args) > 0 && !c.whatif {
			input += " (`" + strings.Join(c.args, " ") + "`)"
		}
		fmt.Fprintf(&b, "| `%s.yaml` | %s | %s |\n", c.file, input, strings.ReplaceAll(msg, "|", `\|`))
	}
	want := b.String()
	raw, err := os.ReadFile(reliabilityDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	i := strings.Index(doc, start)
	j := strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no validation catalogue section (%q ... %q)", reliabilityDoc, start, end)
	}
	if got := doc[i:j]; strings.TrimSpace(got) != strings.TrimSpace(want) {
		// -update is examples_test.go's flag (package cmd).
		if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
			if err := os.WriteFile(reliabilityDoc, []byte(doc[:i]+want+doc[j:]), 0o600); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s: the validation catalogue is stale; run go test ./pkg/cmd/ -run TestReliabilityCatalogue -update", reliabilityDoc)
	}
}
