//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main explains how to build the real thing; the module's logic is
// interp.Session, which builds and tests natively.
func main() {
	fmt.Fprintln(os.Stderr, "protoplay's interpreter module for the browser: build it with GOOS=js GOARCH=wasm (make site)")
	os.Exit(2)
}
