package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/protoplay/protoplay/compiler"
)

// A Peer is one column of the tables: a generator (and option) and the
// calls its generated code is used through.
type Peer struct {
	Name string // as shown in tables
	Dir  string // gen/<Dir>/<set>: also the Go package alias prefix
	Kind string // "pp" (protoplay API), "pg" (proto.Marshal ...), "vt" (MarshalVT ...)
	// Opaque is set for code generated with default_api_level=API_OPAQUE:
	// fields behind Get/Set/Has methods, literals through M_builder.
	Opaque bool
}

// Peers in table order; protoplay (keep) is the reference every table
// compares against.
var (
	PeerPP     = Peer{"protoplay", "pp", "pp", false}
	PeerPPDrop = Peer{"protoplay unknown_fields=drop", "ppdrop", "pp", false}
	PeerPG     = Peer{"protoc-gen-go", "pg", "pg", false}
	PeerVT     = Peer{"vtprotobuf", "vt", "vt", false}
	AllPeers   = []Peer{PeerPP, PeerPPDrop, PeerPG, PeerVT}
	// PeerHP is hyperpb (buf.build/go/hyperpb), a decode-only peer: a
	// table-driven parser compiled at run time from the message's
	// descriptor (protodesc of the same compiled .proto) into read-only
	// messages. It has no generated code, so it is in the suite (decode
	// rows of the sets with HP) but not in the overhead and size programs.
	PeerHP = Peer{"hyperpb", "hp", "hp", false}
	// PeerPPO and PeerPGO are protoplay's and protoc-gen-go's opaque API
	// (default_api_level=API_OPAQUE) on the same messages; the opaque
	// tables compare PeerPPO with every other peer. vtprotobuf v0.6.0
	// has no opaque form.
	PeerPPO = Peer{"protoplay opaque", "ppo", "pp", true}
	PeerPGO = Peer{"protoc-gen-go opaque", "pgo", "pg", true}
	// BenchPeers are the suite's and the tables' peers.
	BenchPeers = []Peer{PeerPP, PeerPPDrop, PeerPG, PeerVT, PeerHP, PeerPPO, PeerPGO}
)

// A MessageSet is one .proto file, generated into one Go package per peer.
type MessageSet struct {
	Name     string // Go package name and directory under gen/<peer>/
	Root     string // import root
	File     string // path under Root
	Messages []Message
	// NoVT is set when the file has groups: protoc-gen-go-vtproto v0.6.0
	// generates code that does not compile for repeated groups (GoogleMessage2).
	NoVT bool
	// HP adds hyperpb decode rows; FDP is the file's serialized
	// FileDescriptorProto, from which the suite builds hyperpb's parser.
	HP  bool
	FDP []byte
	// Volume is the Go each generator wrote for the file (generateAll).
	Volume VolumeRow
}

// A VolumeRow is the generated Go of one input, in bytes: protoplay's with
// every method family (features=all, the default), and protoc-gen-go's
// plus vtprotobuf's (features=marshal+unmarshal+size+clone+equal), the
// pair issue 29's code-volume target is set against. Only the generated
// files count, not either side's runtime library.
type VolumeRow struct {
	Input      string
	Files      int
	Protoplay  int64
	ProtocGoGo int64 // protoc-gen-go
	VT         int64 // protoc-gen-go-vtproto
	// Note says what is odd about a column: vtprotobuf's output for a file
	// with groups is counted but does not compile.
	Note string
}

// A Message is one benchmarked message type.
type Message struct {
	Key     string // row label
	GoName  string
	Payload string // dataset file (BenchmarkDataset) or "" to marshal the literal
	Desc    protoreflect.MessageDescriptor
}

func messageSets(shared string, haveShared bool) []*MessageSet {
	sets := []*MessageSet{
		{Name: "origin", Root: "testdata", File: "origin.proto", Messages: []Message{{Key: "origin", GoName: "Origin"}}},
		{Name: "flat", Root: "testdata", File: "flat.proto", Messages: []Message{
			{Key: "flat0", GoName: "Flat0"}, {Key: "flat3", GoName: "Flat3"}, {Key: "flat5", GoName: "Flat5"},
			{Key: "flat10", GoName: "Flat10"}, {Key: "flat50", GoName: "Flat50"}}},
		{Name: "mixed", Root: "testdata", File: "mixed.proto", HP: true, Messages: []Message{{Key: "mixed", GoName: "Mixed"}}},
	}
	if haveShared {
		ds := filepath.Join(shared, "corpus", "benchmarks", "datasets")
		sets = append(sets,
			&MessageSet{Name: "gm1p3", Root: filepath.Join(ds, "google_message1", "proto3"), File: "benchmark_message1_proto3.proto", HP: true,
				Messages: []Message{{Key: "gm1_proto3", GoName: "GoogleMessage1", Payload: filepath.Join(ds, "google_message1", "proto3", "dataset.google_message1_proto3.pb")}}},
			&MessageSet{Name: "gm1p2", Root: filepath.Join(ds, "google_message1", "proto2"), File: "benchmark_message1_proto2.proto", HP: true,
				Messages: []Message{{Key: "gm1_proto2", GoName: "GoogleMessage1", Payload: filepath.Join(ds, "google_message1", "proto2", "dataset.google_message1_proto2.pb")}}},
			&MessageSet{Name: "gm2", Root: filepath.Join(ds, "google_message2"), File: "benchmark_message2.proto", HP: true,
				Messages: []Message{{Key: "gm2", GoName: "GoogleMessage2", Payload: filepath.Join(ds, "google_message2", "dataset.google_message2.pb")}}},
		)
	}
	return sets
}

