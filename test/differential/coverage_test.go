// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

var digits = regexp.MustCompile(`[0-9]+`)

// TestGeneratorCoverage runs only the upstream side on generated cases and
// checks that the generator reaches every calculator and the main error
// paths. It guards the generator against silently losing coverage.
func TestGeneratorCoverage(t *testing.T) {
	n := envInt("DIFF_COVERAGE_CASES", 3000)
	funcs := map[string]int{}
	errs := map[string]int{}
	replicas := map[string]map[int32]bool{}
	start := time.Now()
	for i := 0; i < n; i++ {
		c := Generate(uint64(i + 1))
		if on, ok := c.Settings.Profile.Gates[profile.PodLevelResources]; ok && !on {
			continue
		}
		up := runUpstreamStable(c)
		funcs[up.Function]++
		if up.Err != nil {
			msg := *up.Err
			if j := strings.LastIndex(msg, ": "); j >= 0 && !strings.HasPrefix(msg[j:], ": Deployment") {
				msg = msg[j+2:]
			}
			errs[digits.ReplaceAllString(msg, "N")]++
		} else {
			if replicas[up.Function] == nil {
				replicas[up.Function] = map[int32]bool{}
			}
			replicas[up.Function][up.Replicas] = true
		}
	}
	t.Logf("%d cases in %v", n, time.Since(start))
	var lines []string
	for f, k := range funcs {
		lines = append(lines, fmt.Sprintf("  %-34s %6d cases, %3d distinct proposals", f, k, len(replicas[f])))
	}
	sort.Strings(lines)
	t.Log("functions:\n" + strings.Join(lines, "\n"))
	lines = lines[:0]
	for e, k := range errs {
		lines = append(lines, fmt.Sprintf("  %6d  %s", k, e))
	}
	sort.Strings(lines)
	t.Log("errors:\n" + strings.Join(lines, "\n"))
	for _, f := range []string{
		"GetResourceReplicas", "GetRawResourceReplicas", "GetMetricReplicas", "GetObjectMetricReplicas",
		"GetObjectPerPodMetricReplicas", "GetExternalMetricReplicas", "GetExternalPerPodMetricReplicas",
	} {
		if funcs[f] < n/100 {
			t.Errorf("generator reached %s only %d times", f, funcs[f])
		}
	}
}
