// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/common/model"
	"google.golang.org/protobuf/encoding/protowire"
)

// The raw samples through Prometheus's remote-read API (POST
// /api/v1/read, the streamed XOR chunks response): the store sends the
// chunks it holds as they are, where the query API decodes every sample,
// evaluates the range selector and writes each one as JSON text, which the
// client then parses back. For the raw counters (a sample of every
// container at every scrape) that was most of a read's time on both
// sides. The answer is the same samples: those of the selector's series
// after t−rng and at or before t (a range selector's, Prometheus 3's left-open
// range), less the staleness markers, which PromQL leaves out of a range
// vector too; a series is counted where the query API would list it, at its
// first such sample.
//
// A store that does not serve it (Thanos Query, VictoriaMetrics, an old
// Prometheus, a proxy that refuses the POST, a chunk of another encoding)
// answers otherwise: the read then starts again through the query API,
// and the client uses that from then on. --prometheus-query-api-only
// never tries it.

// remoteReadFrame bounds one frame of the answer (Prometheus sends at most
// --storage.remote.read-max-bytes-in-frame, 1 MiB by default, plus a
// chunk).
const remoteReadFrame = 64 << 20

// errRemoteRefused wraps why a remote read could not serve: the read goes
// on through the query API.
type remoteRefusedError struct{ err error }

func (e *remoteRefusedError) Error() string { return "remote read: " + e.err.Error() }
func (e *remoteRefusedError) Unwrap() error { return e.err }

func refused(format string, a ...any) error {
	return &remoteRefusedError{err: fmt.Errorf(format, a...)}
}

// labelMatcher is one matcher of a selector, as the remote-read API takes
// it (kind: 0 =, 1 !=, 2 =~, 3 !~).
type labelMatcher struct {
	kind        int
	name, value string
}

// parseSelector splits a selector as the queries write it
// (metric{name="value",name=~"re",...}, values quoted by strconv.Quote)
// into its matchers, the metric's name first; false for anything else.
func parseSelector(sel string) ([]labelMatcher, bool) {
	open := strings.IndexByte(sel, '{')
	if open <= 0 || !strings.HasSuffix(sel, "}") {
		return nil, false
	}
	out := []labelMatcher{{kind: 0, name: model.MetricNameLabel, value: sel[:open]}}
	if !model.LegacyValidation.IsValidMetricName(out[0].value) {
		return nil, false
	}
	rest := sel[open+1 : len(sel)-1]
	for rest != "" {
		i := strings.IndexAny(rest, "=!")
		if i <= 0 {
			return nil, false
		}
		m := labelMatcher{name: rest[:i]}
		if !labelName.MatchString(m.name) {
			return nil, false
		}
		rest = rest[i:]
		switch {
		case strings.HasPrefix(rest, "=~"):
			m.kind, rest = 2, rest[2:]
		case strings.HasPrefix(rest, "!~"):
			m.kind, rest = 3, rest[2:]
		case strings.HasPrefix(rest, "!="):
			m.kind, rest = 1, rest[2:]
		case strings.HasPrefix(rest, "="):
			m.kind, rest = 0, rest[1:]
		default:
			return nil, false
		}
		q, err := strconv.QuotedPrefix(rest)
		if err != nil || q[0] != '"' {
			return nil, false
		}
		if m.value, err = strconv.Unquote(q); err != nil {
			return nil, false
		}
		out = append(out, m)
		rest = rest[len(q):]
		if rest != "" {
			if rest[0] != ',' {
				return nil, false
			}
			rest = rest[1:]
		}
	}
	return out, true
}

// readRequest is the body of a remote read of the matchers' series over
// [startMs, endMs]: a ReadRequest (prompb) asking for streamed XOR chunks,
// snappy-framed.
func readRequest(startMs, endMs int64, ms []labelMatcher) []byte {
	var q []byte
	q = protowire.AppendTag(q, 1, protowire.VarintType)
	q = protowire.AppendVarint(q, uint64(startMs))
	q = protowire.AppendTag(q, 2, protowire.VarintType)
	q = protowire.AppendVarint(q, uint64(endMs))
	for _, m := range ms {
		var b []byte
		if m.kind != 0 {
			b = protowire.AppendTag(b, 1, protowire.VarintType)
			b = protowire.AppendVarint(b, uint64(m.kind))
		}
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendString(b, m.name)
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendString(b, m.value)
		q = protowire.AppendTag(q, 3, protowire.BytesType)
		q = protowire.AppendBytes(q, b)
	}
	var req []byte
	req = protowire.AppendTag(req, 1, protowire.BytesType)
	req = protowire.AppendBytes(req, q)
	// accepted_response_types: STREAMED_XOR_CHUNKS (1), packed.
	req = protowire.AppendTag(req, 2, protowire.BytesType)
	req = protowire.AppendBytes(req, protowire.AppendVarint(nil, 1))
	return snappyLiterals(req)
}

