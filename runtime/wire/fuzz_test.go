package wire_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/protoplay/protoplay/runtime/wire"
)

// record is one top-level field record found by a walk.
type record struct {
	num int32
	typ wire.Type
	n   int // tag and value
}

// outcome is what a walk over a whole message found: the records before the
// first error, and that error's sentinel and offset (nil, 0 if valid).
type outcome struct {
	recs   []record
	err    error
	offset int
}

func (o outcome) String() string {
	return fmt.Sprintf("%d records %v, err %v at %d", len(o.recs), o.recs, o.err, o.offset)
}

func (o outcome) equal(p outcome) bool {
	if len(o.recs) != len(p.recs) || o.err != p.err || o.offset != p.offset {
		return false
	}
	for i := range o.recs {
		if o.recs[i] != p.recs[i] {
			return false
		}
	}
	return true
}

// walkChecked is walk, recording what it found and checking every n the
// package returns against the bounds of its input, and that ConsumeGroup and
// ConsumeBytes agree with ConsumeFieldValue.
func walkChecked(t *testing.T, b []byte, depth int) outcome {
	var o outcome
	for i := 0; i < len(b); {
		rest := b[i:]
		num, typ, n := wire.ConsumeTag(rest)
		if n < 0 {
			o.err, o.offset = sentinel(t, n), i
			return o
		}
		if n == 0 || n > len(rest) || n > wire.MaxTagBytes {
			t.Fatalf("ConsumeTag at %d: n = %d out of bounds (%d left)", i, n, len(rest))
		}
		if num < wire.MinValidNumber || num > wire.MaxValidNumber || typ > wire.Fixed32Type {
			t.Fatalf("ConsumeTag at %d accepted field %d, wire type %d", i, num, typ)
		}
		val := rest[n:]
		m := wire.ConsumeFieldValue(num, typ, val, depth)
		if m < 0 {
			o.err, o.offset = sentinel(t, m), i+n
			return o
		}
		if m == 0 || m > len(val) {
			t.Fatalf("ConsumeFieldValue(%d, %d) at %d: n = %d out of bounds (%d left)", num, typ, i+n, m, len(val))
		}
		switch typ {
		case wire.BytesType:
			v, k := wire.ConsumeBytes(val)
			if k != m || len(v) > k || !bytes.Equal(v, val[k-len(v):k]) {
				t.Fatalf("ConsumeBytes at %d = %d bytes, n %d; ConsumeFieldValue n %d", i+n, len(v), k, m)
			}
		case wire.StartGroupType:
			v, k := wire.ConsumeGroup(num, val, depth)
			if k != m || len(v) >= k || !bytes.Equal(v, val[:len(v)]) {
				t.Fatalf("ConsumeGroup at %d = %d bytes, n %d; ConsumeFieldValue n %d", i+n, len(v), k, m)
			}
			// What follows v is exactly the matching END_GROUP tag.
			if en, et, el := wire.ConsumeTag(val[len(v):]); en != num || et != wire.EndGroupType || len(v)+el != k {
				t.Fatalf("ConsumeGroup at %d: v is not followed by its END_GROUP tag", i+n)
			}
		}
		o.recs = append(o.recs, record{num, typ, n + m})
		i += n + m
	}
	return o
}

// oracleWalk decodes b with protowire's primitives and this package's
// stricter rules written out separately: field numbers above MaxValidNumber
// are errors, groups nest at most depth deep, and a LEN running past the end
// is ErrLength. It reports errors at the offsets walk uses.
func oracleWalk(b []byte, depth int) outcome {
	var o outcome
	for i := 0; i < len(b); {
		num, typ, n, err := oracleTag(b[i:])
		if err != nil {
			o.err, o.offset = err, i
			return o
		}
		m, err := oracleValue(num, typ, b[i+n:], depth)
		if err != nil {
			o.err, o.offset = err, i+n
			return o
		}
		o.recs = append(o.recs, record{int32(num), wire.Type(typ), n + m})
		i += n + m
	}
	return o
}

func oracleTag(b []byte) (protowire.Number, protowire.Type, int, error) {
	// A tag is at most 5 bytes; protowire reads up to 10.
	if len(b) >= 5 && b[0]&b[1]&b[2]&b[3]&b[4] >= 0x80 {
		return 0, 0, 0, wire.ErrTagOverlong
	}
	num, typ, n := protowire.ConsumeTag(b)
	switch {
	case n < 0:
		return 0, 0, 0, pwSentinel(n)
	case num > protowire.MaxValidNumber: // protowire allows these for MessageSet
		return 0, 0, 0, wire.ErrFieldNumber
	case typ > protowire.Fixed32Type || typ < 0:
		return 0, 0, 0, wire.ErrWireType
	}
	return num, typ, n, nil
}

