// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package releasecheck

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/hack/release/krewmanifest"
)

// The container image (.goreleaser.yaml's kos), as hack/release/lib.sh's
// build_image had goreleaser's ko pipe build and push it: on the stand-in
// base of hack/release/image-base, to crane's registry on 127.0.0.1. The test
// reads it over the registry's HTTP API (OCI distribution), with the standard
// library only.

// The media types ko pushes on an OCI base.
const (
	mtIndex    = "application/vnd.oci.image.index.v1+json"
	mtManifest = "application/vnd.oci.image.manifest.v1+json"
	mtConfig   = "application/vnd.oci.image.config.v1+json"
	mtLayer    = "application/vnd.oci.image.layer.v1.tar+gzip"
	mtSPDX     = "text/spdx+json"
)

const (
	entrypoint = "/ko-app/kubectl-hpa"
	nonroot    = 65532
)

// imageFile is one path of the image's file system, as its layer's tar has it.
type imageFile struct {
	dir      bool
	mode     int64 // permission bits, with the sticky bit (01000)
	uid, gid int
}

func (f imageFile) String() string {
	kind := "file"
	if f.dir {
		kind = "directory"
	}
	return fmt.Sprintf("%s %04o %d:%d", kind, f.mode, f.uid, f.gid)
}

// The image's files: the base's (hack/release/image-base), then ko's two
// layers: kodata (the directories of $KO_DATA_PATH; cmd/kubectl-hpa has no
// kodata directory) and the binary.
var digestRE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

var (
	baseFiles = map[string]imageFile{
		"etc":                               {dir: true, mode: 0o755},
		"etc/group":                         {mode: 0o644},
		"etc/passwd":                        {mode: 0o644},
		"etc/ssl":                           {dir: true, mode: 0o755},
		"etc/ssl/certs":                     {dir: true, mode: 0o755},
		"etc/ssl/certs/ca-certificates.crt": {mode: 0o644},
		"home":                              {dir: true, mode: 0o755},
		"home/nonroot":                      {dir: true, mode: 0o755, uid: nonroot, gid: nonroot},
		"tmp":                               {dir: true, mode: 0o1777},
	}
	koFiles = map[string]imageFile{
		"var":                {dir: true, mode: 0o555},
		"var/run":            {dir: true, mode: 0o555},
		"var/run/ko":         {dir: true, mode: 0o555},
		"ko-app":             {dir: true, mode: 0o555},
		"ko-app/kubectl-hpa": {mode: 0o555},
	}
)

type descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Platform    *ociPlatform      `json:"platform,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

type ociPlatform struct {
	OS           string `json:"os"`
	Architecture string `json:"architecture"`
	Variant      string `json:"variant,omitempty"`
}

// ociManifest is an image manifest or an index.
type ociManifest struct {
	SchemaVersion int               `json:"schemaVersion"`
	MediaType     string            `json:"mediaType"`
	Manifests     []descriptor      `json:"manifests"`
	Config        descriptor        `json:"config"`
	Layers        []descriptor      `json:"layers"`
	Annotations   map[string]string `json:"annotations"`
}

type imageConfig struct {
	OS           string    `json:"os"`
	Architecture string    `json:"architecture"`
	Created      time.Time `json:"created"`
	Config       struct {
		Entrypoint []string `json:"Entrypoint"`
		Cmd        []string `json:"Cmd"`
		Env        []string `json:"Env"`
		User       string   `json:"User"`
		WorkingDir string   `json:"WorkingDir"`
	} `json:"config"`
	RootFS struct {
		Type    string   `json:"type"`
		DiffIDs []string `json:"diff_ids"`
	} `json:"rootfs"`
}

// registry reads a registry over the OCI distribution API (plain HTTP: it
// serves on 127.0.0.1).
type registry struct {
	host   string
	client *http.Client
}

func (r registry) get(t *testing.T, repo, kind, ref string, accept ...string) ([]byte, http.Header) {
	t.Helper()
	url := "http://" + r.host + "/v2/" + repo + "/" + kind + "/" + ref
	req, err := http.NewRequest(http.MethodGet, url, http.NoBody)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range accept {
		req.Header.Add("Accept", a)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s: %s", url, resp.Status, body)
	}
	return body, resp.Header
}

// manifest fetches a manifest or an index by tag or digest and returns it
// with its digest, checked against the registry's Docker-Content-Digest and,
// for a digest reference, the reference.
func (r registry) manifest(t *testing.T, repo, ref string) (ociManifest, string) {
	t.Helper()
	body, h := r.get(t, repo, "manifests", ref, mtIndex, mtManifest)
	digest := sha256Digest(body)
	if got := h.Get("Docker-Content-Digest"); got != digest {
		t.Fatalf("%s/%s:%s: the registry says digest %s, the manifest's is %s", r.host, repo, ref, got, digest)
	}
	if strings.HasPrefix(ref, "sha256:") && ref != digest {
		t.Fatalf("%s/%s@%s: got a manifest of digest %s", r.host, repo, ref, digest)
	}
	var m ociManifest
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("%s/%s:%s: %v", r.host, repo, ref, err)
	}
	if m.SchemaVersion != 2 || m.MediaType != h.Get("Content-Type") {
		t.Fatalf("%s/%s:%s: schema %d, media type %q served as %q", r.host, repo, ref, m.SchemaVersion, m.MediaType, h.Get("Content-Type"))
	}
	return m, digest
}

// blob fetches a blob and checks its digest and size.
func (r registry) blob(t *testing.T, repo string, d descriptor) []byte {
	t.Helper()
	body, _ := r.get(t, repo, "blobs", d.Digest)
	if got := sha256Digest(body); got != d.Digest || int64(len(body)) != d.Size {
		t.Fatalf("%s/%s: blob %s (%d bytes) has digest %s and %d bytes", r.host, repo, d.Digest, d.Size, got, len(body))
	}
	return body
}

func (r registry) tags(t *testing.T, repo string) []string {
	t.Helper()
	body, _ := r.get(t, repo, "tags", "list")
	var list struct {
		Tags []string `json:"tags"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	slices.Sort(list.Tags)
	return list.Tags
}

func sha256Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// splitRef splits HOST:PORT/REPO[:TAG] into the host, the repository and the
// tag.
func splitRef(t *testing.T, ref string) (host, repo, tag string) {
	t.Helper()
	host, rest, ok := strings.Cut(ref, "/")
	if !ok || rest == "" {
		t.Fatalf("%q is not HOST/REPOSITORY", ref)
	}
	repo, tag, _ = strings.Cut(rest, ":")
	return host, repo, tag
}

// layerEntry is one tar entry of a layer, its name cleaned ("/ko-app/x" and
// "ko-app/x" alike: ko writes some names with a leading slash).
type layerEntry struct {
	name string
	file imageFile
	h    *tar.Header
	data []byte
}

// readLayer checks a layer's media type and diff ID and returns its entries.
func readLayer(blob []byte, d descriptor, diffID string) ([]layerEntry, error) {
	if d.MediaType != mtLayer {
		return nil, fmt.Errorf("layer %s has media type %s, want %s", d.Digest, d.MediaType, mtLayer)
	}
	zr, err := gzip.NewReader(bytes.NewReader(blob))
	if err != nil {
		return nil, fmt.Errorf("layer %s: %w", d.Digest, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("layer %s: %w", d.Digest, err)
	}
	if got := sha256Digest(raw); got != diffID {
		return nil, fmt.Errorf("layer %s: uncompressed digest %s, the config's diff ID is %s", d.Digest, got, diffID)
	}
	var out []layerEntry
	tr := tar.NewReader(bytes.NewReader(raw))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("layer %s: %w", d.Digest, err)
		}
		name := strings.TrimPrefix(path.Clean("/"+h.Name), "/")
		if strings.HasPrefix(path.Base(name), ".wh.") {
			return nil, fmt.Errorf("layer %s: whiteout %s: no layer of this image removes a file", d.Digest, h.Name)
		}
		e := layerEntry{name: name, h: h, file: imageFile{mode: h.Mode & 0o7777, uid: h.Uid, gid: h.Gid}}
		switch h.Typeflag {
		case tar.TypeDir:
			e.file.dir = true
		case tar.TypeReg:
			if e.data, err = io.ReadAll(tr); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("layer %s: %s is of tar type %q, want a file or a directory", d.Digest, h.Name, h.Typeflag)
		}
		out = append(out, e)
	}
}

