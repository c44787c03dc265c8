// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	metricsclient "k8s.io/metrics/pkg/client/clientset/versioned"

	"github.com/kubectl-hpa/kubectl-hpa/internal/schematest"
)

// Timing of the local cluster (hack/cluster/up.sh).
const (
	// syncPeriod is --horizontal-pod-autoscaler-sync-period.
	syncPeriod = 5 * time.Second
	// settleQuiet is how long the controller's status must stay unchanged
	// before a scenario counts as settled: two sync periods plus a margin.
	settleQuiet = 2*syncPeriod + time.Second
	// settleTimeout bounds every wait for the controller.
	settleTimeout = 4 * time.Minute
	// defaultPolicyPeriod is the period of the default scaling policies
	// (15 s, up and down). Once the last rescale is older than that, the
	// controller's scale events no longer limit anything, so the plugin's
	// "no recent scale events" assumption is exact.
	defaultPolicyPeriod = 15 * time.Second
)

// localPort is a port of the local cluster (hack/cluster/lib.sh): base
// moved by KUBECTL_HPA_PORT_OFFSET, as up.sh moves it for a cluster that
// runs beside another (the faults phase's, the soak's).
func localPort(base int) string {
	off, _ := strconv.Atoi(os.Getenv("KUBECTL_HPA_PORT_OFFSET"))
	return strconv.Itoa(base + off)
}

// adapterControl is the fake metrics adapter's control endpoint.
func adapterControl() string { return "http://127.0.0.1:" + localPort(6446) }

// Annotations kwok reads the simulated usage from.
const (
	annCPU    = "kwok.x-k8s.io/usage-cpu"
	annMemory = "kwok.x-k8s.io/usage-memory"
)

// CPU usage values end in half a millicore on purpose. metrics-server turns
// kwok's cumulative counters into a rate, which comes out a few tens of
// nanocores off (measured: 249990264n to 250025296n for 250m), and the
// controller rounds every sample up to whole millicores. A usage of exactly
// 250m therefore reads as 250m or 251m from one scrape to the next, and the
// controller rewrites its status each time. At 250.5m the jitter never
// crosses a millicore boundary, so the samples, the status and the replay are
// stable (always 251m). The rounding is still exercised: a replay that
// truncated instead of rounding up would read 250m and disagree.
const (
	cpuIdle = "1500u" // 1.5m: kwok's default of 1m sits on a boundary
)

// scenario is one namespace of the suite and the helpers that act in it.
type scenario struct {
	t   *testing.T
	ctx context.Context
	ns  string
	// kube and metrics are the clients of the scenario's cluster (the
	// suite's, but for the second cluster of the test of many contexts),
	// kwok its kubelet-like server's URL.
	kube    kubernetes.Interface
	metrics metricsclient.Interface
	kwok    string

	// written lists the adapter paths this scenario wrote, for the cleanup.
	written *writeLog
}

type writeLog struct {
	mu    sync.Mutex
	paths map[string]bool
}

// newScenario creates the namespace e2e-NAME-RUNID and waits for its default
// ServiceAccount (pods are rejected until it exists). The namespace is
// deleted at the end, unless the test failed (then it is kept for a look;
// a cluster started by the suite is stopped anyway) or E2E_KEEP is set.
func newScenario(t *testing.T, name string) *scenario {
	t.Helper()
	return newScenarioIn(t, "e2e-"+name+"-"+env.runID, env.kube, env.metrics, kwokURL())
}

// newScenarioIn is newScenario on the cluster of the clients given, in the
// namespace NS.
func newScenarioIn(t *testing.T, ns string, kube kubernetes.Interface, metrics metricsclient.Interface, kwok string) *scenario {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s := &scenario{t: t, ctx: ctx, ns: ns, kube: kube, metrics: metrics, kwok: kwok, written: &writeLog{paths: map[string]bool{}}}
	_, err := s.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{Name: s.ns, Labels: map[string]string{"kubectl-hpa-e2e": env.runID}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create namespace %s: %v", s.ns, err)
	}
	t.Cleanup(func() {
		if t.Failed() || envSet("E2E_KEEP") {
			t.Logf("keeping namespace %s", s.ns)
			return
		}
		bg := context.Background()
		_ = s.kube.CoreV1().Namespaces().Delete(bg, s.ns, metav1.DeleteOptions{})
		s.deleteAdapterValues()
	})
	s.poll("default ServiceAccount", 60*time.Second, func() error {
		_, err := s.kube.CoreV1().ServiceAccounts(s.ns).Get(ctx, "default", metav1.GetOptions{})
		return err
	})
	t.Logf("namespace %s", s.ns)
	return s
}

