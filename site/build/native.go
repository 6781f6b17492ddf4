package main

// The npm package's native cores (go run ./site/build -npm-native DIR
// -platforms host|all|LIST): one package per platform,
// @protoplay/<platform>-<arch>, holding protoplay's CLI built for it,
// which the Node entry runs as `protoplay core --stdio` instead of the
// wasm (site/src/lib/nativecore.ts). As esbuild ships its binaries: the
// main package lists every platform package in optionalDependencies, each
// platform package's "os" and "cpu" let npm install only the one that
// fits, and the Node entry finds it with require.resolve. Each is laid
// out in DIR/<platform>-<arch> as
//
//	package.json   name, version (internal/version.Base), os, cpu
//	bin/protoplay  the binary (protoplay.exe at the top on Windows)
//	README.md      what it is
//	LICENSE        protoplay's
//	THIRD_PARTY_NOTICES.txt  the Go modules linked into the binary
//
// make npm builds the host's (beside the main package, for the tests);
// make npm-release builds all five, cross-compiled (CGO_ENABLED=0).

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// A nativePlatform is one platform package: npm's names for the platform
// (process.platform, process.arch) and Go's.
type nativePlatform struct {
	os, cpu      string // npm's
	goos, goarch string // Go's
}

// nativePlatforms are the platform packages, in the order of the main
// package's optionalDependencies (site/npm/package.json, which
// TestNativePlatformsAgree holds to this list, as it does nativecore.ts's).
var nativePlatforms = []nativePlatform{
	{"linux", "x64", "linux", "amd64"},
	{"linux", "arm64", "linux", "arm64"},
	{"darwin", "x64", "darwin", "amd64"},
	{"darwin", "arm64", "darwin", "arm64"},
	{"win32", "x64", "windows", "amd64"},
}

func (p nativePlatform) dir() string  { return p.os + "-" + p.cpu }
func (p nativePlatform) name() string { return "@protoplay/" + p.dir() }

// binary is the binary's path in the package, as nativecore.ts looks for it.
func (p nativePlatform) binary() string {
	if p.os == "win32" {
		return "protoplay.exe"
	}
	return "bin/protoplay"
}

// platformsOf reads -platforms: "host" (this machine's, when it has a
// package), "all", or a comma-separated list of package directories
// (linux-x64,darwin-arm64).
func platformsOf(which string) ([]nativePlatform, error) {
	switch which {
	case "all":
		return nativePlatforms, nil
	case "host", "":
		for _, p := range nativePlatforms {
			if p.goos == runtime.GOOS && p.goarch == runtime.GOARCH {
				return []nativePlatform{p}, nil
			}
		}
		return nil, nil
	}
	var ps []nativePlatform
next:
	for _, d := range strings.Split(which, ",") {
		for _, p := range nativePlatforms {
			if p.dir() == d {
				ps = append(ps, p)
				continue next
			}
		}
		return nil, fmt.Errorf("-platforms: no platform package %q (there are linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64)", d)
	}
	return ps, nil
}

// runNPMNative builds the platform packages of which into out.
func runNPMNative(root, out, goCmd, which string) error {
	ps, err := platformsOf(which)
	if err != nil {
		return err
	}
	if len(ps) == 0 {
		fmt.Fprintf(os.Stderr, "site/build: no native core for %s/%s: the npm package runs the wasm core here\n", runtime.GOOS, runtime.GOARCH)
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return err
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	version, err := moduleVersion(root)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	for _, p := range ps {
		if err := buildNative(root, filepath.Join(out, p.dir()), goCmd, version, p); err != nil {
			return fmt.Errorf("%s: %w", p.name(), err)
		}
	}
	return nil
}

func buildNative(root, out, goCmd, version string, p nativePlatform) error {
	nt, err := newNotices(root, goCmd)
	if err != nil {
		return err
	}
	nt.binary = true
	b := &builder{root: root, out: out, notices: nt}
	bin := filepath.Join(out, filepath.FromSlash(p.binary()))
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return err
	}
	cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./cmd/protoplay")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+p.goos, "GOARCH="+p.goarch, "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/protoplay for %s/%s: %w", p.goos, p.goarch, err)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	if err := nt.addWasm(p.binary(), data); err != nil {
		return err
	}
	pj, err := json.MarshalIndent(map[string]any{
		"name":        p.name(),
		"version":     version,
		"license":     "Apache-2.0",
		"description": fmt.Sprintf("protoplay's native core for %s %s: the binary the protoplay package runs in Node on this platform, instead of its WebAssembly.", p.os, p.cpu),
		"homepage":    "https://github.com/protoplay/protoplay#readme",
		"repository":  map[string]string{"type": "git", "url": "git+https://github.com/protoplay/protoplay.git", "directory": "site/npm"},
		"os":          []string{p.os},
		"cpu":         []string{p.cpu},
		"files":       []string{p.binary(), "README.md", "LICENSE", noticesName},
		// Yarn's Plug'n'Play must leave the binary on disk to run it.
		"preferUnplugged": true,
		"engines":         map[string]string{"node": ">=18"},
	}, "", "  ")
	if err != nil {
		return err
	}
	if err := b.write("package.json", append(pj, '\n')); err != nil {
		return err
	}
	readme := fmt.Sprintf(`# %s

protoplay's native core for %s %s: protoplay's command-line binary (%s),
which the [protoplay](https://www.npmjs.com/package/protoplay) package runs in
Node on this platform, as `+"`protoplay core --stdio`"+`, instead of its WebAssembly
core: the same calls with the same results, seconds faster to start.

Do not install it yourself: npm installs it with protoplay (one of its
optionalDependencies, the one whose os and cpu match this machine). See
protoplay's README for how to choose the core.
`, p.name(), p.os, p.cpu, p.binary())
	if err := b.write("README.md", []byte(readme)); err != nil {
		return err
	}
	if err := b.writeLicenses("LICENSE", version); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "site/build: npm package %s@%s in %s (%s)\n", p.name(), version, out, size(bin))
	return nil
}
