package wrapperspb

import "github.com/protoplay/protoplay/runtime/protojson"

// The wrappers' ProtoJSON form is that of the value they box: 1.5, "12"
// (64-bit integers as strings), true, "text", "base64". A nil wrapper
// writes the zero value.

// EncodeProtoJSON writes x's value in its ProtoJSON form.
func (x *DoubleValue) EncodeProtoJSON(e *protojson.Encoder) error {
	e.Float64(x.GetValue())
	return nil
}

// DecodeProtoJSON reads x's value from d in its ProtoJSON form.
func (x *DoubleValue) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	v, err := d.Float64()
	if err != nil {
		return err
	}
	x.Value = v
	return nil
}

// EncodeProtoJSON writes x's value in its ProtoJSON form.
func (x *FloatValue) EncodeProtoJSON(e *protojson.Encoder) error {
	e.Float32(x.GetValue())
	return nil
}

// DecodeProtoJSON reads x's value from d in its ProtoJSON form.
func (x *FloatValue) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	v, err := d.Float32()
	if err != nil {
		return err
	}
	x.Value = v
	return nil
}

// EncodeProtoJSON writes x's value in its ProtoJSON form.
func (x *Int64Value) EncodeProtoJSON(e *protojson.Encoder) error {
	e.Int64(x.GetValue())
	return nil
}

// DecodeProtoJSON reads x's value from d in its ProtoJSON form.
func (x *Int64Value) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	v, err := d.Int64()
	if err != nil {
		return err
	}
	x.Value = v
	return nil
}

// EncodeProtoJSON writes x's value in its ProtoJSON form.
func (x *UInt64Value) EncodeProtoJSON(e *protojson.Encoder) error {
	e.Uint64(x.GetValue())
	return nil
}

// DecodeProtoJSON reads x's value from d in its ProtoJSON form.
func (x *UInt64Value) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	v, err := d.Uint64()
	if err != nil {
		return err
	}
	x.Value = v
	return nil
}

// EncodeProtoJSON writes x's value in its ProtoJSON form.
func (x *Int32Value) EncodeProtoJSON(e *protojson.Encoder) error {
	e.Int32(x.GetValue())
	return nil
}

// DecodeProtoJSON reads x's value from d in its ProtoJSON form.
func (x *Int32Value) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	v, err := d.Int32()
	if err != nil {
		return err
	}
	x.Value = v
	return nil
}

// EncodeProtoJSON writes x's value in its ProtoJSON form.
func (x *UInt32Value) EncodeProtoJSON(e *protojson.Encoder) error {
	e.Uint32(x.GetValue())
	return nil
}

// DecodeProtoJSON reads x's value from d in its ProtoJSON form.
func (x *UInt32Value) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	v, err := d.Uint32()
	if err != nil {
		return err
	}
	x.Value = v
	return nil
}

// EncodeProtoJSON writes x's value in its ProtoJSON form.
func (x *BoolValue) EncodeProtoJSON(e *protojson.Encoder) error {
	e.Bool(x.GetValue())
	return nil
}

// DecodeProtoJSON reads x's value from d in its ProtoJSON form.
func (x *BoolValue) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	v, err := d.Bool()
	if err != nil {
		return err
	}
	x.Value = v
	return nil
}

// EncodeProtoJSON writes x's value in its ProtoJSON form.
func (x *StringValue) EncodeProtoJSON(e *protojson.Encoder) error {
	return e.String(x.GetValue(), "google.protobuf.StringValue.value")
}

// DecodeProtoJSON reads x's value from d in its ProtoJSON form.
func (x *StringValue) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	v, err := d.String()
	if err != nil {
		return err
	}
	x.Value = v
	return nil
}

// EncodeProtoJSON writes x's value in its ProtoJSON form.
func (x *BytesValue) EncodeProtoJSON(e *protojson.Encoder) error {
	e.Bytes64(x.GetValue())
	return nil
}

// DecodeProtoJSON reads x's value from d in its ProtoJSON form.
func (x *BytesValue) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	v, err := d.Bytes()
	if err != nil {
		return err
	}
	x.Value = v
	return nil
}
