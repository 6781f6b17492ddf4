package breaking

import (
	"sort"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// fileOptions is f's options as descriptorpb's type (the zero value when
// it has none).
func fileOptions(f protoreflect.FileDescriptor) *descriptorpb.FileOptions {
	o := &descriptorpb.FileOptions{}
	asProto(f.Options(), o)
	return o
}

// asProto fills dst with src's fields, whatever the Go type of src (the
// front end may give options as dynamic messages).
func asProto(src, dst proto.Message) {
	if src == nil || !src.ProtoReflect().IsValid() {
		return
	}
	if b, err := proto.Marshal(src); err == nil {
		_ = proto.Unmarshal(b, dst)
	}
}

func syntaxName(f protoreflect.FileDescriptor) string {
	switch f.Syntax() {
	case protoreflect.Proto3:
		return "proto3"
	case protoreflect.Editions:
		return "editions"
	}
	return "proto2"
}

// files runs the rules that pair files by path.
func (c *checker) files() {
	paths := make([]string, 0, len(c.base.byPath))
	for p := range c.base.byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		bf := c.base.byPath[p]
		cf, ok := c.cur.byPath[p]
		if !ok {
			c.add("FILE_NO_DELETE", place{file: p}, `Previously present file %q was deleted.`, p)
			continue
		}
		c.filePair(cf, bf)
	}
}

func (c *checker) filePair(cf, bf protoreflect.FileDescriptor) {
	co, bo := fileOptions(cf), fileOptions(bf)
	same := func(rule string, prev, cur string, name string, pathSuffix ...int32) {
		if prev != cur {
			c.add(rule, onlyAt(cf, pathSuffix...), `File %s changed from %q to %q.`, name, prev, cur)
		}
	}
	b := strconv.FormatBool
	same("FILE_SAME_CC_ENABLE_ARENAS", b(bo.GetCcEnableArenas()), b(co.GetCcEnableArenas()), `option "cc_enable_arenas"`, 8, 31)
	same("FILE_SAME_CC_GENERIC_SERVICES", b(bo.GetCcGenericServices()), b(co.GetCcGenericServices()), `option "cc_generic_services"`, 8, 16)
	same("FILE_SAME_CSHARP_NAMESPACE", bo.GetCsharpNamespace(), co.GetCsharpNamespace(), `option "csharp_namespace"`, 8, 37)
	same("FILE_SAME_GO_PACKAGE", bo.GetGoPackage(), co.GetGoPackage(), `option "go_package"`, 8, 11)
	same("FILE_SAME_JAVA_GENERIC_SERVICES", b(bo.GetJavaGenericServices()), b(co.GetJavaGenericServices()), `option "java_generic_services"`, 8, 17)
	same("FILE_SAME_JAVA_MULTIPLE_FILES", b(bo.GetJavaMultipleFiles()), b(co.GetJavaMultipleFiles()), `option "java_multiple_files"`, 8, 10)
	same("FILE_SAME_JAVA_OUTER_CLASSNAME", bo.GetJavaOuterClassname(), co.GetJavaOuterClassname(), `option "java_outer_classname"`, 8, 8)
	same("FILE_SAME_JAVA_PACKAGE", bo.GetJavaPackage(), co.GetJavaPackage(), `option "java_package"`, 8, 1)
	same("FILE_SAME_OBJC_CLASS_PREFIX", bo.GetObjcClassPrefix(), co.GetObjcClassPrefix(), `option "objc_class_prefix"`, 8, 36)
	same("FILE_SAME_OPTIMIZE_FOR", bo.GetOptimizeFor().String(), co.GetOptimizeFor().String(), `option "optimize_for"`, 8, 9)
	same("FILE_SAME_PHP_CLASS_PREFIX", bo.GetPhpClassPrefix(), co.GetPhpClassPrefix(), `option "php_class_prefix"`, 8, 40)
	same("FILE_SAME_PHP_METADATA_NAMESPACE", bo.GetPhpMetadataNamespace(), co.GetPhpMetadataNamespace(), `option "php_metadata_namespace"`, 8, 44)
	same("FILE_SAME_PHP_NAMESPACE", bo.GetPhpNamespace(), co.GetPhpNamespace(), `option "php_namespace"`, 8, 41)
	same("FILE_SAME_PY_GENERIC_SERVICES", b(bo.GetPyGenericServices()), b(co.GetPyGenericServices()), `option "py_generic_services"`, 8, 18)
	same("FILE_SAME_RUBY_PACKAGE", bo.GetRubyPackage(), co.GetRubyPackage(), `option "ruby_package"`, 8, 45)
	same("FILE_SAME_SWIFT_PREFIX", bo.GetSwiftPrefix(), co.GetSwiftPrefix(), `option "swift_prefix"`, 8, 39)
	same("FILE_SAME_SYNTAX", syntaxName(bf), syntaxName(cf), `syntax`, 12)
	same("FILE_SAME_PACKAGE", string(bf.Package()), string(cf.Package()), `package`, 2)

	// Deletions inside the file, keyed by name within the package.
	deleted := func(rule, what string, prev, now map[string]protoreflect.Descriptor) {
		names := make([]string, 0, len(prev))
		for n := range prev {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if _, ok := now[n]; !ok {
				c.add(rule, deletedPlace(cf, n), `Previously present %s %q was deleted from file.`, what, n)
			}
		}
	}
	deleted("ENUM_NO_DELETE", "enum", nestedNames(bf, kindEnum), nestedNames(cf, kindEnum))
	deleted("EXTENSION_NO_DELETE", "extension", nestedNames(bf, kindExtension), nestedNames(cf, kindExtension))
	deleted("MESSAGE_NO_DELETE", "message", nestedNames(bf, kindMessage), nestedNames(cf, kindMessage))
	for i := range bf.Services().Len() {
		s := bf.Services().Get(i)
		if cf.Services().ByName(s.Name()) == nil {
			c.add("SERVICE_NO_DELETE", place{file: cf.Path()}, `Previously present service %q was deleted from file.`, string(s.Name()))
		}
	}
}

