//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main explains how to build the real thing; the bridge's logic is
// compiler.Workspace, which builds and tests natively.
func main() {
	fmt.Fprintln(os.Stderr, "protoplay's wasm entry: build it with GOOS=js GOARCH=wasm (make site)")
	os.Exit(2)
}
