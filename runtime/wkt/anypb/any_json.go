package anypb

import (
	"errors"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/wire"
)

// valueForm are the types whose ProtoJSON form in an Any is
// {"@type": ..., "value": <their own form>}: those whose form is not an
// object of their fields. (Empty takes either form on input.)
var valueForm = map[string]bool{
	"google.protobuf.Any": true, "google.protobuf.Timestamp": true,
	"google.protobuf.Duration": true, "google.protobuf.FieldMask": true,
	"google.protobuf.Struct": true, "google.protobuf.Value": true,
	"google.protobuf.ListValue": true, "google.protobuf.DoubleValue": true,
	"google.protobuf.FloatValue": true, "google.protobuf.Int64Value": true,
	"google.protobuf.UInt64Value": true, "google.protobuf.Int32Value": true,
	"google.protobuf.UInt32Value": true, "google.protobuf.BoolValue": true,
	"google.protobuf.StringValue": true, "google.protobuf.BytesValue": true,
}

// EncodeProtoJSON writes x in its ProtoJSON form: the held message's own
// form with an "@type" member holding the type URL first, or
// {"@type": url, "value": form} for well-known types whose form is not an
// object. The held message is made by the encoder's Resolver from the full
// name after the URL's last '/'; no Resolver, a name it does not know, or
// a value that does not decode as that type is an error. An Any with
// neither type URL nor value is {}.
func (x *Any) EncodeProtoJSON(e *protojson.Encoder) error {
	url := x.GetTypeUrl()
	if url == "" {
		if len(x.GetValue()) != 0 {
			return protojson.EncodeError(protojson.ErrInvalidValue, "google.protobuf.Any: type_url is not set")
		}
		e.StartObject()
		e.EndObject()
		return nil
	}
	name := nameOf(url)
	r := e.Options().Resolver
	if r == nil {
		return protojson.EncodeError(protojson.ErrUnsupported, "google.protobuf.Any: no Resolver in the options to resolve \""+url+"\"")
	}
	m := r.New(name)
	if m == nil {
		return protojson.EncodeError(protojson.ErrInvalidValue, "google.protobuf.Any: unable to resolve \""+url+"\"")
	}
	if err := m.Unmarshal(x.GetValue()); err != nil && !errors.Is(err, wire.ErrRequired) {
		return protojson.EncodeError(protojson.ErrInvalidValue, "google.protobuf.Any: unable to unmarshal \""+url+"\": "+err.Error())
	}
	e.StartObject()
	e.Name("@type", "@type")
	if err := e.String(url, "google.protobuf.Any.type_url"); err != nil {
		return err
	}
	if valueForm[name] {
		e.Name("value", "value")
		if err := m.EncodeProtoJSON(e); err != nil {
			return err
		}
		e.EndObject()
		return nil
	}
	// The message's own object, with its braces taken off, follows "@type".
	inner := protojson.NewEncoder(nil, e.Options())
	if err := m.EncodeProtoJSON(inner); err != nil {
		return err
	}
	if b := inner.Bytes(); len(b) > 2 {
		e.Raw(string(b[1 : len(b)-1]))
	}
	e.EndObject()
	return nil
}

// DecodeProtoJSON reads x's ProtoJSON form from d (see EncodeProtoJSON):
// "@type" may come anywhere in the object; the message is decoded as the
// type the decoder's Resolver makes for it and stored in wire form. {} is an
// empty Any. An object without "@type" is an error (skipped under
// DiscardUnknown), as are an empty or duplicate "@type", a type the
// Resolver does not know and, for the "value" form, a missing or
// duplicate "value".
func (x *Any) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	start := d.Clone()
	url, fields, err := findTypeURL(d.Clone())
	if err != nil {
		return err
	}
	if url == "" {
		if fields == 0 {
			return d.Skip()
		}
		if d.DiscardUnknown() {
			return d.Skip()
		}
		d.ObjectStart()
		return start.InvalidValue(`google.protobuf.Any: missing "@type" field`)
	}
	name := nameOf(url)
	r := d.Options().Resolver
	if r == nil {
		return start.ErrorAtNext(protojson.ErrUnsupported, "google.protobuf.Any: no Resolver in the options to resolve \""+url+"\"")
	}
	m := r.New(name)
	if m == nil {
		return start.ErrorAtNext(protojson.ErrInvalidValue, "google.protobuf.Any: unable to resolve \""+url+"\"")
	}
	if valueForm[name] || name == "google.protobuf.Empty" {
		if err := decodeValueForm(d, m, name); err != nil {
			return err
		}
	} else {
		old := d.SkipTypeKey()
		err := m.DecodeProtoJSON(d)
		d.RestoreTypeKey(old)
		if err != nil {
			return err
		}
	}
	b, err := m.Marshal()
	if err != nil && !errors.Is(err, wire.ErrRequired) {
		return start.ErrorAtNext(protojson.ErrInvalidValue, "google.protobuf.Any: error in marshaling value: "+err.Error())
	}
	if err != nil {
		// Marshal checks required fields; an Any does not.
		return start.ErrorAtNext(protojson.ErrUnsupported, "google.protobuf.Any: the held message lacks a required field, which protoplay cannot store in an Any yet")
	}
	x.TypeUrl = url
	x.Value = b
	return nil
}

// decodeValueForm reads {"@type": ..., "value": form} into m.
func decodeValueForm(d *protojson.Decoder, m protojson.Message, name string) error {
	if err := d.ObjectStart(); err != nil {
		return err
	}
	found := false
	for {
		k, ok, err := d.Key()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch k {
		case "@type":
			if _, err := d.String(); err != nil {
				return err
			}
		case "value":
			if found {
				return d.ErrorAt(d.KeyPos(), protojson.ErrDuplicate, `duplicate "value" field`)
			}
			found = true
			if err := m.DecodeProtoJSON(d); err != nil {
				return err
			}
		default:
			if err := d.Unknown(); err != nil {
				return err
			}
		}
	}
	if !found && name != "google.protobuf.Empty" {
		return d.InvalidValue(`google.protobuf.Any: missing "value" field`)
	}
	return nil
}

// findTypeURL reads the object at d (a clone) and returns its "@type"
// value ("" when there is none) and how many members it has.
func findTypeURL(d *protojson.Decoder) (url string, fields int, err error) {
	if err := d.ObjectStart(); err != nil {
		return "", 0, err
	}
	for {
		k, ok, err := d.Key()
		if err != nil {
			return "", 0, err
		}
		if !ok {
			return url, fields, nil
		}
		fields++
		if k != "@type" {
			if err := d.Skip(); err != nil {
				return "", 0, err
			}
			continue
		}
		if url != "" {
			return "", 0, d.ErrorAt(d.KeyPos(), protojson.ErrDuplicate, `duplicate "@type" field`)
		}
		if d.Peek() != protojson.String {
			if _, err := d.String(); err != nil {
				return "", 0, err
			}
		}
		s, err := d.String()
		if err != nil {
			return "", 0, err
		}
		if s == "" {
			return "", 0, d.InvalidValue("@type field contains empty value")
		}
		url = s
	}
}
