# The one entry point to build, test and generate. Targets are listed by
# `make help`.
GO ?= go
# -trimpath: the go command's cache keys this module's packages (and the
# replaced modules') by import path and content instead of by the
# checkout's folder, so a second clone, or a temporary module the tests
# write, reuses what any other compiled (without it each fresh clone
# compiled every package of the module again, for each configuration the
# tests build: 212 s of CPU for the test binaries alone, 36 s with it).
export GOFLAGS ?= -mod=mod -trimpath

.PHONY: help test test-short build generate vet fmt demo clean release-check lint valgrind

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

build: ## build the CLI and the protoc plugin into bin/ (and the conformance testee, when protobuf's sources are beside the checkout); the CLI embeds the page when site/dist is built (make site, make serve)
	@if [ -f site/dist/index.html ]; then \
	  echo "make: site/dist is built: bin/protoplay embeds the page (protoplay serve)"; \
	  $(GO) build -tags playground -o bin/protoplay ./cmd/protoplay; \
	else \
	  $(GO) build -o bin/protoplay ./cmd/protoplay; \
	fi
	$(GO) build -o bin/protoc-gen-protoplay ./cmd/protoc-gen-protoplay
	$(GO) run ./cmd/conformance-testee -missing-ok -o bin/conformance-testee

# ---- make test: every test, as CI runs it. First the page's npm
# libraries and its type check (lint uses them too); then two streams
# beside each other from the start: test-site, which builds what the
# browser and npm tests need (the page, the npm package, chromium: one
# after another, at normal priority) and runs the site packages' tests
# (browsers and Node processes: the longest stream), and test-rest, every
# other step, TEST_REST_JOBS at a time, at TEST_NICE, so that the builds
# and pages test-site waits on are not slowed by them and the CPU they
# leave idle goes to these: the other packages' tests (test-go:
# compiler/gogen, the longest, first), the codec and bench modules, the
# wasm tests, conformance and lint, then go vet. go vet comes last: on a
# fresh clone its work is compiling every package, which test-go (and
# lint's staticcheck) compile too, and run beside them it compiled them a
# second time; after them it only reads the go command's build cache.
# The streams' output is interleaved by line (make --output-sync=line);
# every step runs to its end and make test fails if any failed (make -k).
# Each step also runs alone (make test-site, make test-go, ...). The go
# test timeouts are there for a test that hangs: on a busy machine (a
# second make test beside this one) the packages take several times as
# long as on a quiet one.
TEST_NICE ?= nice -n 10
TEST_REST_JOBS ?= 2
TEST_REST = test-go test-codec test-bench test-wasm test-conformance test-lint
.PHONY: test-site test-rest test-vet $(TEST_REST)

test: ## run every test (what CI runs): test-site and test-rest, beside each other
	@$(MAKE) --no-print-directory site/node_modules/.package-lock.json .cache/tsc-page
	@$(MAKE) --no-print-directory -k -j2 --output-sync=line test-site test-rest

# PROTOPLAY_E2E=1 turns the skips of the tests that need the page,
# chromium, npm or node into failures: make test provides them all.
test test-site test-rest test-vet $(TEST_REST): export PROTOPLAY_E2E = 1

# The page is compressed at brotli quality 5, as make serve's: the tests
# read the same bytes at any quality, and quality 11 of the two wasm
# modules costs minutes on a fresh clone (make site compresses again at
# 11).
test-site: SITE_BROTLI = 5
test-site: ## the page, the npm package and chromium, then the browser and npm package tests (./site, ./site/build)
	@$(MAKE) --no-print-directory -j1 site npm chromium SITE_BROTLI=$(SITE_BROTLI)
	$(GO) test -count=1 -timeout 60m ./site ./site/build

test-rest: ## every step but test-site, TEST_REST_JOBS at a time, at TEST_NICE, then go vet
	@status=0; \
	  $(MAKE) --no-print-directory -j$(TEST_REST_JOBS) -k $(TEST_REST) || status=1; \
	  $(MAKE) --no-print-directory test-vet || status=1; \
	  exit $$status

