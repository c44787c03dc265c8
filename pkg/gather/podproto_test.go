// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metafuzzer "k8s.io/apimachinery/pkg/apis/meta/fuzzer"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/randfill"
)

// TestDecodeReducedPodMatchesReducePod: for randomly filled pods (every
// field of the Pod type, with the metadata and quantity rules of
// apimachinery's own round-trip fuzzer), the reduced decoder gives exactly
// ReducePod of what the generated decoder reads from the same bytes.
func TestDecodeReducedPodMatchesReducePod(t *testing.T) {
	r := rand.New(rand.NewSource(20261126))
	f := randfill.New().NilChance(0.3).NumElements(0, 3).RandSource(r).Funcs(metafuzzer.Funcs(scheme.Codecs)...)
	kept := map[string]int{}
	for i := range 2000 {
		var in corev1.Pod
		f.Fill(&in)
		if i%4 == 0 {
			// Ready conditions, restartable init containers and pod-level
			// resources are rare at random; make them common.
			in.Status.Conditions = append(in.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, Reason: "r", Message: "m"})
			always := corev1.ContainerRestartPolicyAlways
			in.Spec.InitContainers = append(in.Spec.InitContainers, corev1.Container{
				Name: "sidecar", RestartPolicy: &always,
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("150m")}},
			})
			in.Spec.Resources = &corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")}}
		}
		if i%3 == 0 {
			// The filler leaves *metav1.Time nil.
			start, deleted := metav1.Unix(int64(r.Uint32()), int64(r.Int31n(1e9))), metav1.Unix(int64(r.Uint32()), 0)
			in.Status.StartTime, in.DeletionTimestamp = &start, &deleted
		}
		b, err := in.Marshal()
		if err != nil {
			t.Fatalf("pod %d: marshal: %v", i, err)
		}
		var full corev1.Pod
		if err := full.Unmarshal(b); err != nil {
			t.Fatalf("pod %d: generated decoder: %v", i, err)
		}
		want := ReducePod(&full)
		got, err := decodeReducedPod(b)
		if err != nil {
			t.Fatalf("pod %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("pod %d: reduced decode differs from ReducePod (-want +got):\n%s", i, diff.Diff(want, got))
		}
		if len(got.Labels) > 0 {
			kept["labels"]++
		}
		if len(got.OwnerReferences) > 0 {
			kept["owners"]++
		}
		if got.DeletionTimestamp != nil {
			kept["deletion"]++
		}
		if len(got.Spec.Containers) > 0 && len(got.Spec.Containers[0].Resources.Requests) > 0 {
			kept["requests"]++
		}
		if len(got.Spec.Overhead) > 0 {
			kept["overhead"]++
		}
		if got.Status.StartTime != nil {
			kept["start"]++
		}
		if got.Status.Phase != "" {
			kept["phase"]++
		}
	}
	// The comparison is only as good as the fields it saw filled.
	for _, k := range []string{"labels", "owners", "deletion", "requests", "overhead", "start", "phase"} {
		if kept[k] < 100 {
			t.Errorf("only %d of 2000 pods had %s: the fuzzing does not exercise it", kept[k], k)
		}
	}
}

// TestDecodeReducedPodRejectsTruncated: a cut message is an error, at every
// length, never a panic or a silently shorter pod.
func TestDecodeReducedPodRejectsTruncated(t *testing.T) {
	p := podObj("ns", "web-1", "web")
	p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	whole, err := decodeReducedPod(b)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n < len(b); n++ {
		got, err := decodeReducedPod(b[:n])
		if err == nil && reflect.DeepEqual(got, whole) {
			t.Fatalf("%d of %d bytes decode to the whole pod", n, len(b))
		}
		var full corev1.Pod
		if full.Unmarshal(b[:n]) != nil && err == nil {
			t.Errorf("%d of %d bytes: the generated decoder fails, the reduced one does not", n, len(b))
		}
	}
}

// TestReadPodList: a PodList body in protobuf gives ReducePod of each pod
// the generated decoder reads, in order, and the continue token; a body cut
// anywhere is an error, never a shorter list; what is not a protobuf
// PodList says so.
func TestReadPodList(t *testing.T) {
	list := &corev1.PodList{ListMeta: metav1.ListMeta{Continue: "next", ResourceVersion: "7"}}
	for i := range 5 {
		p := podObj("ns", fmt.Sprintf("web-%d", i), "web")
		p.Annotations = map[string]string{"big": strings.Repeat("x", 5000)}
		p.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate}}
		list.Items = append(list.Items, *p)
	}
	body := encodeProtobuf(t, list)
	var got []corev1.Pod
	cont, err := readPodList(bytes.NewReader(body), nil, func(p *corev1.Pod) { got = append(got, *p) })
	if err != nil || cont != "next" {
		t.Fatalf("continue %q, err %v", cont, err)
	}
	if len(got) != len(list.Items) {
		t.Fatalf("%d pods, want %d", len(got), len(list.Items))
	}
	for i := range list.Items {
		b, err := list.Items[i].Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var full corev1.Pod
		if err := full.Unmarshal(b); err != nil {
			t.Fatal(err)
		}
		if want := ReducePod(&full); !reflect.DeepEqual(got[i], want) {
			t.Errorf("pod %d (-want +got):\n%s", i, diff.Diff(want, got[i]))
		}
	}

	// Cut anywhere, the body is an error unless the whole list was in it
	// (only the envelope's empty content encoding and type were cut).
	for n := 0; n < len(body); n++ {
		read := 0
		cont, err := readPodList(bytes.NewReader(body[:n]), nil, func(*corev1.Pod) { read++ })
		if err == nil && (read != len(list.Items) || cont != "next" || n < len(body)-4) {
			t.Fatalf("%d of %d bytes read without an error: %d pods, continue %q", n, len(body), read, cont)
		}
	}

	for name, b := range map[string][]byte{
		"JSON":       []byte(`{"kind":"PodList","apiVersion":"v1","items":[]}`),
		"ConfigMaps": encodeProtobuf(t, &corev1.ConfigMapList{}),
		"one pod":    encodeProtobuf(t, podObj("ns", "p", "a")),
	} {
		if _, err := readPodList(bytes.NewReader(b), nil, func(*corev1.Pod) {}); !errors.Is(err, errNotProtobufList) {
			t.Errorf("%s: %v, want errNotProtobufList", name, err)
		}
	}
}