func importPath(p Peer, set *MessageSet) string {
	dir := p.Dir
	if p.Kind == "vt" {
		dir = PeerPG.Dir // vtprotobuf adds methods to protoc-gen-go's types
	}
	return benchModule + "/gen/" + dir + "/" + set.Name
}

func generateAll(sets []*MessageSet) error {
	for _, set := range sets {
		src, err := os.ReadFile(filepath.Join(set.Root, set.File))
		if err != nil {
			return err
		}
		res := compiler.Compile(context.Background(), compiler.Request{
			Sources:    map[string]string{set.File: string(src)},
			Files:      []string{set.File},
			NoGenerate: true,
		})
		if err := res.Err(); err != nil {
			return fmt.Errorf("%s: %v", set.File, err)
		}
		var fd protoreflect.FileDescriptor
		for _, f := range res.Files {
			if f.Path() == set.File {
				fd = f
			}
		}
		if fd == nil {
			return fmt.Errorf("%s: not compiled", set.File)
		}
		for i := range set.Messages {
			m := &set.Messages[i]
			m.Desc = fd.Messages().ByName(protoreflect.Name(m.GoName))
			if m.Desc == nil {
				return fmt.Errorf("%s: no message %s", set.File, m.GoName)
			}
		}
		// protoplay: keep, drop and opaque.
		for _, p := range []Peer{PeerPP, PeerPPDrop, PeerPPO} {
			level := ""
			if p.Opaque {
				level = "API_OPAQUE"
			}
			gen := compiler.Compile(context.Background(), compiler.Request{
				Sources: map[string]string{set.File: string(src)},
				Files:   []string{set.File},
				Options: compiler.Options{
					Module:          benchModule,
					ImportMap:       map[string]string{set.File: importPath(p, set) + ";" + set.Name},
					DropUnknown:     p == PeerPPDrop,
					DefaultAPILevel: level,
				},
			})
			if err := gen.Err(); err != nil {
				return fmt.Errorf("%s: protoplay: %v", set.File, err)
			}
			files := gen.Generated
			dir := filepath.Join("gen", p.Dir, set.Name)
			os.RemoveAll(dir)
			if p == PeerPP {
				set.Volume = VolumeRow{Input: set.File, Files: 1}
				for _, f := range files {
					if strings.HasPrefix(f.Name, dir+"/") { // not the runtime written beside it
						set.Volume.Protoplay += int64(len(f.Content))
					}
				}
			}
			for _, f := range files {
				if err := writeFile(filepath.FromSlash(f.Name), f.Content); err != nil {
					return err
				}
			}
		}
		// protoc-gen-go then vtprotobuf into the same package, driven
		// without protoc through a CodeGeneratorRequest; then
		// protoc-gen-go's opaque API into a package of its own.
		os.RemoveAll(filepath.Join("gen", PeerPG.Dir, set.Name))
		os.RemoveAll(filepath.Join("gen", PeerPGO.Dir, set.Name))
		fdp := protodesc.ToFileDescriptorProto(fd)
		if set.HP {
			if set.FDP, err = proto.Marshal(fdp); err != nil {
				return err
			}
		}
		param := "module=" + benchModule + ",M" + set.File + "=" + importPath(PeerPG, set) + ";" + set.Name
		pgFiles, err := runPlugin("protoc-gen-go", param, fdp)
		if err != nil {
			return err
		}
		set.Volume.ProtocGoGo = contentBytes(pgFiles)
		// The opaque copy registers with google.golang.org/protobuf's
		// global registry beside the open one, so it is renamed: file
		// opaque/<file>, package <package>.opaque (the wire form does
		// not name either).
		fdpO := proto.CloneOf(fdp)
		fdpO.Name = proto.String("opaque/" + set.File)
		fdpO.Package = proto.String(fdp.GetPackage() + ".opaque")
		renamePackage(fdpO, "."+fdp.GetPackage()+".", "."+fdpO.GetPackage()+".")
		paramO := "module=" + benchModule + ",Mopaque/" + set.File + "=" + importPath(PeerPGO, set) + ";" + set.Name + ",default_api_level=API_OPAQUE"
		if _, err := runPlugin("protoc-gen-go", paramO, fdpO); err != nil {
			return err
		}
		set.NoVT = hasGroups(fd.Messages())
		vt := runPlugin
		if set.NoVT {
			fmt.Fprintf(os.Stderr, "benchrun: %s has groups: no vtprotobuf rows (protoc-gen-go-vtproto v0.6.0 emits code that does not compile for them)\n", set.File)
			// Its output is still counted for the code-volume table, and
			// not written.
			vt = pluginFiles
			set.Volume.Note = "vtprotobuf's output for groups does not compile; counted as written"
		}
		vtFiles, err := vt("protoc-gen-go-vtproto", param+",features="+vtFeatures, fdp)
		if err != nil {
			return err
		}
		set.Volume.VT = contentBytes(vtFiles)
	}
	return nil
}

