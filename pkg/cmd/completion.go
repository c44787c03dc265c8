// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"context"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
)

// HPANamesFunc lists the names of the HPAs of a namespace, for completion.
type HPANamesFunc func(ctx context.Context, clients *action.Factory, namespace string) ([]string, error)

// defaultHPANames is what new explain options use; tests replace it.
var defaultHPANames HPANamesFunc = listHPANames

// listHPANames reads the HPA names from the cluster of the kubeconfig.
func listHPANames(ctx context.Context, clients *action.Factory, namespace string) ([]string, error) {
	return listFromHPAs(ctx, clients, namespace, func(h *autoscalingv2.HorizontalPodAutoscaler) string { return h.Name })
}

// defaultHPATargets lists, for migrate's completion, the workloads the HPAs
// of a namespace scale, as TYPE/NAME ("deployment/web"); tests replace it.
var defaultHPATargets HPANamesFunc = listHPATargets

func listHPATargets(ctx context.Context, clients *action.Factory, namespace string) ([]string, error) {
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
func listFromHPAs(ctx context.Context, clients *action.Factory, namespace string, pick func(*autoscalingv2.HorizontalPodAutoscaler) string) ([]string, error) {
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

// completeNames answers a completion from list in the namespace of cf (-n,
// or the kubeconfig's), keeping the entries that start with toComplete.
// Errors leave the shell without suggestions.
func completeNames(c *cobra.Command, cf *genericclioptions.ConfigFlags, list HPANamesFunc, toComplete string) ([]string, cobra.ShellCompDirective) {
	clients := action.NewFactory(cf)
	ns, err := clients.Namespace()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	names, err := list(c.Context(), clients, ns)
	if err != nil {
		cobra.CompDebugln("listing HPAs: "+err.Error(), false)
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	out := names[:0]
	for _, n := range names {
		if strings.HasPrefix(n, toComplete) {
			out = append(out, n)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeHPANames is explain's ValidArgsFunction: the names of the HPAs in
// the namespace (-n, or the kubeconfig's), live mode only.
func (o *ExplainOptions) completeHPANames(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 || len(o.Source.Filenames) > 0 || o.AllNamespaces {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return completeNames(c, o.ConfigFlags, o.HPANames, toComplete)
}
