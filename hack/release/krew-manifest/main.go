// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Command krew-manifest renders the krew manifest template (plugin.yaml) for
// one release from goreleaser's checksums.txt. Run it from the repository root:
//
//	go run ./hack/release/krew-manifest -release krew/release.env \
//	    -checksums krew/checksums.txt -o krew/hpa.yaml
//	go run ./hack/release/krew-manifest -tag v0.0.1-snapshot-abc1234 \
//	    -checksums dist/checksums.txt [-base-url http://127.0.0.1:8080] -o hpa.yaml
//
// With -release, the tag comes from that file and the output carries the
// generated-file header that names the release's commit and Go version.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/kubectl-hpa/kubectl-hpa/hack/release/krewmanifest"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "krew-manifest:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("krew-manifest", flag.ContinueOnError)
	tmplFile := fs.String("template", "plugin.yaml", "the krew manifest template")
	releaseFile := fs.String("release", "", "krew/release.env: the release to render (tag, commit, Go version)")
	tag := fs.String("tag", "", "the release tag (v0.1.0); instead of -release")
	checksums := fs.String("checksums", "", "goreleaser's checksums.txt for the release's archives")
	baseURL := fs.String("base-url", "", "serve the archives from this URL instead of the release download URL")
	out := fs.String("o", "-", "output file (- for stdout)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *checksums == "" {
		return errors.New("-checksums is required")
	}
	o := krewmanifest.Options{TagName: *tag, BaseURL: *baseURL}
	switch {
	case *releaseFile != "" && *tag != "":
		return errors.New("-release and -tag exclude each other")
	case *releaseFile != "":
		rel, err := krewmanifest.ReadReleaseFile(*releaseFile)
		if err != nil {
			return err
		}
		o.TagName = rel.Tag
		o.Header = rel.Header()
	case *tag == "":
		return errors.New("one of -release and -tag is required")
	}
	sums, err := krewmanifest.ReadChecksumsFile(*checksums)
	if err != nil {
		return err
	}
	o.Sums = sums
	tmpl, err := os.ReadFile(*tmplFile)
	if err != nil {
		return err
	}
	b, err := krewmanifest.Render(tmpl, o)
	if err != nil {
		return fmt.Errorf("%s: %w", *tmplFile, err)
	}
	if *out == "-" {
		_, err = os.Stdout.Write(b)
		return err
	}
	return os.WriteFile(*out, b, 0o644)
}
