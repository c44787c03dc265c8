// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
)

const applyKEDASO = `
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: {name: worker, namespace: jobs}
spec:
  scaleTargetRef: {name: worker}
  minReplicaCount: 1
  maxReplicaCount: 10
  idleReplicaCount: 0
  triggers:
  - type: metrics-api
    name: queue
    metadata: {url: "http://queue/stats", valueLocation: depth, targetValue: "10", activationTargetValue: "5"}
  - type: cpu
    metricType: Utilization
    metadata: {value: "60"}
`

// Each override of a ScaledObject edits a copy and says so in one
// sentence; one that cannot apply is a FieldError of its field.
func TestApplyKEDA(t *testing.T) {
	so, err := keda.Decode([]byte(applyKEDASO))
	if err != nil {
		t.Fatal(err)
	}
	v := keda.MustParseVersion("v2.21.0")
	i32 := func(n int32) *int32 { return &n }
	dur := func(d time.Duration) *time.Duration { return &d }
	for _, tc := range []struct {
		name    string
		o       KEDAOverrides
		changes string
		field   Field // the error's field ("": no error)
		check   func(e *KEDAEdit) bool
	}{
		{name: "none", changes: "", check: func(e *KEDAEdit) bool { return len(e.Triggers) == 0 }},
		{
			name:    "a trigger value and a failing one",
			o:       KEDAOverrides{Triggers: []TriggerOverride{{Name: "queue", Value: 42, Raw: "queue=42"}}},
			changes: "trigger 0 (queue, s0-metric-api-depth) reads 42",
			check:   func(e *KEDAEdit) bool { return *e.Triggers[0].Value == 42 },
		},
		{
			name:    "a failing trigger",
			o:       KEDAOverrides{Triggers: []TriggerOverride{{Name: "0", Error: "down", Raw: "0=error:down"}}},
			changes: "trigger 0 (queue, s0-metric-api-depth) fails: down",
			check:   func(e *KEDAEdit) bool { return e.Triggers[0].Error == "down" },
		},
		{name: "an unknown trigger", o: KEDAOverrides{Triggers: []TriggerOverride{{Name: "nope", Raw: "nope=1"}}}, field: FieldTrigger},
		{name: "a cpu trigger", o: KEDAOverrides{Triggers: []TriggerOverride{{Name: "1", Value: 1, Raw: "1=1"}}}, field: FieldTrigger},
		{
			name:    "an activation",
			o:       KEDAOverrides{Activations: []TriggerOverride{{Name: "queue", Value: 7, Raw: "queue=7"}}},
			changes: "trigger 0 (queue, s0-metric-api-depth): activationTargetValue 5 → 7",
			check: func(e *KEDAEdit) bool {
				return e.ScaledObject.Spec.Triggers[0].Metadata["activationTargetValue"] == "7" && so.Spec.Triggers[0].Metadata["activationTargetValue"] == "5"
			},
		},
		{name: "no activation threshold", o: KEDAOverrides{Activations: []TriggerOverride{{Name: "1", Value: 7, Raw: "1=7"}}}, field: FieldActivation},
		{
			name:    "cooldown and polling",
			o:       KEDAOverrides{Cooldown: dur(time.Minute), PollingInterval: dur(5 * time.Second)},
			changes: "cooldownPeriod 300s (default) → 60s; pollingInterval 30s (default) → 5s",
			check: func(e *KEDAEdit) bool {
				return *e.ScaledObject.Spec.CooldownPeriod == 60 && *e.ScaledObject.Spec.PollingInterval == 5
			},
		},
		{name: "a polling interval of 0", o: KEDAOverrides{PollingInterval: dur(0)}, field: FieldPollingInterval},
		{name: "a fractional cooldown", o: KEDAOverrides{Cooldown: dur(1500 * time.Millisecond)}, field: FieldCooldown},
		{
			name:    "bounds, idle removed",
			o:       KEDAOverrides{Min: i32(2), Max: i32(20), Idle: i32(-1)},
			changes: "minReplicaCount 1 → 2; maxReplicaCount 10 → 20; idleReplicaCount 0 → unset",
			check: func(e *KEDAEdit) bool {
				return e.ScaledObject.Spec.IdleReplicaCount == nil && *e.ScaledObject.Spec.MaxReplicaCount == 20
			},
		},
		{name: "max 0", o: KEDAOverrides{Max: i32(0)}, field: FieldMax},
		{name: "min above max", o: KEDAOverrides{Min: i32(11)}, field: FieldBoundsKEDA},
		{
			name:    "a fallback added",
			o:       KEDAOverrides{FallbackReplicas: i32(4)},
			changes: "fallback added (static, failureThreshold 3 unless given); fallback.replicas 0 → 4",
			check: func(e *KEDAEdit) bool {
				f := e.ScaledObject.Spec.Fallback
				return f != nil && f.Replicas == 4 && f.FailureThreshold == 3 && so.Spec.Fallback == nil
			},
		},
		{name: "a negative failure threshold", o: KEDAOverrides{FailureThreshold: i32(-1)}, field: FieldFailureThreshold},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := ApplyKEDA(so, v, &tc.o, time.LoadLocation)
			if tc.field != "" {
				var fe *FieldError
				if !errors.As(err, &fe) || fe.Field != tc.field {
					t.Fatalf("error %v, want a FieldError of %s", err, tc.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(e.Changes, "; "); got != tc.changes {
				t.Errorf("changes %q, want %q", got, tc.changes)
			}
			if tc.check != nil && !tc.check(e) {
				t.Errorf("edit %+v", e.ScaledObject.Spec)
			}
		})
	}
}