func oracleValue(num protowire.Number, typ protowire.Type, b []byte, depth int) (int, error) {
	n := 0
	switch typ {
	case protowire.VarintType:
		_, n = protowire.ConsumeVarint(b)
	case protowire.Fixed32Type:
		_, n = protowire.ConsumeFixed32(b)
	case protowire.Fixed64Type:
		_, n = protowire.ConsumeFixed64(b)
	case protowire.BytesType:
		length, k := protowire.ConsumeVarint(b)
		if k >= 0 && length > uint64(len(b)-k) {
			return 0, wire.ErrLength
		}
		_, n = protowire.ConsumeBytes(b)
	case protowire.StartGroupType:
		if depth <= 0 {
			return 0, wire.ErrDepth
		}
		for i := 0; ; {
			num2, typ2, k, err := oracleTag(b[i:])
			if err != nil {
				return 0, err
			}
			i += k
			if typ2 == protowire.EndGroupType {
				if num2 != num {
					return 0, wire.ErrGroupMismatch
				}
				return i, nil
			}
			k, err = oracleValue(num2, typ2, b[i:], depth-1)
			if err != nil {
				return 0, err
			}
			i += k
		}
	default: // END_GROUP with no group open
		return 0, wire.ErrWireType
	}
	if n < 0 {
		return 0, pwSentinel(n)
	}
	return n, nil
}

// protowireWalk decodes b with protowire.ConsumeField alone.
func protowireWalk(b []byte) (recs []record, code int) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeField(b)
		if n < 0 {
			return recs, n
		}
		recs = append(recs, record{int32(num), wire.Type(typ), n})
		b = b[n:]
	}
	return recs, 0
}

// checkPrimitives compares the single-value Consume functions with
// protowire's at every offset of b.
func checkPrimitives(t *testing.T, b []byte) {
	for i := range len(b) + 1 {
		in := b[i:]
		v, n := wire.ConsumeVarint(in)
		pv, pn := protowire.ConsumeVarint(in)
		if n != pn && !(n < 0 && pn < 0) || n >= 0 && v != pv || n < 0 && sentinel(t, n) != pwSentinel(pn) {
			t.Fatalf("ConsumeVarint(% x) = %d, %d; protowire %d, %d", in, v, n, pv, pn)
		}
		v32, n := wire.ConsumeFixed32(in)
		pv32, pn := protowire.ConsumeFixed32(in)
		if n != pn && !(n < 0 && pn < 0) || v32 != pv32 {
			t.Fatalf("ConsumeFixed32(% x) = %d, %d; protowire %d, %d", in, v32, n, pv32, pn)
		}
		v, n = wire.ConsumeFixed64(in)
		pv, pn = protowire.ConsumeFixed64(in)
		if n != pn && !(n < 0 && pn < 0) || v != pv {
			t.Fatalf("ConsumeFixed64(% x) = %d, %d; protowire %d, %d", in, v, n, pv, pn)
		}
		bv, n := wire.ConsumeBytes(in)
		pbv, pn := protowire.ConsumeBytes(in)
		if n != pn && !(n < 0 && pn < 0) || !bytes.Equal(bv, pbv) || n > len(in) {
			t.Fatalf("ConsumeBytes(% x) = %d bytes, %d; protowire %d bytes, %d", in, len(bv), n, len(pbv), pn)
		}
		checkConsumeString(t, in, bv, n)
		num, typ, n := wire.ConsumeTag(in)
		pnum, ptyp, pn := protowire.ConsumeTag(in)
		if n >= 0 && (pn != n || int32(pnum) != num || wire.Type(ptyp) != typ) {
			t.Fatalf("ConsumeTag(% x) = %d, %d, %d; protowire %d, %d, %d", in, num, typ, n, pnum, ptyp, pn)
		}
		if n < 0 && pn >= 0 && pn <= wire.MaxTagBytes && pnum <= protowire.MaxValidNumber && ptyp <= protowire.Fixed32Type {
			t.Fatalf("ConsumeTag(% x) rejects (%v) what protowire accepts", in, sentinel(t, n))
		}
	}
}

// checkConsumeString checks Decoder.ConsumeString and ConsumeValidString on
// in against ConsumeBytes' result (bv, n) and utf8.Valid: the same length
// and error, the same contents as a string, and ErrUTF8 (through
// StringErrorAt) exactly for contents that are not valid UTF-8.
func checkConsumeString(t *testing.T, in, bv []byte, n int) {
	t.Helper()
	var d wire.Decoder
	s, sn := d.ConsumeString(in)
	if sn != n || n >= 0 && s != string(bv) || n < 0 && (s != "" || !errors.Is(wire.ErrorAt(0, sn), sentinel(t, n))) {
		t.Fatalf("ConsumeString(% x) = %q, %d; ConsumeBytes %q, %d", in, s, sn, bv, n)
	}
	vs, vn := d.ConsumeValidString(in)
	switch {
	case n >= 0 && utf8.Valid(bv):
		if vn != n || vs != string(bv) {
			t.Fatalf("ConsumeValidString(% x) = %q, %d; want %q, %d", in, vs, vn, bv, n)
		}
	case n >= 0:
		err := wire.StringErrorAt(7, vn, "pkg.M.f")
		var e *wire.Error
		if vn >= 0 || vs != "" || !errors.As(err, &e) || e.Err != wire.ErrUTF8 || e.Offset != 7 || e.Detail != "pkg.M.f" {
			t.Fatalf("ConsumeValidString(% x) (invalid UTF-8) = %q, %d: %v", in, vs, vn, err)
		}
	default:
		if vn != n || vs != "" || !errors.Is(wire.StringErrorAt(0, vn, "pkg.M.f"), sentinel(t, n)) {
			t.Fatalf("ConsumeValidString(% x) = %q, %d; ConsumeBytes fails with %d", in, vs, vn, n)
		}
	}
}

