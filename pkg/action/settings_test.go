// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"bytes"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/load"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/recording"
)

func ptr[T any](v T) *T { return &v }

func vp(s string) *profile.Version { v := profile.MustParse(s); return &v }

// TestResolveSettings pins the one order every setting follows: defaults,
// then the controller, then the command line.
func TestResolveSettings(t *testing.T) {
	detected := &Controller{
		Version: vp("v1.33.5"), VersionSource: "the API server's version (v1.33.5)",
		Gates: map[profile.Gate]bool{profile.HPAConfigurableTolerance: true}, GatesSource: "kube-controller-manager pod kube-system/kcm",
		Tolerance: ptr(0.2), SyncPeriod: ptr(30 * time.Second), FlagsSource: "the flags of kube-controller-manager pod kube-system/kcm (command-line flags win)",
	}
	for _, c := range []struct {
		name        string
		ctl         *Controller
		o           SettingsOverrides
		version     string
		versionFrom string
		tolerance   float64
		sync        time.Duration
		gates       string
		source      string
	}{
		{
			name: "nothing known", version: profile.NewestVersion, versionFrom: "the newest supported controller (assumed)",
			tolerance: 0.1, sync: 15 * time.Second, gates: "HPAConfigurableTolerance=true,HPAGeneration=true,HPAOptimizedSelectorStore=true,HPAScaleToZero=true,PodLevelResources=true,StaleControllerConsistencyHPA=true",
			source: "kube-controller-manager defaults",
		},
		{
			name: "the controller", ctl: detected, version: "v1.33.5", versionFrom: "the API server's version (v1.33.5)",
			tolerance: 0.2, sync: 30 * time.Second, gates: "HPAConfigurableTolerance=true,HPAScaleToZero=false,PodLevelResources=false",
			source: "the flags of kube-controller-manager pod kube-system/kcm (command-line flags win)",
		},
		{
			name: "flags win", ctl: detected,
			o: SettingsOverrides{
				ControllerVersion: vp("1.35"), Tolerance: ptr(0.05),
				FeatureGates: map[profile.Gate]bool{profile.HPAConfigurableTolerance: false, profile.HPAScaleToZero: true},
			},
			version: "v1.35", versionFrom: "--controller-version", tolerance: 0.05, sync: 30 * time.Second,
			gates:  "HPAConfigurableTolerance=false,HPAScaleToZero=true,PodLevelResources=true",
			source: "the flags of kube-controller-manager pod kube-system/kcm (command-line flags win), with the flags given here",
		},
		{
			name: "controller gates the replayed version does not know are dropped",
			ctl:  &Controller{Gates: map[profile.Gate]bool{profile.HPAGeneration: false}, GatesSource: "kube-controller-manager pod kube-system/kcm"},
			o:    SettingsOverrides{ControllerVersion: vp("1.36")}, version: "v1.36", versionFrom: "--controller-version",
			tolerance: 0.1, sync: 15 * time.Second, gates: "HPAConfigurableTolerance=true,HPAScaleToZero=false,PodLevelResources=true",
			source: "kube-controller-manager defaults (HPAGeneration ignored: not gates of v1.36)",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := ResolveSettings(c.ctl, c.o)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Profile.Version.String(); got != c.version || s.VersionSource != c.versionFrom {
				t.Errorf("version %s from %q, want %s from %q", got, s.VersionSource, c.version, c.versionFrom)
			}
			if s.Tolerance != c.tolerance || s.SyncPeriod != c.sync {
				t.Errorf("tolerance %v sync %v", s.Tolerance, s.SyncPeriod)
			}
			if got := profile.FormatGates(s.Profile.Gates); got != c.gates {
				t.Errorf("gates %s\n want %s", got, c.gates)
			}
			if s.Source != c.source {
				t.Errorf("source %q\n want %q", s.Source, c.source)
			}
		})
	}

	for _, c := range []struct {
		ctl  *Controller
		o    SettingsOverrides
		want string
	}{
		{
			&Controller{Version: vp("v1.27.3"), VersionSource: "the API server's version (v1.27.3)"},
			SettingsOverrides{},
			"controller version v1.27.3 is not supported: kubectl-hpa replays the HPA controller of v1.29 to v1.37 (the version came from the API server's version (v1.27.3); pass --controller-version to replay a supported one)",
		},
		{
			&Controller{Version: vp("v1.37.2"), Gates: map[profile.Gate]bool{profile.HPAConfigurableTolerance: false}, GatesSource: "kube-controller-manager pod kube-system/kcm"},
			SettingsOverrides{},
			"the feature gates of kube-controller-manager pod kube-system/kcm: feature gate HPAConfigurableTolerance is GA and locked to true in v1.37",
		},
		{nil, SettingsOverrides{FeatureGates: map[profile.Gate]bool{"Nope": true}}, `unknown feature gate "Nope"`},
	} {
		if _, err := ResolveSettings(c.ctl, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v %+v: %v, want %q", c.ctl, c.o, err, c.want)
		}
	}
}

