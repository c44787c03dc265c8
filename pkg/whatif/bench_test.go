// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/internal/gcpace"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/tune"
)

// BenchmarkProject24h projects 24 hours at the default 15 s sync period:
// 5,761 syncs of an HPA on CPU over 10 pods (the start doubles them, then
// the constant total settles at 20). docs/performance.md records the figure.
func BenchmarkProject24h(b *testing.B) {
	s := cpuSnapshot(10, "500m")
	set := engine.DefaultSettings()
	opts := ProjectOptions{Duration: 24 * time.Hour, PodStartup: 30 * time.Second}
	b.ReportAllocs()
	for b.Loop() {
		p, err := Project(s, set, opts)
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Steps) != 5761 {
			b.Fatalf("%d syncs", len(p.Steps))
		}
	}
}

// BenchmarkProject24hExternal is the same span for an External metric with
// a behavior (no pods to model).
func BenchmarkProject24hExternal(b *testing.B) {
	s := queueSnapshot(1, "100")
	set := engine.DefaultSettings()
	opts := ProjectOptions{Duration: 24 * time.Hour}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Project(s, set, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProject24hFull replays every one of the 5,761 syncs (NoSkip), for
// the cost of a projection whose inputs never stop changing.
func BenchmarkProject24hFull(b *testing.B) {
	s := cpuSnapshot(10, "500m")
	set := engine.DefaultSettings()
	opts := ProjectOptions{Duration: 24 * time.Hour, PodStartup: 30 * time.Second, NoSkip: true}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Project(s, set, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// weekRecording is 7 days at a 15 s step (40,320 instants) of a workload
// whose 50 pods (one container, 500m requested) use cpu and memory on a
// daily cycle within the tolerance of the 50% target (46% to 54%), with
// the real count at 50 throughout: the shape of the backtest of
// docs/performance.md.
func weekRecording() *recording.Recording { return weekRecordingOf(50) }

// weekRecordingOf is weekRecording with another number of pods.
func weekRecordingOf(pods int) *recording.Recording { return recordingOf(pods, 7) }

// recordingOf is weekRecording with another number of pods and of days.
func recordingOf(pods, days int) *recording.Recording {
	n := days * 24 * 240
	start := time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC)
	rec := &recording.Recording{
		Namespace: "shop", Workload: "Deployment/web", Start: start, Step: 15 * time.Second, Len: n,
		SampleWindow: 15 * time.Second, SampleLag: 5 * time.Second,
		Replicas: recording.ReplicaHistory{Source: recording.SourceKubeStateMetrics, Changes: []recording.ReplicaChange{{At: start.Add(-time.Hour), Replicas: int32(pods)}}},
		Metrics: []recording.Metric{
			{Kind: recording.KindResource, Name: "cpu", PerPod: map[string]map[string]*recording.Series{}},
			{Kind: recording.KindResource, Name: "memory", PerPod: map[string]map[string]*recording.Series{}},
		},
	}
	for i := range pods {
		name := fmt.Sprintf("web-%02d", i)
		rec.Pods = append(rec.Pods, recording.Pod{
			Name: name, Labels: map[string]string{"app": "web"}, Created: start.Add(-2 * time.Hour),
			Ready:      []recording.ReadyChange{{At: start.Add(-2 * time.Hour), Ready: true}},
			Containers: []recording.Container{{Name: "app", Requests: map[string]int64{"cpu": 500, "memory": 256 << 20}}},
		})
		cpu := &recording.Series{Values: make([]float64, n)}
		mem := &recording.Series{Values: make([]float64, n)}
		for k := range n {
			day := 2 * math.Pi * float64(k) / (24 * 240)
			cpu.Values[k] = 0.25 * (1 + 0.07*math.Sin(day) + 0.01*math.Sin(float64(k*7+i)))
			mem.Values[k] = float64(200<<20) + float64(i<<10)
		}
		rec.Metrics[0].PerPod[name] = map[string]*recording.Series{"app": cpu}
		rec.Metrics[1].PerPod[name] = map[string]*recording.Series{"app": mem}
	}
	return rec
}

// BenchmarkBacktestWeek replays the 40,320 syncs of weekRecording as the
// HPA (min 10, max 100) is, which follows the real pods, and with a 70%
// target and a 30 s scale-down window, which runs fewer pods than the real
// ones and follows the daily cycle; BenchmarkBacktestWeekAsIs the first
// alone.
func BenchmarkBacktestWeek(b *testing.B) {
	t70, err := ParseTarget("cpu=70%")
	if err != nil {
		b.Fatal(err)
	}
	benchBacktest(b, &Overrides{Targets: []TargetOverride{t70}, Behavior: &autoscalingv2.HorizontalPodAutoscalerBehavior{
		ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr(int32(30))},
	}}, false)
}

func BenchmarkBacktestWeekAsIs(b *testing.B) { benchBacktest(b, nil, false) }

// BenchmarkBacktestWeekNoSteps is BenchmarkBacktestWeekAsIs as tune runs
// it (NoSteps): its replay on the fast path.
func BenchmarkBacktestWeekNoSteps(b *testing.B) { benchBacktest(b, nil, true) }

func benchBacktest(b *testing.B, changes *Overrides, noSteps bool) {
	b.Helper()
	rec := weekRecording()
	s := cpuSnapshot(50, "250m")
	s.Pods = s.Pods[:1]
	s.HPA.Spec.MinReplicas, s.HPA.Spec.MaxReplicas = ptr(int32(10)), 100
	set := engine.DefaultSettings()
	b.ReportAllocs()
	for b.Loop() {
		res, err := Backtest(s, rec, set, BacktestOptions{Start: rec.Start, Changes: changes, NoSteps: noSteps})
		if err != nil {
			b.Fatal(err)
		}
		if want := rec.Len; noSteps && len(res.Projection.Steps) != 0 || !noSteps && len(res.Projection.Steps) != want {
			b.Fatalf("%d syncs", len(res.Projection.Steps))
		}
		if changes != nil && res.Backtest.Changed.Summary.Rescales == 0 {
			b.Fatal("the changed replay never rescaled")
		}
		if res.Backtest.AsIs.Summary.Rescales != 0 {
			b.Fatalf("the as-is replay rescaled %d times; the load stays within the tolerance", res.Backtest.AsIs.Summary.Rescales)
		}
	}
}

// BenchmarkReplayHPAWeek replays the 40,320 syncs of weekRecording once
// with a tune candidate (a 70% target, a 30 s scale-down window): the cost
// of one candidate of kubectl hpa tune over a week.
func BenchmarkReplayHPAWeek(b *testing.B) {
	rec := weekRecording()
	s := cpuSnapshot(50, "250m")
	s.Pods = s.Pods[:1]
	s.HPA.Spec.MinReplicas, s.HPA.Spec.MaxReplicas = ptr(int32(10)), 100
	set := engine.DefaultSettings()
	t70, err := ParseTarget("cpu=70%")
	if err != nil {
		b.Fatal(err)
	}
	edited, _, err := Apply(s, &Overrides{Targets: []TargetOverride{t70}, Behavior: &autoscalingv2.HorizontalPodAutoscalerBehavior{
		ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr(int32(30))},
	}}, set)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		if _, err := ReplayHPA(s, rec, set, edited.HPA, BacktestOptions{Start: rec.Start}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// weekSnapshot is the HPA of the week benchmarks: cpu at 50%, 10 to 100
// replicas, over n pods.
func weekSnapshot(n int) *engine.Snapshot {
	s := cpuSnapshot(n, "250m")
	s.Pods = s.Pods[:1]
	s.HPA.Spec.MinReplicas, s.HPA.Spec.MaxReplicas = ptr(int32(10)), 100
	return s
}

// BenchmarkReplaySyncs replays the 40,320 syncs of a week once as the HPA
// is, over 10 and 50 pods, and reports the syncs replayed per second.
func BenchmarkReplaySyncs(b *testing.B) {
	for _, pods := range []int{10, 50} {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			rec := weekRecordingOf(pods)
			s := weekSnapshot(pods)
			set := engine.DefaultSettings()
			b.ReportAllocs()
			b.ResetTimer()
			start := cpuTime(b)
			for b.Loop() {
				if _, err := ReplayHPA(s, rec, set, s.HPA, BacktestOptions{Start: rec.Start}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
			b.ReportMetric(float64(b.N)*float64(rec.Len)/b.Elapsed().Seconds(), "syncs/s")
		})
	}
}

// weekRecordingRaw is weekRecording without its memory series, each pod's cpu kept as the
// store keeps it, a raw counter read every 15 s, from which the samples
// of every instant are worked out (Resample, scrapes every 15 s): a
// recording that tune can replay under variants (other phases of the
// scrapes, the load 1% lower and higher).
func weekRecordingRaw() *recording.Recording { return rawRecordingOf(7) }

// rawRecordingOf is weekRecordingRaw over another number of days.
func rawRecordingOf(days int) *recording.Recording {
	rec := recordingOf(50, days)
	// The HPA reads cpu alone, and tune reads from the store the metrics
	// its HPA reads (prom.MetricsFor): no memory series (a slice of its own,
	// or the generated memory samples stay reachable through the old one).
	rec.Metrics = []recording.Metric{rec.Metrics[0]}
	cpu := &rec.Metrics[0]
	cpu.PerPod, cpu.Raw, cpu.Cumulative = map[string]map[string]*recording.Series{}, map[string]map[string]*recording.Raw{}, true
	rec.StoreInterval = 15 * time.Second
	from, to := rec.Start.Add(-time.Hour), rec.End().Add(time.Minute)
	n := int(to.Sub(from)/(15*time.Second)) + 1
	for i := range rec.Pods {
		raw := &recording.Raw{T: make([]int64, 0, n), V: make([]float64, 0, n)}
		v := 0.0
		for at := from; at.Before(to); at = at.Add(15 * time.Second) {
			k := float64(at.Sub(rec.Start) / (15 * time.Second))
			day := 2 * math.Pi * k / (24 * 240)
			v += 15 * 0.25 * (1 + 0.07*math.Sin(day) + 0.01*math.Sin(k*7+float64(i)))
			raw.Append(at.UnixMilli(), v, true)
		}
		cpu.Raw[rec.Pods[i].Name] = map[string]*recording.Raw{"app": raw}
	}
	rec.Resample(recording.Scrapes{Anchor: rec.Start.Add(1300 * time.Millisecond), Window: 15 * time.Second})
	return rec
}

// BenchmarkTuneWeek is the bound of kubectl hpa tune: a search over at
// least 200 candidates, each replayed exactly over the week of
// weekRecordingRaw (50 pods, 40,320 syncs), on GOMAXPROCS workers, as
// action.Tune runs it (each candidate's setting applied to the HPA, the
// path kept as the candidate's detail), then the finalists replayed again
// under each variant of the recording (tune.Robust, each variant's
// recording resampled and replayed in turn, as action.Tune does). It
// reports the candidates and the replays under variants, and the peak of
// the heap in use, sampled while the search runs.
func BenchmarkTuneWeek(b *testing.B) { benchTune(b, weekRecordingRaw()) }

// BenchmarkTuneMonth is BenchmarkTuneWeek over 30 days (172,800 syncs):
// the bound is 4 times the week's time and 500 MiB.
func BenchmarkTuneMonth(b *testing.B) { benchTune(b, rawRecordingOf(30)) }

func benchTune(b *testing.B, rec *recording.Recording) {
	b.Helper()
	// The collector's pace of kubectl hpa tune (pkg/cmd).
	defer gcpace.LongLived()()
	s := weekSnapshot(50)
	set := engine.DefaultSettings()
	// A behavior of its own, so that the policy axes vary around it.
	s.HPA.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr(int32(300))}}
	engine.DefaultHPA(s.HPA)
	opts := BacktestOptions{Start: rec.Start}
	cur, err := tune.FromHPA(s.HPA, set.DownscaleStabilization)
	if err != nil {
		b.Fatal(err)
	}
	sp, err := tune.NewSpace(cur, tune.SpaceOptions{
		Metrics: []tune.MetricInfo{{Name: "cpu", Type: autoscalingv2.UtilizationMetricType}}, MaxReplicas: s.HPA.Spec.MaxReplicas,
	})
	if err != nil {
		b.Fatal(err)
	}
	unit := CostCoreHours
	figures := func(r *Replayed) tune.Figures {
		return tune.Figures{Cost: r.Figures.Cost(unit), Risk: r.Figures.Risk(), Rescales: r.Figures.Rescales}
	}
	replayer, err := NewReplayer(s, rec, set, opts)
	if err != nil {
		b.Fatal(err)
	}
	ref, err := replayer.ReplayFigures(s.HPA)
	if err != nil {
		b.Fatal(err)
	}
	eval := func(_ context.Context, st tune.Setting) (tune.Figures, error) {
		h, err := st.Apply(s.HPA)
		if err != nil {
			return tune.Figures{}, err
		}
		r, err := replayer.ReplayFigures(h)
		if err != nil {
			return tune.Figures{}, err
		}
		return figures(r), nil
	}
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64() + sample[1].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	replayed, robust := 0, 0
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime(b)
	for b.Loop() {
		res, err := tune.Search(context.Background(), sp, eval, tune.Options{Budget: 200, Reference: figures(ref)})
		if err != nil {
			b.Fatal(err)
		}
		replayed = len(res.Candidates)
		if replayed < 200 {
			b.Fatalf("%d candidates replayed, want at least 200", replayed)
		}
		variants := rec.Variants()
		var again atomic.Int64
		variant := func(v int) (tune.Evaluator, func(), error) {
			r, err := replayer.Variant(variants[v-1].Scrapes)
			if err != nil {
				return nil, nil, err
			}
			return func(_ context.Context, st tune.Setting) (tune.Figures, error) {
				h, err := st.Apply(s.HPA)
				if err != nil {
					return tune.Figures{}, err
				}
				rp, err := r.ReplayFigures(h)
				if err != nil {
					return tune.Figures{}, err
				}
				again.Add(1)
				return figures(rp), nil
			}, nil, nil
		}
		grain := float64(rec.Step) / float64(rec.End().Sub(rec.Start))
		if err := tune.Robust(context.Background(), res, tune.RobustOptions{Variants: len(variants), Variant: variant, RiskGrain: grain}); err != nil {
			b.Fatal(err)
		}
		robust = int(again.Load())
		if len(variants) == 0 || robust == 0 {
			b.Fatalf("%d variants, %d replays under them", len(variants), robust)
		}
		if res.Recommended < 0 {
			b.Fatal("no recommendation")
		}
	}
	reportCPU(b, start)
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(replayed), "candidates")
	b.ReportMetric(float64(robust), "variant-replays")
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
	runtime.KeepAlive(ref)
}

