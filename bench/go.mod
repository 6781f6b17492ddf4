module github.com/protoplay/protoplay/bench

go 1.26.8

require (
	buf.build/go/hyperpb v0.1.3
	github.com/planetscale/vtprotobuf v0.6.0
	github.com/protoplay/protoplay v0.0.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/bufbuild/protocompile v0.14.1 // indirect
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/stretchr/testify v1.10.0 // indirect
	github.com/timandy/routine v1.1.5 // indirect
	golang.org/x/sync v0.16.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

replace github.com/protoplay/protoplay => ..
