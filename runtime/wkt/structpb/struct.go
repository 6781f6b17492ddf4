// Package structpb holds google.protobuf.Struct, Value and ListValue, which
// model a JSON value inside a protobuf message, and helpers that convert
// them to and from plain Go values. The helpers mirror
// google.golang.org/protobuf/types/known/structpb. See
// https://protobuf.dev/reference/protobuf/google.protobuf/#struct.
//
// A Value holds exactly one of: null, a number (float64), a string, a bool, a
// Struct (a map from string to Value, a JSON object) or a ListValue (a list of
// Values, a JSON array). The Go values that correspond are:
//
//	null        nil
//	number      float64
//	string      string
//	bool        bool
//	Struct      map[string]any
//	ListValue   []any
package structpb

import (
	"encoding/base64"
	"math"
	"strconv"
	"unicode/utf8"
)

// NewNullValue returns a Value holding null.
func NewNullValue() *Value {
	return &Value{Kind: &Value_NullValue{NullValue: NullValue_NULL_VALUE}}
}

// NewBoolValue returns a Value holding v.
func NewBoolValue(v bool) *Value {
	return &Value{Kind: &Value_BoolValue{BoolValue: v}}
}

// NewNumberValue returns a Value holding v. NaN and ±Inf are kept as they
// are, though the JSON mapping cannot represent them as numbers.
func NewNumberValue(v float64) *Value {
	return &Value{Kind: &Value_NumberValue{NumberValue: v}}
}

// NewStringValue returns a Value holding v. v is not checked; Marshal writes
// it as is, and Unmarshal rejects a string that is not valid UTF-8.
func NewStringValue(v string) *Value {
	return &Value{Kind: &Value_StringValue{StringValue: v}}
}

// NewStructValue returns a Value holding v, which is not copied.
func NewStructValue(v *Struct) *Value {
	return &Value{Kind: &Value_StructValue{StructValue: v}}
}

// NewListValue returns a Value holding v, which is not copied.
func NewListValue(v *ListValue) *Value {
	return &Value{Kind: &Value_ListValue{ListValue: v}}
}

// NewValue converts the Go value v to a Value:
//
//	nil                               null
//	bool                              bool
//	int, int8, int16, int32, int64    number
//	uint, uint8, ..., uint64          number
//	float32, float64                  number
//	string                            string
//	[]byte                            string, standard base64 with padding
//	map[string]any                    Struct, converted with NewStruct
//	[]any                             ListValue, converted with NewList
//
// Integers become float64, so those beyond ±2^53 lose precision. Every string,
// map key included, must be valid UTF-8. Any other type is an error, as is a
// nested value of any other type; the error names where in v it is, as in
// `["a"][2]`. encoding/json's Number is not accepted, so that structpb does not
// link encoding/json; convert it with its Float64 method first.
func NewValue(v any) (*Value, error) {
	x, err := newValue(v)
	if err != nil {
		return nil, err
	}
	return x, nil
}

// NewStruct converts the map v to a Struct whose fields are the values of v
// converted with NewValue. A nil map gives an empty Struct.
func NewStruct(v map[string]any) (*Struct, error) {
	x, err := newStruct(v)
	if err != nil {
		return nil, err
	}
	return x, nil
}

// NewList converts the slice v to a ListValue whose values are the elements
// of v converted with NewValue. A nil slice gives an empty ListValue.
func NewList(v []any) (*ListValue, error) {
	x, err := newList(v)
	if err != nil {
		return nil, err
	}
	return x, nil
}

// valueError reports a Go value that has no Value form. path holds the
// location in reverse: each level of newValue appends its own step as the
// error passes up, so nothing is spent on paths unless conversion fails.
type valueError struct {
	msg  string
	path []string
}

func (e *valueError) Error() string {
	s := "structpb: " + e.msg
	if len(e.path) > 0 {
		s += " at "
		for i := len(e.path) - 1; i >= 0; i-- {
			s += e.path[i]
		}
	}
	return s
}

