// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package prom

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	jsoniter "github.com/json-iterator/go"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
)

// Range answers (of range queries, and of instant queries of a range
// selector: the raw samples) are decoded as they arrive instead of through
// v1.API.QueryRange, which holds the whole body, validates it with
// encoding/json, copies it, and builds a model.Matrix of every point
// before returning: for a 7-day read that is several times the recording's
// own size in garbage. Here each point goes straight from the wire into
// the recording's series; memory per request is a 64 KiB buffer. The
// envelope, the error answers and the POST-then-GET fallback follow the
// API as client_golang reads it, and the errors are its *v1.Error, so both
// kinds of query fail alike.

const streamBuffer = 64 << 10

// queryRange evaluates one piece of a range query and streams each series
// into fold: fold gets the series' labels and returns the sink of its
// points (nil skips the series). It returns the series count and the
// answer's warnings.
func (c *Client) queryRange(ctx context.Context, what, query string, r v1.Range, fold func(model.Metric) func(model.Time, float64)) (int, []string, error) {
	form := url.Values{}
	form.Set("query", query)
	form.Set("start", formatUnix(r.Start.UnixMilli()))
	form.Set("end", formatUnix(r.End.UnixMilli()))
	form.Set("step", strconv.FormatFloat(r.Step.Seconds(), 'f', -1, 64))
	return c.streamMatrix(ctx, what, query, "/api/v1/query_range", form, fold)
}

// queryRaw evaluates selector[rng] as an instant query at t: the answer is
// every sample the store holds of each series the selector picks in the
// rng before t, each with its own timestamp, as a range vector (the shape
// of a range query's answer). Each series streams into fold as in
// queryRange. It returns the series count and the answer's warnings.
func (c *Client) queryRaw(ctx context.Context, what, selector string, rng time.Duration, t time.Time, fold func(model.Metric) func(model.Time, float64)) (int, []string, error) {
	query := rawQuery(selector, rng)
	form := url.Values{}
	form.Set("query", query)
	form.Set("time", formatUnix(t.UnixMilli()))
	return c.streamMatrix(ctx, what, query, "/api/v1/query", form, fold)
}

// rawQuery is the PromQL of a raw read: the selector over rng.
func rawQuery(selector string, rng time.Duration) string {
	return selector + "[" + promDuration(rng) + "]"
}

// streamMatrix sends one query whose answer is a range vector to path and
// streams the answer into fold, within the request's bound, with the
// POST-then-GET fallback, and the server's warnings handled as the client
// is told to.
func (c *Client) streamMatrix(ctx context.Context, what, query, path string, form url.Values, fold func(model.Metric) func(model.Time, float64)) (int, []string, error) {
	fail := func(err error) (int, []string, error) {
		return 0, nil, &QueryError{Endpoint: c.endpoint.String(), What: what, Query: query, Err: c.explain(ctx, err)}
	}
	rctx, cancel := c.reqContext(ctx)
	defer cancel()
	if c.timeout > 0 {
		form.Set("timeout", c.timeout.String())
	}
	resp, err := c.post(rctx, c.raw.URL(path, nil), form)
	if err != nil {
		return fail(err)
	}
	defer func() {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, streamBuffer))
		_ = resp.Body.Close()
	}()
	if resp.StatusCode/100 != 2 {
		return fail(errorAnswer(resp))
	}
	n, warnings, err := decodeMatrix(resp.Body, fold)
	if err != nil {
		return fail(err)
	}
	warnings, err = c.warned(what, query, warnings)
	if err != nil {
		return 0, nil, err
	}
	return n, warnings, nil
}

// formatUnix writes milliseconds as the API's seconds ("1764165600.5").
func formatUnix(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64)
}

// post sends the form as a POST, and again as a GET when the server (or a
// proxy before it: the API server's service proxy asks for create on
// services/proxy for a POST, get for a GET) refuses the method.
func (c *Client) post(ctx context.Context, u *url.URL, form url.Values) (*http.Response, error) {
	body := form.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusForbidden, http.StatusMethodNotAllowed, http.StatusNotImplemented:
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, streamBuffer))
		_ = resp.Body.Close()
		get := *u
		get.RawQuery = body
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, get.String(), http.NoBody)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		return c.hc.Do(req)
	}
	return resp, nil
}

