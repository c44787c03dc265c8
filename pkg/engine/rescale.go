// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// scaleConflictMessage is the text of the API server's conflict error on a
// scale update.
const scaleConflictMessage = "Operation cannot be fulfilled on scale: the object has been modified; please apply your changes to the latest version and try again"

// ScaleUpdateOutcome replays the controller's scale UPDATE against a
// sequence of API answers ("ok", "conflict" or "error:MESSAGE"; the last one
// repeats) and returns the error the rescale ends with, "" for success.
// v1.34+ retry a conflict (five attempts in all, client-go's default
// retry); older versions fail at the first one. The result feeds
// Target.UpdateError.
func ScaleUpdateOutcome(results []string, sw profile.Switches) string {
	if len(results) == 0 {
		return ""
	}
	attempts := 1
	if sw.RetryScaleUpdateOnConflict {
		attempts = 5
	}
	for i := 0; i < attempts; i++ {
		r := results[min(i, len(results)-1)]
		switch {
		case r == "ok":
			return ""
		case strings.HasPrefix(r, "error:"):
			return strings.TrimPrefix(r, "error:")
		}
	}
	return scaleConflictMessage
}
