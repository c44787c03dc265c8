// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"fmt"
	"sync"

	corev1 "k8s.io/api/core/v1"
)

// podBoard holds a many-HPA read's pods by namespace while they are read,
// so that the replays of a namespace's HPAs start as soon as its pods are
// all in, while the rest of the list is still on its way.
//
// The API server lists pods in the order of their storage keys
// (namespace/name, compared byte by byte), from etcd and from its watch
// cache alike; its continue tokens rely on it. So once a pod of namespace B
// arrives, every namespace whose key prefix ("A/") sorts before "B/" is
// complete, with or without pods. A pod that breaks the order would mean a
// namespace was handed out incomplete: the board records it (order) for
// the caller to fail with, rather than going on silently.
type podBoard struct {
	mu      sync.Mutex
	changed *sync.Cond
	keep    map[string]bool // the namespaces whose pods are kept
	byNS    map[string][]*corev1.Pod
	current string // the namespace being read
	// floor is where a read that started over from scratch (a fallback)
	// got to: the namespaces before it are complete, and their pods are
	// skipped when read again.
	floor    string
	done     bool
	err      error // the read's error, once done
	orderErr error
}

// before reports whether namespace a's pods all come before namespace b's.
func before(a, b string) bool { return b != "" && a+"/" < b+"/" }

func newPodBoard(keep map[string]bool) *podBoard {
	b := &podBoard{keep: keep, byNS: map[string][]*corev1.Pod{}}
	b.changed = sync.NewCond(&b.mu)
	return b
}

// donePodBoard is a board whose pods are all in (the watch's scope).
func donePodBoard(byNS map[string][]*corev1.Pod, err error) *podBoard {
	b := newPodBoard(nil)
	b.byNS, b.done, b.err = byNS, true, err
	return b
}

// add files a pod (kept only in a namespace of keep) and notices the
// namespaces it completes.
func (b *podBoard) add(p *corev1.Pod) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ns := p.Namespace
	if before(ns, b.floor) {
		return // read before the read started over
	}
	if ns != b.current {
		if before(ns, b.current) && b.orderErr == nil {
			b.orderErr = fmt.Errorf("the API server listed pod %s/%s after the pods of namespace %q, out of namespace order: the HPAs of namespace %q may have been replayed without some of their pods", ns, p.Name, b.current, ns)
		}
		b.current = ns
		b.changed.Broadcast()
	}
	if b.keep[ns] {
		b.byNS[ns] = append(b.byNS[ns], p)
	}
}

// complete reports whether namespace ns's pods are all in.
func (b *podBoard) complete(ns string) bool {
	return (b.done && b.err == nil) || before(ns, b.current) || before(ns, b.floor)
}

// restart forgets the namespace being read when the read starts over from
// scratch; the namespaces complete so far stay as they are.
func (b *podBoard) restart() {
	b.mu.Lock()
	defer b.mu.Unlock()
	// Reading skips what is before the floor, so current is never below it.
	if b.current != "" {
		delete(b.byNS, b.current)
		b.floor = b.current
	}
	b.current = ""
}

// finish ends the read, with its error if it failed.
func (b *podBoard) finish(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done, b.err = true, err
	b.changed.Broadcast()
}

// wait returns the pods of namespace ns once they are all in, or once the
// read ended; err is the read's error when ns was not complete by then.
func (b *podBoard) wait(ns string) (pods []*corev1.Pod, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for !b.complete(ns) && !b.done {
		b.changed.Wait()
	}
	if !b.complete(ns) {
		err = b.err
	}
	return b.byNS[ns], err
}

// order reports a pod that came after its namespace was complete.
func (b *podBoard) order() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.orderErr
}