// cpuTime is the CPU time the process has used (user and system, every
// thread, the garbage collector's included).
func cpuTime(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per op since start: on a machine other
// work loads, a steadier figure than the wall time of ns/op.
func reportCPU(b *testing.B, start time.Duration) {
	b.Helper()
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkReplayerWeek is one candidate of BenchmarkTuneWeek: a replay of
// the week with a 70% target and a 30 s scale-down window by a Replayer
// that has replayed the recording before.
func BenchmarkReplayerWeek(b *testing.B) {
	rec := weekRecording()
	s := weekSnapshot(50)
	set := engine.DefaultSettings()
	t70, err := ParseTarget("cpu=70%")
	if err != nil {
		b.Fatal(err)
	}
	edited, _, err := Apply(s, &Overrides{Targets: []TargetOverride{t70}, Behavior: &autoscalingv2.HorizontalPodAutoscalerBehavior{
		ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr(int32(30))},
	}}, set)
	if err != nil {
		b.Fatal(err)
	}
	r, err := NewReplayer(s, rec, set, BacktestOptions{Start: rec.Start})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := r.Replay(s.HPA); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime(b)
	for b.Loop() {
		if _, err := r.Replay(edited.HPA); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkAtScrapesWeek resamples weekRecordingRaw at another phase: the
// part of each of tune's variants that precedes its replays.
func BenchmarkAtScrapesWeek(b *testing.B) {
	rec := weekRecordingRaw()
	v := rec.Variants()
	b.ReportAllocs()
	for b.Loop() {
		rec.AtScrapes(v[1].Scrapes)
	}
}
