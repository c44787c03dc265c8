// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package differential

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/engine"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/profile"
)

// The upstream side of every comparison is the oracle (oracle/*.go): a
// process built against upstreamVersion's k8s.io/kubernetes by
// hack/differential/oracle.sh. This file is its client; the requests are
// in wire.go, shared with the oracle, and the responses are decoded here
// into the types the comparisons use.

func timesOf(snap *engine.Snapshot) exactTimes {
	t := exactTimes{Pods: []podTimes{}, PodMetrics: []time.Time{}, Custom: []time.Time{}, External: []time.Time{}, HPAConditions: []time.Time{}}
	for _, p := range snap.Pods {
		pt := podTimes{Conditions: []time.Time{}}
		if p.Status.StartTime != nil {
			pt.Start = &p.Status.StartTime.Time
		}
		if p.DeletionTimestamp != nil {
			pt.Deletion = &p.DeletionTimestamp.Time
		}
		for _, c := range p.Status.Conditions {
			pt.Conditions = append(pt.Conditions, c.LastTransitionTime.Time)
		}
		t.Pods = append(t.Pods, pt)
	}
	for _, m := range snap.PodMetrics {
		t.PodMetrics = append(t.PodMetrics, m.Timestamp.Time)
	}
	for _, m := range snap.CustomMetrics {
		t.Custom = append(t.Custom, m.Timestamp.Time)
	}
	for _, m := range snap.ExternalMetrics {
		t.External = append(t.External, m.Timestamp.Time)
	}
	for _, c := range snap.HPA.Status.Conditions {
		t.HPAConditions = append(t.HPAConditions, c.LastTransitionTime.Time)
	}
	return t
}

type oracleResponse struct {
	ID    uint64         `json:"id"`
	Error string         `json:"error,omitempty"`
	Info  *oracleInfo    `json:"info,omitempty"`
	Calc  *upstreamWire  `json:"calc,omitempty"`
	Run   *controllerRun `json:"run,omitempty"`
}

// controllerResult is what one sync of the real controller did.
type controllerResult struct {
	// Status is the status written by this sync; nil when it wrote none.
	Status *autoscalingv2.HorizontalPodAutoscalerStatus `json:"status,omitempty"`
	// CurrentMetrics is Status.CurrentMetrics as upstream marshalled it (a
	// quantity decoded from JSON prints in its parsed format).
	CurrentMetrics json.RawMessage `json:"currentMetrics,omitempty"`
	Events         []explain.Event `json:"events"`
	ScaleUpdated   bool            `json:"scaleUpdated"`
	ScaledTo       int32           `json:"scaledTo"`
}

// controllerRun is the outcome of consecutive syncs of one HPA.
type controllerRun struct {
	Syncs   []controllerResult `json:"syncs"`
	Elapsed int64              `json:"elapsedNs"`
	Stale   bool               `json:"stale"`
	Tries   int                `json:"tries"`
}

type oracleClient struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	mu      sync.Mutex
	nextID  uint64
	pending map[uint64]chan oracleResponse
	dead    error
	info    *oracleInfo
}

var (
	oracleOnce sync.Once
	theOracle  *oracleClient
	oracleErr  error
)

// oraclePath is $DIFF_ORACLE, or the binary hack/differential/oracle.sh
// builds (or finds cached) for upstreamVersion.
func oraclePath() (string, error) {
	if p := os.Getenv("DIFF_ORACLE"); p != "" {
		return p, nil
	}
	script, err := filepath.Abs("../../hack/differential/oracle.sh")
	if err != nil {
		return "", err
	}
	var stderr bytes.Buffer
	cmd := exec.Command(script, upstreamVersion.String())
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", script, upstreamVersion, err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1], nil
}

// oracle returns the running oracle of upstreamVersion, starting it at the
// first call. It panics when the oracle cannot be built or started.
func oracle() *oracleClient {
	oracleOnce.Do(func() {
		path, err := oraclePath()
		if err != nil {
			oracleErr = err
			return
		}
		theOracle, oracleErr = startOracle(path)
		if oracleErr == nil {
			var info oracleResponse
			info, oracleErr = theOracle.call(oracleRequest{Kind: "info"})
			theOracle.info = info.Info
			if oracleErr == nil && info.Info == nil {
				oracleErr = fmt.Errorf("oracle %s answered no info", path)
			}
		}
	})
	if oracleErr != nil {
		panic("differential oracle: " + oracleErr.Error())
	}
	return theOracle
}

