// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package fleet

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

func TestParseShard(t *testing.T) {
	for in, want := range map[string]explain.FleetShard{"0/1": {Index: 0, Count: 1}, "3/4": {Index: 3, Count: 4}, "2/10": {Index: 2, Count: 10}} {
		if got, err := ParseShard(in); err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "4/4", "-1/4", "1", "a/b", "0/0", "0/10001", "1/2/3"} {
		if _, err := ParseShard(bad); err == nil || !strings.Contains(err.Error(), "want INDEX/COUNT") {
			t.Errorf("ParseShard(%q): %v, want an error", bad, err)
		}
	}
}

// Every HPA is in exactly one shard, and the shards are near even.
func TestInShard(t *testing.T) {
	const n, count = 2000, 4
	sizes := make([]int, count)
	for i := range n {
		in := 0
		for s := range count {
			if InShard(explain.FleetShard{Index: s, Count: count}, "prod", fmt.Sprintf("ns-%d", i%37), fmt.Sprintf("web-%d", i)) {
				in++
				sizes[s]++
			}
		}
		if in != 1 {
			t.Fatalf("HPA %d is in %d shards", i, in)
		}
	}
	for s, size := range sizes {
		// 500 expected, sd about 19: 5 sd either way.
		if size < 400 || size > 600 {
			t.Errorf("shard %d holds %d of %d HPAs: %v", s, size, n, sizes)
		}
	}
	// The context is part of the key: two clusters' web split apart.
	a, b := 0, 0
	for i := range 200 {
		name := fmt.Sprintf("web-%d", i)
		if InShard(explain.FleetShard{Index: 0, Count: 2}, "east", "shop", name) {
			a++
		}
		if InShard(explain.FleetShard{Index: 0, Count: 2}, "east", "shop", name) != InShard(explain.FleetShard{Index: 0, Count: 2}, "west", "shop", name) {
			b++
		}
	}
	if a == 0 || a == 200 || b == 0 {
		t.Errorf("shard 0 of 2 holds %d of 200; %d change shard with the context", a, b)
	}
}

// Split by shard and merged, a run's document is itself again.
func TestMerge(t *testing.T) {
	bt := backtest(curve("replay", 0, 2, 100, 3, 500, 2))
	var items []explain.FleetItem
	for i := range 23 {
		items = append(items, Item(tuned(fmt.Sprintf("ns-%d/web-%d", i%3, i), 0.01*float64(i%7), []string{"core-hours", "pod-hours"}[i%2]), bt, nil, DefaultMinFidelity))
	}
	items = append(items, Failed(explain.ObjectRef{Namespace: "x", Name: "broken"}, fmt.Errorf("no recording")))
	// The same HPA in another context is another HPA.
	other := items[0]
	other.Context = "prod-us"
	items = append(items, other)
	// A context that could not be read is a row of every shard.
	down := FailedContext("staging", fmt.Errorf("connection refused"))
	items = append(items, down)
	notes := []string{"a note"}
	start, end := t0, t0.Add(24*time.Hour)
	whole := Document(items, start, end, DefaultMinFidelity, notes)
	const count = 3
	var shards []*explain.TuneFleet
	for s := range count {
		sh := explain.FleetShard{Index: s, Count: count}
		var mine []explain.FleetItem
		for _, it := range items {
			if it.HPA == (explain.ObjectRef{}) || InShard(sh, it.Context, it.HPA.Namespace, it.HPA.Name) {
				mine = append(mine, it)
			}
		}
		d := Document(mine, start, end, DefaultMinFidelity, notes)
		d.Shard = &sh
		shards = append(shards, d)
	}
	// In any order.
	merged, err := Merge([]*explain.TuneFleet{shards[2], shards[0], shards[1]})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := jsonOf(t, merged), jsonOf(t, whole); g != w {
		t.Errorf("merged:\n%s\nwant\n%s", g, w)
	}

	for _, c := range []struct {
		name string
		docs []*explain.TuneFleet
		want string
	}{
		{"a shard missing", shards[:2], "shards 2 of 3 are missing"},
		{"a shard twice", []*explain.TuneFleet{shards[0], shards[1], shards[2], shards[0]}, "is given twice"},
		{"no shard", []*explain.TuneFleet{whole, shards[0]}, "document 1 is no shard's"},
		{"another period", []*explain.TuneFleet{shards[0], withEnd(shards[1], end.Add(time.Hour)), shards[2]}, "document 2 was tuned over another period"},
		{"another count", []*explain.TuneFleet{shards[0], withShard(shards[1], 1, 4)}, "shards of one run share their count"},
		{"not a fleet", []*explain.TuneFleet{{Kind: explain.KindTune}}, `is a "Tune", not a TuneFleet`},
		{"nothing", nil, "nothing to merge"},
	} {
		if _, err := Merge(c.docs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// One document of one process merges to itself.
	if one, err := Merge([]*explain.TuneFleet{whole}); err != nil || jsonOf(t, one) != jsonOf(t, whole) {
		t.Errorf("a whole run merged alone: %v", err)
	}
}

func withEnd(d *explain.TuneFleet, end time.Time) *explain.TuneFleet {
	c := *d
	c.End = end
	return &c
}

func withShard(d *explain.TuneFleet, i, n int) *explain.TuneFleet {
	c := *d
	c.Shard = &explain.FleetShard{Index: i, Count: n}
	return &c
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
