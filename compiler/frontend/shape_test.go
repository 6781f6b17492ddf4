package frontend

import (
	"fmt"
	"strings"
	"testing"
)

// TestLineScanGrowsWithFile: MaxLineScan's budget grows by LineScanPerByte
// per byte, so a big file of short lines passes whatever its size (the
// hostile pass's 6.3 MB file of 63,000 lines was refused at line 41,880
// when it did not), while declarations packed on one long line still
// fail, in a big file as in a small one.
func TestLineScanGrowsWithFile(t *testing.T) {
	var big strings.Builder
	big.WriteString("syntax = \"proto2\";\npackage b;\nimport \"google/protobuf/timestamp.proto\";\n")
	for m := 0; big.Len() < 6_300_000; m++ {
		fmt.Fprintf(&big, "message M%d {\n", m)
		for f := 1; f <= 40; f++ {
			fmt.Fprintf(&big, "  optional google.protobuf.Timestamp field_number_%d = %d [deprecated = true, json_name = \"f%d\"];\n", f, f, f)
		}
		big.WriteString("}\n")
	}
	if d, ok := checkShape("big.proto", big.String(), MaxNesting); !ok {
		t.Errorf("a %d-byte file of short lines: %s", big.Len(), d.Message)
	}
	var line strings.Builder
	line.WriteString("enum E {")
	for i := 0; i < 4000; i++ {
		fmt.Fprintf(&line, "E%d = %d;", i, i)
	}
	line.WriteString("}\n")
	for name, src := range map[string]string{"one line": line.String(), "one line in a big file": big.String() + line.String()} {
		if d, ok := checkShape("x.proto", src, MaxNesting); ok || d.Limit != "MaxLineScan" || !strings.Contains(d.Message, "plus 16 per byte of the file") {
			t.Errorf("%s: ok %v, %+v", name, ok, d)
		}
	}
}
