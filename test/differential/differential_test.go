// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/klog/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

var (
	flagCases          = flag.Int("cases", 0, "number of differential cases (default 100000, or $DIFF_CASES)")
	flagSeed           = flag.Uint64("seed", 0, "first seed (default 1, or $DIFF_SEED)")
	flagReconcileCases = flag.Int("reconcile-cases", 0, "number of controller-level cases (default 10000, or $DIFF_RECONCILE_CASES)")
	flagShow           = flag.Int("show", 0, "how many disagreements to print in full with their reproducer (default 5, or $DIFF_SHOW)")
)

func envInt(name string, def int) int {
	if v := os.Getenv(name); v != "" {
		n, err := strconv.Atoi(v)
		if err == nil {
			return n
		}
	}
	return def
}

func numCases() int {
	if *flagCases > 0 {
		return *flagCases
	}
	return envInt("DIFF_CASES", 100000)
}

func firstSeed() uint64 {
	if *flagSeed > 0 {
		return *flagSeed
	}
	if v := os.Getenv("DIFF_SEED"); v != "" {
		if n, err := strconv.ParseUint(v, 10, 64); err == nil {
			return n
		}
	}
	return 1
}

func numShow() int {
	if *flagShow > 0 {
		return *flagShow
	}
	return envInt("DIFF_SHOW", 5)
}

func TestMain(m *testing.M) {
	// The controller logs through klog; keep test output readable.
	if os.Getenv("DIFF_KLOG") == "" {
		fs := flag.NewFlagSet("klog", flag.ContinueOnError)
		klog.InitFlags(fs)
		_ = fs.Set("logtostderr", "false")
		_ = fs.Set("alsologtostderr", "false")
		_ = fs.Set("stderrthreshold", "FATAL")
		klog.SetOutput(io.Discard)
	}
	code := m.Run()
	if theOracle != nil {
		_ = theOracle.stdin.Close()
	}
	os.Exit(code)
}

// stats accumulates per-function counts.
type stats struct {
	mu        sync.Mutex
	cases     int
	byFunc    map[string]int
	errByFunc map[string]int
	badByFunc map[string]int
	labels    map[string]int
	failures  []failure
}

type failure struct {
	seed   uint64
	up     string
	engine string
	diffs  []mismatch
}

func newStats() *stats {
	return &stats{byFunc: map[string]int{}, errByFunc: map[string]int{}, badByFunc: map[string]int{}, labels: map[string]int{}}
}

// checkOne runs one case on both sides and records the outcome.
func (s *stats) checkOne(c *Case) {
	up := runUpstreamStable(c)
	dec, err := runEngine(c)
	diffs := compare(c, up, dec, err)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cases++
	s.byFunc[up.Function]++
	s.labels[c.Label]++
	if up.Err != nil {
		s.errByFunc[up.Function]++
	}
	if len(diffs) > 0 {
		s.badByFunc[up.Function]++
		s.failures = append(s.failures, failure{seed: c.Seed, up: describeUpstream(up), engine: describeEngine(dec, err), diffs: diffs})
	}
}

// run checks the given seeds on all cores.
func (s *stats) run(seeds []uint64) {
	ch := make(chan uint64, 256)
	var wg sync.WaitGroup
	// Twice the cores: half of the time a worker waits for the oracle.
	for w := 0; w < 2*runtime.GOMAXPROCS(0); w++ {
		wg.Go(func() {
			for seed := range ch {
				s.checkOne(Generate(seed))
			}
		})
	}
	for _, seed := range seeds {
		ch <- seed
	}
	close(ch)
	wg.Wait()
}

func (s *stats) report(t *testing.T, elapsed time.Duration) {
	var b strings.Builder
	fmt.Fprintf(&b, "differential: %d cases in %v (%.0f cases/s), %d disagreements\n", s.cases, elapsed.Round(time.Millisecond), float64(s.cases)/elapsed.Seconds(), len(s.failures))
	fns := make([]string, 0, len(s.byFunc))
	for f := range s.byFunc {
		fns = append(fns, f)
	}
	sort.Strings(fns)
	fmt.Fprintf(&b, "  %-34s %8s %8s %8s\n", "upstream function", "cases", "errors", "disagree")
	for _, f := range fns {
		fmt.Fprintf(&b, "  %-34s %8d %8d %8d\n", f, s.byFunc[f], s.errByFunc[f], s.badByFunc[f])
	}
	if testing.Verbose() {
		labels := make([]string, 0, len(s.labels))
		for l := range s.labels {
			labels = append(labels, l)
		}
		sort.Strings(labels)
		fmt.Fprintf(&b, "  generated metric shapes:\n")
		for _, l := range labels {
			fmt.Fprintf(&b, "    %-50s %8d\n", l, s.labels[l])
		}
	}
	fmt.Print(b.String())
	t.Log("\n" + b.String())
	if len(s.failures) == 0 {
		return
	}
	sort.Slice(s.failures, func(i, j int) bool { return s.failures[i].seed < s.failures[j].seed })
	// Group by what disagreed, so that one bug does not hide another.
	groups := map[string][]failure{}
	var keys []string
	for _, f := range s.failures {
		k := f.diffs[0].Function + " / " + f.diffs[0].Field
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], f)
	}
	sort.Strings(keys)
	outDir := os.Getenv("DIFF_OUT")
	shown := 0
	for _, k := range keys {
		fs := groups[k]
		seeds := []string{}
		for i, f := range fs {
			if i == 200 {
				seeds = append(seeds, "...")
				break
			}
			seeds = append(seeds, strconv.FormatUint(f.seed, 10))
		}
		t.Errorf("%d disagreements on %s; seeds %s", len(fs), k, strings.Join(seeds, " "))
		for i, f := range fs {
			if outDir != "" && i < 50 {
				_ = os.MkdirAll(outDir, 0o755)
				_ = os.WriteFile(filepath.Join(outDir, fmt.Sprintf("seed-%d.json", f.seed)), []byte(reproducer(f.seed)), 0o644)
			}
			if i >= 2 || shown >= numShow() {
				continue
			}
			shown++
			var d []string
			for _, m := range f.diffs {
				d = append(d, m.String())
			}
			t.Logf("seed %d\n  upstream: %s\n  engine:   %s\n  %s\n  reproducer (DIFF_REPRO=<file> go test -run TestRepro):\n%s",
				f.seed, f.up, f.engine, strings.Join(d, "\n  "), reproducer(f.seed))
		}
	}
}

