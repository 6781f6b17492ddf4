package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
)

// TestCoreStdio: `protoplay core --stdio` answers frames on standard
// input with frames on standard output (internal/corestdio) until the
// input ends; it is plumbing, left out of the usage; without --stdio it
// is bad usage.
func TestCoreStdio(t *testing.T) {
	frame := func(m any) []byte {
		b, _ := json.Marshal(m)
		return append(binary.LittleEndian.AppendUint32(nil, uint32(len(b))), b...)
	}
	// A cpu request, which the reading loop answers itself (a call's
	// answer may come after the input has ended, when the process is
	// already on its way out: internal/corestdio's tests have those).
	in := frame(map[string]any{"type": "cpu", "id": 7})
	var stdout, stderr bytes.Buffer
	if code := run([]string{"core", "--stdio"}, bytes.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var msgs []map[string]json.RawMessage
	for out := stdout.Bytes(); len(out) >= 4; {
		n := binary.LittleEndian.Uint32(out)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(out[4:4+n], &m); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
		out = out[4+n:]
	}
	if len(msgs) != 2 || string(msgs[0]["type"]) != `"ready"` || string(msgs[1]["type"]) != `"cpu"` || string(msgs[1]["id"]) != "7" {
		t.Fatalf("answers %v, want ready, then the cpu answer of id 7", msgs)
	}

	var usage bytes.Buffer
	run([]string{"--help"}, nil, &usage, &usage)
	if strings.Contains(usage.String(), "core") {
		t.Errorf("the usage lists the plumbing command core:\n%s", usage.String())
	}
	stderr.Reset()
	if code := run([]string{"core"}, nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "usage: protoplay core --stdio") {
		t.Errorf("core without --stdio: exit %d, %q; want 2 and the usage", code, stderr.String())
	}
}
