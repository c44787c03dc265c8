// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

// Command fake-metrics-adapter serves custom.metrics.k8s.io (v1beta1, v1beta2)
// and external.metrics.k8s.io from in-memory values that tests set over a
// loopback HTTP control endpoint (see control.go). It is a test fixture for
// the kubectl-hpa end-to-end harness, not something to run in a real cluster.
package main

import (
	"context"
	"errors"
	"flag"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"k8s.io/klog/v2"

	basecmd "sigs.k8s.io/custom-metrics-apiserver/pkg/cmd"
)

func main() {
	if err := run(); err != nil {
		klog.ErrorS(err, "fake-metrics-adapter failed")
		klog.Flush()
		os.Exit(1)
	}
}

func run() error {
	cmd := &basecmd.AdapterBase{Name: "fake-metrics-adapter", DiscoveryInterval: 30 * time.Second}
	fs := cmd.Flags()
	controlAddr := fs.String("control-address", "127.0.0.1:6446",
		"host:port of the plain-HTTP control endpoint that sets metric values (keep it on loopback)")
	klogFlags := flag.NewFlagSet("klog", flag.ExitOnError)
	klog.InitFlags(klogFlags)
	fs.AddGoFlagSet(klogFlags)
	if err := fs.Parse(os.Args[1:]); err != nil {
		return err
	}

	mapper, err := cmd.RESTMapper()
	if err != nil {
		return err
	}
	client, err := cmd.DynamicClient()
	if err != nil {
		return err
	}
	s := newStore(nil, nil)
	access := &clusterAccess{mapper: mapper, client: client}
	s.res, s.list = access, access
	cmd.WithCustomMetrics(s)
	cmd.WithExternalMetrics(s)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	ln, err := net.Listen("tcp", *controlAddr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/", newControlHandler(s))
	mux.Handle("GET /metrics", stateMetricsHandler(client))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		klog.InfoS("control endpoint listening", "address", ln.Addr().String())
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			klog.ErrorS(err, "control endpoint stopped")
			stop()
		}
	}()
	defer func() {
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdownCtx)
	}()

	return cmd.Run(ctx)
}
