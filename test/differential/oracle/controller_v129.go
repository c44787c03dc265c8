// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build oracle && oracle_v129

package main

import (
	"context"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	metricsclient "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"
)

// v1.29: no context; kube-controller-manager passes the HPAContainerMetrics
// gate as the last argument.
const controllerEpoch = "controller-v129"

func newController(_ context.Context, kube *fake.Clientset, scales *scalefake.FakeScaleClient, mc metricsclient.MetricsClient, factory informers.SharedInformerFactory, c *wireCase, containerMetrics bool) *podautoscaler.HorizontalController {
	return podautoscaler.NewHorizontalController(kube.CoreV1(), scales, kube.AutoscalingV2(), customMapper, mc,
		factory.Autoscaling().V2().HorizontalPodAutoscalers(), factory.Core().V1().Pods(),
		resyncPeriod, c.DownscaleStabilization, c.Tolerance, c.CPUInitializationPeriod, c.InitialReadinessDelay, containerMetrics)
}
