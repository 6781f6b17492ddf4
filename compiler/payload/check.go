package payload

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	pjson "github.com/protoplay/protoplay/runtime/protojson"
)

// CheckResult is the outcome of the checks on one message type.
type CheckResult struct {
	// Type is the message type's full name.
	Type string `json:"type"`
	// Pass is true when every step passed.
	Pass bool `json:"pass"`
	// Step names the first step that failed: "binary" (sample -> binary
	// -> value), "json" (sample -> JSON -> value) or "rebinary" (binary
	// -> JSON -> binary). Empty on a pass.
	Step string `json:"step,omitempty"`
	// Path is the field path of the first difference found, e.g.
	// "child.items[1]" or "counts[\"b\"]"; empty when the step failed
	// with an error rather than a difference.
	Path string `json:"path,omitempty"`
	// Message explains the failure.
	Message string `json:"message,omitempty"`
	// Size is the sample's binary size in bytes.
	Size int `json:"size"`
}

// Check runs three round trips on the Sample of every message type of the
// schema (Schema.Messages): sample -> binary -> value must equal the
// sample; sample -> JSON -> value must equal the sample; binary -> JSON ->
// binary must give the same bytes (deterministic marshaling). Equality is
// FirstDifference's. Required fields are not enforced (partial messages
// are allowed), since a type whose required fields form a cycle has no
// complete finite value. It returns one result per type, in declaration
// order.
func (s *Schema) Check() []CheckResult {
	var out []CheckResult
	for _, md := range s.Messages() {
		out = append(out, s.CheckType(md))
	}
	return out
}

// CheckType runs Check's round trips on one message type.
func (s *Schema) CheckType(md protoreflect.MessageDescriptor) (r CheckResult) {
	md = s.resolve(md)
	r.Type = string(md.FullName())
	defer func() {
		if p := recover(); p != nil {
			r.Pass, r.Message = false, fmt.Sprintf("internal error: %v", p)
		}
	}()
	fail := func(step, path, format string, args ...any) CheckResult {
		r.Step, r.Path, r.Message = step, path, fmt.Sprintf(format, args...)
		return r
	}
	sample := Sample(md)
	marshal := proto.MarshalOptions{Deterministic: true, AllowPartial: true}
	unmarshal := proto.UnmarshalOptions{Resolver: s.Types, RecursionLimit: MaxDepth, AllowPartial: true}
	// JSON as generated MarshalJSON / UnmarshalJSON write and read it
	// (see json.go).
	toJSON := jsonMarshaler{s}
	fromJSON := func(j []byte) (*dynamicpb.Message, error) {
		m := dynamicpb.NewMessage(md)
		if err := s.unmarshalJSON(j, m, pjson.UnmarshalOptions{AllowPartial: true}); err != nil {
			return nil, jsonError(err)
		}
		return m, nil
	}

	bin, err := marshal.Marshal(sample)
	if err != nil {
		return fail("binary", "", "marshal sample: %v", err)
	}
	r.Size = len(bin)
	fromBin := dynamicpb.NewMessage(md)
	if err := unmarshal.Unmarshal(bin, fromBin); err != nil {
		return fail("binary", "", "unmarshal: %v", AsError(err))
	}
	if p, ok := FirstDifference(sample, fromBin); !ok {
		return fail("binary", p, "value after binary round trip differs at %s", orTop(p))
	}

	j, err := toJSON.Marshal(sample)
	if err != nil {
		return fail("json", "", "marshal sample to JSON: %v", err)
	}
	viaJSON, err := fromJSON(j)
	if err != nil {
		return fail("json", "", "parse JSON: %v", err)
	}
	if p, ok := FirstDifference(sample, viaJSON); !ok {
		return fail("json", p, "value after JSON round trip differs at %s", orTop(p))
	}

	j2, err := toJSON.Marshal(fromBin)
	if err != nil {
		return fail("rebinary", "", "marshal decoded value to JSON: %v", err)
	}
	back, err := fromJSON(j2)
	if err != nil {
		return fail("rebinary", "", "parse JSON: %v", err)
	}
	bin2, err := marshal.Marshal(back)
	if err != nil {
		return fail("rebinary", "", "marshal: %v", err)
	}
	if !bytes.Equal(bin, bin2) {
		p, _ := FirstDifference(fromBin, back)
		return fail("rebinary", p, "bytes differ after binary -> JSON -> binary (%d vs %d bytes, first at byte %d)",
			len(bin), len(bin2), firstByteDiff(bin, bin2))
	}
	r.Pass = true
	return r
}