// snappyLiterals is b in snappy's block format, uncompressed: its length,
// then b as literals (a request is a few hundred bytes; the format is
// what the API requires, not a saving).
func snappyLiterals(b []byte) []byte {
	out := binary.AppendUvarint(nil, uint64(len(b)))
	for len(b) > 0 {
		n := min(len(b), 1<<16)
		switch m := n - 1; {
		case m < 60:
			out = append(out, byte(m)<<2)
		case m < 1<<8:
			out = append(out, 60<<2, byte(m))
		default:
			out = append(out, 61<<2, byte(m), byte(m>>8))
		}
		out = append(out, b[:n]...)
		b = b[n:]
	}
	return out
}

// remoteRaw reads selector[rng] at t through the remote-read API, each
// series streamed into fold as queryRaw does. It returns the series
// count; a remoteRefusedError when the API did not serve it.
func (c *Client) remoteRaw(ctx context.Context, what, selector string, rng time.Duration, t time.Time, fold func(model.Metric) func(model.Time, float64)) (int, error) {
	ms, ok := parseSelector(selector)
	if !ok {
		return 0, refused("the selector %s is not a plain one", selector)
	}
	hi := t.UnixMilli()
	lo := hi - rng.Milliseconds()
	rctx, cancel := c.reqContext(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, c.raw.URL("/api/v1/read", nil).String(), bytes.NewReader(readRequest(lo+1, hi, ms)))
	if err != nil {
		return 0, refused("%w", err)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("Content-Encoding", "snappy")
	req.Header.Set("X-Prometheus-Remote-Read-Version", "0.1.0")
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, &QueryError{Endpoint: c.endpoint.String(), What: what, Query: rawQuery(selector, rng), Err: c.explain(ctx, err)}
		}
		return 0, refused("%w", err)
	}
	defer func() {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, streamBuffer))
		_ = resp.Body.Close()
	}()
	if resp.StatusCode/100 != 2 {
		return 0, refused("the answer's status is %d", resp.StatusCode)
	}
	ct, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if ct != "application/x-streamed-protobuf" || params["proto"] != "prometheus.ChunkedReadResponse" {
		return 0, refused("the answer is %q, not streamed chunks", resp.Header.Get("Content-Type"))
	}
	n, err := decodeChunked(bufio.NewReaderSize(resp.Body, streamBuffer), lo, hi, fold)
	switch {
	case err == nil:
		return n, nil
	case ctx.Err() != nil:
		return 0, &QueryError{Endpoint: c.endpoint.String(), What: what, Query: rawQuery(selector, rng), Err: c.explain(ctx, ctx.Err())}
	}
	// A stream cut half-way (a server that failed while answering), or
	// one that does not decode: the query API says what is wrong, if
	// anything still is.
	var r *remoteRefusedError
	if !errors.As(err, &r) {
		err = &remoteRefusedError{err: err}
	}
	return 0, err
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// chunkedSeries is the series being decoded: its labels as they came
// (the key), whether a sample of it was in the range (counted), its sink
// and the time of its last sample passed on.
type chunkedSeries struct {
	key     []byte
	counted bool
	metric  model.Metric
	sink    func(model.Time, float64)
	lastMs  int64
}

