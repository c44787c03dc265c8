// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Command kubectl-hpa is the kubectl plugin "kubectl hpa".
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/pprof"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/cli"
)

// softMemoryLimit is the heap size past which the collector runs more often
// than GOGC says (runtime/debug.SetMemoryLimit).
const softMemoryLimit = 192 << 20

func main() {
	// A soft memory limit makes the collector work harder only when the
	// heap nears it; explain's many-HPA read also turns the GC pace off
	// under it (pkg/cmd/gcpace.go), which keeps the peak RSS of explain -A
	// at 20,000 pods near 250 MiB at the least CPU (docs/performance.md).
	// GOGC and GOMEMLIMIT in the environment still win.
	if os.Getenv("GOMEMLIMIT") == "" && os.Getenv("GOGC") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
	}
	os.Exit(run())
}

// run is main with development hooks: KUBECTL_HPA_CPUPROFILE=FILE writes a
// CPU profile of the run to FILE, KUBECTL_HPA_MEMPROFILE=FILE a heap profile
// at its end (`go tool pprof bin/kubectl-hpa FILE`), as docs/performance.md
// does for explain -A at fleet scale.
func run() int {
	if path := os.Getenv("KUBECTL_HPA_MEMPROFILE"); path != "" {
		defer func() {
			f, err := os.Create(path)
			if err == nil {
				_ = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	if path := os.Getenv("KUBECTL_HPA_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "error: KUBECTL_HPA_CPUPROFILE: %v\n", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "error: KUBECTL_HPA_CPUPROFILE: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	return cli.Main(os.Args[1:], genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr})
}
