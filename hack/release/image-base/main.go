// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Command image-base writes the stand-in for the container image's base
// (.goreleaser.yaml's kos base_image, a registry this machine cannot reach)
// that `make release-check` builds the image on: an OCI image layout of one
// index with a linux/amd64 and a linux/arm64 image, both of one layer holding
// what a static Go binary running as a non-root user needs, and nothing else:
//
//	etc/passwd, etc/group                 root and nonroot (65532), no login
//	etc/ssl/certs/ca-certificates.crt     the CA bundle given with -ca
//	home/nonroot/                         nonroot's home, its own
//	tmp/                                  1777
//
// The user is 65532 (docs/fleet-job.yaml runs as 65532 with runAsNonRoot).
// Every timestamp is the Unix epoch and every byte is fixed by the CA bundle,
// so the same bundle gives the same digests. hack/release/check.sh pushes the
// layout with `crane push --index`. Run it from anywhere:
//
//	go run ./hack/release/image-base -ca /etc/ssl/certs/ca-certificates.crt -o DIR
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The base's contents; baseFiles in hack/release/releasecheck/image_test.go
// lists the same paths, with their modes and owners, and checks them.
const (
	nonroot = 65532
	caPath  = "etc/ssl/certs/ca-certificates.crt"
	passwd  = "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n"
	group   = "root:x:0:\nnonroot:x:65532:\n"
)

// The media types of an OCI image layout (image-spec v1.1).
const (
	mtIndex    = "application/vnd.oci.image.index.v1+json"
	mtManifest = "application/vnd.oci.image.manifest.v1+json"
	mtConfig   = "application/vnd.oci.image.config.v1+json"
	mtLayer    = "application/vnd.oci.image.layer.v1.tar+gzip"
)

var architectures = []string{"amd64", "arm64"}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "image-base:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("image-base", flag.ContinueOnError)
	ca := fs.String("ca", "/etc/ssl/certs/ca-certificates.crt", "the CA bundle (PEM) to ship")
	out := fs.String("o", "", "the directory to write the OCI image layout into (must not exist)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *out == "" {
		return errors.New("-o is required")
	}
	bundle, err := os.ReadFile(*ca)
	if err != nil {
		return fmt.Errorf("the CA bundle: %w", err)
	}
	if !bytes.Contains(bundle, []byte("-----BEGIN CERTIFICATE-----")) {
		return fmt.Errorf("%s holds no PEM certificate", *ca)
	}
	if _, err := os.Stat(*out); err == nil {
		return fmt.Errorf("%s exists", *out)
	}
	w := &layout{dir: *out}
	if err := os.MkdirAll(filepath.Join(w.dir, "blobs", "sha256"), 0o755); err != nil {
		return err
	}
	layer, diffID, err := layerTar(bundle)
	if err != nil {
		return err
	}
	layerDesc, err := w.blob(mtLayer, layer)
	if err != nil {
		return err
	}
	index := map[string]any{"schemaVersion": 2, "mediaType": mtIndex}
	var manifests []map[string]any
	for _, arch := range architectures {
		cfg, err := json.Marshal(map[string]any{
			"architecture": arch,
			"os":           "linux",
			"created":      epoch,
			"config": map[string]any{
				"User": fmt.Sprint(nonroot),
				"Env": []string{
					"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
					"SSL_CERT_FILE=/" + caPath,
				},
				"WorkingDir": "/",
			},
			"rootfs":  map[string]any{"type": "layers", "diff_ids": []string{diffID}},
			"history": []map[string]any{{"created": epoch, "created_by": "hack/release/image-base"}},
		})
		if err != nil {
			return err
		}
		cfgDesc, err := w.blob(mtConfig, cfg)
		if err != nil {
			return err
		}
		m, err := json.Marshal(map[string]any{
			"schemaVersion": 2,
			"mediaType":     mtManifest,
			"config":        cfgDesc,
			"layers":        []map[string]any{layerDesc},
		})
		if err != nil {
			return err
		}
		desc, err := w.blob(mtManifest, m)
		if err != nil {
			return err
		}
		desc["platform"] = map[string]string{"architecture": arch, "os": "linux"}
		manifests = append(manifests, desc)
	}
	index["manifests"] = manifests
	ix, err := json.Marshal(index)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(w.dir, "index.json"), ix, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(w.dir, "oci-layout"), []byte(`{"imageLayoutVersion":"1.0.0"}`), 0o644)
}

var epoch = time.Unix(0, 0).UTC().Format(time.RFC3339)

// layout writes the blobs of an OCI image layout.
type layout struct{ dir string }

// blob stores data under its digest and returns its descriptor.
func (l *layout) blob(mediaType string, data []byte) (map[string]any, error) {
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])
	if err := os.WriteFile(filepath.Join(l.dir, "blobs", "sha256", hexSum), data, 0o644); err != nil {
		return nil, err
	}
	return map[string]any{"mediaType": mediaType, "digest": "sha256:" + hexSum, "size": len(data)}, nil
}

// layerTar returns the gzipped layer and the digest of its uncompressed tar
// (the config's diff ID).
func layerTar(bundle []byte) (layer []byte, diffID string, err error) {
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	type file struct {
		name     string
		mode     int64
		uid      int
		data     string
		isDir    bool
		userName string
	}
	files := []file{
		{name: "etc/", mode: 0o755, isDir: true},
		{name: "etc/group", mode: 0o644, data: group},
		{name: "etc/passwd", mode: 0o644, data: passwd},
		{name: "etc/ssl/", mode: 0o755, isDir: true},
		{name: "etc/ssl/certs/", mode: 0o755, isDir: true},
		{name: caPath, mode: 0o644, data: string(bundle)},
		{name: "home/", mode: 0o755, isDir: true},
		{name: "home/nonroot/", mode: 0o755, isDir: true, uid: nonroot, userName: "nonroot"},
		{name: "tmp/", mode: 0o1777, isDir: true},
	}
	for _, f := range files {
		h := &tar.Header{
			Name:    f.name,
			Mode:    f.mode,
			Uid:     f.uid,
			Gid:     f.uid,
			Uname:   "root",
			Gname:   "root",
			ModTime: time.Unix(0, 0),
		}
		if f.userName != "" {
			h.Uname, h.Gname = f.userName, f.userName
		}
		if f.isDir {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(f.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, "", err
		}
		if _, err := tw.Write([]byte(f.data)); err != nil {
			return nil, "", err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(raw.Bytes())
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return nil, "", err
	}
	if _, err := zw.Write(raw.Bytes()); err != nil {
		return nil, "", err
	}
	if err := zw.Close(); err != nil {
		return nil, "", err
	}
	return gz.Bytes(), "sha256:" + hex.EncodeToString(sum[:]), nil
}
