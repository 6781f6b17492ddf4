// Package anypb holds google.protobuf.Any, which carries a serialized message
// of any type together with a URL naming that type, and helpers to pack and
// unpack it. See https://protobuf.dev/reference/protobuf/google.protobuf/#any.
//
// The helpers follow google.golang.org/protobuf/types/known/anypb with one
// difference: every helper that needs a message's type takes its full name
// (such as "google.protobuf.Duration") as an argument. protoplay generates no
// descriptors, reflection or global type registry, by design: they cost
// binary size and init time in every program, whether it uses Any or not. So
// a message cannot report its own name, and nothing can look a name up to
// create a message; the caller, who knows both, supplies them. For the same
// reason there is no UnmarshalNew: the caller chooses the destination type,
// for instance by switching on [Any.MessageName].
package anypb

import (
	"errors"
	"strconv"
	"strings"
)

// URLPrefix is the type URL prefix that [New] and [MarshalFrom] put before a
// bare full name, as protobuf implementations conventionally do.
const URLPrefix = "type.googleapis.com/"

// Message is what the helpers need of a message: its wire encoding. Every
// protoplay-generated message type, used through a pointer, implements it.
type Message interface {
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// New returns an Any holding the wire encoding of m, with a type URL made
// from name. name is the full name of m's message type, as in
// "google.protobuf.Duration", which gives the type URL
// "type.googleapis.com/google.protobuf.Duration"; or it is a complete type
// URL (anything containing a '/'), which is used as it is. The errors are
// those of [MarshalFrom].
func New(m Message, name string) (*Any, error) {
	x := new(Any)
	if err := x.MarshalFrom(m, name); err != nil {
		return nil, err
	}
	return x, nil
}

// MarshalFrom sets dst to hold the wire encoding of src, with the type URL
// made from name as for [New]. It fails, leaving dst unchanged, if src is a
// nil interface, if the full name in name (after its last '/') is not a
// valid protobuf full name (dot-separated identifiers), or if src's Marshal
// fails.
func MarshalFrom(dst *Any, src Message, name string) error {
	if src == nil {
		return errors.New("anypb: invalid nil source message")
	}
	url := name
	if !strings.Contains(name, "/") {
		url = URLPrefix + name
	}
	if !validFullName(nameOf(url)) {
		return errors.New("anypb: invalid message name " + strconv.Quote(name))
	}
	b, err := src.Marshal()
	if err != nil {
		return err
	}
	dst.TypeUrl = url
	dst.Value = b
	return nil
}

// MarshalFrom is [MarshalFrom] with x as the destination.
func (x *Any) MarshalFrom(m Message, name string) error {
	return MarshalFrom(x, m, name)
}

// UnmarshalTo decodes the message src holds into dst, replacing its
// contents, after checking that src holds a message of type name (see
// [Any.MessageIs]). If it does not, UnmarshalTo leaves dst unchanged and
// returns an error naming both types. Otherwise it returns dst's Unmarshal
// error, if any.
func UnmarshalTo(src *Any, dst Message, name string) error {
	if dst == nil {
		return errors.New("anypb: invalid nil destination message")
	}
	if !src.MessageIs(name) {
		return errors.New("anypb: mismatched message type: Any holds " +
			strconv.Quote(src.GetTypeUrl()) + ", not " + strconv.Quote(nameOf(name)))
	}
	return dst.Unmarshal(src.GetValue())
}

// UnmarshalTo is [UnmarshalTo] with x as the source.
func (x *Any) UnmarshalTo(m Message, name string) error {
	return UnmarshalTo(x, m, name)
}

// MessageName returns the full name of the message type x holds: the part of
// its type URL after the last '/', or the whole URL if it has no '/'. It
// returns "" if that is not a valid full name, and for a nil x.
func (x *Any) MessageName() string {
	name := nameOf(x.GetTypeUrl())
	if !validFullName(name) {
		return ""
	}
	return name
}

// MessageIs reports whether x holds a message whose full name is name. Only
// the full names are compared: if name is a type URL, its part after the last
// '/' is used, and the URL prefix of x is ignored. A nil x holds no message.
func (x *Any) MessageIs(name string) bool {
	name = nameOf(name)
	return name != "" && x.MessageName() == name
}

// nameOf returns the part of url after its last '/'.
func nameOf(url string) string {
	return url[strings.LastIndexByte(url, '/')+1:]
}

// validFullName reports whether s is one or more identifiers
// ([A-Za-z_][A-Za-z0-9_]*) joined by dots.
func validFullName(s string) bool {
	if s == "" {
		return false
	}
	for id := range strings.SplitSeq(s, ".") {
		if id == "" || isDigit(id[0]) {
			return false
		}
		for i := 0; i < len(id); i++ {
			c := id[i]
			if !isDigit(c) && c != '_' && (c|0x20 < 'a' || c|0x20 > 'z') {
				return false
			}
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
