package fieldmaskpb

import (
	"strings"

	"github.com/protoplay/protoplay/runtime/protojson"
)

// EncodeProtoJSON writes x in its ProtoJSON form: the paths in lowerCamelCase
// joined by commas ("user.displayName,photo"). A path that is not a valid
// dotted name, or that does not come back unchanged from lowerCamelCase
// (such as "foo_1" or "fooBar"), is an error. A nil x is "".
func (x *FieldMask) EncodeProtoJSON(e *protojson.Encoder) error {
	paths := make([]string, 0, len(x.GetPaths()))
	for _, s := range x.GetPaths() {
		if !validFullName(s) {
			return protojson.EncodeError(protojson.ErrInvalidValue, "google.protobuf.FieldMask.paths contains invalid path: \""+s+"\"")
		}
		cc := jsonCamelCase(s)
		if s != jsonSnakeCase(cc) {
			return protojson.EncodeError(protojson.ErrInvalidValue, "google.protobuf.FieldMask.paths contains irreversible value \""+s+"\"")
		}
		paths = append(paths, cc)
	}
	e.Quoted(strings.Join(paths, ","))
	return nil
}

// DecodeProtoJSON reads x's ProtoJSON form from d: comma-separated
// lowerCamelCase paths, each converted to snake_case; a path holding "_"
// or not a valid dotted name after conversion is an error.
func (x *FieldMask) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	s, err := d.String()
	if err != nil {
		return err
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	for _, p := range strings.Split(s, ",") {
		sc := jsonSnakeCase(p)
		if strings.Contains(p, "_") || !validFullName(sc) {
			return d.InvalidValue("google.protobuf.FieldMask.paths contains invalid path: \"" + p + "\"")
		}
		x.Paths = append(x.Paths, sc)
	}
	return nil
}

func jsonCamelCase(s string) string {
	var b []byte
	under := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' {
			if under && 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			b = append(b, c)
		}
		under = c == '_'
	}
	return string(b)
}

func jsonSnakeCase(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			b = append(b, '_')
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

// validFullName reports whether s is dot-separated identifiers
// ([A-Za-z_][A-Za-z0-9_]*).
func validFullName(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			letter := c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
			if !letter && (i == 0 || c < '0' || c > '9') {
				return false
			}
		}
	}
	return true
}
