// Package wrapperspb holds the google.protobuf wrapper messages, each of
// which boxes one scalar (BoolValue, Int32Value, ..., BytesValue) so that a
// message field of that type can tell "unset" (nil) from the zero value. The
// constructors mirror google.golang.org/protobuf/types/known/wrapperspb. See
// https://protobuf.dev/reference/protobuf/google.protobuf/#bool-value and the
// entries that follow it.
package wrapperspb

// Bool returns a BoolValue holding v.
func Bool(v bool) *BoolValue { return &BoolValue{Value: v} }

// Int32 returns an Int32Value holding v.
func Int32(v int32) *Int32Value { return &Int32Value{Value: v} }

// Int64 returns an Int64Value holding v.
func Int64(v int64) *Int64Value { return &Int64Value{Value: v} }

// UInt32 returns a UInt32Value holding v.
func UInt32(v uint32) *UInt32Value { return &UInt32Value{Value: v} }

// UInt64 returns a UInt64Value holding v.
func UInt64(v uint64) *UInt64Value { return &UInt64Value{Value: v} }

// Float returns a FloatValue holding v.
func Float(v float32) *FloatValue { return &FloatValue{Value: v} }

// Double returns a DoubleValue holding v.
func Double(v float64) *DoubleValue { return &DoubleValue{Value: v} }

// String returns a StringValue holding v. Marshal does not check v, but
// Unmarshal rejects a value that is not valid UTF-8, as proto3 requires.
func String(v string) *StringValue { return &StringValue{Value: v} }

// Bytes returns a BytesValue holding v. The slice is not copied.
func Bytes(v []byte) *BytesValue { return &BytesValue{Value: v} }
