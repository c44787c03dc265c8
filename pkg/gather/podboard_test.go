// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func boardPod(ns, name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

func names(pods []*corev1.Pod) string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return strings.Join(out, ",")
}

// A namespace is complete once the list has gone past its key prefix: in
// storage-key order "a-b/" sorts before "a/", and a namespace without pods
// ("a-c") is complete once a later one starts.
func TestPodBoardCompletes(t *testing.T) {
	b := newPodBoard(map[string]bool{"a": true, "a-b": true, "a-c": true, "z": true})
	if b.complete("a-b") {
		t.Fatal("complete before any pod")
	}
	b.add(boardPod("a-b", "1"))
	b.add(boardPod("a-b", "2"))
	if b.complete("a-b") || b.complete("a-c") {
		t.Fatal("a-b or a-c complete while a-b is read")
	}
	b.add(boardPod("a", "3"))
	if !b.complete("a-b") || !b.complete("a-c") || b.complete("a") || b.complete("z") {
		t.Errorf("after the first pod of a: a-b %t a-c %t a %t z %t", b.complete("a-b"), b.complete("a-c"), b.complete("a"), b.complete("z"))
	}
	if pods, err := b.wait("a-b"); err != nil || names(pods) != "1,2" {
		t.Errorf("a-b: %s, %v", names(pods), err)
	}
	b.add(boardPod("other", "4")) // not kept
	b.finish(nil)
	if pods, err := b.wait("a"); err != nil || names(pods) != "3" {
		t.Errorf("a: %s, %v", names(pods), err)
	}
	if pods, err := b.wait("z"); err != nil || len(pods) != 0 {
		t.Errorf("z: %s, %v", names(pods), err)
	}
	if b.order() != nil {
		t.Errorf("order: %v", b.order())
	}
}

// A pod of a namespace the list has gone past is an order error.
func TestPodBoardOutOfOrder(t *testing.T) {
	b := newPodBoard(map[string]bool{"a": true, "b": true})
	b.add(boardPod("a", "1"))
	b.add(boardPod("b", "2"))
	b.add(boardPod("a", "3"))
	if err := b.order(); err == nil || !strings.Contains(err.Error(), "a/3") {
		t.Errorf("order: %v", err)
	}
}

// A read that fails leaves the namespaces it completed as they are, and
// the others with its error.
func TestPodBoardFailed(t *testing.T) {
	b := newPodBoard(map[string]bool{"a": true, "b": true, "c": true})
	b.add(boardPod("a", "1"))
	b.add(boardPod("b", "2"))
	failed := errors.New("connection reset")
	b.finish(failed)
	if pods, err := b.wait("a"); err != nil || names(pods) != "1" {
		t.Errorf("a: %s, %v", names(pods), err)
	}
	for _, ns := range []string{"b", "c"} {
		if _, err := b.wait(ns); !errors.Is(err, failed) {
			t.Errorf("%s: %v, want the read's error", ns, err)
		}
	}
}

// A read that starts over keeps the namespaces completed, skips them when
// read again, and reads the one it was in again from its first pod.
func TestPodBoardRestart(t *testing.T) {
	b := newPodBoard(map[string]bool{"a": true, "b": true, "c": true})
	b.add(boardPod("a", "1"))
	b.add(boardPod("b", "2"))
	b.restart()
	if !b.complete("a") || b.complete("b") {
		t.Fatalf("after the restart: a %t b %t", b.complete("a"), b.complete("b"))
	}
	for _, p := range []*corev1.Pod{boardPod("a", "1"), boardPod("b", "2"), boardPod("b", "3"), boardPod("c", "4")} {
		b.add(p)
	}
	b.finish(nil)
	want := map[string]string{"a": "1", "b": "2,3", "c": "4"}
	for ns, w := range want {
		if pods, err := b.wait(ns); err != nil || names(pods) != w {
			t.Errorf("%s: %s, %v; want %s", ns, names(pods), err, w)
		}
	}
	if b.order() != nil {
		t.Errorf("order: %v", b.order())
	}
}
