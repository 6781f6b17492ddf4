package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// memoryImage describes the memory a module's data segments initialize
// as its runs of non-zero bytes ("offset:bytes" each), and counts the
// segments.
func memoryImage(t *testing.T, module []byte) (runs []string, segments int) {
	t.Helper()
	secs, err := wasmSections(module)
	if err != nil {
		t.Fatal(err)
	}
	var cur []byte
	var start, end uint32
	flush := func() {
		if len(cur) > 0 {
			runs = append(runs, fmt.Sprintf("%d:%x", start, cur))
		}
		cur = nil
	}
	for _, s := range secs {
		if s.id != wasmSectionData {
			continue
		}
		segs, err := dataSegments(s.body)
		if err != nil {
			t.Fatal(err)
		}
		segments += len(segs)
		for _, sg := range segs {
			for i, c := range sg.data {
				at := sg.offset + uint32(i)
				if c == 0 {
					continue
				}
				if len(cur) == 0 || at != end {
					flush()
					start = at
				}
				cur = append(cur, c)
				end = at + 1
			}
		}
	}
	flush()
	return runs, segments
}

// testModule is a wasm binary with a custom section, the given data
// segments and a trailing custom section.
func testModule(segs ...dataSegment) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	custom := append([]byte{4}, "test"...)
	m = append(append(append(m, 0), byte(len(custom))), custom...)
	data := appendDataSection(nil, segs)
	m = append(m, wasmSectionData)
	m = binary.AppendUvarint(m, uint64(len(data)))
	m = append(m, data...)
	return append(append(append(m, 0), byte(len(custom))), custom...)
}

// Segments separated by fewer than packZeroRun zeros merge, longer runs
// of zeros (inside a segment too) split, leading and trailing zeros go,
// and the memory image and the other sections stay as they were.
func TestPackDataSegments(t *testing.T) {
	long := make([]byte, packZeroRun)
	seg := func(off uint32, parts ...string) dataSegment {
		return dataSegment{off, []byte(strings.Join(parts, ""))}
	}
	module := testModule(
		seg(1024, "\x00\x00ab"),
		seg(1036, "cd"),                       // 8 zeros after "ab": merged
		seg(1100, "e", string(long), "f\x00"), // a long run inside: split
		seg(1100+2+packZeroRun+packZeroRun, "g"),
		seg(70000, "h"),
		seg(1<<30, "\xff"), // an offset whose i32.const takes 5 bytes
	)
	wantMem, n := memoryImage(t, module)
	if n != 6 {
		t.Fatalf("the test module has %d segments", n)
	}
	packed, err := packDataSegments(module)
	if err != nil {
		t.Fatal(err)
	}
	gotMem, _ := memoryImage(t, packed)
	if !slices.Equal(gotMem, wantMem) {
		t.Error("packing changed the memory image")
	}
	secs, _ := wasmSections(packed)
	segs, _ := dataSegments(secs[1].body)
	var got []string
	for _, s := range segs {
		got = append(got, strings.ReplaceAll(string(s.data), "\x00", "."))
	}
	want := []string{"ab........cd" + strings.Repeat(".", 1100-1038) + "e", "f", "g", "h", "\xff"}
	if strings.Join(got, "|") != strings.Join(want, "|") || segs[0].offset != 1026 || segs[4].offset != 1<<30 {
		t.Errorf("packed segments %q at %d.., want %q at 1026..", got, segs[0].offset, want)
	}
	if orig, _ := wasmSections(module); len(secs) != 3 || secs[0].id != 0 || !bytes.Equal(secs[2].body, orig[2].body) {
		t.Error("the other sections changed")
	}

	// A module without data is returned as is.
	plain := []byte("\x00asm\x01\x00\x00\x00\x00\x05\x04test")
	if out, err := packDataSegments(plain); err != nil || !bytes.Equal(out, plain) {
		t.Errorf("without a data section: %q, %v", out, err)
	}
	// What the function does not understand is an error, not a guess.
	for name, m := range map[string][]byte{
		"not wasm":   []byte("\x00asm\x02\x00\x00\x00"),
		"overlap":    testModule(seg(100, "abcd"), seg(102, "x")),
		"passive":    append([]byte("\x00asm\x01\x00\x00\x00"), wasmSectionData, 4, 1, 1, 1, 'x'),
		"data count": append(testModule(seg(100, "a")), wasmSectionDataCount, 1, 1),
		"truncated":  testModule(seg(100, "abc"))[:30],
	} {
		if _, err := packDataSegments(m); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A Go program built for GOOS=js GOARCH=wasm prints the same after
// packing: type data (fmt of a struct), pclntab (a function's name and
// line from its PC, stack growth and a collection, which read stack maps)
// and initialized data all come from the data section.
func TestPackedGoWasmRuns(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the packed wasm is not run")
	}
	dir := t.TempDir()
	prog := `package main

import (
	"fmt"
	"runtime"
	"strings"
)

type point struct {
	X, Y int
	Name string
}

var table = [...]uint64{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 1 << 40, 3}

func deep(n int) int {
	var pad [256]byte
	pad[n%256] = byte(n)
	if n == 0 {
		pc, file, line, _ := runtime.Caller(0)
		fmt.Println(runtime.FuncForPC(pc).Name(), file[strings.LastIndex(file, "/")+1:], line)
		runtime.GC()
		return 0
	}
	return deep(n-1) + int(pad[n%256])
}

func main() {
	fmt.Printf("%+v %v\n", point{1, 2, "p"}, table)
	fmt.Println(deep(2000), strings.Repeat("z", 3))
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module packtest\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	orig := filepath.Join(dir, "orig.wasm")
	build := exec.Command("go", "build", "-o", orig, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOFLAGS=", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	module, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	packed, err := packDataSegments(module)
	if err != nil {
		t.Fatal(err)
	}
	origMem, origSegs := memoryImage(t, module)
	packedMem, packedSegs := memoryImage(t, packed)
	if !slices.Equal(origMem, packedMem) {
		t.Fatal("packing changed the memory image")
	}
	if packedSegs >= origSegs {
		t.Errorf("%d segments packed into %d", origSegs, packedSegs)
	}
	packedPath := filepath.Join(dir, "packed.wasm")
	if err := os.WriteFile(packedPath, packed, 0o644); err != nil {
		t.Fatal(err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	runWasm := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "go_js_wasm_exec")
	var outs []string
	for _, w := range []string{orig, packedPath} {
		out, err := exec.Command(runWasm, w).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", filepath.Base(w), err, out)
		}
		outs = append(outs, string(out))
	}
	if !strings.Contains(outs[0], "main.deep main.go 20") || !strings.Contains(outs[0], "{X:1 Y:2 Name:p}") {
		t.Fatalf("the program printed %q", outs[0])
	}
	if outs[1] != outs[0] {
		t.Errorf("packed, the program printed %q; as linked %q", outs[1], outs[0])
	}
	t.Logf("%d segments, %d bytes -> %d segments, %d bytes", origSegs, len(module), packedSegs, len(packed))
}
