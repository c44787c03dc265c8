// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"encoding/binary"
	"errors"
	"math"
)

// The float chunks Prometheus stores and its remote-read API streams
// (encoding XOR; the layout is tsdb/docs/format/chunks.md of Prometheus's
// repository, the Gorilla paper's): a big-endian count of samples, the
// first timestamp as a signed varint and the first value's 64 bits, the
// second timestamp as an unsigned varint delta and its value as the XOR
// with the one before; from the third on, bit-packed, each timestamp as
// the difference between its delta and the one before (a prefix of up to
// four bits saying how wide it is) and each value as the XOR with the one
// before (nothing but a bit where equal; else the meaningful bits, in the
// window of leading and trailing zeros the value before used, or in a new
// one given by 5 + 6 bits).

// staleBits are the bits of the NaN Prometheus writes as a staleness
// marker: PromQL never returns it in a range vector.
const staleBits = 0x7ff0000000000002

var errChunk = errors.New("a chunk does not decode as Prometheus's XOR encoding")

// chunkBits reads a chunk's bits, the most significant first.
type chunkBits struct {
	b   []byte
	pos int // in bits
}

// read returns the next n bits (n ≤ 64), false past the end.
func (r *chunkBits) read(n int) (uint64, bool) {
	if r.pos+n > len(r.b)*8 {
		return 0, false
	}
	var v uint64
	for n > 0 {
		off := r.pos & 7
		take := min(8-off, n)
		v = v<<take | uint64(r.b[r.pos>>3]>>(8-off-take))&(1<<take-1)
		r.pos += take
		n -= take
	}
	return v, true
}

// ones counts the 1 bits before the next 0, reading at most limit; the 0
// is read too.
func (r *chunkBits) ones(limit int) (int, bool) {
	n := 0
	for n < limit {
		b, ok := r.read(1)
		if !ok {
			return 0, false
		}
		if b == 0 {
			return n, true
		}
		n++
	}
	return n, true
}

// decodeXOR calls fn with each sample of an XOR chunk: its time in
// milliseconds and its value's bits, in the chunk's order.
func decodeXOR(data []byte, fn func(ms int64, bits uint64)) error {
	if len(data) < 2 {
		return errChunk
	}
	n := int(binary.BigEndian.Uint16(data))
	if n == 0 {
		return nil
	}
	p := data[2:]
	t, w := binary.Varint(p)
	if w <= 0 || len(p) < w+8 {
		return errChunk
	}
	v := binary.BigEndian.Uint64(p[w:])
	fn(t, v)
	if n == 1 {
		return nil
	}
	p = p[w+8:]
	d, w := binary.Uvarint(p)
	if w <= 0 || d > math.MaxInt64 {
		return errChunk
	}
	delta := int64(d)
	t += delta
	r := chunkBits{b: p[w:]}
	// lead and trail are the XOR window the last value used (lead -1:
	// none yet).
	lead, trail := -1, 0
	value := func() bool {
		same, ok := r.read(1)
		if !ok {
			return false
		}
		if same == 0 {
			return true
		}
		reuse, ok := r.read(1)
		if !ok {
			return false
		}
		if reuse == 1 {
			l, ok1 := r.read(5)
			s, ok2 := r.read(6)
			if !ok1 || !ok2 {
				return false
			}
			if s == 0 {
				s = 64
			}
			lead, trail = int(l), 64-int(l)-int(s)
			if trail < 0 {
				return false
			}
		} else if lead < 0 {
			return false
		}
		x, ok := r.read(64 - lead - trail)
		if !ok {
			return false
		}
		v ^= x << trail
		return true
	}
	if !value() {
		return errChunk
	}
	fn(t, v)
	for i := 2; i < n; i++ {
		prefix, ok := r.ones(4)
		if !ok {
			return errChunk
		}
		var dod int64
		if prefix > 0 {
			width := [...]int{0, 14, 17, 20, 64}[prefix]
			x, ok := r.read(width)
			if !ok {
				return errChunk
			}
			dod = int64(x)
			// A narrow field holds -(2^(w-1) - 1) to 2^(w-1): above
			// half its range it is negative.
			if width < 64 && x > 1<<(width-1) {
				dod = int64(x) - 1<<width
			}
		}
		delta += dod
		t += delta
		if !value() {
			return errChunk
		}
		fn(t, v)
	}
	return nil
}
