// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	"fmt"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
)

func (e *editor) podsMetrics(o *Overrides) error {
	for _, mo := range o.Pods {
		if !engine.HasPodsMetric(e.snap.HPA, mo.Name) {
			return fieldErr(FieldMetric, mo.Name+"="+mo.Change.Text, "the %s has no Pods metric named %q (its metrics: %s)", e.hpaName(), mo.Name, metricNames(e.snap.HPA))
		}
		pods := e.measuredPods()
		var n, skipped int
		for _, p := range pods {
			cur, found := e.podsSample(p.Name, mo.Name)
			if !found && mo.Change.Kind == Relative {
				skipped++
				continue
			}
			e.setPodsSample(p, mo.Name, mo.Change.apply(cur))
			n++
		}
		delete(e.snap.APIErrors, "pods:"+mo.Name)
		s := fmt.Sprintf("pods metric %s: %s on %d pod(s)", mo.Name, valueWords(mo.Change), n)
		if skipped > 0 {
			s += fmt.Sprintf(" (%d pod(s) without a sample stay missing)", skipped)
		}
		e.changes = append(e.changes, s)
	}
	return nil
}

func (e *editor) podsSample(pod, name string) (int64, bool) {
	if i := e.podsSampleIndex(pod, name); i >= 0 {
		return e.snap.CustomMetrics[i].Value.MilliValue(), true
	}
	return 0, false
}

func valueWords(c Change) string {
	if c.Kind == Relative {
		return c.Text
	}
	return c.Value.String()
}

func (e *editor) objectMetrics(o *Overrides) error {
	for _, mo := range o.Objects {
		found := false
		for _, m := range e.snap.HPA.Spec.Metrics {
			if m.Type != autoscalingv2.ObjectMetricSourceType || m.Object == nil || m.Object.Metric.Name != mo.Name {
				continue
			}
			found = true
			if err := e.setObject(mo, m.Object); err != nil {
				return err
			}
		}
		if !found {
			return fieldErr(FieldObject, mo.Name+"="+mo.Change.Text, "the %s has no Object metric named %q (its metrics: %s)", e.hpaName(), mo.Name, metricNames(e.snap.HPA))
		}
		delete(e.snap.APIErrors, "object:"+mo.Name)
	}
	return nil
}

func (e *editor) setObject(mo MetricOverride, src *autoscalingv2.ObjectMetricSource) error {
	ref := src.DescribedObject
	ns := e.snap.HPA.Namespace
	wantName := ref.Name
	if ref.Kind == "Namespace" {
		wantName = ns
	}
	var idx []int
	for i := range e.snap.CustomMetrics {
		cm := &e.snap.CustomMetrics[i]
		if cm.Metric.Name == mo.Name && cm.DescribedObject.Kind == ref.Kind && cm.DescribedObject.Name == wantName {
			idx = append(idx, i)
		}
	}
	obj := ref.Kind + "/" + ref.Name
	if len(idx) == 0 {
		if mo.Change.Kind == Relative {
			return fieldErr(FieldObject, mo.Name+"="+mo.Change.Text, "the metric has no current value for %s to change relatively; give a value", obj)
		}
		objNS := ns
		if ref.Kind == "Namespace" {
			objNS = ""
		}
		e.snap.CustomMetrics = append(e.snap.CustomMetrics, custommetricsv1beta2.MetricValue{
			DescribedObject: corev1.ObjectReference{Kind: ref.Kind, APIVersion: ref.APIVersion, Name: wantName, Namespace: objNS},
			Metric:          custommetricsv1beta2.MetricIdentifier{Name: mo.Name},
			Timestamp:       metav1.NewTime(e.sampleTime),
			Value:           *resource.NewMilliQuantity(mo.Change.Value.MilliValue(), resource.DecimalSI),
		})
		e.note("object metric %s of %s: %s (it had no value)", mo.Name, obj, mo.Change.Value.String())
		return nil
	}
	was := e.snap.CustomMetrics[idx[0]].Value.String()
	// The controller asks for exactly one value; keep just the first.
	first := idx[0]
	e.snap.CustomMetrics[first].Value = *resource.NewMilliQuantity(mo.Change.apply(e.snap.CustomMetrics[first].Value.MilliValue()), resource.DecimalSI)
	if len(idx) > 1 {
		drop := map[int]bool{}
		for _, i := range idx[1:] {
			drop[i] = true
		}
		kept := e.snap.CustomMetrics[:0]
		for i, cm := range e.snap.CustomMetrics {
			if !drop[i] {
				kept = append(kept, cm)
			}
		}
		e.snap.CustomMetrics = kept
		e.cmIndex = nil
	}
	e.note("object metric %s of %s: %s (was %s)", mo.Name, obj, e.objectValue(mo.Name, ref.Kind, wantName), was)
	return nil
}

