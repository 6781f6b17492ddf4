package payload

import (
	"sort"
	"unicode/utf8"

	"github.com/protoplay/protoplay/compiler/diag"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Limits of RankTypes.
const (
	// MaxFitResults is the most types RankTypes returns.
	MaxFitResults = 20
	// MaxFitProbeFields is how many top-level fields of a payload the
	// first pass of RankTypes compares with every message type; the
	// MaxFitFinalists best of that pass are then scored on the whole
	// payload. So ranking costs about (types × MaxFitProbeFields) +
	// (MaxFitFinalists × payload bytes), whatever the number of types.
	MaxFitProbeFields = 4096
	// MaxFitFinalists is how many types the second pass of RankTypes
	// scores on every byte of the payload.
	MaxFitFinalists = 32
)

// Fit says how well a payload parses as one message type (RankTypes).
type Fit struct {
	// Type is the message type's full name.
	Type string `json:"type"`
	// Score is the share of the payload's bytes that the type explains,
	// from 0 to 1: the bytes of fields whose number the type defines with
	// the wire type read, whose length is consumed by the value (packed
	// elements, a nested message's own fields, recursively), and whose
	// strings are valid UTF-8. 1 means every byte fits.
	Score float64 `json:"score"`
	// Fields is the number of fields read, nested ones included.
	Fields int `json:"fields"`
	// Known is how many of them the type defines with that wire type.
	Known int `json:"known"`
	// Unknown is how many have a number the type does not define.
	Unknown int `json:"unknown"`
	// Mismatched is how many have a defined number but another wire type
	// (or a packed value that does not parse).
	Mismatched int `json:"mismatched"`
	// BadStrings is how many string fields hold invalid UTF-8.
	BadStrings int `json:"badStrings"`
	// ZeroImplicit is how many fields of implicit presence (proto3
	// scalars) hold their zero value, which an encoder of the type would
	// not have written: it tells a proto2 payload from a proto3 one of
	// the same shape, after Score and Known.
	ZeroImplicit int `json:"zeroImplicit"`
	// Rank is the fit's place, from 1: types that fit the same (equal
	// Score, Known and ZeroImplicit: the same wire shape, as far as the
	// payload shows) share a rank.
	Rank int `json:"rank"`
}

// RankTypes scores payload, binary bytes, as each of the message types
// mds and returns the best n (at most MaxFitResults; n <= 0 means 5),
// best first: by Score, then by the number of known fields, then by
// name. A payload that is not a well-formed sequence of fields (see
// DecodeRaw) fits no type: its *diag.Error of kind diag.KindPayload, with
// the byte offset, is returned. Input over MaxInputBytes is diag.KindLimit.
//
// The first pass compares the first MaxFitProbeFields top-level fields
// with each type (number and wire type only); the best MaxFitFinalists
// then have every byte scored, nested messages, groups, packed fields and
// map entries included, down to MaxDepth (deeper values count as not
// fitting).
func (s *Schema) RankTypes(payload []byte, mds []protoreflect.MessageDescriptor, n int) ([]Fit, error) {
	if err := checkSize(len(payload)); err != nil {
		return nil, err
	}
	if n <= 0 {
		n = 5
	}
	n = min(n, MaxFitResults)
	if !validMessage(payload, 0) {
		if _, err := DecodeRaw(payload); err != nil {
			return nil, err
		}
		return nil, diag.New(diag.KindPayload, "the payload is not a well-formed message")
	}
	top := topFields(payload, MaxFitProbeFields)
	type probe struct {
		md    protoreflect.MessageDescriptor
		score float64
	}
	probes := make([]probe, 0, len(mds))
	for _, md := range mds {
		md = s.resolve(md)
		good, total := 0, 0
		for _, f := range top {
			total += f.size
			if fd := md.Fields().ByNumber(f.num); fd != nil && wireFits(fd, f.wt) {
				good += f.size
			}
		}
		sc := 0.0
		if total > 0 {
			sc = float64(good) / float64(total)
		}
		probes = append(probes, probe{md, sc})
	}
	sort.SliceStable(probes, func(i, j int) bool { return probes[i].score > probes[j].score })
	probes = probes[:min(len(probes), MaxFitFinalists)]
	out := make([]Fit, 0, len(probes))
	for _, p := range probes {
		f := Fit{Type: string(p.md.FullName())}
		good, _ := fitFields(payload, p.md, 1, &f)
		f.Score = 1
		if len(payload) > 0 {
			f.Score = float64(good) / float64(len(payload))
		}
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Known != b.Known {
			return a.Known > b.Known
		}
		if a.ZeroImplicit != b.ZeroImplicit {
			return a.ZeroImplicit < b.ZeroImplicit
		}
		return a.Type < b.Type
	})
	for i := range out {
		out[i].Rank = i + 1
		if p := out[max(i-1, 0)]; i > 0 && p.Score == out[i].Score && p.Known == out[i].Known && p.ZeroImplicit == out[i].ZeroImplicit {
			out[i].Rank = p.Rank
		}
	}
	return out[:min(len(out), n)], nil
}

