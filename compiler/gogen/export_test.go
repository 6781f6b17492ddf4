package gogen

// Internal lists, for the external tests.
var (
	PrinterLocals = printerLocals
	Predeclared   = predeclared
)

// StdImportPaths returns the import paths of stdImports.
func StdImportPaths() map[string]string {
	out := map[string]string{}
	for _, s := range stdImports {
		out[s.path] = s.name
	}
	return out
}
