// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Command tuneprom is the Go half of hack/bench/tune-prometheus.sh, the
// benchmark of `kubectl hpa tune` against a real Prometheus backfilled with
// a month of a workload's series. Its subcommands:
//
//	backfill  write the workload's series as OpenMetrics text, one piece per
//	          TSDB block, turn each piece into a block with promtool, and
//	          write the objects tune reads with -f (HPA, Deployment, pods,
//	          PodMetrics)
//	proxy     forward HTTP to Prometheus and log every request (its path,
//	          start, end and bytes answered) as a JSON line
//	phases    run tune in this process (pkg/action, as the command does) and
//	          time its read of Prometheus apart from its replays
//	summary   sum up a proxy log: requests, bytes, how many ran at once
//	port      print a free local TCP port
//
// Run it from the repository root: go run ./hack/bench/tuneprom SUBCOMMAND -h.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	args := os.Args[2:]
	switch os.Args[1] {
	case "backfill":
		err = runBackfill(args)
	case "proxy":
		err = runProxy(args)
	case "phases":
		err = runPhases(args)
	case "summary":
		err = runSummary(args)
	case "port":
		err = runPort()
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tuneprom:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: tuneprom backfill|proxy|phases|summary|port [flags] (see -h of each)")
	os.Exit(2)
}