func startOracle(path string) (*oracleClient, error) {
	cmd := exec.Command(path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	o := &oracleClient{cmd: cmd, stdin: stdin, pending: map[uint64]chan oracleResponse{}}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<30)
		for sc.Scan() {
			var r oracleResponse
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				o.fail(fmt.Errorf("decode oracle answer: %w", err))
				return
			}
			o.mu.Lock()
			ch := o.pending[r.ID]
			delete(o.pending, r.ID)
			o.mu.Unlock()
			if ch == nil {
				o.fail(fmt.Errorf("oracle answered unknown request %d: %s", r.ID, r.Error))
				return
			}
			ch <- r
		}
		err := sc.Err()
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		o.fail(fmt.Errorf("oracle output ended: %w (exit: %v)", err, cmd.Wait()))
	}()
	return o, nil
}

func (o *oracleClient) fail(err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.dead == nil {
		o.dead = err
	}
	for id, ch := range o.pending {
		ch <- oracleResponse{ID: id, Error: o.dead.Error()}
		delete(o.pending, id)
	}
}

// call sends one request and waits for its answer. Safe for concurrent use.
func (o *oracleClient) call(req oracleRequest) (oracleResponse, error) {
	ch := make(chan oracleResponse, 1)
	o.mu.Lock()
	if o.dead != nil {
		o.mu.Unlock()
		return oracleResponse{}, o.dead
	}
	o.nextID++
	req.ID = o.nextID
	o.pending[req.ID] = ch
	b, err := json.Marshal(req)
	if err == nil {
		_, err = o.stdin.Write(append(b, '\n'))
	}
	o.mu.Unlock()
	if err != nil {
		return oracleResponse{}, err
	}
	r := <-ch
	if r.Error != "" {
		return r, fmt.Errorf("oracle: %s", r.Error)
	}
	return r, nil
}

// toWire is the case as the oracle reads it.
func toWire(c *Case) *wireCase {
	snap, set := c.Snapshot, c.Settings
	down, up := harnessTolerances(snap.HPA, set)
	return &wireCase{
		Seed: c.Seed, Ref: snap.Now.Add(-engineEpsilon), HPA: snap.HPA, Pods: snap.Pods,
		PodMetrics: snap.PodMetrics, CustomMetrics: snap.CustomMetrics, ExternalMetrics: snap.ExternalMetrics,
		APIErrors: snap.APIErrors, TargetName: snap.Target.Name, Selector: snap.Target.Selector,
		SpecReplicas: snap.Target.SpecReplicas, StatusReplicas: snap.Target.StatusReplicas,
		Tolerance: set.Tolerance, ToleranceDown: down, ToleranceUp: up,
		CPUInitializationPeriod: set.CPUInitializationPeriod, InitialReadinessDelay: set.InitialReadinessDelay,
		DownscaleStabilization: set.DownscaleStabilization, Times: timesOf(snap),
	}
}

// calcGates are the gates upstream's ReplicaCalculator reads, as the case
// sets them (only those that exist in upstreamVersion).
func calcGates(set engine.Settings) map[string]bool {
	out := map[string]bool{}
	if v, ok := set.Profile.Gates[profile.PodLevelResources]; ok {
		out[string(profile.PodLevelResources)] = v
	}
	return out
}

// allGates are every gate of the case's profile, for the controller.
func allGates(set engine.Settings) map[string]bool {
	out := map[string]bool{}
	for g, v := range set.Profile.Gates {
		out[string(g)] = v
	}
	return out
}

// runUpstreamStable runs the case's first metric through the oracle's
// ReplicaCalculator (which retries calls too slow for the clock convention).
func runUpstreamStable(c *Case) upstreamResult {
	r, err := oracle().call(oracleRequest{Kind: "calc", Gates: calcGates(c.Settings), Case: toWire(c)})
	if err != nil {
		panic(fmt.Sprintf("seed %d: %v", c.Seed, err))
	}
	return upstreamResult(*r.Calc)
}

// runControllerStable runs len(wantEvents) syncs of the oracle's
// HorizontalController (retried when too slow or stale).
func runControllerStable(c *Case, wantEvents []int) (controllerRun, error) {
	r, err := oracle().call(oracleRequest{Kind: "reconcile", Gates: allGates(c.Settings), Case: toWire(c), WantEvents: wantEvents})
	if err != nil {
		return controllerRun{}, err
	}
	return *r.Run, nil
}