type topField struct {
	num  protowire.Number
	wt   int
	size int
}

// topFields lists the first max top-level fields of b, a well-formed
// message (validMessage).
func topFields(b []byte, max int) []topField {
	var out []topField
	for pos := 0; pos < len(b) && len(out) < max; {
		num, wt, n := nextTag(b[pos:])
		if n < 0 {
			break
		}
		m := fieldValueLen(b[pos+n:], num, wt)
		if m < 0 {
			break
		}
		out = append(out, topField{num, wt, n + m})
		pos += n + m
	}
	return out
}

// fieldValueLen is the length of the value after a tag (for a group, up
// to and including its EGROUP tag), or -1.
func fieldValueLen(b []byte, num protowire.Number, wt int) int {
	if wt == wtEGroup {
		return -1
	}
	return protowire.ConsumeFieldValue(num, protowire.Type(wt), b)
}

// wireFits reports whether wire type wt is one that fd is read from:
// its own, or LEN for a packable repeated scalar.
func wireFits(fd protoreflect.FieldDescriptor, wt int) bool {
	want := wireTypeOf(fd)
	if want == wt {
		return true
	}
	return wt == wtLen && fd.IsList() && want != wtLen && want != wtSGroup
}

// wireTypeOf is the wire type a value of fd's kind is written with.
func wireTypeOf(fd protoreflect.FieldDescriptor) int {
	switch fd.Kind() {
	case protoreflect.BoolKind, protoreflect.EnumKind, protoreflect.Int32Kind, protoreflect.Sint32Kind,
		protoreflect.Uint32Kind, protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Uint64Kind:
		return wtVarint
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		return wtI32
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		return wtI64
	case protoreflect.GroupKind:
		return wtSGroup
	}
	return wtLen
}

// fitFields scores b, well-formed fields, as message md at depth depth,
// adding counts to f, and returns how many of b's bytes fit and where it
// stopped: at the end of b, or at an EGROUP tag (a group's end).
func fitFields(b []byte, md protoreflect.MessageDescriptor, depth int, f *Fit) (good, stop int) {
	pos := 0
	for pos < len(b) {
		num, wt, n := nextTag(b[pos:])
		if n < 0 || wt == wtEGroup {
			return good, pos
		}
		m := fieldValueLen(b[pos+n:], num, wt)
		if m < 0 {
			return good, pos
		}
		f.Fields++
		fd := md.Fields().ByNumber(num)
		if fd == nil {
			if xd := md.ExtensionRanges(); xd.Has(num) {
				// An extension the schema may define elsewhere: neither
				// known nor foreign.
				pos += n + m
				continue
			}
			f.Unknown++
			pos += n + m
			continue
		}
		if !wireFits(fd, wt) {
			f.Mismatched++
			pos += n + m
			continue
		}
		bad := f.BadStrings
		g, ok := fitValue(b[pos+n:pos+n+m], fd, wt, depth, f)
		switch {
		case ok:
			f.Known++
			good += n + g
		case f.BadStrings == bad:
			f.Mismatched++
		}
		pos += n + m
	}
	return good, pos
}

// fitValue scores the value v (after the tag) of field fd read with wire
// type wt, and returns the bytes that fit and whether the value does.
func fitValue(v []byte, fd protoreflect.FieldDescriptor, wt, depth int, f *Fit) (int, bool) {
	switch {
	case wt == wtSGroup:
		if depth >= MaxDepth {
			return 0, false
		}
		// v ends with the EGROUP tag, where fitFields stops.
		g, stop := fitFields(v, fd.Message(), depth+1, f)
		return g + len(v) - stop, true
	case wt != wtLen:
		if !fd.HasPresence() && !fd.IsList() && zeroScalar(v, wt) {
			f.ZeroImplicit++
		}
		return len(v), true
	}
	l, n := protowire.ConsumeVarint(v)
	val := v[n : n+int(l)]
	switch {
	case fd.IsList() && wireTypeOf(fd) != wtLen:
		if !checkPacked(val, wireTypeOf(fd)) {
			return 0, false
		}
		return len(v), true
	case fd.Kind() == protoreflect.StringKind:
		if !utf8.Valid(val) {
			f.BadStrings++
			return 0, false
		}
		if len(val) == 0 && !fd.HasPresence() && !fd.IsList() {
			f.ZeroImplicit++
		}
		return len(v), true
	case fd.Kind() == protoreflect.MessageKind:
		if depth >= MaxDepth || !validMessage(val, 0) {
			return 0, false
		}
		g, _ := fitFields(val, fd.Message(), depth+1, f)
		return n + g, true
	}
	return len(v), true
}

// zeroScalar reports whether v, a VARINT, I32 or I64 value, is zero (for
// I32 and I64, all bits zero: -0.0 is not a zero value).
func zeroScalar(v []byte, wt int) bool {
	switch wt {
	case wtVarint:
		x, _ := protowire.ConsumeVarint(v)
		return x == 0
	case wtI32, wtI64:
		for _, c := range v {
			if c != 0 {
				return false
			}
		}
		return true
	}
	return false
}
