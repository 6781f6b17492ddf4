package breaking

import (
	"fmt"
	"iter"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/bufbuild/protocompile/protoutil"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Source paths of options inside descriptors (descriptor.proto field
// numbers): X options, then their features, then a feature.
const (
	msgOptions, enumOptions, fieldOptions, methodOptions = 7, 3, 8, 4
	msgFeatures, enumFeatures, fieldFeatures             = 12, 7, 21
	featEnumType, featUTF8, featJSONFormat               = 2, 4, 6
)

func sortedNames[T any](m map[protoreflect.FullName]T) []protoreflect.FullName {
	names := make([]protoreflect.FullName, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}

// common yields, in full-name order, each element of base with the
// element of cur that has the same full name; names only one side has are
// left out.
func common[T any](base, cur map[protoreflect.FullName]T) iter.Seq2[T, T] {
	return func(yield func(T, T) bool) {
		for _, n := range sortedNames(base) {
			if c, ok := cur[n]; ok && !yield(base[n], c) {
				return
			}
		}
	}
}

// fromTo orders two words for "changed from %s to %s": a then b, or b then
// a when swapped (the current element has b's property).
func fromTo(swapped bool, a, b string) (from, to string) {
	if swapped {
		return b, a
	}
	return a, b
}

// feature resolves the FeatureSet field name for d (edition defaults
// included; proto2 and proto3 have theirs).
func feature(d protoreflect.Descriptor, name protoreflect.Name) protoreflect.EnumNumber {
	fd := (*descriptorpb.FeatureSet)(nil).ProtoReflect().Descriptor().Fields().ByName(name)
	v, err := protoutil.ResolveFeature(d, fd)
	if err != nil {
		return 0
	}
	return v.Enum()
}

func (c *checker) enumPairs() {
	for be, ce := range common(c.base.enums, c.cur.enums) {
		if be.IsClosed() != ce.IsClosed() {
			prev, now := fromTo(ce.IsClosed(), "closed", "open")
			c.add("ENUM_SAME_TYPE", at(ce, []int32{enumOptions, enumFeatures, featEnumType}, nil), `Enum %q changed from %s to %s.`, string(ce.Name()), prev, now)
		}
		c.enumValuesDeleted(ce, be)
		if pj, cj := feature(be, "json_format"), feature(ce, "json_format"); pj == protoreflect.EnumNumber(descriptorpb.FeatureSet_ALLOW) && cj != pj {
			c.add("ENUM_SAME_JSON_FORMAT", at(ce, []int32{enumOptions, enumFeatures, featJSONFormat}, nil), `Enum %q JSON format support changed from %v to %v.`,
				string(ce.Name()), descriptorpb.FeatureSet_JsonFormat(pj), descriptorpb.FeatureSet_JsonFormat(cj))
		}
		// ENUM_VALUE_SAME_NAME, per number both have.
		prevNames, nowNames := valueNames(be), valueNames(ce)
		for _, num := range sortedNumbers(prevNames) {
			now, ok := nowNames[num]
			if !ok || containsAll(now, prevNames[num]) {
				continue
			}
			suffix := ""
			if len(prevNames[num]) > 1 && len(now) > 1 {
				suffix = "s"
			}
			for _, name := range now {
				v := ce.Values().ByName(protoreflect.Name(name))
				c.add("ENUM_VALUE_SAME_NAME", at(v, []int32{2}), `Enum value "%d" on enum %q changed name%s from %s to %s.`,
					num, string(ce.Name()), suffix, quoted(prevNames[num]), quoted(now))
			}
		}
		// RESERVED_ENUM_NO_DELETE
		var prevR, nowR []tagRange
		for i := range be.ReservedRanges().Len() {
			r := be.ReservedRanges().Get(i)
			prevR = append(prevR, tagRange{int(r[0]), int(r[1])})
		}
		for i := range ce.ReservedRanges().Len() {
			r := ce.ReservedRanges().Get(i)
			nowR = append(nowR, tagRange{int(r[0]), int(r[1])})
		}
		c.rangesKept("RESERVED_ENUM_NO_DELETE", "reserved", "enum", ce, prevR, nowR, math.MaxInt32)
		c.reservedNamesKept("enum", ce, be.ReservedNames(), ce.ReservedNames(), "RESERVED_ENUM_NO_DELETE")
	}
}

func (c *checker) enumValuesDeleted(ce, be protoreflect.EnumDescriptor) {
	prev, now := valueNames(be), valueNames(ce)
	for _, num := range sortedNumbers(prev) {
		if _, ok := now[num]; ok {
			continue
		}
		p := at(ce)
		p.file = be.ParentFile().Path()
		msg := fmt.Sprintf(`Previously present enum value "%d" on enum %q was deleted`, num, string(ce.Name()))
		c.add("ENUM_VALUE_NO_DELETE", p, "%s.", msg)
		if !numberReserved(int(num), ce.ReservedRanges()) {
			c.add("ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED", p, `%s without reserving the number "%d".`, msg, num)
		}
		allReserved := true
		for _, n := range prev[num] {
			if !ce.ReservedNames().Has(protoreflect.Name(n)) {
				allReserved = false
			}
		}
		if !allReserved {
			s := ""
			if len(prev[num]) > 1 {
				s = "s"
			}
			c.add("ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED", p, `%s without reserving the name%s %s.`, msg, s, quoted(prev[num]))
		}
	}
}

func numberReserved(n int, rs protoreflect.EnumRanges) bool {
	for i := range rs.Len() {
		r := rs.Get(i)
		if n >= int(r[0]) && n <= int(r[1]) {
			return true
		}
	}
	return false
}

// valueNames maps each number of e to its value names, sorted.
func valueNames(e protoreflect.EnumDescriptor) map[protoreflect.EnumNumber][]string {
	m := map[protoreflect.EnumNumber][]string{}
	for i := range e.Values().Len() {
		v := e.Values().Get(i)
		m[v.Number()] = append(m[v.Number()], string(v.Name()))
	}
	for _, ns := range m {
		sort.Strings(ns)
	}
	return m
}

func sortedNumbers[T any](m map[protoreflect.EnumNumber]T) []protoreflect.EnumNumber {
	ns := make([]protoreflect.EnumNumber, 0, len(m))
	for n := range m {
		ns = append(ns, n)
	}
	sort.Slice(ns, func(i, j int) bool { return ns[i] < ns[j] })
	return ns
}

func containsAll(super, sub []string) bool {
	for _, s := range sub {
		found := false
		for _, t := range super {
			found = found || s == t
		}
		if !found {
			return false
		}
	}
	return true
}

func quoted(ss []string) string { return `"` + strings.Join(ss, `", "`) + `"` }

// tagRange is an inclusive range of numbers.
type tagRange struct{ start, end int }

func (r tagRange) String(max int) string {
	switch {
	case r.start == r.end:
		return fmt.Sprintf("[%d]", r.start)
	case r.end == max:
		return fmt.Sprintf("[%d,max]", r.start)
	}
	return fmt.Sprintf("[%d,%d]", r.start, r.end)
}

// rangesKept reports each range of prev that now does not cover whole,
// with the numbers missing.
func (c *checker) rangesKept(rule, rangeKind, elemKind string, d protoreflect.Descriptor, prev, now []tagRange, max int) {
	if len(prev) == 0 {
		return
	}
	sort.Slice(now, func(i, j int) bool {
		if now[i].start == now[j].start {
			return now[i].end < now[j].end
		}
		return now[i].start < now[j].start
	})
	var merged []tagRange
	for _, r := range now {
		if n := len(merged); n > 0 && r.start <= merged[n-1].end+1 {
			merged[n-1].end = max2(merged[n-1].end, r.end)
			continue
		}
		merged = append(merged, r)
	}
	for _, r := range prev {
		var missing []string
		next := r.start
		for _, m := range merged {
			if m.end < next || m.start > r.end {
				continue
			}
			if m.start > next {
				missing = append(missing, tagRange{next, m.start - 1}.String(max))
			}
			next = m.end + 1
		}
		if next <= r.end {
			missing = append(missing, tagRange{next, r.end}.String(max))
		}
		if len(missing) > 0 {
			c.add(rule, at(d), `Previously present %s range %q on %s %q is missing values: %s were removed.`,
				rangeKind, r.String(max), elemKind, string(d.Name()), strings.Join(missing, ", "))
		}
	}
}

func max2(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func (c *checker) reservedNamesKept(elemKind string, d protoreflect.Descriptor, prev, now protoreflect.Names, rule string) {
	for i := range prev.Len() {
		n := prev.Get(i)
		if !now.Has(n) {
			c.add(rule, at(d), `Previously present reserved name %q on %s %q was deleted.`, string(n), elemKind, string(d.Name()))
		}
	}
}

// messageRanges is m's ranges as inclusive ranges, and the largest field
// number m may have.
func messageRanges(m protoreflect.MessageDescriptor, rs protoreflect.FieldRanges) ([]tagRange, int) {
	max := 536870911
	if isMessageSet(m) {
		max = math.MaxInt32 - 1
	}
	var out []tagRange
	for i := range rs.Len() {
		r := rs.Get(i)
		out = append(out, tagRange{int(r[0]), int(r[1]) - 1})
	}
	return out, max
}

func isMessageSet(m protoreflect.MessageDescriptor) bool {
	o := &descriptorpb.MessageOptions{}
	asProto(m.Options(), o)
	return o.GetMessageSetWireFormat()
}

func (c *checker) messagePairs() {
	for bm, cm := range common(c.base.messages, c.cur.messages) {
		prevX, max := messageRanges(bm, bm.ExtensionRanges())
		nowX, _ := messageRanges(cm, cm.ExtensionRanges())
		c.rangesKept("EXTENSION_MESSAGE_NO_DELETE", "extension", "message", cm, prevX, nowX, max)
		prevR, max := messageRanges(bm, bm.ReservedRanges())
		nowR, _ := messageRanges(cm, cm.ReservedRanges())
		c.rangesKept("RESERVED_MESSAGE_NO_DELETE", "reserved", "message", cm, prevR, nowR, max)
		c.reservedNamesKept("message", cm, bm.ReservedNames(), cm.ReservedNames(), "RESERVED_MESSAGE_NO_DELETE")

		// Deleted fields.
		for i := range bm.Fields().Len() {
			bf := bm.Fields().Get(i)
			if cm.Fields().ByNumber(bf.Number()) != nil {
				continue
			}
			d := fieldDescription(bf)
			msg := "Previously present " + strings.ToLower(d[:1]) + d[1:] + " was deleted"
			p := at(cm)
			c.add("FIELD_NO_DELETE", p, "%s.", msg)
			if !fieldNumberReserved(int(bf.Number()), cm) {
				c.add("FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED", p, `%s without reserving the number "%d".`, msg, bf.Number())
			}
			if !cm.ReservedNames().Has(bf.Name()) {
				c.add("FIELD_NO_DELETE_UNLESS_NAME_RESERVED", p, `%s without reserving the name %q.`, msg, string(bf.Name()))
			}
		}
		// Deleted oneofs.
		for i := range bm.Oneofs().Len() {
			o := bm.Oneofs().Get(i)
			if o.IsSynthetic() || cm.Oneofs().ByName(o.Name()) != nil {
				continue
			}
			c.add("ONEOF_NO_DELETE", at(cm), `Previously present oneof %q on message %q was deleted.`, string(o.Name()), string(cm.Name()))
		}
		bo, co := &descriptorpb.MessageOptions{}, &descriptorpb.MessageOptions{}
		asProto(bm.Options(), bo)
		asProto(cm.Options(), co)
		if !bo.GetNoStandardDescriptorAccessor() && co.GetNoStandardDescriptorAccessor() {
			c.add("MESSAGE_NO_REMOVE_STANDARD_DESCRIPTOR_ACCESSOR", onlyAt(cm, msgOptions, 2),
				`Message option "no_standard_descriptor_accessor" changed from %q to %q.`, "false", "true")
		}
		if pj, cj := feature(bm, "json_format"), feature(cm, "json_format"); pj == protoreflect.EnumNumber(descriptorpb.FeatureSet_ALLOW) && cj != pj {
			c.add("MESSAGE_SAME_JSON_FORMAT", at(cm, []int32{msgOptions, msgFeatures, featJSONFormat}, nil), `Message %q JSON format support changed from %v to %v.`,
				string(cm.Name()), descriptorpb.FeatureSet_JsonFormat(pj), descriptorpb.FeatureSet_JsonFormat(cj))
		}
		// Required fields added or deleted.
		for i := range bm.Fields().Len() {
			bf := bm.Fields().Get(i)
			if !labelRequired(bf) {
				continue
			}
			if cf := cm.Fields().ByNumber(bf.Number()); cf == nil || !labelRequired(cf) {
				c.add("MESSAGE_SAME_REQUIRED_FIELDS", at(cm), `Message %q had required field "%d" deleted. Required fields must always be sent, so if one side does not know about the required field, this will result in a breakage.`, string(bm.Name()), bf.Number())
			}
		}
		for i := range cm.Fields().Len() {
			cf := cm.Fields().Get(i)
			if !labelRequired(cf) {
				continue
			}
			if bf := bm.Fields().ByNumber(cf.Number()); bf == nil || !labelRequired(bf) {
				c.add("MESSAGE_SAME_REQUIRED_FIELDS", at(cf), `Message %q had required field "%d" added. Required fields must always be sent, so if one side does not know about the required field, this will result in a breakage.`, string(cm.Name()), cf.Number())
			}
		}
	}
}

// labelRequired reports a field whose descriptor has LABEL_REQUIRED: a
// proto2 required field. buf's MESSAGE_SAME_REQUIRED_FIELDS reads the
// label, so an editions field with features.field_presence =
// LEGACY_REQUIRED (label optional) is not one, though its cardinality
// is required.
func labelRequired(f protoreflect.FieldDescriptor) bool {
	return f.Cardinality() == protoreflect.Required && f.ParentFile().Syntax() != protoreflect.Editions
}

func fieldNumberReserved(n int, m protoreflect.MessageDescriptor) bool {
	rs := m.ReservedRanges()
	for i := range rs.Len() {
		r := rs.Get(i)
		if n >= int(r[0]) && n < int(r[1]) {
			return true
		}
	}
	return false
}

// fieldDescription names a field as buf does: `Field "1" with name "a"
// on message "M"`, or `Extension "10" with name "pkg.ext" on message
// "pkg.M"`.
func fieldDescription(f protoreflect.FieldDescriptor) string {
	name := string(f.Name())
	if f.IsExtension() {
		name = string(f.FullName())
	}
	return fieldDescriptionWith(f, fmt.Sprintf(" with name %q", name))
}

func fieldDescriptionWith(f protoreflect.FieldDescriptor, name string) string {
	kind, msg := "Field", string(f.ContainingMessage().Name())
	if f.IsExtension() {
		kind, msg = "Extension", string(f.ContainingMessage().FullName())
	}
	return fmt.Sprintf("%s %q%s on message %q", kind, strconv.Itoa(int(f.Number())), name, msg)
}

func (c *checker) fieldPairs() {
	for bm, cm := range common(c.base.messages, c.cur.messages) {
		for i := range bm.Fields().Len() {
			bf := bm.Fields().Get(i)
			if cf := cm.Fields().ByNumber(bf.Number()); cf != nil {
				c.fieldPair(cf, bf)
			}
		}
	}
	for _, n := range sortedNames(c.base.exts) {
		now := c.cur.exts[n]
		for num, bf := range c.base.exts[n] {
			if cf, ok := now[num]; ok {
				c.fieldPair(cf, bf)
			}
		}
	}
}

const (
	cardOptionalExplicit = "optional with explicit presence"
	cardOptionalImplicit = "optional with implicit presence"
	cardRequired         = "required"
	cardRepeated         = "repeated"
	cardMap              = "map"
)

func cardinality(f protoreflect.FieldDescriptor) string {
	switch {
	case f.IsList():
		return cardRepeated
	case f.IsMap():
		return cardMap
	case f.Cardinality() == protoreflect.Required:
		return cardRequired
	case f.HasPresence():
		return cardOptionalExplicit
	}
	return cardOptionalImplicit
}

// Groups of cardinalities and kinds that read each other's bytes (and,
// for the JSON ones, JSON).
var (
	wireCard     = map[string]int{cardOptionalExplicit: 1, cardOptionalImplicit: 1, cardRequired: 2, cardRepeated: 3, cardMap: 3}
	wireJSONCard = map[string]int{cardOptionalExplicit: 1, cardOptionalImplicit: 1, cardRequired: 2, cardRepeated: 3, cardMap: 4}
	wireKind     = map[protoreflect.Kind]int{
		protoreflect.Int32Kind: 1, protoreflect.Int64Kind: 1, protoreflect.Uint32Kind: 1, protoreflect.Uint64Kind: 1, protoreflect.BoolKind: 1,
		protoreflect.Sint32Kind: 2, protoreflect.Sint64Kind: 2,
		protoreflect.StringKind: 3, protoreflect.BytesKind: 4,
		protoreflect.Fixed32Kind: 5, protoreflect.Sfixed32Kind: 5,
		protoreflect.Fixed64Kind: 6, protoreflect.Sfixed64Kind: 6,
		protoreflect.DoubleKind: 7, protoreflect.FloatKind: 8,
		protoreflect.GroupKind: 9, protoreflect.MessageKind: 10, protoreflect.EnumKind: 11,
	}
	wireJSONKind = map[protoreflect.Kind]int{
		protoreflect.Int32Kind: 1, protoreflect.Uint32Kind: 1,
		protoreflect.Int64Kind: 2, protoreflect.Uint64Kind: 2,
		protoreflect.Fixed32Kind: 3, protoreflect.Sfixed32Kind: 3,
		protoreflect.Fixed64Kind: 4, protoreflect.Sfixed64Kind: 4,
		protoreflect.BoolKind: 5, protoreflect.Sint32Kind: 6, protoreflect.Sint64Kind: 7,
		protoreflect.StringKind: 8, protoreflect.BytesKind: 9,
		protoreflect.DoubleKind: 10, protoreflect.FloatKind: 11,
		protoreflect.GroupKind: 12, protoreflect.MessageKind: 13, protoreflect.EnumKind: 14,
	}
)

func kindName(f protoreflect.FieldDescriptor) string {
	if f.Kind() == protoreflect.GroupKind && f.ParentFile().Syntax() != protoreflect.Proto2 {
		return "message (delimited encoding)"
	}
	return f.Kind().String()
}

func isNamedType(f protoreflect.FieldDescriptor) bool {
	switch f.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind, protoreflect.EnumKind:
		return true
	}
	return false
}

// typeAt is the place of f's type: its type name for messages and enums,
// its type keyword otherwise.
func typeAt(f protoreflect.FieldDescriptor) place {
	if isNamedType(f) {
		return onlyAt(f, 6)
	}
	return onlyAt(f, 5)
}

func typeName(f protoreflect.FieldDescriptor) string {
	switch {
	case f.Message() != nil:
		return string(f.Message().FullName())
	case f.Enum() != nil:
		return string(f.Enum().FullName())
	}
	return ""
}

func (c *checker) fieldPair(cf, bf protoreflect.FieldDescriptor) {
	desc := fieldDescription(cf)
	bothMapEntries := bf.ContainingMessage().IsMapEntry() && cf.ContainingMessage().IsMapEntry()
	if !bothMapEntries {
		pc, cc := cardinality(bf), cardinality(cf)
		msg := fmt.Sprintf(`%s changed cardinality from %q to %q.`, desc, pc, cc)
		if pc != cc {
			c.add("FIELD_SAME_CARDINALITY", at(cf), "%s", msg)
		}
		if wireCard[pc] != wireCard[cc] {
			c.add("FIELD_WIRE_COMPATIBLE_CARDINALITY", at(cf), "%s", msg)
		}
		if wireJSONCard[pc] != wireJSONCard[cc] {
			c.add("FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY", at(cf), "%s", msg)
		}
	}
	changedType := func(extra string) string {
		return fmt.Sprintf(`%s changed type from %q to %q.%s`, desc, kindName(bf), kindName(cf), extra)
	}
	changedName := fmt.Sprintf(`%s changed type from %q to %q.`, desc, typeName(bf), typeName(cf))
	// FIELD_SAME_TYPE
	if bf.Kind() != cf.Kind() {
		c.add("FIELD_SAME_TYPE", typeAt(cf), "%s", changedType(""))
	} else if isNamedType(cf) && typeName(bf) != typeName(cf) {
		c.add("FIELD_SAME_TYPE", onlyAt(cf, 6), "%s", changedName)
	}
	// FIELD_WIRE_COMPATIBLE_TYPE
	if wireKind[bf.Kind()] != wireKind[cf.Kind()] {
		extra := " See https://developers.google.com/protocol-buffers/docs/proto3#updating for wire compatibility rules."
		switch {
		case bf.Kind() == protoreflect.StringKind && cf.Kind() == protoreflect.BytesKind:
			extra = ""
		case bf.Kind() == protoreflect.BytesKind && cf.Kind() == protoreflect.StringKind:
			extra += " Note that while string and bytes are compatible if the data is valid UTF-8, there is no way to enforce that a bytes field is UTF-8, so these fields may be incompatible."
		}
		if !(bf.Kind() == protoreflect.StringKind && cf.Kind() == protoreflect.BytesKind) {
			c.add("FIELD_WIRE_COMPATIBLE_TYPE", typeAt(cf), "%s", changedType(extra))
		}
	} else if c.namedTypeIncompatible(cf, bf) {
		c.add("FIELD_WIRE_COMPATIBLE_TYPE", onlyAt(cf, 6), "%s", changedName)
	}
	// FIELD_WIRE_JSON_COMPATIBLE_TYPE
	if wireJSONKind[bf.Kind()] != wireJSONKind[cf.Kind()] {
		c.add("FIELD_WIRE_JSON_COMPATIBLE_TYPE", typeAt(cf), "%s", changedType(" See https://developers.google.com/protocol-buffers/docs/proto3#updating for wire compatibility rules and https://developers.google.com/protocol-buffers/docs/proto3#json for JSON compatibility rules."))
	} else if c.namedTypeIncompatible(cf, bf) {
		c.add("FIELD_WIRE_JSON_COMPATIBLE_TYPE", onlyAt(cf, 6), "%s", changedName)
	}
	// FIELD_SAME_JSTYPE
	if is64(bf) && is64(cf) {
		bo, co := fieldOpts(bf), fieldOpts(cf)
		if bo.GetJstype() != co.GetJstype() {
			c.add("FIELD_SAME_JSTYPE", at(cf, []int32{fieldOptions, 6}, nil), `%s changed option "jstype" from %q to %q.`, desc, bo.GetJstype().String(), co.GetJstype().String())
		}
	}
	// FIELD_SAME_CPP_STRING_TYPE
	if !bothMapEntries && isStringOrBytes(bf) && isStringOrBytes(cf) {
		pt, pPiece := cppStringType(bf)
		ct, cPiece := cppStringType(cf)
		if (pt != ct || pPiece != cPiece) && !(pPiece && ct == "STRING") {
			if pPiece {
				pt = "STRING_PIECE"
			}
			if cPiece {
				ct = "STRING_PIECE"
			}
			c.add("FIELD_SAME_CPP_STRING_TYPE", at(cf, []int32{fieldOptions, 1}, []int32{fieldOptions, fieldFeatures, cppFeatures, cppStringTypeField}, nil), `%s changed C++ string type from %q to %q.`, desc, pt, ct)
		}
	}
	// FIELD_SAME_JAVA_UTF8_VALIDATION and FIELD_SAME_UTF8_VALIDATION
	if bf.Kind() == protoreflect.StringKind && cf.Kind() == protoreflect.StringKind {
		if pv, cv := javaUTF8(bf), javaUTF8(cf); pv != cv {
			p := place{file: cf.ParentFile().Path()}
			if loc := cf.ParentFile().SourceLocations().ByPath(protoreflect.SourcePath{8, 27}); loc.Path != nil {
				p.span = []int32{int32(loc.StartLine), int32(loc.StartColumn), int32(loc.EndLine), int32(loc.EndColumn)}
			} else {
				p = at(cf)
			}
			c.add("FIELD_SAME_JAVA_UTF8_VALIDATION", p, `%s changed Java string UTF8 validation from %q to %q.`, desc, pv, cv)
		}
		if pv, cv := feature(bf, "utf8_validation"), feature(cf, "utf8_validation"); pv != cv {
			c.add("FIELD_SAME_UTF8_VALIDATION", at(cf, []int32{fieldOptions, fieldFeatures, featUTF8}, nil), `%s changed UTF8 validation from %v to %v.`,
				desc, descriptorpb.FeatureSet_Utf8Validation(pv), descriptorpb.FeatureSet_Utf8Validation(cv))
		}
	}
	// FIELD_SAME_JSON_NAME and FIELD_SAME_NAME
	if !bf.IsExtension() && bf.JSONName() != cf.JSONName() {
		c.add("FIELD_SAME_JSON_NAME", at(cf, []int32{10}, nil), `%s changed option "json_name" from %q to %q.`, desc, bf.JSONName(), cf.JSONName())
	}
	pn, cn := string(bf.Name()), string(cf.Name())
	if bf.IsExtension() {
		pn, cn = string(bf.FullName()), string(cf.FullName())
	}
	if pn != cn {
		c.add("FIELD_SAME_NAME", onlyAt(cf, 1), `%s changed name from %q to %q.`, fieldDescriptionWith(cf, ""), pn, cn)
	}
	// FIELD_SAME_DEFAULT
	if canHaveDefault(bf) && canHaveDefault(cf) {
		pd, cd := defaultOf(bf), defaultOf(cf)
		if !(pd.zero && cd.zero) && !defaultsEqual(pd, cd) {
			c.add("FIELD_SAME_DEFAULT", at(cf, []int32{7}, nil), `%s changed default value from %v to %v.`, desc, pd.printable, cd.printable)
		}
	}
	// FIELD_SAME_ONEOF
	if !bf.IsExtension() {
		po, co := realOneof(bf), realOneof(cf)
		switch {
		case po != nil && co != nil:
			if po.Name() != co.Name() {
				// buf's message has a stray q after the description.
				c.add("FIELD_SAME_ONEOF", at(cf), `%sq moved from oneof %q to oneof %q.`, desc, string(po.Name()), string(co.Name()))
			}
		case po != nil || co != nil:
			prev, now := fromTo(co != nil, "inside", "outside")
			c.add("FIELD_SAME_ONEOF", at(cf), `%s moved from %s to %s a oneof.`, desc, prev, now)
		}
	}
}

func realOneof(f protoreflect.FieldDescriptor) protoreflect.OneofDescriptor {
	o := f.ContainingOneof()
	if o == nil || o.IsSynthetic() {
		return nil
	}
	return o
}

// namedTypeIncompatible reports, for two fields of the same wire group,
// a change of message type, or of enum type to one that is not a
// superset of the old one under a different name.
func (c *checker) namedTypeIncompatible(cf, bf protoreflect.FieldDescriptor) bool {
	if wireKind[bf.Kind()] != wireKind[cf.Kind()] || typeName(bf) == typeName(cf) {
		return false
	}
	switch cf.Kind() {
	case protoreflect.EnumKind:
		be, ce := bf.Enum(), cf.Enum()
		if be.Name() != ce.Name() {
			return true
		}
		for i := range be.Values().Len() {
			v := be.Values().Get(i)
			nv := ce.Values().ByName(v.Name())
			if nv == nil || nv.Number() != v.Number() {
				return true
			}
		}
		return false
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return true
	}
	return false
}

func is64(f protoreflect.FieldDescriptor) bool {
	switch f.Kind() {
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind:
		return true
	}
	return false
}

func isStringOrBytes(f protoreflect.FieldDescriptor) bool {
	return f.Kind() == protoreflect.StringKind || f.Kind() == protoreflect.BytesKind
}

func fieldOpts(f protoreflect.FieldDescriptor) *descriptorpb.FieldOptions {
	o := &descriptorpb.FieldOptions{}
	asProto(f.Options(), o)
	return o
}

// cppStringType is f's C++ string type ("STRING", "CORD", "VIEW") and
// whether it is a STRING_PIECE: from the ctype option before edition
// 2024, else from the (pb.cpp).string_type feature (resolved through the
// enclosing messages and the file) or its edition default.
func cppStringType(f protoreflect.FieldDescriptor) (string, bool) {
	o := fieldOpts(f)
	edition := fileProto(f.ParentFile()).GetEdition()
	if edition < descriptorpb.Edition_EDITION_2024 && o.Ctype != nil {
		switch o.GetCtype() {
		case descriptorpb.FieldOptions_CORD:
			return "CORD", false
		case descriptorpb.FieldOptions_STRING_PIECE:
			return "STRING", true
		case descriptorpb.FieldOptions_STRING:
			return "STRING", false
		}
		if f.ParentFile().Syntax() != protoreflect.Editions {
			return "STRING", false
		}
	}
	if v, ok := customFeature(f, cppFeatures, cppStringTypeField); ok {
		switch v {
		case 1:
			return "VIEW", false
		case 2:
			return "CORD", false
		case 3:
			return "STRING", false
		}
	}
	if edition >= descriptorpb.Edition_EDITION_2024 {
		return "VIEW", false
	}
	return "STRING", false
}

// The language features protoc defines as FeatureSet extensions:
// (pb.cpp) is field 1000 and its string_type field 2; (pb.java) is
// field 1001 and its utf8_validation field 2.
const (
	cppFeatures, cppStringTypeField = 1000, 2
	javaFeatures, javaUTF8Field     = 1001, 2
)

// customFeature resolves a language feature (an enum field of a FeatureSet
// extension) for d: the innermost value set on d, its enclosing
// declarations or its file. ok is false when none sets it.
func customFeature(d protoreflect.Descriptor, ext, field protowire.Number) (int, bool) {
	for ; d != nil; d = d.Parent() {
		var features proto.Message
		switch o := d.Options().(type) {
		case nil:
		default:
			if o == nil || !o.ProtoReflect().IsValid() {
				break
			}
			fd := o.ProtoReflect().Descriptor().Fields().ByName("features")
			if fd == nil || !o.ProtoReflect().Has(fd) {
				break
			}
			features = o.ProtoReflect().Get(fd).Message().Interface()
		}
		if features == nil {
			continue
		}
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(features)
		if err != nil {
			continue
		}
		if v, ok := scanEnum(b, ext, field); ok {
			return v, true
		}
	}
	return 0, false
}

// scanEnum finds field inside the message field ext of the encoded
// message b (the last occurrence wins, as in a merge).
func scanEnum(b []byte, ext, field protowire.Number) (int, bool) {
	val, found := 0, false
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return val, found
		}
		b = b[n:]
		if num == ext && typ == protowire.BytesType {
			inner, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return val, found
			}
			for len(inner) > 0 {
				num2, typ2, k := protowire.ConsumeTag(inner)
				if k < 0 {
					break
				}
				inner = inner[k:]
				if num2 == field && typ2 == protowire.VarintType {
					v, j := protowire.ConsumeVarint(inner)
					if j < 0 {
						break
					}
					val, found = int(v), true
					inner = inner[j:]
					continue
				}
				j := protowire.ConsumeFieldValue(num2, typ2, inner)
				if j < 0 {
					break
				}
				inner = inner[j:]
			}
			b = b[m:]
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return val, found
		}
		b = b[m:]
	}
	return val, found
}

