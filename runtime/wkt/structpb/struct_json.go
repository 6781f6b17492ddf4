package structpb

import (
	"math"
	"slices"
	"strings"

	"github.com/protoplay/protoplay/runtime/protojson"
)

// EncodeProtoJSON writes x as a JSON object of its fields, keys sorted. A
// nil x is {}.
func (x *Struct) EncodeProtoJSON(e *protojson.Encoder) error {
	e.StartObject()
	keys := make([]string, 0, len(x.GetFields()))
	for k := range x.GetFields() {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, strings.Compare)
	for _, k := range keys {
		if err := e.Key(k); err != nil {
			return err
		}
		if err := x.Fields[k].EncodeProtoJSON(e); err != nil {
			return err
		}
	}
	e.EndObject()
	return nil
}

// DecodeProtoJSON reads a JSON object into x's fields; a key given twice is
// an error.
//
// Nesting is counted as in the binary and text forms, whose messages the
// JSON form stands for: the Struct one level, its fields (a map) one more
// when it has any, and each Value one more; so every JSON object inside a
// Value costs three levels and every array (a ListValue, see there) two,
// and what UnmarshalJSON accepts, Unmarshal accepts once written by
// Marshal.
func (x *Struct) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	more, err := d.MapStart()
	if err != nil {
		return err
	}
	if x.Fields == nil {
		x.Fields = map[string]*Value{}
	}
	if !more {
		return nil
	}
	defer d.MapEnd()
	for {
		k, ok, err := d.Key()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if _, dup := x.Fields[k]; dup {
			return d.DuplicateKey()
		}
		v := new(Value)
		if err := v.DecodeProtoJSON(d); err != nil {
			return err
		}
		x.Fields[k] = v
	}
}

// EncodeProtoJSON writes x as a JSON array. A nil x is [].
func (x *ListValue) EncodeProtoJSON(e *protojson.Encoder) error {
	e.StartArray()
	for _, v := range x.GetValues() {
		if err := v.EncodeProtoJSON(e); err != nil {
			return err
		}
	}
	e.EndArray()
	return nil
}

// DecodeProtoJSON reads a JSON array into x's values. The ListValue
// counts one level of nesting and each Value one more, as in the binary
// form (see Struct.DecodeProtoJSON).
func (x *ListValue) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	if err := d.ArrayStart(); err != nil {
		return err
	}
	for {
		more, err := d.ArrayNext()
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		v := new(Value)
		if err := v.DecodeProtoJSON(d); err != nil {
			return err
		}
		x.Values = append(x.Values, v)
	}
}

// EncodeProtoJSON writes the JSON value x holds. A Value with no kind set
// (a nil wrapper pointer such as (*Value_NullValue)(nil) counts as none, as
// in protojson), and a number_value that is NaN or infinite, are errors
// (JSON has no such numbers).
func (x *Value) EncodeProtoJSON(e *protojson.Encoder) error {
	switch k := x.GetKind().(type) {
	case *Value_NullValue:
		if k != nil {
			e.Null()
			return nil
		}
	case *Value_NumberValue:
		if k != nil {
			if math.IsNaN(k.NumberValue) || math.IsInf(k.NumberValue, 0) {
				return protojson.EncodeError(protojson.ErrInvalidValue, "google.protobuf.Value.number_value: invalid value (NaN or infinite)")
			}
			e.Float64(k.NumberValue)
			return nil
		}
	case *Value_StringValue:
		if k != nil {
			return e.String(k.StringValue, "google.protobuf.Value.string_value")
		}
	case *Value_BoolValue:
		if k != nil {
			e.Bool(k.BoolValue)
			return nil
		}
	case *Value_StructValue:
		if k != nil {
			return k.StructValue.EncodeProtoJSON(e)
		}
	case *Value_ListValue:
		if k != nil {
			return k.ListValue.EncodeProtoJSON(e)
		}
	}
	return protojson.EncodeError(protojson.ErrInvalidValue, "google.protobuf.Value: none of the oneof fields is set")
}

// DecodeProtoJSON reads any JSON value into x: null, a bool, a number (or
// "NaN"-style strings are strings: only JSON numbers become number_value),
// a string, an object (struct_value) or an array (list_value).
func (x *Value) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	switch d.Peek() {
	case protojson.Null:
		d.ReadNull()
		x.Kind = &Value_NullValue{}
	case protojson.Bool:
		v, err := d.Bool()
		if err != nil {
			return err
		}
		x.Kind = &Value_BoolValue{BoolValue: v}
	case protojson.Number:
		v, err := d.Float64()
		if err != nil {
			return err
		}
		x.Kind = &Value_NumberValue{NumberValue: v}
	case protojson.String:
		v, err := d.String()
		if err != nil {
			return err
		}
		x.Kind = &Value_StringValue{StringValue: v}
	case protojson.Object:
		s := new(Struct)
		if err := s.DecodeProtoJSON(d); err != nil {
			return err
		}
		x.Kind = &Value_StructValue{StructValue: s}
	case protojson.Array:
		l := new(ListValue)
		if err := l.DecodeProtoJSON(d); err != nil {
			return err
		}
		x.Kind = &Value_ListValue{ListValue: l}
	default:
		_, err := d.String() // the syntax error for what is there
		return err
	}
	return nil
}
