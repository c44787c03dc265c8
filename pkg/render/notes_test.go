// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"testing"
)

func TestWarningsAndAPICalls(t *testing.T) {
	var b bytes.Buffer
	Warnings(&b, []string{"one", "two"})
	calls := []string{"GET /apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers/web", "LIST /api/v1/namespaces/shop/pods"}
	APICalls(&b, 0, calls, "")
	APICalls(&b, 1, calls, " for 3 HPAs")
	APICalls(&b, 2, calls, "")
	want := "Warning: one\nWarning: two\n" +
		"API calls: 2 for 3 HPAs\n" +
		"API calls: 2\n  GET /apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers/web\n  LIST /api/v1/namespaces/shop/pods\n"
	if b.String() != want {
		t.Errorf("got:\n%q\nwant:\n%q", b.String(), want)
	}
}

func TestGatherProgress(t *testing.T) {
	var b bytes.Buffer
	p := GatherProgress(&b)
	p(1, 4)
	if b.Len() != 0 {
		t.Errorf("four HPAs: %q, want nothing", b.String())
	}
	p(1, 5)
	p(5, 5)
	if want := "\rgathering 1/5 HPAs\rgathering 5/5 HPAs\r\033[K"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}

func TestLiveFrame(t *testing.T) {
	var b bytes.Buffer
	f := &LiveFrame{W: &b}
	f.Restore()
	if b.Len() != 0 {
		t.Errorf("restore before any frame: %q", b.String())
	}
	if err := f.Draw("a\nb\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Draw("c\n"); err != nil {
		t.Fatal(err)
	}
	f.Restore()
	// The cursor hidden once, the second frame replacing the first's two
	// lines, the cursor shown at the end.
	if want := "\x1b[?25la\nb\n\r\x1b[2A\x1b[Jc\n\x1b[?25h"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}
