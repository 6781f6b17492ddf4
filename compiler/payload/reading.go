package payload

import (
	"fmt"
	"strconv"

	"github.com/protoplay/protoplay/compiler/diag"
)

// Reading is what a reader built with one version of a schema (the
// baseline) makes of a payload written with another (the current one).
type Reading struct {
	// Type is the message's full name.
	Type string `json:"type"`
	// View is the payload's wire view against the baseline's type: what
	// the old reader sees, its unknown fields and notes included.
	View *View `json:"view"`
	// Current is the wire view against the current type, for comparison.
	Current *View `json:"current"`
	// Value is the old reader's value as ProtoJSON (unknown fields, which
	// it keeps, do not show in JSON); empty when the payload does not
	// decode under the baseline.
	Value string `json:"value"`
	// CurrentValue is the current schema's value as ProtoJSON.
	CurrentValue string `json:"currentValue"`
	// DecodeError, when set, is why the old reader rejects the payload
	// (a change that breaks the wire).
	DecodeError string `json:"decodeError,omitempty"`
	// Differences are the fields the two versions read differently, in
	// payload order.
	Differences []Difference `json:"differences"`
}

// Kinds of Difference.
const (
	// DiffUnknown: the old reader does not know the field (a new field
	// number, or a wire type its definition does not have) and keeps its
	// bytes as an unknown field.
	DiffUnknown = "unknown"
	// DiffEnum: the old reader's enum has no value with this number.
	DiffEnum = "enum"
	// DiffValue: the old reader decodes the bytes to another value (a
	// type change such as int32 to sint32, or string to a message).
	DiffValue = "value"
	// DiffName: the old reader knows the field under another name (the
	// value is the same; JSON and text formats differ).
	DiffName = "name"
)

// Difference is one field of a payload that the two versions read
// differently.
type Difference struct {
	// Kind is DiffUnknown, DiffEnum, DiffValue or DiffName.
	Kind string `json:"kind"`
	// Offset and Length are the field's bytes in the payload (the field
	// of the current view).
	Offset int `json:"offset"`
	Length int `json:"length"`
	// Number is the field number.
	Number int32 `json:"number"`
	// Path names the field in the current schema, dotted from the top
	// message ("items.price"); repeated fields are not indexed.
	Path string `json:"path"`
	// Current and Baseline are the field as each version reads it:
	// "name type = value" (the value left out for messages).
	Current  string `json:"current"`
	Baseline string `json:"baseline"`
	// Message says what the old reader does, in a sentence.
	Message string `json:"message"`
}

// ReadAs decodes payload, written as typ of current, the way base (the
// baseline version of the schema) reads it, and lists the fields the two
// read differently (see Reading). A type base does not have is an *Error
// of KindType; a payload that is not well formed even for current is
// shown as far as it decodes, as WireView does.
func ReadAs(current, base *Schema, typ string, payload []byte) (*Reading, error) {
	cmd, err := current.FindMessage(typ)
	if err != nil {
		return nil, err
	}
	bmd, err := base.FindMessage(typ)
	if err != nil {
		e := diag.New(diag.KindType, "the baseline has no message type %q: an old reader cannot be asked to read it", typ)
		return nil, e
	}
	cv, err := current.WireView(cmd, payload)
	if err != nil {
		return nil, err
	}
	bv, err := base.WireView(bmd, payload)
	if err != nil {
		return nil, err
	}
	r := &Reading{Type: typ, View: bv, Current: cv, Differences: []Difference{}}
	if d, err := current.Decode(cmd, payload, DecodeOptions{In: Binary, Out: JSON}); err == nil && len(d.Messages) > 0 {
		r.CurrentValue = d.Messages[0]
	}
	if d, err := base.Decode(bmd, payload, DecodeOptions{In: Binary, Out: JSON}); err == nil && len(d.Messages) > 0 {
		r.Value = d.Messages[0]
	} else if err != nil {
		r.DecodeError = err.Error()
	}
	byOffset := map[int]*Field{}
	var index func(fs []Field)
	index = func(fs []Field) {
		for i := range fs {
			byOffset[fs[i].Offset] = &fs[i]
			index(fs[i].Children)
		}
	}
	index(bv.Fields)
	var walk func(fs []Field, prefix string)
	walk = func(fs []Field, prefix string) {
		for i := range fs {
			cf := &fs[i]
			path := prefix
			if cf.TagLength > 0 {
				name := cf.Name
				if name == "" {
					name = strconv.Itoa(int(cf.Number))
				}
				if path != "" {
					path += "."
				}
				path += name
			}
			bf := byOffset[cf.Offset]
			if bf == nil || cf.Unknown {
				continue
			}
			if d, ok := differ(cf, bf); ok {
				d.Path = path
				r.Differences = append(r.Differences, d)
				if d.Kind != DiffName {
					continue
				}
			}
			if cf.Nested && bf.Nested || cf.Packed && bf.Packed {
				walk(cf.Children, path)
			}
		}
	}
	walk(cv.Fields, "")
	return r, nil
}

