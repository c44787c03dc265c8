// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/keda"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/migrate"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/whatif"
)

// The options the lower layers mention are worded as the command line
// spells them, through the declaration.
func TestOptionsMentionedBelowAreFlags(t *testing.T) {
	for o, want := range map[migrate.Option]string{
		migrate.OptionWrite: "--write", migrate.OptionApply: "--apply", migrate.OptionDryRunServer: "--dry-run=server",
	} {
		if got := MigrateOptionName(o); got != want {
			t.Errorf("MigrateOptionName(%q) = %q, want %q", o, got, want)
		}
	}

	_, err := whatif.ParseMetric("q{a=b}=1", false)
	if err == nil {
		t.Fatal("labels on a metric that is not External: no error")
	}
	if got, want := flagNamed(fmt.Errorf("HPA shop/web: %w", err)).Error(), `HPA shop/web: "q{a=b}=1": series labels only apply to --external`; got != want {
		t.Errorf("flagNamed = %q, want %q", got, want)
	}

	if _, _, _, err := kedaVersion("nope"); err == nil || !strings.HasPrefix(err.Error(), "--keda-version: ") {
		t.Errorf("kedaVersion(nope) = %v, want an error naming --keda-version", err)
	}
	if _, src, _, _ := kedaVersion(keda.NewestVersion); src != "--keda-version" {
		t.Errorf("the source of a given KEDA version = %q, want --keda-version", src)
	}
}
