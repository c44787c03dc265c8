// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package whatif

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

// Kept is what a replay over recorded load stands on, kept to be replayed
// again offline (a bug report, a test of a real run): the HPA, its
// target's scale, a pod as the template of the pods a replay adds, the
// controller's version, and the recording with its clock and raw samples.
// Runs keep one when KUBECTL_HPA_KEEP_RECORDING names a directory.
type Kept struct {
	HPA               *autoscalingv2.HorizontalPodAutoscaler `json:"hpa"`
	Target            engine.Target                          `json:"target"`
	Pod               *corev1.Pod                            `json:"pod,omitempty"`
	ControllerVersion string                                 `json:"controllerVersion"`
	Recording         *recording.Recording                   `json:"recording"`
}

// KeptOf is what a replay of snap's HPA over rec stands on.
func KeptOf(snap *engine.Snapshot, set engine.Settings, rec *recording.Recording) *Kept {
	k := &Kept{HPA: snap.HPA, Target: snap.Target, ControllerVersion: set.Profile.Version.String(), Recording: rec}
	if len(snap.Pods) > 0 {
		k.Pod = &snap.Pods[0]
	}
	return k
}

// Snapshot is the snapshot a replay of the kept recording starts from; the
// recording is resampled at its clock's scrapes (what a kept file does not
// hold: the samples worked out of the raw ones).
func (k *Kept) Snapshot() *engine.Snapshot {
	s := &engine.Snapshot{HPA: k.HPA, Target: k.Target}
	if k.Pod != nil {
		s.Pods = []corev1.Pod{*k.Pod}
	}
	if c := k.Recording.Clock; c.Window > 0 {
		anchor := c.ScrapeAnchor
		if anchor.IsZero() {
			// As the read placed them: half a window before the syncs.
			anchor = k.Recording.Start.Add(-c.Window / 2)
		}
		k.Recording.Resample(recording.Scrapes{Anchor: anchor, Window: c.Window})
	}
	return s
}
