module github.com/protoplay/protoplay/codec

go 1.26.8

replace github.com/protoplay/protoplay => ../

require (
	connectrpc.com/connect v1.21.1
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require golang.org/x/sys v0.48.0 // indirect
