package anypb

import (
	"errors"

	"github.com/protoplay/protoplay/runtime/prototext"
	"github.com/protoplay/protoplay/runtime/wire"
)

// EncodeProtoText writes x's fields in the text format. When the encoder's
// Resolver makes a message for the type (the full name after the URL's
// last '/') and Value decodes as that type, x is written in the expanded
// form [type_url] { fields of the held message }, as prototext does;
// otherwise as its type_url and value fields (and, under EmitUnknown, its
// unknown fields).
func (x *Any) EncodeProtoText(e *prototext.Encoder) error {
	if x == nil {
		return nil
	}
	if r := e.Options().Resolver; r != nil && x.TypeUrl != "" {
		if m, ok := r.New(nameOf(x.TypeUrl)).(prototext.Message); ok && m != nil {
			if err := m.Unmarshal(x.Value); err == nil || errors.Is(err, wire.ErrRequired) {
				s := e.Snapshot()
				e.StartMessage("[" + x.TypeUrl + "]")
				if err := m.EncodeProtoText(e); err == nil {
					e.EndMessage()
					return nil
				}
				e.Restore(s)
			}
		}
	}
	if x.TypeUrl != "" {
		if err := e.StringUTF8("type_url", x.TypeUrl, "google.protobuf.Any.type_url"); err != nil {
			return err
		}
	}
	if len(x.Value) > 0 {
		e.ByteString("value", x.Value)
	}
	e.Unknown(x.unknownFields)
	return nil
}

// DecodeProtoText reads an Any in the text format: its type_url and value
// fields, or the expanded form [type_url] { fields }, whose message is
// made by the decoder's Resolver and stored in wire form. As in prototext,
// the two forms do not mix, each field comes at most once, and any other
// field name is an error (DiscardUnknown does not apply).
func (x *Any) DecodeProtoText(d *prototext.Decoder) error {
	if err := d.MessageStart(); err != nil {
		return err
	}
	defer d.Leave()
	var url string
	var value []byte
	seenURL, seenValue, expanded := false, false, false
	for {
		name, err := d.Next()
		if err != nil {
			return err
		}
		switch {
		case name == "":
			x.TypeUrl, x.Value = url, nil
			if len(value) > 0 {
				x.Value = value
			}
			return nil
		case name[0] == '[':
			if expanded {
				return d.ErrorAt(d.NameOffset(), prototext.ErrDuplicate, "cannot have more than one type")
			}
			if seenURL {
				return d.ErrorAt(d.NameOffset(), prototext.ErrDuplicate, "conflict with type_url field")
			}
			url = name[1 : len(name)-1]
			if value, err = expanded1(d, url); err != nil {
				return err
			}
			expanded = true
		case name == "type_url":
			if seenURL {
				return d.ErrorAt(d.NameOffset(), prototext.ErrDuplicate, "duplicate google.protobuf.Any.type_url field")
			}
			if expanded {
				return d.ErrorAt(d.NameOffset(), prototext.ErrDuplicate, "conflict with ["+url+"] field")
			}
			if url, err = d.String(); err != nil {
				return err
			}
			seenURL = true
		case name == "value":
			if seenValue {
				return d.ErrorAt(d.NameOffset(), prototext.ErrDuplicate, "duplicate google.protobuf.Any.value field")
			}
			if expanded {
				return d.ErrorAt(d.NameOffset(), prototext.ErrDuplicate, "conflict with ["+url+"] field")
			}
			if value, err = d.Bytes(); err != nil {
				return err
			}
			seenValue = true
		default:
			return d.ErrorAt(d.NameOffset(), prototext.ErrUnknownField, "invalid field name \""+name+"\" in google.protobuf.Any message")
		}
	}
}

// expanded1 reads the message of an expanded Any of type url and returns
// its wire encoding.
func expanded1(d *prototext.Decoder, url string) ([]byte, error) {
	at := d.NameOffset()
	r := d.Options().Resolver
	if r == nil {
		return nil, d.ErrorAt(at, prototext.ErrUnsupported, "unable to resolve message ["+url+"]: no Resolver in the options")
	}
	m, ok := r.New(nameOf(url)).(prototext.Message)
	if !ok || m == nil {
		return nil, d.ErrorAt(at, prototext.ErrInvalidValue, "unable to resolve message ["+url+"]")
	}
	if err := m.DecodeProtoText(d); err != nil {
		return nil, err
	}
	b, err := m.Marshal()
	if err != nil {
		if errors.Is(err, wire.ErrRequired) {
			return nil, d.ErrorAt(at, prototext.ErrUnsupported, "google.protobuf.Any: the held message lacks a required field, which protoplay cannot store in an Any yet")
		}
		return nil, d.ErrorAt(at, prototext.ErrInvalidValue, "error in marshaling message into Any.value: "+err.Error())
	}
	return b, nil
}
