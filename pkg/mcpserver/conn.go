// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package mcpserver

import (
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
)

// connFlags returns the connection flags of one call: a fresh copy of the
// server's, with the call's kubeconfig context when it names one. The
// namespace argument goes to the action's Source instead.
func connFlags(base *genericclioptions.ConfigFlags, context string) *genericclioptions.ConfigFlags {
	return action.ConfigFlagsFor(base, context)
}
