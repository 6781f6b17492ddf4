module github.com/protoplay/protoplay/bench

go 1.26.8

require (
	github.com/planetscale/vtprotobuf v0.6.0
	github.com/protoplay/protoplay v0.0.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/bufbuild/protocompile v0.14.1 // indirect
	github.com/dave/jennifer v1.7.1 // indirect
	golang.org/x/sync v0.8.0 // indirect
)

replace github.com/protoplay/protoplay => ..
