package main

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Go's linker writes a wasm module's data section (the initial contents
// of linear memory: rodata, type data, pclntab, noptrdata, data) as one
// active segment per run of non-zero bytes, splitting wherever at least 8
// zero bytes follow one another, up to 100,000 segments (the rest of the
// memory then goes as one segment, zeros and all). Each segment costs a
// header (memory index, i32.const offset, end, length) of 6 to 11 bytes
// that compression can do little with, while a run of zeros compresses
// to almost nothing. On the core (Go 1.26, 2026-11-30) the linker wrote
// 100,000 segments: 5.70 MB of section, 957 KB of it brotli.
//
// packDataSegments rewrites the data section with a segment for each run
// of memory that no run of at least packZeroRun zeros interrupts: the
// core's 100,000 segments become 38. Memory after instantiation is the
// same bytes (linear memory starts zeroed; the test checks the image and
// runs a packed Go program), and instantiation has fewer segments to
// copy. Measured on the core (Go 1.26, -trimpath -ldflags=-s -w, the
// builder's brotli: quality 11, 16 MiB window): 15.83 MB raw, 3.35 MB
// gzip, 2.330 MB brotli as linked; 16.76 MB raw, 3.17 MB gzip, 2.212 MB
// brotli packed (-118 KB); the data section alone went from 957 KB to
// 845 KB brotli. The interpreter's module (wasm/interp): 18.13 MB, 3.98
// MB, 2.579 MB as linked; 19.06 MB, 3.79 MB, 2.462 MB packed. packZeroRun
// 1024 gave 2 segments fewer and 600 bytes more brotli; 8 without the
// linker's cap, 2.75 MB brotli at quality 9 (against 2.58 MB for 64). The
// code is untouched, so the edit loop is too; Node 20's
// WebAssembly.compile and instantiate of the core took no longer packed
// (instantiate median 5.2-5.6 ms against 5.8-6.3 ms, 5 runs each, twice).
const packZeroRun = 64

// packDataSegments returns module with its data section rewritten as
// above, or module itself when it has no data section. An error when the
// module is not a wasm binary (version 1) this function understands:
// its data segments must be active, for memory 0, at an i32.const offset,
// and must not overlap.
func packDataSegments(module []byte) ([]byte, error) {
	secs, err := wasmSections(module)
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), module[:8]...)
	packed := false
	for _, s := range secs {
		body := s.body
		switch s.id {
		case wasmSectionData:
			segs, err := dataSegments(body)
			if err != nil {
				return nil, err
			}
			packedSegs := packSegments(segs, packZeroRun)
			body = appendDataSection(nil, packedSegs)
			packed = true
		case wasmSectionDataCount:
			return nil, errors.New("wasm: a data count section, which packDataSegments does not update")
		}
		out = append(out, s.id)
		out = binary.AppendUvarint(out, uint64(len(body)))
		out = append(out, body...)
	}
	if !packed {
		return module, nil
	}
	return out, nil
}

const (
	wasmSectionData      = 11
	wasmSectionDataCount = 12
)

// A wasmSection is one section of a module: its id and its content.
type wasmSection struct {
	id   byte
	body []byte
}

// wasmSections splits a wasm binary (magic "\0asm", version 1) into its
// sections.
func wasmSections(module []byte) ([]wasmSection, error) {
	if len(module) < 8 || string(module[:8]) != "\x00asm\x01\x00\x00\x00" {
		return nil, errors.New("wasm: not a version 1 wasm binary")
	}
	var secs []wasmSection
	for p := module[8:]; len(p) > 0; {
		id := p[0]
		size, n := binary.Uvarint(p[1:])
		if n <= 0 || uint64(len(p)-1-n) < size {
			return nil, fmt.Errorf("wasm: section %d: bad size", id)
		}
		secs = append(secs, wasmSection{id, p[1+n : 1+n+int(size)]})
		p = p[1+n+int(size):]
	}
	return secs, nil
}

// A dataSegment is an active segment of memory 0: data goes at offset.
type dataSegment struct {
	offset uint32
	data   []byte
}

