package payload

import (
	"errors"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/internal/suggest"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/prototext"
)

// explainUnknownName rewrites err, the ErrUnknownField error runtime/protojson
// or runtime/prototext gave for the member or field name key of a value of
// type md, to name the message and, when a field's name is a likely typo of
// key, suggest it: `unknown field "nmae" in a.Person; did you mean "name"?`.
// For JSON (json true) the suggestion is the field's JSON name unless key is
// nearer its proto name; text format names a field by its proto name (a
// group by its type name), so that is the one suggested there. Any other
// error is returned unchanged; the position stays the error's own.
func explainUnknownName(err error, md protoreflect.MessageDescriptor, key string, json bool) error {
	var msg *string
	var je *protojson.Error
	var te *prototext.Error
	switch {
	case errors.As(err, &je) && errors.Is(err, protojson.ErrUnknownField):
		msg = &je.Msg
	case errors.As(err, &te) && errors.Is(err, prototext.ErrUnknownField):
		msg = &te.Msg
	default:
		return err
	}
	*msg = "unknown field " + strconv.Quote(key) + " in " + string(md.FullName())
	if strings.HasPrefix(key, "[") {
		*msg = "unknown extension " + strconv.Quote(key) + " of " + string(md.FullName()) +
			": no extension of it by that name is in the schema"
		return err
	}
	// Each field is offered under the names the format accepts; the
	// nearest one is suggested, once per field.
	byName := map[string]protoreflect.FieldDescriptor{}
	var names []string
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		for _, n := range fieldNames(fd, json) {
			if _, ok := byName[n]; !ok {
				byName[n] = fd
				names = append(names, n)
			}
		}
	}
	seen := map[protoreflect.FieldDescriptor]bool{}
	var list []string
	for _, n := range suggest.Closest(key, names, len(names)) {
		if fd := byName[n]; !seen[fd] && len(list) < 3 {
			seen[fd] = true
			list = append(list, strconv.Quote(n))
		}
	}
	if len(list) > 0 {
		*msg += "; did you mean " + strings.Join(list, " or ") + "?"
	}
	return err
}

// fieldNames are the names fd is known by in JSON (its JSON name, then its
// proto name) or in text format (its text name: the proto name, or a
// group's type name).
func fieldNames(fd protoreflect.FieldDescriptor, json bool) []string {
	if json {
		return []string{fd.JSONName(), string(fd.Name())}
	}
	return []string{fd.TextName()}
}
