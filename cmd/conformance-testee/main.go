// Command conformance-testee builds protoplay's conformance testee: it
// compiles conformance.proto and the test_messages
// protos from a protobuf source tree with protoplay, writes them and the
// testee's main into a Go module and builds it.
//
//	go run ./cmd/conformance-testee [-protobuf DIR] [-work DIR] [-o FILE] [-missing-ok]
//
// Run it from the repository. -protobuf defaults to
// $PROTOPLAY_SHARED/corpus/protobuf, else ../shared/corpus/protobuf beside
// the checkout. The testee then runs under a conformance runner:
//
//	conformance_test_runner bin/conformance-testee
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fl := flag.NewFlagSet("gen", flag.ContinueOnError)
	protobufRoot := fl.String("protobuf", "", "protobuf source tree holding conformance/conformance.proto (default: ../shared/corpus/protobuf)")
	work := fl.String("work", ".cache/conformance-testee", "directory for the generated testee module (replaced)")
	out := fl.String("o", "bin/conformance-testee", "the testee binary to build")
	missingOK := fl.Bool("missing-ok", false, "exit 0, with a note, when the protobuf source tree is absent")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	repo, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		return 2
	}
	if *protobufRoot == "" {
		shared := os.Getenv("PROTOPLAY_SHARED")
		if shared == "" {
			shared = filepath.Join(repo, "..", "shared")
		}
		*protobufRoot = filepath.Join(shared, "corpus", "protobuf")
	}
	if _, err := os.Stat(*protobufRoot); errors.Is(err, fs.ErrNotExist) && *missingOK {
		fmt.Fprintf(os.Stderr, "conformance-testee: not built (optional): it generates code from protobuf's conformance protos, and there is no protobuf source tree at %s (give -protobuf DIR or PROTOPLAY_SHARED)\n", filepath.Clean(*protobufRoot))
		return 0
	}
	ctx := context.Background()
	res, err := Generate(ctx, *protobufRoot)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		return 1
	}
	left := make([]string, 0, len(res.LeftOut))
	for f := range res.LeftOut {
		left = append(left, f)
	}
	sort.Strings(left)
	for _, f := range left {
		fmt.Fprintf(os.Stderr, "gen: left out %s: %s\n", f, res.LeftOut[f])
	}
	workDir, err := filepath.Abs(*work)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		return 1
	}
	binary, err := filepath.Abs(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		return 1
	}
	if err := os.RemoveAll(workDir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		return 1
	}
	if err := Build(ctx, res, repo, workDir, binary, false); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		return 1
	}
	var msgs []string
	for _, s := range res.Included {
		for full := range s.Messages {
			msgs = append(msgs, full)
		}
	}
	sort.Strings(msgs)
	fmt.Printf("built %s (module in %s) for %s\n", *out, *work, strings.Join(msgs, ", "))
	return 0
}

// repoRoot finds the protoplay checkout from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(b), "module github.com/protoplay/protoplay\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run this from inside the protoplay checkout (no go.mod of github.com/protoplay/protoplay above the working directory)")
		}
		dir = parent
	}
}
