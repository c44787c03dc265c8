// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"hash/maphash"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// fakeRemote is how the fake answers the remote-read API.
type fakeRemote int

const (
	// remoteServed answers as Prometheus does: each series' chunks of
	// at most 120 samples that overlap the range asked (their samples
	// outside it too), two chunks a frame.
	remoteServed fakeRemote = iota
	// remoteAbsent answers 404, as a store without the API does.
	remoteAbsent
	// remoteXOR2 types every chunk XOR2 (an encoding the client does
	// not decode).
	remoteXOR2
	// remoteCut stops the answer after its first frame, as Prometheus
	// does when a stream fails half-way.
	remoteCut
)

// xorWriter writes bits, the most significant first: the tests' own
// encoder of Prometheus's XOR chunks, the decoder's counterpart.
type xorWriter struct {
	b    []byte
	free int // unused bits of the last byte
}

func (w *xorWriter) write(v uint64, n int) {
	for i := n - 1; i >= 0; i-- {
		if w.free == 0 {
			w.b = append(w.b, 0)
			w.free = 8
		}
		w.free--
		if v>>i&1 == 1 {
			w.b[len(w.b)-1] |= 1 << w.free
		}
	}
}

// encodeXOR appends samples (times in ms ascending, values' bits) to dst
// as an XOR chunk.
func encodeXOR(dst []byte, ts []int64, vs []uint64) []byte {
	out := binary.BigEndian.AppendUint16(dst, uint16(len(ts)))
	if len(ts) == 0 {
		return out
	}
	out = binary.AppendVarint(out, ts[0])
	out = binary.BigEndian.AppendUint64(out, vs[0])
	if len(ts) == 1 {
		return out
	}
	out = binary.AppendUvarint(out, uint64(ts[1]-ts[0]))
	w := &xorWriter{b: out}
	lead, trail := -1, 0
	value := func(prev, v uint64) {
		x := prev ^ v
		if x == 0 {
			w.write(0, 1)
			return
		}
		w.write(1, 1)
		l, tr := min(bits.LeadingZeros64(x), 31), bits.TrailingZeros64(x)
		if lead >= 0 && l >= lead && tr >= trail {
			w.write(0, 1)
			w.write(x>>trail, 64-lead-trail)
			return
		}
		lead, trail = l, tr
		sig := 64 - l - tr
		w.write(1, 1)
		w.write(uint64(l), 5)
		w.write(uint64(sig&63), 6)
		w.write(x>>tr, sig)
	}
	value(vs[0], vs[1])
	delta := ts[1] - ts[0]
	for i := 2; i < len(ts); i++ {
		d := ts[i] - ts[i-1]
		dod := d - delta
		delta = d
		fits := func(w int) bool { return dod > -(1<<(w-1)) && dod <= 1<<(w-1) }
		switch {
		case dod == 0:
			w.write(0, 1)
		case fits(14):
			w.write(0b10, 2)
			w.write(uint64(dod), 14)
		case fits(17):
			w.write(0b110, 3)
			w.write(uint64(dod), 17)
		case fits(20):
			w.write(0b1110, 4)
			w.write(uint64(dod), 20)
		default:
			w.write(0b1111, 4)
			w.write(uint64(dod), 64)
		}
		value(vs[i-1], vs[i])
	}
	return w.b
}

// randomSamples draws n samples whose time steps hit every width of the
// delta of deltas (their edges too) and whose values repeat, move a
// little, jump, and are now and then NaN or a staleness marker.
func randomSamples(rng *rand.Rand, n int) ([]int64, []uint64) {
	ts, vs := make([]int64, n), make([]uint64, n)
	t, delta, v := rng.Int64N(1e13)-5e12, int64(15000), rng.Float64()*1e6
	edges := []int64{1 << 13, -(1 << 13) + 1, 1 << 16, -(1 << 16) + 1, 1 << 19, -(1 << 19) + 1, 1<<19 + 1, -(1 << 19), 1 << 40}
	for i := range n {
		switch rng.IntN(6) {
		case 0:
		case 1:
			delta += rng.Int64N(200) - 100
		case 2:
			delta += edges[rng.IntN(len(edges))]
		default:
			delta += rng.Int64N(1<<21) - 1<<20
		}
		delta = max(delta, 1)
		if i > 0 {
			t += delta
		}
		switch rng.IntN(7) {
		case 0:
		case 1:
			v += rng.Float64()
		case 2:
			v = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(30)-15))
		case 3:
			v = float64(rng.IntN(4))
		default:
			v += float64(rng.IntN(100))
		}
		ts[i], vs[i] = t, math.Float64bits(v)
		switch rng.IntN(40) {
		case 0:
			vs[i] = staleBits
		case 1:
			vs[i] = math.Float64bits(math.NaN())
		}
	}
	return ts, vs
}

