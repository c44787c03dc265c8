// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessageBytes bounds one message from the client (one line of
// newline-delimited JSON-RPC). The largest request a client has a reason
// to send is a tool call with a few names, flags and PromQL queries, a few
// KiB; files (a behavior, a trace) are passed by path. A mebibyte is two
// orders of magnitude above that, and is what the server holds at most for
// one message: a longer line is read through and discarded as it comes,
// and answered with a protocol error.
const MaxMessageBytes = 1 << 20

// The JSON-RPC 2.0 error codes the server's reader answers with itself.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// lineTransport is the stdio transport of the server: newline-delimited
// JSON-RPC, as the SDK's IOTransport, with the client's mistakes answered
// instead of ending the session. The SDK's reader stops at the first line
// it cannot decode (and the server with it); here every line is checked
// first, and only a well-formed single message goes on to the SDK's
// connection. A line that is not JSON gets JSON-RPC's parse error, one
// that is JSON but no message (or a batch, which MCP dropped in its
// 2025-06-18 revision) an invalid-request error, one longer than max an
// invalid-request error too; the next line is served.
type lineTransport struct {
	in  io.Reader
	out io.Writer
	max int
}

// Connect starts the reader and returns the SDK's connection over what it
// lets through.
func (t *lineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := io.Pipe()
	w := &lineWriter{w: t.out}
	go filterLines(t.in, pw, w, t.max)
	// The SDK's own bound is off: every message that reaches it is already
	// within max.
	return (&mcp.IOTransport{Reader: pr, Writer: w, MaxLineLength: -1}).Connect(ctx)
}

// lineWriter writes whole lines to the client, one at a time: the SDK
// writes each message with one Write, and so do the reader's own answers.
// Close leaves the stream open: it belongs to the caller.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (*lineWriter) Close() error { return nil }

// readBuffer is the reader's buffer: a line is gathered from chunks of it.
const readBuffer = 64 << 10

// filterLines reads lines from in, passes the well-formed messages to pass
// and answers the others on out, until in ends (or the SDK's side of pass
// is closed). It holds at most max bytes of one line.
func filterLines(in io.Reader, pass *io.PipeWriter, out io.Writer, maxLen int) {
	br := bufio.NewReaderSize(in, readBuffer)
	var line []byte
	for {
		line = line[:0]
		tooLong := false
		var ids idScanner
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			n := len(line) + len(chunk)
			if bytes.HasSuffix(chunk, []byte{'\n'}) {
				n-- // the newline is no part of the message
			}
			switch {
			case tooLong:
				ids.feed(chunk)
			case n > maxLen:
				tooLong = true
				ids.feed(line)
				ids.feed(chunk)
				line = line[:0]
			default:
				if len(line)+len(chunk) > cap(line) {
					// Doubling (append grows a large slice by a quarter)
					// allocates about twice the longest line in all.
					grown := make([]byte, len(line), min(max(2*cap(line), len(line)+len(chunk)), maxLen+1))
					copy(grown, line)
					line = grown
				}
				line = append(line, chunk...)
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if tooLong {
			answer(out, ids.id(), codeInvalidRequest, fmt.Sprintf("invalid request: the message is longer than %d bytes, the server's bound on one message", maxLen))
		} else if msg := bytes.TrimSpace(line); len(msg) > 0 {
			if ok := check(out, msg); ok {
				msg = append(msg, '\n')
				if _, werr := pass.Write(msg); werr != nil {
					return // the session is over
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			_ = pass.CloseWithError(err)
			return
		}
	}
}

// check reports whether msg is one JSON-RPC message the SDK's connection
// can take; if not, it answers the client with the error.
func check(out io.Writer, msg []byte) bool {
	if !json.Valid(msg) {
		reason := "not JSON"
		var v json.RawMessage
		if err := json.Unmarshal(msg, &v); err != nil {
			reason = err.Error()
		}
		answer(out, nil, codeParseError, "parse error: "+reason)
		return false
	}
	if msg[0] == '[' {
		answer(out, nil, codeInvalidRequest, "invalid request: JSON-RPC batches are not served (MCP dropped them in 2025-06-18); send one message per line")
		return false
	}
	if _, err := jsonrpc.DecodeMessage(msg); err != nil {
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(msg, &probe)
		answer(out, validID(probe.ID), codeInvalidRequest, "invalid request: "+err.Error())
		return false
	}
	return true
}

// validID returns raw when it is a request id (a string or a number), nil
// (null) otherwise.
func validID(raw json.RawMessage) json.RawMessage {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return raw
	}
	return nil
}

// answer writes a JSON-RPC error response: to the request id when it is
// known, else to null, as JSON-RPC 2.0 has a server answer what it could
// not read.
func answer(out io.Writer, id json.RawMessage, code int, message string) {
	type wireError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, message}})
	if err != nil {
		return
	}
	_, _ = out.Write(append(b, '\n'))
}