// imageRun is what TestImage knows of the image build.
type imageRun struct {
	reg      registry
	repo     string // the image's repository in reg
	baseRepo string
	baseTag  string
	baseRef  string
	caBundle string
	b        *build // the archives built by the same goreleaser run
}

func TestImage(t *testing.T) {
	if os.Getenv("KUBECTL_HPA_RELEASE_CHECK") != "1" {
		t.Skip("run by `make release-check` (hack/release/check.sh), after the image build")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	r := &imageRun{caBundle: mustEnv(t, "RELEASE_CHECK_IMAGE_CA_BUNDLE"), baseRef: mustEnv(t, "RELEASE_CHECK_IMAGE_BASE")}
	host, repo, _ := splitRef(t, mustEnv(t, "RELEASE_CHECK_IMAGE_REPO"))
	r.reg = registry{host: host, client: &http.Client{Timeout: time.Minute}}
	r.repo = repo
	var baseHost string
	baseHost, r.baseRepo, r.baseTag = splitRef(t, r.baseRef)
	if baseHost != host || r.baseTag == "" {
		t.Fatalf("the base %s should be a tag in the image's registry %s", r.baseRef, host)
	}
	r.b = readBuild(t, mustEnv(t, "RELEASE_CHECK_IMAGE_DIST"))
	r.b.commit = r.b.metaCommit
	if !commitRE.MatchString(r.b.commit) {
		t.Fatalf("the image's release records commit %q", r.b.commit)
	}
	r.b.date = commitDate(t, root, r.b.commit)
	t.Logf("image %s/%s:%s of commit %s (%s), on %s", host, repo, r.b.tag, r.b.commit, r.b.date, r.baseRef)

	// The platforms: those of .goreleaser.yaml's kos, the host's alone in
	// host mode.
	want := []platform{{"linux", "amd64"}, {"linux", "arm64"}}
	if hostOnly() {
		want = []platform{{"linux", runtime.GOARCH}}
	}

	// Tags: the release's and latest, on the same manifest, and one SBOM per
	// image (ko's sha256-<digest>.sbom).
	top, topDigest := r.reg.manifest(t, repo, r.b.tag)
	if _, latest := r.reg.manifest(t, repo, "latest"); latest != topDigest {
		t.Errorf("latest is %s, %s is %s: both tags should name the same image", latest, r.b.tag, topDigest)
	}
	checkArtifact(t, r, topDigest)

	images := map[platform]string{} // platform -> image manifest digest
	switch {
	case len(want) == 1:
		// ko makes a single image, not an index, of one platform.
		if top.MediaType != mtManifest {
			t.Fatalf("%s is a %s, want an image manifest (%s) for the one platform %v", r.b.tag, top.MediaType, mtManifest, want[0])
		}
		images[want[0]] = topDigest
	default:
		if top.MediaType != mtIndex {
			t.Fatalf("%s is a %s, want an index (%s) of %v", r.b.tag, top.MediaType, mtIndex, want)
		}
		for _, d := range top.Manifests {
			if d.MediaType != mtManifest || d.Platform == nil {
				t.Fatalf("the index lists %s of media type %s, platform %v: want images with platforms", d.Digest, d.MediaType, d.Platform)
			}
			p := platform{d.Platform.OS, d.Platform.Architecture}
			if _, dup := images[p]; dup || d.Platform.Variant != "" {
				t.Fatalf("the index lists %v twice, or with a variant", d.Platform)
			}
			images[p] = d.Digest
		}
		// ko names the base in the index's annotations, but the digest it
		// records there is not the base index's: ko first annotates the base
		// index (with its own digest and name), then records the digest of that
		// annotated copy, which no registry holds. Each image's annotations
		// (checkImage) name the base image of its platform rightly.
		_, baseDigest := r.reg.manifest(t, r.baseRepo, r.baseTag)
		if got := top.Annotations; got["org.opencontainers.image.base.name"] != r.baseRef || !digestRE.MatchString(got["org.opencontainers.image.base.digest"]) {
			t.Errorf("the index's base annotations are %v, want the name %s and a digest", got, r.baseRef)
		} else if got["org.opencontainers.image.base.digest"] != baseDigest {
			t.Logf("note: the index's base digest annotation is %s, the base index is %s (ko records the digest of the base index annotated by itself)",
				got["org.opencontainers.image.base.digest"], baseDigest)
		}
	}
	var got []platform
	for p := range images {
		got = append(got, p)
	}
	sortPlatforms(got)
	sortPlatforms(want)
	if !slices.Equal(got, want) {
		t.Fatalf("the image's platforms are %v, want %v", got, want)
	}
	checkTags(t, r, topDigest, images)

	for _, p := range want {
		t.Run(p.os+"/"+p.arch, func(t *testing.T) { checkImage(t, r, p, images[p]) })
	}
}

func sortPlatforms(ps []platform) {
	slices.SortFunc(ps, func(a, b platform) int { return strings.Compare(a.os+"/"+a.arch, b.os+"/"+b.arch) })
}

// checkArtifact checks goreleaser's record of the push (dist/artifacts.json):
// one image of the kos id "image", by digest in the local repository.
func checkArtifact(t *testing.T, r *imageRun, digest string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(r.b.dir, "artifacts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var arts []struct {
		Name  string         `json:"name"`
		Type  string         `json:"type"`
		Extra map[string]any `json:"extra"`
	}
	if err := json.Unmarshal(raw, &arts); err != nil {
		t.Fatalf("artifacts.json: %v", err)
	}
	var pushed []string
	for _, a := range arts {
		if a.Type == "Docker Manifest" {
			pushed = append(pushed, fmt.Sprintf("%s (id %v, digest %v)", a.Name, a.Extra["ID"], a.Extra["Digest"]))
		}
	}
	want := fmt.Sprintf("%s/%s@%s (id image, digest %s)", r.reg.host, r.repo, digest, digest)
	if !slices.Equal(pushed, []string{want}) {
		t.Errorf("goreleaser recorded the pushed images %q, want %q", pushed, want)
	}
}

// checkTags checks that the repository has the release's tag, latest, and an
// SBOM (SPDX, ko's) of each image (and of the index, if ko made one), and
// nothing else.
func checkTags(t *testing.T, r *imageRun, topDigest string, images map[platform]string) {
	t.Helper()
	sbomRE := regexp.MustCompile(`^sha256-([0-9a-f]{64})\.sbom$`)
	described := map[string]bool{}
	for _, tag := range r.reg.tags(t, r.repo) {
		if tag == r.b.tag || tag == "latest" {
			continue
		}
		m := sbomRE.FindStringSubmatch(tag)
		if m == nil {
			t.Errorf("unexpected tag %s: want %s, latest and SBOMs", tag, r.b.tag)
			continue
		}
		of := "sha256:" + m[1]
		if of != topDigest && !slices.Contains(slices.Collect(maps.Values(images)), of) {
			t.Errorf("SBOM %s is of %s, which is none of the pushed manifests", tag, of)
			continue
		}
		described[of] = true
		checkSBOM(t, r, tag, of, images)
	}
	for p, d := range images {
		if !described[d] {
			t.Errorf("the %s/%s image %s has no SBOM tag", p.os, p.arch, d)
		}
	}
	if len(images) > 1 && !described[topDigest] {
		t.Errorf("the index %s has no SBOM tag", topDigest)
	}
}

// checkSBOM checks that an SBOM is one SPDX document of the manifest it is
// tagged for: an image's lists the kubectl-hpa module, the index's lists the
// index's images.
func checkSBOM(t *testing.T, r *imageRun, tag, of string, images map[platform]string) {
	t.Helper()
	m, _ := r.reg.manifest(t, r.repo, tag)
	if len(m.Layers) != 1 || m.Layers[0].MediaType != mtSPDX {
		t.Errorf("SBOM %s: layers %v, want one %s", tag, m.Layers, mtSPDX)
		return
	}
	var doc struct {
		SPDXVersion string `json:"spdxVersion"`
		Name        string `json:"name"`
		Packages    []struct {
			Name string `json:"name"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(r.reg.blob(t, r.repo, m.Layers[0]), &doc); err != nil {
		t.Errorf("SBOM %s: %v", tag, err)
		return
	}
	var names []string
	for _, p := range doc.Packages {
		names = append(names, p.Name)
	}
	want := []string{"github.com/kubectl-hpa/kubectl-hpa"}
	if !slices.Contains(slices.Collect(maps.Values(images)), of) {
		want = slices.Collect(maps.Values(images)) // of is the index
	}
	missing := slices.DeleteFunc(want, func(n string) bool { return slices.Contains(names, n) })
	if doc.SPDXVersion != "SPDX-2.3" || doc.Name != "sbom-"+of || len(missing) > 0 {
		t.Errorf("SBOM %s: %s %q, packages %q: want SPDX-2.3 of sbom-%s, listing %q", tag, doc.SPDXVersion, doc.Name, names, of, missing)
	}
}

// checkImage checks one platform's image: the base's layers and then ko's
// two, exactly the expected files, the config (entrypoint, user,
// environment, creation time), the binary byte for byte the archive's, and on
// a linux host of its architecture, that it runs.
func checkImage(t *testing.T, r *imageRun, p platform, digest string) {
	t.Helper()
	m, _ := r.reg.manifest(t, r.repo, digest)
	if m.MediaType != mtManifest || m.Config.MediaType != mtConfig {
		t.Fatalf("manifest %s: media type %s with a config of %s, want %s and %s", digest, m.MediaType, m.Config.MediaType, mtManifest, mtConfig)
	}
	var cfg imageConfig
	if err := json.Unmarshal(r.reg.blob(t, r.repo, m.Config), &cfg); err != nil {
		t.Fatal(err)
	}

	// The base: the platform's image of the base's index.
	baseIndex, _ := r.reg.manifest(t, r.baseRepo, r.baseTag)
	var baseDigest string
	for _, d := range baseIndex.Manifests {
		if d.Platform != nil && d.Platform.OS == p.os && d.Platform.Architecture == p.arch {
			baseDigest = d.Digest
		}
	}
	if baseDigest == "" {
		t.Fatalf("the base %s has no %s/%s image", r.baseRef, p.os, p.arch)
	}
	base, _ := r.reg.manifest(t, r.baseRepo, baseDigest)
	var baseCfg imageConfig
	if err := json.Unmarshal(r.reg.blob(t, r.baseRepo, base.Config), &baseCfg); err != nil {
		t.Fatal(err)
	}
	if got := m.Annotations; got["org.opencontainers.image.base.name"] != r.baseRef || got["org.opencontainers.image.base.digest"] != baseDigest {
		t.Errorf("base annotations %v, want the name %s and the digest %s", got, r.baseRef, baseDigest)
	}
	nb := len(base.Layers)
	if len(m.Layers) != nb+2 || len(cfg.RootFS.DiffIDs) != len(m.Layers) || cfg.RootFS.Type != "layers" {
		t.Fatalf("%d layers, %d diff IDs, want the base's %d and ko's 2 (kodata, the binary)", len(m.Layers), len(cfg.RootFS.DiffIDs), nb)
	}
	for i, d := range base.Layers {
		if m.Layers[i].Digest != d.Digest || cfg.RootFS.DiffIDs[i] != baseCfg.RootFS.DiffIDs[i] {
			t.Errorf("layer %d is %s, the base's is %s", i, m.Layers[i].Digest, d.Digest)
		}
	}

	// The config.
	commitTime, err := time.Parse(time.RFC3339, r.b.date)
	if err != nil {
		t.Fatal(err)
	}
	wantEnv := slices.Clone(baseCfg.Config.Env)
	for i, kv := range wantEnv {
		if strings.HasPrefix(kv, "PATH=") {
			wantEnv[i] += ":/ko-app"
		}
	}
	wantEnv = append(wantEnv, "KO_DATA_PATH=/var/run/ko")
	c := cfg.Config
	switch {
	case cfg.OS != p.os || cfg.Architecture != p.arch:
		t.Errorf("config platform %s/%s, want %s/%s", cfg.OS, cfg.Architecture, p.os, p.arch)
	case !slices.Equal(c.Entrypoint, []string{entrypoint}) || len(c.Cmd) != 0:
		t.Errorf("entrypoint %q, cmd %q: want [%s] and none", c.Entrypoint, c.Cmd, entrypoint)
	case c.User != fmt.Sprint(nonroot) || c.WorkingDir != "/":
		t.Errorf("user %q, working directory %q: want %d (docs/fleet-job.yaml's runAsUser) and /", c.User, c.WorkingDir, nonroot)
	case !slices.Equal(c.Env, wantEnv):
		t.Errorf("environment %q, want %q", c.Env, wantEnv)
	case !cfg.Created.Equal(commitTime):
		t.Errorf("created %s, want the commit's date %s (creation_time)", cfg.Created, r.b.date)
	}

	// The files, layer by layer.
	files := map[string]layerEntry{}
	for i, d := range m.Layers {
		entries, err := readLayer(r.reg.blob(t, r.repo, d), d, cfg.RootFS.DiffIDs[i])
		if err != nil {
			t.Fatal(err)
		}
		want := baseFiles
		if i >= nb {
			want = koFiles
		}
		for _, e := range entries {
			w, ok := want[e.name]
			switch {
			case !ok:
				t.Errorf("layer %d has %s, which is not one of the expected files", i, e.name)
			case e.file != w:
				t.Errorf("layer %d: %s is a %v, want a %v", i, e.name, e.file, w)
			case !e.h.ModTime.Equal(time.Unix(0, 0)) && !e.h.ModTime.Equal(commitTime):
				t.Errorf("layer %d: %s has the time %s, want 1970 or the commit's date (reproducible)", i, e.name, e.h.ModTime)
			}
			if _, dup := files[e.name]; dup {
				t.Errorf("%s is in two layers", e.name)
			}
			files[e.name] = e
		}
	}
	var names, wantNames []string
	for n := range files {
		names = append(names, n)
	}
	for _, w := range []map[string]imageFile{baseFiles, koFiles} {
		for n := range w {
			wantNames = append(wantNames, n)
		}
	}
	slices.Sort(names)
	slices.Sort(wantNames)
	if !slices.Equal(names, wantNames) {
		t.Fatalf("the image holds %q, want %q", names, wantNames)
	}
	t.Logf("files: %s", strings.Join(names, " "))

	// The base's contents: the non-root user, the CA bundle.
	ca, err := os.ReadFile(r.caBundle)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(files["etc/ssl/certs/ca-certificates.crt"].data, ca) {
		t.Errorf("etc/ssl/certs/ca-certificates.crt is not %s", r.caBundle)
	}
	for f, line := range map[string]string{"etc/passwd": "nonroot:x:65532:65532:nonroot:/home/nonroot:", "etc/group": "nonroot:x:65532:"} {
		if !bytes.Contains(files[f].data, []byte("\n"+line)) {
			t.Errorf("%s has no line %q:\n%s", f, line, files[f].data)
		}
	}

	// The binary: byte for byte the one of the release archive the same
	// goreleaser run built (the builds are reproducible), a static ELF of
	// the platform with the release's stamps.
	bin := files[strings.TrimPrefix(entrypoint, "/")].data
	archive := p.archive(r.b.tag)
	arch, err := readArchive(filepath.Join(r.b.dir, archive))
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := krewmanifest.FileSHA256(filepath.Join(r.b.dir, archive)); err != nil || r.b.sums[archive] != sum {
		t.Errorf("%s: sha256 %s (%v), checksums.txt says %q", archive, sum, err, r.b.sums[archive])
	}
	if !bytes.Equal(bin, arch[p.bin()].data) {
		t.Errorf("%s (%d bytes, %s) differs from %s's %s (%d bytes, %s)", entrypoint, len(bin), sha256Digest(bin),
			archive, p.bin(), len(arch[p.bin()].data), sha256Digest(arch[p.bin()].data))
	}
	checkBinary(t, "the image's "+entrypoint, p, bin, r.b)

	if runtime.GOOS != p.os || runtime.GOARCH != p.arch {
		t.Logf("the %s/%s binary is not run on this %s/%s host", p.os, p.arch, runtime.GOOS, runtime.GOARCH)
		return
	}
	checkRun(t, r, files, cfg)
}

// checkRun runs `kubectl-hpa version` from the binary taken out of the image;
// then, where unshare can (a user namespace), `version -o json` as the image
// would: its entrypoint, in a root of the image's files, as its user, with
// its environment.
func checkRun(t *testing.T, r *imageRun, files map[string]layerEntry, cfg imageConfig) {
	t.Helper()
	rootfs := t.TempDir()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		e := files[name]
		dst := filepath.Join(rootfs, filepath.FromSlash(name))
		var err error
		if e.file.dir {
			// 0755, not the image's 0555: the test writes into them.
			err = os.MkdirAll(dst, 0o755)
		} else {
			err = os.WriteFile(dst, e.data, os.FileMode(e.file.mode&0o777))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(rootfs, filepath.FromSlash(strings.TrimPrefix(entrypoint, "/")))
	want := []string{"Version:    " + r.b.tag + "\n", "Commit:     " + r.b.commit + "\n", "Date:       " + r.b.date + "\n"}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("%s version: %v\n%s", bin, err, out)
	}
	for _, w := range want {
		if !strings.Contains(string(out), w) {
			t.Errorf("kubectl-hpa version (the image's binary) does not print %q:\n%s", w, out)
		}
	}

	args := append(slices.Clone(cfg.Config.Entrypoint), "version", "-o", "json")
	userns := []string{"unshare", "--user", "--map-user=" + cfg.Config.User, "--map-group=" + cfg.Config.User}
	var cmd *exec.Cmd
	if err := exec.Command(userns[0], append(slices.Clone(userns[1:]), "true")...).Run(); err == nil {
		cmd = exec.Command(userns[0], append(slices.Clone(userns[1:]), append([]string{"--root=" + rootfs, "--wd=" + cfg.Config.WorkingDir, "--"}, args...)...)...)
	} else {
		t.Logf("unshare cannot make a user namespace here (%v): %s runs outside the image's root, as this user", err, entrypoint)
		cmd = exec.Command(bin, args[1:]...)
	}
	cmd.Env = cfg.Config.Env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	js, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s%s", strings.Join(cmd.Args, " "), err, js, stderr.String())
	}
	var info struct {
		Version, Commit, Date, Platform string
	}
	if err := json.Unmarshal(js, &info); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, js)
	}
	if info.Version != r.b.tag || info.Commit != r.b.commit || info.Date != r.b.date || info.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("%s = %+v, want version %s, commit %s, date %s, platform %s/%s", strings.Join(cmd.Args, " "), info,
			r.b.tag, r.b.commit, r.b.date, runtime.GOOS, runtime.GOARCH)
	}
	t.Logf("%s:\n%s", strings.Join(cmd.Args, " "), js)
}
