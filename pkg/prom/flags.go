// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"github.com/spf13/pflag"
)

// AddFlags binds the options to their flags (the Flag* names), as
// cli-runtime's ConfigFlags binds the kubeconfig's: every command that
// reads recorded load offers the same ones.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Endpoint, FlagEndpoint, o.Endpoint, "Where the recorded load is: a URL (http://prometheus:9090) or NAMESPACE/SERVICE:PORT reached through the API server's service proxy (default $"+EnvEndpoint+")")
	fs.StringVar(&o.BearerToken, FlagToken, o.BearerToken, "Bearer token for a --prometheus URL")
	fs.StringVar(&o.BearerTokenFile, FlagTokenFile, o.BearerTokenFile, "File holding the bearer token for a --prometheus URL")
	fs.StringVar(&o.CAFile, FlagCAFile, o.CAFile, "PEM file of the CA to trust for a --prometheus https URL")
	fs.StringVar(&o.CertFile, FlagCertFile, o.CertFile, "PEM client certificate for a --prometheus https URL")
	fs.StringVar(&o.KeyFile, FlagKeyFile, o.KeyFile, "PEM client key for a --prometheus https URL")
	fs.BoolVar(&o.InsecureSkipTLSVerify, FlagInsecure, o.InsecureSkipTLSVerify, "Do not check the --prometheus server's certificate")
	fs.StringArrayVar(&o.Headers, FlagHeader, o.Headers, "Extra request header for Prometheus, NAME: VALUE (repeatable; e.g. X-Scope-OrgID: team-a for Mimir)")
	fs.DurationVar(&o.Timeout, FlagTimeout, o.Timeout, "Time limit of each Prometheus request (0: none but the command's)")
	fs.BoolVar(&o.AllowWarnings, FlagAllowWarnings, o.AllowWarnings, "Go on when Prometheus answers with warnings (a partial answer), listing them")
}
