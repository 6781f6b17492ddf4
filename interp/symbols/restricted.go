package symbols

// The log table (log.go, written by yaegi's extract tool) refers to these
// restricted forms of log's Fatal functions and Logger, as yaegi's own
// stdlib package declares them (github.com/traefik/yaegi/stdlib,
// restricted.go, Apache-2.0): a Fatal panics instead of ending the
// process, so an interpreted program cannot end its host. (Package-level
// log.Print*, Fatal* and Panic* are the interpreter's own logger, writing
// to its stderr: yaegi's fixStdlib.)

import (
	"io"
	"log"
)

func logFatal(v ...interface{})            { log.Panic(v...) }
func logFatalf(f string, v ...interface{}) { log.Panicf(f, v...) }
func logFatalln(v ...interface{})          { log.Panicln(v...) }

// logLogger is the interpreted log.Logger: Fatal* panic.
type logLogger struct {
	l *log.Logger
}

// logNew is the interpreted log.New.
func logNew(out io.Writer, prefix string, flag int) *logLogger {
	return &logLogger{log.New(out, prefix, flag)}
}

func (l *logLogger) Fatal(v ...interface{})            { l.l.Panic(v...) }
func (l *logLogger) Fatalf(f string, v ...interface{}) { l.l.Panicf(f, v...) }
func (l *logLogger) Fatalln(v ...interface{})          { l.l.Panicln(v...) }
func (l *logLogger) Flags() int                        { return l.l.Flags() }
func (l *logLogger) Output(d int, s string) error      { return l.l.Output(d, s) }
func (l *logLogger) Panic(v ...interface{})            { l.l.Panic(v...) }
func (l *logLogger) Panicf(f string, v ...interface{}) { l.l.Panicf(f, v...) }
func (l *logLogger) Panicln(v ...interface{})          { l.l.Panicln(v...) }
func (l *logLogger) Prefix() string                    { return l.l.Prefix() }
func (l *logLogger) Print(v ...interface{})            { l.l.Print(v...) }
func (l *logLogger) Printf(f string, v ...interface{}) { l.l.Printf(f, v...) }
func (l *logLogger) Println(v ...interface{})          { l.l.Println(v...) }
func (l *logLogger) SetFlags(flag int)                 { l.l.SetFlags(flag) }
func (l *logLogger) SetOutput(w io.Writer)             { l.l.SetOutput(w) }
func (l *logLogger) Writer() io.Writer                 { return l.l.Writer() }
