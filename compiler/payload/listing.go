package payload

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// maxListedBytes is how many bytes of a field a listing line shows before
// eliding the rest.
const maxListedBytes = 12

// Listing renders a View as an indented text listing, one line per field:
// its byte offset, its leading bytes in hex (tag, length prefix and, for
// scalars, the value, up to 12 bytes), and the field number, name, type,
// wire type and value, with children indented under their parent and a
// closing line for each message, group or packed field. payload must be
// the bytes the View was made from. A View with an Error ends with an
// "error at byte N" line. A View cut at MaxViewFields has a line saying
// how many fields and elements were left out, from which byte on.
func Listing(v *View, payload []byte) string {
	type line struct {
		off   int
		bytes string
		text  string
	}
	var lines []line
	var walk func(fs []Field, depth int)
	walk = func(fs []Field, depth int) {
		ind := strings.Repeat("  ", depth)
		for _, f := range fs {
			head := f.Offset + f.Length
			nested := f.Nested || f.Packed
			if nested || f.WireType == wtLen {
				head = f.ValueOffset
			}
			if f.WireType == wtSGroup {
				head = f.Offset + f.TagLength
			}
			lines = append(lines, line{f.Offset, hexRange(payload, f.Offset, head), ind + describe(f, nested)})
			if nested {
				walk(f.Children, depth+1)
				closeText := ind + "}"
				closeOff := f.ValueOffset + f.ValueLength
				closeBytes := ""
				if f.Packed {
					closeText = ind + "]"
				}
				if f.WireType == wtSGroup && f.Offset+f.Length > closeOff {
					closeBytes = hexRange(payload, closeOff, f.Offset+f.Length)
					closeText += " EGROUP"
				}
				lines = append(lines, line{-1, closeBytes, closeText})
			}
		}
	}
	walk(v.Fields, 0)
	width := len("bytes")
	for _, l := range lines {
		width = max(width, len(l.bytes))
	}
	var b strings.Builder
	title := v.Type
	if title == "" {
		title = "raw"
	}
	fmt.Fprintf(&b, "%s, %s\n", title, countOf(v.Size, "byte", "bytes"))
	fmt.Fprintf(&b, "%6s  %-*s  %s\n", "offset", width, "bytes", "field")
	for _, l := range lines {
		off := ""
		if l.off >= 0 {
			off = strconv.Itoa(l.off)
		}
		fmt.Fprintf(&b, "%6s  %-*s  %s\n", off, width, l.bytes, l.text)
	}
	if v.Unlisted > 0 {
		fmt.Fprintf(&b, "%6d  %-*s  ... %d more fields and elements from byte %d on, checked but not listed (MaxViewFields = %d)\n",
			v.UnlistedFrom, width, "", v.Unlisted, v.UnlistedFrom, MaxViewFields)
	}
	if v.Error != nil {
		fmt.Fprintf(&b, "error %s\n", v.Error.Error())
	}
	return b.String()
}

func hexRange(p []byte, from, to int) string {
	if from < 0 || from > to || to > len(p) {
		return ""
	}
	n := to - from
	var parts []string
	for i := from; i < from+min(n, maxListedBytes); i++ {
		parts = append(parts, hex.EncodeToString(p[i:i+1]))
	}
	s := strings.Join(parts, " ")
	if n > maxListedBytes {
		s += " …"
	}
	return s
}

func describe(f Field, nested bool) string {
	var b strings.Builder
	if f.TagLength == 0 {
		b.WriteString("-") // a packed element
	} else {
		b.WriteString(strconv.Itoa(int(f.Number)))
		if f.Name != "" {
			b.WriteString(" " + f.Name)
		}
	}
	b.WriteString(" (")
	if f.Unknown {
		b.WriteString("unknown ")
	}
	b.WriteString(f.Type)
	if f.TagLength > 0 {
		b.WriteString(", " + WireTypeName(f.WireType))
		if f.WireType == wtLen {
			b.WriteString(" " + strconv.Itoa(f.ValueLength))
		}
	}
	if f.Packed {
		b.WriteString(", packed")
	}
	b.WriteString(")")
	switch {
	case f.Packed:
		b.WriteString(" [")
	case nested:
		b.WriteString(" {")
	default:
		b.WriteString(" = " + f.Value)
	}
	for i, a := range f.Alternatives {
		if i == 0 {
			b.WriteString("  or ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(a.As + " " + a.Value)
	}
	if f.Note != "" {
		b.WriteString("  ! " + f.Note)
	}
	return b.String()
}

// countOf is n with the singular or the plural noun: "1 byte", "2 bytes".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
