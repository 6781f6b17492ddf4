//go:build js && wasm && protoplay_lazyruntime

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall/js"
	"time"

	protoplay "github.com/protoplay/protoplay"
)

// The playground's core is built without the runtime's sources (the tag
// protoplay_lazyruntime, see site/build): runtime=local output fetches
// them, once, from the asset the environment variable
// PROTOPLAY_RUNTIME_URL names, a JSON object from slash-separated path
// ("runtime/wire/wire.go") to file content (site/build writes it from
// protoplay.RuntimeFiles). Calls run on their own goroutine (register), so
// waiting for the fetch blocks only the call that needs them.
//
// They are also prefetched in the background, once the first compile or
// generate has answered and no call has run for prefetchIdle, so that a
// page that has loaded makes a complete .zip (the "module" call, which
// holds the runtime) even when the network is gone by then. A failed
// prefetch is not kept: the next call that needs the sources fetches
// again, and so does the next pause after a compile.
func init() {
	protoplay.LoadRuntimeSources = fetchRuntimeSources
	onCall = prefetchOnPause
}

// prefetchIdle is how long the calls must pause before the prefetch.
var prefetchIdle = time.Second

var prefetch struct {
	sync.Mutex
	timer    *time.Timer
	inFlight int  // calls started and not yet answered
	armed    bool // a compile or generate has answered since the last prefetch began
	done     bool // the sources are loaded
}

// prefetchOnPause is onCall: it (re)starts the pause timer, whose end
// loads the sources (protoplay.RuntimeFS, which keeps them once loaded).
func prefetchOnPause(method string, answered bool) {
	prefetch.Lock()
	defer prefetch.Unlock()
	if prefetch.done {
		return
	}
	if !answered {
		prefetch.inFlight++
		if prefetch.timer != nil {
			prefetch.timer.Stop()
		}
		return
	}
	prefetch.inFlight--
	if method == "compile" || method == "generate" {
		prefetch.armed = true
	}
	if !prefetch.armed || prefetch.inFlight > 0 {
		return
	}
	if prefetch.timer == nil {
		prefetch.timer = time.AfterFunc(prefetchIdle, prefetchNow)
	} else {
		prefetch.timer.Reset(prefetchIdle)
	}
}

func prefetchNow() {
	prefetch.Lock()
	if prefetch.done || prefetch.inFlight > 0 || !prefetch.armed {
		prefetch.Unlock()
		return
	}
	prefetch.armed = false
	prefetch.Unlock()
	_, err := protoplay.RuntimeFS()
	prefetch.Lock()
	prefetch.done = err == nil
	prefetch.Unlock()
}

func fetchRuntimeSources() (map[string]string, error) {
	url := os.Getenv("PROTOPLAY_RUNTIME_URL")
	if url == "" {
		return nil, errors.New("this build of the core loads them from PROTOPLAY_RUNTIME_URL, which is not set")
	}
	text, err := fetchText(url)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %v", url, err)
	}
	var files map[string]string
	if err := json.Unmarshal([]byte(text), &files); err != nil {
		return nil, fmt.Errorf("%s: %v", url, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no files", url)
	}
	return files, nil
}

// fetchText fetches url with the JS fetch and returns the body as text;
// an error for a network failure or a status other than 2xx.
func fetchText(url string) (string, error) {
	type result struct {
		text string
		err  error
	}
	done := make(chan result, 1)
	var onResponse, onText, onError js.Func
	onError = js.FuncOf(func(this js.Value, args []js.Value) any {
		msg := "fetch failed"
		if len(args) > 0 {
			msg = args[0].Call("toString").String()
		}
		done <- result{err: errors.New(msg)}
		return nil
	})
	onText = js.FuncOf(func(this js.Value, args []js.Value) any {
		done <- result{text: args[0].String()}
		return nil
	})
	onResponse = js.FuncOf(func(this js.Value, args []js.Value) any {
		r := args[0]
		if !r.Get("ok").Bool() {
			done <- result{err: fmt.Errorf("HTTP %d", r.Get("status").Int())}
			return nil
		}
		r.Call("text").Call("then", onText, onError)
		return nil
	})
	defer onResponse.Release()
	defer onText.Release()
	defer onError.Release()
	js.Global().Call("fetch", url).Call("then", onResponse, onError)
	res := <-done
	return res.text, res.err
}
