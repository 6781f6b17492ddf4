// Package gocheck is the one definition of the checks that protoplay runs
// on generated Go code: per message type, the reference codec's bytes for
// the type's sample are decoded by the generated Unmarshal and re-encoded
// by Marshal (bytes equal, or, where only the order differs, decoded
// values Equal); Size must be the output's length; Clone must be deep and
// Equal; and probe payloads must be refused exactly where the reference
// refuses them, for the same kind of reason.
//
// The checks run in two hosts, on the same source: the browser's
// interpreter (package interp, Session.Check) interprets exercise.go
// (Source) beside the generated code, and protoplay check --generated
// (compiler.CheckGenerated) compiles exercise.go with the generated code
// into a native harness (Harness) built by the go command. Both hand the
// Outcomes to Judge. The package uses the standard library only and lives
// under interp/ (not compiler/), so that the interpreter's wasm module
// links it and nothing of the compiler, and the compiler imports it as a
// leaf.
package gocheck

import (
	"bytes"
	_ "embed"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Source is the Go source of exercise.go: package gocheck's Message,
// Outcome and Exercise, which run the generated code. Hosts load it as
// the package ImportPath.
//
//go:embed exercise.go
var Source string

// ImportPath is the import path of this package, under which hosts load
// Source.
const ImportPath = "github.com/protoplay/protoplay/interp/gocheck"

// Adapter returns a Go expression, of type Outcome, that exercises the
// generated message type goName of the package imported as pkg on the
// payload b, with this package imported as self: the glue between
// Exercise and one generated type, the same in every host.
func Adapter(self, pkg, goName string) string {
	t := "*" + pkg + "." + goName
	return fmt.Sprintf("%[1]s.Exercise(b, func() %[1]s.Message { return new(%[2]s.%[3]s) }, "+
		"func(m %[1]s.Message) %[1]s.Message { return m.(%[4]s).Clone() }, "+
		"func(x, y %[1]s.Message) bool { return x.(%[4]s).Equal(y.(%[4]s)) })", self, pkg, goName, t)
}

// Request asks for the checks of one message type.
type Request struct {
	// Type is the message type's full name.
	Type string `json:"type"`
	// Hex is the reference codec's encoding of the type's sample (the
	// core's sample, encoded by the core's encode: deterministic, fields
	// by number, map entries by key), as hex (white space ignored).
	Hex string `json:"hex"`
	// RefError is the reference codec's error when it refused to encode
	// the sample (a required field that cannot be set: a cycle of
	// required message fields); Hex is then ignored.
	RefError string `json:"refError,omitempty"`
	// Probes are more payloads, each with the reference codec's verdict
	// on decoding it; the generated Unmarshal must agree (see Judge).
	Probes []Probe `json:"probes,omitempty"`
}

// Probe is a payload and what the reference codec said decoding it.
type Probe struct {
	// Name says what the payload is ("empty", "invalid UTF-8 in name").
	Name string `json:"name"`
	Hex  string `json:"hex"`
	// RefError is the reference's error decoding it, "" when it decoded.
	RefError string `json:"refError,omitempty"`
}

// Step is the outcome of one check.
type Step struct {
	// Name is "unmarshal", "marshal", "size", "clone" or "errors".
	Name    string `json:"name"`
	Pass    bool   `json:"pass"`
	Message string `json:"message,omitempty"`
}

// Result is what the generated code of one message type did.
type Result struct {
	Type   string `json:"type"`
	GoType string `json:"goType"` // "pkg.GoName", pkg the package's last path element
	Pass   bool   `json:"pass"`
	Steps  []Step `json:"steps"`
	// Reference and Generated are the reference bytes and the generated
	// Marshal's output for them, as hex without spaces (Generated empty
	// when Unmarshal failed).
	Reference string `json:"reference"`
	Generated string `json:"generated"`
	// Offset is the first byte at which Generated differs from Reference
	// (the shorter one's length when one is a prefix of the other), -1
	// when they are equal.
	Offset int `json:"offset"`
	// ElapsedMs is the time the checks took, in milliseconds (set by the
	// host).
	ElapsedMs float64 `json:"elapsedMs"`
}

// Inputs returns the payloads the checks of req run the generated code on:
// the reference bytes (nil when RefError is set) and each probe's bytes,
// in order. Its error names the field whose hex is malformed.
func (req *Request) Inputs() (ref []byte, probes [][]byte, err error) {
	if req.RefError == "" {
		if ref, err = ParseHex(req.Hex); err != nil {
			return nil, nil, fmt.Errorf("hex: %w", err)
		}
	}
	for _, p := range req.Probes {
		b, err := ParseHex(p.Hex)
		if err != nil {
			return nil, nil, fmt.Errorf("probe %s: hex: %w", p.Name, err)
		}
		probes = append(probes, b)
	}
	return ref, probes, nil
}

// Judge turns what the generated code did into the checks' verdicts: ref
// is the Outcome on the reference bytes (ignored when req.RefError is
// set), probes the Outcomes on req.Probes, in order. The generated
// Unmarshal must accept the reference bytes; Marshal must give the same
// bytes (or, where they differ, the same bytes in another order, which the
// generated Unmarshal decodes to an Equal message: an order of map entries
// or unknown fields that the reference does not use); Size
// must be the output's length; Clone must be Equal both ways and still
// marshal to the same bytes after the original is Reset (deep). Each probe
// must be refused exactly where the reference refused it, for the same
// kind of reason (ErrorClass). goType is Result.GoType.
func Judge(req Request, goType string, ref Outcome, probes []Outcome) *Result {
	refBytes, _ := ParseHex(req.Hex)
	res := &Result{Type: req.Type, GoType: goType, Reference: hex.EncodeToString(refBytes), Offset: -1}
	step := func(name string, pass bool, format string, args ...any) {
		st := Step{Name: name, Pass: pass}
		if !pass {
			st.Message = fmt.Sprintf(format, args...)
		}
		res.Steps = append(res.Steps, st)
	}
	if req.RefError == "" {
		o := ref
		res.Generated = hex.EncodeToString(o.Out)
		switch {
		case o.Panic != "":
			step("unmarshal", false, "the generated code panicked: %s", o.Panic)
		case o.Unmarshal != "":
			step("unmarshal", false, "Unmarshal refused the reference bytes: %s", o.Unmarshal)
		case o.Marshal != "":
			step("unmarshal", true, "")
			step("marshal", false, "Marshal failed: %s", o.Marshal)
		default:
			step("unmarshal", true, "")
			if !bytes.Equal(o.Out, refBytes) {
				res.Offset = FirstDiff(o.Out, refBytes)
				if o.Reparse != "" || !o.ReparsedEqual || len(o.Out) != len(refBytes) || !sameBytes(o.Out, refBytes) {
					why := "its Unmarshal decodes them to a different message"
					switch {
					case o.Reparse != "":
						why = "its Unmarshal refuses them: " + o.Reparse
					case len(o.Out) != len(refBytes):
						why = fmt.Sprintf("%d bytes where the reference has %d", len(o.Out), len(refBytes))
					case o.ReparsedEqual:
						// Equal values, but not a reordering: another
						// encoding of some value (a varint's unused
						// high bits, say).
						why = "they are not a reordering of the reference's bytes (the values decode Equal: a non-canonical encoding)"
					}
					step("marshal", false, "Marshal's bytes differ from the reference's at byte %d, and %s", res.Offset, why)
				} else {
					// Same length, same bytes in another order, same
					// message: another order (of map entries or unknown
					// fields) than the reference's.
					step("marshal", true, "")
				}
			} else {
				step("marshal", true, "")
			}
			step("size", o.Size == len(o.Out), "Size() is %d, Marshal wrote %d bytes", o.Size, len(o.Out))
			switch {
			case !o.CloneEqual:
				step("clone", false, "Clone() is not Equal to the original")
			case o.CloneMarshal != "":
				step("clone", false, "the clone's Marshal failed: %s", o.CloneMarshal)
			case !bytes.Equal(o.CloneOut, o.Out):
				step("clone", false, "the clone marshals differently after the original is Reset (a shallow copy), from byte %d", FirstDiff(o.CloneOut, o.Out))
			default:
				step("clone", true, "")
			}
		}
	}
	var bad []string
	for i, p := range req.Probes {
		var o Outcome
		if i < len(probes) {
			o = probes[i]
		} else {
			o.Panic = "no outcome for this probe"
		}
		want := ErrorClass(p.RefError)
		var got string
		switch {
		case o.Panic != "":
			got = "panic"
		case o.Unmarshal != "":
			got = ErrorClass(o.Unmarshal)
		}
		if got != want {
			gen := "accepted it"
			if o.Panic != "" {
				gen = "panicked: " + o.Panic
			} else if o.Unmarshal != "" {
				gen = "refused it: " + o.Unmarshal
			}
			ref := "accepted it"
			if p.RefError != "" {
				ref = "refused it: " + p.RefError
			}
			bad = append(bad, fmt.Sprintf("%s: the reference %s; the generated Unmarshal %s", p.Name, ref, gen))
		}
	}
	if len(req.Probes) > 0 {
		step("errors", len(bad) == 0, "%s", strings.Join(bad, "; "))
	}
	res.Pass = true
	for _, st := range res.Steps {
		res.Pass = res.Pass && st.Pass
	}
	return res
}

// sameBytes reports whether a and b hold the same bytes, each as many
// times (a reordering of fields, entries or records keeps them).
func sameBytes(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	var n [256]int
	for i := range a {
		n[a[i]]++
		n[b[i]]--
	}
	for _, c := range n {
		if c != 0 {
			return false
		}
	}
	return true
}

// ParseHex decodes hex digits, ignoring white space ("0a 05 ..." as the
// core writes it).
func ParseHex(s string) ([]byte, error) {
	return hex.DecodeString(strings.Join(strings.Fields(s), ""))
}

// ErrorClass sorts a decoding error by its reason, from its text (both
// the reference codec's and runtime/wire's say these words): "required",
// "utf8", "malformed", or "" for no error.
func ErrorClass(msg string) string {
	l := strings.ToLower(msg)
	switch {
	case msg == "":
		return ""
	case strings.Contains(l, "required"):
		return "required"
	case strings.Contains(l, "utf-8") || strings.Contains(l, "utf8"):
		return "utf8"
	}
	return "malformed"
}

// FirstDiff is the first index at which a and b differ; the shorter
// length when one is a prefix of the other.
func FirstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// BreakMarshal returns content (a generated Go file) with the Marshal
// method of its type goName made wrong: it flips the low bit of the middle
// byte of every output. ok is false when content has no such method. A
// test hook (the page's ?breakcheck=TYPE, CheckGeneratedOptions.Break),
// so that a test can see a check fail.
func BreakMarshal(content, goName string) (out string, ok bool) {
	head := "func (m *" + goName + ") Marshal() ([]byte, error) {\n"
	if !strings.Contains(content, head) {
		return content, false
	}
	return strings.Replace(content, head,
		"func (m *"+goName+") Marshal() ([]byte, error) {\n\tb, err := m.marshalUnbroken()\n\tif len(b) > 0 {\n\t\tb[len(b)/2] ^= 1\n\t}\n\treturn b, err\n}\n\n"+
			"func (m *"+goName+") marshalUnbroken() ([]byte, error) {\n", 1), true
}

// Type is one generated message type for Harness.
type Type struct {
	// ImportPath is the Go import path of its package; GoName its Go name.
	ImportPath, GoName string
}

// Harness returns the source of a main package that imports this package
// (the file exercise.go only) and the packages of types, and answers, for
// each line "I HEX" of its standard input, with one line: the JSON of the
// Outcome of Exercise on type types[I] with the payload HEX (no HEX: the
// empty payload). A line it cannot read is answered with an Outcome whose
// Panic says why.
func Harness(types []Type) string {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"bufio\"\n\t\"encoding/hex\"\n\t\"encoding/json\"\n\t\"os\"\n\t\"strconv\"\n\t\"strings\"\n\n")
	fmt.Fprintf(&b, "\tgocheck %q\n", ImportPath)
	aliases := map[string]string{}
	var paths []string
	for _, t := range types {
		if _, ok := aliases[t.ImportPath]; !ok {
			aliases[t.ImportPath] = "p" + strconv.Itoa(len(aliases))
			paths = append(paths, t.ImportPath)
		}
	}
	sort.Slice(paths, func(i, j int) bool { return aliases[paths[i]] < aliases[paths[j]] })
	for _, p := range paths {
		fmt.Fprintf(&b, "\t%s %q\n", aliases[p], p)
	}
	b.WriteString(")\n\nvar checks = []func(b []byte) gocheck.Outcome{\n")
	for _, t := range types {
		fmt.Fprintf(&b, "\tfunc(b []byte) gocheck.Outcome { return %s },\n", Adapter("gocheck", aliases[t.ImportPath], t.GoName))
	}
	b.WriteString(`}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<28)
	enc := json.NewEncoder(os.Stdout)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		var o gocheck.Outcome
		i, err := -1, error(nil)
		if len(f) > 0 {
			i, err = strconv.Atoi(f[0])
		}
		var b []byte
		if err == nil && len(f) > 1 {
			b, err = hex.DecodeString(f[1])
		}
		switch {
		case err != nil:
			o.Panic = "harness: " + err.Error()
		case i < 0 || i >= len(checks):
			o.Panic = "harness: no message type " + strconv.Itoa(i)
		default:
			o = checks[i](b)
		}
		if err := enc.Encode(o); err != nil {
			os.Exit(2)
		}
	}
}
`)
	return b.String()
}
