package gogen_test

import (
	"os"
	"sync"
	"testing"
)

// sharedTemp is a directory for what several tests of the package share
// (a generated module built once), removed when they are done.
var sharedTemp struct {
	sync.Mutex
	dir string
}

// sharedTempDir returns the package's shared temporary directory, made on
// first use.
func sharedTempDir(t *testing.T) string {
	t.Helper()
	sharedTemp.Lock()
	defer sharedTemp.Unlock()
	if sharedTemp.dir == "" {
		dir, err := os.MkdirTemp("", "gogen-test-")
		if err != nil {
			t.Fatal(err)
		}
		sharedTemp.dir = dir
	}
	return sharedTemp.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedTemp.dir != "" {
		os.RemoveAll(sharedTemp.dir)
	}
	os.Exit(code)
}
