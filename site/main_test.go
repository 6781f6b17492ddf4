package site_test

import (
	"os"
	"testing"
)

// TestMain stops and removes what the package's tests share (the npm
// project installPackage copies, the chromium they open tabs in) once they
// are done.
func TestMain(m *testing.M) {
	code := m.Run()
	stopBrowser()
	if installed.root != "" {
		os.RemoveAll(installed.root)
	}
	os.Exit(code)
}
