// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"math"
	"time"
)

// The jobs and instances of the local cluster's Prometheus
// (hack/cluster/config/prometheus.yaml): the kubelet-resource job scrapes
// each simulated node's /metrics/resource, its instance and node labels the
// node's name; the state-metrics job scrapes the kube-state-metrics series
// our adapter serves (honor_labels, one static target).
const (
	kubeletJob  = "kubelet-resource"
	ksmJob      = "state-metrics"
	ksmInstance = "127.0.0.1:6446"
	// nameAlphabet is the alphabet of the API server's generated names
	// (no vowels), which pkg/prom recognises a ReplicaSet's pods by.
	nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"
	container    = "app"
)

// workload is the benchmark's Deployment: its pods, where they run and
// their load, and the span and scrape intervals of its series.
type workload struct {
	// id tells the workloads of a fleet apart (their UIDs); 0 for one.
	id              uint64
	namespace, name string
	hash            string // the pod-template-hash
	replicaSet      string
	pods            []benchPod
	nodes           int
	// start and end bound the series; kubelet and ksm are the scrape
	// intervals of the two jobs.
	start, end   time.Time
	kubelet, ksm time.Duration
	// requestCPU is each pod's CPU request in millicores, requestMemory
	// its memory request in bytes.
	requestCPU, requestMemory int64
	// minReplicas and target are the HPA's (its cpu utilization target).
	minReplicas, target int32
	// level is a pod's mean CPU usage in cores; amplitude how far the
	// daily cycle takes it either way (a share of it).
	level, amplitude float64
}

// benchPod is one pod of the workload, alive over the whole span.
type benchPod struct {
	name, uid, node  string
	nodeIndex        int
	created, started time.Time
}

func newWorkload(id uint64, namespace, name string, pods, nodes int, start, end time.Time, kubelet, ksm time.Duration) *workload {
	w := &workload{
		id: id, namespace: namespace, name: name, hash: "6b4f8d7c5", nodes: nodes,
		start: start, end: end, kubelet: kubelet, ksm: ksm,
		requestCPU: 500, requestMemory: 256 << 20,
		minReplicas: 10, target: 60,
		level: 0.27, amplitude: 0.35,
	}
	w.replicaSet = name + "-" + w.hash
	seen := map[string]bool{}
	for i := 0; len(w.pods) < pods; i++ {
		var suffix [5]byte
		for j := range suffix {
			suffix[j] = nameAlphabet[mix(7, uint64(i), uint64(j))%uint64(len(nameAlphabet))]
		}
		pod := w.replicaSet + "-" + string(suffix[:])
		if seen[pod] {
			continue
		}
		seen[pod] = true
		n := len(w.pods)
		// Created an hour before the series begin, started two seconds
		// after; a fleet's workloads start on different nodes.
		created := start.Add(-time.Hour).Truncate(time.Second)
		node := (n + int(id)*7) % nodes
		w.pods = append(w.pods, benchPod{
			name: pod, uid: w.uid(uint64(n)), node: nodeName(node), nodeIndex: node,
			created: created, started: created.Add(2 * time.Second),
		})
	}
	return w
}

// uid is the UID of the workload's n-th object (its pods first): those of
// a fleet's workloads differ, a lone workload's are uid(n).
func (w *workload) uid(n uint64) string { return uid(w.id<<32 | n) }

// uid is a version-4-shaped UUID made from n.
func uid(n uint64) string {
	a, b := mix(11, n, 0), mix(11, n, 1)
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", uint32(a>>32), uint16(a>>16), uint16(a)&0xfff, uint16(b>>48)&0xfff, b&0xffffffffffff)
}

// mix hashes its arguments into 64 well-spread bits (a splitmix64 round
// per argument): the deterministic randomness of the series.
func mix(a, b, c uint64) uint64 {
	x := a*0x9e3779b97f4a7c15 ^ b*0xbf58476d1ce4e5b9 ^ c*0x94d049bb133111eb
	for range 2 {
		x += 0x9e3779b97f4a7c15
		x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
		x = (x ^ x>>27) * 0x94d049bb133111eb
		x ^= x >> 31
	}
	return x
}

// noise is a deterministic value in [-1, 1) for (stream, series, k).
func noise(stream, series, k uint64) float64 {
	return float64(mix(stream, series, k)>>11)/float64(1<<52) - 1
}

// cycle is the daily load cycle at t, about 1 on average: lowest at
// midnight UTC (1 - amplitude: 0.65 for a lone workload), highest at noon,
// a fifth lower on Saturdays and Sundays.
func (w *workload) cycle(t time.Time) float64 {
	day := float64(t.Unix()%86400) / 86400
	c := 1 + w.amplitude*math.Sin(2*math.Pi*(day-0.25))
	if wd := t.Weekday(); wd == time.Saturday || wd == time.Sunday {
		c *= 0.8
	}
	return c
}

// cpuAt is pod i's CPU usage in cores at its k-th scrape, at t: the
// level on average (270m, 54% of its 500m request, for a lone workload),
// on the daily cycle, each pod up to 10% apart from the mean, with ±8% of
// noise per scrape.
func (w *workload) cpuAt(i int, t time.Time, k int64) float64 {
	skew := 0.9 + 0.2*float64(i)/float64(max(1, len(w.pods)-1))
	return w.level * w.cycle(t) * skew * (1 + 0.08*noise(1, uint64(i), uint64(k)))
}

// memoryAt is pod i's working set in bytes at its k-th scrape: 170 MiB on
// average, 25 MiB more or less with the load, ±2 MiB of noise.
func (w *workload) memoryAt(i int, t time.Time, k int64) float64 {
	v := float64(170<<20) + float64(50<<20)*(w.cycle(t)-1)/0.7 + float64(i<<16) + float64(2<<20)*noise(2, uint64(i), uint64(k))
	return math.Round(v)
}

// target is one scrape target: its scrapes are interval apart, offset
// within the interval, each a few milliseconds late (as Prometheus's
// scrapes of one target are).
type target struct {
	id       uint64
	interval time.Duration
	offset   time.Duration
}

func (w *workload) nodeTarget(n int) target {
	off := time.Duration(211+1733*n) * time.Millisecond % w.kubelet
	return target{id: uint64(100 + n), interval: w.kubelet, offset: off}
}

func (w *workload) ksmTarget() target {
	return target{id: 99, interval: w.ksm, offset: 1300 * time.Millisecond % w.ksm}
}

// scrapes returns the index and time (Unix ms) of every scrape of tg in
// [from, to) that falls within the series' span.
func (w *workload) scrapes(tg target, from, to int64) (ks, ms []int64) {
	iv := tg.interval.Milliseconds()
	base := w.start.UnixMilli()/iv*iv + tg.offset.Milliseconds()
	lo, hi := max(from, w.start.UnixMilli()), min(to, w.end.UnixMilli()+1)
	k := max(0, (lo-base)/iv-1)
	for ; ; k++ {
		t := base + k*iv + int64(mix(3, tg.id, uint64(k))%5)
		if t >= hi {
			break
		}
		if t >= lo {
			ks, ms = append(ks, k), append(ms, t)
		}
	}
	return ks, ms
}