// decodeChunked reads the frames of a streamed answer (each a uvarint
// length, a CRC-32C and a ChunkedReadResponse) and passes the samples
// after lo and at or before hi into fold. One series may come in several
// frames, one after the other.
func decodeChunked(r *bufio.Reader, lo, hi int64, fold func(model.Metric) func(model.Time, float64)) (int, error) {
	var (
		cur    chunkedSeries
		series int
		buf    []byte
	)
	emit := func(ms int64, bits uint64) {
		if ms <= lo || ms > hi || ms <= cur.lastMs || bits == staleBits {
			return
		}
		cur.lastMs = ms
		if !cur.counted {
			cur.counted = true
			series++
			if fold != nil {
				cur.sink = fold(cur.metric)
			}
		}
		if cur.sink != nil {
			cur.sink(model.Time(ms), math.Float64frombits(bits))
		}
	}
	for {
		size, err := binary.ReadUvarint(r)
		if errors.Is(err, io.EOF) {
			return series, nil
		}
		if err != nil {
			return 0, fmt.Errorf("read the answer: %w", unexpected(err))
		}
		if size > remoteReadFrame {
			return 0, refused("a frame of %d bytes", size)
		}
		var sum [4]byte
		if _, err := io.ReadFull(r, sum[:]); err != nil {
			return 0, fmt.Errorf("read the answer: %w", unexpected(err))
		}
		if uint64(cap(buf)) < size {
			buf = make([]byte, size)
		}
		buf = buf[:size]
		if _, err := io.ReadFull(r, buf); err != nil {
			return 0, fmt.Errorf("read the answer: %w", unexpected(err))
		}
		if crc32.Checksum(buf, castagnoli) != binary.BigEndian.Uint32(sum[:]) {
			return 0, refused("a frame's checksum does not match")
		}
		if err := decodeFrame(buf, lo, hi, &cur, emit); err != nil {
			return 0, err
		}
	}
}

// unexpected is an EOF within a frame: the answer was cut (Prometheus
// aborts a stream that failed half-way).
func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

var errFrame = refused("a frame does not decode as a ChunkedReadResponse")

// decodeFrame decodes one ChunkedReadResponse: its series (labels = 1,
// chunks = 2), each chunk (min_time_ms = 1, max_time_ms = 2, type = 3,
// data = 4) that may hold samples after lo and at or before hi decoded
// into emit.
func decodeFrame(b []byte, lo, hi int64, cur *chunkedSeries, emit func(int64, uint64)) error {
	return fields(b, func(num int, v []byte, _ uint64) error {
		if num != 1 {
			return nil // query_index: one query a request
		}
		// One ChunkedSeries: the labels come first.
		var key []byte
		var chunks [][]byte
		err := fields(v, func(num int, v []byte, _ uint64) error {
			switch num {
			case 1:
				key = protowire.AppendBytes(key, v)
			case 2:
				chunks = append(chunks, v)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if !bytes.Equal(key, cur.key) || cur.key == nil {
			m, err := labelsOf(key)
			if err != nil {
				return err
			}
			*cur = chunkedSeries{key: append(cur.key[:0], key...), metric: m, lastMs: math.MinInt64}
		}
		for _, ch := range chunks {
			var minMs, maxMs int64
			var kind uint64
			var data []byte
			err := fields(ch, func(num int, v []byte, x uint64) error {
				switch num {
				case 1:
					minMs = int64(x)
				case 2:
					maxMs = int64(x)
				case 3:
					kind = x
				case 4:
					data = v
				}
				return nil
			})
			if err != nil {
				return err
			}
			if maxMs <= lo || minMs > hi {
				continue
			}
			if kind != 1 {
				return refused("a chunk of encoding %d, not XOR", kind)
			}
			if err := decodeXOR(data, emit); err != nil {
				return refused("%w", err)
			}
		}
		return nil
	})
}

// labelsOf reads the labels of a series, each a length-prefixed Label
// (name = 1, value = 2) as decodeFrame keeps them.
func labelsOf(key []byte) (model.Metric, error) {
	m := model.Metric{}
	for len(key) > 0 {
		v, n := protowire.ConsumeBytes(key)
		if n < 0 {
			return nil, errFrame
		}
		key = key[n:]
		var name, value string
		err := fields(v, func(num int, v []byte, _ uint64) error {
			switch num {
			case 1:
				name = string(v)
			case 2:
				value = string(v)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		m[model.LabelName(name)] = model.LabelValue(value)
	}
	return m, nil
}

// fields calls fn with each field of a protobuf message: its number and
// its value (the bytes of a length-delimited one, else the varint).
func fields(b []byte, fn func(num int, v []byte, x uint64) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return errFrame
		}
		b = b[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return errFrame
		}
		b = b[n:]
		if err := fn(int(num), v, x); err != nil {
			return err
		}
	}
	return nil
}