// labelNamespace sets a label on the scenario's namespace.
func (s *scenario) labelNamespace(key, value string) {
	s.t.Helper()
	patch := fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, key, value)
	if _, err := s.kube.CoreV1().Namespaces().Patch(s.ctx, s.ns, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		s.t.Fatalf("label namespace %s: %v", s.ns, err)
	}
}

// poll calls f every 250 ms until it returns nil, failing the test after
// timeout with f's last error.
func (s *scenario) poll(what string, timeout time.Duration, f func() error) {
	s.t.Helper()
	var last error
	err := wait.PollUntilContextTimeout(s.ctx, 250*time.Millisecond, timeout, true, func(context.Context) (bool, error) {
		last = f()
		return last == nil, nil
	})
	if err != nil {
		s.t.Fatalf("waiting for %s (%v): %v", what, timeout, last)
	}
}

// container is a container with CPU and memory requests.
func container(name, cpu, memory string) corev1.Container {
	return corev1.Container{
		Name:  name,
		Image: "fake",
		Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse(cpu),
			corev1.ResourceMemory: resource.MustParse(memory),
		}},
	}
}

// app is the default container: 500m CPU, 128Mi memory requested.
func app() corev1.Container { return container("app", "500m", "128Mi") }

// deploy creates Deployment NAME (pods labelled app=NAME) with the pod
// annotations ann (the usage of new pods).
func (s *scenario) deploy(name string, replicas int32, ann map[string]string, containers ...corev1.Container) {
	s.t.Helper()
	if len(containers) == 0 {
		containers = []corev1.Container{app()}
	}
	labels := map[string]string{"app": name}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels, Annotations: ann},
				Spec:       corev1.PodSpec{Containers: containers},
			},
		},
	}
	if _, err := s.kube.AppsV1().Deployments(s.ns).Create(s.ctx, d, metav1.CreateOptions{}); err != nil {
		s.t.Fatalf("create deployment %s: %v", name, err)
	}
}

// pods lists the pods of Deployment NAME that are not being deleted.
func (s *scenario) pods(name string) ([]corev1.Pod, error) {
	list, err := s.kube.CoreV1().Pods(s.ns).List(s.ctx, metav1.ListOptions{LabelSelector: "app=" + name})
	if err != nil {
		return nil, err
	}
	var out []corev1.Pod
	for _, p := range list.Items {
		if p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// waitPods waits until Deployment NAME has exactly n pods, all Running and
// Ready, and returns them sorted by name.
func (s *scenario) waitPods(name string, n int) []corev1.Pod {
	s.t.Helper()
	var pods []corev1.Pod
	s.poll(fmt.Sprintf("%d running pods of %s", n, name), 90*time.Second, func() error {
		var err error
		if pods, err = s.pods(name); err != nil {
			return err
		}
		if len(pods) != n {
			return fmt.Errorf("%d pods", len(pods))
		}
		for _, p := range pods {
			if p.Status.Phase != corev1.PodRunning || !podReady(&p) {
				return fmt.Errorf("pod %s is %s, ready=%v", p.Name, p.Status.Phase, podReady(&p))
			}
		}
		return nil
	})
	return pods
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// annotate sets annotations on pods (kwok reads the usage from them).
func (s *scenario) annotate(pods []corev1.Pod, ann map[string]string) {
	s.t.Helper()
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": ann}})
	if err != nil {
		s.t.Fatal(err)
	}
	for _, p := range pods {
		if _, err := s.kube.CoreV1().Pods(s.ns).Patch(s.ctx, p.Name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			s.t.Fatalf("annotate pod %s: %v", p.Name, err)
		}
	}
}

// setNotReady marks a pod not Ready through its status subresource. kwok
// marks a pod Ready once, when it starts, and leaves it alone afterwards.
func (s *scenario) setNotReady(pod string) {
	s.t.Helper()
	patch := fmt.Sprintf(`{"status":{"conditions":[{"type":"Ready","status":"False","reason":"E2ENotReady","lastTransitionTime":%q}]}}`,
		time.Now().UTC().Format(time.RFC3339))
	if _, err := s.kube.CoreV1().Pods(s.ns).Patch(s.ctx, pod, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}, "status"); err != nil {
		s.t.Fatalf("mark pod %s not ready: %v", pod, err)
	}
}

// createHPA creates the HPA.
func (s *scenario) createHPA(h *autoscalingv2.HorizontalPodAutoscaler) {
	s.t.Helper()
	if _, err := s.kube.AutoscalingV2().HorizontalPodAutoscalers(s.ns).Create(s.ctx, h, metav1.CreateOptions{}); err != nil {
		s.t.Fatalf("create HPA %s: %v", h.Name, err)
	}
}

// hpaFor returns an HPA named like its Deployment target.
func hpaFor(name string, minReplicas, maxReplicas int32, b *autoscalingv2.HorizontalPodAutoscalerBehavior, metrics ...autoscalingv2.MetricSpec) *autoscalingv2.HorizontalPodAutoscaler {
	return &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: name},
			MinReplicas:    &minReplicas,
			MaxReplicas:    maxReplicas,
			Metrics:        metrics,
			Behavior:       b,
		},
	}
}

