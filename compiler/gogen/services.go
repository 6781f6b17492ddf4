package gogen

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"path"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/protoplay/protoplay/compiler/diag"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// This file generates service code, under the services= option (see
// Options.GRPC and Options.Connect), in the shape of protoc-gen-go-grpc
// (v1.6) and protoc-gen-connect-go (v1.21): the same file places, package
// names and exported identifiers, so code written against theirs ports by
// changing imports. The messages stay protoplay's plain structs; they go on
// the wire through the codecs of the module github.com/protoplay/protoplay/codec
// (grpccodec, registered by the program, never by generated code; and
// connectcodec, which the generated Connect constructors pass as
// connect.WithCodec before the caller's options).

// Import paths of the service frameworks and protoplay's codecs.
const (
	grpcPkg         = "google.golang.org/grpc"
	grpcCodesPkg    = "google.golang.org/grpc/codes"
	grpcStatusPkg   = "google.golang.org/grpc/status"
	connectPkg      = "connectrpc.com/connect"
	connectCodecPkg = "github.com/protoplay/protoplay/codec/connectcodec"
)

// grpcLocals and connectLocals are the parameter and variable names of the
// generated service code; no import takes one of them.
var grpcLocals = []string{"ctx", "in", "opts", "cOpts", "out", "err", "stream", "x", "srv", "dec",
	"interceptor", "info", "handler", "req", "m", "s", "t", "ok", "c", "cc"}
var connectLocals = []string{"ctx", "req", "c", "httpClient", "baseURL", "opts", "svc", "w", "r"}

// setServices applies services=V: none, grpc, connect or grpc+connect.
// Values add up over repeated parameters; none clears them.
func (o *Options) setServices(v string) error {
	if v == "none" {
		o.GRPC, o.Connect = false, false
		return nil
	}
	for _, k := range strings.Split(v, "+") {
		switch k {
		case "grpc":
			o.GRPC = true
		case "connect":
			o.Connect = true
		default:
			return fmt.Errorf(`option services=%q: want "none", "grpc", "connect" or "grpc+connect"`, v)
		}
	}
	return nil
}

// servicesValue is the services= value of o, or "" for none.
func (o Options) servicesValue() string {
	switch {
	case o.GRPC && o.Connect:
		return "grpc+connect"
	case o.GRPC:
		return "grpc"
	case o.Connect:
		return "connect"
	}
	return ""
}

// serviceNames are the Go names of one service's code.
type serviceNames struct {
	desc    protoreflect.ServiceDescriptor
	goName  string // GoCamelCase of the service name, as protoc-gen-go-grpc's
	methods []*methodNames
}

type methodNames struct {
	desc   protoreflect.MethodDescriptor
	goName string
	// field is the Connect client's struct field for the method.
	field string
}

func newServiceNames(sd protoreflect.ServiceDescriptor) *serviceNames {
	s := &serviceNames{desc: sd, goName: GoCamelCase(string(sd.Name()))}
	for i := 0; i < sd.Methods().Len(); i++ {
		md := sd.Methods().Get(i)
		m := &methodNames{desc: md, goName: GoCamelCase(string(md.Name()))}
		m.field = unexport(m.goName)
		if token.Lookup(m.field).IsKeyword() {
			m.field += "_"
		}
		s.methods = append(s.methods, m)
	}
	return s
}

