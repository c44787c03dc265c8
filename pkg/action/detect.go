// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"fmt"
	"sort"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/gather"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// Detect finds what can be known of the HPA controller of a live cluster:
//
//   - the API server's version (GET /version);
//   - the kube-controller-manager pod in kube-system, where readable (self-
//     managed clusters): the version of its image, which wins over the API
//     server's because the controller may lag it by a minor during an
//     upgrade, and its --horizontal-pod-autoscaler-* flags and gates;
//   - fingerprints on the HPAs read: status.observedGeneration (a v1.37+
//     controller with HPAGeneration), the ScaledToZero condition (a v1.36+
//     controller with HPAScaleToZero), and a v1.37 API server whose HPAs
//     carry controller-written statuses without observedGeneration (a
//     controller one minor behind).
//
// Every source is said in the result. Nothing here fails: what cannot be
// read becomes a warning and the defaults apply.
func Detect(ctx context.Context, c *gather.Clients, hpas []*autoscalingv2.HorizontalPodAutoscaler) *Controller {
	out := detectCluster(ctx, c)
	fingerprint(out, hpas)
	return out
}

// detectStart starts Detect's reads of the cluster in the background; the
// function it returns waits for them and finishes with the HPAs' statuses.
func detectStart(ctx context.Context, c *gather.Clients) func([]*autoscalingv2.HorizontalPodAutoscaler) *Controller {
	ch := make(chan *Controller, 1)
	go func() { ch <- detectCluster(ctx, c) }()
	return func(hpas []*autoscalingv2.HorizontalPodAutoscaler) *Controller {
		out := <-ch
		fingerprint(out, hpas)
		return out
	}
}

// detectCluster is what Detect reads from the cluster: the API server's
// version and kube-controller-manager's pod.
func detectCluster(ctx context.Context, c *gather.Clients) *Controller {
	out := &Controller{}
	var server *profile.Version
	serverText := ""
	if v, err := c.Kube.Discovery().ServerVersion(); err != nil {
		out.Warnings = append(out.Warnings, fmt.Sprintf("could not read the API server's version (%s): the newest supported controller is assumed", shortErr(err)))
	} else if pv, perr := profile.Parse(v.GitVersion); perr != nil {
		out.Warnings = append(out.Warnings, fmt.Sprintf("the API server's version %q is not a Kubernetes version: the newest supported controller is assumed", v.GitVersion))
	} else {
		server, serverText = &pv, v.GitVersion
	}

	flags, err := gather.DetectControllerFlags(ctx, c)
	switch {
	case err != nil:
		out.Warnings = append(out.Warnings, fmt.Sprintf("could not read the kube-controller-manager pod (%s): using the default controller settings", shortErr(err)))
		out.FlagsSource = "kube-controller-manager defaults (its pod in kube-system could not be read)"
	case flags == nil:
		out.FlagsSource = "kube-controller-manager defaults (no kube-controller-manager pod in kube-system: managed control planes hide it; pass the flags to override)"
	default:
		out.FlagsSource = "the flags of kube-controller-manager pod " + flags.Source + " (command-line flags win)"
		out.FlagsRead = true
		out.Tolerance = flags.Tolerance
		out.CPUInitializationPeriod = flags.CPUInitializationPeriod
		out.InitialReadinessDelay = flags.InitialReadinessDelay
		out.DownscaleStabilization = flags.DownscaleStabilization
		out.SyncPeriod = flags.SyncPeriod
		if len(flags.FeatureGates) > 0 {
			out.Gates = map[profile.Gate]bool{}
			for k, v := range flags.FeatureGates {
				out.Gates[profile.Gate(k)] = v
			}
			out.GatesSource = "kube-controller-manager pod " + flags.Source
		}
	}

	switch {
	case flags != nil && imageVersion(flags.Image) != nil:
		v := imageVersion(flags.Image)
		out.Version, out.VersionSource = v, fmt.Sprintf("the image of kube-controller-manager pod %s (%s)", flags.Source, flags.Image)
		if server != nil && server.Minor != v.Minor {
			out.VersionSource += fmt.Sprintf("; the API server is %s", serverText)
		}
	case server != nil:
		out.Version, out.VersionSource = server, "the API server's version ("+serverText+")"
	}
	return out
}

// imageVersion reads the version tag of an image reference, if it has one.
func imageVersion(image string) *profile.Version {
	if at := strings.IndexByte(image, '@'); at >= 0 {
		image = image[:at] // the digest
	}
	i := strings.LastIndexByte(image, ':')
	if i < 0 || strings.Contains(image[i:], "/") {
		return nil // no tag (the colon is a registry port)
	}
	v, err := profile.Parse(image[i+1:])
	if err != nil {
		return nil
	}
	return &v
}

// fingerprint refines what is known of the controller from the status the
// controller wrote on the HPAs.
func fingerprint(c *Controller, hpas []*autoscalingv2.HorizontalPodAutoscaler) {
	var withGen, withoutGen, scaledToZero []string
	for _, h := range hpas {
		if h == nil || len(h.Status.Conditions) == 0 {
			continue // no status from a controller yet
		}
		key := h.Namespace + "/" + h.Name
		if h.Status.ObservedGeneration != nil {
			withGen = append(withGen, key)
		} else if h.Generation > 0 {
			withoutGen = append(withoutGen, key)
		}
		for _, cond := range h.Status.Conditions {
			if cond.Type == autoscalingv2.ScaledToZero {
				scaledToZero = append(scaledToZero, key)
				break
			}
		}
	}
	sort.Strings(withGen)
	sort.Strings(withoutGen)
	sort.Strings(scaledToZero)
	v := c.Version
	switch {
	case v == nil:
	case len(withGen) > 0 && v.Minor < 37:
		c.Warnings = append(c.Warnings, fmt.Sprintf("HPA %s carries status.observedGeneration, which only a v1.37+ controller writes, but %s says %s", withGen[0], c.VersionSource, v))
	case len(withGen) == 0 && len(withoutGen) > 0 && v.Minor >= 37 && !strings.HasPrefix(c.VersionSource, "the image"):
		if on, set := c.Gates[profile.HPAGeneration]; set && !on {
			break // the controller runs with HPAGeneration off: nothing to infer
		}
		lag := profile.Version{Minor: v.Minor - 1, Patch: -1}
		var in SettingsInput
		c.VersionSource = fmt.Sprintf("%s, one minor behind it: HPA %s has a controller-written status without observedGeneration, which a %s controller writes at every sync (an upgrade in progress?); pass %s to say otherwise",
			c.VersionSource, withoutGen[0], v.MinorString(), in.flag(&in.ControllerVersion))
		c.Version = &lag
	}
	if len(scaledToZero) > 0 && c.Version != nil && c.Version.Minor == 36 {
		if _, set := c.Gates[profile.HPAScaleToZero]; !set {
			if c.Gates == nil {
				c.Gates = map[profile.Gate]bool{}
			}
			c.Gates[profile.HPAScaleToZero] = true
			src := fmt.Sprintf("the ScaledToZero condition on HPA %s, which only HPAScaleToZero=true writes", scaledToZero[0])
			if c.GatesSource != "" {
				src = c.GatesSource + " and " + src
			}
			c.GatesSource = src
		}
	}
}

func shortErr(err error) string {
	if apierrors.IsForbidden(err) {
		return "forbidden"
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i > 0 {
		s = s[:i]
	}
	return s
}