// The decoder reads back what the encoder wrote, every width of a time
// step and every form of a value change among them; a chunk cut short or
// mangled fails or decodes, never panics.
func TestXORChunkRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 38))
	for round := range 3000 {
		n := 1 + rng.IntN(200)
		if round < 3 {
			n = round
		}
		ts, vs := randomSamples(rng, n)
		data := encodeXOR(nil, ts, vs)
		var gotT []int64
		var gotV []uint64
		if err := decodeXOR(data, func(ms int64, b uint64) { gotT, gotV = append(gotT, ms), append(gotV, b) }); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !slices.Equal(gotT, ts[:n]) || !slices.Equal(gotV, vs[:n]) {
			t.Fatalf("round %d: %d samples decode as %d, differing", round, n, len(gotT))
		}
		// Cut short: an error (the count promises more), never a panic.
		if len(data) > 2 && n > 1 {
			cut := data[:2+rng.IntN(len(data)-2)]
			if err := decodeXOR(cut, func(int64, uint64) {}); err == nil && len(cut) < len(data)-1 {
				// The last byte's padding may hold the last sample's
				// trailing zero bits only when it is the very end.
				t.Fatalf("round %d: a chunk of %d bytes cut at %d decodes", round, len(data), len(cut))
			}
		}
		mangled := slices.Clone(data)
		if len(mangled) > 0 {
			mangled[rng.IntN(len(mangled))] ^= byte(1 + rng.IntN(255))
			_ = decodeXOR(mangled, func(int64, uint64) {})
		}
	}
}

