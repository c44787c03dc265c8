// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package engine

import (
	"errors"
	"fmt"
	"sort"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// A sync's selection of pods: the target's selector checked as the
// controller checks it, the pods it lists, and the other HPAs whose
// targets select the same pods.

// podLister returns the pods in the HPA's namespace that match the selector.
func (s *syncRun) podLister(sel labels.Selector) []*corev1.Pod {
	out := s.sc.podList()
	defer func() { s.sc.keepPods(out) }()
	for i := range s.snap.Pods {
		p := &s.snap.Pods[i]
		if p.Namespace != "" && p.Namespace != s.hpa.Namespace {
			continue
		}
		if sel.Matches(labels.Set(p.Labels)) {
			out = append(out, p)
		}
	}
	return out
}

// validateSelector mirrors validateAndParseSelector.
func (s *syncRun) validateSelector() (labels.Selector, []*corev1.Pod, error) {
	raw := s.snap.Target.Selector
	chk := &s.room.selector
	*chk = explain.SelectorCheck{Selector: raw}
	s.dec.Selector = chk
	if raw == "" {
		msg := "selector is required"
		s.event(corev1.EventTypeWarning, explain.ReasonSelectorRequired, msg)
		s.setCondition(autoscalingv2.ScalingActive, corev1.ConditionFalse, explain.ReasonInvalidSelector, "the HPA target's scale is missing a selector")
		chk.Error = "the HPA target's scale is missing a selector"
		return nil, nil, errors.New(msg)
	}
	sel, err := parseSelector(raw)
	if err != nil {
		msg := fmt.Sprintf("couldn't convert selector into a corresponding internal selector object: %v", err)
		s.event(corev1.EventTypeWarning, explain.ReasonInvalidSelector, msg)
		s.setCondition(autoscalingv2.ScalingActive, corev1.ConditionFalse, explain.ReasonInvalidSelector, msg)
		chk.Error = msg
		return nil, nil, errors.New(msg)
	}
	pods := s.podLister(sel)
	chk.PodsSelected = len(pods)
	for _, p := range pods {
		if owner, ok := s.snap.ForeignPods[p.Name]; ok {
			chk.ForeignPods = append(chk.ForeignPods, p.Name+" ("+owner+")")
		}
	}
	if others := s.selectingHPAs(pods); len(others) > 0 {
		keys := append([]string{s.hpa.Namespace + "/" + s.hpa.Name}, others...)
		sort.Strings(keys)
		msg := fmt.Sprintf("pods by selector %v are controlled by multiple HPAs: %v", raw, keys)
		if sw := s.set.Profile.Switches; sw.AmbiguousSelectorMoreThanOne {
			// Upstream names the HPAs in map order and stops at the limit;
			// we name the first ones in sorted order.
			if n := sw.AmbiguousSelectorLimit; n > 0 && len(keys) > n {
				keys = keys[:n]
			}
			msg = fmt.Sprintf("pods by selector %v are controlled by more than one HPA (e.g. %v)", raw, keys)
		}
		s.event(corev1.EventTypeWarning, explain.ReasonAmbiguousSelector, msg)
		s.setCondition(autoscalingv2.ScalingActive, corev1.ConditionFalse, explain.ReasonAmbiguousSelector, msg)
		chk.Error = msg
		chk.ConflictingHPAs = others
		return nil, nil, errors.New(msg)
	}
	chk.Valid = true
	return sel, pods, nil
}

// selectingHPAs lists the other HPAs of the namespace whose selectors match
// at least one of the pods.
func (s *syncRun) selectingHPAs(pods []*corev1.Pod) []string {
	return SelectingHPAs(s.snap.OtherHPAs, s.hpa, pods)
}

// SelectingHPAs lists, sorted, those of others (the HPAs of hpa's
// namespace but hpa) whose selectors match at least one of pods: the
// controller's ambiguous-selector check. An HPA whose selector is empty
// or unparsable has never been registered with a real selector and
// matches nothing. A replay asks it of every pod it can run, to leave out
// the HPAs no sync can find.
func SelectingHPAs(others []HPASelector, hpa *autoscalingv2.HorizontalPodAutoscaler, pods []*corev1.Pod) []string {
	var out []string
	for _, o := range others {
		if o.Namespace != hpa.Namespace || o.Name == hpa.Name || o.Selector == "" {
			continue
		}
		sel, err := parseSelector(o.Selector)
		if err != nil {
			continue
		}
		for _, p := range pods {
			if sel.Matches(labels.Set(p.Labels)) {
				out = append(out, o.Namespace+"/"+o.Name)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}