func ptr[T any](v T) *T { return &v }

// noWindows is a behavior with both stabilization windows at 0 s and the
// default policies. The controller's recommendation history then plays no
// part, and once the last rescale is older than the policies' 15 s period
// its scale events play none either: what the plugin assumes about the
// hidden history (nothing but the current size) is then exactly true.
func noWindows() *autoscalingv2.HorizontalPodAutoscalerBehavior {
	return &autoscalingv2.HorizontalPodAutoscalerBehavior{
		ScaleUp:   &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr[int32](0)},
		ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr[int32](0)},
	}
}

func cpuUtilization(pct int32) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
		Name:   corev1.ResourceCPU,
		Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &pct},
	}}
}

func memoryAverage(q string) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
		Name:   corev1.ResourceMemory,
		Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse(q))},
	}}
}

func containerCPUUtilization(containerName string, pct int32) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{Type: autoscalingv2.ContainerResourceMetricSourceType, ContainerResource: &autoscalingv2.ContainerResourceMetricSource{
		Name:      corev1.ResourceCPU,
		Container: containerName,
		Target:    autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &pct},
	}}
}

func podsAverage(metric, q string) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricSource{
		Metric: autoscalingv2.MetricIdentifier{Name: metric},
		Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse(q))},
	}}
}

// objectMetric describes an object of kind (apiVersion, kind, name). With
// average set the target is an AverageValue, otherwise a Value.
func objectMetric(apiVersion, kind, name, metric, q string, average bool) autoscalingv2.MetricSpec {
	t := autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: ptr(resource.MustParse(q))}
	if average {
		t = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse(q))}
	}
	return autoscalingv2.MetricSpec{Type: autoscalingv2.ObjectMetricSourceType, Object: &autoscalingv2.ObjectMetricSource{
		DescribedObject: autoscalingv2.CrossVersionObjectReference{APIVersion: apiVersion, Kind: kind, Name: name},
		Metric:          autoscalingv2.MetricIdentifier{Name: metric},
		Target:          t,
	}}
}

// externalMetric selects the series of metric with the labels sel. With
// average set the target is an AverageValue, otherwise a Value.
func externalMetric(metric string, sel map[string]string, q string, average bool) autoscalingv2.MetricSpec {
	t := autoscalingv2.MetricTarget{Type: autoscalingv2.ValueMetricType, Value: ptr(resource.MustParse(q))}
	if average {
		t = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr(resource.MustParse(q))}
	}
	var ls *metav1.LabelSelector
	if len(sel) > 0 {
		ls = &metav1.LabelSelector{MatchLabels: sel}
	}
	return autoscalingv2.MetricSpec{Type: autoscalingv2.ExternalMetricSourceType, External: &autoscalingv2.ExternalMetricSource{
		Metric: autoscalingv2.MetricIdentifier{Name: metric, Selector: ls},
		Target: t,
	}}
}

// --- the fake metrics adapter ---------------------------------------------

func adapterDo(method, path, body string) error {
	req, err := http.NewRequest(method, adapterControl()+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(msg))
	}
	return nil
}