func fileProto(f protoreflect.FileDescriptor) *descriptorpb.FileDescriptorProto {
	fp := &descriptorpb.FileDescriptorProto{}
	switch f.Syntax() {
	case protoreflect.Proto2:
		fp.Edition = descriptorpb.Edition_EDITION_PROTO2.Enum()
	case protoreflect.Proto3:
		fp.Edition = descriptorpb.Edition_EDITION_PROTO3.Enum()
	default:
		fp.Edition = protodesc.ToFileDescriptorProto(f).Edition
	}
	return fp
}

// javaUTF8 is the UTF-8 validation Java applies to f: VERIFY under
// java_string_check_utf8 (outside editions, or set), or under the
// (pb.java).utf8_validation feature VERIFY; else the utf8_validation
// feature.
func javaUTF8(f protoreflect.FieldDescriptor) string {
	def := descriptorpb.FeatureSet_Utf8Validation(feature(f, "utf8_validation")).String()
	fo := fileOptions(f.ParentFile())
	if f.ParentFile().Syntax() != protoreflect.Editions || fo.JavaStringCheckUtf8 != nil {
		if fo.GetJavaStringCheckUtf8() {
			return "VERIFY"
		}
		return def
	}
	if v, ok := customFeature(f, javaFeatures, javaUTF8Field); ok && v == 2 {
		return "VERIFY"
	}
	return def
}