// serveRemote answers a remote read of the raw series registered for its
// selector, as f.remote says. The series come in the order registered (a
// store sorts them; the client does not rely on it), each from reused
// buffers: a read of 100,000 series leaves no garbage here that the
// client's heap would be charged with.
func (f *fakeProm) serveRemote(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	mode := f.remote
	f.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	plain, ok := unsnappy(body)
	if !ok {
		f.t.Errorf("a remote read's body is not snappy literals: %x", body)
		http.Error(w, "snappy", http.StatusBadRequest)
		return
	}
	if r.Method != http.MethodPost || r.Header.Get("Content-Encoding") != "snappy" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		f.t.Errorf("a remote read sent as %s, %q, %q", r.Method, r.Header.Get("Content-Type"), r.Header.Get("Content-Encoding"))
	}
	start, end, sel, streamed := parseReadRequest(f.t, plain)
	if !streamed {
		f.t.Errorf("a remote read that does not ask for streamed chunks")
	}
	if f.scope != "" {
		if !strings.Contains(sel, f.scope) {
			f.t.Errorf("a remote read without the cluster's matcher %s: %s", f.scope, sel)
		}
		sel = strings.ReplaceAll(strings.ReplaceAll(sel, ","+f.scope, ""), "{"+f.scope+"}", "")
	}
	hi := time.UnixMilli(end)
	req := fakeRequest{path: r.URL.Path, method: r.Method, selector: sel, time: hi, rng: time.Duration(end-start+1) * time.Millisecond}
	f.mu.Lock()
	f.log = append(f.log, req)
	raws, known := f.raws[sel]
	failure, failed := f.fail[sel]
	f.mu.Unlock()
	switch {
	case mode == remoteAbsent:
		http.NotFound(w, r)
		return
	case failed:
		// What fails through the query API fails here too; the client
		// then asks the query API, which says why.
		w.WriteHeader(max(failure.code, 500))
		return
	case !known:
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	// A store holds one series of a label set; a read through a store
	// that serves two (a Thanos without deduplication) does not come
	// here: Thanos does not serve the API.
	var key []byte
	seen := make(map[uint64]bool, len(raws))
	for _, s := range raws {
		key = appendLabels(key[:0], s.labels)
		h := maphash.Bytes(fakeSeed, key)
		if seen[h] {
			http.NotFound(w, r)
			return
		}
		seen[h] = true
	}
	w.Header().Set("Content-Type", "application/x-streamed-protobuf; proto=prometheus.ChunkedReadResponse")
	var (
		all           []rawPoint
		ts            []int64
		vs            []uint64
		chunks, cs, l []byte
		msg, out, enc []byte
		keys          []string
		inFrame       int
	)
	crc := crc32.MakeTable(crc32.Castagnoli)
	frame := func(labels map[string]string) {
		keys = keys[:0]
		for k := range labels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		cs = cs[:0]
		for _, k := range keys {
			l = l[:0]
			l = protowire.AppendTag(l, 1, protowire.BytesType)
			l = protowire.AppendString(l, k)
			l = protowire.AppendTag(l, 2, protowire.BytesType)
			l = protowire.AppendString(l, labels[k])
			cs = protowire.AppendTag(cs, 1, protowire.BytesType)
			cs = protowire.AppendBytes(cs, l)
		}
		cs = append(cs, chunks...)
		msg = msg[:0]
		msg = protowire.AppendTag(msg, 1, protowire.BytesType)
		msg = protowire.AppendBytes(msg, cs)
		msg = protowire.AppendTag(msg, 2, protowire.VarintType)
		msg = protowire.AppendVarint(msg, 0)
		out = binary.AppendUvarint(out[:0], uint64(len(msg)))
		out = binary.BigEndian.AppendUint32(out, crc32.Checksum(msg, crc))
		_, _ = w.Write(append(out, msg...))
		chunks, inFrame = chunks[:0], 0
		if mode == remoteCut {
			// As Prometheus ends a stream that failed half-way, its
			// answer begun.
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
	}
	for _, s := range raws {
		// The series as a store holds it: in time order, one sample an
		// instant.
		all = all[:0]
		from, to := time.Time{}, time.Unix(1<<40, 0)
		if s.dense && len(s.points) == 0 {
			// The same chunks as the whole series cut in 120s from its
			// first sample, without making the samples of the chunks
			// outside the range (a 100,000-series read asks a few
			// minutes of three hours).
			if d := time.UnixMilli(start).Sub(s.from); d > 0 {
				k := int64(d/s.every) / 120 * 120
				from = s.from.Add(time.Duration(k) * s.every)
			}
			if d := time.UnixMilli(end).Sub(s.from); d >= 0 {
				k := (int64(d/s.every)/120 + 1) * 120
				to = s.from.Add(time.Duration(k)*s.every - 1)
			}
		}
		s.each(from, to, true, func(p rawPoint) { all = append(all, p) })
		if !slices.IsSortedFunc(all, func(a, b rawPoint) int { return a.t.Compare(b.t) }) {
			sort.SliceStable(all, func(i, j int) bool { return all[i].t.Before(all[j].t) })
		}
		all = slices.CompactFunc(all, func(a, b rawPoint) bool { return a.t.Equal(b.t) })
		for i := 0; i < len(all); i += 120 {
			part := all[i:min(i+120, len(all))]
			lo, hi := part[0].t.UnixMilli(), part[len(part)-1].t.UnixMilli()
			if hi < start || lo > end {
				continue
			}
			ts, vs = ts[:0], vs[:0]
			for _, p := range part {
				ts, vs = append(ts, p.t.UnixMilli()), append(vs, math.Float64bits(p.v))
			}
			kind := uint64(1)
			if mode == remoteXOR2 {
				kind = 4
			}
			enc = encodeXOR(enc[:0], ts, vs)
			c := len(chunks)
			chunks = protowire.AppendTag(chunks, 2, protowire.BytesType)
			body := protowire.SizeTag(1) + protowire.SizeVarint(uint64(lo)) + protowire.SizeTag(2) + protowire.SizeVarint(uint64(hi)) +
				protowire.SizeTag(3) + protowire.SizeVarint(kind) + protowire.SizeTag(4) + protowire.SizeBytes(len(enc))
			chunks = protowire.AppendVarint(chunks, uint64(body))
			chunks = protowire.AppendTag(chunks, 1, protowire.VarintType)
			chunks = protowire.AppendVarint(chunks, uint64(lo))
			chunks = protowire.AppendTag(chunks, 2, protowire.VarintType)
			chunks = protowire.AppendVarint(chunks, uint64(hi))
			chunks = protowire.AppendTag(chunks, 3, protowire.VarintType)
			chunks = protowire.AppendVarint(chunks, kind)
			chunks = protowire.AppendTag(chunks, 4, protowire.BytesType)
			chunks = protowire.AppendBytes(chunks, enc)
			if len(chunks)-c != protowire.SizeTag(2)+protowire.SizeBytes(body) {
				f.t.Fatalf("a chunk of %d bytes, sized %d", len(chunks)-c, body)
			}
			inFrame++
			if inFrame == 2 {
				frame(s.labels)
			}
		}
		if inFrame > 0 {
			frame(s.labels)
		}
	}
}

var fakeSeed = maphash.MakeSeed()

// unsnappy reads a snappy block of literals.
func unsnappy(b []byte) ([]byte, bool) {
	n, w := binary.Uvarint(b)
	if w <= 0 {
		return nil, false
	}
	b = b[w:]
	var out []byte
	for len(b) > 0 {
		tag := b[0]
		if tag&3 != 0 {
			return nil, false
		}
		l := int(tag >> 2)
		b = b[1:]
		if l >= 60 {
			k := l - 59
			if len(b) < k {
				return nil, false
			}
			l = 0
			for i := k - 1; i >= 0; i-- {
				l = l<<8 | int(b[i])
			}
			b = b[k:]
		}
		l++
		if len(b) < l {
			return nil, false
		}
		out = append(out, b[:l]...)
		b = b[l:]
	}
	return out, uint64(len(out)) == n
}

// parseReadRequest reads a ReadRequest of one query: its range, its
// matchers as a selector in the queries' own form, and whether it asks
// for streamed chunks.
func parseReadRequest(tb testing.TB, b []byte) (start, end int64, sel string, streamed bool) {
	tb.Helper()
	var name string
	var ms []string
	queries := 0
	err := fields(b, func(num int, v []byte, _ uint64) error {
		switch num {
		case 1:
			queries++
			return fields(v, func(num int, v []byte, x uint64) error {
				switch num {
				case 1:
					start = int64(x)
				case 2:
					end = int64(x)
				case 3:
					var kind uint64
					var n, val string
					if err := fields(v, func(num int, v []byte, x uint64) error {
						switch num {
						case 1:
							kind = x
						case 2:
							n = string(v)
						case 3:
							val = string(v)
						}
						return nil
					}); err != nil {
						return err
					}
					if n == "__name__" && kind == 0 {
						name = val
						return nil
					}
					ms = append(ms, n+[]string{"=", "!=", "=~", "!~"}[kind]+strconv.Quote(val))
				}
				return nil
			})
		case 2:
			for len(v) > 0 {
				x, n := protowire.ConsumeVarint(v)
				if n < 0 {
					return errFrame
				}
				streamed = streamed || x == 1
				v = v[n:]
			}
		}
		return nil
	})
	if err != nil || queries != 1 {
		tb.Errorf("a remote read of %d queries: %v", queries, err)
	}
	return start, end, name + "{" + strings.Join(ms, ",") + "}", streamed
}

// The raw samples read through the remote-read API are the ones the query
// API answers, recording for recording: on random series (counters with
// resets, gaps, NaN and staleness markers, restarts as second series,
// irregular scrapes, other pods'), read in one piece and in chunks, with
// the store at either API. A store that does not serve it (404), a chunk
// of another encoding and a stream cut half-way send the read to the
// query API, whose answer it then is; --prometheus-query-api-only never
// asks.
func TestRemoteReadSameAsQueryAPI(t *testing.T) {
	for seed := range uint64(12) {
		rng := rand.New(rand.NewPCG(seed, 91))
		f, srv, req, q := rawSetup(t, 15*time.Second, 240)
		early := t0.Add(-2 * time.Hour)
		pods := []string{rawPod, rawPod2, "web-5d4f8-zzzzz", "web-api-6b7c8-bbbbb"}
		for _, pod := range pods {
			for _, metric := range []string{metricCPU, metricMemory} {
				restart := rng.IntN(3) == 0
				until := at("2h")
				if restart {
					until = at("50m")
				}
				s := fakeRaw{labels: cadvisor(metric, pod, "app")}
				c := 0.0
				for ts := early.Add(time.Duration(rng.IntN(7200)) * time.Second); ts.Before(until); {
					c += rng.Float64() * 5
					v := c
					switch rng.IntN(200) {
					case 0:
						c = 0 // a reset
					case 1:
						v = math.Float64frombits(staleBits)
					case 2:
						v = math.NaN()
					}
					s.points = append(s.points, rawPoint{ts, v})
					gap := 15*time.Second + time.Duration(rng.IntN(2000)-1000)*time.Millisecond
					if rng.IntN(100) == 0 {
						gap = time.Duration(rng.IntN(30)) * time.Minute
					}
					ts = ts.Add(gap)
				}
				sel := q.rawCPU()
				if metric == metricMemory {
					sel = q.rawMemory()
				}
				f.onRaw(sel, s)
				if restart {
					// A restart: a second series of the container, later.
					again := fakeRaw{labels: cadvisor(metric, pod, "app")}
					again.labels["id"] = "/restarted"
					for ts := at("51m"); ts.Before(at("2h")); ts = ts.Add(15 * time.Second) {
						again.points = append(again.points, rawPoint{ts, ts.Sub(at("51m")).Seconds()})
					}
					f.onRaw(sel, again)
				}
			}
		}
		if seed%2 == 1 {
			req.PointBudget = 300
		}
		read := func(mode fakeRemote, apiOnly bool) (*recording.Recording, int) {
			f.mu.Lock()
			f.remote, f.log = mode, nil
			f.mu.Unlock()
			c := newTestClient(t, srv.URL)
			c.remoteOff.Store(apiOnly)
			rec, err := c.Read(context.Background(), req)
			if err != nil {
				t.Fatalf("seed %d, mode %d: %v", seed, mode, err)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			remote := 0
			for _, r := range f.log {
				if strings.HasSuffix(r.path, "/api/v1/read") {
					remote++
				}
			}
			return rec, remote
		}
		want, none := read(remoteServed, true)
		if none != 0 {
			t.Errorf("seed %d: the query API alone sent %d remote reads", seed, none)
		}
		for _, mode := range []fakeRemote{remoteServed, remoteAbsent, remoteXOR2, remoteCut} {
			got, remote := read(mode, false)
			if remote == 0 {
				t.Errorf("seed %d, mode %d: no remote read", seed, mode)
			}
			if mode != remoteServed && remote > 2 {
				// cpu and memory read at once: each may ask before the
				// other is refused, never again after.
				t.Errorf("seed %d, mode %d: %d remote reads, want at most 2 (then the query API)", seed, mode, remote)
			}
			for _, name := range []string{"cpu", "memory"} {
				a, b := got.Metric(recording.KindResource, name), want.Metric(recording.KindResource, name)
				if !reflect.DeepEqual(a.Raw, b.Raw) || !reflect.DeepEqual(seriesValues(a.PerPod), seriesValues(b.PerPod)) {
					t.Errorf("seed %d, mode %d: %s differs from the query API's", seed, mode, name)
				}
			}
			if !reflect.DeepEqual(got.Sources, want.Sources) || !reflect.DeepEqual(got.Warnings, want.Warnings) {
				t.Errorf("seed %d, mode %d: sources %+v, warnings %v; want %+v, %v", seed, mode, got.Sources, got.Warnings, want.Sources, want.Warnings)
			}
		}
	}
}

// The selectors the queries write parse into the matchers they say, and
// anything else is left to the query API.
func TestParseSelector(t *testing.T) {
	q := queries{ns: "shop", pods: "web-.*", scope: `cluster="eu \"1\""`}
	ms, ok := parseSelector(q.rawCPU())
	want := []labelMatcher{
		{0, "__name__", metricCPU},
		{0, "namespace", "shop"},
		{2, "pod", "web-.*"},
		{0, "cluster", `eu "1"`},
		{1, "container", ""},
		{1, "container", "POD"},
	}
	if !ok || !reflect.DeepEqual(ms, want) {
		t.Errorf("parse %s = %+v %v", q.rawCPU(), ms, ok)
	}
	for _, bad := range []string{"x", "{a=\"b\"}", "x{a=b}", "x{a=\"b\"", "x{a~\"b\"}", "rate(x[5m])", "x{a=\"b\"}[5m]", "x{a=\"b\" or c=\"d\"}"} {
		if ms, ok := parseSelector(bad); ok {
			t.Errorf("parse %s = %+v", bad, ms)
		}
	}
}
