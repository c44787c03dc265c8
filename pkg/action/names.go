// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"sort"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// HPANames lists the names of the HPAs of a namespace (for the shell
// completion of explain and whatif).
func HPANames(ctx context.Context, clients *Factory, namespace string) ([]string, error) {
	return listFromHPAs(ctx, clients, namespace, func(h *autoscalingv2.HorizontalPodAutoscaler) string { return h.Name })
}

// HPATargets lists the workloads the HPAs of a namespace scale, as
// TYPE/NAME ("deployment/web"), for the completion of migrate.
func HPATargets(ctx context.Context, clients *Factory, namespace string) ([]string, error) {
	return listFromHPAs(ctx, clients, namespace, func(h *autoscalingv2.HorizontalPodAutoscaler) string {
		ref := h.Spec.ScaleTargetRef
		if ref.Kind == "" || ref.Name == "" {
			return ""
		}
		return strings.ToLower(ref.Kind) + "/" + ref.Name
	})
}

// listFromHPAs lists the HPAs of the namespace and returns what pick makes
// of each, without empty strings and duplicates, sorted.
func listFromHPAs(ctx context.Context, clients *Factory, namespace string, pick func(*autoscalingv2.HorizontalPodAutoscaler) string) ([]string, error) {
	kube, err := clients.Kube()
	if err != nil {
		return nil, err
	}
	list, err := kube.AutoscalingV2().HorizontalPodAutoscalers(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	out := make([]string, 0, len(list.Items))
	for i := range list.Items {
		if v := pick(&list.Items[i]); v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out, nil
}
