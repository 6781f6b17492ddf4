package frontend

import (
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	// The standard files protobuf-go compiles in, registered in
	// protoregistry.GlobalFiles: the oracle TestStandardSetIsPinned compares
	// the bundled ones with.
	_ "google.golang.org/protobuf/types/gofeaturespb"
	_ "google.golang.org/protobuf/types/known/anypb"
	_ "google.golang.org/protobuf/types/known/apipb"
	_ "google.golang.org/protobuf/types/known/durationpb"
	_ "google.golang.org/protobuf/types/known/emptypb"
	_ "google.golang.org/protobuf/types/known/fieldmaskpb"
	_ "google.golang.org/protobuf/types/known/sourcecontextpb"
	_ "google.golang.org/protobuf/types/known/structpb"
	_ "google.golang.org/protobuf/types/known/timestamppb"
	_ "google.golang.org/protobuf/types/known/typepb"
	_ "google.golang.org/protobuf/types/known/wrapperspb"
	_ "google.golang.org/protobuf/types/pluginpb"
)

// Issue 24 kind 6 (case 46): what protoplay bundles is the version it
// pins. Every standard file protobuf-go compiles in (the well-known types,
// descriptor.proto, plugin.proto, go_features.proto) is, as standard.binpb
// holds it, the descriptor protobuf-go's generated package embeds, field
// by field (source info aside: protobuf-go strips it). So a go.mod bump of
// google.golang.org/protobuf that changes one of them fails here until
// make generate rebuilds standard.binpb and runtime/wkt from the new
// sources; cpp_features.proto and java_features.proto, which protobuf-go
// does not compile in, come from the same source (see standardSources).
func TestStandardSetIsPinned(t *testing.T) {
	if *update {
		t.Skip("-update: TestStandardSet rewrites standard.binpb from the pinned descriptors; this checks the next build's")
	}
	if diffs := pinDiffs(t, standardSet); len(diffs) > 0 {
		t.Errorf("bundled/standard.binpb is not google.golang.org/protobuf's descriptors (go.mod's version): "+
			"pin a protocompile whose wellknownimports agree, then make generate:\n\t%s", strings.Join(diffs, "\n\t"))
	}
}

// pinDiffs compares each file of set (a FileDescriptorSet) that
// protobuf-go compiles in with protobuf-go's descriptor, after taking out
// what protoc-gen-go leaves out of the descriptors it embeds (source info
// and options of source retention), and lists the differences.
func pinDiffs(t *testing.T, set []byte) []string {
	t.Helper()
	var fds descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(set, &fds); err != nil {
		t.Fatal(err)
	}
	byName := map[string]*descriptorpb.FileDescriptorProto{}
	for _, f := range fds.File {
		byName[f.GetName()] = f
	}
	var out []string
	compared := 0
	for _, name := range standardFiles {
		want, err := protoregistry.GlobalFiles.FindFileByPath(name)
		if err != nil {
			continue // not compiled into protobuf-go: cpp_features.proto, java_features.proto
		}
		got, ok := byName[name]
		if !ok {
			out = append(out, name+": not in the set")
			continue
		}
		got = proto.Clone(got).(*descriptorpb.FileDescriptorProto)
		got.SourceCodeInfo = nil
		stripSourceRetention(got.ProtoReflect())
		compared++
		diffs := descriptorDiff(got.ProtoReflect(), protodesc.ToFileDescriptorProto(want).ProtoReflect(), name)
		if len(diffs) > 20 {
			diffs = append(diffs[:20], fmt.Sprintf("... and %d more in %s", len(diffs)-20, name))
		}
		out = append(out, diffs...)
	}
	if compared < 13 {
		out = append(out, fmt.Sprintf("compared %d standard files with protobuf-go's, want the 13 it compiles in", compared))
	}
	return out
}

// stripSourceRetention clears, in m and every message below it, each field
// declared with retention = RETENTION_SOURCE (the options protoc-gen-go
// leaves out of the descriptors it embeds: protobuf.dev/programming-guides/
// editions#retention).
func stripSourceRetention(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if opts, ok := fd.Options().(*descriptorpb.FieldOptions); ok && opts.GetRetention() == descriptorpb.FieldOptions_RETENTION_SOURCE {
			m.Clear(fd)
			return true
		}
		switch {
		case fd.IsList() && fd.Message() != nil:
			for i := 0; i < v.List().Len(); i++ {
				stripSourceRetention(v.List().Get(i).Message())
			}
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				stripSourceRetention(mv.Message())
				return true
			})
		case !fd.IsList() && !fd.IsMap() && fd.Message() != nil:
			stripSourceRetention(v.Message())
		}
		return true
	})
}

