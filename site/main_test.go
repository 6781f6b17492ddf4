package site_test

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// testParallel is how many of the package's tests run at once (go test's
// -parallel, which defaults to GOMAXPROCS, unless given). Almost every test
// drives a page in chromium or a Node process, and spends most of its time
// waiting on it: the wasm core compiling and starting, a worker, a
// debounce, a bundler. Each test has its own tab, temporary directories
// and copy of the installed npm project, its pages on an origin of their
// own or on the shared page server's (pageServer), and the
// tests whose point is not a time limit open the page with a limit no
// busy machine reaches (?timeout=300000). go test -parallel N runs N at a
// time. TestMeasure, the screenshot tests, TestNPMPackageNodeOffThread and
// TestNPMPackageNodeLimits, whose numbers, pictures and time limits must
// not depend on other tests, are not parallel, and so run before the
// others start.
const testParallel = 2

// TestMain sets -test.parallel to testParallel unless it was given, and
// stops and removes what the package's tests share (the npm project
// installPackage copies, the chromium they open tabs in) once they are
// done.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(testParallel))
	}
	code := m.Run()
	stopBrowser()
	stopPageServer()
	if installed.root != "" {
		os.RemoveAll(installed.root)
	}
	os.Exit(code)
}
