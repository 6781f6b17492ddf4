package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/cliflag"
	"github.com/protoplay/protoplay/internal/genprotonote"
	"github.com/protoplay/protoplay/internal/parallel"
)

// Defaults of the limits every command has (see workLimits; the
// compiler's are compiler.Max*).
const (
	// defaultTimeout bounds one command's wall time.
	defaultTimeout = 2 * time.Minute
	// defaultMaxMemory bounds the memory the process holds from the OS.
	// Generating 20,000 small messages (111 MB of Go) peaks near 0.6 GB.
	defaultMaxMemory = 2 << 30
	// memoryPoll is how often the watchdog reads the process's memory.
	memoryPoll = 50 * time.Millisecond
)

// genLimits are gen's limit flags, each named in the error it gives.
type genLimits struct {
	workLimits
	maxOutput byteSize
	maxSource byteSize
	maxNest   int
	maxFiles  int
}

func (l *genLimits) register(fs *flag.FlagSet) {
	l.workLimits.register(fs)
	l.maxOutput, l.maxSource = compiler.MaxOutputBytes, compiler.MaxSourceBytes
	fs.Var(&l.maxOutput, "max-output", "stop with an error after this many `BYTES` of generated Go (0: no limit)")
	fs.Var(&l.maxSource, "max-source", "refuse a .proto file larger than this many `BYTES` (0: no limit)")
	l.maxNest, l.maxFiles = compiler.MaxNesting, compiler.MaxFiles
	fs.Var((*count)(&l.maxNest), "max-nesting", "refuse a .proto file whose brackets { [ ( < nest deeper than this `N` (0: no limit)")
	fs.Var((*count)(&l.maxFiles), "max-files", "refuse more input files than this `N` (0: no limit)")
}

// compilerLimits maps the flags to compiler.Limits, where 0 is the default
// and a negative value no limit.
func (l *genLimits) compilerLimits() compiler.Limits {
	none := func(v int) int {
		if v == 0 {
			return -1
		}
		return v
	}
	return compiler.Limits{
		MaxSourceBytes: none(int(l.maxSource)),
		MaxFiles:       none(l.maxFiles),
		MaxNesting:     none(l.maxNest),
		MaxOutputBytes: none(int(l.maxOutput)),
		MaxMemoryBytes: int64(l.maxMemory),
	}
}

// explain is the error text for a limit the compiler hit, naming the flag
// that raises it.
func (l *genLimits) explain(d compiler.Diagnostic) string {
	switch d.Limit {
	case compiler.LimitDeadline:
		return fmt.Sprintf("stopped: over the time limit of %v (raise it with --timeout)", l.timeout)
	case compiler.LimitMemoryBytes:
		return d.String() + " (raise it with --max-memory, now " + l.maxMemory.String() + ")"
	case compiler.LimitOutputBytes:
		return d.String() + " (raise it with --max-output, now " + l.maxOutput.String() + ")"
	case compiler.LimitSourceBytes:
		return d.String() + " (raise it with --max-source, now " + l.maxSource.String() + ")"
	case compiler.LimitNesting:
		return d.String() + " (raise it with --max-nesting)"
	case compiler.LimitFiles:
		return d.String() + " (raise it with --max-files)"
	}
	return d.String()
}

