package wire_test

import (
	"strconv"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/protoplay/protoplay/runtime/wire"
)

// Benchmarks time this package beside protowire on the same data, so that
// one run gives a ratio. They assert nothing about time.

const benchN = 1024 // values per benchmark iteration

// benchValues returns benchN values whose varints are size bytes long.
func benchValues(size int) []uint64 {
	r := newRand()
	vs := make([]uint64, benchN)
	for i := range vs {
		lo := uint64(0)
		if size > 1 {
			lo = 1 << (7 * (size - 1))
		}
		v := r.Uint64()
		if size < 10 {
			v = lo + v%(1<<(7*size)-lo)
		} else {
			v |= 1 << 63
		}
		vs[i] = v
	}
	return vs
}

var benchSizes = []int{1, 2, 5, 10}

// sumVarints decodes the varints in p and adds them up. Kept out of the
// benchmark closures so that p stays in registers, as in real decoders.
func sumVarints(p []byte) (sum uint64, ok bool) {
	for len(p) > 0 {
		v, n := wire.ConsumeVarint(p)
		if n < 0 {
			return 0, false
		}
		sum += v
		p = p[n:]
	}
	return sum, true
}

func sumVarintsProtowire(p []byte) (sum uint64, ok bool) {
	for len(p) > 0 {
		v, n := protowire.ConsumeVarint(p)
		if n < 0 {
			return 0, false
		}
		sum += v
		p = p[n:]
	}
	return sum, true
}

func BenchmarkConsumeVarint(b *testing.B) {
	for _, size := range benchSizes {
		var in []byte
		for _, v := range benchValues(size) {
			in = protowire.AppendVarint(in, v)
		}
		for _, impl := range []struct {
			name string
			sum  func([]byte) (uint64, bool)
		}{{"", sumVarints}, {"/protowire", sumVarintsProtowire}} {
			b.Run(strconv.Itoa(size)+"byte"+impl.name, func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					s, ok := impl.sum(in)
					if !ok {
						b.Fatal("bad input")
					}
					sink = s
				}
			})
		}
	}
}

// putVarints writes vs backward into buf, as generated Marshal does, and
// returns where the first one starts.
func putVarints(buf []byte, vs []uint64) int {
	i := len(buf)
	for _, v := range vs {
		i = wire.PutVarintRev(buf, i, v)
	}
	return i
}

func appendVarints(buf []byte, vs []uint64) int {
	out := buf[:0]
	for _, v := range vs {
		out = wire.AppendVarint(out, v)
	}
	return len(out)
}

func appendVarintsProtowire(buf []byte, vs []uint64) int {
	out := buf[:0]
	for _, v := range vs {
		out = protowire.AppendVarint(out, v)
	}
	return len(out)
}

func BenchmarkPutVarintRev(b *testing.B) {
	for _, size := range benchSizes {
		vs := benchValues(size)
		buf := make([]byte, size*len(vs))
		for _, impl := range []struct {
			name string
			put  func([]byte, []uint64) int
		}{{"", putVarints}, {"/AppendVarint", appendVarints}, {"/protowire.AppendVarint", appendVarintsProtowire}} {
			b.Run(strconv.Itoa(size)+"byte"+impl.name, func(b *testing.B) {
				b.SetBytes(int64(len(buf)))
				for b.Loop() {
					sink = uint64(impl.put(buf, vs))
				}
			})
		}
	}
}

func BenchmarkSizeVarint(b *testing.B) {
	var vs []uint64
	for _, size := range []int{1, 1, 1, 2, 2, 3, 5, 10} {
		vs = append(vs, benchValues(size)[:benchN/8]...)
	}
	b.Run("wire", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, v := range vs {
				n += wire.SizeVarint(v)
			}
		}
		sink = uint64(n)
	})
	b.Run("protowire", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, v := range vs {
				n += protowire.SizeVarint(v)
			}
		}
		sink = uint64(n)
	})
}

// BenchmarkWalk skips every field of a small message with a mix of wire
// types, as generated Unmarshal does for unknown fields.
func BenchmarkWalk(b *testing.B) {
	in := unhex("08 96 01 15 01 02 03 04 19 01 02 03 04 05 06 07 08 22 02 68 69 2b 08 01 2c 30 ff ff ff ff ff ff ff ff ff 01 " +
		"82 01 0b 68 65 6c 6c 6f 20 77 6f 72 6c 64 a0 06 01")
	b.Run("wire", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			if walkNoErr(in) != 0 {
				b.Fatal("bad input")
			}
		}
	})
	b.Run("protowire", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			for p := in; len(p) > 0; {
				_, _, n := protowire.ConsumeField(p)
				if n < 0 {
					b.Fatal(n)
				}
				p = p[n:]
			}
		}
	})
}

var sink uint64

var sinkInt32s [benchN]*int32

// BenchmarkPointerScalars takes benchN *int32 for proto2 optional fields one
// allocation each, as protoc-gen-go's decoder does, and from a Decoder's
// slabs.
func BenchmarkPointerScalars(b *testing.B) {
	b.Run("alloc-each", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range sinkInt32s {
				v := int32(i)
				sinkInt32s[i] = &v
			}
		}
	})
	b.Run("decoder", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var d wire.Decoder
			for i := range sinkInt32s {
				sinkInt32s[i] = d.Int32(int32(i))
			}
		}
	})
}
