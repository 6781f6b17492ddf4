# The one entry point to build, test and generate. Targets are listed by
# `make help`.
GO ?= go
export GOFLAGS ?= -mod=mod

.PHONY: help test test-short build generate vet fmt demo clean

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

build: ## build the CLI and the protoc plugin into bin/
	$(GO) build -o bin/protoplay ./cmd/protoplay
	$(GO) build -o bin/protoc-gen-protoplay ./cmd/protoc-gen-protoplay
	$(GO) run ./cmd/conformance-testee/gen -missing-ok -o bin/conformance-testee

test: ## run every test (what CI runs)
	$(GO) vet ./...
	$(GO) test -count=1 ./...

test-short: ## run the fast tests only
	$(GO) test -short ./...

generate: ## regenerate runtime/wkt and golden files from the current generator
	$(GO) test ./compiler -run 'TestWellKnownTypes' -update
	$(GO) test ./compiler/gogen -run 'TestGolden' -update

fmt: ## gofmt the tree
	gofmt -w $$(git ls-files '*.go')

demo: ## generate Go for the example schema and print it
	$(GO) run ./cmd/protoplay gen -I testdata/example -o .cache/demo example.proto
	@find .cache/demo -name '*.go' -exec cat {} +

clean:
	rm -rf bin .cache

.PHONY: conformance
conformance: ## build the conformance testee and run the Go conformance runner against it
	$(GO) test -count=1 -v -run 'TestConformance' ./cmd/conformance-testee
