package frontend

import (
	"strings"

	"github.com/bufbuild/protocompile/ast"
	"github.com/bufbuild/protocompile/reporter"
)

// precheck finds, in a parsed file, what protocompile (v0.14.1) would
// mishandle while linking it, and reports each with its position. Checks
// live here only when protocompile cannot be relied on; everything else it
// checks as protoc does (see TestRejectsWhatProtocRejects).
//
// The one check today: [packed = true] on a field written without a label
// (a proto3 singular field, a member of a oneof). protoc rejects it
// ("[packed = true] can only be specified for repeated primitive fields");
// protocompile's linker, positioning the same error at the field's absent
// label, dereferences a nil node and panics. Editions files are left out:
// protocompile's parser rejects packed there before linking.
//
// src is the file's text: the check needs an option named packed, an
// identifier, which no escape can spell otherwise, so a file whose text
// never says "packed" (most files) is not walked at all (the walk was
// 2-3% of an edit of a big file under GOOS=js).
func precheck(file *ast.FileNode, src string) []reporter.ErrorWithPos {
	if file.Edition != nil || !strings.Contains(src, "packed") {
		return nil
	}
	var errs []reporter.ErrorWithPos
	packed := func(label ast.FieldLabel, opts *ast.CompactOptionsNode) {
		if label.KeywordNode != nil || opts == nil {
			return
		}
		for _, opt := range opts.Options {
			if len(opt.Name.Parts) != 1 || opt.Name.Parts[0].IsExtension() || opt.Name.Parts[0].Name.AsIdentifier() != "packed" {
				continue
			}
			if v, ok := opt.Val.(*ast.IdentNode); ok && v.Val == "true" {
				errs = append(errs, reporter.Errorf(file.NodeInfo(opt.Name), "packed option is only allowed on repeated fields"))
			}
		}
	}
	_ = ast.Walk(file, &ast.SimpleVisitor{
		DoVisitFieldNode: func(n *ast.FieldNode) error { packed(n.Label, n.Options); return nil },
		DoVisitGroupNode: func(n *ast.GroupNode) error { packed(n.Label, n.Options); return nil },
	})
	return errs
}
