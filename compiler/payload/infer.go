package payload

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/protoplay/protoplay/compiler/diag"
	"google.golang.org/protobuf/encoding/protowire"
)

// Limits of Infer.
const (
	// MaxInferSamples is the most payloads one Infer call reads.
	MaxInferSamples = 1000
	// MaxInferDepth is the deepest nesting of inferred message types, the
	// top-level type being depth 1: a LEN value deeper than that is
	// declared bytes; a group deeper than that is an error (diag.KindLimit),
	// since a group cannot be declared as anything but a message. The
	// inferred types are declared nested in one another, and protoc and
	// protocompile take message declarations nested less than 32 deep.
	MaxInferDepth = 31
	// maxDistinct is how many distinct varint values a field's statistics
	// remember, to tell enum-like fields.
	maxDistinct = 8
)

// InferOptions configures Infer.
type InferOptions struct {
	// Name is the top-level message's name; "Inferred" when empty.
	Name string `json:"name,omitempty"`
	// Package is the file's package; none when empty.
	Package string `json:"package,omitempty"`
}

// Infer reads samples, binary payloads of one (unknown) message type, and
// returns a .proto file (edition 2023) declaring a message that every
// sample decodes as with no unknown field, as far as the samples allow.
// Its field numbers are those seen; each field is named fieldN and typed
// from every value seen for N across the samples:
//
//   - VARINT: bool when every value is 0 or 1; an enum (FieldNEnum, open)
//     when few small values repeat (at least 4 values, at most 8 distinct,
//     all under 128); sint64 when at least 8 values under 2^32 are as
//     often odd as even (ZigZag makes small negatives odd); else int64.
//   - I32 and I64: float and double when every value is a plausible one
//     (finite, 0 or of magnitude 1e-9 to 1e12), else fixed32 and fixed64.
//   - LEN: string when every value is valid, printable UTF-8 (and some
//     value is not empty); a nested message (FieldNMessage, inferred from
//     all those values) when every value parses as fields; repeated int64
//     (packed) when every value parses as varints; else bytes.
//   - SGROUP: a nested message FieldNMessage with DELIMITED encoding.
//   - VARINT, I32 or I64 together with LEN values that parse as packed
//     elements of that wire type: a repeated (packed) field.
//
// A field is repeated when its number occurs more than once in a message
// or is packed. Each field gets a comment saying what was seen. Numbers
// from 19000 to 19999 (reserved for protobuf) are not declared; a field
// seen with two wire types that no rule joins is declared with the more
// frequent one (with LEN, when LEN is one of them: a packable scalar
// would misread LEN values that are not its elements), and the comment
// says so: the other values stay unknown.
//
// Errors are *diag.Error: diag.KindUsage for no samples or more than
// MaxInferSamples; diag.KindPayload for a malformed sample, with the byte
// offset and Record the sample's index; diag.KindLimit for a sample over
// MaxInputBytes or groups nested deeper than MaxInferDepth.
func Infer(samples [][]byte, opt InferOptions) (string, error) {
	if len(samples) == 0 {
		return "", diag.New(diag.KindUsage, "no payload to infer a schema from")
	}
	if len(samples) > MaxInferSamples {
		e := diag.New(diag.KindLimit, "%d payloads exceed the limit of %d (MaxInferSamples)", len(samples), MaxInferSamples)
		e.Limit = "MaxInferSamples"
		return "", e
	}
	name := opt.Name
	if name == "" {
		name = "Inferred"
	}
	if !isIdent(name) {
		return "", diag.New(diag.KindUsage, "message name %q is not an identifier (letters, digits, _; not starting with a digit)", name)
	}
	for _, p := range strings.Split(opt.Package, ".") {
		if opt.Package != "" && !isIdent(p) {
			return "", diag.New(diag.KindUsage, "package %q is not a dotted name of identifiers", opt.Package)
		}
	}
	root := &shape{}
	for i, b := range samples {
		if err := checkSize(len(b)); err != nil {
			e := err.(*diag.Error)
			e.Record = i
			return "", e
		}
		if at := deepGroupAt(b, 1); at >= 0 {
			e := payloadErr(at, "", "groups nested deeper than %d levels (MaxInferDepth)", MaxInferDepth)
			e.Kind, e.Limit, e.Record = diag.KindLimit, "MaxInferDepth", i
			return "", e
		}
		if !validMessage(b, 0) {
			e := &diag.Error{Kind: diag.KindPayload, Message: "the payload is not a well-formed message", Offset: -1}
			if _, err := DecodeRaw(b); err != nil {
				e = AsError(err)
			}
			e.Record = i
			return "", e
		}
	}
	for i, b := range samples {
		if err := root.observe(b, 1); err != nil {
			err.Record = i
			return "", err
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "// Inferred by protoplay from %d payload%s: field numbers, wire types and\n", len(samples), plural(len(samples)))
	sb.WriteString("// values as seen; every name is a placeholder to rename.\n")
	sb.WriteString("edition = \"2023\";\n\n")
	if opt.Package != "" {
		fmt.Fprintf(&sb, "package %s;\n\n", opt.Package)
	}
	root.write(&sb, name, "")
	return sb.String(), nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// shape gathers what the instances of one inferred message type hold.
type shape struct {
	instances int
	fields    map[protowire.Number]*fieldSeen
	order     []protowire.Number
}

// fieldSeen is what was seen of one field number in a shape's instances.
type fieldSeen struct {
	num       protowire.Number
	byWire    [6]int // occurrences per wire type
	instances int    // instances holding the field
	maxRepeat int    // most occurrences in one instance
	lastInst  int    // the instance counted last, to count instances
	inInst    int    // occurrences in that instance

	varints varintSeen
	i32All  bool // every I32 value a plausible float
	i64All  bool
	lens    [][]byte // LEN values, kept to decide their reading
	groups  [][]byte // group values (between the tags)
}

type varintSeen struct {
	n          int
	min, max   uint64
	distinct   []uint64 // up to maxDistinct+1
	odd, small int      // odd values; values under 2^32
}

func (v *varintSeen) add(x uint64) {
	if v.n == 0 || x < v.min {
		v.min = x
	}
	if v.n == 0 || x > v.max {
		v.max = x
	}
	v.n++
	if x&1 == 1 {
		v.odd++
	}
	if x < 1<<32 {
		v.small++
	}
	if len(v.distinct) <= maxDistinct && !slices.Contains(v.distinct, x) {
		v.distinct = append(v.distinct, x)
	}
}

// observe adds one instance, b (well-formed fields; for a group, its
// fields up to the EGROUP tag), at depth depth.
func (s *shape) observe(b []byte, depth int) *diag.Error {
	s.instances++
	if s.fields == nil {
		s.fields = map[protowire.Number]*fieldSeen{}
	}
	for pos := 0; pos < len(b); {
		num, wt, n := nextTag(b[pos:])
		if n < 0 || wt == wtEGroup {
			break
		}
		m := fieldValueLen(b[pos+n:], num, wt)
		if m < 0 {
			break
		}
		fs := s.fields[num]
		if fs == nil {
			fs = &fieldSeen{num: num, i32All: true, i64All: true}
			s.fields[num] = fs
			s.order = append(s.order, num)
		}
		if fs.lastInst != s.instances {
			fs.lastInst, fs.inInst = s.instances, 0
			fs.instances++
		}
		fs.inInst++
		fs.maxRepeat = max(fs.maxRepeat, fs.inInst)
		fs.byWire[wt]++
		v := b[pos+n : pos+n+m]
		switch wt {
		case wtVarint:
			x, _ := protowire.ConsumeVarint(v)
			fs.varints.add(x)
		case wtI32:
			x, _ := protowire.ConsumeFixed32(v)
			fs.i32All = fs.i32All && plausibleFloat(float64(math.Float32frombits(x)))
		case wtI64:
			x, _ := protowire.ConsumeFixed64(v)
			fs.i64All = fs.i64All && plausibleFloat(math.Float64frombits(x))
		case wtLen:
			l, k := protowire.ConsumeVarint(v)
			fs.lens = append(fs.lens, v[k:k+int(l)])
		case wtSGroup:
			fs.groups = append(fs.groups, v)
		}
		pos += n + m
	}
	return nil
}

// plausibleFloat reports whether f looks like a number someone stored as
// a float: finite, and 0 or of a magnitude from 1e-9 to 1e12.
func plausibleFloat(f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return false
	}
	a := math.Abs(f)
	return a == 0 || (a >= 1e-9 && a <= 1e12)
}

// decl is one inferred field declaration.
type decl struct {
	num      protowire.Number
	repeated bool
	typ      string // a scalar type, or the nested type's name
	delim    bool   // a group: DELIMITED message encoding
	nested   *shape // for a message or group
	enum     []uint64
	comment  string
	skip     bool // not declared (a reserved number)
}

func (s *shape) decide(depth int) []decl {
	nums := slices.Clone(s.order)
	slices.Sort(nums)
	var out []decl
	for _, num := range nums {
		out = append(out, s.fields[num].decide(depth, s.instances))
	}
	return out
}

func (f *fieldSeen) decide(depth, instances int) decl {
	d := decl{num: f.num, repeated: f.maxRepeat > 1}
	total := 0
	var seen []string
	for wt, c := range f.byWire {
		if c > 0 {
			total += c
			seen = append(seen, fmt.Sprintf("%s %d time%s", WireTypeName(wt), c, plural(c)))
		}
	}
	how := fmt.Sprintf("in %d of %d messages", f.instances, instances)
	if f.maxRepeat > 1 {
		how += fmt.Sprintf(", up to %d times in one", f.maxRepeat)
	}
	d.comment = fmt.Sprintf("Seen as %s, %s", strings.Join(seen, ", "), how)
	if f.num >= protowire.FirstReservedNumber && f.num <= protowire.LastReservedNumber {
		d.skip = true
		d.comment += fmt.Sprintf("; not declared: %d is in the range reserved for protobuf (19000 to 19999)", f.num)
		return d
	}
	wt := f.mainWire()
	var note string
	// A scalar wire type with LEN values that are its packed elements.
	if wt != wtLen && wt != wtSGroup && f.byWire[wtLen] > 0 && f.byWire[wtSGroup] == 0 && f.allLens(func(v []byte) bool { return len(v) > 0 && checkPacked(v, wt) }) {
		d.repeated = true
		for _, v := range f.lens {
			f.addPacked(v, wt)
		}
		note = "; LEN values are its packed elements"
		if others := total - f.byWire[wt] - f.byWire[wtLen]; others > 0 {
			note += fmt.Sprintf("; the %d values of other wire types stay unknown fields", others)
		}
	} else if wt != wtLen && wt != wtSGroup && f.byWire[wtLen] > 0 {
		// A repeated scalar would read these LEN values as its packed
		// elements, and fail on them: declared as LEN, the scalar
		// values stay unknown fields instead.
		wt = wtLen
		note = fmt.Sprintf("; declared as LEN, whose values are not packed elements of the others: the %d other values stay unknown fields", total-f.byWire[wtLen])
	} else if others := total - f.byWire[wt]; others > 0 {
		note = fmt.Sprintf("; declared as %s, the most frequent: the %d other values stay unknown fields", WireTypeName(wt), others)
	}
	switch wt {
	case wtVarint:
		d.typ, note = f.varintType(&d, note)
	case wtI32:
		d.typ = "fixed32"
		if f.i32All {
			d.typ = "float"
			note += "; every value a plausible float"
		}
	case wtI64:
		d.typ = "fixed64"
		if f.i64All {
			d.typ = "double"
			note += "; every value a plausible double"
		}
	case wtSGroup:
		d.typ, d.delim = nestedName(f.num), true
		d.nested = &shape{}
		for _, g := range f.groups {
			d.nested.observe(g, depth+1)
		}
	case wtLen:
		d.typ, note = f.lenType(&d, depth, note)
	}
	d.comment += note + "."
	return d
}

// mainWire is the wire type seen most often (the lower on a tie).
func (f *fieldSeen) mainWire() int {
	best := 0
	for wt, c := range f.byWire {
		if c > f.byWire[best] {
			best = wt
		}
	}
	return best
}

func (f *fieldSeen) allLens(ok func([]byte) bool) bool {
	for _, v := range f.lens {
		if !ok(v) {
			return false
		}
	}
	return true
}

// addPacked adds the packed elements of v, of wire type wt, to what was
// seen.
func (f *fieldSeen) addPacked(v []byte, wt int) {
	for pos := 0; pos < len(v); {
		switch wt {
		case wtVarint:
			x, n := protowire.ConsumeVarint(v[pos:])
			f.varints.add(x)
			pos += n
		case wtI32:
			x, _ := protowire.ConsumeFixed32(v[pos:])
			f.i32All = f.i32All && plausibleFloat(float64(math.Float32frombits(x)))
			pos += 4
		case wtI64:
			x, _ := protowire.ConsumeFixed64(v[pos:])
			f.i64All = f.i64All && plausibleFloat(math.Float64frombits(x))
			pos += 8
		}
	}
}

func (f *fieldSeen) varintType(d *decl, note string) (string, string) {
	v := f.varints
	if v.min == v.max {
		note += fmt.Sprintf("; always %d", v.min)
	} else {
		note += fmt.Sprintf("; values %d to %d", v.min, v.max)
	}
	switch {
	case v.max <= 1:
		return "bool", note
	case v.n >= 4 && len(v.distinct) <= maxDistinct && v.max < 128 && v.n >= 2*len(v.distinct):
		d.enum = slices.Sorted(slices.Values(v.distinct))
		return enumName(f.num), note + fmt.Sprintf("; enum-like: %d distinct values", len(v.distinct))
	case v.n >= 8 && v.small == v.n && 3*v.odd >= v.n && 3*(v.n-v.odd) >= v.n:
		return "sint64", note + "; as often odd as even: read as ZigZag"
	}
	return "int64", note
}

func (f *fieldSeen) lenType(d *decl, depth int, note string) (string, string) {
	nonEmpty := !f.allLens(func(v []byte) bool { return len(v) == 0 })
	switch {
	case nonEmpty && f.allLens(func(v []byte) bool { return utf8.Valid(v) && printable(v) }):
		return "string", note + "; printable UTF-8 text"
	case nonEmpty && depth < MaxInferDepth && f.allLens(func(v []byte) bool { return validMessage(v, 0) && !hasDeepGroups(v, depth+1) }):
		d.nested = &shape{}
		for _, v := range f.lens {
			d.nested.observe(v, depth+1)
		}
		return nestedName(f.num), note + "; each value parses as a message"
	case nonEmpty && f.allLens(func(v []byte) bool { return checkPacked(v, wtVarint) }):
		d.repeated = true
		return "int64", note + "; each value parses as packed varints"
	case !nonEmpty:
		return "bytes", note + "; always empty"
	}
	return "bytes", note
}

// hasDeepGroups reports whether v, well-formed fields of a message at
// depth depth, nests groups past MaxInferDepth.
func hasDeepGroups(v []byte, depth int) bool { return deepGroupAt(v, depth) >= 0 }

// deepGroupAt is the offset of the first SGROUP tag in v, well-formed
// fields of a message at depth depth, that nests a group past
// MaxInferDepth, or -1.
func deepGroupAt(v []byte, depth int) int {
	sp := 0
	for pos := 0; pos < len(v); {
		_, wt, n := nextTag(v[pos:])
		if n < 0 {
			return -1
		}
		switch wt {
		case wtSGroup:
			sp++
			if depth+sp > MaxInferDepth {
				return pos
			}
			pos += n
			continue
		case wtEGroup:
			sp--
			pos += n
			continue
		}
		m := fieldValueLen(v[pos+n:], 1, wt)
		if m < 0 {
			return -1
		}
		pos += n + m
	}
	return -1
}

func nestedName(num protowire.Number) string { return fmt.Sprintf("Field%dMessage", num) }
func enumName(num protowire.Number) string   { return fmt.Sprintf("Field%dEnum", num) }

// write declares s as message name, indented by indent.
func (s *shape) write(sb *strings.Builder, name, indent string) {
	decls := s.decide(depthOf(indent))
	fmt.Fprintf(sb, "%smessage %s {\n", indent, name)
	in := indent + "  "
	for i, d := range decls {
		if i > 0 {
			sb.WriteByte('\n')
		}
		for _, line := range wrap(d.comment, 96-len(in)) {
			fmt.Fprintf(sb, "%s// %s\n", in, line)
		}
		if d.skip {
			continue
		}
		label := ""
		if d.repeated {
			label = "repeated "
		}
		opt := ""
		if d.delim {
			opt = " [features.message_encoding = DELIMITED]"
		}
		fmt.Fprintf(sb, "%s%s%s field%d = %d%s;\n", in, label, d.typ, d.num, d.num, opt)
	}
	for _, d := range decls {
		switch {
		case d.nested != nil:
			sb.WriteByte('\n')
			d.nested.write(sb, d.typ, in)
		case d.enum != nil:
			sb.WriteByte('\n')
			fmt.Fprintf(sb, "%senum %s {\n", in, d.typ)
			prefix := strings.ToUpper(fmt.Sprintf("FIELD%d_ENUM_", d.num))
			if d.enum[0] != 0 {
				// An open enum's first value is 0.
				fmt.Fprintf(sb, "%s  %s0 = 0;\n", in, prefix)
			}
			for _, v := range d.enum {
				fmt.Fprintf(sb, "%s  %s%d = %d;\n", in, prefix, v, v)
			}
			fmt.Fprintf(sb, "%s}\n", in)
		}
	}
	fmt.Fprintf(sb, "%s}\n", indent)
}

// depthOf is the nesting depth of a message declared at indent (two
// spaces a level), the top level being 1.
func depthOf(indent string) int { return len(indent)/2 + 1 }

// wrap splits text into lines of at most width bytes at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// isIdent reports whether s is a protobuf identifier.
func isIdent(s string) bool {
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return s != ""
}
