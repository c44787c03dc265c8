// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package releasecheck holds the checks of `make release-check`
// (hack/release/check.sh) on what goreleaser built: the archives, the
// binaries' version stamps, the krew manifests (with krew's own validator) and
// a real `kubectl krew install` of the plugin, run through kubectl. The test
// needs the snapshot and release builds that check.sh makes first, so it skips
// unless KUBECTL_HPA_RELEASE_CHECK=1; check.sh sets it and says where things are.
package releasecheck

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/hack/release/krewmanifest"
)

type platform struct{ os, arch string }

var commitRE = regexp.MustCompile(`^[0-9a-f]{40}$`)

// The platforms .goreleaser.yaml builds (krewmanifest's tests keep plugin.yaml
// and .goreleaser.yaml in step; checkArchives fails if a build has other
// archives than these). The builds checked may be of the host's alone (see
// built).
var platforms = []platform{
	{"linux", "amd64"},
	{"linux", "arm64"},
	{"darwin", "amd64"},
	{"darwin", "arm64"},
	{"windows", "amd64"},
	{"windows", "arm64"},
}

// built is what check.sh had goreleaser build: every platform, or with
// RELEASE_CHECK_PLATFORMS=host (what `make test` runs) the host's only.
func built() []platform {
	if os.Getenv("RELEASE_CHECK_PLATFORMS") == "host" {
		return []platform{{runtime.GOOS, runtime.GOARCH}}
	}
	return platforms
}

// hostOnly reports whether the builds are of the host's platform alone.
func hostOnly() bool { return len(built()) < len(platforms) }

// withPlaceholders completes sums, which has the host's archive only, with a
// placeholder for every other platform, so that a manifest can be rendered;
// krew only ever reads the sum of the platform it installs.
func withPlaceholders(sums map[string]string, tag string) map[string]string {
	out := map[string]string{}
	for _, p := range platforms {
		out[p.archive(tag)] = strings.Repeat("a", 64) // all digits would read as a YAML number
	}
	for k, v := range sums {
		out[k] = v
	}
	return out
}

func (p platform) archive(tag string) string {
	ext := ".tar.gz"
	if p.os == "windows" {
		ext = ".zip"
	}
	return "kubectl-hpa_" + tag + "_" + p.os + "_" + p.arch + ext
}

func (p platform) bin() string {
	if p.os == "windows" {
		return "kubectl-hpa.exe"
	}
	return "kubectl-hpa"
}

// build is one goreleaser output directory: the archives, checksums.txt and
// metadata.json, and what they should be stamped with.
type build struct {
	dir        string
	tag        string // v + goreleaser's version
	metaCommit string // the commit goreleaser recorded in metadata.json
	commit     string
	date       string // RFC 3339, UTC
	sums       map[string]string
	archive    map[platform]map[string]entry // filled by checkArchives
}

type entry struct {
	mode fs.FileMode
	data []byte
}

type env struct {
	root      string
	snapshot  *build
	release   *build
	rel       krewmanifest.Release
	krew      string // the kubectl-krew binary
	validator string
	kubectl   string
	offline   []string // command prefix that runs without network, if any
}

