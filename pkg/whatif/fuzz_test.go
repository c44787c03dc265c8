// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"math"
	"strings"
	"testing"
)

// FuzzParseOverride runs one flag value through every override parser
// (--cpu/--memory, --metric/--object, --external, --target), and one file
// through the --trace and --behavior parsers. A value is either refused
// with a one-line error or parsed into something the overrides can use: no
// negative quantity, no NaN or infinite factor, and applying a change to a
// current value never gives a negative one.
func FuzzParseOverride(f *testing.F) {
	for _, v := range []string{
		"200m", "1.5", "512Mi", "+50%", "-20%", "80%", "80%req", "0", "app=200m", "app=+10%", "sidecar=75%req",
		"rps=100", "rps=+25%", "queue=400", "queue{q=a}=7", "queue{q=a,zone=b}=-10%", "cpu=70%", "cpu=250m",
		"requests_per_second=100", "=", "{}=1", "a{=1", "1e3", "-1", "+1e308%", "-100%", "1Ei", "9223372036854775807",
		"0.000000001", "+NaN%", "inf%", "x=", "=1",
	} {
		f.Add(v, []byte("time,cpu\n0s,500m\n30s,1\n"))
	}
	for _, tr := range []string{
		"time,external:queue\n0s,10\n30s,60\n# a comment\n2m,20\n",
		"time,cpu/pod,memory,pods:rps,object:hits\n0,100m,1Gi,5,1\n2026-01-01T00:00:00Z,,,,\n",
		"time\n", "", "time,cpu\n1e300,1\n", "time,cpu\n-1s,1\n",
	} {
		f.Add("cpu=70%", []byte(tr))
	}
	f.Add("+50%", []byte("behavior:\n  scaleUp:\n    stabilizationWindowSeconds: 0\n    policies:\n    - type: Percent\n      value: 100\n      periodSeconds: 15\n"))
	f.Add("+50%", []byte(`{"scaleDown":{"stabilizationWindowSeconds":300,"selectPolicy":"Min"}}`))
	f.Fuzz(func(t *testing.T, value string, file []byte) {
		for _, ofRequest := range []bool{false, true} {
			c, err := ParseChange(value, ofRequest)
			if err != nil {
				oneLine(t, err)
				continue
			}
			checkChange(t, c)
		}
		if u, err := ParseUsage(value); err != nil {
			oneLine(t, err)
		} else {
			checkChange(t, u.Change)
		}
		for _, labels := range []bool{false, true} {
			m, err := ParseMetric(value, labels)
			if err != nil {
				oneLine(t, err)
				continue
			}
			if m.Name == "" {
				t.Fatalf("ParseMetric(%q) gave an empty name", value)
			}
			if !labels && m.Labels != nil {
				t.Fatalf("ParseMetric(%q) gave labels where none are allowed", value)
			}
			checkChange(t, m.Change)
		}
		if tg, err := ParseTarget(value); err != nil {
			oneLine(t, err)
		} else {
			switch {
			case tg.Metric == "":
				t.Fatalf("ParseTarget(%q) gave an empty metric", value)
			case tg.Utilization != nil && *tg.Utilization <= 0:
				t.Fatalf("ParseTarget(%q) gave utilization %d", value, *tg.Utilization)
			case tg.Utilization == nil && (tg.Value == nil || tg.Value.Sign() <= 0):
				t.Fatalf("ParseTarget(%q) gave no positive value", value)
			}
		}
		if tr, err := ParseTrace("load.csv", file); err != nil {
			oneLine(t, err)
		} else {
			if len(tr.Rows) == 0 || len(tr.Columns) == 0 {
				t.Fatalf("ParseTrace accepted a trace without rows or columns")
			}
			for _, r := range tr.Rows {
				if r.At == nil && r.Offset < 0 {
					t.Fatalf("ParseTrace accepted a negative offset %v", r.Offset)
				}
			}
		}
		if b, err := ParseBehavior("behavior.yaml", file); err != nil {
			oneLine(t, err)
		} else if b.ScaleUp == nil && b.ScaleDown == nil {
			t.Fatalf("ParseBehavior accepted a behavior without rules")
		}
	})
}

func checkChange(t *testing.T, c Change) {
	t.Helper()
	switch c.Kind {
	case Absolute:
		if c.Value.Sign() < 0 || c.Value.MilliValue() < 0 {
			t.Fatalf("%q: negative absolute value %s", c.Text, c.Value.String())
		}
	case Relative:
		if math.IsNaN(c.Factor) || math.IsInf(c.Factor, 0) || c.Factor < 0 {
			t.Fatalf("%q: factor %v", c.Text, c.Factor)
		}
	case OfRequest:
		if math.IsNaN(c.Percent) || math.IsInf(c.Percent, 0) || c.Percent < 0 {
			t.Fatalf("%q: percent %v", c.Text, c.Percent)
		}
	}
	if c.Kind != OfRequest {
		for _, cur := range []int64{0, 1, 250, 1 << 40} {
			if v := c.apply(cur); v < 0 {
				t.Fatalf("%q applied to %d gives %d", c.Text, cur, v)
			}
		}
	}
}

func oneLine(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
		t.Fatalf("error is not one line: %q", msg)
	}
}