// maxIDBytes bounds the id an idScanner keeps: ids are short strings or
// numbers.
const maxIDBytes = 128

// idScanner finds the id of a message too long to be held, in the bytes
// as they are discarded: it follows the JSON's nesting and strings and
// keeps only the value of the top-level "id" key, so that the client's
// call gets its error instead of waiting for an answer.
type idScanner struct {
	started, failed, done bool
	depth                 int
	inString, escaped     bool
	// keyNext: the next string at depth 1 is a key; inKey: reading it.
	keyNext, inKey bool
	key            []byte
	keyLong        bool
	// colonNext: a key was read, its ':' is next; isID: that key is "id".
	colonNext, isID bool
	capturing       bool
	value           []byte
	found           []byte
}

func (s *idScanner) feed(p []byte) {
	for i := 0; i < len(p); i++ {
		if s.done || s.failed {
			return
		}
		if s.inString && !s.inKey && !s.capturing && !s.escaped {
			// Inside a value's string (the bulk of a long line) only its
			// end and escapes matter.
			j := bytes.IndexAny(p[i:], `"\`)
			if j < 0 {
				return
			}
			i += j
		}
		s.step(p[i])
	}
}

func (s *idScanner) step(c byte) {
	switch {
	case !s.started:
		switch c {
		case ' ', '\t', '\r', '\n':
		case '{':
			s.started, s.depth, s.keyNext = true, 1, true
		default:
			s.failed = true
		}
	case s.capturing:
		s.capture(c)
	case s.inString:
		switch {
		case s.escaped:
			s.escaped, s.keyLong = false, s.keyLong || s.inKey
		case c == '\\':
			s.escaped = true
		case c == '"':
			s.inString = false
			if s.inKey {
				s.inKey, s.colonNext = false, true
				s.isID = !s.keyLong && string(s.key) == "id"
			}
		case s.inKey:
			if len(s.key) < 2 {
				s.key = append(s.key, c)
			} else {
				s.keyLong = true
			}
		}
	default:
		switch c {
		case '"':
			s.inString = true
			if s.depth == 1 && s.keyNext {
				s.keyNext, s.inKey, s.key, s.keyLong = false, true, s.key[:0], false
			}
		case ':':
			if s.depth == 1 && s.colonNext {
				s.colonNext = false
				s.capturing, s.value = s.isID, s.value[:0]
			}
		case '{', '[':
			s.depth++
		case '}', ']':
			s.depth--
			s.done = s.depth == 0
		case ',':
			s.keyNext = s.depth == 1
		}
	}
}

// capture gathers the id's value, up to the ',' or '}' that ends it.
func (s *idScanner) capture(c byte) {
	if s.inString {
		s.value = append(s.value, c)
		switch {
		case s.escaped:
			s.escaped = false
		case c == '\\':
			s.escaped = true
		case c == '"':
			s.inString = false
		}
	} else {
		switch c {
		case ',', '}':
			s.found, s.capturing = bytes.TrimSpace(s.value), false
			s.done = true
			return
		case '{', '[':
			s.failed = true // an id is a string or a number
			return
		case '"':
			s.inString = true
		}
		s.value = append(s.value, c)
	}
	if len(s.value) > maxIDBytes {
		s.failed = true
	}
}

// id is the id found, nil when there was none (or it is not a valid id).
func (s *idScanner) id() json.RawMessage {
	if s.found == nil {
		return nil
	}
	return validID(s.found)
}