// A dump records the settings; replaying the dump resolves the same ones.
func TestControllerDocumentRoundTrip(t *testing.T) {
	set, err := ResolveSettings(&Controller{
		Version: vp("v1.34.4"), VersionSource: "the API server's version (v1.34.4)",
		Gates: map[profile.Gate]bool{profile.HPAConfigurableTolerance: true}, GatesSource: "kube-controller-manager pod kube-system/kcm",
		Tolerance: ptr(0.15), DownscaleStabilization: ptr(time.Minute), FlagsSource: "the flags of kube-controller-manager pod kube-system/kcm",
	}, SettingsOverrides{})
	if err != nil {
		t.Fatal(err)
	}
	snap := &engine.Snapshot{
		HPA: &autoscalingv2.HorizontalPodAutoscaler{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
			Spec:       autoscalingv2.HorizontalPodAutoscalerSpec{ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}, MaxReplicas: 5},
		},
		Target: engine.Target{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", SpecReplicas: 2, StatusReplicas: 2, Selector: "app=web"},
		Pods:   []corev1.Pod{},
	}
	var b bytes.Buffer
	if err := load.Dump(&b, snap, &set); err != nil {
		t.Fatal(err)
	}
	res, err := load.Load([]load.Source{{Name: "dump.yaml", Data: b.Bytes()}}, load.Options{Name: "web"})
	if err != nil {
		t.Fatal(err)
	}
	ctl, err := controllerOf(res.Controller)
	if err != nil {
		t.Fatal(err)
	}
	again, err := ResolveSettings(ctl, SettingsOverrides{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Profile.Version != set.Profile.Version || profile.FormatGates(again.Profile.Gates) != profile.FormatGates(set.Profile.Gates) ||
		again.Tolerance != 0.15 || again.DownscaleStabilization != time.Minute || again.SyncPeriod != set.SyncPeriod {
		t.Errorf("replayed settings %+v\n differ from %+v", again, set)
	}
	if !strings.HasPrefix(again.VersionSource, "the snapshot's Controller document (the API server's version (v1.34.4))") {
		t.Errorf("version source %q", again.VersionSource)
	}
}

// The sync period is assumed (and checked against the rescale events)
// only when neither the command line nor the controller's own flags give
// it.
func TestSyncPeriodAssumed(t *testing.T) {
	p := 5 * time.Second
	for _, tc := range []struct {
		name string
		c    *Controller
		o    SettingsOverrides
		want string
	}{
		{"nothing known", nil, SettingsOverrides{}, recording.OriginAssumed},
		{"no kube-controller-manager pod", &Controller{FlagsSource: "kube-controller-manager defaults (no kube-controller-manager pod in kube-system)"}, SettingsOverrides{}, recording.OriginAssumed},
		{"its flags read, without the period", &Controller{FlagsSource: "the flags of kube-controller-manager pod kube-system/kcm", FlagsRead: true}, SettingsOverrides{}, recording.OriginRead},
		{"its flags read, with the period", &Controller{SyncPeriod: &p, FlagsRead: true}, SettingsOverrides{}, recording.OriginRead},
		{"--sync-period", nil, SettingsOverrides{SyncPeriod: &p}, recording.OriginFlag},
	} {
		if got := syncOrigin(tc.c, tc.o); got.Source != tc.want {
			t.Errorf("%s: the sync period's origin is %q (%s), want %q", tc.name, got.Source, got.Detail, tc.want)
		}
	}
}
