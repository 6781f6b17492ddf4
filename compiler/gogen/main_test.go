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

// parallel: the tests that spend minutes building and running generated
// modules (TestDifferential, TestJSONDifferential, TestTextDifferential,
// TestExtensionsDifferential, TestTypedNilOneof, TestCorpusBuilds,
// TestCorpusGofmtClean) call t.Parallel, so that go test runs them
// -parallel (GOMAXPROCS) at a time after the package's other tests: a
// test waiting on its go command or generated test binary leaves the
// other core to the next. What they share is made once under a lock
// (genModule, corpusPasses, sharedTemp), and none sets the process's
// environment (a variable for a go command goes in its own, see
// gentest.GoEnv).
func TestMain(m *testing.M) {
	code := m.Run()
	if sharedTemp.dir != "" {
		os.RemoveAll(sharedTemp.dir)
	}
	os.Exit(code)
}