func canHaveDefault(f protoreflect.FieldDescriptor) bool {
	return !f.IsList() && !f.IsMap() && f.Message() == nil
}

type fieldDefault struct {
	value     any
	printable any
	zero      bool
}

func defaultOf(f protoreflect.FieldDescriptor) fieldDefault {
	v := f.Default()
	switch f.Kind() {
	case protoreflect.BytesKind:
		parts := make([]string, len(v.Bytes()))
		for i, b := range v.Bytes() {
			parts[i] = fmt.Sprintf("0x%X", b)
		}
		return fieldDefault{value: string(v.Bytes()), printable: "[" + strings.Join(parts, ",") + "]", zero: len(v.Bytes()) == 0}
	case protoreflect.StringKind:
		return fieldDefault{value: v.String(), printable: fmt.Sprintf("%q", v.String()), zero: v.String() == ""}
	case protoreflect.EnumKind:
		e := f.Enum()
		p := fmt.Sprintf("%s.%d(?)", e.Name(), v.Enum())
		if ev := e.Values().ByNumber(v.Enum()); ev != nil {
			p = fmt.Sprintf("%s.%s", e.Name(), ev.Name())
		}
		return fieldDefault{value: int32(v.Enum()), printable: p, zero: v.Enum() == 0}
	}
	i := v.Interface()
	zero := false
	switch x := i.(type) {
	case bool:
		zero = !x
	case int32:
		zero = x == 0
	case int64:
		zero = x == 0
	case uint32:
		zero = x == 0
	case uint64:
		zero = x == 0
	case float32:
		zero = x == 0 && !math.Signbit(float64(x))
	case float64:
		zero = x == 0 && !math.Signbit(x)
	}
	return fieldDefault{value: i, printable: i, zero: zero}
}

