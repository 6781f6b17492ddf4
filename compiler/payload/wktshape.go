package payload

import (
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// wktShapes are the fields of the well-known types whose JSON and text
// forms the runtime writes by hand (specialJSON, Any), as "number name
// kind cardinality" joined by ";", in field-number order.
var wktShapes = map[protoreflect.FullName]string{
	"google.protobuf.Any":         "1 type_url string optional;2 value bytes optional",
	"google.protobuf.Timestamp":   "1 seconds int64 optional;2 nanos int32 optional",
	"google.protobuf.Duration":    "1 seconds int64 optional;2 nanos int32 optional",
	"google.protobuf.FieldMask":   "1 paths string repeated",
	"google.protobuf.Struct":      "1 fields message repeated",
	"google.protobuf.Value":       "1 null_value enum optional;2 number_value double optional;3 string_value string optional;4 bool_value bool optional;5 struct_value message optional;6 list_value message optional",
	"google.protobuf.ListValue":   "1 values message repeated",
	"google.protobuf.DoubleValue": "1 value double optional",
	"google.protobuf.FloatValue":  "1 value float optional",
	"google.protobuf.Int64Value":  "1 value int64 optional",
	"google.protobuf.UInt64Value": "1 value uint64 optional",
	"google.protobuf.Int32Value":  "1 value int32 optional",
	"google.protobuf.UInt32Value": "1 value uint32 optional",
	"google.protobuf.BoolValue":   "1 value bool optional",
	"google.protobuf.StringValue": "1 value string optional",
	"google.protobuf.BytesValue":  "1 value bytes optional",
	"google.protobuf.Empty":       "",
}

// standardShape reports whether md, a message of one of the well-known
// types' full names, has the standard type's fields. A schema may bring
// its own google/protobuf/*.proto (the compiler uses a request's copy over
// the bundled one); when its types differ, they are written and read as
// the ordinary messages they are, not by the runtime's hand-written forms
// for the standard ones (which would drop or misread their fields).
func standardShape(md protoreflect.MessageDescriptor) bool {
	want, ok := wktShapes[md.FullName()]
	if !ok {
		return false
	}
	fields := md.Fields()
	got := make([]string, 0, fields.Len())
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		got = append(got, strconv.Itoa(int(fd.Number()))+" "+string(fd.Name())+" "+fd.Kind().String()+" "+fd.Cardinality().String())
	}
	return strings.Join(got, ";") == want
}
