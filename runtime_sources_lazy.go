//go:build protoplay_lazyruntime

package protoplay

import (
	"errors"
	"io/fs"
	"sync"
)

// LoadRuntimeSources, in the build with the tag protoplay_lazyruntime (the
// playground's core, see site/build), gets the runtime's sources: the same
// files RuntimeSources embeds in other builds, by slash-separated path
// ("runtime/wire/wire.go") to content. The wasm program sets it (it
// fetches them, wasm/runtime_lazy.go); RuntimeFS calls it when runtime=local
// output first needs them.
var LoadRuntimeSources func() (map[string]string, error)

var runtimeFS struct {
	sync.Mutex
	fs fs.FS
}

// RuntimeFS returns the runtime's sources (see RuntimeSources in the
// default build), loading them with LoadRuntimeSources on the first call
// that succeeds; an error when there is no loader or it fails (a later
// call tries again).
func RuntimeFS() (fs.FS, error) {
	runtimeFS.Lock()
	defer runtimeFS.Unlock()
	if runtimeFS.fs != nil {
		return runtimeFS.fs, nil
	}
	if LoadRuntimeSources == nil {
		return nil, errors.New("this build has no runtime sources (built with the tag protoplay_lazyruntime and no loader set)")
	}
	files, err := LoadRuntimeSources()
	if err != nil {
		return nil, err
	}
	runtimeFS.fs = newFilesFS(files)
	return runtimeFS.fs, nil
}