# Every package but site and site/build, the longest (compiler/gogen)
# named first: go test starts its test binaries in the order given, two
# at a time on two cores. site/build's tests prepare .cache/lean as the
# page and npm builds do, which make test runs beside this step:
# test-site runs them, after those builds.
test-go: ## the Go tests of the main module but site's and site/build's (test-site runs those)
	$(TEST_NICE) $(GO) test -count=1 -timeout 60m ./compiler/gogen $$($(GO) list ./... | grep -v -e '/site$$' -e '/site/build$$')

test-vet: ## go vet of the main module
	$(TEST_NICE) $(GO) vet ./...

test-codec: ## the codec module's vet and tests
	cd codec && $(TEST_NICE) $(GO) vet ./... && $(TEST_NICE) $(GO) test -count=1 -timeout 30m ./...

# bench/'s own report code (not the benchmarks: those are make bench).
test-bench: ## bench/cmd/benchrun's vet and tests
	cd bench && $(TEST_NICE) $(GO) vet ./cmd/benchrun && $(TEST_NICE) $(GO) test -count=1 ./cmd/benchrun

# The second run is the page's build of the core: no embedded runtime
# sources (site/build's pageWasmTags).
test-wasm: ## the wasm core's tests, in Node
	GOOS=js GOARCH=wasm $(TEST_NICE) $(GO) test -count=1 -exec="$(WASM_EXEC)" ./wasm/...
	GOOS=js GOARCH=wasm $(TEST_NICE) $(GO) test -count=1 -tags protoplay_lazyruntime -run TestLazyRuntimeSources -exec="$(WASM_EXEC)" ./wasm

# make test runs the official suite against protoplay's testee only:
# protobuf-go's testee, which make conformance also runs, is a reference
# that is printed and never gated (conformance/run.sh --no-reference).
test-conformance: ## make conformance at TEST_NICE, protoplay's testee only (no protobuf-go reference)
	$(TEST_NICE) conformance/run.sh --no-reference

test-lint: site/node_modules/.package-lock.json ## make lint, at TEST_NICE
	@$(TEST_NICE) $(MAKE) --no-print-directory lint

test-short: ## run the fast tests only
	$(GO) test -short ./...
	cd codec && $(GO) test -short ./...

# Without -trimpath: yaegi's extract (go generate ./interp/symbols)
# type-checks the standard library from the GOROOT its binary records.
generate: GOFLAGS = -mod=mod
generate: ## regenerate the embedded standard files, runtime/wkt, the TypeScript contract, the golden files (generated Go, payload views) and the interpreter's symbol tables from the current code
	$(GO) test ./compiler/frontend -run 'TestStandardSet' -update
	$(GO) test ./compiler -run 'TestWellKnownTypes|TestTypeScriptContract' -update
	$(GO) test ./compiler/gogen -run 'TestGolden' -update
	$(GO) test ./compiler/payload -run 'TestGolden' -update
	$(GO) generate ./interp/symbols

fmt: ## gofmt the tree
	gofmt -w $$(git ls-files '*.go')

demo: ## generate Go for the example schema and print it
	$(GO) run ./cmd/protoplay gen -I testdata/example -o .cache/demo example.proto
	@find .cache/demo -name '*.go' -not -path '*/protoplay/runtime/*' -exec cat {} +

release-check: ## check that every place the version is stated agrees with internal/version (CLI, plugin, generated header, npm package, page, CHANGELOG.md, a tag at HEAD)
	$(GO) test -count=1 -run 'TestReleaseVersionsAgree' ./internal/release
	$(GO) test -count=1 -run 'TestModuleVersion' ./site/build

clean: ## remove bin/, .cache and site/dist
	rm -rf bin .cache
	rm -rf site/dist

.PHONY: conformance
conformance: ## run Google's official conformance runner (protobuf 33.2) against protoplay's testee and protobuf-go's (conformance/run.sh)
	conformance/run.sh