type kind int

const (
	kindMessage kind = iota
	kindEnum
	kindExtension
)

// nestedNames maps the nested names of f's elements of kind k to them.
func nestedNames(f protoreflect.FileDescriptor, k kind) map[string]protoreflect.Descriptor {
	m := map[string]protoreflect.Descriptor{}
	eachElement(f, func(d protoreflect.Descriptor) {
		switch d := d.(type) {
		case protoreflect.MessageDescriptor:
			if k == kindMessage {
				m[nestedName(d)] = d
			}
		case protoreflect.EnumDescriptor:
			if k == kindEnum {
				m[nestedName(d)] = d
			}
		case protoreflect.FieldDescriptor:
			if k == kindExtension {
				m[nestedName(d)] = d
			}
		}
	})
	return m
}

// deletedPlace is where buf reports an element deleted from f: at the
// closest enclosing message that f still has, else in f without a line.
func deletedPlace(f protoreflect.FileDescriptor, nested string) place {
	msgs := nestedNames(f, kindMessage)
	parts := strings.Split(nested, ".")
	for i := len(parts) - 1; i > 0; i-- {
		if m, ok := msgs[strings.Join(parts[:i], ".")]; ok {
			return at(m)
		}
	}
	return place{file: f.Path()}
}

// packages runs the PACKAGE_*_NO_DELETE rules.
func (c *checker) packages() {
	pkgs := make([]string, 0, len(c.base.packages))
	for p := range c.base.packages {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		bfs := c.base.packages[pkg]
		cfs, ok := c.cur.packages[pkg]
		if !ok {
			paths := make([]string, len(bfs))
			for i, f := range bfs {
				paths[i] = f.Path()
			}
			sort.Strings(paths)
			c.add("PACKAGE_NO_DELETE", place{file: paths[0]}, `Previously present package %q was deleted.`, pkg)
			continue
		}
		for _, k := range []struct {
			rule, what string
			kind       kind
		}{{"PACKAGE_ENUM_NO_DELETE", "enum", kindEnum}, {"PACKAGE_EXTENSION_NO_DELETE", "extension", kindExtension}, {"PACKAGE_MESSAGE_NO_DELETE", "message", kindMessage}} {
			now := map[string]protoreflect.Descriptor{}
			for _, f := range cfs {
				for n, d := range nestedNames(f, k.kind) {
					now[n] = d
				}
			}
			if len(now) == 0 {
				// buf looks into a package only where the current
				// version still has an element of the kind.
				continue
			}
			var prev []protoreflect.Descriptor
			for _, f := range bfs {
				for _, d := range nestedNames(f, k.kind) {
					prev = append(prev, d)
				}
			}
			sort.Slice(prev, func(i, j int) bool { return prev[i].FullName() < prev[j].FullName() })
			for _, d := range prev {
				n := nestedName(d)
				if _, ok := now[n]; ok {
					continue
				}
				p := place{}
				if f, ok := c.cur.byPath[d.ParentFile().Path()]; ok {
					p = deletedPlace(f, n)
				}
				c.add(k.rule, p, `Previously present %s %q was deleted from package %q.`, k.what, n, pkg)
			}
		}
		now := map[protoreflect.Name]bool{}
		for _, f := range cfs {
			for i := range f.Services().Len() {
				now[f.Services().Get(i).Name()] = true
			}
		}
		for _, f := range bfs {
			for i := range f.Services().Len() {
				s := f.Services().Get(i)
				if now[s.Name()] {
					continue
				}
				p := place{}
				if _, ok := c.cur.byPath[f.Path()]; ok {
					p.file = f.Path()
				}
				c.add("PACKAGE_SERVICE_NO_DELETE", p, `Previously present service %q was deleted from package %q.`, string(s.Name()), pkg)
			}
		}
	}
}