// vtFeatures are the vtprotobuf method families generated beside
// protoc-gen-go's code: every one that protoplay's features=all also has.
const vtFeatures = "marshal+unmarshal+size+clone+equal"

func contentBytes(files []*pluginpb.CodeGeneratorResponse_File) int64 {
	var n int64
	for _, f := range files {
		n += int64(len(f.GetContent()))
	}
	return n
}

// runPlugin runs the plugin (gen/bin/name) on fdp and writes the files it
// generates (their names relative to bench/).
func runPlugin(name, param string, fdp *descriptorpb.FileDescriptorProto) ([]*pluginpb.CodeGeneratorResponse_File, error) {
	files, err := pluginFiles(name, param, fdp)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := writeFile(filepath.FromSlash(f.GetName()), f.GetContent()); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// pluginFiles runs the plugin (gen/bin/name) on fdp through a
// CodeGeneratorRequest and returns the files of its response.
func pluginFiles(name, param string, fdp *descriptorpb.FileDescriptorProto) ([]*pluginpb.CodeGeneratorResponse_File, error) {
	req := &pluginpb.CodeGeneratorRequest{
		FileToGenerate: []string{fdp.GetName()},
		Parameter:      proto.String(param),
		ProtoFile:      []*descriptorpb.FileDescriptorProto{fdp},
	}
	in, err := proto.Marshal(req)
	if err != nil {
		return nil, err
	}
	bin, _ := filepath.Abs(filepath.Join("gen", "bin", name))
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(in)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	var resp pluginpb.CodeGeneratorResponse
	if err := proto.Unmarshal(out.Bytes(), &resp); err != nil {
		return nil, fmt.Errorf("%s: response: %v", name, err)
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("%s: %s", name, resp.GetError())
	}
	return resp.File, nil
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

// firstPayload reads the first payload of a BenchmarkDataset
// (benchmarks.proto: field 3, repeated bytes).
func firstPayload(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, fmt.Errorf("%s: bad tag", path)
		}
		b = b[n:]
		if num == 3 && typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return nil, fmt.Errorf("%s: bad payload", path)
			}
			return v, nil
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return nil, fmt.Errorf("%s: bad field", path)
		}
		b = b[n:]
	}
	return nil, fmt.Errorf("%s: no payload", path)
}

func hasGroups(ms protoreflect.MessageDescriptors) bool {
	for i := 0; i < ms.Len(); i++ {
		m := ms.Get(i)
		for j := 0; j < m.Fields().Len(); j++ {
			if m.Fields().Get(j).Kind() == protoreflect.GroupKind {
				return true
			}
		}
		if hasGroups(m.Messages()) {
			return true
		}
	}
	return false
}

// renamePackage rewrites the type names of fdp's fields that start with
// from (".pkg.") to start with to.
func renamePackage(fdp *descriptorpb.FileDescriptorProto, from, to string) {
	var walk func([]*descriptorpb.DescriptorProto)
	walk = func(ms []*descriptorpb.DescriptorProto) {
		for _, m := range ms {
			for _, f := range append(m.Field, m.Extension...) {
				if t := f.GetTypeName(); strings.HasPrefix(t, from) {
					f.TypeName = proto.String(to + t[len(from):])
				}
				if e := f.GetExtendee(); strings.HasPrefix(e, from) {
					f.Extendee = proto.String(to + e[len(from):])
				}
			}
			walk(m.NestedType)
		}
	}
	walk(fdp.MessageType)
}