# ---- make lint: staticcheck, pinned, with a small stated set of checks,
# and the TypeScript compiler in strict mode. The checks: SA* (staticcheck's
# correctness checks: misused standard-library calls, impossible
# comparisons, values never used, deprecated APIs) and U1000 (unused code).
# interp/symbols is left out: yaegi's extract generates it, and it exposes
# the standard library's whole API, deprecated parts included.
STATICCHECK = $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
LINT_CHECKS = SA*,U1000
lint: site/node_modules/.package-lock.json .cache/tsc-page ## staticcheck (checks SA*, U1000) over the Go modules, tsc --strict --noEmit over site/src, and no TypeScript module over 600 lines
	$(STATICCHECK) -checks '$(LINT_CHECKS)' $$($(GO) list ./... | grep -v '/interp/symbols$$')
	cd codec && $(STATICCHECK) -checks '$(LINT_CHECKS)' ./...
	cd bench && $(STATICCHECK) -checks '$(LINT_CHECKS)' ./cmd/...
	cd site && node node_modules/typescript/bin/tsc -p src/lib/tsconfig.json --strict --noEmit
	# no TypeScript module over 600 lines (generated ones aside)
	$(GO) test -count=1 -run 'TestModuleSize' ./site/build

# ---- The playground: wasm/ (the core for the browser) and site/ (the page).
# site/dist is built from the page's sources, the Go that goes into the wasm
# and the npm lock file; make rebuilds it only when one of them changed.
WASM_EXEC = $$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
SITE_INPUTS := site/index.html site/tsconfig.json site/package-lock.json \
	$(shell find site/src site/build site/static -type f 2>/dev/null) \
	$(shell find wasm interp compiler runtime -name '*.go' -not -name '*_test.go' 2>/dev/null) \
	go.mod testdata/example/example.proto testdata/example/main.go testdata/example/main_opaque.go LICENSE

.PHONY: site serve chromium
site: site/dist/index.html ## build the playground page into site/dist (wasm, bundles, .gz/.br)

site/node_modules/.package-lock.json: site/package-lock.json
	@echo "make: installing the page's libraries (npm ci)"
	cd site && npm ci --no-audit --no-fund

# The brotli quality of site/dist's .br files. make site (and so a
# release) uses 11, the smallest files, which takes minutes on the two
# wasm modules; make serve uses SERVE_BROTLI, seconds, for a page on
# 127.0.0.1 (site/build caches each .br under .cache/brotli by content and
# quality, and a quick build reuses a quality 11 one). .cache/site-brotli
# records the quality site/dist has; site/dist is rebuilt when a build asks
# for a better one, so make site after make serve compresses again and
# make serve after make site does not.
SITE_BROTLI ?= 11
SERVE_BROTLI ?= 5
SERVE_ADDR ?= 127.0.0.1:8080

# The page's type check (tsc --strict --noEmit over site/src), which make
# site, make npm and make lint share: it runs again when a source, a
# folder of site/src (a file added or removed), tsconfig.json or the
# installed libraries changed, not once per target.
TSC_PAGE_INPUTS := site/tsconfig.json $(shell find site/src 2>/dev/null)
.cache/tsc-page: site/node_modules/.package-lock.json $(TSC_PAGE_INPUTS)
	@echo "make: type-checking the page (tsc)"
	cd site && node node_modules/typescript/bin/tsc -p . --strict --noEmit
	@mkdir -p .cache && touch $@

site/dist/index.html: site/node_modules/.package-lock.json .cache/tsc-page $(SITE_INPUTS) .cache/site-brotli-wanted
	@echo "make: compiling and running the page builder (go run ./site/build; a minute more when the go command's cache is cold)"
	$(GO) run ./site/build -out site/dist -brotli $(SITE_BROTLI)
	@echo $(SITE_BROTLI) > .cache/site-brotli

