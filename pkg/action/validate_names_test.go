// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package action

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
)

func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"web", true},
		{"web-0.v2", true},
		{strings.Repeat("a", 253), true},
		{strings.Repeat("a", 254), false},
		{"", false},
		{"a b", false},
		{"Web", false},
		{"web/0", false},
		{"-web", false},
		{"web_0", false},
		{"wéb", false},
	} {
		err := CheckName("HorizontalPodAutoscaler", tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("CheckName(%q) = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
	for _, tc := range []struct {
		ns string
		ok bool
	}{
		{"shop", true},
		{strings.Repeat("a", 63), true},
		{strings.Repeat("a", 64), false},
		{"shop.eu", false},
		{"Shop", false},
		{"", false},
	} {
		err := CheckNamespace(tc.ns)
		if (err == nil) != tc.ok {
			t.Errorf("CheckNamespace(%q) = %v, want ok %v", tc.ns, err, tc.ok)
		}
	}
}

// A long name is quoted by its start: a megabyte-long argument does not
// come back a megabyte long.
func TestCheckNameQuotesTheStartOfALongName(t *testing.T) {
	long := strings.Repeat("x", 4<<20) + " "
	err := CheckName("HorizontalPodAutoscaler", long)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if len(msg) > 400 || !strings.Contains(msg, "(4194305 bytes)") || strings.Contains(msg, "\n") {
		t.Errorf("message of %d bytes: %.300s", len(msg), msg)
	}
	// A multi-byte rune at the cut is not split.
	if got := quoteName(strings.Repeat("a", 63) + "éé"); !strings.HasPrefix(got, `"`+strings.Repeat("a", 63)+`"...`) {
		t.Errorf("quoteName cut a rune: %s", got)
	}
}

// Every live read refuses an invalid name or namespace in one line before
// any request reaches the API server.
func TestInvalidNamesAreRefusedBeforeAnyRequest(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		http.Error(w, "no", http.StatusNotFound)
	}))
	defer srv.Close()
	newSource := func(ns string) Source {
		server := srv.URL
		flags := genericclioptions.NewConfigFlags(false)
		flags.APIServer = &server
		return Source{Clients: NewFactory(flags), Namespace: ns, Now: time.Now()}
	}
	ctx := context.Background()
	for _, tc := range []struct {
		what string
		run  func() error
		want string
	}{
		{"explain NAME", func() error {
			_, err := Explain(ctx, ExplainConfig{Source: newSource("shop"), Name: "a b"})
			return err
		}, `invalid HorizontalPodAutoscaler name "a b"`},
		{"explain hpa/NAME", func() error {
			_, err := Explain(ctx, ExplainConfig{Source: newSource("shop"), Name: "hpa/Web"})
			return err
		}, `invalid HorizontalPodAutoscaler name "Web"`},
		{"explain so/NAME", func() error {
			_, err := Explain(ctx, ExplainConfig{Source: newSource("shop"), Name: "so/" + strings.Repeat("q", 300)})
			return err
		}, `invalid ScaledObject name "qqqq`},
		{"explain -n", func() error {
			_, err := Explain(ctx, ExplainConfig{Source: newSource("Shop"), Name: "web"})
			return err
		}, `invalid namespace "Shop"`},
		{"explain so/NAME -n", func() error {
			_, err := Explain(ctx, ExplainConfig{Source: newSource("a/b"), Name: "so/web"})
			return err
		}, `invalid namespace "a/b"`},
		{"explain -n (many)", func() error {
			_, _, err := ExplainSummaries(ctx, ManyConfig{Source: newSource("shop eu")}, SummaryPage{})
			return err
		}, `invalid namespace "shop eu"`},
		{"whatif", func() error {
			in := DefaultWhatIfInput()
			in.CPU = "+10%"
			p, err := in.Plan(newSource("shop"), "web 2", SettingsOverrides{})
			if err != nil {
				return err
			}
			_, err = p.Run(ctx)
			return err
		}, `invalid HorizontalPodAutoscaler name "web 2"`},
		{"explain --watch", func() error {
			return Watch(ctx, WatchConfig{Source: newSource("shop"), Name: "Web"}, func(*WatchUpdate) error { return nil })
		}, `invalid HorizontalPodAutoscaler name "Web"`},
		{"migrate", func() error {
			cfg, err := MigrateInput{Target: "deployment/Web", Namespace: "shop"}.Config()
			if err != nil {
				return err
			}
			cfg.Clients = newSource("").Clients
			_, err = Migrate(ctx, cfg)
			return err
		}, `invalid deployment name "Web"`},
		{"migrate -n", func() error {
			cfg, err := MigrateInput{Target: "deployment/web", Namespace: "-shop"}.Config()
			if err != nil {
				return err
			}
			cfg.Clients = newSource("").Clients
			_, err = Migrate(ctx, cfg)
			return err
		}, `invalid namespace "-shop"`},
	} {
		err := tc.run()
		if err == nil {
			t.Errorf("%s: no error", tc.what)
			continue
		}
		line := ErrorLine(err)
		if !strings.HasPrefix(line, "error: "+tc.want) || strings.Contains(line, "\n") || len(line) > 300 {
			t.Errorf("%s: %q, want one line starting %q", tc.what, line, tc.want)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests reached the API server", n)
	}
}
