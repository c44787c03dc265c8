// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// ConfigFlagsFor returns a fresh copy of kubectl's connection flags (so
// the kubeconfig is read again, as each kubectl run reads it), with
// another kubeconfig context when context names one.
func ConfigFlagsFor(base *genericclioptions.ConfigFlags, context string) *genericclioptions.ConfigFlags {
	cf := genericclioptions.NewConfigFlags(true)
	if base != nil {
		cf.CacheDir, cf.KubeConfig = clone(base.CacheDir), clone(base.KubeConfig)
		cf.ClusterName, cf.AuthInfoName = clone(base.ClusterName), clone(base.AuthInfoName)
		cf.Context, cf.Namespace = clone(base.Context), clone(base.Namespace)
		cf.APIServer, cf.TLSServerName, cf.Insecure = clone(base.APIServer), clone(base.TLSServerName), clone(base.Insecure)
		cf.CertFile, cf.KeyFile, cf.CAFile = clone(base.CertFile), clone(base.KeyFile), clone(base.CAFile)
		cf.BearerToken = clone(base.BearerToken)
		cf.Impersonate, cf.ImpersonateUID = clone(base.Impersonate), clone(base.ImpersonateUID)
		cf.ImpersonateGroup, cf.ImpersonateUserExtra = clone(base.ImpersonateGroup), clone(base.ImpersonateUserExtra)
		cf.Username, cf.Password = clone(base.Username), clone(base.Password)
		cf.Timeout, cf.DisableCompression, cf.ProxyURL = clone(base.Timeout), clone(base.DisableCompression), clone(base.ProxyURL)
		cf.WrapConfigFn = base.WrapConfigFn
	}
	if context != "" {
		cf.Context = &context
	}
	return cf
}

// clone returns a pointer to a copy of *p (nil for nil).
func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