// FuzzConsume walks arbitrary input as a message, the way generated
// Unmarshal skips fields, and checks that nothing panics, every n is within
// bounds, and accept/reject (and the error and its offset) agree with
// protowire.
func FuzzConsume(f *testing.F) {
	// Seeds beyond testdata/fuzz/FuzzConsume: the depth limit, exactly met
	// and just exceeded (protowire's own limit is far higher).
	f.Add(nestedGroups(wire.DefaultMaxDepth))
	f.Add(nestedGroups(wire.DefaultMaxDepth + 1))
	f.Add(unhex("88 80 80 80 80 80 80 80 00 d2 09")) // 9-byte tag
	f.Add(unhex("f8 ff ff ff 0f 01"))                // field 2^29-1, 5-byte tag
	f.Fuzz(func(t *testing.T, data []byte) {
		checkPrimitives(t, data)

		for _, depth := range []int{wire.DefaultMaxDepth, 2} {
			got := walkChecked(t, data, depth)
			want := oracleWalk(data, depth)
			if !got.equal(want) {
				t.Fatalf("depth %d, input % x:\n got  %v\n want %v", depth, data, got, want)
			}
			if err := walk(data, depth); (err == nil) != (got.err == nil) {
				t.Fatalf("walk and walkChecked disagree: %v, %v", err, got.err)
			}
		}

		// Against protowire.ConsumeField as it stands: it accepts field
		// numbers up to 2^31-1, tags up to 10 bytes and nests groups
		// 10000 deep, so it may accept what we reject for those three
		// reasons only; it never rejects what we accept.
		got := walkChecked(t, data, wire.DefaultMaxDepth)
		precs, pcode := protowireWalk(data)
		stricter := got.err == wire.ErrFieldNumber || got.err == wire.ErrDepth || got.err == wire.ErrTagOverlong
		switch {
		case pcode == 0 && got.err == nil:
			if !got.equal(outcome{recs: precs}) {
				t.Fatalf("input % x: records differ:\n got  %v\n protowire %v", data, got.recs, precs)
			}
		case pcode == 0 && !stricter:
			t.Fatalf("input % x: rejected (%v) but protowire accepts", data, got)
		case pcode < 0 && got.err == nil:
			t.Fatalf("input % x: accepted but protowire rejects: %v", data, protowire.ParseError(pcode))
		case pcode < 0 && !stricter:
			pw := pwSentinel(pcode)
			ok := got.err == pw ||
				pw == wire.ErrTruncated && got.err == wire.ErrLength || // a LEN past the end
				pw == wire.ErrGroupMismatch && got.err == wire.ErrWireType // END_GROUP with none open
			if !ok {
				t.Fatalf("input % x: error %v, protowire %v", data, got.err, protowire.ParseError(pcode))
			}
		}
	})
}

var writeSeeds = flag.Bool("write-seeds", false, "write the named payloads to testdata/fuzz/FuzzConsume")

const seedDir = "testdata/fuzz/FuzzConsume"

// TestSeedCorpus checks that every named payload is a seed file for
// FuzzConsume, in the "go test fuzz v1" format, with the same bytes.
// Run with -write-seeds to (re)write them.
func TestSeedCorpus(t *testing.T) {
	for _, p := range payloads {
		path := filepath.Join(seedDir, p.name)
		want := unhex(p.hex)
		if *writeSeeds {
			if err := os.MkdirAll(seedDir, 0o755); err != nil {
				t.Fatal(err)
			}
			text := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", want)
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		text, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("payload %s has no seed file: %v (run go test -run TestSeedCorpus -write-seeds)", p.name, err)
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(text)), "\n")
		if len(lines) != 2 || lines[0] != "go test fuzz v1" ||
			!strings.HasPrefix(lines[1], "[]byte(") || !strings.HasSuffix(lines[1], ")") {
			t.Errorf("%s: not a go test fuzz v1 file with one []byte", path)
			continue
		}
		got, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
		if err != nil || got != string(want) {
			t.Errorf("%s holds %q (%v), want %q", path, got, err, want)
		}
	}
}