func orTop(p string) string {
	if p == "" {
		return "the top level"
	}
	return p
}

func firstByteDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// FirstDifference compares two messages of the same type field by field,
// in field number order, and returns the path of the first field that
// differs ("a.b[2]", "m[\"key\"]", "[pkg.ext]" for an extension, "" for the
// message itself or its unknown fields) and false; or "", true when they
// are equal. Floats compare by value, except that NaN equals NaN.
func FirstDifference(a, b proto.Message) (string, bool) {
	return diffMessage(a.ProtoReflect(), b.ProtoReflect(), "")
}

func diffMessage(a, b protoreflect.Message, path string) (string, bool) {
	if a.Descriptor().FullName() != b.Descriptor().FullName() {
		return path, false
	}
	fds := map[protoreflect.FieldNumber]protoreflect.FieldDescriptor{}
	collect := func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		fds[fd.Number()] = fd
		return true
	}
	a.Range(collect)
	b.Range(collect)
	nums := make([]protoreflect.FieldNumber, 0, len(fds))
	for n := range fds {
		nums = append(nums, n)
	}
	sort.Slice(nums, func(i, j int) bool { return nums[i] < nums[j] })
	for _, n := range nums {
		fd := fds[n]
		name := string(fd.Name())
		if fd.IsExtension() {
			name = "[" + string(fd.FullName()) + "]"
		}
		fp := joinPath(path, name)
		if a.Has(fd) != b.Has(fd) {
			return fp, false
		}
		if p, ok := diffValue(fd, a.Get(fd), b.Get(fd), fp); !ok {
			return p, false
		}
	}
	if !bytes.Equal(a.GetUnknown(), b.GetUnknown()) {
		return path, false
	}
	return "", true
}

func diffValue(fd protoreflect.FieldDescriptor, a, b protoreflect.Value, path string) (string, bool) {
	switch {
	case fd.IsList():
		la, lb := a.List(), b.List()
		for i := 0; i < min(la.Len(), lb.Len()); i++ {
			if p, ok := diffSingle(fd, la.Get(i), lb.Get(i), path+"["+strconv.Itoa(i)+"]"); !ok {
				return p, false
			}
		}
		if la.Len() != lb.Len() {
			return path + "[" + strconv.Itoa(min(la.Len(), lb.Len())) + "]", false
		}
		return "", true
	case fd.IsMap():
		ma, mb := a.Map(), b.Map()
		var keys []protoreflect.MapKey
		ma.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool { keys = append(keys, k); return true })
		mb.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
			if !ma.Has(k) {
				keys = append(keys, k)
			}
			return true
		})
		sort.Slice(keys, func(i, j int) bool { return keyLess(keys[i], keys[j]) })
		for _, k := range keys {
			kp := path + "[" + keyString(k) + "]"
			if !ma.Has(k) || !mb.Has(k) {
				return kp, false
			}
			if p, ok := diffSingle(fd.MapValue(), ma.Get(k), mb.Get(k), kp); !ok {
				return p, false
			}
		}
		return "", true
	}
	return diffSingle(fd, a, b, path)
}

func diffSingle(fd protoreflect.FieldDescriptor, a, b protoreflect.Value, path string) (string, bool) {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return diffMessage(a.Message(), b.Message(), path)
	case protoreflect.BytesKind:
		return path, bytes.Equal(a.Bytes(), b.Bytes())
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		x, y := a.Float(), b.Float()
		return path, x == y || math.IsNaN(x) && math.IsNaN(y)
	}
	return path, a.Interface() == b.Interface()
}

func keyString(k protoreflect.MapKey) string {
	if s, ok := k.Interface().(string); ok {
		return strconv.Quote(s)
	}
	return k.String()
}

func keyLess(a, b protoreflect.MapKey) bool {
	switch x := a.Interface().(type) {
	case string:
		return x < b.Interface().(string)
	case bool:
		return !x && b.Bool()
	case int32, int64:
		return a.Int() < b.Int()
	}
	return a.Uint() < b.Uint()
}

// jsonMarshaler writes ProtoJSON as generated MarshalJSON does, required
// fields not checked.
type jsonMarshaler struct{ s *Schema }

func (j jsonMarshaler) Marshal(m proto.Message) ([]byte, error) {
	return j.s.marshalJSON(j.s.jsonOf(m.ProtoReflect()), pjson.MarshalOptions{AllowPartial: true})
}