func setup(t *testing.T) *env {
	t.Helper()
	if os.Getenv("KUBECTL_HPA_RELEASE_CHECK") != "1" {
		t.Skip("run by `make release-check` (hack/release/check.sh), after the goreleaser builds")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{
		root:      root,
		krew:      mustEnv(t, "RELEASE_CHECK_KREW"),
		validator: mustEnv(t, "RELEASE_CHECK_VALIDATOR"),
	}
	if e.kubectl, err = exec.LookPath("kubectl"); err != nil {
		t.Fatal("kubectl is not on PATH")
	}
	if e.rel, err = krewmanifest.ReadReleaseFile(filepath.Join(root, "krew", "release.env")); err != nil {
		t.Fatal(err)
	}
	// The snapshot is of the commit checked out when it was built (HEAD, unless
	// a commit landed since), the release of krew/release.env's.
	e.snapshot = readBuild(t, mustEnv(t, "RELEASE_CHECK_SNAPSHOT_DIST"))
	if !commitRE.MatchString(e.snapshot.metaCommit) || !strings.Contains(e.snapshot.tag, "-snapshot-"+e.snapshot.metaCommit[:7]) {
		t.Fatalf("the snapshot %s records commit %q: goreleaser did not read git (see goreleaser_in in hack/release/lib.sh)",
			e.snapshot.tag, e.snapshot.metaCommit)
	}
	if head := git(t, root, "rev-parse", "HEAD"); head != e.snapshot.metaCommit {
		t.Logf("note: the snapshot was built at %s; HEAD is now %s", e.snapshot.metaCommit, head)
	}
	e.snapshot.commit = e.snapshot.metaCommit
	e.snapshot.date = commitDate(t, root, e.snapshot.commit)
	e.release = readBuild(t, mustEnv(t, "RELEASE_CHECK_RELEASE_DIST"))
	e.release.commit = e.rel.Commit
	e.release.date = commitDate(t, root, e.rel.Commit)
	if e.release.tag != e.rel.Tag || e.release.metaCommit != e.rel.Commit {
		t.Fatalf("the release build is %s at %s, krew/release.env names %s at %s",
			e.release.tag, e.release.metaCommit, e.rel.Tag, e.rel.Commit)
	}
	// Run krew without a network when the kernel lets us (root, or user
	// namespaces): that proves installing from a manifest needs none.
	if err := exec.Command("unshare", "-n", "true").Run(); err == nil {
		e.offline = []string{"unshare", "-n", "--"}
	} else {
		t.Logf("unshare -n is not available (%v): krew runs with the network (it must not use it)", err)
	}
	return e
}

func mustEnv(t *testing.T, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		t.Fatalf("%s is not set (hack/release/check.sh sets it)", name)
	}
	return v
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// commitDate is the commit date the way the Makefile and goreleaser stamp it.
func commitDate(t *testing.T, dir, commit string) string {
	t.Helper()
	d, err := time.Parse(time.RFC3339, git(t, dir, "log", "-1", "--format=%cI", commit))
	if err != nil {
		t.Fatal(err)
	}
	return d.UTC().Format(time.RFC3339)
}

func readBuild(t *testing.T, dir string) *build {
	t.Helper()
	b := &build{dir: dir}
	var err error
	if b.sums, err = krewmanifest.ReadChecksumsFile(filepath.Join(dir, "checksums.txt")); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var md struct {
		Version string `json:"version"`
		Commit  string `json:"commit"`
	}
	if err := json.Unmarshal(raw, &md); err != nil {
		t.Fatalf("%s/metadata.json: %v", dir, err)
	}
	b.tag = "v" + md.Version
	b.metaCommit = md.Commit
	return b
}

func TestRelease(t *testing.T) {
	e := setup(t)
	t.Logf("snapshot %s (commit %s), release %s (commit %s)", e.snapshot.tag, e.snapshot.commit, e.release.tag, e.release.commit)

	t.Run("snapshot archives", func(t *testing.T) { checkArchives(t, e, e.snapshot) })
	t.Run("release archives", func(t *testing.T) { checkArchives(t, e, e.release) })

	// The sums of the rebuilt release are those recorded in krew/checksums.txt
	// and used in krew/hpa.yaml, and rendering gives krew/hpa.yaml.
	sameToolchain := e.rel.GoVersion == runtime.Version()
	t.Run("krew/checksums.txt is the release's", func(t *testing.T) {
		if !sameToolchain {
			t.Skipf("the release was built with %s, this is %s: its archives cannot be rebuilt byte for byte here",
				e.rel.GoVersion, runtime.Version())
		}
		recorded, err := krewmanifest.ReadChecksumsFile(filepath.Join(e.root, "krew", "checksums.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if hostOnly() {
			// Only the host's archive was rebuilt: it must have the recorded sum.
			for name, sum := range e.release.sums {
				if recorded[name] != sum {
					t.Fatalf("rebuilding %s from %s gives %s with sha256 %s, krew/checksums.txt records %q; "+
						"run `make krew-manifest` (a change to .goreleaser.yaml, or to the Go toolchain, changes the archives)",
						e.rel.Tag, e.rel.Commit, name, sum, recorded[name])
				}
			}
			return
		}
		if !mapsEqual(recorded, e.release.sums) {
			t.Fatalf("rebuilding %s from %s gives other archives than krew/checksums.txt records:\nrebuilt:  %v\nrecorded: %v\n"+
				"run `make krew-manifest` (a change to .goreleaser.yaml, or to the Go toolchain, changes the archives)",
				e.rel.Tag, e.rel.Commit, e.release.sums, recorded)
		}
	})
	t.Run("krew/hpa.yaml is fresh", func(t *testing.T) {
		sums, from := e.release.sums, "the rebuilt archives"
		if !sameToolchain || hostOnly() {
			recorded, err := krewmanifest.ReadChecksumsFile(filepath.Join(e.root, "krew", "checksums.txt"))
			if err != nil {
				t.Fatal(err)
			}
			sums, from = recorded, "krew/checksums.txt (the archives were not all rebuilt: another toolchain, or the host's only)"
		}
		want := render(t, e, krewmanifest.Options{TagName: e.rel.Tag, Sums: sums, Header: e.rel.Header()})
		got, err := os.ReadFile(filepath.Join(e.root, "krew", "hpa.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("krew/hpa.yaml is not what plugin.yaml renders to for %s with the sums of %s; run `make krew-manifest`", e.rel.Tag, from)
		}
	})

	t.Run("krew validator: krew/hpa.yaml", func(t *testing.T) {
		// Its archives are on GitHub, out of reach: structure and platforms only.
		validate(t, e, filepath.Join(e.root, "krew", "hpa.yaml"), true)
	})

	t.Run("krew validator: snapshot, every platform installed", func(t *testing.T) {
		// Serve dist/ on 127.0.0.1 and let the validator install the plugin for
		// each platform (KREW_OS, KREW_ARCH), which also checks that a LICENSE
		// is extracted.
		if hostOnly() {
			t.Skip("only the host's archive was built (RELEASE_CHECK_PLATFORMS=host); `make release-check` installs every platform")
		}
		srv := httptest.NewServer(http.FileServer(http.Dir(e.snapshot.dir)))
		defer srv.Close()
		m := render(t, e, krewmanifest.Options{TagName: e.snapshot.tag, Sums: e.snapshot.sums, BaseURL: srv.URL})
		validate(t, e, writeManifest(t, m), false)
	})

	host := platform{runtime.GOOS, runtime.GOARCH}
	if !slices.Contains(platforms, host) || host.os == "windows" {
		t.Fatalf("the krew install checks run on linux or darwin, amd64 or arm64, not %s/%s", host.os, host.arch)
	}

	t.Run("krew install snapshot, kubectl hpa version", func(t *testing.T) {
		sums := e.snapshot.sums
		if hostOnly() {
			sums = withPlaceholders(sums, e.snapshot.tag)
		}
		m := render(t, e, krewmanifest.Options{TagName: e.snapshot.tag, Sums: sums})
		checkInstall(t, e, e.snapshot, writeManifest(t, m), host)
	})

	t.Run("krew install release with krew/hpa.yaml", func(t *testing.T) {
		if !sameToolchain {
			t.Skip("the rebuilt archive's sum differs from krew/hpa.yaml's: another Go toolchain")
		}
		checkInstall(t, e, e.release, filepath.Join(e.root, "krew", "hpa.yaml"), host)
	})
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func render(t *testing.T, e *env, o krewmanifest.Options) []byte {
	t.Helper()
	tmpl, err := os.ReadFile(filepath.Join(e.root, "plugin.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := krewmanifest.Render(tmpl, o)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeManifest writes a manifest as hpa.yaml (krew takes the plugin's name
// from the file name) in a new directory.
func writeManifest(t *testing.T, m []byte) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "hpa.yaml")
	if err := os.WriteFile(name, m, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// checkArchives checks each of the six archives: listed in checksums.txt with
// the right sum, exactly the binary, LICENSE, README.md and
// kubectl_complete-hpa, with fixed modes, the last three as in the repository,
// and a static binary for the right platform that carries the version stamps.
func checkArchives(t *testing.T, e *env, b *build) {
	t.Helper()
	if len(b.sums) != len(built()) {
		t.Errorf("checksums.txt lists %d files, want the %d archives", len(b.sums), len(built()))
	}
	b.archive = map[platform]map[string]entry{}
	for _, p := range built() {
		name := p.archive(b.tag)
		path := filepath.Join(b.dir, name)
		sum, err := krewmanifest.FileSHA256(path)
		if err != nil {
			t.Error(err)
			continue
		}
		if b.sums[name] != sum {
			t.Errorf("%s: sha256 %s, checksums.txt says %q", name, sum, b.sums[name])
		}
		files, err := readArchive(path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		b.archive[p] = files
		var names []string
		for n := range files {
			names = append(names, n)
		}
		slices.Sort(names)
		want := []string{"LICENSE", "README.md", "kubectl_complete-hpa", p.bin()}
		slices.Sort(want)
		if !slices.Equal(names, want) {
			t.Errorf("%s holds %q, want %q", name, names, want)
			continue
		}
		for n, mode := range map[string]fs.FileMode{"LICENSE": 0o644, "README.md": 0o644, "kubectl_complete-hpa": 0o755, p.bin(): 0o755} {
			if files[n].mode.Perm() != mode {
				t.Errorf("%s: %s has mode %v, want %v", name, n, files[n].mode.Perm(), mode)
			}
		}
		// Snapshots are of the work tree; a release is of its commit.
		for n, src := range map[string]string{"LICENSE": "LICENSE", "README.md": "README.md", "kubectl_complete-hpa": "hack/kubectl_complete-hpa"} {
			var repo []byte
			if b == e.snapshot {
				repo, err = os.ReadFile(filepath.Join(e.root, src))
			} else {
				repo, err = exec.Command("git", "-C", e.root, "show", b.commit+":"+src).Output()
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(files[n].data, repo) {
				t.Errorf("%s: %s differs from the repository's %s", name, n, src)
			}
		}
		checkBinary(t, name, p, files[p.bin()].data, b)
	}
}

func readArchive(path string) (map[string]entry, error) {
	files := map[string]entry{}
	add := func(name string, mode fs.FileMode, r io.Reader) error {
		if _, dup := files[name]; dup {
			return fmt.Errorf("%s is in the archive twice", name)
		}
		data, err := io.ReadAll(r)
		files[name] = entry{mode, data}
		return err
	}
	if strings.HasSuffix(path, ".zip") {
		z, err := zip.OpenReader(path)
		if err != nil {
			return nil, err
		}
		defer z.Close()
		for _, f := range z.File {
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			err = add(f.Name, f.Mode(), rc)
			rc.Close()
			if err != nil {
				return nil, err
			}
		}
		return files, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("%s is not a regular file", h.Name)
		}
		if h.Uname != "root" || h.Gname != "root" || h.Uid != 0 || h.Gid != 0 {
			return nil, fmt.Errorf("%s is owned by %s:%s (%d:%d), want root:root (0:0)", h.Name, h.Uname, h.Gname, h.Uid, h.Gid)
		}
		if err := add(h.Name, h.FileInfo().Mode(), tr); err != nil {
			return nil, err
		}
	}
}

// checkBinary checks the executable format and architecture, that a Linux
// binary is static (no interpreter: CGO_ENABLED=0), and that the version,
// commit and date stamps are in it.
func checkBinary(t *testing.T, name string, p platform, bin []byte, b *build) {
	t.Helper()
	r := bytes.NewReader(bin)
	var err error
	switch p.os {
	case "linux":
		var f *elf.File
		if f, err = elf.NewFile(r); err == nil {
			want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[p.arch]
			if f.Machine != want {
				err = fmt.Errorf("ELF machine %v, want %v", f.Machine, want)
			}
			for _, prog := range f.Progs {
				if prog.Type == elf.PT_INTERP {
					err = errors.New("dynamically linked (has an ELF interpreter), want static")
				}
			}
		}
	case "darwin":
		var f *macho.File
		if f, err = macho.NewFile(r); err == nil {
			want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[p.arch]
			if f.Cpu != want {
				err = fmt.Errorf("Mach-O cpu %v, want %v", f.Cpu, want)
			}
		}
	case "windows":
		var f *pe.File
		if f, err = pe.NewFile(r); err == nil {
			want := map[string]uint16{"amd64": pe.IMAGE_FILE_MACHINE_AMD64, "arm64": pe.IMAGE_FILE_MACHINE_ARM64}[p.arch]
			if f.Machine != want {
				err = fmt.Errorf("PE machine %#x, want %#x", f.Machine, want)
			}
		}
	}
	if err != nil {
		t.Errorf("%s: %s: %v", name, p.bin(), err)
	}
	for what, s := range map[string]string{"version": b.tag, "commit": b.commit, "date": b.date} {
		if !bytes.Contains(bin, []byte(s)) {
			t.Errorf("%s: %s does not carry the %s stamp %q", name, p.bin(), what, s)
		}
	}
}

// validate runs krew's validate-krew-manifest on a manifest; it installs
// every platform with `kubectl krew install` unless skipInstall.
func validate(t *testing.T, e *env, manifest string, skipInstall bool) {
	t.Helper()
	args := []string{"-manifest", manifest}
	if skipInstall {
		args = append(args, "-skip-install")
	}
	cmd := exec.Command(e.validator, args...)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(e.krew)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	t.Logf("validate-krew-manifest %s:\n%s", strings.Join(args, " "), out)
	if err != nil {
		t.Fatalf("validate-krew-manifest %s: %v", strings.Join(args, " "), err)
	}
}

// checkInstall installs the plugin with `kubectl krew install --manifest
// --archive` into a new KREW_ROOT, without network where possible, and runs
// it through kubectl: `kubectl hpa version` (text and -o json) must print b's
// stamps, and `kubectl __complete hpa ...` must reach the plugin's completion
// through the kubectl_complete-hpa helper installed with it.
func checkInstall(t *testing.T, e *env, b *build, manifest string, host platform) {
	t.Helper()
	krewRoot := t.TempDir()
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig") // no cluster is needed
	if err := os.WriteFile(kubeconfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(b.dir, host.archive(b.tag))
	baseEnv := func(path ...string) []string {
		env := []string{}
		for _, kv := range os.Environ() {
			k, _, _ := strings.Cut(kv, "=")
			if k != "PATH" && k != "KREW_ROOT" && k != "KUBECONFIG" {
				env = append(env, kv)
			}
		}
		path = append(path, os.Getenv("PATH"))
		return append(env, "PATH="+strings.Join(path, string(os.PathListSeparator)),
			"KREW_ROOT="+krewRoot, "KREW_NO_UPGRADE_CHECK=1", "KUBECONFIG="+kubeconfig)
	}
	run := func(env []string, offline bool, name string, args ...string) string {
		t.Helper()
		argv := append([]string{name}, args...)
		if offline {
			argv = append(slices.Clone(e.offline), argv...)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(argv, " "), err, out, stderr.String())
		}
		return string(out)
	}

	krewEnv := baseEnv(filepath.Join(krewRoot, "bin"), filepath.Dir(e.krew))
	run(krewEnv, true, e.kubectl, "krew", "install", "--manifest="+manifest, "--archive="+archive)
	// krew installed from the manifest alone: it fetched no plugin index (and
	// so `kubectl krew list`, which wants one, is of no use here).
	if idx, err := os.ReadDir(filepath.Join(krewRoot, "index")); err != nil || len(idx) != 0 {
		t.Errorf("krew's index directory should be empty (install from a manifest needs no index): %v %v", idx, err)
	}
	if _, err := os.Stat(filepath.Join(krewRoot, "receipts", "hpa.yaml")); err != nil {
		t.Errorf("krew wrote no receipt for hpa: %v", err)
	}
	store := filepath.Join(krewRoot, "store", "hpa", b.tag)
	for _, f := range []string{"kubectl-hpa", "kubectl_complete-hpa", "LICENSE", "README.md"} {
		st, err := os.Stat(filepath.Join(store, f))
		if err != nil {
			t.Errorf("not installed: %v", err)
		} else if f == "kubectl-hpa" || f == "kubectl_complete-hpa" {
			if st.Mode().Perm()&0o111 == 0 {
				t.Errorf("%s is not executable", f)
			}
		}
	}

	// Through kubectl, with krew's bin directory on PATH as krew asks.
	plugEnv := baseEnv(filepath.Join(krewRoot, "bin"))
	text := run(plugEnv, false, e.kubectl, "hpa", "version")
	for _, want := range []string{"Version:    " + b.tag + "\n", "Commit:     " + b.commit + "\n", "Date:       " + b.date + "\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("kubectl hpa version does not print %q:\n%s", want, text)
		}
	}
	var info struct {
		Version  string `json:"version"`
		Commit   string `json:"commit"`
		Date     string `json:"date"`
		Platform string `json:"platform"`
	}
	js := run(plugEnv, false, e.kubectl, "hpa", "version", "-o", "json")
	if err := json.Unmarshal([]byte(js), &info); err != nil {
		t.Fatalf("kubectl hpa version -o json: %v\n%s", err, js)
	}
	if info.Version != b.tag || info.Commit != b.commit || info.Date != b.date || info.Platform != host.os+"/"+host.arch {
		t.Errorf("kubectl hpa version -o json = %+v, want version %s, commit %s, date %s, platform %s/%s",
			info, b.tag, b.commit, b.date, host.os, host.arch)
	}
	t.Logf("kubectl hpa version -o json (installed by krew):\n%s", js)

	// Completion: kubectl 1.26+ runs kubectl_complete-hpa from PATH. Put the
	// installed helper on PATH, as the manifest's caveats tell users to.
	helperDir := t.TempDir()
	if err := os.Symlink(filepath.Join(store, "kubectl_complete-hpa"), filepath.Join(helperDir, "kubectl_complete-hpa")); err != nil {
		t.Fatal(err)
	}
	compEnv := baseEnv(filepath.Join(krewRoot, "bin"), helperDir)
	out := run(compEnv, false, e.kubectl, "__complete", "hpa", "vers")
	if !strings.HasPrefix(out, "version\t") {
		t.Errorf("kubectl __complete hpa vers should offer the version command:\n%s", out)
	}
}
