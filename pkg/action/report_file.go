// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// reportFlag is the report's option as the command line spells it.
func reportFlag() string {
	var in ReportInput
	return ReportRows.Named(&in, &in.File).Flag()
}

// CheckReportDir fails before the replays, which may take minutes, when
// the report could not be written where asked: its directory is missing.
func CheckReportDir(path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return reportError(path, err)
	}
	if !st.IsDir() {
		return reportError(path, fmt.Errorf("%s is not a directory", dir))
	}
	return nil
}

// WriteReport writes the report to path through a temporary file in the
// same directory renamed over it once whole: a reader never sees half a
// report, and a failure leaves none behind.
func WriteReport(path string, write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return reportError(path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return reportError(path, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	_, err = tmp.Write(buf.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// CreateTemp makes the file private; a report is meant to be
		// opened, shared and served like any other page.
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return reportError(path, err)
	}
	return nil
}

// reportError is one line naming the flag and the file: the path an
// os error carries is the temporary file's, which means nothing to the
// user.
func reportError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return fmt.Errorf("%s %s: %w", reportFlag(), path, err)
}
