package wrapperspb_test

import (
	"bytes"
	"math"
	"testing"

	"google.golang.org/protobuf/proto"
	ref "google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/protoplay/protoplay/runtime/wkt/wrapperspb"
)

type message interface {
	Marshal() ([]byte, error)
}

// TestConstructors checks each constructor's value, and that its encoding is
// what protobuf-go writes for the same value.
func TestConstructors(t *testing.T) {
	tests := []struct {
		name   string
		ours   message
		want   any
		theirs proto.Message
	}{
		{"Bool", wrapperspb.Bool(true), true, ref.Bool(true)},
		{"Bool false", wrapperspb.Bool(false), false, ref.Bool(false)},
		{"Int32", wrapperspb.Int32(math.MinInt32), int32(math.MinInt32), ref.Int32(math.MinInt32)},
		{"Int64", wrapperspb.Int64(math.MinInt64), int64(math.MinInt64), ref.Int64(math.MinInt64)},
		{"UInt32", wrapperspb.UInt32(math.MaxUint32), uint32(math.MaxUint32), ref.UInt32(math.MaxUint32)},
		{"UInt64", wrapperspb.UInt64(math.MaxUint64), uint64(math.MaxUint64), ref.UInt64(math.MaxUint64)},
		{"Float", wrapperspb.Float(-1.5), float32(-1.5), ref.Float(-1.5)},
		{"Float -0", wrapperspb.Float(float32(math.Copysign(0, -1))), float32(math.Copysign(0, -1)), ref.Float(float32(math.Copysign(0, -1)))},
		{"Double", wrapperspb.Double(math.Inf(-1)), math.Inf(-1), ref.Double(math.Inf(-1))},
		{"String", wrapperspb.String("héllo"), "héllo", ref.String("héllo")},
		{"Bytes", wrapperspb.Bytes([]byte{0, 0xff}), []byte{0, 0xff}, ref.Bytes([]byte{0, 0xff})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got any
			switch m := tt.ours.(type) {
			case *wrapperspb.BoolValue:
				got = m.Value
			case *wrapperspb.Int32Value:
				got = m.Value
			case *wrapperspb.Int64Value:
				got = m.Value
			case *wrapperspb.UInt32Value:
				got = m.Value
			case *wrapperspb.UInt64Value:
				got = m.Value
			case *wrapperspb.FloatValue:
				got = m.Value
			case *wrapperspb.DoubleValue:
				got = m.Value
			case *wrapperspb.StringValue:
				got = m.Value
			case *wrapperspb.BytesValue:
				got = m.Value
			}
			if bs, ok := got.([]byte); ok {
				if !bytes.Equal(bs, tt.want.([]byte)) {
					t.Errorf("Value = %x, want %x", bs, tt.want)
				}
			} else if got != tt.want {
				t.Errorf("Value = %v, want %v", got, tt.want)
			}
			ours, err := tt.ours.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := proto.Marshal(tt.theirs)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(ours, theirs) {
				t.Errorf("Marshal = %x, protobuf-go writes %x", ours, theirs)
			}
			back := proto.Clone(tt.theirs)
			proto.Reset(back)
			if err := proto.Unmarshal(ours, back); err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(back, tt.theirs) {
				t.Errorf("protobuf-go decodes %v, want %v", back, tt.theirs)
			}
		})
	}
}

func TestBytesDoesNotCopy(t *testing.T) {
	b := []byte{1, 2}
	if w := wrapperspb.Bytes(b); &w.Value[0] != &b[0] {
		t.Error("Bytes copied its argument")
	}
}
