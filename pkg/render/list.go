// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// KindExplanationList is the kind of the -o json|yaml document of a
// many-HPA explain.
const KindExplanationList = "ExplanationList"

// WriteList writes one summary line per decision (text), or every decision
// in one list document (json, yaml).
func WriteList(w io.Writer, f Format, ds []*explain.Decision, allNamespaces bool) error {
	switch f {
	case FormatJSON, FormatYAML:
		if ds == nil {
			ds = []*explain.Decision{}
		}
		return Encode(w, f, map[string]any{"apiVersion": explain.APIVersion, "kind": KindExplanationList, "items": ds})
	case FormatText:
		// The summary table below.
	}
	tb := &table{}
	tb.row(listHeader(allNamespaces)...)
	for _, d := range ds {
		tb.row(listRow(d, allNamespaces)...)
	}
	for _, l := range tb.lines() {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}

func listHeader(allNamespaces bool) []string {
	h := []string{"NAME", "REFERENCE", "REPLICAS", "DECIDED BY", "AGREEMENT"}
	if allNamespaces {
		h = append([]string{"NAMESPACE"}, h...)
	}
	return h
}

// listRow is one HPA's row: its name, target, replicas, what decided and
// the agreement with the controller.
func listRow(d *explain.Decision, allNamespaces bool) []string {
	row := []string{clean(d.HPA.Name), clean(d.Target.Kind + "/" + d.Target.Name), changeWords(d), ShortReason(d), agreementWord(d.Agreement)}
	if allNamespaces {
		row = append([]string{clean(d.HPA.Namespace)}, row...)
	}
	return row
}
