package frontend

import (
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
)

func TestZZDiff(t *testing.T) {
	b, _ := os.ReadFile("/tmp/diffs.txt")
	for _, f := range strings.Fields(string(b)) {
		ob, _ := os.ReadFile("/tmp/olddesc/" + f)
		nb, _ := os.ReadFile("/tmp/newdesc/" + f)
		o, n := new(descriptorpb.FileDescriptorProto), new(descriptorpb.FileDescriptorProto)
		proto.Unmarshal(ob, o)
		proto.Unmarshal(nb, n)
		d := descriptorDiff(n.ProtoReflect(), o.ProtoReflect(), f)
		if len(d) > 8 {
			d = append(d[:8], "...")
		}
		t.Logf("%s: %d\n\t%s", f, len(descriptorDiff(n.ProtoReflect(), o.ProtoReflect(), f)), strings.Join(d, "\n\t"))
	}
}