// errorAnswer reads a non-2xx answer as client_golang does: 400 and 422
// carry the API's envelope (errorType, error); any other status is an HTTP
// error whose body is the detail.
func errorAnswer(resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	code := resp.StatusCode
	class := v1.ErrBadResponse
	msg := fmt.Sprintf("bad response code %d", code)
	switch code / 100 {
	case 4:
		class, msg = v1.ErrClient, fmt.Sprintf("client error: %d", code)
	case 5:
		class, msg = v1.ErrServer, fmt.Sprintf("server error: %d", code)
	}
	if code == http.StatusBadRequest || code == http.StatusUnprocessableEntity {
		var env struct {
			Status    string `json:"status"`
			ErrorType string `json:"errorType"`
			Error     string `json:"error"`
		}
		if json.Unmarshal(body, &env) == nil && env.Status == "error" {
			t := v1.ErrorType(env.ErrorType)
			if t == "" {
				t = v1.ErrClient
			}
			if env.Error == "" {
				env.Error = msg
			}
			return &v1.Error{Type: t, Msg: env.Error}
		}
	}
	return &v1.Error{Type: class, Msg: msg, Detail: string(body)}
}

// decodeMatrix reads a query_range envelope from r, handing each series'
// points to fold as they are read. Fields may come in any order; values
// read before a series' labels are held until the labels come.
func decodeMatrix(r io.Reader, fold func(model.Metric) func(model.Time, float64)) (series int, warnings []string, err error) {
	it := jsoniter.Parse(jsoniter.ConfigDefault, r, streamBuffer)
	var status, errorType, errorMsg, resultType string
	for field := it.ReadObject(); field != "" && it.Error == nil; field = it.ReadObject() {
		switch field {
		case "status":
			status = it.ReadString()
		case "errorType":
			errorType = it.ReadString()
		case "error":
			errorMsg = it.ReadString()
		case "warnings":
			for it.ReadArray() {
				warnings = append(warnings, it.ReadString())
			}
		case "data":
			if it.WhatIsNext() == jsoniter.NilValue {
				it.Skip()
				continue
			}
			for f := it.ReadObject(); f != "" && it.Error == nil; f = it.ReadObject() {
				switch f {
				case "resultType":
					resultType = it.ReadString()
				case "result":
					if resultType != "" && resultType != "matrix" {
						return 0, warnings, &v1.Error{Type: v1.ErrBadResponse, Msg: fmt.Sprintf("the answer is a %s, not a range vector", resultType)}
					}
					for it.ReadArray() {
						series++
						decodeSeries(it, fold)
					}
				default:
					it.Skip()
				}
			}
		default:
			it.Skip()
		}
	}
	if it.Error != nil && !errors.Is(it.Error, io.EOF) {
		return 0, warnings, &v1.Error{Type: v1.ErrBadResponse, Msg: "cannot decode the answer: " + it.Error.Error()}
	}
	if status == "error" {
		return 0, warnings, &v1.Error{Type: v1.ErrorType(errorType), Msg: errorMsg}
	}
	if status != "success" {
		return 0, warnings, &v1.Error{Type: v1.ErrBadResponse, Msg: fmt.Sprintf("the answer's status is %q", status)}
	}
	return series, warnings, nil
}

type point struct {
	t model.Time
	v float64
}

func decodeSeries(it *jsoniter.Iterator, fold func(model.Metric) func(model.Time, float64)) {
	var sink func(model.Time, float64)
	labeled := false
	var held []point
	for f := it.ReadObject(); f != "" && it.Error == nil; f = it.ReadObject() {
		switch f {
		case "metric":
			m := model.Metric{}
			for name := it.ReadObject(); name != "" && it.Error == nil; name = it.ReadObject() {
				m[model.LabelName(name)] = model.LabelValue(it.ReadString())
			}
			labeled = true
			if fold != nil {
				sink = fold(m)
			}
			if sink != nil {
				for _, p := range held {
					sink(p.t, p.v)
				}
			}
			held = nil
		case "values":
			for it.ReadArray() {
				if !it.ReadArray() {
					it.ReportError("values", "a point must be [time, value]")
					return
				}
				ts := model.Time(math.Round(it.ReadFloat64() * 1000))
				if !it.ReadArray() {
					it.ReportError("values", "a point must be [time, value]")
					return
				}
				raw := it.ReadStringAsSlice()
				v, err := strconv.ParseFloat(string(raw), 64)
				if err != nil {
					it.ReportError("values", "a value is not a number: "+string(raw))
					return
				}
				if it.ReadArray() {
					it.ReportError("values", "a point must be [time, value]")
					return
				}
				switch {
				case sink != nil:
					sink(ts, v)
				case !labeled:
					held = append(held, point{ts, v})
				}
			}
		default:
			it.Skip()
		}
	}
}
