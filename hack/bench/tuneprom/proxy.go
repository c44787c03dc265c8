// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// logEntry is one request the proxy forwarded.
type logEntry struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"` // range, raw (SELECTOR[D] at an instant), remote (the remote-read API), instant, other
	Query  string `json:"query,omitempty"`
	Start  int64  `json:"start"` // Unix ns
	End    int64  `json:"end"`
	Bytes  int64  `json:"bytes"`
	Status int    `json:"status"`
}

// countingWriter counts what the handler writes.
type countingWriter struct {
	http.ResponseWriter
	n      int64
	status int
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.ResponseWriter.Write(b)
	c.n += int64(n)
	return n, err
}

func (c *countingWriter) WriteHeader(code int) {
	c.status = code
	c.ResponseWriter.WriteHeader(code)
}

func (c *countingWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// runProxy forwards every request to -target and logs it to -log, one JSON
// line per request, until killed.
func runProxy(args []string) error {
	flags := flag.NewFlagSet("proxy", flag.ExitOnError)
	listen := flags.String("listen", "127.0.0.1:0", "the address to listen on")
	targetURL := flags.String("target", "", "Prometheus's URL (required)")
	logPath := flags.String("log", "", "the file the requests are logged to (required)")
	ready := flags.String("ready-file", "", "a file to write the proxy's URL to once it listens")
	_ = flags.Parse(args)
	if *targetURL == "" || *logPath == "" {
		return errors.New("proxy: -target and -log are required")
	}
	u, err := url.Parse(*targetURL)
	if err != nil {
		return err
	}
	f, err := os.Create(*logPath)
	if err != nil {
		return err
	}
	defer f.Close()
	var mu sync.Mutex
	enc := json.NewEncoder(f)
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e := logEntry{Path: r.URL.Path, Start: time.Now().UnixNano(), Kind: "other"}
		form := r.URL.Query()
		if r.Body != nil && r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if q, err := url.ParseQuery(string(body)); err == nil {
				for k, v := range q {
					form[k] = v
				}
			}
		}
		q := form.Get("query")
		switch {
		case strings.HasSuffix(r.URL.Path, "/query_range"):
			e.Kind = "range"
		case strings.HasSuffix(r.URL.Path, "/api/v1/read"):
			e.Kind = "remote"
		case strings.HasSuffix(r.URL.Path, "/query") && strings.HasSuffix(q, "]"):
			e.Kind = "raw"
		case strings.HasSuffix(r.URL.Path, "/query"):
			e.Kind = "instant"
		}
		e.Query = q
		cw := &countingWriter{ResponseWriter: w, status: http.StatusOK}
		rp.ServeHTTP(cw, r)
		e.End, e.Bytes, e.Status = time.Now().UnixNano(), cw.n, cw.status
		mu.Lock()
		_ = enc.Encode(e)
		mu.Unlock()
	})
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	if *ready != "" {
		if err := os.WriteFile(*ready, []byte("http://"+ln.Addr().String()+"\n"), 0o644); err != nil {
			return err
		}
	}
	return (&http.Server{Handler: h, ReadHeaderTimeout: time.Minute}).Serve(ln)
}

// summary is what a proxy log sums up to.
type summary struct {
	Requests int            `json:"requests"`
	ByKind   map[string]int `json:"byKind"`
	// Bytes are the answers' bytes (JSON as sent), BytesByKind by kind,
	// LargestAnswer the largest one's.
	Bytes       int64            `json:"bytes"`
	BytesByKind map[string]int64 `json:"bytesByKind"`
	// SecondsByKind adds up the requests' durations by kind.
	SecondsByKind map[string]float64 `json:"secondsByKind"`
	LargestAnswer int64              `json:"largestAnswer"`
	// Span is from the first request's start to the last one's end;
	// Busy the time some request was open; SumOfRequests their durations
	// added up; MaxAtOnce the most requests open at one time.
	Span          float64 `json:"spanSeconds"`
	Busy          float64 `json:"busySeconds"`
	SumOfRequests float64 `json:"sumOfRequestsSeconds"`
	MaxAtOnce     int     `json:"maxAtOnce"`
	Failed        int     `json:"failed"`
}

func runSummary(args []string) error {
	flags := flag.NewFlagSet("summary", flag.ExitOnError)
	logPath := flags.String("log", "", "the proxy's log (required)")
	_ = flags.Parse(args)
	f, err := os.Open(*logPath)
	if err != nil {
		return err
	}
	defer f.Close()
	s := summary{ByKind: map[string]int{}, BytesByKind: map[string]int64{}, SecondsByKind: map[string]float64{}}
	type edge struct {
		t     int64
		delta int
	}
	var edges []edge
	var first, last int64
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e logEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return fmt.Errorf("%s: %w", *logPath, err)
		}
		s.Requests++
		s.ByKind[e.Kind]++
		s.Bytes += e.Bytes
		s.BytesByKind[e.Kind] += e.Bytes
		s.LargestAnswer = max(s.LargestAnswer, e.Bytes)
		s.SumOfRequests += float64(e.End-e.Start) / 1e9
		s.SecondsByKind[e.Kind] += float64(e.End-e.Start) / 1e9
		if e.Status/100 != 2 {
			s.Failed++
		}
		if first == 0 || e.Start < first {
			first = e.Start
		}
		last = max(last, e.End)
		edges = append(edges, edge{e.Start, 1}, edge{e.End, -1})
	}
	if err := sc.Err(); err != nil {
		return err
	}
	// Ends before starts at one instant: touching requests are not at once.
	slices.SortFunc(edges, func(a, b edge) int {
		if a.t != b.t {
			if a.t < b.t {
				return -1
			}
			return 1
		}
		return a.delta - b.delta
	})
	open, since := 0, int64(0)
	for _, e := range edges {
		if open == 0 && e.delta > 0 {
			since = e.t
		}
		open += e.delta
		s.MaxAtOnce = max(s.MaxAtOnce, open)
		if open == 0 {
			s.Busy += float64(e.t-since) / 1e9
		}
	}
	s.Span = float64(last-first) / 1e9
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// runPort prints a free local TCP port.
func runPort() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	addr, ok := ln.Addr().(*net.TCPAddr)
	if !ok {
		return errors.New("not a TCP address")
	}
	fmt.Println(addr.Port)
	return nil
}
