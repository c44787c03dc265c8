// Copyright 2026 The kubectl-hpa Authors.
// SPDX-License-Identifier: Apache-2.0

package migrate

import "fmt"

// Option names an option of migrate's command that the text and the errors
// mention; the face that runs migrate words it (pkg/action: as its flag),
// and the package itself, knowing no flags, as the option's value.
type Option string

// The options mentioned.
const (
	OptionWrite        Option = "write"
	OptionApply        Option = "apply"
	OptionDryRunServer Option = "dry-run=server"
)

// OptionName words an option for people.
type OptionName func(Option) string

// NamedError is an error whose message mentions options: each Option
// among its arguments is worded by Text's name, and as itself by Error.
type NamedError struct {
	format string
	args   []any
}

func (e *NamedError) Error() string { return e.Text(func(o Option) string { return string(o) }) }

// Text words the error with name(o) standing for each option o.
func (e *NamedError) Text(name OptionName) string {
	return fmt.Sprintf(e.format, named(name, e.args)...)
}

// named replaces the Options among args with their names.
func named(name OptionName, args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		if o, ok := a.(Option); ok {
			a = name(o)
		}
		out[i] = a
	}
	return out
}
