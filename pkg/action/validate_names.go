// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
)

// The names a live read puts in a request's path are checked before the
// request: the API server would answer "not found" for a name no object can
// have, echoing it whole (a megabyte-long argument comes back a megabyte
// long), and kubectl itself only refuses the names that break the URL
// ("invalid resource name ..."). Every face gets the same line: the command
// line for its NAME and -n, the MCP tools for their name and namespace
// arguments. The error is a plain one (exit 1, one line), as a name
// that is not found would be.

// maxShownName bounds how much of a refused name its error quotes.
const maxShownName = 64

// CheckName refuses a name that no object of kind can have: every kind a
// live read names (HorizontalPodAutoscalers, ScaledObjects, the workloads
// migrate hands over) takes an RFC 1123 subdomain, at most 253 lowercase
// letters, digits, '-' and '.'.
func CheckName(kind, name string) error {
	if len(validation.IsDNS1123Subdomain(name)) == 0 {
		return nil
	}
	return fmt.Errorf("invalid %s name %s: a name is up to %d lowercase letters, digits, '-' or '.', and starts and ends with a letter or digit",
		kind, quoteName(name), validation.DNS1123SubdomainMaxLength)
}

// CheckNamespace refuses what cannot be a namespace: an RFC 1123 label,
// at most 63 lowercase letters, digits and '-'.
func CheckNamespace(ns string) error {
	if len(validation.IsDNS1123Label(ns)) == 0 {
		return nil
	}
	return fmt.Errorf("invalid namespace %s: a namespace is up to %d lowercase letters, digits or '-', and starts and ends with a letter or digit",
		quoteName(ns), validation.DNS1123LabelMaxLength)
}

// quoteName quotes a refused name, its start only when it is long.
func quoteName(s string) string {
	if len(s) <= maxShownName {
		return strconv.Quote(s)
	}
	cut := maxShownName
	// Cut on a rune boundary.
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("... (%d bytes)", len(s))
}

// liveNamespace is the namespace a live read of one object uses: -n, else
// the kubeconfig context's, checked.
func (s Source) liveNamespace() (string, error) {
	ns := s.Namespace
	if ns == "" {
		var err error
		if ns, err = s.Clients.Namespace(); err != nil {
			return "", err
		}
	}
	if err := CheckNamespace(ns); err != nil {
		return "", err
	}
	return ns, nil
}

// liveScope is the clients of a read of many HPAs and its namespace: ""
// for every namespace (all), else -n or the context's.
func (s Source) liveScope(all bool) (*gather.Clients, string, error) {
	clients, err := s.Clients.Gather()
	if err != nil {
		return nil, "", err
	}
	if all {
		return clients, "", nil
	}
	ns, err := s.liveNamespace()
	return clients, ns, err
}
