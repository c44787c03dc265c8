// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/scale"
	metricsclient "k8s.io/metrics/pkg/client/clientset/versioned"

	customclient "k8s.io/metrics/pkg/client/custom_metrics"
	externalclient "k8s.io/metrics/pkg/client/external_metrics"
)

// protobuf returns a copy of cfg that asks for Kubernetes' protobuf encoding,
// with JSON as the fallback, as kube-controller-manager's own clients do.
// Built-in objects (pods, events, workloads, HPAs) decode several times faster
// than from JSON, which is what a many-HPA read spends its time on. The
// typed core client and the resource metrics client get it (metrics-server
// serves PodMetrics in protobuf, as kube-controller-manager reads them; a
// server that does not picks JSON from the Accept list). The custom and
// external metrics clients keep JSON: their adapters need not speak
// protobuf, and the scale client is dynamic.
func protobuf(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.ContentType = runtime.ContentTypeProtobuf
	c.AcceptContentTypes = runtime.ContentTypeProtobuf + "," + runtime.ContentTypeJSON
	return c
}

// NewClients builds every client from one REST config (pkg/action's
// Factory sets it up: user agent, request counter, throttling). Discovery is
// cached in memory for the process.
func NewClients(cfg *rest.Config) (*Clients, error) {
	kube, err := kubernetes.NewForConfig(protobuf(cfg))
	if err != nil {
		return nil, fmt.Errorf("create the Kubernetes client: %w", err)
	}
	disc := memory.NewMemCacheClient(kube.Discovery())
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(disc)
	scales, err := scale.NewForConfig(cfg, mapper, dynamic.LegacyAPIPathResolverFunc, scale.NewDiscoveryScaleKindResolver(disc))
	if err != nil {
		return nil, fmt.Errorf("create the scale client: %w", err)
	}
	metrics, err := metricsclient.NewForConfig(protobuf(cfg))
	if err != nil {
		return nil, fmt.Errorf("create the resource metrics client: %w", err)
	}
	external, err := externalclient.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("create the external metrics client: %w", err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("create the dynamic client: %w", err)
	}
	return &Clients{
		Dynamic:     dyn,
		Kube:        kube,
		Scales:      scales,
		Mapper:      mapper,
		Metrics:     metrics,
		Custom:      customclient.NewForConfig(cfg, mapper, customclient.NewAvailableAPIsGetter(disc)),
		External:    external,
		PodREST:     kube.CoreV1().RESTClient(),
		AppsREST:    kube.AppsV1().RESTClient(),
		MetricsREST: metrics.MetricsV1beta1().RESTClient(),
	}, nil
}
