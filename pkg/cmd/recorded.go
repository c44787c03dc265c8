// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"io"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/display"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// recordedProgress draws a progress bar on errOut when it is a terminal
// and the read takes over a second (nil otherwise).
func recordedProgress(errOut io.Writer) func(prom.Progress) {
	if !display.IsTerminal(errOut) {
		return nil
	}
	return prom.ProgressAfter(errOut, time.Second)
}

// manyProgress counts the HPAs read on errOut when it is a terminal.
func manyProgress(errOut io.Writer) func(done, total int) {
	if !display.IsTerminal(errOut) {
		return func(int, int) {}
	}
	return render.GatherProgress(errOut)
}

// fleetProgress says on errOut, when it is a terminal, which HPA of how
// many a tune without a NAME is at.
func fleetProgress(errOut io.Writer) func(done, total int, hpa string) {
	if !display.IsTerminal(errOut) {
		return nil
	}
	return render.FleetProgress(errOut, time.Now)
}