// TestDifferential feeds randomized snapshots to the engine and to upstream's
// ReplicaCalculator and requires identical results.
func TestDifferential(t *testing.T) {
	n := numCases()
	first := firstSeed()
	var on, off []uint64
	for i := 0; i < n; i++ {
		seed := first + uint64(i)
		if podLevelForSeed(seed) {
			on = append(on, seed)
		} else {
			off = append(off, seed)
		}
	}
	s := newStats()
	oracle() // started (and built if needed) outside the timing
	start := time.Now()
	// The oracle's gates are process-global: the seeds with PodLevelResources
	// off (where the gate exists) run as their own group.
	s.run(on)
	s.run(off)
	fmt.Printf("differential: upstream %s (oracle %s)\n", upstreamVersion, oracle().info.Modules["k8s.io/kubernetes"])
	s.report(t, time.Since(start))
}

// TestRepro replays one reproducer file (DIFF_REPRO) or one seed (DIFF_REPRO_SEED).
func TestRepro(t *testing.T) {
	var c *Case
	if f := os.Getenv("DIFF_REPRO"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c = &Case{}
		if err := json.Unmarshal(b, c); err != nil {
			t.Fatal(err)
		}
	} else if v := os.Getenv("DIFF_REPRO_SEED"); v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		c = Generate(seed)
	} else {
		t.Skip("set DIFF_REPRO=<file> or DIFF_REPRO_SEED=<seed>")
	}
	up := runUpstreamStable(c)
	dec, err := runEngine(c)
	t.Logf("upstream: %s", describeUpstream(up))
	t.Logf("engine:   %s", describeEngine(dec, err))
	if testing.Verbose() && dec != nil && len(dec.Metrics) > 0 {
		b, _ := json.MarshalIndent(dec.Metrics[0], "", "  ")
		t.Logf("engine metric detail:\n%s", b)
	}
	for _, m := range compare(c, up, dec, err) {
		t.Error(m.String())
	}
}

// byteSource turns fuzz bytes into the generator's random stream: the bytes
// are consumed first, then a PCG seeded from their hash takes over.
type byteSource struct {
	data []byte
	pcg  *rand.PCG
}

func newByteSource(data []byte) *byteSource {
	h := fnv.New64a()
	_, _ = h.Write(data)
	return &byteSource{data: data, pcg: rand.NewPCG(h.Sum64(), uint64(len(data)))}
}

func (b *byteSource) Uint64() uint64 {
	if len(b.data) >= 8 {
		v := binary.LittleEndian.Uint64(b.data)
		b.data = b.data[8:]
		return v
	}
	if len(b.data) > 0 {
		var buf [8]byte
		copy(buf[:], b.data)
		b.data = nil
		return binary.LittleEndian.Uint64(buf[:]) ^ b.pcg.Uint64()
	}
	return b.pcg.Uint64()
}

// FuzzEvaluate derives a snapshot from the fuzz input and requires the engine
// to agree with upstream on it.
func FuzzEvaluate(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("kubectl-hpa"))
	for _, seed := range []uint64{1, 2, 3, 42, 1000, 123456789} {
		var buf [8]byte
		binary.LittleEndian.PutUint64(buf[:], seed)
		f.Add(buf[:])
	}
	f.Add(make([]byte, 64))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		h := fnv.New64a()
		_, _ = h.Write(data)
		c := generateFrom(rand.New(newByteSource(data)), h.Sum64())
		// The gate is process-global upstream; fuzzing keeps the default.
		setGate(&c.Settings, profile.PodLevelResources, true)
		up := runUpstreamStable(c)
		dec, err := runEngine(c)
		if diffs := compare(c, up, dec, err); len(diffs) > 0 {
			b, _ := json.MarshalIndent(c, "", "  ")
			for _, m := range diffs {
				t.Error(m.String())
			}
			t.Fatalf("upstream: %s\nengine:   %s\ncase:\n%s", describeUpstream(up), describeEngine(dec, err), b)
		}
	})
}
