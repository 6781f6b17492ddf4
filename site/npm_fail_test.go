package site_test

// The npm package failing well (issue 32): recovery after a limit, a
// failed start that leaves nothing behind, no globals in the host, no
// orphaned core, readable errors, typings, and a package that tells the
// truth about itself.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyTestdata copies the files of site/testdata/npm/NAME into dir.
func copyTestdata(t *testing.T, name, dir string) {
	t.Helper()
	src := filepath.Join("testdata/npm", name)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, e.Name()), string(b))
	}
}

// TestNPMPackageNodeRecoveryAfterKill (case 50): in Node, a call still
// running 5 s past timeoutMs gets the core's process killed. It rejects
// with kind "limit", as does a call waiting behind it on the same core;
// the calls after it run on a new core (the old process's exit, which
// comes later, is not theirs). "stopped" takes the kill path on any
// machine (the core's process is stopped, so it cannot answer); "case" is
// the case's input, a wire view that runs past the limit (stopped by the
// core or killed, by the machine's speed).
func TestNPMPackageNodeRecoveryAfterKill(t *testing.T) {
	dir := installPackage(t)
	copyTestdata(t, "50_npm_call_after_timeout_internal", dir)
	type call struct {
		Label, Kind, Limit, Message string
		OK                          bool
		Fields, Ms                  int
	}
	for _, mode := range []string{"stopped", "case"} {
		t.Run(mode, func(t *testing.T) {
			var out struct {
				Calls          []call
				Stopped, Alive []int
			}
			runNode(t, dir, &out, "recovery.mjs", "3000", mode)
			got := map[string]call{}
			for _, c := range out.Calls {
				t.Logf("%s: %+v", c.Label, c)
				got[c.Label] = c
			}
			big := got["big"]
			if big.OK || big.Kind != "limit" || big.Limit != "Deadline" || !strings.Contains(big.Message, "over the time limit of 3000 ms") {
				t.Errorf("the call over the limit: %+v, want kind limit (Deadline) naming 3000 ms", big)
			}
			if mode == "stopped" {
				if len(out.Stopped) != 1 || len(out.Alive) != 0 {
					t.Errorf("the core's processes: %v stopped, %v still there after the kill; want one, gone", out.Stopped, out.Alive)
				}
				if !strings.Contains(big.Message, "the core was restarted") {
					t.Errorf("the killed call's message %q does not say the core was restarted", big.Message)
				}
				if b := got["behind"]; b.OK || b.Kind != "limit" || !strings.Contains(b.Message, "another call ran over the time limit") {
					t.Errorf("the call waiting behind it on the killed core: %+v, want kind limit, saying why", b)
				}
			}
			for _, l := range []string{"after", "again"} {
				if c := got[l]; !c.OK || c.Fields == 0 {
					t.Errorf("%s: %+v, want an answer from a running core", l, c)
				}
			}
		})
	}
}

