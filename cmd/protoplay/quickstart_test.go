package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// What someone who installed protoplay does (README's quick start): a
// module of their own with only the standard library, a .proto, protoplay
// gen with no runtime= option, go build and go run. The default
// (runtime=local for the command-line tools) writes the runtime packages
// the code imports into their tree, so it builds with no network, no
// module cache and no github.com/protoplay/protoplay requirement: with
// paths=source_relative (the runtime under the output directory) and with
// module= (the runtime at the module root). runtime=import still gives
// the import, which the same module cannot build.
func TestGenDefaultBuildsInUserModule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	const shop = `syntax = "proto3";
package shop.v1;
option go_package = "example.com/m/gen/shop/v1;shopv1";
import "google/protobuf/timestamp.proto";
message Order {
  int32 id = 1;
  string item = 2;
  google.protobuf.Timestamp placed = 3;
  map<string, int64> stock = 4;
}
`
	const program = `package main

import (
	"encoding/hex"
	"fmt"

	shopv1 "example.com/m/gen/shop/v1"
)

func main() {
	o := &shopv1.Order{Id: 150, Item: "tea", Stock: map[string]int64{"cups": 2}}
	b, err := o.Marshal()
	if err != nil {
		panic(err)
	}
	var back shopv1.Order
	if err := back.Unmarshal(b); err != nil {
		panic(err)
	}
	fmt.Println(hex.EncodeToString(b), back.Equal(o))
}
`
	for _, tc := range []struct {
		name    string
		args    []string // after -I proto
		runtime string   // where the runtime's wire package must be
		wantErr string   // go build's error, for runtime=import
	}{
		{"source_relative", []string{"-o", "gen", "--opt", "paths=source_relative", "shop/v1/shop.proto"}, "gen/protoplay/runtime/wire/wire.go", ""},
		{"module=", []string{"shop/v1/shop.proto", "-o", ".", "--opt", "module=example.com/m"}, "protoplay/runtime/wire/wire.go", ""},
		{"runtime=import", []string{"-o", "gen", "--opt", "paths=source_relative,runtime=import", "shop/v1/shop.proto"}, "", "github.com/protoplay/protoplay"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mod := t.TempDir()
			write := func(name, text string) {
				p := filepath.Join(mod, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("go.mod", "module example.com/m\n\ngo 1.23\n")
			write("proto/shop/v1/shop.proto", shop)
			write("main.go", program)
			t.Chdir(mod)
			if code, errs := runGenArgs(t, append([]string{"-I", "proto"}, tc.args...)...); code != 0 || errs != "" {
				t.Fatalf("gen: exit %d: %s", code, errs)
			}
			if tc.runtime != "" {
				if _, err := os.Stat(filepath.Join(mod, tc.runtime)); err != nil {
					t.Errorf("no runtime at %s: %v", tc.runtime, err)
				}
			}
			// -trimpath: the build cache keys the module's packages by
			// import path and content, not by this temporary directory,
			// so a later run reuses their compilation.
			goCmd := func(args ...string) (string, error) {
				cmd := exec.Command("go", args...)
				cmd.Dir = mod
				cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -trimpath", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local",
					"GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"))
				b, err := cmd.CombinedOutput()
				return string(b), err
			}
			out, err := goCmd("build", "./...")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(out, tc.wantErr) {
					t.Fatalf("go build with runtime=import: %v\n%s\nwant it to fail on %s", err, out, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("go build ./...: %v\n%s", err, out)
			}
			out, err = goCmd("run", ".")
			if want := "089601120374656122080a04637570731002 true\n"; err != nil || out != want {
				t.Errorf("go run .: %v\n%q\nwant %q", err, out, want)
			}
		})
	}
}
