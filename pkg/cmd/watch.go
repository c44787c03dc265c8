// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/render"
)

// runWatch replays the watched HPAs until Ctrl-C or SIGTERM, which end it
// with exit 0. On a terminal a frame is redrawn in place (its countdowns
// every second); piped, one line per sync that changed something; with
// -o json|yaml, a stream of Explanation documents.
func (o *ExplainOptions) runWatch(ctx context.Context) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	updates := make(chan *action.WatchUpdate, 16)
	done := make(chan error, 1)
	go func() {
		done <- action.Watch(ctx, action.WatchConfig{
			Source: o.source, Name: o.Name, AllNamespaces: o.AllNamespaces, Selector: o.Selector,
			Settings: o.overrides, History: o.source.History, Evaluate: o.Evaluate,
		}, func(u *action.WatchUpdate) error {
			select {
			case updates <- u:
			case <-ctx.Done():
			}
			return nil
		})
	}()
	opts := o.Output.Display.RenderOptions(o.Out)
	live := o.format == render.FormatText && writerIsTerminal(o.Out)
	lines := render.NewWatchLines(o.Out, o.Name == "")
	enc := render.NewWatchEncoder(o.Out, o.format)
	var frame *liveFrame
	if live {
		frame = &liveFrame{w: o.Out}
		defer frame.restore()
	}
	second := time.NewTicker(time.Second)
	defer second.Stop()
	var last *action.WatchUpdate
	for {
		select {
		case err := <-done:
			return err
		case u := <-updates:
			printWarnings(o.ErrOut, u.Warnings)
			last = u
			var err error
			switch {
			case o.format != render.FormatText:
				err = enc.Update(u.Decisions)
			case live:
				err = frame.draw(render.WatchFrame(o.Out, u.Decisions, time.Now(), o.Name == "", opts, frame.height()))
			default:
				err = lines.Update(u.At, u.Decisions)
			}
			if err != nil {
				return err
			}
		case <-second.C:
			if live && last != nil {
				if err := frame.draw(render.WatchFrame(o.Out, last.Decisions, time.Now(), o.Name == "", opts, frame.height())); err != nil {
					return err
				}
			}
		}
	}
}

// liveFrame redraws a frame in place on a terminal: the cursor goes back
// to the top of the last frame, which is cleared; the last frame stays on
// the screen when the watch ends.
type liveFrame struct {
	w      io.Writer
	lines  int
	hidden bool
}

func (f *liveFrame) draw(s string) error {
	var prefix string
	if !f.hidden {
		prefix, f.hidden = "\x1b[?25l", true // hide the cursor
	}
	if f.lines > 0 {
		prefix += fmt.Sprintf("\r\x1b[%dA\x1b[J", f.lines)
	}
	n := 0
	for _, c := range s {
		if c == '\n' {
			n++
		}
	}
	f.lines = n
	_, err := io.WriteString(f.w, prefix+s)
	return err
}

// restore shows the cursor again.
func (f *liveFrame) restore() {
	if f.hidden {
		_, _ = io.WriteString(f.w, "\x1b[?25h")
	}
}

// height is the terminal's height less one line, 0 when unknown.
func (f *liveFrame) height() int {
	fd, ok := f.w.(fdWriter)
	if !ok {
		return 0
	}
	_, h, err := term.GetSize(int(fd.Fd()))
	if err != nil || h < 3 {
		return 0
	}
	return h - 1
}
