package corestdio

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
)

// session starts Serve on pipes and returns a function that sends one
// message and one that reads the next answer.
func session(t *testing.T) (send func(any), recv func() map[string]json.RawMessage, done <-chan error, closeIn func()) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	errc := make(chan error, 1)
	go func() { errc <- Serve(inR, outW); outW.Close() }()
	send = func(m any) {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := writeFrame(inW, b); err != nil {
			t.Fatal(err)
		}
	}
	recv = func() map[string]json.RawMessage {
		body, err := readFrame(outR)
		if err != nil {
			t.Fatalf("reading an answer: %v", err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("an answer that is not JSON: %q: %v", body, err)
		}
		return m
	}
	return send, recv, errc, func() { inW.Close() }
}

// TestServe: the ready message, then calls answered as the wasm bridge
// answers them (compiler.Workspace.CallFiles: the same JSON result, the
// same error text and detail), a cpu request, and the end of the input
// ending Serve.
func TestServe(t *testing.T) {
	send, recv, done, closeIn := session(t)
	ready := recv()
	if string(ready["type"]) != `"ready"` || !strings.Contains(string(ready["version"]), " native ") || string(ready["package"]) == "" {
		t.Fatalf("first message %v, want ready with the version and the package", ready)
	}
	schema := map[string]any{"files": map[string]string{"a.proto": "syntax = \"proto3\";\npackage a;\nmessage M { int32 x = 1; }\n"}}
	send(map[string]any{"type": "call", "id": 1, "method": "encode", "params": map[string]any{"files": schema["files"], "type": "a.M", "input": `{"x":150}`, "in": "json"}})
	r := recv()
	if string(r["type"]) != `"result"` || string(r["id"]) != "1" {
		t.Fatalf("encode answered %v", r)
	}
	params, _ := json.Marshal(map[string]any{"files": schema["files"], "type": "a.M", "input": `{"x":150}`, "in": "json"})
	want, cerr := new(compiler.Workspace).Call(context.Background(), "encode", params)
	if cerr != nil {
		t.Fatal(cerr)
	}
	if !bytes.Equal(r["result"], want) {
		t.Errorf("encode result %s, want the dispatcher's %s", r["result"], want)
	}

	send(map[string]any{"type": "call", "id": 2, "method": "nope", "params": map[string]any{}})
	e := recv()
	_, wantErr := new(compiler.Workspace).Call(context.Background(), "nope", []byte("{}"))
	wantDetail, _ := json.Marshal(wantErr)
	var msg string
	json.Unmarshal(e["message"], &msg)
	if string(e["type"]) != `"error"` || string(e["id"]) != "2" || msg != wantErr.Error() || !bytes.Equal(e["detail"], wantDetail) {
		t.Errorf("an unknown method answered %v, want message %q detail %s", e, wantErr.Error(), wantDetail)
	}

	send(map[string]any{"type": "cpu", "id": 2})
	c := recv()
	if string(c["type"]) != `"cpu"` || string(c["id"]) != "2" || c["ms"] != nil {
		t.Errorf("cpu of an answered call: %v, want no ms", c)
	}
	closeIn()
	if err := <-done; err != nil {
		t.Errorf("Serve at the end of its input: %v", err)
	}
}

// TestServeBadFrames: a frame that is not a message, or a truncated one,
// ends Serve with an error saying so.
func TestServeBadFrames(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input []byte
		want  string
	}{
		{"not JSON", frame([]byte("hello")), "not a message"},
		{"unknown type", frame([]byte(`{"type":"x"}`)), `unknown message type "x"`},
		{"cut length", []byte{5, 0}, "inside a frame's length"},
		{"cut body", append(binary.LittleEndian.AppendUint32(nil, 10), "abc"...), "inside a frame of 10 bytes"},
		{"too long", binary.LittleEndian.AppendUint32(nil, MaxFrame+1), "over the limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Serve(bytes.NewReader(tc.input), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Serve: %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func frame(b []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(b))), b...)
}