func newValue(v any) (*Value, *valueError) {
	switch v := v.(type) {
	case nil:
		return NewNullValue(), nil
	case bool:
		return NewBoolValue(v), nil
	case int:
		return NewNumberValue(float64(v)), nil
	case int8:
		return NewNumberValue(float64(v)), nil
	case int16:
		return NewNumberValue(float64(v)), nil
	case int32:
		return NewNumberValue(float64(v)), nil
	case int64:
		return NewNumberValue(float64(v)), nil
	case uint:
		return NewNumberValue(float64(v)), nil
	case uint8:
		return NewNumberValue(float64(v)), nil
	case uint16:
		return NewNumberValue(float64(v)), nil
	case uint32:
		return NewNumberValue(float64(v)), nil
	case uint64:
		return NewNumberValue(float64(v)), nil
	case float32:
		return NewNumberValue(float64(v)), nil
	case float64:
		return NewNumberValue(v), nil
	case string:
		if !utf8.ValidString(v) {
			return nil, &valueError{msg: "invalid UTF-8 in string " + strconv.Quote(v)}
		}
		return NewStringValue(v), nil
	case []byte:
		return NewStringValue(base64.StdEncoding.EncodeToString(v)), nil
	case map[string]any:
		s, err := newStruct(v)
		if err != nil {
			return nil, err
		}
		return NewStructValue(s), nil
	case []any:
		l, err := newList(v)
		if err != nil {
			return nil, err
		}
		return NewListValue(l), nil
	default:
		return nil, &valueError{msg: "unsupported Go type (want nil, bool, a number, string, []byte, map[string]any or []any)"}
	}
}

func newStruct(v map[string]any) (*Struct, *valueError) {
	x := &Struct{Fields: make(map[string]*Value, len(v))}
	for k, e := range v {
		if !utf8.ValidString(k) {
			return nil, &valueError{msg: "invalid UTF-8 in map key " + strconv.Quote(k)}
		}
		var err *valueError
		if x.Fields[k], err = newValue(e); err != nil {
			err.path = append(err.path, "["+strconv.Quote(k)+"]")
			return nil, err
		}
	}
	return x, nil
}

func newList(v []any) (*ListValue, *valueError) {
	x := &ListValue{Values: make([]*Value, len(v))}
	for i, e := range v {
		var err *valueError
		if x.Values[i], err = newValue(e); err != nil {
			err.path = append(err.path, "["+strconv.Itoa(i)+"]")
			return nil, err
		}
	}
	return x, nil
}

// AsInterface converts x to a Go value: nil for null, an unset kind or a nil
// x; float64, string or bool; map[string]any for a Struct (see
// [Struct.AsMap]); []any for a ListValue (see [ListValue.AsSlice]). As in the
// JSON mapping, a NaN number becomes the string "NaN" and ±Inf become
// "Infinity" and "-Infinity".
func (x *Value) AsInterface() any {
	switch k := x.GetKind().(type) {
	case *Value_NumberValue:
		if k == nil {
			return nil
		}
		switch n := k.NumberValue; {
		case math.IsNaN(n):
			return "NaN"
		case math.IsInf(n, +1):
			return "Infinity"
		case math.IsInf(n, -1):
			return "-Infinity"
		default:
			return n
		}
	case *Value_StringValue:
		if k != nil {
			return k.StringValue
		}
	case *Value_BoolValue:
		if k != nil {
			return k.BoolValue
		}
	case *Value_StructValue:
		if k != nil {
			return k.StructValue.AsMap()
		}
	case *Value_ListValue:
		if k != nil {
			return k.ListValue.AsSlice()
		}
	}
	return nil
}

// AsMap converts x to a map whose values are the fields of x converted with
// [Value.AsInterface]. The map is never nil, even for a nil x.
func (x *Struct) AsMap() map[string]any {
	f := x.GetFields()
	m := make(map[string]any, len(f))
	for k, v := range f {
		m[k] = v.AsInterface()
	}
	return m
}

// AsSlice converts x to a slice of its values converted with
// [Value.AsInterface]. The slice is never nil, even for a nil x.
func (x *ListValue) AsSlice() []any {
	vs := x.GetValues()
	s := make([]any, len(vs))
	for i, v := range vs {
		s[i] = v.AsInterface()
	}
	return s
}