func (e *editor) objectValue(name, kind, obj string) string {
	for _, cm := range e.snap.CustomMetrics {
		if cm.Metric.Name == name && cm.DescribedObject.Kind == kind && cm.DescribedObject.Name == obj {
			return cm.Value.String()
		}
	}
	return "?"
}

func (e *editor) externalMetrics(o *Overrides) error {
	for _, mo := range o.Externals {
		found := false
		for _, m := range e.snap.HPA.Spec.Metrics {
			if m.Type != autoscalingv2.ExternalMetricSourceType || m.External == nil || m.External.Metric.Name != mo.Name {
				continue
			}
			found = true
			if err := e.setExternal(mo, m.External.Metric.Selector); err != nil {
				return err
			}
		}
		if !found {
			return fieldErr(FieldExternal, mo.Name+"="+mo.Change.Text, "the %s has no External metric named %q (its metrics: %s)", e.hpaName(), mo.Name, metricNames(e.snap.HPA))
		}
		delete(e.snap.APIErrors, "external:"+mo.Name)
	}
	return nil
}

// setExternal sets the series of external metric mo.Name that the HPA's
// selector (and mo's labels, if any) match: an absolute value becomes their
// sum, shared in proportion to their current values.
func (e *editor) setExternal(mo MetricOverride, ls *metav1.LabelSelector) error {
	value := mo.Name
	if mo.Labels != nil {
		value += "{" + labelsString(mo.Labels) + "}"
	}
	value += "=" + mo.Change.Text
	sel := labels.Everything()
	if ls != nil {
		s, err := metav1.LabelSelectorAsSelector(ls)
		if err != nil {
			return fieldErr(FieldExternal, value, "the metric's selector: %v", err)
		}
		sel = s
	}
	want := labels.SelectorFromSet(mo.Labels)
	var idx []int
	for i := range e.snap.ExternalMetrics {
		ev := &e.snap.ExternalMetrics[i]
		if ev.MetricName == mo.Name && sel.Matches(labels.Set(ev.MetricLabels)) && want.Matches(labels.Set(ev.MetricLabels)) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		if mo.Change.Kind == Relative {
			return fieldErr(FieldExternal, value, "no series of the metric has a value to change relatively; give a value")
		}
		lbls := map[string]string{}
		if ls != nil {
			for k, v := range ls.MatchLabels {
				lbls[k] = v
			}
		}
		for k, v := range mo.Labels {
			lbls[k] = v
		}
		if !sel.Matches(labels.Set(lbls)) {
			return fieldErr(FieldExternal, value, "a new series labelled {%s} would not match the metric's selector %q; give its labels as %s{LABEL=VALUE,...}=VALUE", labelsString(lbls), sel.String(), mo.Name)
		}
		e.snap.ExternalMetrics = append(e.snap.ExternalMetrics, externalmetricsv1beta1.ExternalMetricValue{
			MetricName: mo.Name, MetricLabels: lbls, Timestamp: metav1.NewTime(e.sampleTime),
			Value: *resource.NewMilliQuantity(mo.Change.Value.MilliValue(), resource.DecimalSI),
		})
		e.note("external metric %s{%s}: %s (a new series)", mo.Name, labelsString(lbls), mo.Change.Value.String())
		return nil
	}
	var sum int64
	for _, i := range idx {
		sum += e.snap.ExternalMetrics[i].Value.MilliValue()
	}
	if mo.Change.Kind == Relative {
		for _, i := range idx {
			ev := &e.snap.ExternalMetrics[i]
			ev.Value = *resource.NewMilliQuantity(mo.Change.apply(ev.Value.MilliValue()), resource.DecimalSI)
		}
	} else {
		total := mo.Change.Value.MilliValue()
		var given int64
		for k, i := range idx {
			ev := &e.snap.ExternalMetrics[i]
			var v int64
			switch {
			case k == len(idx)-1:
				v = total - given
			case sum > 0:
				v = mulDiv(total, ev.Value.MilliValue(), sum)
			default:
				v = total / int64(len(idx))
			}
			given += v
			ev.Value = *resource.NewMilliQuantity(v, resource.DecimalSI)
		}
	}
	var now int64
	for _, i := range idx {
		now += e.snap.ExternalMetrics[i].Value.MilliValue()
	}
	s := fmt.Sprintf("external metric %s: %s (was %s)", mo.Name, resource.NewMilliQuantity(now, resource.DecimalSI).String(), resource.NewMilliQuantity(sum, resource.DecimalSI).String())
	if len(idx) > 1 {
		s += fmt.Sprintf(", the sum of %d series, shared in proportion to their values", len(idx))
	}
	e.changes = append(e.changes, s)
	return nil
}
