package interp

import (
	"io"
	"os"
	"reflect"
	"strconv"
)

// Package os for interpreted programs: what a program that prints, reads
// its arguments and environment and exits needs, and nothing that reaches
// outside the interpreter (no files, no processes, no signals). A program
// using anything else of os fails to compile with "undefined: os.X".
//
//   - Stdout, Stderr and Stdin are the interpreter's own streams
//     (Options.Stdout, Stderr; Stdin is empty), typed as the interfaces
//     stdWriter and io.Reader rather than *os.File: fmt.Fprintln(os.Stdout,
//     ...), os.Stdout.Write and WriteString, bufio.NewWriter(os.Stdout) and
//     json.NewEncoder(os.Stderr) work; Close, Fd and the other *os.File
//     methods do not compile.
//   - Args is {"main"}, as a program run as ./main with no arguments.
//   - Getenv, LookupEnv, Setenv, Unsetenv, Clearenv, Environ, ExpandEnv
//     see an environment of the interpreter's own (yaegi's restricted
//     mode), empty at the start; Expand is os.Expand.
//   - Exit(code) ends the program: it unwinds as a panic of exitCode,
//     which Session.Run reports as the exit status (deferred functions
//     run on the way, unlike Go's os.Exit).
//   - The errors ErrNotExist, ErrExist, ErrPermission, ErrInvalid,
//     ErrClosed and ErrDeadlineExceeded, for errors.Is.
func osSymbols(stdout, stderr io.Writer) map[string]reflect.Value {
	var (
		out  stdWriter = writer{stdout}
		errw stdWriter = writer{stderr}
		in   io.Reader = emptyReader{}
	)
	unset := func(string) string { return "" } // replaced by yaegi (restricted env)
	return map[string]reflect.Value{
		"Args":   reflect.ValueOf(&[]string{"main"}).Elem(), // replaced by yaegi with Options.Args
		"Stdout": reflect.ValueOf(&out).Elem(),
		"Stderr": reflect.ValueOf(&errw).Elem(),
		"Stdin":  reflect.ValueOf(&in).Elem(),
		"Exit":   reflect.ValueOf(func(code int) { panic(exitCode(code)) }),

		"Getenv":    reflect.ValueOf(unset),
		"LookupEnv": reflect.ValueOf(func(string) (string, bool) { return "", false }),
		"Setenv":    reflect.ValueOf(func(string, string) error { return nil }),
		"Unsetenv":  reflect.ValueOf(func(string) error { return nil }),
		"Clearenv":  reflect.ValueOf(func() {}),
		"Environ":   reflect.ValueOf(func() []string { return nil }),
		"ExpandEnv": reflect.ValueOf(unset),
		"Expand":    reflect.ValueOf(os.Expand),

		"ErrNotExist":         reflect.ValueOf(&os.ErrNotExist).Elem(),
		"ErrExist":            reflect.ValueOf(&os.ErrExist).Elem(),
		"ErrPermission":       reflect.ValueOf(&os.ErrPermission).Elem(),
		"ErrInvalid":          reflect.ValueOf(&os.ErrInvalid).Elem(),
		"ErrClosed":           reflect.ValueOf(&os.ErrClosed).Elem(),
		"ErrDeadlineExceeded": reflect.ValueOf(&os.ErrDeadlineExceeded).Elem(),
	}
}

// stdWriter is the type of the interpreted os.Stdout and os.Stderr.
type stdWriter interface {
	io.Writer
	io.StringWriter
}

// writer gives any io.Writer a WriteString.
type writer struct{ w io.Writer }

func (w writer) Write(p []byte) (int, error)       { return w.w.Write(p) }
func (w writer) WriteString(s string) (int, error) { return io.WriteString(w.w, s) }

// emptyReader is the interpreted os.Stdin: always at its end.
type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, io.EOF }

// exitCode is the panic value of the interpreted os.Exit.
type exitCode int

func (c exitCode) String() string { return "exit status " + strconv.Itoa(int(c)) }

// exitStatus reports whether v, a panic's value, is an os.Exit and with
// which code.
func exitStatus(v any) (int, bool) {
	c, ok := v.(exitCode)
	return int(c), ok
}
