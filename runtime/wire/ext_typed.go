package wire

// The typed extensions of generated code. This file uses nothing but the
// non-generic methods of Extension, so that protoplay's interpreter
// (package interp, which cannot instantiate generic types of compiled
// packages) runs the same source; interp's tests check its copy.

// Ext is a singular extension of messages of type M (a pointer to a
// generated message) whose values have Go type V, declared by generated
// code as E_Name: V is the Go type of the field (int32, string, []byte, a
// generated enum type, *Msg for a message or group). Its methods read and
// write the extension in the message's unknown fields: Get returns the last
// value on the wire for a scalar (protobuf's "last one wins") and the merge
// of every occurrence for a message.
type Ext[M Extendable, V any] struct {
	Extension
	// Default is what Get returns when the message holds no value (the
	// extension's [default = ...], an enum's first value, else V's zero
	// value).
	Default V
}

// Get returns the value of x in m: the last one for a scalar, the merge of
// all for a message (a new message each call), or x.Default when m (which
// may be nil) holds none. A message value that does not decode is returned
// as far as it decoded.
func (x *Ext[M, V]) Get(m M) V {
	u := m.ProtoUnknownFields()
	if u == nil || *u == nil {
		return x.Default
	}
	v := x.Extension.Value(**u)
	if v == nil {
		return x.Default
	}
	if p, ok := v.(*V); ok {
		return *p // an enum
	}
	return v.(V)
}

// Has reports whether m (which may be nil) holds a value of x.
func (x *Ext[M, V]) Has(m M) bool {
	u := m.ProtoUnknownFields()
	return u != nil && *u != nil && x.Extension.Has(**u)
}

// Set makes v the value of x in m, replacing any it held. It fails, leaving
// m as it was, only for a message value whose Marshal fails (a required
// field not set, invalid UTF-8). A nil message value is an empty one. m
// must not be nil.
func (x *Ext[M, V]) Set(m M, v V) error {
	var raw any = v
	if x.Kind == EnumKind {
		var n int32
		*x.Enum(&n).(*V) = v
		raw = n
	}
	val, err := x.Extension.EncodeValue(raw)
	if err != nil {
		return err
	}
	x.Extension.Set(m.ProtoUnknownFields(), []ExtensionValue{val})
	return nil
}

// Clear removes the value of x from m (which may be nil).
func (x *Ext[M, V]) Clear(m M) {
	if u := m.ProtoUnknownFields(); u != nil {
		x.Extension.Remove(u)
	}
}

// ExtList is a repeated extension of messages of type M whose elements have
// Go type E, declared by generated code as E_Name; see [Ext]. Elements are
// read from every occurrence in order, packed and unpacked alike, and
// written packed when the extension is packed.
type ExtList[M Extendable, E any] struct {
	Extension
}

// Get returns the elements of x in m, in wire order (nil for none; a new
// slice, and new messages, each call).
func (x *ExtList[M, E]) Get(m M) []E {
	u := m.ProtoUnknownFields()
	if u == nil || *u == nil {
		return nil
	}
	list := x.Extension.List(**u)
	if len(list) == 0 {
		return nil
	}
	out := make([]E, len(list))
	for i, v := range list {
		if p, ok := v.(*E); ok {
			out[i] = *p // an enum
			continue
		}
		out[i] = v.(E)
	}
	return out
}

// Has reports whether m (which may be nil) holds an element of x.
func (x *ExtList[M, E]) Has(m M) bool {
	u := m.ProtoUnknownFields()
	return u != nil && *u != nil && x.Extension.Has(**u)
}

// Set makes list the elements of x in m, replacing those it held (an empty
// list clears x). It fails, leaving m as it was, only for a message element
// whose Marshal fails. m must not be nil.
func (x *ExtList[M, E]) Set(m M, list []E) error {
	vals := make([]ExtensionValue, len(list))
	for i, e := range list {
		var raw any = e
		if x.Kind == EnumKind {
			var n int32
			*x.Enum(&n).(*E) = e
			raw = n
		}
		v, err := x.Extension.EncodeValue(raw)
		if err != nil {
			return NestIndex(err, "["+x.FullName+"]", i)
		}
		vals[i] = v
	}
	x.Extension.Set(m.ProtoUnknownFields(), vals)
	return nil
}

// Clear removes the elements of x from m (which may be nil).
func (x *ExtList[M, E]) Clear(m M) {
	if u := m.ProtoUnknownFields(); u != nil {
		x.Extension.Remove(u)
	}
}