// adapterWrite POSTs a value and remembers the path (without the query)
// for the cleanup.
func (s *scenario) adapterWrite(path, query, value string) {
	s.t.Helper()
	if err := adapterDo(http.MethodPost, path+query, `"`+value+`"`); err != nil {
		s.t.Fatal(err)
	}
	s.written.mu.Lock()
	s.written.paths[path] = true
	s.written.mu.Unlock()
}

// writePodMetric sets a Pods metric of one pod.
func (s *scenario) writePodMetric(pod, metric, value string) {
	s.t.Helper()
	s.adapterWrite(fmt.Sprintf("/write-metrics/namespaces/%s/pods/%s/%s", s.ns, pod, metric), "", value)
}

// writeObjectMetric sets an Object metric (resource is plural, like
// "services" or "deployments").
func (s *scenario) writeObjectMetric(res, name, metric, value string) {
	s.t.Helper()
	s.adapterWrite(fmt.Sprintf("/write-metrics/namespaces/%s/%s/%s/%s", s.ns, res, name, metric), "", value)
}

// writeExternal sets the series of an external metric with labels k=v,...
func (s *scenario) writeExternal(metric, labels, value string) {
	s.t.Helper()
	q := ""
	if labels != "" {
		q = "?labels=" + url.QueryEscape(labels)
	}
	s.adapterWrite(fmt.Sprintf("/write-external-metrics/namespaces/%s/%s", s.ns, metric), q, value)
}

// deleteAdapterValues forgets what the scenario wrote (best effort: the
// namespaces are unique per run, so a leftover never reaches another
// scenario). Without a query, an external DELETE removes every series.
func (s *scenario) deleteAdapterValues() {
	s.written.mu.Lock()
	defer s.written.mu.Unlock()
	for p := range s.written.paths {
		_ = adapterDo(http.MethodDelete, p, "")
	}
}

// --- settling ----------------------------------------------------------------

// observed is what the controller wrote and what it acts on.
type observed struct {
	HPA   *autoscalingv2.HorizontalPodAutoscaler
	Scale *autoscalingv1.Scale
	Pods  []corev1.Pod
}

func (o *observed) status() *autoscalingv2.HorizontalPodAutoscalerStatus { return &o.HPA.Status }

// condition returns "Status/Reason" of a status condition, or "" if unset.
func (o *observed) condition(typ autoscalingv2.HorizontalPodAutoscalerConditionType) string {
	for _, c := range o.HPA.Status.Conditions {
		if c.Type == typ {
			return string(c.Status) + "/" + c.Reason
		}
	}
	return ""
}

// key is the part of the observation that must stop changing: the whole
// status the controller wrote (except lastTransitionTime, which only moves
// with a condition's status) and the target's size.
func (o *observed) key() string {
	st := o.HPA.Status.DeepCopy()
	for i := range st.Conditions {
		st.Conditions[i].LastTransitionTime = metav1.Time{}
	}
	st.LastScaleTime = nil
	b, _ := json.Marshal(st)
	return fmt.Sprintf("%s spec=%d status=%d pods=%d", b, o.Scale.Spec.Replicas, o.Scale.Status.Replicas, len(o.Pods))
}

