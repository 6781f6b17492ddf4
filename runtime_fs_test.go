package protoplay

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// filesFS is a valid fs.FS (testing/fstest's checks: Open, Stat, ReadDir
// of the implied directories, ReadFile, reads in pieces) and finds what
// it was given.
func TestFilesFS(t *testing.T) {
	files := map[string]string{
		"runtime/wire/wire.go":                 "package wire\n",
		"runtime/wire/doc.go":                  "// Package wire.\npackage wire\n",
		"runtime/wkt/anypb/any.go":             "package anypb\n",
		"runtime/wkt/doc.go":                   "package wkt\n",
		"runtime/wkt/timestamppb/timestamp.go": "",
		"top.go":                               "package top\n",
	}
	fsys := newFilesFS(files)
	var names []string
	for n := range files {
		names = append(names, n)
	}
	if err := fstest.TestFS(fsys, names...); err != nil {
		t.Fatal(err)
	}
	es, err := fs.ReadDir(fsys, "runtime/wkt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if want := "anypb doc.go timestamppb"; strings.Join(got, " ") != want {
		t.Errorf("ReadDir(runtime/wkt) = %q, want %q", got, want)
	}
	if _, err := fs.ReadFile(fsys, "runtime/nope.go"); err == nil {
		t.Error("ReadFile of a missing file: no error")
	}
	if _, err := fsys.Open("../x"); err == nil {
		t.Error("Open of an invalid path: no error")
	}
}