func defaultsEqual(a, b fieldDefault) bool {
	_, as := a.value.(string)
	_, bs := b.value.(string)
	if as || bs {
		return a.value == b.value
	}
	switch af := a.value.(type) {
	case float32:
		if bf, ok := b.value.(float64); ok {
			return (math.IsNaN(float64(af)) && math.IsNaN(bf)) || af == float32(bf)
		}
	case float64:
		if bf, ok := b.value.(float32); ok {
			return (math.IsNaN(af) && math.IsNaN(float64(bf))) || float32(af) == bf
		}
	}
	av, an := bigOf(a.value)
	bv, bn := bigOf(b.value)
	if an || bn {
		return an == bn
	}
	if av == nil || bv == nil {
		return a.value == b.value
	}
	return av.Cmp(bv) == 0
}

func bigOf(v any) (*big.Float, bool) {
	var f big.Float
	switch x := v.(type) {
	case bool:
		if x {
			return big.NewFloat(1), false
		}
		return big.NewFloat(0), false
	case int32:
		return f.SetInt64(int64(x)), false
	case int64:
		return f.SetInt64(x), false
	case uint32:
		return f.SetUint64(uint64(x)), false
	case uint64:
		return f.SetUint64(x), false
	case float32:
		if math.IsNaN(float64(x)) {
			return nil, true
		}
		return big.NewFloat(float64(x)), false
	case float64:
		if math.IsNaN(x) {
			return nil, true
		}
		return big.NewFloat(x), false
	}
	return nil, false
}

