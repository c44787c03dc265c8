// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package options

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"
	"time"
)

// The kinds of values. Each parses as pflag parses its own kind of flag,
// with the same errors, so that a flag and an argument refuse a value
// alike. An optional number or duration is a pointer, nil when not given;
// its shown default is what the action uses then.

// String sets a string; "" is not given.
func String(p *string) Value { return (*stringValue)(p) }

type stringValue string

func (s *stringValue) String() string     { return string(*s) }
func (s *stringValue) Set(v string) error { *s = stringValue(v); return nil }
func (s *stringValue) Type() string       { return "string" }
func (s *stringValue) isSet() bool        { return *s != "" }
func (s *stringValue) ptr() any           { return (*string)(s) }

// Checked sets a string that check accepts; typ names its kind in the
// help ("duration" for a duration or "auto").
func Checked(p *string, typ string, check func(string) error) Value {
	return &checkedValue{p: p, typ: typ, check: check}
}

type checkedValue struct {
	p     *string
	typ   string
	check func(string) error
}

func (c *checkedValue) String() string { return *c.p }
func (c *checkedValue) Set(v string) error {
	if err := c.check(v); err != nil {
		return err
	}
	*c.p = v
	return nil
}
func (c *checkedValue) Type() string { return c.typ }
func (c *checkedValue) isSet() bool  { return *c.p != "" }
func (c *checkedValue) ptr() any     { return c.p }

// Strings sets a list, one element per flag given (repeatable; no comma
// splitting), as pflag's StringArray.
func Strings(p *[]string) Value { return &stringsValue{p: p} }

type stringsValue struct{ p *[]string }

func (s *stringsValue) String() string {
	if len(*s.p) == 0 {
		return ""
	}
	return "[" + strings.Join(*s.p, ",") + "]"
}
func (s *stringsValue) Set(v string) error { *s.p = append(*s.p, v); return nil }
func (s *stringsValue) Type() string       { return "stringArray" }
func (s *stringsValue) isSet() bool        { return len(*s.p) > 0 }
func (s *stringsValue) ptr() any           { return s.p }

// CommaStrings sets a list from comma-separated values (CSV, as pflag's
// StringSlice), appending across repeated flags.
func CommaStrings(p *[]string) Value { return &commaValue{p: p} }

type commaValue struct{ p *[]string }

func (s *commaValue) String() string {
	if len(*s.p) == 0 {
		return ""
	}
	return "[" + strings.Join(*s.p, ",") + "]"
}

func (s *commaValue) Set(v string) error {
	if v == "" {
		return nil
	}
	r := csv.NewReader(bytes.NewBufferString(v))
	vs, err := r.Read()
	if err != nil {
		return err
	}
	*s.p = append(*s.p, vs...)
	return nil
}
func (s *commaValue) Type() string { return "stringSlice" }
func (s *commaValue) isSet() bool  { return len(*s.p) > 0 }
func (s *commaValue) ptr() any     { return s.p }

// Bool sets a boolean; a flag given without a value is true.
func Bool(p *bool) Value { return (*boolValue)(p) }

type boolValue bool

func (b *boolValue) String() string { return strconv.FormatBool(bool(*b)) }
func (b *boolValue) Set(v string) error {
	x, err := strconv.ParseBool(v)
	*b = boolValue(x)
	return err
}
func (b *boolValue) Type() string        { return "bool" }
func (b *boolValue) IsBoolFlag() bool    { return true }
func (b *boolValue) noOptDefVal() string { return "true" }
func (b *boolValue) isSet() bool         { return bool(*b) }
func (b *boolValue) ptr() any            { return (*bool)(b) }

// Int sets an int (0 is not given).
func Int(p *int) Value { return (*intValue)(p) }

type intValue int

func (i *intValue) String() string { return strconv.Itoa(int(*i)) }
func (i *intValue) Set(v string) error {
	x, err := strconv.ParseInt(v, 0, 64)
	*i = intValue(x)
	return err
}
func (i *intValue) Type() string { return "int" }
func (i *intValue) isSet() bool  { return *i != 0 }
func (i *intValue) ptr() any     { return (*int)(i) }

// Int32 sets an optional int32; shown is the default the help shows while
// it is nil.
func Int32(p **int32, shown string) Value { return &int32Value{p: p, shown: shown} }

type int32Value struct {
	p     **int32
	shown string
}

func (i *int32Value) String() string {
	if *i.p == nil {
		return i.shown
	}
	return strconv.FormatInt(int64(**i.p), 10)
}

func (i *int32Value) Set(v string) error {
	x, err := strconv.ParseInt(v, 0, 32)
	if err != nil {
		return err
	}
	n := int32(x)
	*i.p = &n
	return nil
}
func (i *int32Value) Type() string { return "int32" }
func (i *int32Value) isSet() bool  { return *i.p != nil }
func (i *int32Value) ptr() any     { return i.p }

// Float64 sets an optional float64; shown is the default the help shows
// while it is nil.
func Float64(p **float64, shown float64) Value { return &float64Value{p: p, shown: shown} }

type float64Value struct {
	p     **float64
	shown float64
}

func (f *float64Value) String() string {
	v := f.shown
	if *f.p != nil {
		v = **f.p
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func (f *float64Value) Set(v string) error {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return err
	}
	*f.p = &x
	return nil
}
func (f *float64Value) Type() string { return "float64" }
func (f *float64Value) isSet() bool  { return *f.p != nil }
func (f *float64Value) ptr() any     { return f.p }

// Duration sets an optional duration; shown is the default the help
// shows while it is nil (0 shows none).
func Duration(p **time.Duration, shown time.Duration) Value {
	return &durationValue{p: p, shown: shown}
}

type durationValue struct {
	p     **time.Duration
	shown time.Duration
}

func (d *durationValue) String() string {
	v := d.shown
	if *d.p != nil {
		v = **d.p
	}
	if v == 0 {
		return "0"
	}
	return v.String()
}

func (d *durationValue) Set(v string) error {
	x, err := time.ParseDuration(v)
	if err != nil {
		return err
	}
	*d.p = &x
	return nil
}
func (d *durationValue) Type() string { return "duration" }
func (d *durationValue) isSet() bool  { return *d.p != nil }
func (d *durationValue) ptr() any     { return d.p }

// PlainDuration sets a duration whose zero means none (not an optional
// one).
func PlainDuration(p *time.Duration) Value { return (*plainDuration)(p) }

type plainDuration time.Duration

func (d *plainDuration) String() string {
	if *d == 0 {
		return "0"
	}
	return time.Duration(*d).String()
}

func (d *plainDuration) Set(v string) error {
	x, err := time.ParseDuration(v)
	*d = plainDuration(x)
	return err
}
func (d *plainDuration) Type() string { return "duration" }
func (d *plainDuration) isSet() bool  { return *d != 0 }
func (d *plainDuration) ptr() any     { return (*time.Duration)(d) }
