//go:build js && wasm && protoplay_lazyruntime

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"syscall/js"

	protoplay "github.com/protoplay/protoplay"
)

// The playground's core is built without the runtime's sources (the tag
// protoplay_lazyruntime, see site/build): runtime=local output fetches
// them, once, from the asset the environment variable
// PROTOPLAY_RUNTIME_URL names, a JSON object from slash-separated path
// ("runtime/wire/wire.go") to file content (site/build writes it from
// protoplay.RuntimeFiles). Calls run on their own goroutine (register), so
// waiting for the fetch blocks only the call that needs them.
func init() {
	protoplay.LoadRuntimeSources = fetchRuntimeSources
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
