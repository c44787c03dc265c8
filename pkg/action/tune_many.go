// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/fleet"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/load"
)

// TuneManyConfig is a tune of every HPA of a namespace, of every
// namespace (AllNamespaces) or of a label selector, each with the same
// options (Tune, whose Name is left out).
type TuneManyConfig struct {
	Tune          TuneConfig
	AllNamespaces bool
	Selector      string
	// MinFidelity is the share of the period an HPA's as-is replay must
	// hold the recorded replica count for its recommendation to stand
	// (fleet.DefaultMinFidelity when 0).
	MinFidelity float64
	// OnTuned, when set, is called with each HPA's tune (its context's
	// name, its name) before it is let go (with Tune.Report, its HTML
	// report's data is there): the command writes each HPA's own report
	// beside the fleet's. An error stops the run. The contexts' tunes run
	// at once: it must be safe to call concurrently.
	OnTuned func(string, explain.ObjectRef, *TuneResult) error
	// Shard, when set, keeps the HPAs of one shard (fleet.InShard).
	Shard *explain.FleetShard
	// Progress, if set, is called before each HPA's tune (done of total)
	// and once at the end.
	Progress func(done, total int, hpa string)
	// Contexts, when set, tunes the HPAs of each of its kubeconfig
	// contexts (nil: the current context's).
	Contexts *Contexts
}

// TuneMany lists the selected HPAs and tunes them fleetAtOnce at a time
// (each tune replays its candidates on every core; one's read overlaps
// another's replays), keeping of each only its row: a finished HPA's
// recording and curves are let go. An HPA that
// cannot be tuned is a row saying why; the run goes on. With Contexts,
// each kubeconfig context's HPAs are tuned so, up to Contexts' parallel
// contexts at once, and a context whose HPAs cannot be listed is a row
// saying why. When ctx ends the HPAs tuned so far are returned, with a
// note, and ctx's error.
func TuneMany(ctx context.Context, cfg TuneManyConfig) (*explain.TuneFleet, error) {
	src := cfg.Tune.Source
	if !src.Live() && cfg.Contexts != nil {
		return nil, usageErrorf("%s reads HPAs from files, not from kubeconfig contexts: leave the contexts out", tuneSourceFlag())
	}
	minFid := cfg.MinFidelity
	if minFid == 0 {
		minFid = fleet.DefaultMinFidelity
	}
	var items []explain.FleetItem
	var stopped error
	total := 0
	if cfg.Contexts == nil {
		run, err := tuneContext(ctx, cfg, minFid, cfg.Progress)
		if err != nil {
			return nil, err
		}
		items, stopped, total = run.items, run.stopped, run.total
	} else {
		names, err := cfg.Contexts.List(src.Clients)
		if err != nil {
			return nil, err
		}
		prog := cfg.Progress
		if prog != nil {
			prog = contextsProgress(prog)
		}
		runs := eachContext(ctx, cfg.Contexts, src.Clients, names, func(cctx context.Context, _ string, f *Factory) (*contextTune, error) {
			one := cfg
			one.Tune.Source.Clients = f
			return tuneContext(cctx, one, minFid, prog)
		})
		for _, r := range runs {
			if r.err != nil {
				if ctx.Err() != nil {
					stopped = ctx.Err()
					continue
				}
				items = append(items, fleet.FailedContext(r.name, r.err))
				total++
				continue
			}
			items = append(items, r.out.items...)
			total += r.out.total
			if r.out.stopped != nil && stopped == nil {
				stopped = r.out.stopped
			}
		}
	}
	if cfg.Progress != nil {
		cfg.Progress(len(items), total, "")
	}
	notes := []string{
		fmt.Sprintf("each HPA tuned as tune NAME tunes it, over the same period with the same options; its recommendation stands only where its as-is replay held the recorded replica count at least %.0f%% of the period", minFid*100),
	}
	if stopped != nil {
		notes = append(notes, fmt.Sprintf("stopped after %d of %d HPAs (%v): the others are not in the table", len(items), total, stopped))
	}
	doc := fleet.Document(items, cfg.Tune.Since, cfg.Tune.Until, minFid, notes)
	doc.Shard = cfg.Shard
	if stopped != nil {
		return doc, stopped
	}
	return doc, nil
}

