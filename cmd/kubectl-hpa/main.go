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

func main() {
	// A one-shot CLI that reads a whole cluster: a heap that grows to 1.5x
	// what is live instead of Go's default 2x keeps the peak RSS of
	// explain -A at 20,000 pods about 35 MiB lower for a little more GC work
	// (docs/performance.md). GOGC in the environment still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
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
