// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package krewmanifest renders the krew plugin manifest template (plugin.yaml)
// for one release, the way krew-release-bot does on a release: the template is a
// Go text/template with the field TagName and the function
//
//	{{addURIAndSha "https://.../download/{{ .TagName }}/ARCHIVE" .TagName }}
//
// which becomes the two manifest fields `uri: URL` and `sha256: SUM`. Instead of
// downloading each archive to hash it, Render takes the sums from goreleaser's
// checksums.txt (hack/release rebuilds the archives reproducibly, so the sums
// can be checked).
package krewmanifest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"text/template"

	"sigs.k8s.io/yaml"
)

// Options are the inputs of Render besides the template.
type Options struct {
	// TagName is the release tag, with its "v" (v0.1.0).
	TagName string
	// Sums maps an archive's file name to its sha256 (lower-case hex).
	Sums map[string]string
	// BaseURL, when set, replaces everything up to the last "/" of every
	// archive URL (for a manifest that points at a local file server).
	BaseURL string
	// Header is written first, as # comment lines. The template's own leading
	// comment block is dropped.
	Header []string
}

var shaRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// ParseChecksums reads goreleaser's checksums.txt ("SUM  NAME" per line).
func ParseChecksums(r io.Reader) (map[string]string, error) {
	sums := map[string]string{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 || !shaRE.MatchString(f[0]) {
			return nil, fmt.Errorf("checksums line %d: want \"<sha256>  <file>\", got %q", n, line)
		}
		name := strings.TrimPrefix(f[1], "*")
		if _, dup := sums[name]; dup {
			return nil, fmt.Errorf("checksums line %d: %s listed twice", n, name)
		}
		sums[name] = f[0]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read checksums: %w", err)
	}
	if len(sums) == 0 {
		return nil, fmt.Errorf("no checksums")
	}
	return sums, nil
}