func (s *scenario) observe(name string) (*observed, error) {
	h, err := s.kube.AutoscalingV2().HorizontalPodAutoscalers(s.ns).Get(s.ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	sc, err := s.getScale(h.Spec.ScaleTargetRef)
	if err != nil {
		return nil, err
	}
	pods, err := s.pods(h.Spec.ScaleTargetRef.Name)
	if err != nil {
		return nil, err
	}
	return &observed{HPA: h, Scale: sc, Pods: pods}, nil
}

// expectation checks an observation; nil means it holds.
type expectation func(o *observed) error

// settleOptions tune settle.
type settleOptions struct {
	// historyHorizon: the last rescale must be at least this old, so that
	// the controller's hidden scale events no longer limit anything.
	historyHorizon time.Duration
	// allowMoving: desiredReplicas may differ from the target's size.
	allowMoving bool
	// allowUnready: pods may be not Running or not Ready (otherwise a pod
	// still Pending, which the controller counts as unready, would make the
	// scenario's pod accounting depend on kwok's speed).
	allowUnready bool
	// timeout overrides settleTimeout.
	timeout time.Duration
}

// settle waits until the controller's status for HPA NAME has settled:
//   - the expectations hold (the scenario's known end state);
//   - desiredReplicas == status.currentReplicas == scale.spec.replicas ==
//     the number of live pods, and the Deployment has no pod left to start
//     or delete (unless allowMoving);
//   - every pod is Running and Ready (unless allowUnready);
//   - the status and the target stayed unchanged for settleQuiet (two sync
//     periods and a margin);
//   - the last rescale is older than historyHorizon.
//
// It polls once a second and never sleeps blindly.
func (s *scenario) settle(name string, opts settleOptions, want ...expectation) *observed {
	s.t.Helper()
	timeout := opts.timeout
	if timeout == 0 {
		timeout = settleTimeout
	}
	var (
		last     *observed
		lastErr  error
		lastKey  string
		since    time.Time
		began    = time.Now()
		deadline = began.Add(timeout)
	)
	check := func(o *observed) error {
		st := o.status()
		if len(st.Conditions) == 0 {
			return errors.New("the controller has not written a status yet")
		}
		if !opts.allowMoving {
			if st.DesiredReplicas != st.CurrentReplicas || st.CurrentReplicas != o.Scale.Spec.Replicas ||
				o.Scale.Status.Replicas != o.Scale.Spec.Replicas || int32(len(o.Pods)) != o.Scale.Spec.Replicas {
				return fmt.Errorf("still moving: desired=%d status.currentReplicas=%d scale spec=%d status=%d, %d live pods",
					st.DesiredReplicas, st.CurrentReplicas, o.Scale.Spec.Replicas, o.Scale.Status.Replicas, len(o.Pods))
			}
		}
		if !opts.allowUnready {
			for i := range o.Pods {
				if p := &o.Pods[i]; p.Status.Phase != corev1.PodRunning || !podReady(p) {
					return fmt.Errorf("pod %s is %s, ready=%v", p.Name, p.Status.Phase, podReady(p))
				}
			}
		}
		for _, w := range want {
			if err := w(o); err != nil {
				return err
			}
		}
		if opts.historyHorizon > 0 && st.LastScaleTime != nil {
			if age := time.Since(st.LastScaleTime.Time); age < opts.historyHorizon {
				return fmt.Errorf("last rescale %v ago, waiting until it is %v old", age.Round(time.Second), opts.historyHorizon)
			}
		}
		return nil
	}
	for {
		o, err := s.observe(name)
		switch {
		case err != nil:
			lastErr = err
		default:
			last = o
			lastErr = check(o)
			if k := o.key(); k != lastKey || lastErr != nil {
				lastKey, since = k, time.Now()
				if lastErr == nil {
					lastErr = errors.New("status just changed")
				}
			} else if time.Since(since) >= settleQuiet {
				s.t.Logf("settled after %v: desired=%d current=%d %s", time.Since(began).Round(time.Second),
					o.HPA.Status.DesiredReplicas, o.HPA.Status.CurrentReplicas, conditionsString(o.HPA.Status.Conditions))
				return o
			} else {
				lastErr = fmt.Errorf("unchanged for %v only", time.Since(since).Round(time.Second))
			}
		}
		if time.Now().After(deadline) {
			s.dump(name, last)
			s.t.Fatalf("HPA %s did not settle within %v: %v", name, timeout, lastErr)
		}
		select {
		case <-s.ctx.Done():
			s.t.Fatal(s.ctx.Err())
		case <-time.After(time.Second):
		}
	}
}

// dump logs what the controller wrote and the pods, for a failure.
func (s *scenario) dump(name string, o *observed) {
	s.t.Helper()
	if o == nil {
		return
	}
	b, _ := json.MarshalIndent(o.HPA.Status, "", "  ")
	s.t.Logf("HPA %s status:\n%s", name, b)
	s.t.Logf("scale: spec=%d status=%d selector=%q", o.Scale.Spec.Replicas, o.Scale.Status.Replicas, o.Scale.Status.Selector)
	for _, p := range o.Pods {
		s.t.Logf("pod %s phase=%s ready=%v cpu=%s memory=%s", p.Name, p.Status.Phase, podReady(&p), p.Annotations[annCPU], p.Annotations[annMemory])
	}
	evs, err := s.kube.CoreV1().Events(s.ns).List(s.ctx, metav1.ListOptions{FieldSelector: "involvedObject.kind=HorizontalPodAutoscaler"})
	if err == nil {
		for _, e := range evs.Items {
			s.t.Logf("event %s %s x%d: %s", e.Type, e.Reason, e.Count, e.Message)
		}
	}
}

func conditionsString(cs []autoscalingv2.HorizontalPodAutoscalerCondition) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s=%s/%s", c.Type, c.Status, c.Reason))
	}
	return strings.Join(parts, " ")
}

