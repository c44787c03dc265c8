// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// prometheusService makes the local cluster's Prometheus reachable the
// way users reach theirs, as a Service behind the API server's service
// proxy, and returns the --prometheus value that names it
// (NAMESPACE/prometheus:9090).
//
// Prometheus runs as a process on the loopback address, and the API
// server (v1.37) proxies a Service only to an endpoint that is a pod's
// address, never to a loopback one. So: a pod (kwok gives it an address
// from its node's range, which nothing routes), that address added to the
// loopback interface, a forwarder on it to Prometheus, and a Service with
// an EndpointSlice naming the pod. Adding an address needs root; without
// it the test says so and stops.
func (s *scenario) prometheusService() string {
	t := s.t
	t.Helper()
	if os.Geteuid() != 0 {
		t.Fatalf("the service-proxy part of this test adds an address to the loopback interface (ip addr add), which needs root")
	}
	target, err := url.Parse(prometheusURL())
	if err != nil {
		t.Fatal(err)
	}
	const name, port = "prometheus", 9090
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name + "-0", Labels: map[string]string{"app": name}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{app()}},
	}
	if _, err := env.kube.CoreV1().Pods(s.ns).Create(s.ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create pod %s: %v", pod.Name, err)
	}
	var ip string
	deadline := time.Now().Add(time.Minute)
	for ip == "" {
		p, err := env.kube.CoreV1().Pods(s.ns).Get(s.ctx, pod.Name, metav1.GetOptions{})
		switch {
		case err == nil && p.Status.PodIP != "":
			ip = p.Status.PodIP
		case time.Now().After(deadline):
			t.Fatalf("pod %s has no address after a minute (err %v)", pod.Name, err)
		default:
			time.Sleep(500 * time.Millisecond)
		}
	}
	if out, err := exec.Command("ip", "addr", "add", ip+"/32", "dev", "lo").CombinedOutput(); err != nil {
		t.Fatalf("ip addr add %s/32 dev lo: %v: %s", ip, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("ip", "addr", "del", ip+"/32", "dev", "lo").CombinedOutput(); err != nil {
			t.Logf("ip addr del %s/32 dev lo: %v: %s", ip, err, out)
		}
	})
	stop := forward(t, net.JoinHostPort(ip, "9090"), target.Host)
	t.Cleanup(stop)

	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "web", Port: port, Protocol: corev1.ProtocolTCP}}},
	}
	if _, err := env.kube.CoreV1().Services(s.ns).Create(s.ctx, svc, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create service %s: %v", name, err)
	}
	ready := true
	portName, portNum, tcp := "web", int32(port), corev1.ProtocolTCP
	slice := &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Name: name + "-0", Labels: map[string]string{discoveryv1.LabelServiceName: name}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Endpoints: []discoveryv1.Endpoint{{
			Addresses:  []string{ip},
			Conditions: discoveryv1.EndpointConditions{Ready: &ready},
			TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: s.ns, Name: pod.Name},
		}},
		Ports: []discoveryv1.EndpointPort{{Name: &portName, Port: &portNum, Protocol: &tcp}},
	}
	if _, err := env.kube.DiscoveryV1().EndpointSlices(s.ns).Create(s.ctx, slice, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create endpointslice %s: %v", slice.Name, err)
	}
	// The proxy answers once the API server's endpoint cache has the slice.
	path := "/api/v1/namespaces/" + s.ns + "/services/" + name + ":9090/proxy/api/v1/query"
	deadline = time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
		body, err := env.kube.CoreV1().RESTClient().Get().AbsPath(path).Param("query", "up").DoRaw(ctx)
		cancel()
		if err == nil && strings.Contains(string(body), `"status":"success"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Prometheus through the service proxy (%s) does not answer after a minute: %v %.300s", path, err, body)
		}
		time.Sleep(time.Second)
	}
	return s.ns + "/" + name + ":9090"
}

// forward accepts connections on listen and copies each to and from a
// connection to target, until stop.
func forward(tb testing.TB, listen, target string) (stop func()) {
	tb.Helper()
	l, err := net.Listen("tcp", listen)
	if err != nil {
		tb.Fatalf("listen on %s: %v", listen, err)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		conns = map[net.Conn]bool{}
	)
	track := func(c net.Conn, open bool) {
		mu.Lock()
		defer mu.Unlock()
		if open {
			conns[c] = true
		} else {
			delete(conns, c)
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				if !errors.Is(err, net.ErrClosed) {
					tb.Logf("forwarder %s: %v", listen, err)
				}
				return
			}
			track(c, true)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { track(c, false); _ = c.Close() }()
				u, err := net.DialTimeout("tcp", target, 5*time.Second)
				if err != nil {
					return
				}
				track(u, true)
				defer func() { track(u, false); _ = u.Close() }()
				done := make(chan struct{}, 2)
				go func() { _, _ = io.Copy(u, c); done <- struct{}{} }()
				go func() { _, _ = io.Copy(c, u); done <- struct{}{} }()
				<-done
			}()
		}
	}()
	return func() {
		// Keep-alive connections of the API server's proxy would hold
		// the copies open: close them all.
		_ = l.Close()
		mu.Lock()
		for c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
	}
}
