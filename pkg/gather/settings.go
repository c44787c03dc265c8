// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package gather

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ControllerFlags are the HPA flags read from a kube-controller-manager pod;
// nil fields were not set there (the default applies).
type ControllerFlags struct {
	Tolerance               *float64
	CPUInitializationPeriod *time.Duration
	InitialReadinessDelay   *time.Duration
	DownscaleStabilization  *time.Duration
	SyncPeriod              *time.Duration
	FeatureGates            map[string]bool
	// Source names the pod the flags came from.
	Source string
	// Image is the container's image ("registry.k8s.io/kube-controller-manager:v1.32.13").
	Image string
}

// DetectControllerFlags reads the --horizontal-pod-autoscaler-* flags (and
// the HPA feature gates) of a kube-controller-manager static pod in
// kube-system, as kubeadm and most distributions run it. It returns nil when
// no such pod is readable (managed control planes hide it); the caller then
// uses the defaults and says so.
func DetectControllerFlags(ctx context.Context, c *Clients) (*ControllerFlags, error) {
	list, err := c.Kube.CoreV1().Pods("kube-system").List(ctx, metav1.ListOptions{LabelSelector: "component=kube-controller-manager"})
	if err != nil {
		return nil, err
	}
	for i := range list.Items {
		p := &list.Items[i]
		for _, ctr := range p.Spec.Containers {
			args := append(append([]string{}, ctr.Command...), ctr.Args...)
			if !isControllerManager(ctr, args) {
				continue
			}
			f, err := parseControllerFlags(args)
			if err != nil {
				return nil, fmt.Errorf("pod kube-system/%s: %w", p.Name, err)
			}
			f.Source = "kube-system/" + p.Name
			f.Image = ctr.Image
			return f, nil
		}
	}
	return nil, nil
}

func isControllerManager(c corev1.Container, args []string) bool {
	if strings.Contains(c.Name, "controller-manager") {
		return true
	}
	for _, a := range args {
		if strings.HasSuffix(a, "kube-controller-manager") {
			return true
		}
	}
	return false
}

// parseControllerFlags reads --name=value and --name value forms.
func parseControllerFlags(args []string) (*ControllerFlags, error) {
	f := &ControllerFlags{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		known := map[string]bool{
			"horizontal-pod-autoscaler-tolerance": true, "horizontal-pod-autoscaler-cpu-initialization-period": true,
			"horizontal-pod-autoscaler-initial-readiness-delay": true, "horizontal-pod-autoscaler-downscale-stabilization": true,
			"horizontal-pod-autoscaler-sync-period": true, "feature-gates": true,
		}
		if !known[name] {
			continue
		}
		if !hasVal && i+1 < len(args) {
			i++
			val = args[i]
		}
		dur := func() (*time.Duration, error) {
			d, err := time.ParseDuration(val)
			if err != nil {
				return nil, fmt.Errorf("--%s=%s: %w", name, val, err)
			}
			return &d, nil
		}
		var err error
		switch name {
		case "horizontal-pod-autoscaler-tolerance":
			v, perr := strconv.ParseFloat(val, 64)
			if perr != nil {
				return nil, fmt.Errorf("--%s=%s: %w", name, val, perr)
			}
			f.Tolerance = &v
		case "horizontal-pod-autoscaler-cpu-initialization-period":
			f.CPUInitializationPeriod, err = dur()
		case "horizontal-pod-autoscaler-initial-readiness-delay":
			f.InitialReadinessDelay, err = dur()
		case "horizontal-pod-autoscaler-downscale-stabilization":
			f.DownscaleStabilization, err = dur()
		case "horizontal-pod-autoscaler-sync-period":
			f.SyncPeriod, err = dur()
		case "feature-gates":
			f.FeatureGates = map[string]bool{}
			for _, kv := range strings.Split(val, ",") {
				k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
				if b, perr := strconv.ParseBool(v); ok && perr == nil {
					f.FeatureGates[k] = b
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return f, nil
}
