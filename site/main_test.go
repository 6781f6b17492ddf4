package site_test

import (
	"os"
	"testing"
)

// TestMain removes what the package's tests share (the npm project
// installPackage copies) once they are done.
func TestMain(m *testing.M) {
	code := m.Run()
	if installed.root != "" {
		os.RemoveAll(installed.root)
	}
	os.Exit(code)
}
