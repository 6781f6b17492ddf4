package frontend

import (
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/bufbuild/protocompile/experimental/report"
)

// reportDiagnostic is one diagnostic of the compiler's report, as its
// serialized form (report.Report.ToProto, the one public view of a
// diagnostic's secondary spans and edits) gives it.
type reportDiagnostic struct {
	level       report.Level
	message     string
	inFile      string
	notes, help []string
	annotations []reportAnnotation // the primary span first
}

type reportAnnotation struct {
	path       string
	start, end int // byte offsets in the file
	message    string
	edits      []reportEdit
}

// reportEdit replaces the bytes start to end, relative to the start of
// its annotation's span, with replace.
type reportEdit struct {
	start, end int
	replace    string
}

// reportDiagnostics reads rep's diagnostics, in the report's order, from
// its protobuf form (buf.compiler.v1alpha1.Report), field by name.
func reportDiagnostics(rep *report.Report) []reportDiagnostic {
	m := rep.ToProto().ProtoReflect()
	field := func(m protoreflect.Message, name protoreflect.Name) protoreflect.Value {
		fd := m.Descriptor().Fields().ByName(name)
		if fd == nil {
			return protoreflect.Value{}
		}
		return m.Get(fd)
	}
	str := func(m protoreflect.Message, name protoreflect.Name) string {
		if v := field(m, name); v.IsValid() {
			return v.String()
		}
		return ""
	}
	num := func(m protoreflect.Message, name protoreflect.Name) int {
		if v := field(m, name); v.IsValid() {
			return int(v.Uint())
		}
		return 0
	}
	list := func(m protoreflect.Message, name protoreflect.Name) protoreflect.List {
		if v := field(m, name); v.IsValid() {
			return v.List()
		}
		return nil
	}
	strs := func(m protoreflect.Message, name protoreflect.Name) []string {
		l := list(m, name)
		var out []string
		for i := 0; l != nil && i < l.Len(); i++ {
			out = append(out, l.Get(i).String())
		}
		return out
	}
	var paths []string
	if files := list(m, "files"); files != nil {
		for i := 0; i < files.Len(); i++ {
			paths = append(paths, str(files.Get(i).Message(), "path"))
		}
	}
	ds := list(m, "diagnostics")
	out := make([]reportDiagnostic, 0, ds.Len())
	for i := 0; ds != nil && i < ds.Len(); i++ {
		d := ds.Get(i).Message()
		rd := reportDiagnostic{
			message: str(d, "message"),
			inFile:  str(d, "in_file"),
			notes:   strs(d, "notes"),
			help:    strs(d, "help"),
		}
		if v := field(d, "level"); v.IsValid() {
			rd.level = report.Level(v.Enum())
		}
		as := list(d, "annotations")
		for j := 0; as != nil && j < as.Len(); j++ {
			a := as.Get(j).Message()
			ra := reportAnnotation{start: num(a, "start"), end: num(a, "end"), message: str(a, "message")}
			if f := num(a, "file"); f < len(paths) {
				ra.path = paths[f]
			}
			es := list(a, "edits")
			for k := 0; es != nil && k < es.Len(); k++ {
				e := es.Get(k).Message()
				ra.edits = append(ra.edits, reportEdit{start: num(e, "start"), end: num(e, "end"), replace: str(e, "replace")})
			}
			if v := field(a, "primary"); v.IsValid() && v.Bool() {
				rd.annotations = append([]reportAnnotation{ra}, rd.annotations...)
			} else {
				rd.annotations = append(rd.annotations, ra)
			}
		}
		out = append(out, rd)
	}
	return out
}
