module github.com/protoplay/protoplay

go 1.26.8

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/bufbuild/protocompile v0.14.2-0.20261020145055-56248e843b50
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/dave/jennifer v1.7.1
	github.com/evanw/esbuild v0.28.2
	github.com/rivo/uniseg v0.4.7
	github.com/traefik/yaegi v0.16.1
	google.golang.org/protobuf v1.36.13-0.20261016172727-e9ee2a76ab8e
)

require (
	buf.build/gen/go/bufbuild/protodescriptor/protocolbuffers/go v1.36.12-20250109164928-1da0de137947.1 // indirect
	buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go v1.36.12-20260709200747-435963d16310.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/petermattis/goid v0.0.0-20260716134002-a9b348f0a2b9 // indirect
	github.com/tidwall/btree v1.8.1 // indirect
	golang.org/x/exp v0.0.0-20260709172345-9ea1abe57597 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/sys v0.0.0-20220715151400-c0bba94af5f8 // indirect
)

// protoc-gen-go at the version above, for the tests that compare with it:
// go tool -n protoc-gen-go builds it once into the go command's cache.
tool google.golang.org/protobuf/cmd/protoc-gen-go