// dataSegments reads a data section's segments, which must be active,
// for memory 0, at an i32.const offset, and must not overlap. It returns
// them in increasing order of offset (Go's linker writes its sections'
// segments in its own order, not the addresses').
func dataSegments(body []byte) ([]dataSegment, error) {
	count, n := binary.Uvarint(body)
	if n <= 0 {
		return nil, errors.New("wasm: data section: bad segment count")
	}
	p := body[n:]
	var segs []dataSegment
	for i := uint64(0); i < count; i++ {
		// 0x00 (active, memory 0), 0x41 (i32.const) offset, 0x0b (end).
		if len(p) < 2 || p[0] != 0 || p[1] != 0x41 {
			return nil, fmt.Errorf("wasm: data segment %d: not an active segment of memory 0 at an i32.const offset", i)
		}
		off, n := readSleb32(p[2:])
		if n <= 0 || len(p) < 2+n+1 || p[2+n] != 0x0b || off < 0 {
			return nil, fmt.Errorf("wasm: data segment %d: bad offset", i)
		}
		p = p[2+n+1:]
		size, n := binary.Uvarint(p)
		if n <= 0 || uint64(len(p)-n) < size || uint64(off)+size > 1<<32 {
			return nil, fmt.Errorf("wasm: data segment %d: bad size", i)
		}
		segs = append(segs, dataSegment{uint32(off), p[n : n+int(size)]})
		p = p[n+int(size):]
	}
	if len(p) != 0 {
		return nil, errors.New("wasm: data section: bytes after the last segment")
	}
	slices.SortStableFunc(segs, func(a, b dataSegment) int { return cmp.Compare(a.offset, b.offset) })
	for i := 1; i < len(segs); i++ {
		if prev := segs[i-1]; uint64(prev.offset)+uint64(len(prev.data)) > uint64(segs[i].offset) {
			return nil, fmt.Errorf("wasm: data segments at %d (%d bytes) and %d overlap", prev.offset, len(prev.data), segs[i].offset)
		}
	}
	return segs, nil
}

// packSegments returns the segments that put the same bytes in memory as
// segs (in increasing order of offset, not overlapping), split only at
// runs of at least minZeros zero bytes, which no segment holds (nor
// starts or ends with a zero).
func packSegments(segs []dataSegment, minZeros int) []dataSegment {
	var out []dataSegment
	var cur []byte // the segment being built, at offset start
	var start uint32
	add := func(off uint32, run []byte) {
		if cur != nil && int64(off)-int64(start)-int64(len(cur)) < int64(minZeros) {
			cur = append(cur, make([]byte, int(off-start)-len(cur))...)
			cur = append(cur, run...)
			return
		}
		if cur != nil {
			out = append(out, dataSegment{start, cur})
		}
		start, cur = off, append([]byte(nil), run...)
	}
	for _, s := range segs {
		// The runs of s between zeros (zeros shorter than minZeros
		// stay inside a run: add merges them anyway).
		d := s.data
		for i := 0; i < len(d); {
			for i < len(d) && d[i] == 0 {
				i++
			}
			j := i
			for j < len(d) && d[j] != 0 {
				j++
			}
			if j > i {
				add(s.offset+uint32(i), d[i:j])
			}
			i = j
		}
	}
	if cur != nil {
		out = append(out, dataSegment{start, cur})
	}
	return out
}

// appendDataSection appends the data section body holding segs.
func appendDataSection(b []byte, segs []dataSegment) []byte {
	b = binary.AppendUvarint(b, uint64(len(segs)))
	for _, s := range segs {
		b = append(b, 0, 0x41)
		b = appendSleb32(b, int32(s.offset))
		b = append(b, 0x0b)
		b = binary.AppendUvarint(b, uint64(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}

// readSleb32 reads a signed LEB128 of at most 5 bytes; n <= 0 when p
// does not start with one.
func readSleb32(p []byte) (v int32, n int) {
	var x int64
	var shift uint
	for n = 0; n < len(p) && n < 5; n++ {
		c := p[n]
		x |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				x |= -1 << shift
			}
			if x < -1<<31 || x >= 1<<31 {
				return 0, 0
			}
			return int32(x), n + 1
		}
	}
	return 0, 0
}

// appendSleb32 appends v as a signed LEB128.
func appendSleb32(b []byte, v int32) []byte {
	x := int64(v)
	for {
		c := byte(x & 0x7f)
		x >>= 7
		if (x == 0 && c&0x40 == 0) || (x == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
