package gocheck

// This file is the part of the checks that runs the generated code. It is
// compiled into the native harness of protoplay check --generated and
// interpreted, as source (see Source), by the browser's interpreter
// (package interp): both exercise the generated methods with this very
// function. It must use the standard library only and nothing that
// github.com/traefik/yaegi cannot interpret (no generics).

import "fmt"

// Message is the part of a generated message type's method set that
// Exercise calls directly; Clone and Equal, whose signatures name the
// type, are passed as functions (see Adapter).
type Message interface {
	Unmarshal(b []byte) error
	Marshal() ([]byte, error)
	Size() int
	Reset()
}

// Outcome is what the generated code of one message type did with one
// payload. Error fields hold the error's text, "" for no error.
type Outcome struct {
	// Unmarshal is the generated Unmarshal's error on the payload; when it
	// is set, nothing else ran.
	Unmarshal string `json:"unmarshal,omitempty"`
	// Marshal is Marshal's error; Out its output.
	Marshal string `json:"marshal,omitempty"`
	Out     []byte `json:"out,omitempty"`
	// Size is Size() of the decoded message.
	Size int `json:"size"`
	// CloneEqual is Clone().Equal(m) && m.Equal(Clone()).
	CloneEqual bool `json:"cloneEqual,omitempty"`
	// CloneMarshal and CloneOut are the clone's Marshal, after the
	// original was Reset (a deep clone still has every value).
	CloneMarshal string `json:"cloneMarshal,omitempty"`
	CloneOut     []byte `json:"cloneOut,omitempty"`
	// Reparse is the generated Unmarshal's error on Out; ReparsedEqual
	// whether the message it gave is Equal to the decoded one.
	Reparse       string `json:"reparse,omitempty"`
	ReparsedEqual bool   `json:"reparsedEqual,omitempty"`
	// Panic is the value the generated code panicked with, as text.
	Panic string `json:"panic,omitempty"`
}

// Exercise decodes b with the generated Unmarshal of a new message
// (newMessage), then marshals it, takes its Size, clones it (clone) and
// compares the clone both ways (equal), re-decodes the output into another
// new message and compares it, and finally Resets the original and
// marshals the clone. A panic of the generated code ends the steps and is
// reported in Outcome.Panic.
func Exercise(b []byte, newMessage func() Message, clone func(Message) Message, equal func(x, y Message) bool) (o Outcome) {
	defer func() {
		if p := recover(); p != nil {
			o.Panic = PanicText(p)
		}
	}()
	m := newMessage()
	if err := m.Unmarshal(b); err != nil {
		o.Unmarshal = ErrorText(err)
		return o
	}
	out, err := m.Marshal()
	if err != nil {
		o.Marshal = ErrorText(err)
		return o
	}
	o.Out = out
	o.Size = m.Size()
	c := clone(m)
	o.CloneEqual = equal(c, m) && equal(m, c)
	back := newMessage()
	if err := back.Unmarshal(out); err != nil {
		o.Reparse = ErrorText(err)
	} else {
		o.ReparsedEqual = equal(back, m)
	}
	m.Reset()
	cout, err := c.Marshal()
	o.CloneOut = cout
	if err != nil {
		o.CloneMarshal = ErrorText(err)
	}
	return o
}

// ErrorText is err's text, never "" for an error.
func ErrorText(err error) string {
	if s := err.Error(); s != "" {
		return s
	}
	return "error with an empty message"
}

// PanicText is a panic value as text.
func PanicText(v any) string {
	switch v := v.(type) {
	case error:
		return v.Error()
	case string:
		return v
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}
