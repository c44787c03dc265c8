// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"io"
	"strconv"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// KindExplanationList is the kind of the -o json|yaml document of a
// many-HPA explain.
const KindExplanationList = explain.KindExplanationList

// WriteList writes one summary line per decision (text), or every decision
// in one list document (json, yaml). Knowing every row, the text columns
// are as wide as their widest cell; ListWriter writes rows as they come.
func WriteList(w io.Writer, f Format, ds []*explain.Decision, allNamespaces bool) error {
	if f == FormatText || f == "" {
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
	lw := NewListWriter(w, f, allNamespaces, Options{})
	for _, d := range ds {
		if err := lw.Add(d); err != nil {
			return err
		}
	}
	return lw.Close()
}

// ListWriter writes the result of a many-HPA explain as the decisions
// come: text prints the header, then one row per Add; json and yaml print
// an ExplanationList document whose items are written one by one, and
// complete it at Close.
//
// Text rows cannot wait for the widest cell, so each column has a fixed
// width (listWidths, or its header's when wider): rows whose cells fit are
// aligned with the header and with each other; a longer cell pushes the
// rest of its own row only.
type ListWriter struct {
	w             io.Writer
	format        Format
	allNamespaces bool
	// keda adds the KEDA column (ShowKEDA); context the CONTEXT column
	// (ShowContext).
	keda    bool
	context bool
	widths  []int
	items   *listEncoder
	started bool
	err     error
}

// listWidths are the text column widths of a ListWriter: NAMESPACE,
// NAME, REFERENCE, REPLICAS, DECIDED BY (AGREEMENT is last, unpadded).
// They fit the usual names (a DNS label is up to 63 characters, but most
// are far shorter) and the longest short reasons.
var listWidths = []int{16, 24, 32, 8, 44}

// NewListWriter returns a ListWriter writing to w in format f. Options are
// for the text view; it prints no colors.
func NewListWriter(w io.Writer, f Format, allNamespaces bool, _ Options) *ListWriter {
	lw := &ListWriter{w: w, format: f, allNamespaces: allNamespaces}
	switch f {
	case FormatJSON, FormatYAML:
		lw.items = newListEncoder(w, f, KindExplanationList)
	case FormatText, "":
		widths := listWidths
		if !allNamespaces {
			widths = widths[1:]
		}
		for i, h := range listHeader(allNamespaces)[:len(widths)] {
			lw.widths = append(lw.widths, max(widths[i], len(h)))
		}
	default:
		lw.err = fmt.Errorf("unknown output format %q", f)
	}
	return lw
}

// Add writes one decision.
func (lw *ListWriter) Add(d *explain.Decision) error {
	it, err := lw.Encode(d)
	if err != nil {
		return err
	}
	return lw.Write(it)
}

// ListItem is a decision encoded for a ListWriter: its JSON or YAML item,
// or its text row.
type ListItem []byte

// Encode encodes a decision for Write. It only reads the writer's settings,
// so decisions may be encoded concurrently (explain -A encodes each with its
// replay, in parallel), then written in order.
func (lw *ListWriter) Encode(d *explain.Decision) (ListItem, error) {
	if d == nil {
		return nil, fmt.Errorf("no decision to list")
	}
	if lw.items != nil {
		return lw.items.encode(d)
	}
	return ListItem(alignRow(lw.row(d), lw.widths, nil)), nil
}

// ShowKEDA adds a KEDA column to the text rows: KEDA's reason at the poll
// and where KEDA and the HPA take the replicas. Call it before the first
// Encode.
func (lw *ListWriter) ShowKEDA() {
	if lw.keda || lw.items != nil {
		return
	}
	lw.keda = true
	// AGREEMENT is no longer last: it gets a width too.
	lw.widths = append(lw.widths, len("AGREEMENT")+2)
}

// ShowContext adds a CONTEXT column in front of the text rows: the
// decisions come from more than one kubeconfig context. Call it before
// the first Encode.
func (lw *ListWriter) ShowContext() {
	if lw.context || lw.items != nil {
		return
	}
	lw.context = true
	lw.widths = append([]int{max(16, len("CONTEXT"))}, lw.widths...)
}

// row is a decision's text row.
func (lw *ListWriter) row(d *explain.Decision) []string {
	r := listRow(d, lw.allNamespaces)
	if lw.keda {
		r = append(r, kedaCell(d.KEDA))
	}
	if lw.context {
		r = append([]string{orDash(clean(d.Context))}, r...)
	}
	return r
}

// WriteKEDA writes a row for a ScaledObject that has no HPA (KEDA deleted
// it while the object is paused); JSON and YAML lists hold HPAs only.
func (lw *ListWriter) WriteKEDA(k *explain.KEDA) error {
	if lw.items != nil || k == nil {
		return lw.err
	}
	replicas := strconv.Itoa(int(k.CurrentReplicas))
	row := []string{"scaledobject/" + clean(k.ScaledObject.Name), clean(k.Target.Kind + "/" + k.Target.Name), replicas, "no HPA: " + noHPAWords(k), "-"}
	if lw.allNamespaces {
		row = append([]string{clean(k.ScaledObject.Namespace)}, row...)
	}
	if lw.keda {
		row = append(row, kedaCell(k))
	}
	if lw.context {
		row = append([]string{"-"}, row...)
	}
	return lw.Write(ListItem(alignRow(row, lw.widths, nil)))
}

// Write writes an encoded decision.
func (lw *ListWriter) Write(it ListItem) error {
	if lw.err != nil {
		return lw.err
	}
	if lw.items != nil {
		lw.err = lw.items.write(it)
		return lw.err
	}
	if err := lw.header(); err != nil {
		return err
	}
	_, lw.err = fmt.Fprintln(lw.w, string(it))
	return lw.err
}

// Close completes the document: the header of an empty text list, the end
// of the items of a json or yaml one. It does not close the writer.
func (lw *ListWriter) Close() error {
	if lw.err != nil {
		return lw.err
	}
	if lw.items != nil {
		lw.err = lw.items.close()
	} else {
		lw.err = lw.header()
	}
	if lw.err == nil {
		lw.err = errClosed
		return nil
	}
	return lw.err
}

// errClosed is what a ListWriter returns once closed.
var errClosed = fmt.Errorf("list writer is closed")

func (lw *ListWriter) header() error {
	if lw.started {
		return nil
	}
	lw.started = true
	h := listHeader(lw.allNamespaces)
	if lw.keda {
		h = append(h, "KEDA")
	}
	if lw.context {
		h = append([]string{"CONTEXT"}, h...)
	}
	_, err := fmt.Fprintln(lw.w, alignRow(h, lw.widths, nil))
	return err
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
