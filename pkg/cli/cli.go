// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Package cli runs the kubectl-hpa command line: it builds the command tree,
// executes it and is the one place that prints errors and picks the exit
// code.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/go-logr/logr"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/cmd"
)

// Exit codes (docs/exit-codes.md).
const (
	ExitOK    = 0
	ExitError = 1
	// ExitProblems is explain --exit-code's: an explained HPA has a
	// problem (an *action.ProblemsError).
	ExitProblems = 2
)

// newRoot builds the command tree; tests replace it.
var newRoot = cmd.NewCmdRoot

// Main runs the command line with args (without the program name) and
// returns the exit code. Errors are printed once, as "error: <msg>", to
// streams.ErrOut; a panic is reported the same way, without a stack trace.
func Main(args []string, streams genericiooptions.IOStreams) (code int) {
	defer func() {
		if r := recover(); r != nil {
			printError(streams.ErrOut, fmt.Errorf("internal error: %v (please report this bug)", r))
			code = ExitError
		}
	}()
	quietKlog()
	root := newRoot(streams)
	root.SetArgs(args)
	if err := root.ExecuteContext(context.Background()); err != nil {
		var problems *action.ProblemsError
		if errors.As(err, &problems) {
			// Not an error: the verdict --exit-code asked for, in one line.
			if streams.ErrOut != nil {
				fmt.Fprintln(streams.ErrOut, action.OneLine(problems.Error()))
			}
			return ExitProblems
		}
		printError(streams.ErrOut, err)
		return ExitError
	}
	return ExitOK
}

func printError(w io.Writer, err error) {
	if w == nil {
		return
	}
	line := action.ErrorLine(err)
	if msg := strings.TrimSpace(err.Error()); strings.HasPrefix(msg, "unknown command ") {
		line = "error: " + msg // cobra's suggestions follow on their own lines
	}
	fmt.Fprintln(w, line)
	var fe *cmd.FlagError
	if errors.As(err, &fe) && fe.CommandPath != "" {
		fmt.Fprintf(w, "See '%s --help' for usage.\n", fe.CommandPath)
	}
}

// quietKlog sends the log lines of client-go (klog) nowhere. What they
// report reaches the user anyway, as the command's own error line or a
// warning (a failed discovery: "could not ..."); a second line in klog's
// format on the process's stderr ("E... memcache.go:...] \"Couldn't get
// current server API group list\"") would break the promise of one line.
// -v keeps its meaning (the API calls, counted or listed): it is not
// klog's verbosity, as it is kubectl's.
// It is done once per process: klog's logger is a global that client-go's
// goroutines read (a previous Main's background reads may still run when
// tests call Main again).
func quietKlog() { quietKlogOnce.Do(func() { klog.SetLogger(logr.Discard()) }) }

var quietKlogOnce sync.Once
