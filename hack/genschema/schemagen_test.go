// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

// repoRoot is the repository, relative to this package.
const repoRoot = "../.."

// The generated descriptions and docs/schema are what the source says
// today; `make docs` (hack/genschema) rewrites them.
func TestUpToDate(t *testing.T) {
	docs, err := Extract()
	if err != nil {
		t.Fatal(err)
	}
	src, err := DocsSource(docs)
	if err != nil {
		t.Fatal(err)
	}
	if old, err := os.ReadFile(filepath.Join(repoRoot, DocsFile)); err != nil || !bytes.Equal(old, src) {
		t.Errorf("%s is stale (%v): run make docs", DocsFile, err)
	}
	schemas, err := Schemas(docs)
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(repoRoot, SchemaDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(schemas) {
		t.Errorf("%s holds %d files, want %d (one per kind): run make docs", SchemaDir, len(files), len(schemas))
	}
	for name, want := range schemas {
		got, err := os.ReadFile(filepath.Join(repoRoot, SchemaDir, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s/%s is stale (%v): run make docs", SchemaDir, name, err)
		}
	}
	// What the binary prints (the descriptions compiled in) is the same.
	for _, k := range schema.Kinds() {
		b, err := schema.JSON(k)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, schemas[string(k)+".json"]) {
			t.Errorf("schema.JSON(%s) differs from the schema of the source's docs: run make docs", k)
		}
	}
}

// Every type the documents are made of has its doc comment, and every
// string type of ours with constants its enumeration.
func TestExtract(t *testing.T) {
	docs, err := Extract()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"explain.Decision", "explain.WhatIf", "migrate.Report", "version.Info", "io.k8s.api.autoscaling.v2.MetricStatus"} {
		if docs.Types[key] == "" {
			t.Errorf("no description of %s", key)
		}
	}
	for key, want := range map[string]string{
		// A comment naming two fields describes both.
		"explain.DecidedBy.Metric": "MetricIndex and Metric name the winning metric (metric, tolerance) or the first failing one (failure).",
		// A line comment.
		"explain.Limits.Direction": "up, down, none",
		// Kubernetes' markers (+optional) are left out.
		"io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus.CurrentReplicas": "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.",
	} {
		if got := docs.Fields[key]; got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	if got := docs.Enums["explain.Outcome"]; len(got) != 9 || got[0] != "FailedGetScale" {
		t.Errorf("explain.Outcome: %q, want its 9 outcomes", got)
	}
	if _, ok := docs.Enums["io.k8s.api.autoscaling.v2.MetricSourceType"]; ok {
		t.Error("Kubernetes' string types got an enumeration (a failed metric's status has type \"\")")
	}
}
