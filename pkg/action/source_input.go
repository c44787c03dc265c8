// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"io"
	"time"
)

// SourceInput is where the command line reads the objects from and when
// the sync happens (SourceRows): -f, --now, and -v for the live reads.
type SourceInput struct {
	Files []string
	// Now is an RFC 3339 time; "" means the clock's.
	Now string
	// Verbosity is -v: 1 prints the number of API calls, 2 lists them.
	Verbosity int
}

// flag names the option that sets field, for a message.
func (in *SourceInput) flag(field any) string { return SourceRows.Named(in, field).Flag() }

// Source resolves Now (clock gives the time without it; nil means
// time.Now) and returns the source of the objects: the files, or the
// cluster of clients in namespace.
func (in SourceInput) Source(stdin io.Reader, clients *Factory, namespace string, clock func() time.Time) (Source, error) {
	now, err := ParseNow(in.Now, clock)
	if err != nil {
		return Source{}, err
	}
	return Source{Files: in.Files, In: stdin, Clients: clients, Namespace: namespace, Now: now}, nil
}