// ReadChecksumsFile is ParseChecksums on a file.
func ReadChecksumsFile(name string) (map[string]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sums, err := ParseChecksums(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return sums, nil
}

// FileSHA256 returns the sha256 of a file in lower-case hex.
func FileSHA256(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", name, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// marker brackets what addURIAndSha returns until Render knows the column to
// indent the second field at.
const marker = "\x00krew-uri-sha\x00"

// Render renders the template. Every archive the template names must have a
// sum, and every sum must be used by the template, so a platform cannot be
// forgotten on either side.
func Render(tmpl []byte, o Options) ([]byte, error) {
	if o.TagName == "" {
		return nil, fmt.Errorf("no tag name")
	}
	used := map[string]bool{}
	funcs := template.FuncMap{
		"addURIAndSha": func(rawURL, tag string) (string, error) {
			u, err := expandTag(rawURL, tag)
			if err != nil {
				return "", err
			}
			name := path.Base(u)
			sum, ok := o.Sums[name]
			if !ok {
				return "", fmt.Errorf("no checksum for %s (the template names it; is the archive missing from the release?)", name)
			}
			used[name] = true
			if o.BaseURL != "" {
				u = strings.TrimSuffix(o.BaseURL, "/") + "/" + name
			}
			return marker + u + marker + sum + marker, nil
		},
	}
	t, err := template.New("plugin.yaml").Option("missingkey=error").Funcs(funcs).Parse(string(dropLeadingComments(tmpl)))
	if err != nil {
		return nil, fmt.Errorf("parse template: %w", err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, struct{ TagName string }{o.TagName}); err != nil {
		return nil, fmt.Errorf("render template: %w", err)
	}
	var unused []string
	for name := range o.Sums {
		if !used[name] {
			unused = append(unused, name)
		}
	}
	if len(unused) > 0 {
		sort.Strings(unused)
		return nil, fmt.Errorf("the template names no platform for %s", strings.Join(unused, ", "))
	}
	body, err := expandMarkers(buf.Bytes())
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for _, h := range o.Header {
		out.WriteString(strings.TrimRight("# "+h, " ") + "\n")
	}
	out.Write(body)
	// The result must be YAML that names the tag as its version.
	var m struct {
		Spec struct {
			Version string `json:"version"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(out.Bytes(), &m); err != nil {
		return nil, fmt.Errorf("the rendered manifest is not YAML: %w", err)
	}
	if m.Spec.Version != o.TagName {
		return nil, fmt.Errorf("the rendered manifest has spec.version %q, want %q", m.Spec.Version, o.TagName)
	}
	return out.Bytes(), nil
}

// expandTag renders the {{ .TagName }} inside an addURIAndSha URL.
func expandTag(rawURL, tag string) (string, error) {
	t, err := template.New("url").Option("missingkey=error").Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("addURIAndSha URL %q: %w", rawURL, err)
	}
	var b strings.Builder
	if err := t.Execute(&b, struct{ TagName string }{tag}); err != nil {
		return "", fmt.Errorf("addURIAndSha URL %q: %w", rawURL, err)
	}
	return b.String(), nil
}

// expandMarkers turns each "<indent>MARKER url MARKER sum MARKER" line into
// "<indent>uri: url" and "<indent>sha256: sum".
func expandMarkers(b []byte) ([]byte, error) {
	lines := strings.SplitAfter(string(b), "\n")
	var out strings.Builder
	for _, l := range lines {
		i := strings.Index(l, marker)
		if i < 0 {
			out.WriteString(l)
			continue
		}
		indent := l[:i]
		if strings.TrimSpace(indent) != "" {
			return nil, fmt.Errorf("addURIAndSha must stand alone on its line: %q", strings.ReplaceAll(l, marker, "|"))
		}
		parts := strings.Split(strings.TrimRight(l[i:], "\n"), marker)
		if len(parts) != 4 || parts[0] != "" || parts[3] != "" {
			return nil, fmt.Errorf("addURIAndSha must stand alone on its line: %q", strings.ReplaceAll(l, marker, "|"))
		}
		fmt.Fprintf(&out, "%suri: %s\n%ssha256: %s\n", indent, parts[1], indent, parts[2])
	}
	return []byte(out.String()), nil
}

// dropLeadingComments removes the comment lines (and blank lines) at the top
// of the template: they describe the template, not the rendered manifest.
func dropLeadingComments(b []byte) []byte {
	for len(b) > 0 {
		end := bytes.IndexByte(b, '\n')
		line := b
		if end >= 0 {
			line = b[:end]
		}
		t := bytes.TrimSpace(line)
		if len(t) > 0 && t[0] != '#' {
			break
		}
		if end < 0 {
			return nil
		}
		b = b[end+1:]
	}
	return b
}

// Release is the release that krew/hpa.yaml describes, as krew/release.env
// records it.
type Release struct {
	// Tag is the release tag, with its "v" (v0.1.0).
	Tag string
	// Commit is the full commit the release is built from.
	Commit string
	// GoVersion is the Go toolchain the archives were built with (go1.26.8):
	// the same source gives other bytes with another toolchain.
	GoVersion string
}

var (
	tagRE    = regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)
	commitRE = regexp.MustCompile(`^[0-9a-f]{40}$`)
)

// ParseRelease reads KREW_RELEASE, KREW_RELEASE_COMMIT and KREW_RELEASE_GO
// from KEY=value lines (# starts a comment line), the format of
// krew/release.env, which the shell scripts source as well.
func ParseRelease(r io.Reader) (Release, error) {
	var rel Release
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return rel, fmt.Errorf("line %d: want KEY=value, got %q", n, line)
		}
		switch k {
		case "KREW_RELEASE":
			rel.Tag = v
		case "KREW_RELEASE_COMMIT":
			rel.Commit = v
		case "KREW_RELEASE_GO":
			rel.GoVersion = v
		default:
			return rel, fmt.Errorf("line %d: unknown key %q", n, k)
		}
	}
	if err := sc.Err(); err != nil {
		return rel, err
	}
	switch {
	case !tagRE.MatchString(rel.Tag):
		return rel, fmt.Errorf("KREW_RELEASE=%q is not a vMAJOR.MINOR.PATCH tag", rel.Tag)
	case !commitRE.MatchString(rel.Commit):
		return rel, fmt.Errorf("KREW_RELEASE_COMMIT=%q is not a full commit hash", rel.Commit)
	case !strings.HasPrefix(rel.GoVersion, "go"):
		return rel, fmt.Errorf("KREW_RELEASE_GO=%q is not a Go version (go1.26.8)", rel.GoVersion)
	}
	return rel, nil
}

// ReadReleaseFile is ParseRelease on a file.
func ReadReleaseFile(name string) (Release, error) {
	f, err := os.Open(name)
	if err != nil {
		return Release{}, err
	}
	defer f.Close()
	rel, err := ParseRelease(f)
	if err != nil {
		return rel, fmt.Errorf("%s: %w", name, err)
	}
	return rel, nil
}

// Header is the comment block of krew/hpa.yaml.
func (r Release) Header() []string {
	return []string{
		"Code generated by hack/release/krew-manifest from plugin.yaml; DO NOT EDIT.",
		fmt.Sprintf("The krew manifest of kubectl-hpa %s: archives built from commit", r.Tag),
		fmt.Sprintf("%s with %s (krew/release.env).", r.Commit, r.GoVersion),
		"`make krew-manifest` writes it; `make release-check` rebuilds the archives",
		"and checks the sums. See hack/release/README.md.",
	}
}