// --- expectations -------------------------------------------------------------

// samplesForAllPods: metrics.k8s.io has a sample for every live pod of the
// target (metrics-server needs two scrapes of a new pod, 20 to 35 s).
func samplesForAllPods(s *scenario) expectation {
	return func(o *observed) error {
		list, err := s.metrics.MetricsV1beta1().PodMetricses(s.ns).List(s.ctx, metav1.ListOptions{LabelSelector: o.Scale.Status.Selector})
		if err != nil {
			return err
		}
		has := map[string]bool{}
		for _, m := range list.Items {
			has[m.Name] = true
		}
		for _, p := range o.Pods {
			if !has[p.Name] {
				return fmt.Errorf("pod %s has no CPU sample yet", p.Name)
			}
		}
		return nil
	}
}

func desired(n int32) expectation {
	return func(o *observed) error {
		if got := o.HPA.Status.DesiredReplicas; got != n {
			return fmt.Errorf("desiredReplicas %d, want %d", got, n)
		}
		return nil
	}
}

func current(n int32) expectation {
	return func(o *observed) error {
		if got := o.HPA.Status.CurrentReplicas; got != n {
			return fmt.Errorf("status.currentReplicas %d, want %d", got, n)
		}
		return nil
	}
}

func hasCondition(typ autoscalingv2.HorizontalPodAutoscalerConditionType, status corev1.ConditionStatus, reason string) expectation {
	return func(o *observed) error {
		want := string(status) + "/" + reason
		if got := o.condition(typ); got != want {
			return fmt.Errorf("condition %s is %q, want %q", typ, got, want)
		}
		return nil
	}
}

// metricUtilization: currentMetrics[i] reports this average utilization.
func metricUtilization(i int, pct int32) expectation {
	return func(o *observed) error {
		ms := o.HPA.Status.CurrentMetrics
		if i >= len(ms) {
			return fmt.Errorf("currentMetrics has %d entries, want #%d", len(ms), i)
		}
		var cur *autoscalingv2.MetricValueStatus
		switch {
		case ms[i].Resource != nil:
			cur = &ms[i].Resource.Current
		case ms[i].ContainerResource != nil:
			cur = &ms[i].ContainerResource.Current
		}
		if cur == nil || cur.AverageUtilization == nil || *cur.AverageUtilization != pct {
			return fmt.Errorf("currentMetrics[%d] = %s, want utilization %d%%", i, jsonString(ms[i]), pct)
		}
		return nil
	}
}

