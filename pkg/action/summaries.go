// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"encoding/base64"
	"strings"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// Page sizes of ExplainSummaries: a summary is about a hundred tokens, so
// a page of the default size fits in a few thousand.
const (
	DefaultSummaryLimit = 20
	MaxSummaryLimit     = 100
)

// SummaryPage selects a page of ExplainSummaries.
type SummaryPage struct {
	// Limit is the most summaries of a page: 0 means DefaultSummaryLimit,
	// at most MaxSummaryLimit.
	Limit int
	// Cursor is the NextCursor of the page before ("" for the first).
	Cursor string
}

// ExplainSummaries explains the HPAs ExplainMany selects and returns one
// page of their summaries: those after the cursor, in namespace and name
// order.
func ExplainSummaries(ctx context.Context, cfg ManyConfig, page SummaryPage) (*explain.ExplanationSummaryList, *ManyResult, error) {
	limit := page.Limit
	switch {
	case limit == 0:
		limit = DefaultSummaryLimit
	case limit < 0 || limit > MaxSummaryLimit:
		return nil, nil, usageErrorf("limit must be between 1 and %d, got %d", MaxSummaryLimit, limit)
	}
	var after *explain.ObjectRef
	if page.Cursor != "" {
		ref, err := decodeCursor(page.Cursor)
		if err != nil {
			return nil, nil, err
		}
		after = &ref
	}
	out := &explain.ExplanationSummaryList{
		APIVersion: explain.APIVersion, Kind: explain.KindExplanationSummaryList, Items: []explain.ExplanationSummary{},
	}
	more := false
	res, err := ExplainMany(ctx, cfg, func(d *explain.Decision) (explain.ExplanationSummary, error) {
		return explain.Summarize(d), nil
	}, func(s explain.ExplanationSummary) error {
		switch {
		case after != nil && !refAfter(s.HPA, *after):
		case len(out.Items) < limit:
			out.Items = append(out.Items, s)
		default:
			more = true
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	out.Total = res.Count
	if more {
		out.NextCursor = encodeCursor(out.Items[len(out.Items)-1].HPA)
	}
	return out, res, nil
}

// refAfter reports whether a comes after b in namespace and name order.
func refAfter(a, b explain.ObjectRef) bool {
	if a.Namespace != b.Namespace {
		return a.Namespace > b.Namespace
	}
	return a.Name > b.Name
}

// A cursor is the last HPA of a page, NAMESPACE/NAME, in unpadded
// URL-safe base64: opaque, as cursors are.
func encodeCursor(ref explain.ObjectRef) string {
	return base64.RawURLEncoding.EncodeToString([]byte(ref.Namespace + "/" + ref.Name))
}

func decodeCursor(c string) (explain.ObjectRef, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	ns, name, ok := strings.Cut(string(b), "/")
	if err != nil || !ok || name == "" {
		return explain.ObjectRef{}, usageErrorf("cursor %q is not one a page returned", c)
	}
	return explain.ObjectRef{Namespace: ns, Name: name}, nil
}
