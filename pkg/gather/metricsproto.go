// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

// metrics.k8s.io answers a PodMetrics list whole, and a many-HPA read asks
// for every pod's: at 20,000 pods, client-go read the 3.4 MB body whole and
// only then decoded it, about 0.1 s during which no replay could start.
// readPodMetricsList decodes each item as it arrives, into what the replay
// reads (reducePodMetrics); TestDecodeReducedPodMetricsMatchesReduce holds it
// to the generated decoder.
//
// Field numbers of k8s.io/metrics/pkg/apis/metrics/v1beta1/generated.proto.
const (
	podMetricsMetadata, podMetricsTimestamp = 1, 2
	podMetricsWindow, podMetricsContainers  = 3, 4
)

// reducePodMetrics keeps what a replay reads of a PodMetrics: its identity
// and labels, its sample's time and window, and its containers' usage.
func reducePodMetrics(pm *metricsv1beta1.PodMetrics) metricsv1beta1.PodMetrics {
	return metricsv1beta1.PodMetrics{
		TypeMeta: pm.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name: pm.Name, Namespace: pm.Namespace, UID: pm.UID, Labels: pm.Labels,
			OwnerReferences: pm.OwnerReferences, DeletionTimestamp: pm.DeletionTimestamp,
			CreationTimestamp: pm.CreationTimestamp,
		},
		Timestamp: pm.Timestamp, Window: pm.Window, Containers: pm.Containers,
	}
}

// decodeReducedPodMetrics reads the protobuf encoding of a PodMetrics into
// what reducePodMetrics keeps.
func decodeReducedPodMetrics(b []byte) (metricsv1beta1.PodMetrics, error) {
	var pm metricsv1beta1.PodMetrics
	err := eachField(b, func(num int, v []byte) error {
		switch num {
		case podMetricsMetadata:
			return decodeMeta(v, &pm.ObjectMeta)
		case podMetricsTimestamp:
			return pm.Timestamp.Unmarshal(v)
		case podMetricsWindow:
			return pm.Window.Unmarshal(v)
		case podMetricsContainers:
			var c metricsv1beta1.ContainerMetrics
			if err := c.Unmarshal(v); err != nil {
				return err
			}
			pm.Containers = append(pm.Containers, c)
		}
		return nil
	})
	return pm, err
}

// readPodMetricsList reads a PodMetricsList response body as it arrives
// (readList), handing each item to add as decodeReducedPodMetrics reads it.
func readPodMetricsList(body io.Reader, add func(*metricsv1beta1.PodMetrics)) error {
	_, err := readList(body, metricsv1beta1.SchemeGroupVersion.String(), "PodMetricsList", nil, func(b []byte) error {
		pm, err := decodeReducedPodMetrics(b)
		if err == nil {
			add(&pm)
		}
		return err
	})
	return err
}
