// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/prom"
)

// phaseFigures is what phases prints (JSON).
type phaseFigures struct {
	Since string `json:"since"`
	// Read is tune from its start to the read's last answer (the files
	// and Prometheus); Replays the rest (the as-is replay, the candidates,
	// the finalists under the variants, the document).
	ReadWall    float64 `json:"readWallSeconds"`
	ReadCPU     float64 `json:"readCPUSeconds"`
	ReplaysWall float64 `json:"replaysWallSeconds"`
	ReplaysCPU  float64 `json:"replaysCPUSeconds"`
	TotalWall   float64 `json:"totalWallSeconds"`
	TotalCPU    float64 `json:"totalCPUSeconds"`
	// Requests is Progress.Requests at the read's end.
	Requests int `json:"requests"`
	// PeakHeapRead and PeakHeap are the most heap the process held (live
	// and not yet collected objects, sampled every 10 ms) during the read
	// and over the whole run; HeapAfterRead what it held right after the
	// read.
	PeakHeapRead  uint64 `json:"peakHeapReadBytes"`
	PeakHeap      uint64 `json:"peakHeapBytes"`
	HeapAfterRead uint64 `json:"heapAfterReadBytes"`
	Syncs         int    `json:"syncs"`
	Candidates    int    `json:"candidates"`
	GridSize      int    `json:"gridSize"`
	Variants      int    `json:"variants"`
	Recommended   string `json:"recommended,omitempty"`
	Workers       int    `json:"workers"`
}

// cpuSeconds is the CPU time the process used so far (every thread).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// runPhases runs tune as the command does (pkg/action: the objects from
// -f, the recorded load from Prometheus) and times its read apart from its
// replays: the read ends at its last progress report.
func runPhases(args []string) error {
	flags := flag.NewFlagSet("phases", flag.ExitOnError)
	endpoint := flags.String("prometheus", "", "Prometheus's URL (required)")
	files := flags.String("f", "", "the objects' directory or file (required)")
	ns := flags.String("n", "bench", "the HPA's namespace")
	name := flags.String("name", "web", "the HPA's name")
	now := flags.String("now", "", "the instant of the replayed sync (RFC 3339; required)")
	since := flags.String("since", "168h", "tune's --since")
	budget := flags.Int("budget", 0, "tune's --budget (0: its default)")
	workers := flags.Int("workers", 0, "replays at once (0: one per core, as tune)")
	readOnly := flags.Bool("read-only", false, "stop tune once its read is over (the as-is replay still runs): the read's figures alone")
	queryAPIOnly := flags.Bool("query-api-only", false, "read the raw samples through the query API alone (--prometheus-query-api-only)")
	cpuProfile := flags.String("cpuprofile", "", "write a CPU profile of the tune to this file")
	_ = flags.Parse(args)
	if *endpoint == "" || *files == "" || *now == "" {
		return errors.New("phases: -prometheus, -f and -now are required")
	}
	in := action.DefaultTuneInput()
	in.Since = *since
	in.Recorded.Prometheus.Endpoint = *endpoint
	in.Recorded.Prometheus.QueryAPIOnly = *queryAPIOnly
	if *budget > 0 {
		in.Budget = *budget
	}
	src, err := action.SourceInput{Files: []string{*files}, Now: *now}.Source(nil, nil, *ns, nil)
	if err != nil {
		return err
	}
	settings, err := action.SettingsInput{}.Overrides()
	if err != nil {
		return err
	}
	cfg, err := in.Config(src, *name, settings)
	if err != nil {
		return err
	}
	cfg.Workers = *workers

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var readEnd time.Time
	var readCPU float64
	var last prom.Progress
	cfg.Load.Progress = func(p prom.Progress) {
		t, c := time.Now(), cpuSeconds()
		mu.Lock()
		readEnd, readCPU, last = t, c, p
		mu.Unlock()
		// A read's last report: no read named, everything done.
		if *readOnly && p.What == "" && p.Total > 0 && p.Done >= p.Total {
			cancel()
		}
	}

	// The heap, sampled every 10 ms; split at the read's end afterwards.
	type heapAt struct {
		t time.Time
		v uint64
	}
	var heap []heapAt
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(samples)
			heap = append(heap, heapAt{time.Now(), samples[0].Value.Uint64()})
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()

	if *cpuProfile != "" {
		pf, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer pf.Close()
		if err := pprof.StartCPUProfile(pf); err != nil {
			return err
		}
	}
	began, cpu0 := time.Now(), cpuSeconds()
	res, err := action.Tune(ctx, *cfg)
	end, cpu1 := time.Now(), cpuSeconds()
	if *cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	close(stop)
	<-done
	if *readOnly && errors.Is(err, context.Canceled) {
		res, err = &action.TuneResult{Tune: &explain.Tune{}}, nil
	}
	if err != nil {
		return err
	}
	var peak, peakRead, afterRead uint64
	for _, h := range heap {
		peak = max(peak, h.v)
		if !h.t.After(readEnd) {
			peakRead = max(peakRead, h.v)
		} else if afterRead == 0 {
			afterRead = h.v
		}
	}
	f := phaseFigures{
		Since:    *since,
		ReadWall: readEnd.Sub(began).Seconds(), ReadCPU: readCPU - cpu0,
		ReplaysWall: end.Sub(readEnd).Seconds(), ReplaysCPU: cpu1 - readCPU,
		TotalWall: end.Sub(began).Seconds(), TotalCPU: cpu1 - cpu0,
		Requests: last.Requests, PeakHeapRead: peakRead, PeakHeap: peak, HeapAfterRead: afterRead,
		Candidates: res.Tune.Replayed, GridSize: res.Tune.GridSize, Variants: len(res.Tune.Variants),
		Workers: *workers,
	}
	if f.Workers == 0 {
		f.Workers = runtime.GOMAXPROCS(0)
	}
	if bt := res.Backtest; bt != nil {
		if step, err := time.ParseDuration(bt.SyncPeriod); err == nil && step > 0 {
			f.Syncs = int(bt.End.Sub(bt.Start) / step)
		}
	}
	if r := res.Tune.Recommendation; r != nil {
		f.Recommended = r.Patch
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}