func runGen(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay gen", flag.ContinueOnError)
	roots := importFlags(fs)
	out := fs.String("o", ".", "output `DIR`; files go to DIR/<path chosen by the paths= option>")
	var opts multiFlag
	fs.Var(&opts, "opt", "generator option `KEY=VALUE` (repeatable, or several comma-separated as in protoc's --protoplay_opt): paths=import|source_relative, module=PREFIX, M<file>=<import path>, unknown_fields=keep|drop, enum_maps=true|false, default_import_prefix=PATH, services=none|grpc|connect|grpc+connect, features=all|F+F (marshal, unmarshal, size, equal, clone, json, text), runtime=local|import (default local: the runtime packages the code imports are written beside it, so it builds with no protoplay module), runtime_root=PATH (with paths=source_relative: the import path of DIR, read from the go.mod above DIR when not given), default_api_level=API_OPEN|API_HYBRID|API_OPAQUE, apilevelM<file>=<level>, lazy=<field full name> (repeatable: an opaque message's field decoded on first access)")
	var lim genLimits
	lim.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: protoplay gen [-I DIR]... [--descriptor_set_in FILES] [-o DIR] [--opt KEY=VALUE]... [--timeout D] [--max-memory N]... FILE.proto...")
		fs.PrintDefaults()
	}
	files, err := cliflag.Parse(fs, args, stdout, stderr)
	if err != nil {
		return cliflag.Status(err)
	}
	if len(files) == 0 && !roots.hasSets() {
		return cliflag.Usage(fs, "no .proto file named (give FILE.proto..., or --descriptor_set_in)")
	}
	// protoc's -o FILE writes a descriptor set; here -o is a directory.
	if st, err := os.Stat(*out); err != nil || !st.IsDir() {
		for _, ext := range compiler.DescriptorSetExtensions {
			if strings.HasSuffix(*out, ext) {
				return cliflag.Usage(fs, "-o %s: -o names the output directory of the Go files (protoc's -o FILE writes a descriptor set, which protoplay gen does not write)", *out)
			}
		}
	}
	o, err := parseOpts(opts)
	if err != nil {
		fmt.Fprintln(stderr, "protoplay gen:", err)
		return 2
	}
	if err := o.Validate(); err != nil {
		fmt.Fprintln(stderr, "protoplay gen:", err)
		return 2
	}
	// runtime=local unless --opt runtime=import: the output builds in the
	// user's module as it is (gogen.Options.WithToolDefaults).
	o = o.WithToolDefaults()
	// Under paths=source_relative the runtime goes at protoplay/runtime in
	// the output directory: import it by the path the go.mod above that
	// directory gives it, which the files' go_package need not name.
	if o.Runtime == "local" && o.Paths == "source_relative" && o.RuntimeRoot == "" {
		if root, ok := dirImportPath(*out); ok {
			o.RuntimeRoot = root
		}
	}
	defer tuneGenGC()()
	res, err := lim.compile(roots, files, compiler.Request{Options: o})
	if err != nil {
		fmt.Fprintln(stderr, "protoplay gen:", err)
		return 1
	}
	failed := false
	for _, d := range res.Diagnostics {
		if d.Limit != "" {
			fmt.Fprintln(stderr, "protoplay gen:", lim.explain(d))
		} else {
			fmt.Fprintln(stderr, d.String())
			fmt.Fprint(stderr, d.Details())
		}
		failed = failed || d.Severity == compiler.SeverityError
	}
	if failed {
		return 1
	}
	// Everything is generated in memory first, so a compile error leaves
	// no file behind; writing is all or nothing too (see writeAll).
	if err := writeAll(*out, res.Generated); err != nil {
		fmt.Fprintln(stderr, "protoplay gen:", err)
		return 1
	}
	for _, n := range genprotonote.Find(res, o) {
		fmt.Fprintln(stderr, "protoplay gen:", n.Format("--opt "))
	}
	if n := genprotonote.Unplaced(res, o, "--opt "); n != "" {
		fmt.Fprintln(stderr, "protoplay gen:", n)
	}
	return 0
}

// compile runs compileFiles under the time and memory limits. The
// compiler checks both between stages and generated messages; a watchdog
// also reads the process's memory every memoryPoll and the clock, and
// returns an error naming the limit as soon as one is passed, whatever the
// compiler is doing (the compile goroutine is told to stop and left to
// finish on its own; the process exits right after).
func (l *genLimits) compile(roots *schemaFlags, files []string, req compiler.Request) (*compiler.Result, error) {
	req.Limits = l.compilerLimits()
	ctx := context.Background()
	if l.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, l.timeout)
		defer cancel()
	}
	if l.maxMemory > 0 {
		// The collector works harder as the limit nears, so garbage alone
		// seldom passes it.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(l.maxMemory)))
	}
	type result struct {
		res *compiler.Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := compileFiles(ctx, roots, files, req)
		done <- result{res, err}
	}()
	tick := time.NewTicker(memoryPoll)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			return r.res, r.err
		case <-ctx.Done():
			// Give the compiler a moment to stop on its own and say so.
			select {
			case r := <-done:
				return r.res, r.err
			case <-time.After(memoryPoll):
			}
			return nil, fmt.Errorf("stopped: over the time limit of %v (raise it with --timeout)", l.timeout)
		case <-tick.C:
			if l.maxMemory > 0 {
				if m := compiler.MemoryInUse(); m > uint64(l.maxMemory) {
					return nil, fmt.Errorf("stopped: memory in use %s, over the limit of %s (raise it with --max-memory)", byteSize(m).ceilMiB(), l.maxMemory)
				}
			}
		}
	}
}

