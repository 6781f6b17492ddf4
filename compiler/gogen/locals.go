package gogen

// printerLocals are the identifiers the printer declares inside generated
// functions: receivers, parameters, named results and local variables of
// the methods in codec.go, equal.go and message.go. An imported package may
// not be known by one of these names in a generated file (a local "d" would
// hide package d inside Unmarshal, and d.Sub would no longer be a type), so
// the naming pass (importNames) avoids them.
//
// This is the one list of them. TestPrinterLocalsListed parses generated
// code and fails when the printer declares a local missing here; a printer
// change that adds a local adds it here.
var printerLocals = []string{
	"b", "b0", "c", "canon", "d", "depth", "e", "end", "err", "group", "i", "isName", "j", "k",
	"key", "keys", "knum", "known", "ktyp", "kv", "l", "last", "list", "m", "m0", "missing", "more", "n",
	"name", "num", "o", "off", "ok", "p", "raw", "seen", "set", "size", "start", "typ",
	"unk", "v", "val", "vd", "verr", "vx", "w", "which", "x", "y",
}

// stdImports are the packages other than proto packages that generated code
// may import, with the names they declare: the standard library packages
// the printer uses and protoplay's runtime. The naming pass gives them their
// own names first; a proto package with one of these names is imported
// under another. TestPrinterImportsListed fails when generated code imports
// a package missing here.
var stdImports = []struct{ path, name string }{
	{"bytes", "bytes"},
	{"maps", "maps"},
	{"math", "math"},
	{"slices", "slices"},
	{"strconv", "strconv"},
	{"unicode/utf8", "utf8"},
	{RuntimeImportPath, "wire"},
	{ProtoJSONImportPath, "protojson"},
	{ProtoTextImportPath, "prototext"},
}

// predeclared are the identifiers of Go's universe block (The Go
// Programming Language Specification, "Predeclared identifiers"). Generated
// code uses many of them unqualified, so no import may take their names.
var predeclared = []string{
	"any", "bool", "byte", "comparable", "complex64", "complex128", "error",
	"float32", "float64", "int", "int8", "int16", "int32", "int64", "rune",
	"string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
	"true", "false", "iota", "nil",
	"append", "cap", "clear", "close", "complex", "copy", "delete", "imag",
	"len", "make", "max", "min", "new", "panic", "print", "println", "real",
	"recover",
}
