// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metafuzzer "k8s.io/apimachinery/pkg/apis/meta/fuzzer"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/client-go/kubernetes/scheme"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	metricsscheme "k8s.io/metrics/pkg/client/clientset/versioned/scheme"
	"sigs.k8s.io/randfill"
)

// TestDecodeReducedPodMetricsMatchesReduce: for randomly filled PodMetrics
// (with the metadata and quantity rules of apimachinery's round-trip
// fuzzer), the reduced decoder gives exactly reducePodMetrics of what the
// generated decoder reads from the same bytes.
func TestDecodeReducedPodMetricsMatchesReduce(t *testing.T) {
	r := rand.New(rand.NewSource(20261126))
	f := randfill.New().NilChance(0.3).NumElements(0, 3).RandSource(r).Funcs(metafuzzer.Funcs(scheme.Codecs)...)
	kept := map[string]int{}
	for i := range 2000 {
		var in metricsv1beta1.PodMetrics
		f.Fill(&in)
		if i%3 == 0 {
			deleted := metav1.Unix(int64(r.Uint32()), 0)
			in.DeletionTimestamp = &deleted
		}
		b, err := in.Marshal()
		if err != nil {
			t.Fatalf("item %d: marshal: %v", i, err)
		}
		var full metricsv1beta1.PodMetrics
		if err := full.Unmarshal(b); err != nil {
			t.Fatalf("item %d: generated decoder: %v", i, err)
		}
		want := reducePodMetrics(&full)
		got, err := decodeReducedPodMetrics(b)
		if err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("item %d: reduced decode differs from reducePodMetrics (-want +got):\n%s", i, diff.Diff(want, got))
		}
		if len(got.Labels) > 0 {
			kept["labels"]++
		}
		if len(got.Containers) > 0 && len(got.Containers[0].Usage) > 0 {
			kept["usage"]++
		}
		if !got.Timestamp.IsZero() {
			kept["timestamp"]++
		}
		if got.Window.Duration != 0 {
			kept["window"]++
		}
		if len(full.Annotations) > 0 || len(full.ManagedFields) > 0 {
			kept["dropped"]++
		}
	}
	// The comparison is only as good as the fields it saw filled.
	for _, k := range []string{"labels", "usage", "timestamp", "window", "dropped"} {
		if kept[k] < 100 {
			t.Errorf("only %d of 2000 items had %s: the fuzzing does not exercise it", kept[k], k)
		}
	}
}

func encodeMetricsProtobuf(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	return encodeProtobufWith(t, metricsscheme.Codecs, metricsv1beta1.SchemeGroupVersion, obj)
}

// TestReadPodMetricsList: a PodMetricsList body in protobuf gives
// reducePodMetrics of each item, in order; a body cut anywhere is an error,
// never a shorter list; what is not a protobuf PodMetricsList says so.
func TestReadPodMetricsList(t *testing.T) {
	list := &metricsv1beta1.PodMetricsList{}
	for i := range 5 {
		pm := podMetric("ns", fmt.Sprintf("web-%d", i), "web", fmt.Sprintf("%dm", 100+i))
		pm.Annotations = map[string]string{"dropped": "yes"}
		pm.CreationTimestamp = metav1.NewTime(now.Truncate(time.Second))
		list.Items = append(list.Items, pm)
	}
	body := encodeMetricsProtobuf(t, list)
	var got []metricsv1beta1.PodMetrics
	if err := readPodMetricsList(bytes.NewReader(body), func(pm *metricsv1beta1.PodMetrics) { got = append(got, *pm) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(list.Items) {
		t.Fatalf("%d items, want %d", len(got), len(list.Items))
	}
	for i := range list.Items {
		b, err := list.Items[i].Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var full metricsv1beta1.PodMetrics
		if err := full.Unmarshal(b); err != nil {
			t.Fatal(err)
		}
		want := reducePodMetrics(&full)
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("item %d (-want +got):\n%s", i, diff.Diff(want, got[i]))
		}
		if got[i].Annotations != nil || got[i].Containers[0].Usage.Cpu().MilliValue() != int64(100+i) {
			t.Errorf("item %d: %+v", i, got[i])
		}
	}

	for n := 0; n < len(body); n++ {
		read := 0
		err := readPodMetricsList(bytes.NewReader(body[:n]), func(*metricsv1beta1.PodMetrics) { read++ })
		if err == nil && (read != len(list.Items) || n < len(body)-4) {
			t.Fatalf("%d of %d bytes read without an error: %d items", n, len(body), read)
		}
	}

	for name, b := range map[string][]byte{
		"JSON":          []byte(`{"kind":"PodMetricsList","apiVersion":"metrics.k8s.io/v1beta1","items":[]}`),
		"pods":          encodeProtobuf(t, &corev1.PodList{}),
		"one PodMetric": encodeMetricsProtobuf(t, &list.Items[0]),
	} {
		if err := readPodMetricsList(bytes.NewReader(b), func(*metricsv1beta1.PodMetrics) {}); !errors.Is(err, errNotProtobufList) {
			t.Errorf("%s: %v, want errNotProtobufList", name, err)
		}
	}
	// And a pod reader refuses PodMetrics.
	if _, err := readPodList(bytes.NewReader(body), nil, func(*corev1.Pod) {}); !errors.Is(err, errNotProtobufList) {
		t.Errorf("pods from a PodMetricsList: %v, want errNotProtobufList", err)
	}
}