.cache/site-brotli-wanted: FORCE
	@mkdir -p .cache; have=$$(cat .cache/site-brotli 2>/dev/null || echo -1); \
	  if [ ! -e $@ ] || [ $(SITE_BROTLI) -gt "$$have" ]; then touch $@; fi

.PHONY: FORCE
FORCE:

serve: ## build the page (brotli quality SERVE_BROTLI) and serve it on http://SERVE_ADDR (127.0.0.1:8080)
	@$(MAKE) --no-print-directory site SITE_BROTLI=$(SERVE_BROTLI)
	@echo "make: building bin/protoplay with the page embedded"
	$(GO) build -tags playground -o bin/protoplay ./cmd/protoplay
	bin/protoplay serve --addr $(SERVE_ADDR)

chromium: ## install Debian's chromium for the browser tests when it is missing
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo -n"; \
	  echo "installing chromium (apt) for the browser tests"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=120 chromium >/dev/null; }

# ---- The npm package (site/npm, site/src/lib): built by site/build -npm
# into .cache/npm/package and packed into .cache/npm/protoplay-VERSION.tgz,
# with the platform package of this machine's native core
# (@protoplay/<platform>-<arch>, site/build/native.go) built into
# .cache/npm/native/<platform>-<arch> and packed beside it (its file name
# in .cache/npm/packed-native, empty where there is none), for the tests.
NPM_INPUTS := $(SITE_INPUTS) $(shell find site/npm -type f 2>/dev/null) \
	$(shell find cmd/protoplay internal -name '*.go' -not -name '*_test.go' 2>/dev/null)
.PHONY: npm npm-release
npm: .cache/npm/packed ## build the npm package (widget and JS API) and this platform's native core package, and npm pack them into .cache/npm

.cache/npm/packed: site/node_modules/.package-lock.json .cache/tsc-page $(NPM_INPUTS)
	$(GO) run ./site/build -npm .cache/npm/package -npm-native .cache/npm/native -platforms host
	rm -f .cache/npm/*.tgz
	cd .cache/npm && for d in native/*/; do if [ -d "$$d" ]; then npm pack "./$$d" --pack-destination . | tail -1; fi; done > packed-native
	cd .cache/npm && npm pack ./package --pack-destination . | tail -1 > packed
	@echo "packed .cache/npm/$$(cat .cache/npm/packed) $$(cat .cache/npm/packed-native)"

# A release's npm packages: the main package and the five platform
# packages (linux x64/arm64, darwin x64/arm64, win32 x64), cross-compiled,
# each packed into .cache/npm-release, all of internal/version's version
# (make release-check). npm publish each platform package's .tgz before
# the main package's.
npm-release: site/node_modules/.package-lock.json .cache/tsc-page ## build and npm pack the npm package and its five platform packages (native cores, cross-compiled) into .cache/npm-release
	$(GO) run ./site/build -npm .cache/npm-release/package -npm-native .cache/npm-release/native -platforms all
	rm -f .cache/npm-release/*.tgz
	cd .cache/npm-release && for d in native/*/ package/; do npm pack "./$$d" --pack-destination . | tail -1; done

# ---- make bench: protoplay's generated code against protoc-gen-go and
# vtprotobuf (bench/, a module of its own; the peers' code is generated into
# bench/gen at bench time and never committed). Not part of make test.
# BENCHFLAGS passes flags to bench/cmd/benchrun (e.g. -benchtime 50ms -count 5).
.PHONY: bench
valgrind: ## install Debian's valgrind for make bench's instruction counts when it is missing
	@command -v valgrind >/dev/null 2>&1 || { \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo -n"; \
	  echo "installing valgrind (apt) for make bench's instruction counts"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=120 valgrind >/dev/null; }

bench: site npm chromium valgrind ## run the benchmarks (bench/): protoplay vs protoc-gen-go, vtprotobuf and hyperpb (wall time, and instructions under callgrind for the rows with targets), the npm package in Node, and the playground in chromium; writes docs/benchmarks.md
	cd bench && $(GO) run ./cmd/benchrun $(BENCHFLAGS)