// writeAll writes files under dir, all or none: each goes to a temporary
// file beside its target first; once all are written, each target (after
// moving any file already there aside) is replaced by its temporary file.
// If anything fails, every file written so far is removed, the files moved
// aside are put back and the directories it created are removed, and the
// error names the file that failed.
func writeAll(dir string, files []compiler.File) (err error) {
	type entry struct {
		target, tmp, backup string
		placed              bool
	}
	var entries []*entry
	var madeDirs []string
	defer func() {
		if err == nil {
			for _, e := range entries {
				if e.backup != "" {
					os.Remove(e.backup)
				}
			}
			return
		}
		for i := len(entries) - 1; i >= 0; i-- {
			e := entries[i]
			if e.placed {
				os.Remove(e.target)
			}
			if e.backup != "" {
				os.Rename(e.backup, e.target)
			}
			if e.tmp != "" {
				os.Remove(e.tmp)
			}
		}
		for i := len(madeDirs) - 1; i >= 0; i-- {
			os.Remove(madeDirs[i]) // only if empty
		}
	}()
	for _, f := range files {
		target := filepath.Join(dir, filepath.FromSlash(f.Name))
		made, err := mkdirAll(filepath.Dir(target))
		madeDirs = append(madeDirs, made...)
		if err != nil {
			return fmt.Errorf("writing %s: %w (no file written)", target, err)
		}
		entries = append(entries, &entry{target: target})
	}
	// The temporary files are written on GOMAXPROCS goroutines: googleapis'
	// 25 MB in 122 files took 0.14 s on one, after the compile.
	errs := make([]error, len(entries))
	parallel.For(len(entries), func(_, i int) {
		e := entries[i]
		tf, err := os.CreateTemp(filepath.Dir(e.target), ".protoplay-*.tmp")
		if err != nil {
			errs[i] = fmt.Errorf("writing %s: %w (no file written)", e.target, err)
			return
		}
		e.tmp = tf.Name()
		_, werr := tf.WriteString(files[i].Content)
		cerr := tf.Close()
		if werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Chmod(e.tmp, 0o644)
		}
		if werr != nil {
			errs[i] = fmt.Errorf("writing %s: %w (no file written)", e.target, werr)
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	for _, e := range entries {
		if st, err := os.Lstat(e.target); err == nil && st.Mode().IsRegular() {
			e.backup = e.tmp + ".old"
			if err := os.Rename(e.target, e.backup); err != nil {
				e.backup = ""
				return fmt.Errorf("replacing %s: %w (no file written)", e.target, err)
			}
		}
		if err := os.Rename(e.tmp, e.target); err != nil {
			return fmt.Errorf("writing %s: %w (no file written)", e.target, err)
		}
		e.tmp, e.placed = "", true
	}
	return nil
}

// mkdirAll is os.MkdirAll that returns the directories it created,
// outermost first.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || !errors.Is(err, os.ErrNotExist) {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	var made []string
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return made, err
		}
		made = append(made, missing[i])
	}
	return made, os.MkdirAll(dir, 0o755)
}

// byteSize is a size flag: a number of bytes, optionally with a unit (KiB,
// MiB, GiB; KB, MB, GB are powers of 1000; B).
type byteSize uint64

func (b *byteSize) Set(s string) error {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   uint64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}}
	mult := uint64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v*float64(mult) > 1<<62 {
		return fmt.Errorf("not a size: %q (want e.g. 512MiB, 2GiB or a number of bytes)", s)
	}
	*b = byteSize(v * float64(mult))
	return nil
}

// ceilMiB is b rounded up to a whole MiB, so that a size just over a
// limit never prints as the limit.
func (b byteSize) ceilMiB() byteSize { return (b + 1<<20 - 1) &^ (1<<20 - 1) }

func (b byteSize) String() string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return strconv.FormatUint(uint64(b)>>30, 10) + "GiB"
	case b >= 1<<20 && b%(1<<20) == 0:
		return strconv.FormatUint(uint64(b)>>20, 10) + "MiB"
	case b >= 1<<20:
		return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) + "MiB"
	}
	return strconv.FormatUint(uint64(b), 10) + "B"
}

// parseOpts reads --opt values into generator options: one --opt may hold
// several, comma-separated, as protoc's --protoplay_opt does and as the
// playground shows them.
func parseOpts(opts multiFlag) (compiler.Options, error) {
	var o compiler.Options
	for _, opt := range opts {
		for _, kv := range strings.Split(opt, ",") {
			if kv == "" {
				continue
			}
			if err := o.Set(kv); err != nil {
				return o, err
			}
		}
	}
	return o, nil
}

// dirImportPath returns the Go import path of directory dir (which need not
// exist yet) in the module of the nearest go.mod at or above it: the
// module path and dir's path below the go.mod's directory. ok is false
// when there is no go.mod above dir, or its module directive cannot be
// read.
func dirImportPath(dir string) (string, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for d := abs; ; {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			mod := modulePath(b)
			if mod == "" {
				return "", false
			}
			rel, err := filepath.Rel(d, abs)
			if err != nil {
				return "", false
			}
			if rel == "." {
				return mod, true
			}
			return mod + "/" + filepath.ToSlash(rel), true
		}
		up := filepath.Dir(d)
		if up == d {
			return "", false
		}
		d = up
	}
}

// modulePath is the path of the module directive of a go.mod file
// (https://go.dev/ref/mod#go-mod-file-module), "" when it has none.
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		line, _, _ = strings.Cut(line, "//")
		f := strings.Fields(line)
		if len(f) != 2 || f[0] != "module" {
			continue
		}
		if p, err := strconv.Unquote(f[1]); err == nil {
			return p
		}
		return f[1]
	}
	return ""
}
