// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubectl-hpa/kubectl-hpa/internal/reportfixture"
	"github.com/kubectl-hpa/kubectl-hpa/internal/schematest"
	"github.com/kubectl-hpa/kubectl-hpa/internal/testutil"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
	"github.com/kubectl-hpa/kubectl-hpa/pkg/schema"
)

func TestFleetText(t *testing.T) {
	var b bytes.Buffer
	if err := writeFleet(&b, reportfixture.Fleet()); err != nil {
		t.Fatal(err)
	}
	testutil.AssertGolden(t, b.Bytes(), *update)
	out := b.String()
	// Each HPA without a recommendation says why, once.
	for _, who := range []string{"shop/cart (no-change)", "shop/search (untrusted)", "shop/legacy (failed)"} {
		if strings.Count(out, who) != 1 {
			t.Errorf("the text says %q %d times:\n%s", who, strings.Count(out, who), out)
		}
	}
}

// Many contexts: a CONTEXT column, and a context that could not be read
// is one row and one line saying why. The JSON keys each row by its
// context and still fits the schema.
func TestFleetContexts(t *testing.T) {
	doc := reportfixture.Fleet()
	for i := range doc.Items {
		doc.Items[i].Context = []string{"prod-eu", "prod-us"}[i%2]
	}
	doc.Items = append(doc.Items, explain.FleetItem{
		Context: "staging", Status: explain.FleetFailed,
		Reason: "context staging: list HPAs: dial tcp 10.0.0.9:443: connect: connection refused (is the cluster reachable?)",
	})
	var b bytes.Buffer
	if err := writeFleet(&b, doc); err != nil {
		t.Fatal(err)
	}
	testutil.AssertGolden(t, b.Bytes(), *update)
	for _, f := range []Format{FormatJSON, FormatYAML} {
		var out bytes.Buffer
		if err := TuneFleetResult(doc).write(&out, f, Options{}); err != nil {
			t.Fatal(err)
		}
		validate := schematest.Validate
		if f == FormatYAML {
			validate = schematest.ValidateYAML
		}
		if err := validate(schema.Fleet, out.Bytes()); err != nil {
			t.Errorf("as %s: %v", f, err)
		}
	}
}

func TestFleetCommands(t *testing.T) {
	var b bytes.Buffer
	if err := TuneFleetCommands(reportfixture.Fleet()).write(&b, FormatText, Options{}); err != nil {
		t.Fatal(err)
	}
	want := "kubectl patch hpa web -n shop --type merge -p '{\"spec\":{}}'\nkubectl patch hpa worker -n batch --type merge -p '{}'\n"
	if b.String() != want {
		t.Errorf("commands:\n%s\nwant\n%s", b.String(), want)
	}
}

// The fleet document, full or empty, matches the fleet schema in JSON and
// YAML.
func TestFleetSchema(t *testing.T) {
	empty := &explain.TuneFleet{APIVersion: explain.APIVersion, Kind: explain.KindTuneFleet, Items: []explain.FleetItem{}, Totals: []explain.FleetTotal{}, Notes: []string{}}
	for _, doc := range []*explain.TuneFleet{reportfixture.Fleet(), empty} {
		for _, f := range []Format{FormatJSON, FormatYAML} {
			var b bytes.Buffer
			if err := TuneFleetResult(doc).write(&b, f, Options{}); err != nil {
				t.Fatal(err)
			}
			var err error
			if f == FormatJSON {
				err = schematest.Validate(schema.Fleet, b.Bytes())
			} else {
				err = schematest.ValidateYAML(schema.Fleet, b.Bytes())
			}
			if err != nil {
				t.Errorf("%d items as %s: %v\n%s", len(doc.Items), f, err, b.String())
			}
		}
	}
}

// With HPAs of more than one context the table gets a CONTEXT column;
// with one (every run so far) it has none.
func TestFleetContextColumn(t *testing.T) {
	doc := reportfixture.Fleet()
	var one bytes.Buffer
	if err := writeFleet(&one, doc); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(one.String(), "CONTEXT") {
		t.Errorf("one context, yet a CONTEXT column:\n%s", one.String())
	}
	doc.Items[0].Context, doc.Items[1].Context = "prod-eu", "prod-us"
	var two bytes.Buffer
	if err := writeFleet(&two, doc); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(two.String(), "\n")
	if !strings.HasPrefix(lines[2], "CONTEXT  NAMESPACE") || !strings.HasPrefix(lines[3], "prod-eu  shop") || !strings.HasPrefix(lines[4], "prod-us  batch") || !strings.HasPrefix(lines[5], "-        shop") {
		t.Errorf("the table with two contexts:\n%s", two.String())
	}
}
