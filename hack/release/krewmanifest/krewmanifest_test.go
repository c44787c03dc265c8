// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package krewmanifest

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

const (
	sumA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	sumB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

const testTemplate = `# A comment about the template,

# dropped from the output.
apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: hpa
spec:
  version: "{{ .TagName }}"
  caveats: |
    See https://example.com/{{ .TagName }}/rbac.yaml
  platforms:
    - selector:
        matchLabels:
          os: linux
      {{addURIAndSha "https://example.com/download/{{ .TagName }}/p_{{ .TagName }}_linux.tar.gz" .TagName }}
      bin: p
    - selector:
        matchLabels:
          os: windows
      {{addURIAndSha "https://example.com/download/{{ .TagName }}/p_{{ .TagName }}_windows.zip" .TagName }}
      bin: p.exe
`

func testSums() map[string]string {
	return map[string]string{"p_v1.2.3_linux.tar.gz": sumA, "p_v1.2.3_windows.zip": sumB}
}

func TestRender(t *testing.T) {
	got, err := Render([]byte(testTemplate), Options{TagName: "v1.2.3", Sums: testSums(), Header: []string{"Generated.", ""}})
	if err != nil {
		t.Fatal(err)
	}
	want := `# Generated.
#
apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: hpa
spec:
  version: "v1.2.3"
  caveats: |
    See https://example.com/v1.2.3/rbac.yaml
  platforms:
    - selector:
        matchLabels:
          os: linux
      uri: https://example.com/download/v1.2.3/p_v1.2.3_linux.tar.gz
      sha256: ` + sumA + `
      bin: p
    - selector:
        matchLabels:
          os: windows
      uri: https://example.com/download/v1.2.3/p_v1.2.3_windows.zip
      sha256: ` + sumB + `
      bin: p.exe
`
	if string(got) != want {
		t.Errorf("Render:\n%s\nwant:\n%s", got, want)
	}
}

func TestRenderBaseURL(t *testing.T) {
	got, err := Render([]byte(testTemplate), Options{TagName: "v1.2.3", Sums: testSums(), BaseURL: "http://127.0.0.1:8080/"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"      uri: http://127.0.0.1:8080/p_v1.2.3_linux.tar.gz\n",
		"      uri: http://127.0.0.1:8080/p_v1.2.3_windows.zip\n",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	tests := []struct {
		name, tmpl, tag string
		sums            map[string]string
		want            string
	}{
		{"no tag", testTemplate, "", testSums(), "no tag name"},
		{"archive without a sum", testTemplate, "v1.2.3", map[string]string{"p_v1.2.3_linux.tar.gz": sumA}, "no checksum for p_v1.2.3_windows.zip"},
		{"sum without a platform", testTemplate, "v1.2.3", map[string]string{
			"p_v1.2.3_linux.tar.gz": sumA, "p_v1.2.3_windows.zip": sumB, "p_v1.2.3_darwin.tar.gz": sumA,
		}, "no platform for p_v1.2.3_darwin.tar.gz"},
		{
			"not alone on its line", "spec:\n  version: \"{{ .TagName }}\"\n  x: {{addURIAndSha \"https://e/{{ .TagName }}/a\" .TagName }}\n", "v1.2.3",
			map[string]string{"a": sumA},
			"must stand alone",
		},
		{"bad template", "spec: {{ .TagName", "v1.2.3", testSums(), "parse template"},
		{"unknown field", "spec:\n  version: {{ .Tag }}\n", "v1.2.3", testSums(), "render template"},
		{
			"version is not the tag", "spec:\n  version: v9.9.9\n  {{addURIAndSha \"https://e/a\" .TagName }}\n", "v1.2.3",
			map[string]string{"a": sumA},
			`spec.version "v9.9.9", want "v1.2.3"`,
		},
		{"not YAML", "spec: [\n  {{addURIAndSha \"https://e/a\" .TagName }}\n", "v1.2.3", map[string]string{"a": sumA}, "not YAML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render([]byte(tt.tmpl), Options{TagName: tt.tag, Sums: tt.sums})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Render error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestParseChecksums(t *testing.T) {
	got, err := ParseChecksums(strings.NewReader(sumA + "  a.tar.gz\n\n" + sumB + " *b.zip\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["a.tar.gz"] != sumA || got["b.zip"] != sumB {
		t.Errorf("ParseChecksums = %v", got)
	}
	for in, want := range map[string]string{
		"":                                 "no checksums",
		"abc  a.tar.gz\n":                  "line 1",
		sumA + "\n":                        "line 1",
		sumA + "  a\n" + sumB + "  a\n":    "a listed twice",
		strings.ToUpper(sumA) + "  a.zip ": "line 1",
	} {
		if _, err := ParseChecksums(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseChecksums(%q) error = %v, want %q", in, err, want)
		}
	}
}

func TestParseRelease(t *testing.T) {
	const commit = "5166abd4ee671416186f28b9bae3bf3a08f19329"
	good := "# comment\nKREW_RELEASE=v0.1.0\nKREW_RELEASE_COMMIT=" + commit + "\n\nKREW_RELEASE_GO=go1.26.8\n"
	rel, err := ParseRelease(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if rel != (Release{Tag: "v0.1.0", Commit: commit, GoVersion: "go1.26.8"}) {
		t.Errorf("ParseRelease = %+v", rel)
	}
	for in, want := range map[string]string{
		strings.Replace(good, "v0.1.0", "0.1.0", 1):    "not a vMAJOR.MINOR.PATCH tag",
		strings.Replace(good, commit, commit[:7], 1):   "not a full commit hash",
		strings.Replace(good, "go1.26.8", "1.26.8", 1): "not a Go version",
		good + "OTHER=1\n":                             `unknown key "OTHER"`,
		good + "junk\n":                                "want KEY=value",
	} {
		if _, err := ParseRelease(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseRelease error = %v, want %q", err, want)
		}
	}
}

// repoFile reads a file of the repository.
func repoFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// goreleaserConfig is the part of .goreleaser.yaml the checks below read.
type goreleaserConfig struct {
	ProjectName string `json:"project_name"`
	Builds      []struct {
		Binary  string   `json:"binary"`
		Goos    []string `json:"goos"`
		Goarch  []string `json:"goarch"`
		Flags   []string `json:"flags"`
		Ldflags []string `json:"ldflags"`
		Env     []string `json:"env"`
	} `json:"builds"`
	Archives []struct {
		NameTemplate    string   `json:"name_template"`
		Formats         []string `json:"formats"`
		FormatOverrides []struct {
			Goos    string   `json:"goos"`
			Formats []string `json:"formats"`
		} `json:"format_overrides"`
		Files []struct {
			Src         string `json:"src"`
			StripParent bool   `json:"strip_parent"`
		} `json:"files"`
	} `json:"archives"`
}

type manifest struct {
	Spec struct {
		Version     string `json:"version"`
		Description string `json:"description"`
		Caveats     string `json:"caveats"`
		Platforms   []struct {
			Selector struct {
				MatchLabels map[string]string `json:"matchLabels"`
			} `json:"selector"`
			URI    string `json:"uri"`
			Sha256 string `json:"sha256"`
			Bin    string `json:"bin"`
			Files  []struct {
				From string `json:"from"`
				To   string `json:"to"`
			} `json:"files"`
		} `json:"platforms"`
	} `json:"spec"`
}

// TestPluginMatchesGoreleaser keeps plugin.yaml and .goreleaser.yaml in step:
// one platform per archive, with the archive's name and format, the binary's
// name, and exactly the files the archive holds.
func TestPluginMatchesGoreleaser(t *testing.T) {
	var cfg goreleaserConfig
	if err := yaml.Unmarshal(repoFile(t, ".goreleaser.yaml"), &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Builds) != 1 || len(cfg.Archives) != 1 {
		t.Fatalf("want one build and one archive in .goreleaser.yaml, got %d and %d", len(cfg.Builds), len(cfg.Archives))
	}
	b, a := cfg.Builds[0], cfg.Archives[0]
	// plugin.yaml's URLs assume this archive name.
	if cfg.ProjectName != "kubectl-hpa" || a.NameTemplate != "{{ .ProjectName }}_v{{ .Version }}_{{ .Os }}_{{ .Arch }}" {
		t.Fatalf("archive names changed (project %q, name_template %q): update plugin.yaml and this test", cfg.ProjectName, a.NameTemplate)
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=0") || !slices.Contains(b.Flags, "-trimpath") {
		t.Errorf("builds must be static and reproducible: env %v, flags %v", b.Env, b.Flags)
	}
	format := func(goos string) string {
		for _, o := range a.FormatOverrides {
			if o.Goos == goos {
				return o.Formats[0]
			}
		}
		return a.Formats[0]
	}
	const tag = "v1.2.3"
	sums := map[string]string{}
	type want struct{ archive, bin string }
	wants := map[string]want{} // by os/arch
	for _, goos := range b.Goos {
		for _, goarch := range b.Goarch {
			name := cfg.ProjectName + "_" + tag + "_" + goos + "_" + goarch + "." + format(goos)
			sums[name] = sumA
			bin := b.Binary
			if goos == "windows" {
				bin += ".exe"
			}
			wants[goos+"/"+goarch] = want{name, bin}
		}
	}
	if len(wants) != 6 {
		t.Errorf("goreleaser builds %d platforms, want 6 (linux, darwin, windows x amd64, arm64)", len(wants))
	}
	out, err := Render(repoFile(t, "plugin.yaml"), Options{TagName: tag, Sums: sums})
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := yaml.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range m.Spec.Platforms {
		key := p.Selector.MatchLabels["os"] + "/" + p.Selector.MatchLabels["arch"]
		w, ok := wants[key]
		if !ok || seen[key] || len(p.Selector.MatchLabels) != 2 {
			t.Errorf("platform %v: not one of goreleaser's, or twice", p.Selector.MatchLabels)
			continue
		}
		seen[key] = true
		if !strings.HasSuffix(p.URI, "/releases/download/"+tag+"/"+w.archive) {
			t.Errorf("%s: uri %s, want the release's %s", key, p.URI, w.archive)
		}
		if p.Bin != w.bin {
			t.Errorf("%s: bin %q, want %q", key, p.Bin, w.bin)
		}
		var from []string
		for _, f := range p.Files {
			from = append(from, f.From)
			if f.To != "." {
				t.Errorf("%s: %s goes to %q, want .", key, f.From, f.To)
			}
		}
		inArchive := []string{w.bin}
		for _, f := range a.Files {
			name := f.Src
			if f.StripParent {
				name = filepath.Base(name)
			}
			inArchive = append(inArchive, name)
		}
		slices.Sort(from)
		slices.Sort(inArchive)
		if !slices.Equal(from, inArchive) {
			t.Errorf("%s: files %v, but the archive holds %v", key, from, inArchive)
		}
	}
	if len(seen) != len(wants) {
		t.Errorf("plugin.yaml has platforms for %d of goreleaser's %d", len(seen), len(wants))
	}
}

// TestStampsMatchMakefile: goreleaser stamps the same pkg/version variables as
// `make build`.
func TestStampsMatchMakefile(t *testing.T) {
	var cfg goreleaserConfig
	if err := yaml.Unmarshal(repoFile(t, ".goreleaser.yaml"), &cfg); err != nil {
		t.Fatal(err)
	}
	varRE := regexp.MustCompile(`pkg/version\.(\w+)=`)
	names := func(s string) []string {
		var n []string
		for _, m := range varRE.FindAllStringSubmatch(s, -1) {
			n = append(n, m[1])
		}
		slices.Sort(n)
		return n
	}
	fromGoreleaser := names(strings.Join(cfg.Builds[0].Ldflags, "\n"))
	fromMakefile := names(string(repoFile(t, "Makefile")))
	if !slices.Equal(fromGoreleaser, []string{"Commit", "Date", "Version"}) || !slices.Equal(fromGoreleaser, fromMakefile) {
		t.Errorf("goreleaser stamps %v, the Makefile %v; want Commit, Date and Version in both", fromGoreleaser, fromMakefile)
	}
}

// TestPluginDescription: the description says the plugin reproduces the
// controller's calculation without pinning a Kubernetes version (the version
// replayed is the cluster's, detected; a manifest outlives the release
// table, which docs/versions.md carries), and the caveats name the metrics
// APIs and the RBAC file.
func TestPluginDescription(t *testing.T) {
	out, err := Render(repoFile(t, "plugin.yaml"), Options{TagName: "v1.2.3", Sums: releaseSums(t)})
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := yaml.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	desc := strings.Join(strings.Fields(m.Spec.Description), " ")
	if !strings.Contains(desc, "reproduces the HorizontalPodAutoscaler controller's own calculation on your objects") {
		t.Errorf("the description must say it reproduces the controller's calculation:\n%s", m.Spec.Description)
	}
	if v := regexp.MustCompile(`v1\.\d+(\.\d+)?`).FindString(desc); v != "" {
		t.Errorf("the description pins the controller version %s; the replayed version is detected per cluster", v)
	}
	for _, want := range []string{"metrics.k8s.io", "custom.metrics.k8s.io", "external.metrics.k8s.io", "/v1.2.3/docs/rbac.yaml", "kubectl_complete-hpa"} {
		if !strings.Contains(m.Spec.Caveats, want) {
			t.Errorf("the caveats do not mention %s", want)
		}
	}
	if _, err := os.Stat(filepath.Join("..", "..", "..", "docs", "rbac.yaml")); err != nil {
		t.Errorf("the caveats link docs/rbac.yaml: %v", err)
	}
}

// releaseSums are the sums of krew/checksums.txt, renamed to tag v1.2.3.
func releaseSums(t *testing.T) map[string]string {
	t.Helper()
	rel, err := ReadReleaseFile(filepath.Join("..", "..", "..", "krew", "release.env"))
	if err != nil {
		t.Fatal(err)
	}
	sums, err := ReadChecksumsFile(filepath.Join("..", "..", "..", "krew", "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range sums {
		out[strings.Replace(k, "_"+rel.Tag+"_", "_v1.2.3_", 1)] = v
	}
	return out
}

// TestCommittedManifestIsFresh: krew/hpa.yaml is plugin.yaml rendered for the
// release in krew/release.env with the sums in krew/checksums.txt. (`make
// release-check` also rebuilds the archives to check those sums.)
func TestCommittedManifestIsFresh(t *testing.T) {
	rel, err := ReadReleaseFile(filepath.Join("..", "..", "..", "krew", "release.env"))
	if err != nil {
		t.Fatal(err)
	}
	sums, err := ReadChecksumsFile(filepath.Join("..", "..", "..", "krew", "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := Render(repoFile(t, "plugin.yaml"), Options{TagName: rel.Tag, Sums: sums, Header: rel.Header()})
	if err != nil {
		t.Fatal(err)
	}
	if got := repoFile(t, "krew/hpa.yaml"); !bytes.Equal(got, want) {
		t.Errorf("krew/hpa.yaml is stale: run `make krew-manifest` (plugin.yaml or krew/ changed)")
	}
}
