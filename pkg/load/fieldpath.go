// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	sigsjson "sigs.k8s.io/json"
)

// decodeInto decodes data into out (a pointer to a typed struct). Unknown
// and duplicate fields are returned as strict errors, not as a failure. When
// decoding fails, the error names the offending field and value.
func decodeInto(data []byte, out any) (strict []error, err error) {
	strict, err = sigsjson.UnmarshalStrict(data, out)
	if err == nil {
		return strict, nil
	}
	if path, msg, ok := findBadField(reflect.TypeOf(out).Elem(), data); ok {
		if path == "" {
			return nil, errors.New(msg)
		}
		return nil, fmt.Errorf("%s: %s", path, msg)
	}
	return nil, errors.New(oneLine(simplifyJSONError(err)))
}

func simplifyJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s: cannot use a JSON %s as %s", te.Field, te.Value, te.Type)
	}
	return err.Error()
}

// findBadField walks the generic form of data alongside the Go type t and
// returns the first field (in sorted key order) whose value the type
// rejects, with a short description.
func findBadField(t reflect.Type, data []byte) (path, msg string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", "", false
	}
	return walkValue(t, v, "")
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

func walkValue(t reflect.Type, v any, path string) (string, string, bool) {
	if v == nil {
		return "", "", false
	}
	if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(unmarshalerType) {
		raw, err := json.Marshal(v)
		if err != nil {
			return "", "", false
		}
		target := reflect.New(t).Interface().(json.Unmarshaler)
		if err := target.UnmarshalJSON(raw); err != nil {
			return path, describeUnmarshalError(t, raw, err), true
		}
		return "", "", false
	}
	switch t.Kind() {
	case reflect.Pointer:
		return walkValue(t.Elem(), v, path)
	case reflect.Interface:
		return "", "", false
	case reflect.Struct:
		m, isMap := v.(map[string]any)
		if !isMap {
			return path, "expected an object, got " + jsonKind(v), true
		}
		fields := jsonFields(t)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			ft, known := fields[k]
			if !known {
				continue
			}
			if p, msg, bad := walkValue(ft, m[k], joinPath(path, k)); bad {
				return p, msg, true
			}
		}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			if _, isString := v.(string); !isString {
				return path, "expected a base64 string, got " + jsonKind(v), true
			}
			return "", "", false
		}
		a, isArray := v.([]any)
		if !isArray {
			return path, "expected a list, got " + jsonKind(v), true
		}
		for i, e := range a {
			if p, msg, bad := walkValue(t.Elem(), e, path+"["+strconv.Itoa(i)+"]"); bad {
				return p, msg, true
			}
		}
	case reflect.Map:
		m, isMap := v.(map[string]any)
		if !isMap {
			return path, "expected an object, got " + jsonKind(v), true
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if p, msg, bad := walkValue(t.Elem(), m[k], joinPath(path, k)); bad {
				return p, msg, true
			}
		}
	case reflect.String:
		if _, isString := v.(string); !isString {
			return path, "expected a string, got " + jsonKind(v), true
		}
	case reflect.Bool:
		if _, isBool := v.(bool); !isBool {
			return path, "expected true or false, got " + jsonKind(v), true
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, isNumber := v.(json.Number)
		if !isNumber {
			return path, "expected an integer, got " + jsonKind(v), true
		}
		if _, err := strconv.ParseInt(n.String(), 10, t.Bits()); err != nil {
			return path, fmt.Sprintf("expected a %d-bit integer, got %s", t.Bits(), n), true
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, isNumber := v.(json.Number)
		if !isNumber {
			return path, "expected an integer, got " + jsonKind(v), true
		}
		if _, err := strconv.ParseUint(n.String(), 10, t.Bits()); err != nil {
			return path, fmt.Sprintf("expected a non-negative %d-bit integer, got %s", t.Bits(), n), true
		}
	case reflect.Float32, reflect.Float64:
		if _, isNumber := v.(json.Number); !isNumber {
			return path, "expected a number, got " + jsonKind(v), true
		}
	default:
	}
	return "", "", false
}

func describeUnmarshalError(t reflect.Type, raw []byte, err error) string {
	switch {
	case t == reflect.TypeFor[resource.Quantity]():
		return "invalid quantity " + string(raw)
	case strings.HasSuffix(t.String(), "Time"):
		return fmt.Sprintf("invalid time %s (want RFC 3339, like %q)", raw, time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC).Format(time.RFC3339))
	default:
		return fmt.Sprintf("invalid value %s: %s", raw, oneLine(err.Error()))
	}
}

func jsonKind(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", x)
	case json.Number:
		return "the number " + x.String()
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	default:
		return fmt.Sprintf("%T", v)
	}
}

func joinPath(path, key string) string {
	if strings.ContainsAny(key, "./ []") {
		key = "[" + strconv.Quote(key) + "]"
		return path + key
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// jsonFields maps the JSON names of t's fields (following inline and
// embedded structs) to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				for k, v := range jsonFields(et) {
					if _, taken := out[k]; !taken {
						out[k] = v
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
