// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// backfillStats is what backfill prints (JSON) when done.
type backfillStats struct {
	Pieces          int     `json:"pieces"`
	Samples         int64   `json:"samples"`
	TextBytes       int64   `json:"textBytes"`
	GenerateSeconds float64 `json:"generateSeconds"`
	PromtoolWall    float64 `json:"promtoolWallSeconds"`
	PromtoolCPU     float64 `json:"promtoolCPUSeconds"`
	PromtoolMaxRSS  int64   `json:"promtoolMaxRSSKiB"`
	TSDBBytes       int64   `json:"tsdbBytes"`
	Series          int     `json:"series"`
	Start           string  `json:"start"`
	End             string  `json:"end"`
}

// piece is one OpenMetrics file written, for promtool.
type piece struct {
	path  string
	bytes int64
	err   error
}

func runBackfill(args []string) error {
	flags := flag.NewFlagSet("backfill", flag.ExitOnError)
	out := flags.String("out", "", "the TSDB directory to write the blocks into (required)")
	objects := flags.String("objects", "", "the directory to write the objects tune reads with -f into (required)")
	work := flags.String("work", "", "where the OpenMetrics pieces are written, one at a time (default: OUT/../pieces)")
	promtool := flags.String("promtool", "", "promtool's path (required)")
	endFlag := flags.String("end", "2026-11-30T00:00:00Z", "the end of the series (RFC 3339); tune runs with --now at it")
	days := flags.Int("days", 31, "how many days of series, up to -end")
	span := flags.Duration("span", 0, "how long the series run up to -end (0: -days)")
	pods := flags.Int("pods", 50, "the workload's pods")
	nodes := flags.Int("nodes", 5, "the simulated nodes the pods run on (one kubelet target each)")
	kubelet := flags.Duration("kubelet-interval", 5*time.Second, "the kubelet-resource job's scrape interval")
	ksm := flags.Duration("ksm-interval", 30*time.Second, "the kube-state-metrics job's scrape interval")
	block := flags.Duration("block", 54*time.Hour, "the span of each TSDB block (and OpenMetrics piece): a Prometheus compaction range, 2h×3^n")
	ns := flags.String("namespace", "bench", "the workload's namespace")
	name := flags.String("name", "web", "the Deployment's and the HPA's name")
	workloads := flags.Int("workloads", 1, "more than 1: a fleet of workloads, NAME-000... spread over 4 namespaces NAMESPACE-0..3, with -min-pods..-max-pods pods each (-pods is then ignored) and HPAs of varied targets and minimums; each one's objects in a directory of its own under -objects")
	minPods := flags.Int("min-pods", 10, "a fleet workload's fewest pods")
	maxPods := flags.Int("max-pods", 50, "a fleet workload's most pods")
	keep := flags.Bool("keep", false, "keep the OpenMetrics pieces")
	_ = flags.Parse(args)
	if *out == "" || *objects == "" || *promtool == "" {
		return errors.New("backfill: -out, -objects and -promtool are required")
	}
	end, err := time.Parse(time.RFC3339, *endFlag)
	if err != nil {
		return fmt.Errorf("-end: %w", err)
	}
	if *work == "" {
		*work = filepath.Join(filepath.Dir(filepath.Clean(*out)), "pieces")
	}
	start := end.Add(-time.Duration(*days) * 24 * time.Hour)
	if *span > 0 {
		start = end.Add(-*span)
	}
	var ws []*workload
	if *workloads <= 1 {
		w := newWorkload(0, *ns, *name, *pods, *nodes, start, end, *kubelet, *ksm)
		if err := w.writeObjects(*objects); err != nil {
			return err
		}
		ws = append(ws, w)
	}
	for k := range *workloads {
		if *workloads <= 1 {
			break
		}
		id := uint64(k + 1)
		n := *minPods + int(mix(5, id, 0)%uint64(max(1, *maxPods-*minPods+1)))
		w := newWorkload(id, fmt.Sprintf("%s-%d", *ns, k%4), fmt.Sprintf("%s-%03d", *name, k), n, *nodes, start, end, *kubelet, *ksm)
		// A flat load (±3% over the day) at 150m to 300m a pod, and an HPA
		// whose target is that load's utilization over the series' days
		// (workday or weekend), so that it held its count throughout, as
		// the recorded count says (the count the series were written
		// with): its as-is replay is to be trusted. Its minimum is a fifth
		// to a half of its pods. What a higher target would save differs
		// from HPA to HPA.
		w.level = 0.15 + 0.15*float64(mix(5, id, 1)>>11)/float64(1<<53)
		w.amplitude = 0.03
		mean := w.level * w.cycle(end.Add(-12*time.Hour)) / (1 + w.amplitude*math.Sin(2*math.Pi*0.25))
		w.target = int32(math.Round(100 * mean * 1000 / float64(w.requestCPU)))
		w.minReplicas = int32(max(1, n*int(2+mix(5, id, 2)%4)/10))
		if err := w.writeObjects(filepath.Join(*objects, w.namespace+"-"+w.name)); err != nil {
			return err
		}
		ws = append(ws, w)
	}
	if len(ws) == 0 {
		return errors.New("backfill: no workload")
	}
	for _, d := range []string{*out, *work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	st := backfillStats{Start: start.Format(time.RFC3339), End: end.Format(time.RFC3339)}
	st.Series = *nodes + 1
	for _, w := range ws {
		st.Series += 2 * len(w.pods)
		for _, f := range w.ksmFamilies() {
			st.Series += len(f.series)
		}
	}

	// Pieces aligned on the block span since the epoch, as promtool aligns
	// its blocks: each piece becomes exactly one block, and promtool reads
	// each piece twice (its time range, then its block) instead of the
	// whole text once per block. One piece is written while promtool
	// reads the one before.
	blockMs := block.Milliseconds()
	pieces := make(chan piece, 1)
	go func() {
		defer close(pieces)
		cpu := make([][]cpuState, len(ws))
		for i, w := range ws {
			cpu[i] = make([]cpuState, len(w.pods))
		}
		began := time.Now()
		defer func() { st.GenerateSeconds = time.Since(began).Seconds() }()
		for a := start.UnixMilli() / blockMs * blockMs; a <= end.UnixMilli(); a += blockMs {
			path := filepath.Join(*work, fmt.Sprintf("piece-%d.om", a/1000))
			f, err := os.Create(path)
			if err != nil {
				pieces <- piece{err: err}
				return
			}
			n, err := writePiece(f, ws, a, a+blockMs, cpu)
			st.Samples += n
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			var size int64
			if fi, serr := os.Stat(path); serr == nil {
				size = fi.Size()
			}
			pieces <- piece{path: path, bytes: size, err: err}
			if err != nil {
				return
			}
		}
	}()
	for p := range pieces {
		if p.err != nil {
			return p.err
		}
		st.Pieces++
		st.TextBytes += p.bytes
		cmd := exec.Command(*promtool, "tsdb", "create-blocks-from", "--max-block-duration="+block.String(), "openmetrics", "--quiet", p.path, *out)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		t := time.Now()
		err := cmd.Run()
		st.PromtoolWall += time.Since(t).Seconds()
		if ps := cmd.ProcessState; ps != nil {
			st.PromtoolCPU += (ps.UserTime() + ps.SystemTime()).Seconds()
			if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
				st.PromtoolMaxRSS = max(st.PromtoolMaxRSS, ru.Maxrss)
			}
		}
		if err != nil {
			return fmt.Errorf("promtool on %s: %w", p.path, err)
		}
		fmt.Fprintf(os.Stderr, "tuneprom: piece %d: %.0f MB of OpenMetrics text into a block (%.1fs)\n", st.Pieces, float64(p.bytes)/1e6, time.Since(t).Seconds())
		if !*keep {
			_ = os.Remove(p.path)
		}
	}
	if !*keep {
		_ = os.Remove(*work)
	}
	_ = filepath.WalkDir(*out, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				st.TSDBBytes += fi.Size()
			}
		}
		return nil
	})
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(st)
}
