// Package corestdio serves protoplay's core, the JSON API of
// compiler.Workspace (compiler.Methods, dispatched by
// Workspace.CallFiles: the same code the wasm bridge in wasm/main.go
// calls), over a byte stream: the native core that the npm package runs
// in Node when a binary for the platform is installed (`protoplay core
// --stdio`, started by site/src/lib/nativecore.ts).
//
// The stream carries frames both ways: a 4-byte little-endian length,
// then that many bytes of one JSON object (UTF-8). The messages are the
// envelopes of site/src/lib/messages.ts:
//
//	core → host  {"type":"ready","version":V,"package":P}     first, once
//	host → core  {"type":"call","id":N,"method":M,"params":{...}}
//	core → host  {"type":"result","id":N,"result":{...}}
//	core → host  {"type":"error","id":N,"message":S,"detail":{...}}
//	host → core  {"type":"cpu","id":N}
//	core → host  {"type":"cpu","id":N,"ms":T}
//
// V is compiler.Version() with " native GOOS/GOARCH" after it, P the
// package version (internal/version.Base without its "v"), which the host
// compares with its own. A call's params are the JSON of the method's
// request type (its limits included) and its result the JSON of the
// result type; an error's message is the *compiler.Error's text and its
// detail that error as JSON, as the wasm bridge rejects. Calls run
// concurrently, each on its own goroutine, and are answered as they end.
// A "cpu" request asks how much CPU time (user and system, in ms) the
// process has used since call N arrived; ms is absent once N has been
// answered. The host uses it to tell a core that is over its time limit
// from one a busy machine gave no CPU (site/src/lib/nodethread.ts).
//
// The end of the input (the host closed the pipe, or died) ends the
// process at once, also in the middle of a call: Serve returns, and the
// caller exits.
package corestdio

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/version"
)

// MaxFrame is the largest frame read, in bytes: a request's JSON, sources
// included. A longer one ends the stream with an error.
const MaxFrame = 1 << 30

// Version is what the ready message says the core is: compiler.Version()
// and the platform.
func Version() string {
	return compiler.Version() + " native " + runtime.GOOS + "/" + runtime.GOARCH
}

type request struct {
	Type   string          `json:"type"`
	ID     int64           `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Serve answers the frames read from r with frames written to w until r
// ends (nil) or a frame cannot be read or written (the error). It tunes
// the Go runtime's collector as the wasm core does (tuneGC).
func Serve(r io.Reader, w io.Writer) error {
	tuneGC()
	s := &server{w: w, arrived: map[int64]float64{}}
	s.ws.Store(s.newWorkspace())
	if err := s.send(map[string]any{"type": "ready", "version": Version(), "package": strings.TrimPrefix(version.Base, "v")}); err != nil {
		return err
	}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		body, err := readFrame(br)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var req request
		if err := json.Unmarshal(body, &req); err != nil {
			return fmt.Errorf("corestdio: a frame that is not a message: %v", err)
		}
		switch req.Type {
		case "call":
			s.mu.Lock()
			s.arrived[req.ID] = processCPUms()
			s.mu.Unlock()
			go s.call(s.ws.Load(), req)
		case "cpu":
			s.mu.Lock()
			t0, ok := s.arrived[req.ID]
			s.mu.Unlock()
			m := map[string]any{"type": "cpu", "id": req.ID}
			if ok {
				m["ms"] = processCPUms() - t0
			}
			if err := s.send(m); err != nil {
				return err
			}
		default:
			return fmt.Errorf("corestdio: unknown message type %q", req.Type)
		}
	}
}

type server struct {
	mu      sync.Mutex // guards arrived, and w's frames
	w       io.Writer
	arrived map[int64]float64 // call id → processCPUms() when it came
	// memoryLimit is the last request's memory limit, in bytes (0: none).
	memoryLimit atomic.Int64
	// ws answers the calls; replaced by a new one (its caches dropped)
	// when a call leaves the memory over the limit.
	ws atomic.Pointer[compiler.Workspace]
}

func (s *server) newWorkspace() *compiler.Workspace {
	soft := softMemoryLimit()
	return &compiler.Workspace{OnMemoryLimit: func(limit int64) {
		s.memoryLimit.Store(limit)
		if soft != nil {
			soft(limit)
		}
	}}
}

// call runs one request through the workspace's dispatcher and answers.
func (s *server) call(ws *compiler.Workspace, req request) {
	params := []byte(req.Params)
	if len(params) == 0 || string(params) == "null" {
		params = []byte("{}")
	}
	out, cerr := ws.CallFiles(context.Background(), req.Method, params, nil)
	var frame []byte
	if cerr != nil {
		detail, err := json.Marshal(cerr)
		if err != nil {
			detail = []byte("null")
		}
		msg, _ := json.Marshal(cerr.Error())
		frame = fmt.Appendf(nil, `{"type":"error","id":%d,"message":%s,"detail":%s}`, req.ID, msg, detail)
	} else {
		frame = fmt.Appendf(nil, `{"type":"result","id":%d,"result":`, req.ID)
		frame = append(append(frame, out...), '}')
	}
	// A call may have left the memory over the limit: as the wasm core
	// is replaced then, the calls after it (sent once this one is
	// answered) get a new workspace (the schema and code it kept are
	// dropped), and the memory goes back to the system.
	if limit := s.memoryLimit.Load(); limit > 0 && compiler.MemoryInUse() > uint64(limit) {
		s.ws.CompareAndSwap(ws, s.newWorkspace())
		debug.FreeOSMemory()
	}
	s.mu.Lock()
	delete(s.arrived, req.ID)
	err := writeFrame(s.w, frame)
	s.mu.Unlock()
	if err != nil {
		// The host is gone: nothing is waiting for any answer.
		os.Exit(0)
	}
}

func (s *server) send(m any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return writeFrame(s.w, b)
}

// readFrame reads one frame's body; io.EOF at a frame boundary.
func readFrame(r io.Reader) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("corestdio: the input ended inside a frame's length")
		}
		return nil, err
	}
	size := binary.LittleEndian.Uint32(n[:])
	if size > MaxFrame {
		return nil, fmt.Errorf("corestdio: a frame of %d bytes, over the limit of %d", size, MaxFrame)
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("corestdio: the input ended inside a frame of %d bytes: %v", size, err)
	}
	return body, nil
}

// writeFrame writes body as one frame.
func writeFrame(w io.Writer, body []byte) error {
	buf := make([]byte, 4, 4+len(body))
	binary.LittleEndian.PutUint32(buf, uint32(len(body)))
	_, err := w.Write(append(buf, body...))
	return err
}

// tuneGC trades memory for speed as the wasm core does (wasm/main.go's
// tuneGC): a compile allocates many times the heap it leaves live, so the
// collector runs at GOGC=400 unless GOGC is set. softMemoryLimit lowers
// the runtime's soft limit to 7/8 of a request's memory limit, so that
// garbage alone seldom passes it (nil when GOMEMLIMIT is set).
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}

func softMemoryLimit() func(int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return nil
	}
	return func(limit int64) {
		if target := limit / 8 * 7; target < debug.SetMemoryLimit(-1) {
			debug.SetMemoryLimit(target)
		}
	}
}
