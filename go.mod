module github.com/protoplay/protoplay

go 1.26.8

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/bufbuild/protocompile v0.14.1
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/dave/jennifer v1.7.1
	github.com/evanw/esbuild v0.28.2
	github.com/traefik/yaegi v0.16.1
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	golang.org/x/sync v0.8.0 // indirect
	golang.org/x/sys v0.0.0-20220715151400-c0bba94af5f8 // indirect
)
