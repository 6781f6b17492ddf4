package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/protoplay/protoplay/compiler"
)

// runCheckGenerated is check --generated: compiler.CheckGenerated (the
// checks the browser runs under its interpreter, package
// interp/gocheck, on the generated code built with the go command),
// printed one line per message type. ctx's end (a limit of
// workLimits) kills the go command and the harness. gen are the --opt
// generator options (CheckGeneratedOptions.Generator); breakType is a test
// hook (CheckGeneratedOptions.Break).
func runCheckGenerated(ctx context.Context, roots *schemaFlags, files []string, gen compiler.Options, breakType string, stdout, stderr io.Writer) int {
	res, err := compileFiles(ctx, roots, files, compiler.Request{NoGenerate: true})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if printDiagnostics(stderr, res, true) {
		return 1
	}
	rep, err := compiler.CheckGenerated(ctx, res, compiler.CheckGeneratedOptions{Generator: gen, Break: breakType})
	if err != nil {
		// compiler.ErrNoGoToolchain says that no go command is on PATH.
		fmt.Fprintln(stderr, "protoplay check --generated:", err)
		return 1
	}
	failed := 0
	for _, r := range rep.Results {
		if !r.Pass {
			failed++
			var why []string
			for _, st := range r.Steps {
				if !st.Pass {
					why = append(why, st.Name+": "+st.Message)
				}
			}
			fmt.Fprintf(stdout, "FAIL  %s (%s): %s\n", r.Type, r.GoType, strings.Join(why, "; "))
			if r.Offset >= 0 {
				fmt.Fprintf(stdout, "      reference %s\n      generated %s\n", hexAround(r.Reference, r.Offset), hexAround(r.Generated, r.Offset))
			}
			continue
		}
		var steps []string
		for _, st := range r.Steps {
			steps = append(steps, st.Name)
		}
		// The Go API, when it is not the open one.
		api := ""
		if l := rep.APILevels[r.Type]; l != "" && l != "API_OPEN" {
			api = l + "; "
		}
		switch {
		case r.Reference == "" && len(r.Steps) == 1:
			// The reference refused to encode the sample: only the
			// probes ran.
			fmt.Fprintf(stdout, "ok    %s (the reference cannot encode the sample, a cycle of required fields; the generated Unmarshal refuses the probes as it does)\n", r.Type)
		default:
			fmt.Fprintf(stdout, "ok    %s (%ssample: %d bytes; %s)\n", r.Type, api, len(r.Reference)/2, strings.Join(steps, ", "))
		}
	}
	fmt.Fprintf(stdout, "%d message types, %d failed (generated code built with %s)\n", len(rep.Results), failed, rep.GoCommand)
	if failed > 0 {
		return 1
	}
	return 0
}

// hexAround shows the bytes of h (hex) around byte offset at, the byte at
// it in brackets.
func hexAround(h string, at int) string {
	var parts []string
	for i := max(0, at-8); i < min(len(h)/2, at+8); i++ {
		b := h[2*i : 2*i+2]
		if i == at {
			b = "[" + b + "]"
		}
		parts = append(parts, b)
	}
	if at >= len(h)/2 {
		parts = append(parts, "[end]")
	}
	return fmt.Sprintf("@%d: %s", max(0, at-8), strings.Join(parts, " "))
}