func (c *checker) servicePairs() {
	for bs, cs := range common(c.base.services, c.cur.services) {
		for i := range bs.Methods().Len() {
			bm := bs.Methods().Get(i)
			cm := cs.Methods().ByName(bm.Name())
			if cm == nil {
				c.add("RPC_NO_DELETE", at(cs), `Previously present RPC %q on service %q was deleted.`, string(bm.Name()), string(cs.Name()))
				continue
			}
			name, svc := string(cm.Name()), string(cs.Name())
			if bm.IsStreamingClient() != cm.IsStreamingClient() {
				prev, now := fromTo(cm.IsStreamingClient(), "streaming", "unary")
				c.add("RPC_SAME_CLIENT_STREAMING", at(cm), `RPC %q on service %q changed from client %s to client %s.`, name, svc, prev, now)
			}
			if bm.IsStreamingServer() != cm.IsStreamingServer() {
				prev, now := fromTo(cm.IsStreamingServer(), "streaming", "unary")
				c.add("RPC_SAME_SERVER_STREAMING", at(cm), `RPC %q on service %q changed from server %s to server %s.`, name, svc, prev, now)
			}
			bo, co := &descriptorpb.MethodOptions{}, &descriptorpb.MethodOptions{}
			asProto(bm.Options(), bo)
			asProto(cm.Options(), co)
			if bo.GetIdempotencyLevel() != co.GetIdempotencyLevel() {
				c.add("RPC_SAME_IDEMPOTENCY_LEVEL", onlyAt(cm, methodOptions, 34), `RPC %q on service %q changed option "idempotency_level" from %q to %q.`,
					name, svc, bo.GetIdempotencyLevel().String(), co.GetIdempotencyLevel().String())
			}
			if bm.Input().FullName() != cm.Input().FullName() {
				c.add("RPC_SAME_REQUEST_TYPE", onlyAt(cm, 2), `RPC %q on service %q changed request type from %q to %q.`, name, svc, string(bm.Input().FullName()), string(cm.Input().FullName()))
			}
			if bm.Output().FullName() != cm.Output().FullName() {
				c.add("RPC_SAME_RESPONSE_TYPE", onlyAt(cm, 3), `RPC %q on service %q changed response type from %q to %q.`, name, svc, string(bm.Output().FullName()), string(cm.Output().FullName()))
			}
		}
	}
}
