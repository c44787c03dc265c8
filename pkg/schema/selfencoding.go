// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package schema

import (
	"encoding/json"
	"reflect"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kubectl-hpa/kubectl-hpa/pkg/explain"
)

// selfEncoded is the definition of a type that does not encode as its Go
// structure says: it has its own MarshalJSON, or (time.Duration) a meaning
// its integer kind does not tell.
type selfEncoded struct {
	name   string
	schema func() *node
}

// quantityPattern is the serialization of a Kubernetes quantity: a signed
// decimal number, then an optional binary suffix (Ki ... Ei), decimal
// suffix (n, u, m, k, M ... E) or decimal exponent (e3, E-2).
const quantityPattern = `^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+))?$`

// selfEncoding lists every type of the documents that encodes itself; the
// generator refuses one that is not here. Each entry is what the type's
// MarshalJSON writes (read from its source at the k8s.io version in
// go.mod).
var selfEncoding = map[reflect.Type]selfEncoded{
	reflect.TypeFor[resource.Quantity](): {"io.k8s.apimachinery.pkg.api.resource.Quantity", func() *node {
		return &node{
			Type: types("string"), Pattern: quantityPattern,
			Description: `A Kubernetes quantity (resource.Quantity), always a string: a decimal number with an optional suffix, binary (Ki, Mi, Gi, ...), decimal (m, k, M, G, ...) or an exponent, like "538m", "1Gi" or "100".`,
		}
	}},
	reflect.TypeFor[metav1.Time](): {"io.k8s.apimachinery.pkg.apis.meta.v1.Time", func() *node {
		return &node{
			Type: types("string", "null"), Format: "date-time",
			Description: `A time as Kubernetes writes it (metav1.Time): RFC 3339 in UTC, to the second ("2026-01-01T12:00:00Z"); the zero time is null.`,
		}
	}},
	reflect.TypeFor[metav1.MicroTime](): {"io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime", func() *node {
		return &node{
			Type: types("string", "null"), Format: "date-time",
			Description: `A time as Kubernetes writes it to the microsecond (metav1.MicroTime): RFC 3339 in UTC with six fractional digits; the zero time is null.`,
		}
	}},
	reflect.TypeFor[time.Time](): {"time.Time", func() *node {
		return &node{
			Type: types("string"), Format: "date-time",
			Description: `A time in RFC 3339, with fractional seconds when there are any ("2026-01-01T12:00:00.5Z"). kubectl-hpa writes its own times in UTC.`,
		}
	}},
	reflect.TypeFor[time.Duration](): {"time.Duration", func() *node {
		return &node{
			Type: types("integer"), Minimum: "-9223372036854775808", Maximum: "9223372036854775807",
			Description: "A duration in nanoseconds (a Go time.Duration).",
		}
	}},
	reflect.TypeFor[intstr.IntOrString](): {"io.k8s.apimachinery.pkg.util.intstr.IntOrString", func() *node {
		return &node{
			Type:        types("integer", "string"),
			Description: `An integer or a string (Kubernetes' IntOrString), like 3 or "25%".`,
		}
	}},
	reflect.TypeFor[explain.Ratio](): {"explain.Ratio", func() *node {
		return &node{
			Type:        types("number", "null"),
			Description: "A usage ratio as the controller computes it (a float64); null when its arithmetic gives no number (+Inf or NaN, as a per-pod ratio at zero replicas): see ratioUndefined.",
		}
	}},
	reflect.TypeFor[json.RawMessage](): {"json.RawMessage", func() *node {
		return &node{Description: "Any JSON value, written as is."}
	}},
}