// contextTune is what the tune of one context's HPAs gave: a row each,
// how many were selected, and ctx's error if it ended first.
type contextTune struct {
	items   []explain.FleetItem
	total   int
	stopped error
}

// tuneContext tunes the selected HPAs of the context of
// cfg.Tune.Source.Clients, one at a time. Its error is the list's: the
// context's HPAs could not be read.
func tuneContext(ctx context.Context, cfg TuneManyConfig, minFid float64, progress func(done, total int, hpa string)) (*contextTune, error) {
	src := cfg.Tune.Source
	var hpas []autoscalingv2.HorizontalPodAutoscaler
	ctxName := ""
	if src.Live() {
		clients, ns, err := src.liveScope(cfg.AllNamespaces)
		if err != nil {
			return nil, err
		}
		list, err := clients.Kube.AutoscalingV2().HorizontalPodAutoscalers(ns).List(ctx, metav1.ListOptions{LabelSelector: cfg.Selector})
		if err != nil {
			return nil, clusterError(err, " (is the cluster reachable?)")
		}
		hpas, ctxName = list.Items, src.Clients.ContextName()
	} else {
		// The files are read and parsed once; each HPA's snapshot is built
		// from them.
		var err error
		if cfg.Tune.Source, hpas, err = filesFleet(src, cfg.AllNamespaces, cfg.Selector); err != nil {
			return nil, err
		}
	}
	if sh := cfg.Shard; sh != nil {
		// The context's name keys the hash, so that the same HPA of two
		// clusters may land in different shards.
		hpas = slices.DeleteFunc(hpas, func(h autoscalingv2.HorizontalPodAutoscaler) bool {
			return !fleet.InShard(*sh, ctxName, h.Namespace, h.Name)
		})
	}
	slices.SortFunc(hpas, func(a, b autoscalingv2.HorizontalPodAutoscaler) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	out := &contextTune{total: len(hpas)}
	// fleetAtOnce HPAs are tuned at once: one's read (waiting on
	// Prometheus, decoding its answers) overlaps another's replays, which
	// take every core. A finished HPA keeps its row only.
	rows := make([]*explain.FleetItem, len(hpas))
	slots := make(chan struct{}, fleetAtOnce)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	for i := range hpas {
		ref := explain.ObjectRef{Namespace: hpas[i].Namespace, Name: hpas[i].Name}
		slots <- struct{}{}
		mu.Lock()
		stop := failed != nil
		mu.Unlock()
		if err := ctx.Err(); err != nil || stop {
			<-slots
			break
		}
		if progress != nil {
			progress(i, len(hpas), ref.Namespace+"/"+ref.Name)
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			one := cfg.Tune
			one.Source.Namespace, one.Name = ref.Namespace, ref.Name
			one.ReportCandidates = nil
			res, err := Tune(ctx, one)
			if err != nil {
				if ctx.Err() == nil {
					it := fleet.Failed(ref, err)
					it.Context = ctxName
					rows[i] = &it
				}
				return
			}
			if cfg.OnTuned != nil {
				if err := cfg.OnTuned(ctxName, ref, res); err != nil {
					mu.Lock()
					failed = cmp.Or(failed, err)
					mu.Unlock()
					return
				}
			}
			it := fleet.Item(res.Tune, res.Backtest, res.Warnings, minFid)
			it.Context = ctxName
			rows[i] = &it
		}()
	}
	wg.Wait()
	if failed != nil {
		return nil, failed
	}
	// The rows in the HPAs' order; where ctx ended first, those finished.
	for _, r := range rows {
		if r != nil {
			out.items = append(out.items, *r)
		}
	}
	if err := ctx.Err(); err != nil && len(out.items) < len(hpas) {
		out.stopped = err
	}
	return out, nil
}

// fleetAtOnce is how many HPAs of a context are tuned at once.
const fleetAtOnce = 2

// filesFleet reads and parses src's files once and lists their HPAs that
// selector selects: those of src.Namespace (-n), or without it or with all
// (-A) every HPA of the files, each in its own namespace, as kubectl get -f
// lists them. The source it returns builds each HPA's snapshot from what
// was parsed.
func filesFleet(src Source, all bool, selector string) (Source, []autoscalingv2.HorizontalPodAutoscaler, error) {
	sel, err := labels.Parse(selector)
	if err != nil {
		var in TuneInput
		return src, nil, usageErrorf("%s %q: %v", in.manyFlag(&in.Selector), selector, err)
	}
	sources, err := load.ReadFiles(src.Files, src.In)
	if err != nil {
		return src, nil, err
	}
	if src.parsed, err = load.Parse(sources); err != nil {
		return src, nil, err
	}
	ns := src.Namespace
	if all {
		ns = ""
	}
	hpas := slices.DeleteFunc(src.parsed.HPAs(ns), func(h autoscalingv2.HorizontalPodAutoscaler) bool {
		return !sel.Matches(labels.Set(h.Labels))
	})
	// An HPA given twice is one row, which says so (its load fails).
	slices.SortStableFunc(hpas, func(a, b autoscalingv2.HorizontalPodAutoscaler) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	hpas = slices.CompactFunc(hpas, func(a, b autoscalingv2.HorizontalPodAutoscaler) bool {
		return a.Namespace == b.Namespace && a.Name == b.Name
	})
	return src, hpas, nil
}

// contextsProgress turns the progress of many contexts' tunes, each
// counting its own HPAs, into one count over the contexts listed so far.
func contextsProgress(report func(done, total int, hpa string)) func(done, total int, hpa string) {
	var mu sync.Mutex
	done, total := 0, 0
	return func(i, n int, hpa string) {
		mu.Lock()
		defer mu.Unlock()
		if i == 0 {
			total += n
		} else {
			done++
		}
		report(done, total, hpa)
	}
}

// tuneSourceFlag names -f.
func tuneSourceFlag() string {
	var in SourceInput
	return TuneSourceRows.Named(&in, &in.Files).Flag()
}

// MergeFleet reads the fleet documents of a run's shards (tune --shard
// I/N -o json|yaml, files or "-" for stdin) and merges them into the
// document the run would have printed in one process.
func MergeFleet(files []string, stdin io.Reader) (*explain.TuneFleet, error) {
	var docs []*explain.TuneFleet
	stdinRead := false
	for _, f := range files {
		var b []byte
		var err error
		if f == "-" {
			if stdinRead || stdin == nil {
				return nil, usageErrorf("%s: standard input can be read once", mergeFlag())
			}
			stdinRead = true
			b, err = io.ReadAll(io.LimitReader(stdin, maxFleetFile+1))
		} else {
			b, err = readLimited(f, maxFleetFile+1)
		}
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", mergeFlag(), f, err)
		}
		if len(b) > maxFleetFile {
			return nil, fmt.Errorf("%s %s: larger than %d MiB, more than a fleet document of %d HPAs", mergeFlag(), f, maxFleetFile>>20, maxFleetFile/2048)
		}
		var d explain.TuneFleet
		if err := yaml.UnmarshalStrict(b, &d); err != nil {
			return nil, fmt.Errorf("%s %s: not a fleet document (what %s I/N -o json prints): %w", mergeFlag(), f, shardFlag(), err)
		}
		docs = append(docs, &d)
	}
	doc, err := fleet.Merge(docs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mergeFlag(), err)
	}
	return doc, nil
}

// maxFleetFile bounds a fleet document read: 64 MiB, some 30 000 HPAs.
const maxFleetFile = 64 << 20

func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// shardFlag names --shard.
func shardFlag() string {
	var in TuneInput
	return in.manyFlag(&in.Shard)
}

// mergeFlag names --merge.
func mergeFlag() string {
	var in TuneInput
	return in.manyFlag(&in.Merge)
}

// WriteFleetPatches writes the fleet's patches and kustomize Components
// (fleet.Patches) under dir and returns the files written, in order. A
// file already there is replaced.
func WriteFleetPatches(doc *explain.TuneFleet, dir string) ([]string, error) {
	files, err := fleet.Patches(doc)
	if err != nil {
		return nil, err
	}
	var written []string
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return written, fmt.Errorf("%s: %w", outFlag(), err)
		}
		if err := os.WriteFile(p, files[rel], 0o644); err != nil { //nolint:gosec // patches for a repository, read by its tools
			return written, fmt.Errorf("%s: %w", outFlag(), err)
		}
		written = append(written, p)
	}
	return written, nil
}

// outFlag names --out.
func outFlag() string {
	var in TuneInput
	return in.manyFlag(&in.Out)
}