// describeField is a field as "name type = value".
func describeField(f *Field) string {
	name := f.Name
	if name == "" {
		name = strconv.Itoa(int(f.Number))
	}
	s := name + " " + f.Type
	switch {
	case f.Nested:
	case f.Packed:
		s += " (packed)"
	default:
		s += " = " + f.Value
	}
	return s
}

func differ(cf, bf *Field) (Difference, bool) {
	d := Difference{Offset: cf.Offset, Length: cf.Length, Number: cf.Number, Current: describeField(cf), Baseline: describeField(bf)}
	if cf.TagLength == 0 {
		// A packed element: its number and name are its field's.
		d.Number = 0
	}
	switch {
	case bf.Unknown:
		d.Kind = DiffUnknown
		d.Baseline = "unknown field " + strconv.Itoa(int(bf.Number)) + " (" + WireTypeName(bf.WireType) + ")"
		if bf.Note != "" {
			d.Message = fmt.Sprintf("the old reader's %s; it keeps the bytes as an unknown field and drops them from JSON", bf.Note)
		} else {
			d.Message = fmt.Sprintf("the old reader has no field %d; it keeps the bytes as an unknown field and drops them from JSON", bf.Number)
		}
		return d, true
	case cf.Type != bf.Type || cf.Nested != bf.Nested || cf.Packed != bf.Packed || (!cf.Nested && !cf.Packed && cf.Value != bf.Value):
		if !cf.Nested && !bf.Nested && cf.Type == bf.Type && cf.Value != bf.Value && bf.Note != "" && isNumber(bf.Value) && !isNumber(cf.Value) {
			d.Kind = DiffEnum
			d.Message = fmt.Sprintf("the old reader's enum %s has no value %s (%s)", bf.Type, bf.Value, bf.Note)
			return d, true
		}
		if cf.Type != bf.Type && !bf.Nested && isEnumName(cf.Value, bf.Value) {
			d.Kind = DiffEnum
			d.Message = fmt.Sprintf("the old reader's enum %s has no value %s (%s)", bf.Type, bf.Value, bf.Note)
			return d, true
		}
		d.Kind = DiffValue
		switch {
		case cf.Nested && !bf.Nested:
			d.Message = fmt.Sprintf("the old reader reads the message bytes as %s %s", bf.Type, bf.Value)
		case !cf.Nested && bf.Nested:
			d.Message = fmt.Sprintf("the old reader reads the bytes as a %s message", bf.Type)
		case cf.Nested && bf.Nested:
			d.Message = fmt.Sprintf("the old reader reads the message as %s instead of %s", bf.Type, cf.Type)
		default:
			d.Message = fmt.Sprintf("the old reader reads %s %s, not %s %s", bf.Type, bf.Value, cf.Type, cf.Value)
		}
		if bf.Note != "" {
			d.Message += " (" + bf.Note + ")"
		}
		return d, true
	case cf.Name != bf.Name && cf.TagLength > 0:
		d.Kind = DiffName
		d.Message = fmt.Sprintf("the old reader calls the field %s, not %s: the value is the same, its JSON and text names differ", bf.Name, cf.Name)
		return d, true
	}
	return d, false
}

func isNumber(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// isEnumName reports an enum value that the current reader names and the
// old one shows as a bare number.
func isEnumName(cur, base string) bool {
	return cur != "" && !isNumber(cur) && isNumber(base)
}
