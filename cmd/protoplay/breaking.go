package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/cliflag"
)

// runBreaking compares the schema with a baseline (--against) and prints
// the breaking changes as "file:line:col: RULE_ID: message".
func runBreaking(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay breaking", flag.ContinueOnError)
	roots := importFlags(fs)
	against := fs.String("against", "", "the baseline: a `DIR` whose .proto files (named relative to it) are the earlier version, or a descriptor set file (protoc --descriptor_set_out, a buf image)")
	var categories, rules multiFlag
	fs.Var(&categories, "category", "check the rules of `CATEGORY`: FILE (the default, as buf's), PACKAGE, WIRE_JSON or WIRE (repeatable; also comma-separated)")
	fs.Var(&rules, "rule", "also check the rule `ID`, as buf names it (FIELD_SAME_TYPE ...; repeatable; also comma-separated)")
	list := fs.Bool("list-rules", false, "list the rules with their categories and exit")
	var lim workLimits
	lim.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: protoplay breaking --against DIR_OR_DESCRIPTOR_SET [-I DIR]... [--category C]... [--rule ID]... [FILE.proto...]")
		fmt.Fprintln(fs.Output(), "Lists the breaking changes from the baseline to the current files, by buf breaking's rules (its categories FILE, PACKAGE, WIRE_JSON, WIRE),")
		fmt.Fprintln(fs.Output(), "one \"file:line:col: RULE_ID: message\" per change. With no FILE.proto, every .proto file under the import root (default: the current directory).")
		fmt.Fprintln(fs.Output(), "Exit status: 0 no breaking change, 1 breaking changes (or a schema that does not compile), 2 bad usage.")
		fs.PrintDefaults()
	}
	files, err := cliflag.Parse(fs, args, stdout, stderr)
	if err != nil {
		return cliflag.Status(err)
	}
	split := func(m multiFlag) []string {
		var out []string
		for _, v := range m {
			for _, p := range strings.Split(v, ",") {
				if p = strings.TrimSpace(p); p != "" {
					out = append(out, p)
				}
			}
		}
		return out
	}
	if *list {
		for _, r := range compiler.BreakingRules() {
			fmt.Fprintf(stdout, "%-47s %-28s %s\n", r.ID, strings.Join(r.Categories, ","), r.Purpose)
		}
		return cliflag.StatusOK
	}
	if *against == "" {
		return cliflag.Usage(fs, "--against is required")
	}
	if _, err := compiler.Breaking(nil, nil, split(categories), split(rules)); err != nil {
		fmt.Fprintf(stderr, "protoplay breaking: %v\n", err)
		return cliflag.StatusUsage
	}
	status := 0
	var out strings.Builder
	named := len(files) > 0
	err = lim.run(func(ctx context.Context) error {
		if !named && !roots.hasSets() {
			root := "."
			if len(roots.roots) > 0 {
				root = roots.roots[0]
			}
			names, err := protoFiles(root)
			if err != nil {
				return err
			}
			if len(names) == 0 {
				return fmt.Errorf("no .proto files under %s", root)
			}
			for _, n := range names {
				files = append(files, filepath.Join(root, filepath.FromSlash(n)))
			}
		}
		cur, err := compileFiles(ctx, roots, files, compiler.Request{NoGenerate: true})
		if err != nil {
			return err
		}
		if printDiagnostics(stderr, cur, false) {
			status = 1
			return nil
		}
		base, err := compileBaseline(ctx, *against)
		if err != nil {
			return err
		}
		if printDiagnostics(stderr, base, false) {
			fmt.Fprintf(stderr, "protoplay breaking: the baseline %s does not compile\n", *against)
			status = 1
			return nil
		}
		baseFiles := base.Files
		if named {
			// Named files: compare them with the baseline's files of the
			// same names only, as buf breaking --path does.
			names := map[string]bool{}
			for _, f := range cur.Files {
				names[f.Path()] = true
			}
			baseFiles = baseFiles[:0:0]
			for _, f := range base.Files {
				if names[f.Path()] {
					baseFiles = append(baseFiles, f)
				}
			}
		}
		changes, err := compiler.Breaking(cur.Files, baseFiles, split(categories), split(rules))
		if err != nil {
			return err
		}
		for _, c := range changes {
			fmt.Fprintln(&out, c.String())
		}
		if len(changes) > 0 {
			status = 1
		}
		return nil
	})
	io.WriteString(stdout, out.String())
	if err != nil {
		return inputError(stderr, "breaking", err)
	}
	return status
}

// protoFiles lists the .proto files under dir, slash-separated and
// relative to it, sorted.
func protoFiles(dir string) ([]string, error) {
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".proto") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		names = append(names, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(names)
	return names, err
}

// compileBaseline compiles --against: every .proto file under a
// directory, named relative to it, or the files of a descriptor set.
func compileBaseline(ctx context.Context, against string) (*compiler.Result, error) {
	st, err := os.Stat(against)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		b, err := os.ReadFile(against)
		if err != nil {
			return nil, err
		}
		return compiler.Compile(ctx, compiler.Request{NoGenerate: true, DescriptorSets: []compiler.DescriptorSet{{Name: against, Data: b}}}), nil
	}
	names, err := protoFiles(against)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no .proto files under %s", against)
	}
	return compiler.Compile(ctx, compiler.Request{NoGenerate: true, FS: os.DirFS(against), Files: names}), nil
}