// metricCurrent: currentMetrics[i]'s value or averageValue equals q.
func metricCurrent(i int, q string) expectation {
	want := resource.MustParse(q)
	return func(o *observed) error {
		ms := o.HPA.Status.CurrentMetrics
		if i >= len(ms) {
			return fmt.Errorf("currentMetrics has %d entries, want #%d", len(ms), i)
		}
		var cur *autoscalingv2.MetricValueStatus
		switch m := ms[i]; {
		case m.Resource != nil:
			cur = &m.Resource.Current
		case m.ContainerResource != nil:
			cur = &m.ContainerResource.Current
		case m.Pods != nil:
			cur = &m.Pods.Current
		case m.Object != nil:
			cur = &m.Object.Current
		case m.External != nil:
			cur = &m.External.Current
		}
		if cur != nil {
			if cur.AverageValue != nil && cur.AverageValue.Cmp(want) == 0 {
				return nil
			}
			if cur.Value != nil && cur.Value.Cmp(want) == 0 {
				return nil
			}
		}
		return fmt.Errorf("currentMetrics[%d] = %s, want %s", i, jsonString(ms[i]), q)
	}
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// markQuiet creates the file E2E_QUIET_FILE names, if it names one: the
// sign, for hack/test/run.sh, that what is left of the suite mostly waits
// (so that its race tests may start beside it, at a low priority).
func markQuiet(t *testing.T) {
	t.Helper()
	if f := os.Getenv("E2E_QUIET_FILE"); f != "" {
		if err := os.WriteFile(f, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644); err != nil {
			t.Logf("E2E_QUIET_FILE: %v", err)
		}
	}
}

func envSet(name string) bool {
	v := os.Getenv(name)
	return v != "" && v != "0" && v != "false"
}

// hpaEvents returns the messages of the HPA's events with the reason.
func (s *scenario) hpaEvents(name, reason string) []string {
	s.t.Helper()
	evs, err := s.kube.CoreV1().Events(s.ns).List(s.ctx, metav1.ListOptions{
		FieldSelector: "involvedObject.kind=HorizontalPodAutoscaler,involvedObject.name=" + name + ",reason=" + reason,
	})
	if err != nil {
		s.t.Fatalf("list events: %v", err)
	}
	var out []string
	for _, e := range evs.Items {
		out = append(out, e.Message)
	}
	return out
}

// waitEvent waits for an HPA event with the reason whose message contains
// substr.
func (s *scenario) waitEvent(name, reason, substr string, timeout time.Duration) {
	s.t.Helper()
	s.poll(fmt.Sprintf("event %s %q", reason, substr), timeout, func() error {
		msgs := s.hpaEvents(name, reason)
		for _, m := range msgs {
			if strings.Contains(m, substr) {
				return nil
			}
		}
		return fmt.Errorf("events %s: %q", reason, msgs)
	})
}

// checkOutputSchema fails the test when a run with -o json printed a
// document, or a watch stream of them, that does not match its JSON Schema
// (docs/schema, validated by internal/schematest). Every place that parses
// a run's JSON output calls it first.
func checkOutputSchema(tb testing.TB, args []string, stdout []byte) {
	tb.Helper()
	asJSON := false
	for i, a := range args {
		switch {
		case a == "-ojson", a == "-o=json", a == "--output=json":
			asJSON = true
		case (a == "-o" || a == "--output") && i+1 < len(args):
			asJSON = args[i+1] == "json"
		}
	}
	if asJSON && len(bytes.TrimSpace(stdout)) > 0 {
		schematest.CheckAny(tb, stdout)
	}
}

// Every -o json output of a run (inProcess or a built binary) is
// validated against its schema: the failures are collected and fail the
// suite at its end (run), so no output escapes, whichever test made it.
var outputSchemas struct {
	sync.Mutex
	checked  int
	failures []string
}

// noteOutputSchema validates a successful run's -o json output.
func noteOutputSchema(args []string, r runResult) {
	asJSON := false
	for i, a := range args {
		switch {
		case a == "-ojson", a == "-o=json", a == "--output=json":
			asJSON = true
		case (a == "-o" || a == "--output") && i+1 < len(args):
			asJSON = args[i+1] == "json"
		}
	}
	if !asJSON || r.code != 0 || len(bytes.TrimSpace(r.stdout)) == 0 {
		return
	}
	_, err := schematest.ValidateAny(r.stdout)
	outputSchemas.Lock()
	defer outputSchemas.Unlock()
	outputSchemas.checked++
	if err != nil {
		doc := string(r.stdout)
		if len(doc) > 1500 {
			doc = doc[:1500] + "\n[...]"
		}
		outputSchemas.failures = append(outputSchemas.failures, fmt.Sprintf("kubectl-hpa %s: %v\n%s", strings.Join(args, " "), err, doc))
	}
}

// outputSchemaVerdict reports what noteOutputSchema found; false when an
// output did not match its schema.
func outputSchemaVerdict() bool {
	outputSchemas.Lock()
	defer outputSchemas.Unlock()
	for _, f := range outputSchemas.failures {
		fmt.Fprintln(os.Stderr, "e2e: an -o json output does not match its schema:", f)
	}
	fmt.Fprintf(os.Stderr, "e2e: %d -o json outputs validated against their schemas, %d failed\n", outputSchemas.checked, len(outputSchemas.failures))
	return len(outputSchemas.failures) == 0
}

// The plugin's -o json outputs reach checkOutputSchema whole; version's
// needs no cluster call (the API call audit of TestAgreement counts the
// in-process runs' calls).
func TestOutputSchemaCheck(t *testing.T) {
	args := []string{"version", "-o", "json"}
	r := inProcess(args)
	if r.code != 0 {
		t.Fatalf("version exited %d: %s", r.code, r.stderr)
	}
	checkOutputSchema(t, args, r.stdout)
}
