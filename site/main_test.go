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
// debounce, a bundler. make test runs them one at a time (the default
// here, 1), beside the other packages' tests: at two and four at a time
// beside make test's other steps (load 13-22 on two cores, CI runs 6 and
// 7) the npm time-limit test's core and dlp.proto's first compile in the
// page passed their time limits (each tab's renderer and core hold a core
// while they compile). go test -parallel N runs N at a time. Each test has
// its own browser context, page server, temporary directories and copy of
// the installed npm project. TestMeasure, the screenshot tests,
// TestNPMPackageNodeOffThread, TestNPMPackageNodeLimits and
// TestBigSchemaEditsSupersede, whose numbers, pictures and time limits
// must not depend on other tests, are not parallel, and so run before the
// others start.
const testParallel = 1

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
	if installed.root != "" {
		os.RemoveAll(installed.root)
	}
	os.Exit(code)
}
