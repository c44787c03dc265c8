// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package fleet

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// MaxShards bounds a shard's count: an Indexed Job's completions.
const MaxShards = 10000

// ParseShard reads INDEX/COUNT (0 ≤ INDEX < COUNT ≤ MaxShards).
func ParseShard(s string) (explain.FleetShard, error) {
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || count < 1 || count > MaxShards || index < 0 || index >= count {
		return explain.FleetShard{}, fmt.Errorf("%q: want INDEX/COUNT with 0 ≤ INDEX < COUNT ≤ %d, such as 0/4 (an Indexed Job's $(JOB_COMPLETION_INDEX)/4)", s, MaxShards)
	}
	return explain.FleetShard{Index: index, Count: count}, nil
}

// InShard reports whether the HPA namespace/name of context belongs to
// shard sh: the first 8 bytes of the SHA-256 of its context, namespace
// and name, modulo the count, are the index. (FNV's low bits follow the
// parity of the bytes: "east" and "west" put every name in the same one
// of two shards.) The same HPA lands in the same shard on every
// machine and at every run; a hash spreads the HPAs evenly, whatever
// their names.
func InShard(sh explain.FleetShard, context, namespace, name string) bool {
	if sh.Count <= 1 {
		return true
	}
	h := sha256.Sum256([]byte(context + "\x00" + namespace + "\x00" + name))
	return int(binary.BigEndian.Uint64(h[:8])%uint64(sh.Count)) == sh.Index
}

// Merge turns the documents of every shard of one run into the document
// that run would have printed in one process: the same period, bound and
// notes, every shard once, the items ranked and summed up again.
func Merge(docs []*explain.TuneFleet) (*explain.TuneFleet, error) {
	if len(docs) == 0 {
		return nil, errors.New("nothing to merge")
	}
	first := docs[0]
	count := 1
	if first.Shard != nil {
		count = first.Shard.Count
	}
	seen := make([]bool, count)
	var items []explain.FleetItem
	// An HPA is its context's, namespace's and name's; a context that
	// failed is a row of every shard (it failed before the split), kept
	// once.
	type key struct {
		context string
		hpa     explain.ObjectRef
	}
	names := map[key]bool{}
	for i, d := range docs {
		switch {
		case d.Kind != explain.KindTuneFleet:
			return nil, fmt.Errorf("document %d is a %q, not a %s", i+1, d.Kind, explain.KindTuneFleet)
		case d.Shard == nil && len(docs) > 1:
			return nil, fmt.Errorf("document %d is no shard's (it has no shard field): a merge joins the documents of one run's shards", i+1)
		case d.Shard != nil && d.Shard.Count != count:
			return nil, fmt.Errorf("document %d is shard %d/%d, the first %d/%d: the shards of one run share their count", i+1, d.Shard.Index, d.Shard.Count, first.Shard.Index, count)
		case !d.Start.Equal(first.Start) || !d.End.Equal(first.End) || d.MinFidelity != first.MinFidelity || !slices.Equal(d.Notes, first.Notes):
			return nil, fmt.Errorf("document %d was tuned over another period or with other options than the first (%s to %s): the shards of one run share them", i+1, first.Start.Format("2006-01-02T15:04:05Z07:00"), first.End.Format("2006-01-02T15:04:05Z07:00"))
		}
		if d.Shard != nil {
			if seen[d.Shard.Index] {
				return nil, fmt.Errorf("shard %d/%d is given twice", d.Shard.Index, count)
			}
			seen[d.Shard.Index] = true
		}
		for _, it := range d.Items {
			k := key{it.Context, it.HPA}
			if names[k] {
				if it.HPA == (explain.ObjectRef{}) {
					continue
				}
				return nil, fmt.Errorf("HPA %s/%s%s is in two documents", it.HPA.Namespace, it.HPA.Name, contextWords(it.Context))
			}
			names[k] = true
			items = append(items, it)
		}
	}
	var missing []string
	for i, ok := range seen {
		if !ok && first.Shard != nil {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("shards %s of %d are missing: a merge needs every shard's document", strings.Join(missing, ", "), count)
	}
	return Document(items, first.Start, first.End, first.MinFidelity, first.Notes), nil
}

// contextWords names a context in a message ("": none).
func contextWords(context string) string {
	if context == "" {
		return ""
	}
	return " of context " + context
}
