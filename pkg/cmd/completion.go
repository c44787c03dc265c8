// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"context"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
)

// HPANamesFunc lists the names of the HPAs of a namespace, for completion.
type HPANamesFunc func(ctx context.Context, clients *action.Factory, namespace string) ([]string, error)

// defaultHPANames is what new explain options use, and defaultHPATargets
// (the workloads the HPAs scale, TYPE/NAME) what migrate's completion uses;
// tests replace them.
var (
	defaultHPANames   HPANamesFunc = action.HPANames
	defaultHPATargets HPANamesFunc = action.HPATargets
)

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
	if len(args) > 0 || len(o.Source.Files) > 0 || o.Input.AllNamespaces {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return completeNames(c, o.ConfigFlags, o.HPANames, toComplete)
}
