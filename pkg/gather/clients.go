// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"fmt"

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

// NewClients builds every client from one REST config (pkg/action's
// Factory sets it up: user agent, request counter, throttling). Discovery is
// cached in memory for the process.
func NewClients(cfg *rest.Config) (*Clients, error) {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("create the Kubernetes client: %w", err)
	}
	disc := memory.NewMemCacheClient(kube.Discovery())
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(disc)
	scales, err := scale.NewForConfig(cfg, mapper, dynamic.LegacyAPIPathResolverFunc, scale.NewDiscoveryScaleKindResolver(disc))
	if err != nil {
		return nil, fmt.Errorf("create the scale client: %w", err)
	}
	metrics, err := metricsclient.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("create the resource metrics client: %w", err)
	}
	external, err := externalclient.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("create the external metrics client: %w", err)
	}
	return &Clients{
		Kube:     kube,
		Scales:   scales,
		Mapper:   mapper,
		Metrics:  metrics,
		Custom:   customclient.NewForConfig(cfg, mapper, customclient.NewAvailableAPIsGetter(disc)),
		External: external,
	}, nil
}