// descriptorDiff lists where messages a and b differ, field by field, as
// paths below path ("descriptor.proto: message_type[3].field[2].json_name:
// absent, want \"x\"").
func descriptorDiff(a, b protoreflect.Message, path string) []string {
	var out []string
	fields := a.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		p := path + "." + string(fd.Name())
		if strings.HasSuffix(path, ".proto") {
			p = path + ": " + string(fd.Name())
		}
		ha, hb := a.Has(fd), b.Has(fd)
		switch {
		case !ha && !hb:
			continue
		case !ha:
			out = append(out, fmt.Sprintf("%s: absent, want %s", p, short(b.Get(fd), fd)))
			continue
		case !hb:
			out = append(out, fmt.Sprintf("%s: %s, want absent", p, short(a.Get(fd), fd)))
			continue
		}
		va, vb := a.Get(fd), b.Get(fd)
		switch {
		case fd.IsList():
			la, lb := va.List(), vb.List()
			if fd.Message() != nil {
				if d, ok := namedListDiff(la, lb, p); ok {
					out = append(out, d...)
					continue
				}
			}
			for j := 0; j < max(la.Len(), lb.Len()); j++ {
				pj := fmt.Sprintf("%s[%d]", p, j)
				if fd.Message() != nil {
					pj += nameOf(la, lb, j)
				}
				switch {
				case j >= la.Len():
					out = append(out, pj+": absent, want "+short(lb.Get(j), fd))
				case j >= lb.Len():
					out = append(out, pj+": "+short(la.Get(j), fd)+", want absent")
				case fd.Message() != nil:
					out = append(out, descriptorDiff(la.Get(j).Message(), lb.Get(j).Message(), pj)...)
				case !la.Get(j).Equal(lb.Get(j)):
					out = append(out, fmt.Sprintf("%s: %s, want %s", pj, short(la.Get(j), fd), short(lb.Get(j), fd)))
				}
			}
		case fd.Message() != nil:
			out = append(out, descriptorDiff(va.Message(), vb.Message(), p)...)
		case !va.Equal(vb):
			out = append(out, fmt.Sprintf("%s: %s, want %s", p, short(va, fd), short(vb, fd)))
		}
	}
	// Unknown fields: an option protobuf-go knows and the bundled
	// descriptor.proto does not (or the reverse) shows up here.
	if ua, ub := a.GetUnknown(), b.GetUnknown(); string(ua) != string(ub) {
		out = append(out, fmt.Sprintf("%s: unknown fields %x, want %x", path, []byte(ua), []byte(ub)))
	}
	return out
}

// namedListDiff compares two lists of named descriptors (fields, messages,
// values...) by name, so that one field added in the middle is one
// difference; ok is false when an element has no name or two share one.
func namedListDiff(la, lb protoreflect.List, path string) (out []string, ok bool) {
	index := func(l protoreflect.List) (map[string]int, []string, bool) {
		m := map[string]int{}
		var names []string
		for i := 0; i < l.Len(); i++ {
			msg := l.Get(i).Message()
			fd := msg.Descriptor().Fields().ByName("name")
			if fd == nil || fd.Kind() != protoreflect.StringKind || !msg.Has(fd) {
				return nil, nil, false
			}
			n := msg.Get(fd).String()
			if _, dup := m[n]; dup {
				return nil, nil, false
			}
			m[n] = i
			names = append(names, n)
		}
		return m, names, true
	}
	ia, na, ok1 := index(la)
	ib, nb, ok2 := index(lb)
	if !ok1 || !ok2 {
		return nil, false
	}
	for j, n := range nb {
		i, found := ia[n]
		if !found {
			out = append(out, fmt.Sprintf("%s[%d] (%s): absent, want it", path, j, n))
			continue
		}
		if i != j && len(na) == len(nb) {
			out = append(out, fmt.Sprintf("%s (%s): at index %d, want %d", path, n, i, j))
		}
		out = append(out, descriptorDiff(la.Get(i).Message(), lb.Get(j).Message(), fmt.Sprintf("%s[%d] (%s)", path, j, n))...)
	}
	for _, n := range na {
		if _, found := ib[n]; !found {
			out = append(out, fmt.Sprintf("%s (%s): present, want absent", path, n))
		}
	}
	return out, true
}

// nameOf is " (name)" for element j of a list of named descriptors.
func nameOf(la, lb protoreflect.List, j int) string {
	l := la
	if j >= la.Len() {
		l = lb
	}
	m := l.Get(j).Message()
	if fd := m.Descriptor().Fields().ByName("name"); fd != nil && fd.Kind() == protoreflect.StringKind && m.Has(fd) {
		return " (" + m.Get(fd).String() + ")"
	}
	return ""
}

// short prints a value for a difference: a scalar as itself, a message
// by its name field if it has one.
func short(v protoreflect.Value, fd protoreflect.FieldDescriptor) string {
	if l, ok := v.Interface().(protoreflect.List); ok {
		var parts []string
		for i := 0; i < l.Len(); i++ {
			parts = append(parts, short(l.Get(i), fd))
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	if fd.Message() == nil {
		if fd.Kind() == protoreflect.EnumKind {
			if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
				return string(ev.Name())
			}
		}
		return fmt.Sprintf("%q", v.String())
	}
	if !v.Message().IsValid() {
		return "{}"
	}
	m := v.Message()
	if n := m.Descriptor().Fields().ByName("name"); n != nil && n.Kind() == protoreflect.StringKind && m.Has(n) {
		return string(m.Descriptor().Name()) + "{" + m.Get(n).String() + "}"
	}
	return string(m.Descriptor().Name()) + "{...}"
}
