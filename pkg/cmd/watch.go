// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package cmd

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/action"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/display"
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
			Source: o.source, Name: o.Name, AllNamespaces: o.Input.AllNamespaces, Selector: o.Input.Selector,
			Settings: o.overrides, History: o.source.History, Evaluate: o.Evaluate,
		}, func(u *action.WatchUpdate) error {
			select {
			case updates <- u:
			case <-ctx.Done():
			}
			return nil
		})
	}()
	format, opts := o.printer.Format, o.printer.Options
	live := format == render.FormatText && display.IsTerminal(o.Out)
	lines := render.NewWatchLines(o.Out, o.Name == "")
	enc := render.NewWatchEncoder(o.Out, format)
	frame := &render.LiveFrame{W: o.Out}
	defer frame.Restore()
	second := time.NewTicker(time.Second)
	defer second.Stop()
	var last *action.WatchUpdate
	for {
		select {
		case err := <-done:
			return err
		case u := <-updates:
			render.Warnings(o.ErrOut, u.Warnings)
			last = u
			var err error
			switch {
			case format != render.FormatText:
				err = enc.Update(u.Decisions)
			case live:
				err = frame.Draw(render.WatchFrame(o.Out, u.Decisions, time.Now(), o.Name == "", opts, display.Height(o.Out)))
			default:
				err = lines.Update(u.At, u.Decisions)
			}
			if err != nil {
				return err
			}
		case <-second.C:
			if live && last != nil {
				if err := frame.Draw(render.WatchFrame(o.Out, last.Decisions, time.Now(), o.Name == "", opts, display.Height(o.Out))); err != nil {
					return err
				}
			}
		}
	}
}