// unexport lower-cases the first letter of s.
func unexport(s string) string {
	if s == "" || !('A' <= s[0] && s[0] <= 'Z') {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// fileServices returns the names of f's services, in declaration order.
func fileServices(f *fileNames) []*serviceNames {
	var out []*serviceNames
	for i := 0; i < f.desc.Services().Len(); i++ {
		out = append(out, newServiceNames(f.desc.Services().Get(i)))
	}
	return out
}

func (g *generator) servicesOn() bool { return g.opts.GRPC || g.opts.Connect }

// connectPackage is the Go package protoc-gen-connect-go puts f's Connect
// code in: NAMEconnect under f's package, NAME being f's package name.
func connectPackage(f *fileNames) (importPath, name string) {
	name = f.pkgName + "connect"
	return f.importPath + "/" + name, name
}

// serviceDecls lists the package-level declarations of f's service code,
// keyed by the Go import path of the package they go into: f's own package
// for gRPC, its Connect package for Connect. They are names the frameworks'
// generators choose and callers use, so none is derived: one that meets
// another declaration is reported (see checkCollisions).
func (g *generator) serviceDecls(f *fileNames) map[string][]goDecl {
	if !g.servicesOn() || f.desc.Services().Len() == 0 {
		return nil
	}
	out := map[string][]goDecl{}
	cpath, _ := connectPackage(f)
	for _, s := range fileServices(f) {
		sd, n := s.desc, s.goName
		if g.opts.GRPC {
			add := func(name string, from protoreflect.Descriptor, what string) {
				out[f.importPath] = append(out[f.importPath], goDecl{name: name, from: from, what: what})
			}
			for _, name := range []string{n + "Client", unexport(n) + "Client", "New" + n + "Client", n + "Server",
				"Unimplemented" + n + "Server", "Unsafe" + n + "Server", "Register" + n + "Server", n + "_ServiceDesc"} {
				add(name, sd, "gRPC declaration of service")
			}
			for _, m := range s.methods {
				add(n+"_"+m.goName+"_FullMethodName", m.desc, "gRPC declaration of method")
				add("_"+n+"_"+m.goName+"_Handler", m.desc, "gRPC declaration of method")
				if m.desc.IsStreamingClient() || m.desc.IsStreamingServer() {
					add(n+"_"+m.goName+"Client", m.desc, "gRPC declaration of method")
					add(n+"_"+m.goName+"Server", m.desc, "gRPC declaration of method")
				}
			}
		}
		if g.opts.Connect {
			add := func(name string, from protoreflect.Descriptor, what string) {
				out[cpath] = append(out[cpath], goDecl{name: name, from: from, what: what})
			}
			for _, name := range []string{n + "Name", n + "Client", "New" + n + "Client", unexport(n) + "Client",
				n + "Handler", "New" + n + "Handler", "Unimplemented" + n + "Handler"} {
				add(name, sd, "Connect declaration of service")
			}
			for _, m := range s.methods {
				add(n+m.goName+"Procedure", m.desc, "Connect declaration of method")
			}
		}
	}
	return out
}

// checkServices reports services whose code cannot build: two methods of
// one service with one Go name (foo_bar and FooBar).
func (g *generator) checkServices() []diag.Diagnostic {
	if !g.servicesOn() {
		return nil
	}
	var diags []diag.Diagnostic
	for _, f := range g.files {
		if !f.generate {
			continue
		}
		for _, s := range fileServices(f) {
			seen := map[string]protoreflect.MethodDescriptor{}
			for _, m := range s.methods {
				if prev, ok := seen[m.goName]; ok {
					diags = append(diags, diagAt(m.desc, "Go method name %s for method %s collides with method %s; rename one of them",
						m.goName, m.desc.FullName(), prev.FullName()))
					continue
				}
				seen[m.goName] = m.desc
			}
		}
	}
	return diags
}

// forEachMethodType calls fn for the input and output message types of the
// methods of fd's services, when service code is generated: the references
// the service code makes (the gRPC file's are imports of fd's package).
func (g *generator) forEachMethodType(fd protoreflect.FileDescriptor, fn func(protoreflect.MethodDescriptor, protoreflect.Descriptor)) {
	if !g.servicesOn() {
		return
	}
	for i := 0; i < fd.Services().Len(); i++ {
		sd := fd.Services().Get(i)
		for j := 0; j < sd.Methods().Len(); j++ {
			md := sd.Methods().Get(j)
			fn(md, md.Input())
			fn(md, md.Output())
		}
	}
}

// serviceOutputs are the paths of f's service files: foo_grpc.pb.go beside
// foo.pb.go, and NAMEconnect/foo.connect.go below its directory.
func (g *generator) serviceOutputs(f *fileNames) (grpcName, connectName string) {
	if f.desc.Services().Len() == 0 || f.outName == "" {
		return "", ""
	}
	stem := strings.TrimSuffix(f.outName, ".pb.go")
	if g.opts.GRPC {
		grpcName = stem + "_grpc.pb.go"
	}
	if g.opts.Connect {
		_, pkg := connectPackage(f)
		connectName = path.Join(path.Dir(f.outName), pkg, path.Base(stem)+".connect.go")
	}
	return grpcName, connectName
}

// checkServiceOutputs reports a service file written to the path (or a path
// differing only in case) of another generated file: foo_grpc.proto's
// foo_grpc.pb.go and foo.proto's gRPC file, say.
func (g *generator) checkServiceOutputs(files []protoreflect.FileDescriptor) []diag.Diagnostic {
	if !g.servicesOn() {
		return nil
	}
	type out struct {
		name string
		fd   protoreflect.FileDescriptor
	}
	var outs []out
	for _, fd := range files {
		f := g.byPath[fd.Path()]
		if f.outName == "" {
			return nil // checkOutputPaths reported it
		}
		outs = append(outs, out{f.outName, fd})
		gn, cn := g.serviceOutputs(f)
		for _, n := range []string{gn, cn} {
			if n != "" {
				outs = append(outs, out{n, fd})
			}
		}
	}
	var diags []diag.Diagnostic
	seen := map[string]out{}
	for _, o := range outs {
		key := strings.ToLower(o.name)
		if prev, ok := seen[key]; ok {
			diags = append(diags, diag.Diagnostic{Severity: diag.SeverityError, File: o.fd.Path(), Message: fmt.Sprintf(
				"output file %s is also generated (as %s) for %s; rename one of the .proto files", o.name, prev.name, prev.fd.Path())})
			continue
		}
		seen[key] = o
	}
	return diags
}

// serviceImports names the imports of a service file of package self, as
// importNames does for message files: each takes its declared name unless a
// keyword, predeclared identifier, local of the generated code, declaration
// of the package visible to f (see checkCollisions) or earlier import has it,
// and then name1, name2, ...
func (g *generator) serviceImports(jf *jen.File, f *fileNames, self string, std [][2]string, locals []string, types []protoreflect.Descriptor) {
	reserved, decls := reservedImportNames(), g.visibleDecls[f][self]
	taken := map[string]bool{}
	for _, l := range locals {
		taken[l] = true
	}
	add := func(p, declared string) {
		name := declared
		for i := 1; ; i++ {
			_, decl := decls[name]
			if !reserved[name] && !decl && !taken[name] && !token.Lookup(name).IsKeyword() {
				break
			}
			name = declared + strconv.Itoa(i)
		}
		taken[name] = true
		if name == declared {
			jf.ImportName(p, name)
		} else {
			jf.ImportAlias(p, name)
		}
	}
	done := map[string]bool{self: true}
	for _, s := range std {
		done[s[0]] = true
		add(s[0], s[1])
	}
	for _, t := range types {
		f := g.byPath[t.ParentFile().Path()]
		if !done[f.importPath] {
			done[f.importPath] = true
			add(f.importPath, f.pkgName)
		}
	}
}

// methodTypes lists the message types of the methods of services, in order.
func methodTypes(services []*serviceNames) []protoreflect.Descriptor {
	var out []protoreflect.Descriptor
	for _, s := range services {
		for _, m := range s.methods {
			out = append(out, m.desc.Input(), m.desc.Output())
		}
	}
	return out
}

// renderServices prints f's service files (none when f has no services or
// the services option is off), calling g.check after each.
func (g *generator) renderServices(f *fileNames) ([]File, error) {
	grpcName, connectName := g.serviceOutputs(f)
	if grpcName == "" && connectName == "" {
		return nil, nil
	}
	services := fileServices(f)
	var out []File
	emit := func(name string, jf *jen.File) error {
		var buf bytes.Buffer
		if err := jf.Render(&buf); err != nil {
			return err
		}
		out = append(out, File{Name: name, Content: buf.String()})
		g.written += buf.Len()
		if g.check != nil {
			return g.check(g.written)
		}
		return nil
	}
	if grpcName != "" {
		jf := g.serviceFile(f.importPath, f.pkgName, f, "protoc-gen-protoplay (services=grpc, the shape of protoc-gen-go-grpc)")
		g.serviceImports(jf, f, f.importPath, [][2]string{{"context", "context"}, {grpcPkg, "grpc"}, {grpcCodesPkg, "codes"}, {grpcStatusPkg, "status"}},
			grpcLocals, methodTypes(services))
		jf.Comment("This is a compile-time assertion that this generated file is compatible")
		jf.Comment("with the grpc package it is compiled against: gRPC-Go v1.64.0 or later.")
		jf.Const().Id("_").Op("=").Qual(grpcPkg, "SupportPackageIsVersion9")
		for _, s := range services {
			g.genGRPCService(jf, f, s)
		}
		if err := emit(grpcName, jf); err != nil {
			return nil, err
		}
	}
	if connectName != "" {
		cpath, cname := connectPackage(f)
		jf := g.serviceFile(cpath, cname, f, "protoc-gen-protoplay (services=connect, the shape of protoc-gen-connect-go)")
		g.serviceImports(jf, f, cpath, [][2]string{{connectPkg, "connect"}, {connectCodecPkg, "connectcodec"}, {"context", "context"},
			{"errors", "errors"}, {"net/http", "http"}, {"strings", "strings"}, {f.importPath, f.pkgName}}, connectLocals, methodTypes(services))
		jf.Comment("This is a compile-time assertion that this generated file and the connect")
		jf.Comment("package are compatible: connect v1.13.0 or later.")
		jf.Const().Id("_").Op("=").Qual(connectPkg, "IsAtLeastVersion1_13_0")
		for _, s := range services {
			g.genConnectService(jf, f, s)
		}
		if err := emit(connectName, jf); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (g *generator) serviceFile(importPath, pkgName string, f *fileNames, by string) *jen.File {
	jf := jen.NewFilePathName(importPath, pkgName)
	jf.HeaderComment("Code generated by " + by + ". DO NOT EDIT.")
	for _, line := range versionsComment() {
		jf.HeaderComment(line)
	}
	jf.HeaderComment("source: " + strings.ReplaceAll(safeText(f.desc.Path()), "+build", "+ build"))
	return jf
}

// streamKind is a method's streaming kind.
type streamKind int

const (
	unary streamKind = iota
	clientStream
	serverStream
	bidiStream
)

func kindOf(md protoreflect.MethodDescriptor) streamKind {
	switch {
	case md.IsStreamingClient() && md.IsStreamingServer():
		return bidiStream
	case md.IsStreamingClient():
		return clientStream
	case md.IsStreamingServer():
		return serverStream
	}
	return unary
}

// schemaDoc is a method's (or service's) leading comment from the schema, with a
// "Deprecated:" paragraph when it is deprecated.
func schemaDoc(d protoreflect.Descriptor) []jen.Code { return docComments(d, false, isDeprecated(d)) }

// withDoc puts comments before code in a group.
func withDoc(doc []jen.Code, code jen.Code) []jen.Code {
	return append(append([]jen.Code{}, doc...), code)
}

func (g *generator) genGRPCService(jf *jen.File, f *fileNames, s *serviceNames) {
	grpc := func(name string) *jen.Statement { return jen.Qual(grpcPkg, name) }
	ctxType := func() *jen.Statement { return jen.Qual("context", "Context") }
	n, full := s.goName, string(s.desc.FullName())
	clientName, clientImpl, serverName := n+"Client", unexport(n)+"Client", n+"Server"
	unimpl := "Unimplemented" + serverName
	descName := n + "_ServiceDesc"
	fullName := func(m *methodNames) string { return n + "_" + m.goName + "_FullMethodName" }

	var consts []jen.Code
	for _, m := range s.methods {
		consts = append(consts, jen.Id(fullName(m)).Op("=").Lit("/"+full+"/"+string(m.desc.Name())))
	}
	if len(consts) > 0 {
		jf.Line()
		jf.Const().Defs(consts...)
	}

	// Stream indexes in the ServiceDesc, in method order.
	streamIndex := map[*methodNames]int{}
	for _, m := range s.methods {
		if kindOf(m.desc) != unary {
			streamIndex[m] = len(streamIndex)
		}
	}
	in := func(m *methodNames) *jen.Statement { return g.msgType(m.desc.Input()) }
	outT := func(m *methodNames) *jen.Statement { return g.msgType(m.desc.Output()) }
	clientStreamType := func(m *methodNames) *jen.Statement {
		switch kindOf(m.desc) {
		case clientStream:
			return grpc("ClientStreamingClient").Types(in(m), outT(m))
		case serverStream:
			return grpc("ServerStreamingClient").Types(outT(m))
		default:
			return grpc("BidiStreamingClient").Types(in(m), outT(m))
		}
	}
	serverStreamType := func(m *methodNames) *jen.Statement {
		switch kindOf(m.desc) {
		case clientStream:
			return grpc("ClientStreamingServer").Types(in(m), outT(m))
		case serverStream:
			return grpc("ServerStreamingServer").Types(outT(m))
		default:
			return grpc("BidiStreamingServer").Types(in(m), outT(m))
		}
	}
	clientSig := func(m *methodNames) *jen.Statement {
		params := []jen.Code{jen.Id("ctx").Add(ctxType())}
		if k := kindOf(m.desc); k == unary || k == serverStream {
			params = append(params, jen.Id("in").Op("*").Add(in(m)))
		}
		params = append(params, jen.Id("opts").Op("...").Add(grpc("CallOption")))
		st := jen.Id(m.goName).Params(params...)
		if kindOf(m.desc) == unary {
			return st.Params(jen.Op("*").Add(outT(m)), jen.Error())
		}
		return st.Params(clientStreamType(m), jen.Error())
	}

	// The client.
	doc := schemaDoc(s.desc)
	jf.Comment("// " + clientName + " is the client API for " + n + " service.")
	jf.Comment("//")
	jf.Comment("// For semantics around ctx use and closing/ending streaming RPCs, please refer to https://pkg.go.dev/google.golang.org/grpc/?tab=doc#ClientConn.NewStream.")
	if len(doc) > 0 {
		jf.Comment("//")
		for _, d := range doc {
			jf.Add(d)
		}
	}
	var ifc []jen.Code
	for _, m := range s.methods {
		ifc = append(ifc, withDoc(schemaDoc(m.desc), clientSig(m))...)
	}
	jf.Type().Id(clientName).Interface(ifc...)
	jf.Line()
	jf.Type().Id(clientImpl).Struct(jen.Id("cc").Add(grpc("ClientConnInterface")))
	jf.Line()
	for _, d := range deprecatedOnly(s.desc) {
		jf.Add(d)
	}
	jf.Func().Id("New" + clientName).Params(jen.Id("cc").Add(grpc("ClientConnInterface"))).Id(clientName).Block(
		jen.Return(jen.Op("&").Id(clientImpl).Values(jen.Id("cc"))))
	for _, m := range s.methods {
		jf.Line()
		for _, d := range deprecatedOnly(m.desc) {
			jf.Add(d)
		}
		cOpts := jen.Id("cOpts").Op(":=").Append(jen.Index().Add(grpc("CallOption")).Values(grpc("StaticMethod").Call()), jen.Id("opts").Op("..."))
		recv := jen.Parens(jen.Id("c").Op("*").Id(clientImpl))
		k := kindOf(m.desc)
		if k == unary {
			jf.Func().Add(recv).Add(clientSig(m)).Block(
				cOpts,
				jen.Id("out").Op(":=").New(outT(m)),
				jen.Id("err").Op(":=").Id("c").Dot("cc").Dot("Invoke").Call(jen.Id("ctx"), jen.Id(fullName(m)), jen.Id("in"), jen.Id("out"), jen.Id("cOpts").Op("...")),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
				jen.Return(jen.Id("out"), jen.Nil()),
			)
			continue
		}
		body := []jen.Code{
			cOpts,
			jen.List(jen.Id("stream"), jen.Err()).Op(":=").Id("c").Dot("cc").Dot("NewStream").Call(jen.Id("ctx"),
				jen.Op("&").Id(descName).Dot("Streams").Index(jen.Lit(streamIndex[m])), jen.Id(fullName(m)), jen.Id("cOpts").Op("...")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Id("x").Op(":=").Op("&").Add(grpc("GenericClientStream")).Types(in(m), outT(m)).Values(jen.Dict{jen.Id("ClientStream"): jen.Id("stream")}),
		}
		if k == serverStream {
			body = append(body,
				jen.If(jen.Err().Op(":=").Id("x").Dot("ClientStream").Dot("SendMsg").Call(jen.Id("in")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
				jen.If(jen.Err().Op(":=").Id("x").Dot("ClientStream").Dot("CloseSend").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			)
		}
		body = append(body, jen.Return(jen.Id("x"), jen.Nil()))
		jf.Func().Add(recv).Add(clientSig(m)).Block(body...)
		jf.Comment("This type alias is provided for backwards compatibility with existing code that references the prior non-generic stream type by name.")
		jf.Type().Id(n + "_" + m.goName + "Client").Op("=").Add(clientStreamType(m))
	}

	// The server.
	jf.Comment("// " + serverName + " is the server API for " + n + " service.")
	jf.Comment("// All implementations must embed " + unimpl)
	jf.Comment("// for forward compatibility.")
	if len(doc) > 0 {
		jf.Comment("//")
		for _, d := range doc {
			jf.Add(d)
		}
	}
	serverSig := func(m *methodNames) *jen.Statement {
		if kindOf(m.desc) == unary {
			return jen.Id(m.goName).Params(ctxType(), jen.Op("*").Add(in(m))).Params(jen.Op("*").Add(outT(m)), jen.Error())
		}
		if kindOf(m.desc) == serverStream {
			return jen.Id(m.goName).Params(jen.Op("*").Add(in(m)), serverStreamType(m)).Error()
		}
		return jen.Id(m.goName).Params(serverStreamType(m)).Error()
	}
	ifc = nil
	for _, m := range s.methods {
		ifc = append(ifc, withDoc(schemaDoc(m.desc), serverSig(m))...)
	}
	ifc = append(ifc, jen.Id("mustEmbed"+unimpl).Params())
	jf.Type().Id(serverName).Interface(ifc...)

	jf.Comment("// " + unimpl + " must be embedded to have")
	jf.Comment("// forward compatible implementations.")
	jf.Comment("//")
	jf.Comment("// NOTE: this should be embedded by value instead of pointer to avoid a nil")
	jf.Comment("// pointer dereference when methods are called.")
	jf.Type().Id(unimpl).Struct()
	for _, m := range s.methods {
		msg := jen.Qual(grpcStatusPkg, "Error").Call(jen.Qual(grpcCodesPkg, "Unimplemented"), jen.Lit("method "+m.goName+" not implemented"))
		if kindOf(m.desc) == unary {
			jf.Line()
			jf.Func().Params(jen.Id(unimpl)).Add(serverSig(m)).Block(jen.Return(jen.Nil(), msg))
		} else {
			jf.Line()
			jf.Func().Params(jen.Id(unimpl)).Add(serverSig(m)).Block(jen.Return(msg))
		}
	}
	jf.Line()
	jf.Func().Params(jen.Id(unimpl)).Id("mustEmbed" + unimpl).Params().Block()
	jf.Line()
	jf.Func().Params(jen.Id(unimpl)).Id("testEmbeddedByValue").Params().Block()

	jf.Comment("// Unsafe" + serverName + " may be embedded to opt out of forward compatibility for this service.")
	jf.Comment("// Use of this interface is not recommended, as added methods to " + serverName + " will")
	jf.Comment("// result in compilation errors.")
	jf.Type().Id("Unsafe" + serverName).Interface(jen.Id("mustEmbed" + unimpl).Params())

	jf.Comment("// Register" + serverName + " registers srv's implementation of " + full + " with s.")
	jf.Func().Id("Register"+serverName).Params(jen.Id("s").Add(grpc("ServiceRegistrar")), jen.Id("srv").Id(serverName)).Block(
		jen.Comment("If the following call panics, it indicates "+unimpl+" was"),
		jen.Comment("embedded by pointer and is nil.  This will cause panics if an"),
		jen.Comment("unimplemented method is ever invoked, so we test this at initialization"),
		jen.Comment("time to prevent it from happening at runtime later due to I/O."),
		jen.If(jen.List(jen.Id("t"), jen.Id("ok")).Op(":=").Id("srv").Assert(jen.Interface(jen.Id("testEmbeddedByValue").Params())), jen.Id("ok")).Block(
			jen.Id("t").Dot("testEmbeddedByValue").Call()),
		jen.Id("s").Dot("RegisterService").Call(jen.Op("&").Id(descName), jen.Id("srv")),
	)

	handlerName := func(m *methodNames) string { return "_" + n + "_" + m.goName + "_Handler" }
	srvCall := func() *jen.Statement { return jen.Id("srv").Assert(jen.Id(serverName)) }
	var methods, streams []jen.Code
	for _, m := range s.methods {
		switch k := kindOf(m.desc); k {
		case unary:
			jf.Line()
			jf.Func().Id(handlerName(m)).Params(jen.Id("srv").Any(), jen.Id("ctx").Add(ctxType()), jen.Id("dec").Func().Params(jen.Any()).Error(),
				jen.Id("interceptor").Add(grpc("UnaryServerInterceptor"))).Params(jen.Any(), jen.Error()).Block(
				jen.Id("in").Op(":=").New(in(m)),
				jen.If(jen.Err().Op(":=").Id("dec").Call(jen.Id("in")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
				jen.If(jen.Id("interceptor").Op("==").Nil()).Block(jen.Return(srvCall().Dot(m.goName).Call(jen.Id("ctx"), jen.Id("in")))),
				jen.Id("info").Op(":=").Op("&").Add(grpc("UnaryServerInfo")).Values(jen.Dict{
					jen.Id("Server"): jen.Id("srv"), jen.Id("FullMethod"): jen.Id(fullName(m))}),
				jen.Id("handler").Op(":=").Func().Params(jen.Id("ctx").Add(ctxType()), jen.Id("req").Any()).Params(jen.Any(), jen.Error()).Block(
					jen.Return(srvCall().Dot(m.goName).Call(jen.Id("ctx"), jen.Id("req").Assert(jen.Op("*").Add(in(m)))))),
				jen.Return(jen.Id("interceptor").Call(jen.Id("ctx"), jen.Id("in"), jen.Id("info"), jen.Id("handler"))),
			)
			methods = append(methods, jen.Custom(svcLiteral, kv("MethodName", jen.Lit(string(m.desc.Name()))), kv("Handler", jen.Id(handlerName(m)))))
		default:
			stream := jen.Op("&").Add(grpc("GenericServerStream")).Types(in(m), outT(m)).Values(jen.Dict{jen.Id("ServerStream"): jen.Id("stream")})
			var body []jen.Code
			if k == serverStream {
				body = append(body,
					jen.Id("m").Op(":=").New(in(m)),
					jen.If(jen.Err().Op(":=").Id("stream").Dot("RecvMsg").Call(jen.Id("m")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
					jen.Return(srvCall().Dot(m.goName).Call(jen.Id("m"), stream)))
			} else {
				body = append(body, jen.Return(srvCall().Dot(m.goName).Call(stream)))
			}
			jf.Line()
			jf.Func().Id(handlerName(m)).Params(jen.Id("srv").Any(), jen.Id("stream").Add(grpc("ServerStream"))).Error().Block(body...)
			jf.Comment("This type alias is provided for backwards compatibility with existing code that references the prior non-generic stream type by name.")
			jf.Type().Id(n + "_" + m.goName + "Server").Op("=").Add(serverStreamType(m))
			d := []jen.Code{kv("StreamName", jen.Lit(string(m.desc.Name()))), kv("Handler", jen.Id(handlerName(m)))}
			if m.desc.IsStreamingServer() {
				d = append(d, kv("ServerStreams", jen.True()))
			}
			if m.desc.IsStreamingClient() {
				d = append(d, kv("ClientStreams", jen.True()))
			}
			streams = append(streams, jen.Custom(svcLiteral, d...))
		}
	}
	jf.Comment("// " + descName + " is the grpc.ServiceDesc for " + n + " service.")
	jf.Comment("// It's only intended for direct use with grpc.RegisterService,")
	jf.Comment("// and not to be introspected or modified (even as a copy)")
	jf.Var().Id(descName).Op("=").Add(grpc("ServiceDesc")).Custom(svcLiteral,
		kv("ServiceName", jen.Lit(full)),
		kv("HandlerType", jen.Parens(jen.Op("*").Id(serverName)).Parens(jen.Nil())),
		kv("Methods", jen.Index().Add(grpc("MethodDesc")).Custom(svcLiteral, methods...)),
		kv("Streams", jen.Index().Add(grpc("StreamDesc")).Custom(svcLiteral, streams...)),
		kv("Metadata", jen.Lit(f.desc.Path())),
	)
}

// kv is one key: value element of a composite literal.
func kv(key string, v jen.Code) jen.Code { return jen.Id(key).Op(":").Add(v) }

// svcLiteral prints a composite literal's elements one per line.
var svcLiteral = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

// deprecatedOnly is a "Deprecated:" comment for a deprecated descriptor,
// for the code that implements it (whose doc is on the interface).
func deprecatedOnly(d protoreflect.Descriptor) []jen.Code {
	if !isDeprecated(d) {
		return nil
	}
	return []jen.Code{jen.Comment("// Deprecated: Marked as deprecated in " + safeText(d.ParentFile().Path()) + ".")}
}

// idempotency is the connect.IdempotencyLevel constant of a method's
// idempotency_level option, or "" for the default.
func idempotency(md protoreflect.MethodDescriptor) string {
	o, _ := md.Options().(*descriptorpb.MethodOptions)
	switch o.GetIdempotencyLevel() {
	case descriptorpb.MethodOptions_NO_SIDE_EFFECTS:
		return "IdempotencyNoSideEffects"
	case descriptorpb.MethodOptions_IDEMPOTENT:
		return "IdempotencyIdempotent"
	}
	return ""
}

func (g *generator) genConnectService(jf *jen.File, f *fileNames, s *serviceNames) {
	conn := func(name string) *jen.Statement { return jen.Qual(connectPkg, name) }
	ctxType := func() *jen.Statement { return jen.Qual("context", "Context") }
	n, full := s.goName, string(s.desc.FullName())
	clientName, clientImpl, handlerName := n+"Client", unexport(n)+"Client", n+"Handler"
	proc := func(m *methodNames) string { return n + m.goName + "Procedure" }
	in := func(m *methodNames) *jen.Statement { return g.msgType(m.desc.Input()) }
	outT := func(m *methodNames) *jen.Statement { return g.msgType(m.desc.Output()) }

	jf.Line()
	jf.Const().Defs(
		jen.Comment("// "+n+"Name is the fully-qualified name of the "+n+" service."),
		jen.Id(n+"Name").Op("=").Lit(full))
	var consts []jen.Code
	for _, m := range s.methods {
		consts = append(consts,
			jen.Comment("// "+proc(m)+" is the fully-qualified name of the "+n+"'s "+m.goName+" RPC."),
			jen.Id(proc(m)).Op("=").Lit("/"+full+"/"+string(m.desc.Name())))
	}
	if len(consts) > 0 {
		jf.Comment("These constants are the fully-qualified names of the RPCs defined in this package. They're")
		jf.Comment("exposed at runtime as Spec.Procedure and as the final two segments of the HTTP route.")
		jf.Const().Defs(consts...)
	}

	clientSig := func(m *methodNames) *jen.Statement {
		st := jen.Id(m.goName)
		switch kindOf(m.desc) {
		case unary:
			return st.Params(jen.Id("ctx").Add(ctxType()), jen.Id("req").Op("*").Add(conn("Request")).Types(in(m))).
				Params(jen.Op("*").Add(conn("Response")).Types(outT(m)), jen.Error())
		case clientStream:
			return st.Params(jen.Id("ctx").Add(ctxType())).Op("*").Add(conn("ClientStreamForClient")).Types(in(m), outT(m))
		case serverStream:
			return st.Params(jen.Id("ctx").Add(ctxType()), jen.Id("req").Op("*").Add(conn("Request")).Types(in(m))).
				Params(jen.Op("*").Add(conn("ServerStreamForClient")).Types(outT(m)), jen.Error())
		default:
			return st.Params(jen.Id("ctx").Add(ctxType())).Op("*").Add(conn("BidiStreamForClient")).Types(in(m), outT(m))
		}
	}
	doc := schemaDoc(s.desc)
	jf.Comment("// " + clientName + " is a client for the " + full + " service.")
	if len(doc) > 0 {
		jf.Comment("//")
		for _, d := range doc {
			jf.Add(d)
		}
	}
	var ifc []jen.Code
	for _, m := range s.methods {
		ifc = append(ifc, withDoc(schemaDoc(m.desc), clientSig(m))...)
	}
	jf.Type().Id(clientName).Interface(ifc...)

	jf.Comment("// New" + clientName + " constructs a client for the " + full + " service. It uses")
	jf.Comment("// protoplay's binary codec (connectcodec.Codec, which the options may replace) and")
	jf.Comment("// the Connect protocol by default; supply connect.WithGRPC() or connect.WithGRPCWeb()")
	jf.Comment("// for the gRPC or gRPC-Web protocols, and connect.WithCodec(connectcodec.JSONCodec{})")
	jf.Comment("// for ProtoJSON (connect.WithProtoJSON() needs proto.Message values).")
	jf.Comment("//")
	jf.Comment("// The URL supplied here should be the base URL for the Connect or gRPC server (for example,")
	jf.Comment("// http://api.acme.com or https://acme.com/grpc).")
	for _, d := range deprecatedOnly(s.desc) {
		jf.Add(d)
	}
	var fields []jen.Code
	for _, m := range s.methods {
		args := []jen.Code{jen.Line().Id("httpClient"), jen.Line().Id("baseURL").Op("+").Id(proc(m)),
			jen.Line().Add(conn("WithCodec")).Call(jen.Qual(connectCodecPkg, "Codec").Values())}
		if l := idempotency(m.desc); l != "" {
			args = append(args, jen.Line().Add(conn("WithIdempotency")).Call(conn(l)))
		}
		args = append(args, jen.Line().Add(conn("WithClientOptions")).Call(jen.Id("opts").Op("...")), jen.Line())
		fields = append(fields, kv(m.field, conn("NewClient").Types(in(m), outT(m)).Call(args...)))
	}
	jf.Line()
	jf.Func().Id("New"+clientName).Params(jen.Id("httpClient").Add(conn("HTTPClient")), jen.Id("baseURL").String(),
		jen.Id("opts").Op("...").Add(conn("ClientOption"))).Id(clientName).Block(
		jen.Id("baseURL").Op("=").Qual("strings", "TrimRight").Call(jen.Id("baseURL"), jen.Lit("/")),
		jen.Return(jen.Op("&").Id(clientImpl).Custom(svcLiteral, fields...)),
	)
	jf.Comment("// " + clientImpl + " implements " + clientName + ".")
	var sfields []jen.Code
	for _, m := range s.methods {
		sfields = append(sfields, jen.Id(m.field).Op("*").Add(conn("Client")).Types(in(m), outT(m)))
	}
	jf.Line()
	jf.Type().Id(clientImpl).Struct(sfields...)
	for _, m := range s.methods {
		jf.Line()
		jf.Comment("// " + m.goName + " calls " + string(m.desc.FullName()) + ".")
		for _, d := range deprecatedOnly(m.desc) {
			jf.Comment("//")
			jf.Add(d)
		}
		c := jen.Id("c").Dot(m.field)
		var call *jen.Statement
		switch kindOf(m.desc) {
		case unary:
			call = c.Dot("CallUnary").Call(jen.Id("ctx"), jen.Id("req"))
		case clientStream:
			call = c.Dot("CallClientStream").Call(jen.Id("ctx"))
		case serverStream:
			call = c.Dot("CallServerStream").Call(jen.Id("ctx"), jen.Id("req"))
		default:
			call = c.Dot("CallBidiStream").Call(jen.Id("ctx"))
		}
		jf.Func().Params(jen.Id("c").Op("*").Id(clientImpl)).Add(clientSig(m)).Block(jen.Return(call))
	}

	handlerSig := func(m *methodNames) *jen.Statement {
		st := jen.Id(m.goName)
		switch kindOf(m.desc) {
		case unary:
			return st.Params(ctxType(), jen.Op("*").Add(conn("Request")).Types(in(m))).Params(jen.Op("*").Add(conn("Response")).Types(outT(m)), jen.Error())
		case clientStream:
			return st.Params(ctxType(), jen.Op("*").Add(conn("ClientStream")).Types(in(m))).Params(jen.Op("*").Add(conn("Response")).Types(outT(m)), jen.Error())
		case serverStream:
			return st.Params(ctxType(), jen.Op("*").Add(conn("Request")).Types(in(m)), jen.Op("*").Add(conn("ServerStream")).Types(outT(m))).Error()
		default:
			return st.Params(ctxType(), jen.Op("*").Add(conn("BidiStream")).Types(in(m), outT(m))).Error()
		}
	}
	jf.Comment("// " + handlerName + " is an implementation of the " + full + " service.")
	if len(doc) > 0 {
		jf.Comment("//")
		for _, d := range doc {
			jf.Add(d)
		}
	}
	ifc = nil
	for _, m := range s.methods {
		ifc = append(ifc, withDoc(schemaDoc(m.desc), handlerSig(m))...)
	}
	jf.Type().Id(handlerName).Interface(ifc...)

	jf.Comment("// New" + handlerName + " builds an HTTP handler from the service implementation. It returns the path on")
	jf.Comment("// which to mount the handler and the handler itself.")
	jf.Comment("//")
	jf.Comment("// Handlers support the Connect, gRPC, and gRPC-Web protocols with protoplay's binary and")
	jf.Comment("// ProtoJSON codecs (connectcodec.HandlerCodecs; the options may replace them) and gzip")
	jf.Comment("// compression.")
	var body []jen.Code
	var cases []jen.Code
	for _, m := range s.methods {
		local := unexport(n) + m.goName + "Handler"
		ctor := map[streamKind]string{unary: "NewUnaryHandler", clientStream: "NewClientStreamHandler",
			serverStream: "NewServerStreamHandler", bidiStream: "NewBidiStreamHandler"}[kindOf(m.desc)]
		args := []jen.Code{jen.Line().Id(proc(m)), jen.Line().Id("svc").Dot(m.goName),
			jen.Line().Qual(connectCodecPkg, "HandlerCodecs").Call()}
		if l := idempotency(m.desc); l != "" {
			args = append(args, jen.Line().Add(conn("WithIdempotency")).Call(conn(l)))
		}
		args = append(args, jen.Line().Add(conn("WithHandlerOptions")).Call(jen.Id("opts").Op("...")), jen.Line())
		body = append(body, jen.Id(local).Op(":=").Add(conn(ctor)).Call(args...))
		cases = append(cases, jen.Case(jen.Id(proc(m))).Block(jen.Id(local).Dot("ServeHTTP").Call(jen.Id("w"), jen.Id("r"))))
	}
	cases = append(cases, jen.Default().Block(jen.Qual("net/http", "NotFound").Call(jen.Id("w"), jen.Id("r"))))
	body = append(body, jen.Return(jen.Lit("/"+full+"/"), jen.Qual("net/http", "HandlerFunc").Call(
		jen.Func().Params(jen.Id("w").Qual("net/http", "ResponseWriter"), jen.Id("r").Op("*").Qual("net/http", "Request")).Block(
			jen.Switch(jen.Id("r").Dot("URL").Dot("Path")).Block(cases...)))))
	jf.Line()
	jf.Func().Id("New"+handlerName).Params(jen.Id("svc").Id(handlerName), jen.Id("opts").Op("...").Add(conn("HandlerOption"))).
		Params(jen.String(), jen.Qual("net/http", "Handler")).Block(body...)

	unimpl := "Unimplemented" + handlerName
	jf.Comment("// " + unimpl + " returns CodeUnimplemented from all methods.")
	jf.Type().Id(unimpl).Struct()
	for _, m := range s.methods {
		e := conn("NewError").Call(conn("CodeUnimplemented"), jen.Qual("errors", "New").Call(jen.Lit(string(m.desc.FullName())+" is not implemented")))
		sig := handlerSig(m)
		if k := kindOf(m.desc); k == unary || k == clientStream {
			jf.Line()
			jf.Func().Params(jen.Id(unimpl)).Add(sig).Block(jen.Return(jen.Nil(), e))
		} else {
			jf.Line()
			jf.Func().Params(jen.Id(unimpl)).Add(sig).Block(jen.Return(e))
		}
	}
}

// limitOf is the Limit of a *diag.Error in err's chain, or "".
func limitOf(err error) string {
	var le *diag.Error
	if errors.As(err, &le) {
		return le.Limit
	}
	return ""
}
