// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/fleet"
)

// TuneManyConfig is a tune of every HPA of a namespace, of every
// namespace (AllNamespaces) or of a label selector, each with the same
// options (Tune, whose Name is left out).
type TuneManyConfig struct {
	Tune          TuneConfig
	AllNamespaces bool
	Selector      string
	// MinFidelity is the share of the period an HPA's as-is replay must
	// hold the recorded replica count for its recommendation to stand
	// (fleet.DefaultMinFidelity when 0).
	MinFidelity float64
	// Progress, if set, is called before each HPA's tune (done of total)
	// and once at the end.
	Progress func(done, total int, hpa string)
}

// TuneMany lists the selected HPAs and tunes them one at a time (each
// tune replays its candidates on every core), keeping of each only its
// row: a finished HPA's recording and curves are let go. An HPA that
// cannot be tuned is a row saying why; the run goes on. When ctx ends
// the HPAs tuned so far are returned, with a note, and ctx's error.
func TuneMany(ctx context.Context, cfg TuneManyConfig) (*explain.TuneFleet, error) {
	src := cfg.Tune.Source
	if !src.Live() {
		return nil, usageErrorf("tune without a NAME tunes the cluster's HPAs: with %s, name the HPA", tuneSourceFlag())
	}
	minFid := cfg.MinFidelity
	if minFid == 0 {
		minFid = fleet.DefaultMinFidelity
	}
	clients, err := src.Clients.Gather()
	if err != nil {
		return nil, err
	}
	ns := ""
	if !cfg.AllNamespaces {
		if ns, err = src.liveNamespace(); err != nil {
			return nil, err
		}
	}
	list, err := clients.Kube.AutoscalingV2().HorizontalPodAutoscalers(ns).List(ctx, metav1.ListOptions{LabelSelector: cfg.Selector})
	if err != nil {
		return nil, clusterError(err, " (is the cluster reachable?)")
	}
	hpas := list.Items
	slices.SortFunc(hpas, func(a, b autoscalingv2.HorizontalPodAutoscaler) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	list = nil
	var items []explain.FleetItem
	var stopped error
	for i := range hpas {
		ref := explain.ObjectRef{Namespace: hpas[i].Namespace, Name: hpas[i].Name}
		if err := ctx.Err(); err != nil {
			stopped = err
			break
		}
		if cfg.Progress != nil {
			cfg.Progress(i, len(hpas), ref.Namespace+"/"+ref.Name)
		}
		one := cfg.Tune
		one.Source.Namespace, one.Name = ref.Namespace, ref.Name
		one.Report, one.ReportCandidates = false, nil
		res, err := Tune(ctx, one)
		if err != nil {
			if ctx.Err() != nil {
				stopped = ctx.Err()
				break
			}
			items = append(items, fleet.Failed(ref, err))
			continue
		}
		items = append(items, fleet.Item(res.Tune, res.Backtest, res.Warnings, minFid))
	}
	if cfg.Progress != nil {
		cfg.Progress(len(items), len(hpas), "")
	}
	notes := []string{
		fmt.Sprintf("each HPA tuned as tune NAME tunes it, over the same period with the same options; its recommendation stands only where its as-is replay held the recorded replica count at least %.0f%% of the period", minFid*100),
	}
	if stopped != nil {
		notes = append(notes, fmt.Sprintf("stopped after %d of %d HPAs (%v): the others are not in the table", len(items), len(hpas), stopped))
	}
	doc := fleet.Document(items, cfg.Tune.Since, cfg.Tune.Until, minFid, notes)
	if stopped != nil {
		return doc, stopped
	}
	return doc, nil
}

// ErrFleetPartial says some of a fleet's HPAs could not be tuned.
var ErrFleetPartial = errors.New("some HPAs could not be tuned")

// tuneSourceFlag names -f.
func tuneSourceFlag() string {
	var in SourceInput
	return TuneSourceRows.Named(&in, &in.Files).Flag()
}
