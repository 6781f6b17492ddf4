module github.com/protoplay/protoplay/codec

go 1.26.8

replace github.com/protoplay/protoplay => ../

require (
	connectrpc.com/connect v1.21.1
	github.com/protoplay/protoplay v0.0.0-00010101000000-000000000000
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/bufbuild/protocompile v0.14.1 // indirect
	github.com/dave/jennifer v1.7.1 // indirect
	golang.org/x/sync v0.23.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	google.golang.org/grpc/cmd/protoc-gen-go-grpc v1.6.2 // indirect
)

tool (
	google.golang.org/grpc/cmd/protoc-gen-go-grpc
	google.golang.org/protobuf/cmd/protoc-gen-go
)
